//! Moderation (social.md §7 Moderation): kick, report, and the caller's room blacklist; in dev mode
//! the operator's flags of a user (official, super admin, minor, relay banned).

use actix_web::{post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use super::dto::{self, BlackPage};
use super::room::PageBody;
use crate::auth::Caller;
use crate::dto::Id;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

refusals!(KickRefusals: common::input(), common::logged_in(), common::room(), DomainError::TargetNotInRoom);

/// The member a host puts out.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KickBody {
    #[schema(example = 1)]
    dd_rid: Id,
    /// A member of the room.
    #[schema(value_type = i64, example = 4)]
    user_id: Id,
}

/// `blacklist/kick` (host): puts a member out (KICK_OUT 2031 to them); they may not come back
/// for 10 minutes (130205).
#[utoipa::path(operation_id = "moderation_kick", request_body = KickBody, responses((status = 200, body = Envelope<Null>), KickRefusals))]
#[post("/api/japi/yoo/blacklist/kick")]
pub async fn kick(state: web::Data<AppState>, caller: Caller, body: web::Json<KickBody>) -> ApiResult<Null> {
    state.platform.rooms.kick(caller.0.uid, body.dd_rid.0, body.user_id.0).await?;
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportBody {
    #[schema(example = 1)]
    dd_rid: Id,
    /// The reported member; the room itself when absent.
    #[serde(default)]
    user_id: Option<Id>,
    /// 0 advertising, 1 pornography, 2 illegal/crime, 3 fraud, 4 harassment, 5 abuse, 6 other.
    #[schema(example = 6)]
    reason: i32,
    /// At most 200 characters.
    #[serde(default)]
    text: String,
}

refusals!(ReportRefusals: common::input(), common::logged_in(), common::room(), DomainError::ReportInvalid,
    DomainError::TargetNotInRoom);

/// `report/add`: reports the room or one of its members, with a reason of social.md §9.
#[utoipa::path(operation_id = "moderation_report", request_body = ReportBody, responses((status = 200, body = Envelope<Null>), ReportRefusals))]
#[post("/api/japi/yoo/report/add")]
pub async fn report(state: web::Data<AppState>, caller: Caller, body: web::Json<ReportBody>) -> ApiResult<Null> {
    let b = body.into_inner();
    state
        .platform
        .rooms
        .report(caller.0.uid, b.dd_rid.0, b.user_id.map(|i| i.0), b.reason, b.text)
        .await?;
    Ok(ok(Null))
}

refusals!(BlackListRefusals: common::input(), common::logged_in(), common::room());

/// `social/black/list`: the caller's room blacklist, newest first (page 1 size 10 on reload).
#[utoipa::path(operation_id = "moderation_black_list", request_body = PageBody, responses((status = 200, body = Envelope<BlackPage>), BlackListRefusals))]
#[post("/api/japi/social/black/list")]
pub async fn black_list(state: web::Data<AppState>, caller: Caller, body: web::Json<PageBody>) -> ApiResult<BlackPage> {
    let (page, size) = body.paging(10)?;
    let p = state.platform.rooms.blacklist_list(caller.0.uid, page, size).await?;
    Ok(ok(BlackPage {
        total_rows: p.total_rows,
        rows: p.rows.iter().map(dto::black_item).collect(),
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlackBody {
    #[schema(value_type = i64, example = 3)]
    user_id: Id,
}

refusals!(BlackRefusals: common::input(), common::logged_in(), common::room());

/// `social/black/add`: blocks a user from the caller's rooms (put out of the open one at once:
/// KICK_OUT_ 2032, BLOCK 1007).
#[utoipa::path(operation_id = "moderation_black_add", request_body = BlackBody, responses((status = 200, body = Envelope<Null>), BlackRefusals))]
#[post("/api/japi/social/black/add")]
pub async fn black_add(state: web::Data<AppState>, caller: Caller, body: web::Json<BlackBody>) -> ApiResult<Null> {
    state.platform.rooms.blacklist_add(caller.0.uid, body.user_id.0).await?;
    Ok(ok(Null))
}

/// `social/black/del`: takes a user off the caller's blacklist.
#[utoipa::path(operation_id = "moderation_black_del", request_body = BlackBody, responses((status = 200, body = Envelope<Null>), BlackRefusals))]
#[post("/api/japi/social/black/del")]
pub async fn black_del(state: web::Data<AppState>, caller: Caller, body: web::Json<BlackBody>) -> ApiResult<Null> {
    state.platform.rooms.blacklist_del(caller.0.uid, body.user_id.0).await?;
    Ok(ok(Null))
}

/// An operator's flags of a user (rooms, issue 9).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserFlagsBody {
    /// The user's phone (the example names a player other than the fuzzing caller, whose room a
    /// minor's flag would close).
    #[schema(example = "13900000044")]
    cellphone: String,
    /// 0 normal, 1 official, 3 super admin.
    #[serde(default)]
    status: i32,
    /// A minor: refused rooms, relay and control (20151–20153).
    #[serde(default)]
    minor: bool,
    /// Relay qualification withdrawn (USER_NOT_RELAY 20154).
    #[serde(default)]
    relay_banned: bool,
}

refusals!(UserFlagsRefusals: common::input(), common::internal(), DomainError::NotLoggedIn, DomainError::PhoneEmpty,
    DomainError::PhoneMalformed);

/// Sets a user's operator flags (status, minor, relay banned), found by phone.
#[utoipa::path(operation_id = "dev_user_flags", request_body = UserFlagsBody, responses((status = 200, body = Envelope<Null>), UserFlagsRefusals))]
#[post("/api/dev/userFlags")]
pub async fn user_flags(state: web::Data<AppState>, body: web::Json<UserFlagsBody>) -> ApiResult<Null> {
    if ![0, 1, 3].contains(&body.status) {
        return Err(ApiError::bad_request());
    }
    let user = state.platform.passport().user_by_phone(body.cellphone.trim()).await?;
    let flags = actors::rooms::view::UserFlags {
        status: body.status,
        minor: body.minor,
        relay_banned: body.relay_banned,
    };
    state.platform.rooms.set_user_flags(user.uid, flags).await?;
    Ok(ok(Null))
}
