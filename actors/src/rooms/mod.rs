//! Live rooms (social.md §2.11–2.17, §4.1–4.9): a host plays, members watch, chat, take seats
//! and take control. One [`actor::RoomActor`] per open room owns its state; the rules are pure
//! parts beside it, unit-tested without a runtime.
//!
//! Layout:
//!
//! - `view`: the typed answers and forms of the room calls.
//! - `events`: the room's events (§4.8 and ours) and [`events::EventLog`], the stream with
//!   offsets under an epoch that a returning watcher resumes from.
//! - `wire`: [`wire::RoomWire`] (encodes a batch once; the facade's) and [`wire::RoomSink`] (one
//!   watching socket).
//! - `perm`: roles × commands, one table, deny by default.
//! - `seats`: the mic seats and their queue.
//! - `control`: the apply-control states, the controller and the fair rotation.
//! - `state`: [`state::RoomState`], the whole room (members, seats, control, moderation,
//!   counters), whose every command returns its events and effects.
//! - `fanout`: the watchers of a room and the batching of frames to them.
//! - `actor`: [`actor::RoomActor`], which carries the effects out (timers on tokio time, fan-out,
//!   storage, the game host's controller).
//! - `password`: the 4-digit room password (base64 on the wire, salted SHA-256 at rest).

pub mod actor;
pub mod control;
pub mod events;
pub mod fanout;
pub mod live_bill;
pub mod password;
pub mod perm;
pub mod seats;
pub mod service;
pub mod state;
pub mod view;
pub mod wire;
