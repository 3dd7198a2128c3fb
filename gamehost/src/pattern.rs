//! The built-in test pattern "game" (`yoo-gamehost --pattern`): an X client that draws what a
//! test or a benchmark can read back from the picture, without trusting the host's clocks.
//!
//! Layout (block `b` = max(8, width / 64) pixels):
//! - the time code, row 0: block 0 white and block 1 black (calibration), then the wall clock in
//!   milliseconds since the epoch as [`TIME_BITS`] blocks, most significant bit first, white = 1;
//! - the last key pressed: a 2b square at (width − 3b, 2b), [`key_color`] of its keycode and
//!   press count; [`IDLE`] before any key;
//! - the last button pressed: a 2b square at (width − 6b, 2b), [`button_color`];
//! - the pointer: a [`MARKER`] square of `b` centred on it, drawn last;
//! - with `--busy`, a band from row 5b down (at most [`BUSY_BYTES`] of pixels) of fresh noise
//!   every redraw: a picture that costs the encoder its full bitrate (slow-viewer tests);
//! - everything else [`BACKGROUND`].
//!
//! It redraws at `--fps` (60 by default, so the time code is at most one refresh old when
//! captured) and gives its window the input focus itself (there is no window manager).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{
    AtomEnum, ChangeGCAux, ConnectionExt as _, CreateGCAux, CreateWindowAux, EventMask, ImageFormat, InputFocus, PropMode, Rectangle,
    WindowClass,
};
use x11rb::protocol::Event;
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

/// The most pixel bytes the `--busy` band puts per redraw (one X request).
pub const BUSY_BYTES: u32 = 200_000;

/// Bits of the time code.
pub const TIME_BITS: u32 = 44;
pub const BACKGROUND: u32 = 0x404040;
pub const MARKER: u32 = 0xff0000;
/// The key and button blocks before anything was pressed.
pub const IDLE: u32 = 0x000080;

/// Where the pattern draws what, for a window of a size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub width: u32,
    pub height: u32,
    pub block: u32,
}

impl Layout {
    pub fn new(width: u32, height: u32) -> Layout {
        Layout {
            width,
            height,
            block: (width / 64).max(8),
        }
    }

    /// The top-left corner of time-code block `i` (0 and 1 are the calibration blocks).
    pub fn time_block(&self, i: u32) -> (u32, u32) {
        (i * self.block, 0)
    }

    /// The last-key square: (x, y, side).
    pub fn key_block(&self) -> (u32, u32, u32) {
        (self.width - 3 * self.block, 2 * self.block, 2 * self.block)
    }

    /// The last-button square: (x, y, side).
    pub fn button_block(&self) -> (u32, u32, u32) {
        (self.width - 6 * self.block, 2 * self.block, 2 * self.block)
    }

    /// Reads the time code from a picture; `px(x, y)` is the `0xRRGGBB` colour at a pixel.
    /// None when the calibration blocks are not there (not the pattern, or not drawn yet).
    pub fn read_time_ms(&self, px: impl Fn(u32, u32) -> u32) -> Option<u64> {
        let luma = |rgb: u32| ((rgb >> 16 & 0xff) * 3 + (rgb >> 8 & 0xff) * 6 + (rgb & 0xff)) / 10;
        let bit = |i: u32| {
            let (x, y) = self.time_block(i);
            luma(px(x + self.block / 2, y + self.block / 2)) >= 128
        };
        if !bit(0) || bit(1) {
            return None;
        }
        Some((0..TIME_BITS).fold(0u64, |acc, i| acc << 1 | u64::from(bit(2 + i))))
    }
}

/// The last-key square's colour: a function of the keycode, inverted on every second press so
/// that each press changes the picture.
pub fn key_color(keycode: u8, presses: u32) -> u32 {
    let k = u32::from(keycode);
    let c = (64 + k * 53 % 192) << 16 | (64 + k * 97 % 192) << 8 | (64 + k * 29 % 192);
    if presses.is_multiple_of(2) {
        c ^ 0xffffff
    } else {
        c
    }
}

/// The last-button square's colour, the same way.
pub fn button_color(button: u8, presses: u32) -> u32 {
    let c = match button {
        1 => 0x00c000,
        2 => 0xc0c000,
        3 => 0x00c0c0,
        _ => 0xc000c0,
    };
    if presses.is_multiple_of(2) {
        c ^ 0xffffff
    } else {
        c
    }
}

/// The pattern's options (`--size WxH`, `--fps N`, `--exit-after MS`, `--busy`), the flags
/// that follow `yoo-gamehost --pattern` (the binary's command line, clap, flattens them in).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Options {
    /// The window's size (default: the display's).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<[u32; 2]>,
    /// Redraws per second (default 60, at most 240).
    #[arg(long, value_name = "N")]
    pub fps: Option<u32>,
    /// Quits on its own after this long (to exercise a game that ends by itself).
    #[arg(long = "exit-after", value_name = "MS")]
    pub exit_after_ms: Option<u64>,
    /// Draws a band of fresh noise every redraw.
    #[arg(long)]
    pub busy: bool,
}

/// `--size`'s value: `WxH`, e.g. `1280x720`.
pub fn parse_size(v: &str) -> Result<[u32; 2], String> {
    let bad = || format!("{v:?} is not WxH (e.g. 1280x720)");
    let (w, h) = v.split_once('x').ok_or_else(bad)?;
    Ok([w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?])
}

/// Runs the pattern on `$DISPLAY` until the display goes away (or `exit_after_ms`).
pub fn run(opts: Options) -> Result<(), String> {
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let (conn, screen) = RustConnection::connect(None).map_err(|x| e(&x))?;
    let s = &conn.setup().roots[screen];
    let root = s.root;
    let [w, h] = opts.size.unwrap_or([u32::from(s.width_in_pixels), u32::from(s.height_in_pixels)]);
    let layout = Layout::new(w, h);
    let win = conn.generate_id().map_err(|x| e(&x))?;
    conn.create_window(
        x11rb::COPY_DEPTH_FROM_PARENT,
        win,
        root,
        0,
        0,
        w as u16,
        h as u16,
        0,
        WindowClass::INPUT_OUTPUT,
        x11rb::COPY_FROM_PARENT,
        &CreateWindowAux::new()
            .background_pixel(BACKGROUND)
            .event_mask(EventMask::KEY_PRESS | EventMask::BUTTON_PRESS | EventMask::EXPOSURE),
    )
    .map_err(|x| e(&x))?;
    conn.change_property8(PropMode::REPLACE, win, AtomEnum::WM_NAME, AtomEnum::STRING, b"yoo test pattern")
        .map_err(|x| e(&x))?;
    conn.map_window(win).map_err(|x| e(&x))?;
    let gc = conn.generate_id().map_err(|x| e(&x))?;
    conn.create_gc(gc, win, &CreateGCAux::new().foreground(BACKGROUND))
        .map_err(|x| e(&x))?;
    conn.set_input_focus(InputFocus::PARENT, win, x11rb::CURRENT_TIME)
        .map_err(|x| e(&x))?;
    conn.flush().map_err(|x| e(&x))?;

    let fill = |color: u32, x: i32, y: i32, side_w: u32, side_h: u32| -> Result<(), String> {
        conn.change_gc(gc, &ChangeGCAux::new().foreground(color)).map_err(|x| e(&x))?;
        let r = Rectangle {
            x: x as i16,
            y: y as i16,
            width: side_w as u16,
            height: side_h as u16,
        };
        conn.poly_fill_rectangle(win, gc, &[r]).map_err(|x| e(&x))?;
        Ok(())
    };
    let period = Duration::from_secs_f64(1.0 / f64::from(opts.fps.unwrap_or(60).clamp(1, 240)));
    let started = Instant::now();
    let mut key = (0u8, 0u32);
    let mut button = (0u8, 0u32);
    let mut marker: Option<(i32, i32)> = None;
    let mut full = true;
    let b = layout.block;
    let mut next = Instant::now();
    let (mut noise, mut seed) = (Vec::new(), 0x9e37_79b9_7f4a_7c15u64);
    loop {
        if opts.exit_after_ms.is_some_and(|ms| started.elapsed() >= Duration::from_millis(ms)) {
            return Ok(());
        }
        while let Some(ev) = conn.poll_for_event().map_err(|x| e(&x))? {
            match ev {
                Event::KeyPress(k) => key = (k.detail, if key.0 == k.detail { key.1 + 1 } else { 1 }),
                Event::ButtonPress(p) => button = (p.detail, if button.0 == p.detail { button.1 + 1 } else { 1 }),
                Event::Expose(_) => full = true,
                _ => {}
            }
        }
        let p = conn.query_pointer(win).map_err(|x| e(&x))?.reply().map_err(|x| e(&x))?;
        let pointer = (i32::from(p.win_x), i32::from(p.win_y));
        if full {
            fill(BACKGROUND, 0, 0, w, h)?;
        } else if let Some((mx, my)) = marker.filter(|m| *m != pointer) {
            fill(BACKGROUND, mx - b as i32 / 2, my - b as i32 / 2, b, b)?;
        }
        full = false;
        let now_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        fill(0xffffff, 0, 0, b, b)?;
        fill(0x000000, b as i32, 0, b, b)?;
        for i in 0..TIME_BITS {
            let on = now_ms >> (TIME_BITS - 1 - i) & 1 == 1;
            let (x, y) = layout.time_block(2 + i);
            fill(if on { 0xffffff } else { 0x000000 }, x as i32, y as i32, b, b)?;
        }
        let (kx, ky, ks) = layout.key_block();
        fill(
            if key.1 == 0 { IDLE } else { key_color(key.0, key.1) },
            kx as i32,
            ky as i32,
            ks,
            ks,
        )?;
        let (bx, by, bs) = layout.button_block();
        fill(
            if button.1 == 0 { IDLE } else { button_color(button.0, button.1) },
            bx as i32,
            by as i32,
            bs,
            bs,
        )?;
        if opts.busy {
            let top = (5 * b).min(h);
            let rows = (h - top).min(BUSY_BYTES / (4 * w).max(1));
            noise.resize((w * rows * 4) as usize, 0);
            for px in noise.chunks_exact_mut(8) {
                // xorshift64: cheap, and no pattern the encoder could predict.
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                px.copy_from_slice(&seed.to_le_bytes());
            }
            if rows > 0 {
                conn.put_image(
                    ImageFormat::Z_PIXMAP,
                    win,
                    gc,
                    w as u16,
                    rows as u16,
                    0,
                    top as i16,
                    0,
                    s.root_depth,
                    &noise,
                )
                .map_err(|x| e(&x))?;
            }
        }
        fill(MARKER, pointer.0 - b as i32 / 2, pointer.1 - b as i32 / 2, b, b)?;
        marker = Some(pointer);
        conn.flush().map_err(|x| e(&x))?;
        next += period;
        let now = Instant::now();
        if next > now {
            std::thread::sleep(next - now);
        } else {
            next = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_code_round_trips() {
        let l = Layout::new(1280, 720);
        assert_eq!(l.block, 20);
        let t: u64 = 1_795_000_123_456;
        // A picture holding the code: each block's colour by its index.
        let px = |x: u32, y: u32| {
            assert!(y < l.block);
            match x / l.block {
                0 => 0xffffff,
                1 => 0x000000,
                i => {
                    if t >> (TIME_BITS - 1 - (i - 2)) & 1 == 1 {
                        0xf0f0f0
                    } else {
                        0x101010
                    }
                }
            }
        };
        assert_eq!(l.read_time_ms(px), Some(t));
        assert_eq!(l.read_time_ms(|_, _| BACKGROUND), None);
    }

    #[test]
    fn every_press_changes_the_colour() {
        assert_ne!(key_color(38, 1), key_color(38, 2));
        assert_ne!(key_color(38, 1), key_color(39, 1));
        for c in [key_color(38, 1), key_color(38, 2), button_color(1, 1), button_color(1, 2)] {
            assert!(![BACKGROUND, MARKER, IDLE].contains(&c));
        }
    }

    #[test]
    fn sizes_are_w_x_h() {
        assert_eq!(parse_size("640x360"), Ok([640, 360]));
        for bad in ["640", "640x", "x360", "640×360", "-1x2", "640x360x2"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
