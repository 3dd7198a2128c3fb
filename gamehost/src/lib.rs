//! The game host (`yoo-gamehost`): a program beside the platform that owns machine slots (each a
//! virtual display, Xvfb), runs one game per session on a slot, captures and encodes it
//! (GStreamer, H.264 constrained baseline), streams it to browsers over a WebSocket that a
//! platform-signed ticket opens, injects the session's player's input (XTest), and registers
//! its slots with the platform over the host link (`hostlink`).
//!
//! - `config`: the TOML file (host, node secret, platform, slots, games).
//! - `host`: [`host::start`], the slots, HTTP server and link together.
//! - `slot`: a slot's phases and its actor (launch, first frame, end, reset).
//! - `display`: Xvfb and the X requests the host needs (window, focus, leftovers, pixels).
//! - `game`: a game's process group, priority and fresh home.
//! - `capture`: the GStreamer pipeline into the fan-out.
//! - `fanout`: encoded units to every viewer, dropping to the next key frame for slow ones.
//! - `socket`: one stream connection (picture out, input in).
//! - `http`: `/stream` (ticket checks), `/ping`, `/metrics`.
//! - `input`: XTest injection and the key code → keysym table.
//! - `link`: the platform link client (hello, heartbeats, reports, reconnects).
//! - `pattern`: the built-in test pattern "game" (`yoo-gamehost --pattern`).
//! - `observe`: the metrics.

pub mod capture;
pub mod config;
pub mod display;
pub mod fanout;
pub mod game;
pub mod host;
pub mod http;
pub mod input;
pub mod link;
pub mod observe;
pub mod pattern;
pub mod slot;
pub mod socket;

/// The stream protocol (`proto/stream.proto`).
pub mod proto {
    include!(concat!(env!("OUT_DIR"), "/yoo.stream.v1.rs"));
}

pub use config::HostConfig;
pub use host::{start, Host, Running};

/// The wall clock in milliseconds since the epoch (tickets and hellos are stamped with it).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
