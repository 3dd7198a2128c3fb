//! The data of each notification a socket receives (core-platform.md §4.11), typed: the
//! `Notification.data` JSON text of a frame (`proto/yoo.proto`) is one of these, by its code.
//! The OpenAPI document carries their schemas and every code with its name (`x-push-codes`,
//! from `actors::view::NOTIFICATION_CODES`), from which the frontend's types and constants are
//! generated.

use actors::view::{Notice, USER_GAME_STATUS_CHANGE};
use serde::Serialize;
use utoipa::openapi::{RefOr, Schema};
use utoipa::ToSchema;

use super::dto::EndReasonDto;

/// USER_GAME_TIME_NOT_ENOUGH (130123): under 10 minutes of play time left while playing.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimeShortData {
    pub game_id: i64,
    /// Minutes left.
    pub left: i64,
}

/// USER_GAME_END (130124): the server ended the session.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameEndData {
    pub game_id: i64,
    pub reason: EndReasonDto,
}

/// USER_TIME_END (130125): play time ran out; the game ends after `scienceDuration` seconds
/// unless play time is added.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimeUpData {
    pub game_id: i64,
    pub science_duration: u64,
}

/// USER_RELAY_END (130447): the room the user is in (or hosts) ended.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RelayEndData {
    pub dd_rid: i64,
    pub room_serial: i64,
}

/// CHILDREN_LIMIT (130135): a minor's play window is closing (the limit alert's text).
#[derive(Serialize, ToSchema)]
pub struct ChildrenLimitData {
    pub msg: String,
    pub remark: String,
}

/// The JSON text of a notice's data, as a frame carries it.
pub fn notice_data(n: &Notice) -> String {
    let text = match n {
        Notice::TimeShort { game_id, left_minutes } => serde_json::to_string(&TimeShortData {
            game_id: *game_id,
            left: *left_minutes,
        }),
        Notice::GameEnd { game_id, reason } => serde_json::to_string(&GameEndData {
            game_id: *game_id,
            reason: EndReasonDto::from(*reason),
        }),
        Notice::TimeUp {
            game_id,
            science_duration_secs,
        } => serde_json::to_string(&TimeUpData {
            game_id: *game_id,
            science_duration: *science_duration_secs,
        }),
        Notice::RelayEnd { dd_rid, room_serial } => serde_json::to_string(&RelayEndData {
            dd_rid: *dd_rid,
            room_serial: *room_serial,
        }),
        Notice::ChildrenLimit { msg, remark } => serde_json::to_string(&ChildrenLimitData {
            msg: msg.to_string(),
            remark: remark.to_string(),
        }),
    };
    text.unwrap_or_else(|_| "{}".into())
}

/// The schema of a code's data by name; None for a code this server does not send.
pub fn data_schema(code: i32) -> Option<&'static str> {
    if code == USER_GAME_STATUS_CHANGE {
        return Some("GameStateDto");
    }
    let schema = |n: &Notice| match n {
        Notice::TimeShort { .. } => "TimeShortData",
        Notice::GameEnd { .. } => "GameEndData",
        Notice::TimeUp { .. } => "TimeUpData",
        Notice::RelayEnd { .. } => "RelayEndData",
        Notice::ChildrenLimit { .. } => "ChildrenLimitData",
    };
    Notice::every_kind().iter().find(|n| n.code() == code).map(schema)
}

/// Every data schema, for the OpenAPI document's components.
pub fn schemas() -> Vec<(String, RefOr<Schema>)> {
    vec![
        crate::dto::component::<TimeShortData>(),
        crate::dto::component::<GameEndData>(),
        crate::dto::component::<TimeUpData>(),
        crate::dto::component::<RelayEndData>(),
        crate::dto::component::<ChildrenLimitData>(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each notice's data has the fields of its schema, and every notice this server sends is in
    // the list of codes with a schema.
    #[test]
    fn every_notice_is_listed_with_its_schema() {
        for n in Notice::every_kind() {
            assert!(
                actors::view::NOTIFICATION_CODES.contains(&(n.code(), n.name())),
                "{n:?} is not in NOTIFICATION_CODES"
            );
            let schema = data_schema(n.code()).expect("a sent notice has a schema");
            assert!(schemas().iter().any(|(name, _)| name == schema));
            let v: serde_json::Value = serde_json::from_str(&notice_data(&n)).unwrap();
            assert!(v.as_object().is_some_and(|o| !o.is_empty()), "{n:?}: {v}");
        }
        assert_eq!(data_schema(130132), None, "a code this server does not send");
        let v: serde_json::Value = serde_json::from_str(&notice_data(&Notice::TimeUp {
            game_id: 3,
            science_duration_secs: 60,
        }))
        .unwrap();
        assert_eq!(v, serde_json::json!({"gameId": 3, "scienceDuration": 60}));
    }
}
