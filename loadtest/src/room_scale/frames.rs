//! The room frames of the socket protocol (issue 9: `ROOM_WATCH` 9, `ROOM_UNWATCH` 10,
//! `ROOM_EVENTS` 11, `ROOM_RESET` 12 and their messages), field for field as in
//! `facade/proto/yoo.proto`. Written out here with prost's derive until the room messages are in
//! that file on this branch; then `crate::proto` has the same types under the same names.

use prost::Message;

use crate::proto::Envelope;

pub const ROOM_WATCH: i32 = 9;
pub const ROOM_UNWATCH: i32 = 10;
pub const ROOM_EVENTS: i32 = 11;
pub const ROOM_RESET: i32 = 12;

#[derive(Clone, PartialEq, Message)]
pub struct RoomWatch {
    #[prost(int64, tag = "1")]
    pub dd_rid: i64,
    #[prost(string, tag = "2")]
    pub epoch: String,
    #[prost(uint64, tag = "3")]
    pub after_offset: u64,
}

#[derive(Clone, PartialEq, Message)]
pub struct RoomEvent {
    #[prost(uint64, tag = "1")]
    pub offset: u64,
    #[prost(int32, tag = "2")]
    pub code: i32,
    #[prost(string, tag = "3")]
    pub msg: String,
    #[prost(string, tag = "4")]
    pub desc: String,
    #[prost(string, tag = "5")]
    pub data: String,
    #[prost(int64, repeated, tag = "6")]
    pub user_ids: Vec<i64>,
    #[prost(int64, repeated, tag = "7")]
    pub exclude_user_ids: Vec<i64>,
    #[prost(int64, tag = "8")]
    pub ts: i64,
}

#[derive(Clone, PartialEq, Message)]
pub struct RoomEvents {
    #[prost(int64, tag = "1")]
    pub dd_rid: i64,
    #[prost(string, tag = "2")]
    pub epoch: String,
    #[prost(message, repeated, tag = "3")]
    pub events: Vec<RoomEvent>,
}

#[derive(Clone, PartialEq, Message)]
pub struct RoomReset {
    #[prost(int64, tag = "1")]
    pub dd_rid: i64,
    #[prost(string, tag = "2")]
    pub epoch: String,
    #[prost(uint64, tag = "3")]
    pub offset: u64,
}

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
