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
//! - `call`: [`call::RoomCall`], the service's calls on a room as data (one variant per
//!   operation), [`call::RoomReply`] and the one dispatcher `RoomState::apply`; a call declares
//!   what its reply needs from the room after the effects (the view, at the log's position).
//! - `fanout`: the watchers of a room and the batching of frames to them.
//! - `actor`: [`actor::RoomActor`], which carries the effects out (timers on tokio time, fan-out,
//!   storage, the game host's controller).
//! - `password`: the 4-digit room password (base64 on the wire, salted SHA-256 at rest).

pub mod actor;
pub mod call;
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

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, OnceLock};

use engine::Registry;
use ractor::ActorRef;

use crate::ctx::Ctx;
use crate::error::{DomainError, DomainResult};
use actor::{RoomActor, RoomIndex, RoomMsg};
use wire::{DebugWire, RoomWire};

/// The rooms feature's shared state, a slot of [`Ctx`].
pub struct RoomsShared {
    /// The open rooms by ddRid (started at creation and at platform start, never on a lookup).
    pub(crate) rooms: OnceLock<Registry<i64, RoomActor>>,
    /// Encodes room frames: the facade's, set at start ([`DebugWire`] until then).
    pub(crate) room_wire: parking_lot::RwLock<Arc<dyn RoomWire>>,
    /// Who is in which room, which rooms are listed: kept by the room actors.
    pub(crate) room_index: parking_lot::Mutex<RoomIndex>,
    /// The next watch id.
    pub(crate) next_watch: AtomicU64,
}

impl Default for RoomsShared {
    fn default() -> RoomsShared {
        RoomsShared {
            rooms: OnceLock::new(),
            room_wire: parking_lot::RwLock::new(Arc::new(DebugWire)),
            room_index: Default::default(),
            next_watch: Default::default(),
        }
    }
}

/// The rooms feature's view of the shared context.
pub(crate) trait RoomsCtx {
    fn rooms_state(&self) -> &RoomsShared;

    fn rooms(&self) -> &Registry<i64, RoomActor> {
        self.rooms_state().rooms.get().expect("platform started")
    }

    /// The actor of an open room.
    fn room(&self, dd_rid: i64) -> DomainResult<ActorRef<RoomMsg>> {
        self.rooms().get(&dd_rid).ok_or(DomainError::RoomNotFound)
    }
}

impl RoomsCtx for Ctx {
    fn rooms_state(&self) -> &RoomsShared {
        self.slot()
    }
}
