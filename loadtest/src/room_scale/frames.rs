//! The room frames of the socket protocol (issue 9): the client's ROOM_WATCH and ROOM_UNWATCH,
//! built here, and the message types of the server's ROOM_EVENTS and ROOM_RESET, generated from
//! `facade/proto/yoo.proto` like every other frame.

use prost::Message;

use crate::proto::{Envelope, MessageType};
pub use crate::proto::{RoomEvent, RoomEvents, RoomReset, RoomWatch};

pub const ROOM_WATCH: i32 = MessageType::RoomWatch as i32;
pub const ROOM_UNWATCH: i32 = MessageType::RoomUnwatch as i32;
pub const ROOM_EVENTS: i32 = MessageType::RoomEvents as i32;
pub const ROOM_RESET: i32 = MessageType::RoomReset as i32;

/// A whole client frame: the Envelope of `kind` around `content`.
pub fn envelope(kind: i32, content: &impl Message) -> Vec<u8> {
    Envelope {
        r#type: kind,
        content: content.encode_to_vec(),
        offset: 0,
        epoch: String::new(),
    }
    .encode_to_vec()
}

/// ROOM_WATCH from a position (the entry answer's `epoch` and `offset`).
pub fn watch(dd_rid: i64, epoch: &str, after_offset: u64) -> Vec<u8> {
    envelope(
        ROOM_WATCH,
        &RoomWatch {
            dd_rid,
            epoch: epoch.to_string(),
            after_offset,
        },
    )
}

/// ROOM_UNWATCH.
pub fn unwatch(dd_rid: i64) -> Vec<u8> {
    envelope(
        ROOM_UNWATCH,
        &RoomWatch {
            dd_rid,
            ..Default::default()
        },
    )
}
