//! The bills' live record (`/user/bill/liveRecord`, commerce.md §2.1): the caller's hosted rooms
//! with what each received (gifts, gold) and the play minutes it charged.

use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::state::AppState;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LiveRecordQuery {
    /// From 1 (default 1).
    #[serde(default)]
    page: Option<u32>,
    /// 1..=100 (default 10).
    #[serde(default)]
    page_size: Option<u32>,
}

/// One hosted room.
#[derive(Serialize, ToSchema)]
pub struct LiveRecordDto {
    pub dd_rid: i64,
    pub room_serial: i64,
    pub name: String,
    pub game_id: i64,
    pub game_name: String,
    /// ms
    pub created_at: i64,
    /// ms; null while the room is open.
    pub ended_at: Option<i64>,
    pub audience_count: i64,
    /// Gifts the room received.
    pub gift_count: i64,
    /// Gold the room received.
    pub gold: i64,
    /// Play minutes charged to the host for the room's game.
    pub play_minutes: i64,
}

/// A page of the live record.
#[derive(Serialize, ToSchema)]
pub struct LiveRecordPage {
    pub total: u64,
    pub data: Vec<LiveRecordDto>,
}

refusals!(LiveRecordRefusals: common::input(), common::logged_in(), common::internal());

/// The caller's hosted rooms, newest first: the bills' 直播记录 tab.
#[utoipa::path(params(LiveRecordQuery), responses((status = 200, body = Envelope<LiveRecordPage>), LiveRecordRefusals))]
#[get("/api/v3/user/bill/live")]
pub async fn live_record(state: web::Data<AppState>, caller: Caller, q: web::Query<LiveRecordQuery>) -> ApiResult<LiveRecordPage> {
    let page = match q.page {
        None => 1,
        Some(n @ 1..=100_000) => n,
        Some(_) => return Err(ApiError::bad_request()),
    };
    let size = match q.page_size {
        None => 10,
        Some(n @ 1..=100) => n,
        Some(_) => return Err(ApiError::bad_request()),
    };
    let (rows, total) = state.platform.rooms.live_records(caller.0.uid, page, size).await?;
    Ok(ok(LiveRecordPage {
        total,
        data: rows
            .into_iter()
            .map(|r| LiveRecordDto {
                dd_rid: r.dd_rid,
                room_serial: r.room_serial,
                name: r.name,
                game_id: r.game_id,
                game_name: r.game_name,
                created_at: r.created_at,
                ended_at: r.ended_at,
                audience_count: r.audience_count,
                gift_count: r.gift_count,
                gold: r.gold,
                play_minutes: r.play_minutes,
            })
            .collect(),
    }))
}
