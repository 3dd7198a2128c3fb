//! The data of each room event (social.md §3 "other room event data", §4.8), typed: the
//! `RoomEvent.data` JSON text of a frame (`proto/yoo.proto`) is one of these, by its code, and the
//! OpenAPI document carries their schemas and the list of codes (`x-push-codes`), from which the
//! frontend's types and code constants are generated. The codes themselves are the domain's
//! (`actors::rooms::events::EVENT_CODES`).

use actors::rooms::events::RoomEventKind;
use serde::Serialize;
use utoipa::openapi::{RefOr, Schema};
use utoipa::ToSchema;

use super::dto::{room_user, rotation, RoomUserDto, RotationDto};

/// 1000 ROOM_INFO_CHANGE.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomInfoChangeData {
    pub room_name: String,
    pub mode: i32,
    /// 1 shown in the list, 0 hidden.
    pub is_show: i32,
    pub has_password: bool,
}

/// 1001 GAME_INFO_CHANGE: the relay's game status (0 none, 1 queue, 3 ready, 4 connecting, 5
/// playing).
#[derive(Serialize, ToSchema)]
pub struct GameInfoChangeData {
    pub status: i32,
}

/// 1003 CONTROL_CHANGE: everyone but `excludeUserId` refetches the mike info.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ControlChangeData {
    pub controller: i64,
    pub exclude_user_id: Vec<i64>,
}

/// 1004 ROOM_ENTER: the first entrant of a batch, and how many entered with them in all.
#[derive(Serialize, ToSchema)]
pub struct RoomEnterData {
    #[serde(flatten)]
    pub user: RoomUserDto,
    pub count: u64,
}

/// 1005 ROOM_LEAVE: the first to leave in a batch, and how many left in all.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomLeaveData {
    pub user_id: i64,
    pub count: u64,
}

/// 1006 MIKE_BLOCK_TMP, 1007 BLOCK, 1008 UNBLOCK.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserIdData {
    pub user_id: i64,
}

/// 1009 WELCOME_MESSAGE_CHANGE.
#[derive(Serialize, ToSchema)]
pub struct WelcomeData {
    pub text: String,
}

/// 1010 GIFT_MESSAGE.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GiftData {
    pub giver: RoomUserDto,
    pub receiver: RoomUserDto,
    pub gift_image: String,
    pub gift_num: i64,
}

/// 2010 MIKE_UP: the seat taken.
#[derive(Serialize, ToSchema)]
pub struct SeatData {
    pub seat: usize,
}

/// 2012 MIKE_BLOCK, 2030 CHAT_BLOCK: banned (`on`) or the ban lifted.
#[derive(Serialize, ToSchema)]
pub struct OnData {
    pub on: bool,
}

/// 2023 CONTROL_RETURN: who gave control back; MAIN when it returns to the host.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ControlReturnData {
    #[serde(flatten)]
    pub user: RoomUserDto,
    /// MAIN or ASSISTANT.
    pub control_type: &'static str,
}

/// 3000 CHAT: a message (text, or an emoji by `faceId`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChatData {
    #[serde(flatten)]
    pub user: RoomUserDto,
    pub text: String,
    pub face_id: Option<i64>,
}

/// 3002 ROOM_END.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomEndData {
    pub room_serial: i64,
}

/// The events that carry nothing but their code (`{}`).
#[derive(Serialize, ToSchema)]
pub struct NoData {}

/// The data of one event.
#[derive(Serialize)]
#[serde(untagged)]
pub enum EventData {
    RoomInfoChange(RoomInfoChangeData),
    GameInfoChange(GameInfoChangeData),
    ControlChange(ControlChangeData),
    RoomEnter(RoomEnterData),
    RoomLeave(RoomLeaveData),
    User(RoomUserDto),
    UserId(UserIdData),
    Welcome(WelcomeData),
    Gift(GiftData),
    Seat(SeatData),
    On(OnData),
    ControlReturn(ControlReturnData),
    Chat(ChatData),
    Rotation(RotationDto),
    RoomEnd(RoomEndData),
    None(NoData),
}

/// The typed data of an event.
pub fn event_data(kind: &RoomEventKind, exclude_user_ids: &[i64]) -> EventData {
    use RoomEventKind as K;
    match kind {
        K::RoomInfoChange {
            room_name,
            mode,
            is_show,
            has_password,
        } => EventData::RoomInfoChange(RoomInfoChangeData {
            room_name: room_name.clone(),
            mode: *mode,
            is_show: i32::from(*is_show),
            has_password: *has_password,
        }),
        K::GameInfoChange { status } => EventData::GameInfoChange(GameInfoChangeData { status: *status }),
        K::ControlChange { controller } => EventData::ControlChange(ControlChangeData {
            controller: *controller,
            exclude_user_id: exclude_user_ids.to_vec(),
        }),
        K::RoomEnter { user, others } => EventData::RoomEnter(RoomEnterData {
            user: room_user(user),
            count: u64::from(*others) + 1,
        }),
        K::RoomLeave { uid, others } => EventData::RoomLeave(RoomLeaveData {
            user_id: *uid,
            count: u64::from(*others) + 1,
        }),
        K::ControlRequest { user } | K::InviteDeny { user } => EventData::User(room_user(user)),
        K::MikeUpInvite { host } | K::ControlOnInvite { host } => EventData::User(room_user(host)),
        K::MikeBlockTmp { uid } | K::Block { uid } | K::Unblock { uid } => EventData::UserId(UserIdData { user_id: *uid }),
        K::WelcomeMessageChange { text } => EventData::Welcome(WelcomeData { text: text.clone() }),
        K::Gift {
            giver,
            receiver,
            gift_image,
            gift_num,
        } => EventData::Gift(GiftData {
            giver: room_user(giver),
            receiver: room_user(receiver),
            gift_image: gift_image.clone(),
            gift_num: *gift_num,
        }),
        K::MikeUp { seat } => EventData::Seat(SeatData { seat: *seat }),
        K::MikeBlock { on } | K::ChatBlock { on } => EventData::On(OnData { on: *on }),
        K::ControlReturn { main, user } => EventData::ControlReturn(ControlReturnData {
            user: room_user(user),
            control_type: if *main { "MAIN" } else { "ASSISTANT" },
        }),
        K::Chat { user, text, face_id } => EventData::Chat(ChatData {
            user: room_user(user),
            text: text.clone(),
            face_id: *face_id,
        }),
        K::RotationChange(r) => EventData::Rotation(rotation(r)),
        K::RoomEnd { room_serial } => EventData::RoomEnd(RoomEndData { room_serial: *room_serial }),
        K::MikeInfoChange
        | K::MikeQueueTop
        | K::MikeQueueRemove
        | K::MikeQueueCancel
        | K::MikeDown
        | K::MikeDownAndControlOff
        | K::ControlOn
        | K::ControlDeny
        | K::ControlOff
        | K::KickOut
        | K::KickOutBlack => EventData::None(NoData {}),
    }
}

/// The JSON text of an event's data, as a frame carries it.
pub fn event_data_text(kind: &RoomEventKind, exclude_user_ids: &[i64]) -> String {
    serde_json::to_string(&event_data(kind, exclude_user_ids)).unwrap_or_else(|_| "{}".into())
}

/// The schema of each code's data, by name (`x-push-codes` names them).
pub fn data_schema(code: i32) -> &'static str {
    match code {
        1000 => "RoomInfoChangeData",
        1001 => "GameInfoChangeData",
        1003 => "ControlChangeData",
        1004 => "RoomEnterData",
        1005 => "RoomLeaveData",
        1006..=1008 => "UserIdData",
        1009 => "WelcomeData",
        1010 => "GiftData",
        2010 => "SeatData",
        2012 | 2030 => "OnData",
        2015 | 2016 | 2020 | 2025 => "RoomUserDto",
        2023 => "ControlReturnData",
        3000 => "ChatData",
        3001 => "RotationDto",
        3002 => "RoomEndData",
        _ => "NoData",
    }
}

/// Every data schema, for the OpenAPI document's components.
pub fn schemas() -> Vec<(String, RefOr<Schema>)> {
    vec![
        crate::dto::component::<RoomUserDto>(),
        crate::dto::component::<RoomInfoChangeData>(),
        crate::dto::component::<GameInfoChangeData>(),
        crate::dto::component::<ControlChangeData>(),
        crate::dto::component::<RoomEnterData>(),
        crate::dto::component::<RoomLeaveData>(),
        crate::dto::component::<UserIdData>(),
        crate::dto::component::<WelcomeData>(),
        crate::dto::component::<GiftData>(),
        crate::dto::component::<SeatData>(),
        crate::dto::component::<OnData>(),
        crate::dto::component::<ControlReturnData>(),
        crate::dto::component::<ChatData>(),
        crate::dto::component::<RotationDto>(),
        crate::dto::component::<RoomEndData>(),
        crate::dto::component::<NoData>(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use actors::rooms::view::RoomUser;
    use serde_json::json;
    use std::sync::Arc;

    fn user(uid: i64, name: &str) -> RoomUser {
        RoomUser {
            uid,
            nickname: Arc::from(name),
            avatar: Arc::from(""),
            status: 0,
            member: None,
        }
    }

    fn check(kind: RoomEventKind, exclude: &[i64], want: serde_json::Value) {
        let got: serde_json::Value = serde_json::from_str(&event_data_text(&kind, exclude)).unwrap();
        for (k, v) in want.as_object().unwrap() {
            assert_eq!(&got[k], v, "{kind:?}: {k} in {got}");
        }
    }

    // Every code's data names a schema of the document.
    #[test]
    fn every_code_has_a_schema() {
        let names: Vec<String> = schemas().into_iter().map(|(n, _)| n).collect();
        for (code, _) in actors::rooms::events::EVENT_CODES {
            assert!(names.iter().any(|n| n == data_schema(*code)), "{code}");
        }
    }

    // The spec's fields of each event's data (social.md §3 "other room event data").
    #[test]
    fn event_data_has_the_spec_s_fields() {
        check(
            RoomEventKind::RoomEnter {
                user: user(7, "小明"),
                others: 0,
            },
            &[],
            json!({"nickname": "小明", "userId": 7, "count": 1}),
        );
        check(
            RoomEventKind::RoomEnter {
                user: user(7, "小明"),
                others: 4,
            },
            &[],
            json!({"nickname": "小明", "count": 5}),
        );
        check(
            RoomEventKind::RoomLeave { uid: 7, others: 2 },
            &[],
            json!({"userId": 7, "count": 3}),
        );
        check(
            RoomEventKind::ControlRequest { user: user(7, "小明") },
            &[],
            json!({"nickname": "小明"}),
        );
        check(
            RoomEventKind::ControlReturn {
                main: true,
                user: user(7, "小明"),
            },
            &[],
            json!({"controlType": "MAIN", "nickname": "小明"}),
        );
        check(RoomEventKind::GameInfoChange { status: 5 }, &[], json!({"status": 5}));
        check(
            RoomEventKind::ControlChange { controller: 7 },
            &[3],
            json!({"controller": 7, "excludeUserId": [3]}),
        );
        check(
            RoomEventKind::Chat {
                user: user(7, "小明"),
                text: "[smile.png]".into(),
                face_id: None,
            },
            &[],
            json!({"text": "[smile.png]", "faceId": null, "displayName": "小明"}),
        );
        check(
            RoomEventKind::Gift {
                giver: user(1, "a"),
                receiver: user(2, "b"),
                gift_image: "g.png".into(),
                gift_num: 3,
            },
            &[],
            json!({"giftImage": "g.png", "giftNum": 3, "giver": {"displayName": "a", "userId": 1, "nickname": "a", "avatar": "", "status": 0, "member": null}}),
        );
        check(RoomEventKind::KickOut, &[], json!({}));
    }
}
