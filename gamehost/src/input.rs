//! The controller's input into a slot's display with XTest: a thread per slot owns an X
//! connection and replays what the stream connections of the session's controller send (keys by
//! `KeyboardEvent.code` → keysym → the display's keycode, pointer motion absolute or relative,
//! buttons 1/2/3, the wheel as buttons 4–7). It remembers what is held down, so a reset leaves
//! no key or button pressed for the next session, and a control change none for the next
//! controller.

use std::collections::{BTreeSet, HashMap};
use std::sync::mpsc;

use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{
    ConnectionExt as _, BUTTON_PRESS_EVENT, BUTTON_RELEASE_EVENT, KEY_PRESS_EVENT, KEY_RELEASE_EVENT, MOTION_NOTIFY_EVENT,
};
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::CURRENT_TIME;

use crate::display::Display;

/// One input event, in the picture's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Key {
        code: String,
        down: bool,
    },
    Move {
        x: u32,
        y: u32,
    },
    Delta {
        dx: i32,
        dy: i32,
    },
    /// `MouseEvent.button`: 0 left, 1 middle, 2 right.
    Button {
        button: u32,
        down: bool,
    },
    /// Wheel steps, positive down / right.
    Wheel {
        dx: i32,
        dy: i32,
    },
    /// Lets go of every key and button still held (between sessions).
    ReleaseAll,
}

/// Sends input to a slot's injector thread.
#[derive(Clone)]
pub struct Injector {
    tx: mpsc::Sender<Input>,
}

impl Injector {
    /// Starts the thread for a display; it ends when the display goes away or every sender is
    /// dropped.
    pub fn start(display: String) -> Result<Injector, String> {
        let d = Display::open(&display)?;
        let keymap = keymap(&d)?;
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("input{display}"))
            .spawn(move || run(d, keymap, rx))
            .map_err(|e| e.to_string())?;
        Ok(Injector { tx })
    }

    pub fn send(&self, input: Input) {
        // A closed channel means the display is gone; the slot notices on its own.
        let _ = self.tx.send(input);
    }
}

fn run(d: Display, keymap: HashMap<u32, u8>, rx: mpsc::Receiver<Input>) {
    let mut keys_down = BTreeSet::new();
    let mut buttons_down = BTreeSet::new();
    while let Ok(first) = rx.recv() {
        // Everything already queued goes out in one flush.
        let mut next = Some(first);
        while let Some(input) = next {
            if inject(&d, &keymap, &mut keys_down, &mut buttons_down, input).is_err() {
                return;
            }
            next = rx.try_recv().ok();
        }
        if d.conn.flush().is_err() {
            return;
        }
    }
}

fn inject(
    d: &Display,
    keymap: &HashMap<u32, u8>,
    keys_down: &mut BTreeSet<u8>,
    buttons_down: &mut BTreeSet<u8>,
    input: Input,
) -> Result<(), x11rb::errors::ConnectionError> {
    let fake = |kind: u8, detail: u8, x: i16, y: i16| d.conn.xtest_fake_input(kind, detail, CURRENT_TIME, d.root, x, y, 0).map(|_| ());
    match input {
        Input::Key { code, down } => {
            let Some(kc) = keysym(&code).and_then(|s| keymap.get(&s).copied()) else {
                return Ok(());
            };
            // A release of a key that is not down, or a repeat press, changes nothing.
            if down && keys_down.insert(kc) {
                fake(KEY_PRESS_EVENT, kc, 0, 0)?;
            } else if !down && keys_down.remove(&kc) {
                fake(KEY_RELEASE_EVENT, kc, 0, 0)?;
            }
        }
        Input::Move { x, y } => {
            let x = x.min(u32::from(d.width) - 1) as i16;
            let y = y.min(u32::from(d.height) - 1) as i16;
            fake(MOTION_NOTIFY_EVENT, 0, x, y)?;
        }
        Input::Delta { dx, dy } => {
            let clamp = |v: i32| v.clamp(-4096, 4096) as i16;
            // detail 1: relative to where the pointer is.
            fake(MOTION_NOTIFY_EVENT, 1, clamp(dx), clamp(dy))?;
        }
        Input::Button { button, down } => {
            let b = match button {
                0 => 1,
                1 => 2,
                2 => 3,
                _ => return Ok(()),
            };
            if down && buttons_down.insert(b) {
                fake(BUTTON_PRESS_EVENT, b, 0, 0)?;
            } else if !down && buttons_down.remove(&b) {
                fake(BUTTON_RELEASE_EVENT, b, 0, 0)?;
            }
        }
        Input::Wheel { dx, dy } => {
            // X's wheel: 4 up, 5 down, 6 left, 7 right, one click per step.
            let steps = [(dy, 4u8, 5u8), (dx, 6, 7)];
            for (v, neg, pos) in steps {
                let b = if v < 0 { neg } else { pos };
                for _ in 0..v.unsigned_abs().min(20) {
                    fake(BUTTON_PRESS_EVENT, b, 0, 0)?;
                    fake(BUTTON_RELEASE_EVENT, b, 0, 0)?;
                }
            }
        }
        Input::ReleaseAll => {
            for kc in std::mem::take(keys_down) {
                fake(KEY_RELEASE_EVENT, kc, 0, 0)?;
            }
            for b in std::mem::take(buttons_down) {
                fake(BUTTON_RELEASE_EVENT, b, 0, 0)?;
            }
        }
    }
    Ok(())
}

/// keysym → the first keycode that produces it unshifted (else shifted) on this display.
pub fn keymap(d: &Display) -> Result<HashMap<u32, u8>, String> {
    let setup = d.conn.setup();
    let (min, max) = (setup.min_keycode, setup.max_keycode);
    let reply = d
        .conn
        .get_keyboard_mapping(min, max - min + 1)
        .map_err(|e| e.to_string())?
        .reply()
        .map_err(|e| e.to_string())?;
    let per = usize::from(reply.keysyms_per_keycode.max(1));
    let mut map = HashMap::new();
    for column in 0..per.min(2) {
        for (i, syms) in reply.keysyms.chunks(per).enumerate() {
            if let Some(&sym) = syms.get(column) {
                if sym != 0 {
                    map.entry(sym).or_insert(min + i as u8);
                }
            }
        }
    }
    Ok(map)
}

/// The X keysym of a `KeyboardEvent.code` (the physical key, whatever the layout).
pub fn keysym(code: &str) -> Option<u32> {
    if let Some(c) = code.strip_prefix("Key") {
        let c = c.as_bytes();
        if c.len() == 1 && c[0].is_ascii_uppercase() {
            return Some(u32::from(c[0].to_ascii_lowercase()));
        }
    }
    if let Some(d) = code.strip_prefix("Digit") {
        let d = d.as_bytes();
        if d.len() == 1 && d[0].is_ascii_digit() {
            return Some(u32::from(d[0]));
        }
    }
    if let Some(d) = code.strip_prefix("Numpad") {
        let d = d.as_bytes();
        if d.len() == 1 && d[0].is_ascii_digit() {
            return Some(0xffb0 + u32::from(d[0] - b'0'));
        }
    }
    if let Some(n) = code.strip_prefix('F').and_then(|n| n.parse::<u32>().ok()) {
        if (1..=12).contains(&n) {
            return Some(0xffbe + n - 1);
        }
    }
    Some(match code {
        "Space" => 0x20,
        "Enter" => 0xff0d,
        "Escape" => 0xff1b,
        "Backspace" => 0xff08,
        "Tab" => 0xff09,
        "ArrowLeft" => 0xff51,
        "ArrowUp" => 0xff52,
        "ArrowRight" => 0xff53,
        "ArrowDown" => 0xff54,
        "ShiftLeft" => 0xffe1,
        "ShiftRight" => 0xffe2,
        "ControlLeft" => 0xffe3,
        "ControlRight" => 0xffe4,
        "CapsLock" => 0xffe5,
        "AltLeft" => 0xffe9,
        "AltRight" => 0xffea,
        "MetaLeft" => 0xffeb,
        "MetaRight" => 0xffec,
        "Insert" => 0xff63,
        "Delete" => 0xffff,
        "Home" => 0xff50,
        "End" => 0xff57,
        "PageUp" => 0xff55,
        "PageDown" => 0xff56,
        "Minus" => 0x2d,
        "Equal" => 0x3d,
        "BracketLeft" => 0x5b,
        "BracketRight" => 0x5d,
        "Backslash" => 0x5c,
        "Semicolon" => 0x3b,
        "Quote" => 0x27,
        "Backquote" => 0x60,
        "Comma" => 0x2c,
        "Period" => 0x2e,
        "Slash" => 0x2f,
        "NumpadEnter" => 0xff8d,
        "NumpadAdd" => 0xffab,
        "NumpadSubtract" => 0xffad,
        "NumpadMultiply" => 0xffaa,
        "NumpadDivide" => 0xffaf,
        "NumpadDecimal" => 0xffae,
        "NumLock" => 0xff7f,
        "ScrollLock" => 0xff14,
        "Pause" => 0xff13,
        "PrintScreen" => 0xff61,
        "ContextMenu" => 0xff67,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::keysym;

    #[test]
    fn codes_map_to_keysyms() {
        for (code, sym) in [
            ("KeyA", Some(0x61)),
            ("KeyZ", Some(0x7a)),
            ("Digit0", Some(0x30)),
            ("Numpad7", Some(0xffb7)),
            ("F1", Some(0xffbe)),
            ("F12", Some(0xffc9)),
            ("F13", None),
            ("ArrowUp", Some(0xff52)),
            ("Space", Some(0x20)),
            ("ShiftLeft", Some(0xffe1)),
            ("Keya", None),
            ("KeyAB", None),
            ("", None),
            ("Nonsense", None),
        ] {
            assert_eq!(keysym(code), sym, "{code}");
        }
    }
}
