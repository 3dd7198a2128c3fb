//! The room's side of the socket: [`RoomWire`] encodes a batch of events once (the facade
//! implements it with the protobuf Envelope), and [`RoomSink`] is one watching socket that takes
//! the shared bytes. The domain never sees the wire format: it hands typed events to the wire
//! and the same [`Bytes`] to every sink.

use std::ops::RangeInclusive;

use bytes::Bytes;

use super::events::RoomEvent;

/// Encodes room frames; one per platform, implemented by the facade.
pub trait RoomWire: Send + Sync {
    /// A ROOM_EVENTS frame: the complete Envelope bytes of `events` (in offset order), a batch
    /// that covers the offsets `covers` (every one of them: those not among `events` were merged
    /// into one of them, `events::merge_presence`).
    fn encode(&self, dd_rid: i64, epoch: &str, covers: RangeInclusive<u64>, events: &[RoomEvent]) -> Bytes;
    /// A ROOM_RESET frame: the watcher must refetch the room and watch from `offset`.
    fn reset(&self, dd_rid: i64, epoch: &str, offset: u64) -> Bytes;
}

/// One socket watching a room.
pub trait RoomSink: Send + Sync {
    /// Queues a frame for the socket; false when the socket is gone (the room drops the sink).
    fn send(&self, frame: &Bytes) -> bool;
}

/// A wire for tests and for a platform started without a facade: the frame is the offsets of
/// the events as text ("3:1004,5:3000") after the offsets covered ("3-5"), a reset is
/// "reset:{epoch}:{offset}".
pub struct DebugWire;

impl RoomWire for DebugWire {
    fn encode(&self, dd_rid: i64, epoch: &str, covers: RangeInclusive<u64>, events: &[RoomEvent]) -> Bytes {
        let offsets: Vec<String> = events.iter().map(|e| format!("{}:{}", e.offset, e.kind.code())).collect();
        Bytes::from(format!(
            "{dd_rid}|{epoch}|{}|{}-{}",
            offsets.join(","),
            covers.start(),
            covers.end()
        ))
    }

    fn reset(&self, dd_rid: i64, epoch: &str, offset: u64) -> Bytes {
        Bytes::from(format!("{dd_rid}|{epoch}|reset:{offset}"))
    }
}

/// One watch of a room by one socket, to end it with `Platform::unwatch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WatchId(pub u64);
