//! The room frames on the socket: [`ProtoRoomWire`] is the facade's `actors::rooms::wire::RoomWire`.
//! A room actor hands it a batch of typed events once; it answers the complete protobuf
//! `Envelope` bytes (ROOM_EVENTS, or ROOM_RESET), and the actor gives the same `Bytes` to every
//! watching socket (`routes::ws`), so a batch costs one encoding however many watch it. Each
//! event's `data` is the spec's JSON for its code (`events::event_data_text`).
//!
//! Room frames leave the Envelope's `offset` and `epoch` empty: the room's stream has its own
//! inside `RoomEvents`, and the user push stream's numbering is not moved by them.

use std::ops::RangeInclusive;

use actix_web::web::Bytes;
use actors::rooms::events::RoomEvent;
use actors::rooms::wire::RoomWire;
use prost::Message;

use super::events::event_data_text;
use crate::proto::{self, Envelope, MessageType, RoomEvents, RoomReset};

/// Encodes room batches as protobuf Envelopes.
pub struct ProtoRoomWire;

/// One event as the socket carries it.
pub fn event(e: &RoomEvent) -> proto::RoomEvent {
    let text = e.kind.text();
    proto::RoomEvent {
        offset: e.offset,
        code: e.kind.code(),
        msg: if text.is_empty() {
            e.kind.name().to_string()
        } else {
            text.to_string()
        },
        desc: text.to_string(),
        data: event_data_text(&e.kind, &e.exclude_user_ids),
        user_ids: e.user_ids.clone(),
        exclude_user_ids: e.exclude_user_ids.clone(),
        ts: e.ts_ms,
    }
}

fn envelope(kind: MessageType, content: Vec<u8>) -> Bytes {
    Bytes::from(
        Envelope {
            r#type: kind as i32,
            content,
            offset: 0,
            epoch: String::new(),
        }
        .encode_to_vec(),
    )
}

impl RoomWire for ProtoRoomWire {
    fn encode(&self, dd_rid: i64, epoch: &str, covers: RangeInclusive<u64>, events: &[RoomEvent]) -> Bytes {
        let batch = RoomEvents {
            dd_rid,
            epoch: epoch.to_string(),
            events: events.iter().map(event).collect(),
            first_offset: *covers.start(),
            last_offset: *covers.end(),
        };
        envelope(MessageType::RoomEvents, batch.encode_to_vec())
    }

    fn reset(&self, dd_rid: i64, epoch: &str, offset: u64) -> Bytes {
        reset_frame(dd_rid, epoch, offset)
    }
}

/// A ROOM_RESET frame: refetch the room and watch from (`epoch`, `offset`); an empty epoch when
/// the watch itself was refused (the refetch answers why).
pub fn reset_frame(dd_rid: i64, epoch: &str, offset: u64) -> Bytes {
    let reset = RoomReset {
        dd_rid,
        epoch: epoch.to_string(),
        offset,
    };
    envelope(MessageType::RoomReset, reset.encode_to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use actors::rooms::events::RoomEventKind;

    // A batch is one Envelope of type ROOM_EVENTS whose events keep their offsets, codes,
    // targets and the spec's texts; the Envelope's own offset/epoch stay empty.
    #[test]
    fn a_batch_is_one_envelope() {
        let events = vec![
            RoomEvent {
                offset: 4,
                kind: RoomEventKind::GameInfoChange { status: 5 },
                user_ids: vec![],
                exclude_user_ids: vec![],
                ts_ms: 1000,
            },
            RoomEvent {
                offset: 5,
                kind: RoomEventKind::KickOut,
                user_ids: vec![9],
                exclude_user_ids: vec![],
                ts_ms: 1001,
            },
        ];
        let bytes = ProtoRoomWire.encode(7, "ep", 4..=5, &events);
        let env = Envelope::decode(bytes).unwrap();
        assert_eq!(
            (env.r#type, env.offset, env.epoch.as_str()),
            (MessageType::RoomEvents as i32, 0, "")
        );
        let batch = RoomEvents::decode(env.content.as_slice()).unwrap();
        assert_eq!(
            (batch.dd_rid, batch.epoch.as_str(), batch.first_offset, batch.last_offset),
            (7, "ep", 4, 5)
        );
        assert_eq!(
            batch.events.iter().map(|e| (e.offset, e.code)).collect::<Vec<_>>(),
            [(4, 1001), (5, 2031)]
        );
        assert_eq!(batch.events[0].data, r#"{"status":5}"#);
        assert_eq!(batch.events[0].msg, "GAME_INFO_CHANGE");
        assert_eq!(
            (batch.events[1].msg.as_str(), batch.events[1].user_ids.as_slice()),
            ("你已被移出该房间", &[9][..])
        );

        let env = Envelope::decode(ProtoRoomWire.reset(7, "ep2", 12)).unwrap();
        assert_eq!(env.r#type, MessageType::RoomReset as i32);
        let reset = RoomReset::decode(env.content.as_slice()).unwrap();
        assert_eq!((reset.dd_rid, reset.epoch.as_str(), reset.offset), (7, "ep2", 12));
    }
}
