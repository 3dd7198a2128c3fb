//! A slot's virtual display: the Xvfb process, and what the host asks of an X server (the game's
//! window, input focus, leftover clients, reading pixels back). There is no window manager, so
//! the host sets the input focus itself, or keys never reach the game.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat, InputFocus, MapState, Window};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

/// How long an Xvfb may take to accept connections.
const XVFB_START: Duration = Duration::from_secs(10);

/// A running Xvfb. Dropping it kills the server (and with it every client still on it).
pub struct Xvfb {
    /// Killed on drop: a host that goes away leaves no display behind.
    child: Child,
    /// The display number (`:N`).
    pub number: u32,
}

impl Xvfb {
    /// Starts an Xvfb of `size` on display `number`, or on a free one it picks itself
    /// (`-displayfd`), and waits until it accepts connections.
    pub async fn start(number: Option<u32>, size: [u32; 2]) -> std::io::Result<Xvfb> {
        let mut cmd = Command::new("Xvfb");
        if let Some(n) = number {
            cmd.arg(format!(":{n}"));
        }
        cmd.args(["-screen", "0", &format!("{}x{}x24", size[0], size[1])])
            // No TCP, no server reset when the last client leaves (a slot's display outlives
            // its games), and the number written to stdout once it accepts connections.
            .args(["-nolisten", "tcp", "-noreset", "-displayfd", "1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        die_with_parent(&mut cmd);
        let mut child = cmd.spawn()?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        let read = tokio::time::timeout(XVFB_START, BufReader::new(stdout).read_line(&mut line)).await;
        let number = match read {
            Ok(Ok(n)) if n > 0 => line.trim().parse::<u32>().map_err(std::io::Error::other)?,
            _ => {
                let _ = child.start_kill();
                let status = child.wait().await.ok();
                return Err(std::io::Error::other(format!("xvfb did not start ({status:?})")));
            }
        };
        Ok(Xvfb { child, number })
    }

    /// `:N`, for `DISPLAY` and X clients.
    pub fn name(&self) -> String {
        format!(":{}", self.number)
    }

    /// Whether the server is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// The child dies with the host even when the host is killed with SIGKILL, so a restarted host
/// finds no orphaned display or game. (The signal follows the spawning thread; the host spawns
/// from its long-lived main thread.)
pub fn die_with_parent(cmd: &mut Command) {
    // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// An X connection to a display, with its root window.
pub struct Display {
    pub conn: RustConnection,
    pub root: Window,
    pub width: u16,
    pub height: u16,
}

impl Display {
    pub fn open(name: &str) -> Result<Display, String> {
        let (conn, screen) = RustConnection::connect(Some(name)).map_err(|e| format!("cannot open display {name}: {e}"))?;
        let s = &conn.setup().roots[screen];
        let (root, width, height) = (s.root, s.width_in_pixels, s.height_in_pixels);
        Ok(Display { conn, root, width, height })
    }

    /// The root's children: `(window, mapped, width, height)`. Without a window manager these
    /// are the clients' top-level windows.
    pub fn top_windows(&self) -> Result<Vec<(Window, bool, u32)>, String> {
        let tree = self.conn.query_tree(self.root).map_err(err)?.reply().map_err(err)?;
        let mut out = Vec::with_capacity(tree.children.len());
        for w in tree.children {
            // A window may vanish between the tree and its attributes; skip it then.
            let Ok(attrs) = self.conn.get_window_attributes(w).map_err(err)?.reply() else {
                continue;
            };
            let Ok(geo) = self.conn.get_geometry(w).map_err(err)?.reply() else {
                continue;
            };
            out.push((
                w,
                attrs.map_state == MapState::VIEWABLE,
                u32::from(geo.width) * u32::from(geo.height),
            ));
        }
        Ok(out)
    }

    /// The largest mapped top-level window: the game's.
    pub fn game_window(&self) -> Result<Option<Window>, String> {
        Ok(self.top_windows()?.into_iter().filter(|w| w.1).max_by_key(|w| w.2).map(|w| w.0))
    }

    /// Gives the game's window the input focus unless it has it. Returns whether a game window
    /// exists.
    pub fn keep_focus(&self) -> Result<bool, String> {
        let Some(win) = self.game_window()? else {
            return Ok(false);
        };
        let focus = self.conn.get_input_focus().map_err(err)?.reply().map_err(err)?.focus;
        if focus != win {
            self.conn
                .set_input_focus(InputFocus::PARENT, win, x11rb::CURRENT_TIME)
                .map_err(err)?
                .check()
                .map_err(err)?;
        }
        Ok(true)
    }

    /// Disconnects every client that still has a window: after the game's processes are gone
    /// nothing of a session may stay on the display. Returns how many were cut.
    pub fn kill_leftovers(&self) -> Result<usize, String> {
        let windows = self.top_windows()?;
        for (w, _, _) in &windows {
            // The window may already be gone with its client; that is the point.
            let _ = self.conn.kill_client(*w).map_err(err)?.check();
        }
        self.conn.sync().map_err(err)?;
        Ok(windows.len())
    }

    /// The display's pixels in a rectangle, as `0xRRGGBB` rows (the server's 24-bit depth).
    pub fn read_rgb(&self, x: i16, y: i16, w: u16, h: u16) -> Result<Vec<u32>, String> {
        let img = self
            .conn
            .get_image(ImageFormat::Z_PIXMAP, self.root, x, y, w, h, !0)
            .map_err(err)?
            .reply()
            .map_err(err)?;
        // 24-bit depth is stored as 32 bits per pixel, little-endian BGRX.
        Ok(img
            .data
            .chunks_exact(4)
            .map(|p| (u32::from(p[2]) << 16) | (u32::from(p[1]) << 8) | u32::from(p[0]))
            .collect())
    }

    /// Whether the top-left `size` of the display shows more than one flat colour (sampled on
    /// a grid of rows, so a check costs a few kilobytes, not a frame).
    pub fn drawn(&self, size: [u32; 2]) -> Result<bool, String> {
        let [w, h] = size;
        let mut first = None;
        for row in 0..16 {
            let y = (h * (2 * row + 1) / 32) as i16;
            for px in self.read_rgb(0, y, w as u16, 1)?.into_iter().step_by(7) {
                match first {
                    None => first = Some(px),
                    Some(f) if f != px => return Ok(true),
                    _ => {}
                }
            }
        }
        Ok(false)
    }

    /// One pixel.
    pub fn pixel(&self, x: i16, y: i16) -> Result<u32, String> {
        Ok(self.read_rgb(x, y, 1, 1)?[0])
    }

    /// Where the pointer is.
    pub fn pointer(&self) -> Result<(i16, i16), String> {
        let p = self.conn.query_pointer(self.root).map_err(err)?.reply().map_err(err)?;
        Ok((p.root_x, p.root_y))
    }
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}
