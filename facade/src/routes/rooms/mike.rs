//! Mic seats and their queue (social.md §4.6, §7 Mike and control): the list, up and down,
//! invites, the host's operations and locks, the seat queue. The room's actor decides who may.

use actix_web::{post, web};
use actors::rooms::view::{MikeAction, MikeOp, MikeReqAction};
use serde::Deserialize;
use utoipa::ToSchema;

use super::dto::{self, MikeInfoDto, RoomUserDto};
use super::room::{DdRid, RoomSerial};
use crate::auth::Caller;
use crate::dto::{Flag, Id};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

fn queue(users: &[actors::rooms::view::RoomUser]) -> Vec<RoomUserDto> {
    users.iter().map(dto::room_user).collect()
}

refusals!(ListRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control());

/// `mike/list`: the seats, the caller's place and the control status.
#[utoipa::path(operation_id = "mike_list", request_body = DdRid, responses((status = 200, body = Envelope<MikeInfoDto>), ListRefusals))]
#[post("/api/japi/yoo/mike/list")]
pub async fn list(state: web::Data<AppState>, caller: Caller, body: web::Json<DdRid>) -> ApiResult<MikeInfoDto> {
    let m = state.platform.rooms.mike_list(caller.0.uid, body.dd_rid.0).await?;
    Ok(ok(dto::mike_info(&m)))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpBody {
    #[schema(example = 1)]
    dd_rid: Id,
    /// 1 take a seat, 2 take a seat and apply for control, 3 leave the seat (default 1).
    #[serde(default)]
    #[schema(example = 1)]
    action: Option<i32>,
    /// A seat index (1..=7); the first open seat when absent.
    #[serde(default)]
    #[schema(example = 2, minimum = 1, maximum = 7)]
    seat: Option<usize>,
}

fn action(code: Option<i32>) -> Result<MikeAction, ApiError> {
    MikeAction::from_code(code.unwrap_or(1)).ok_or_else(ApiError::bad_request)
}

refusals!(UpRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::MikeFull, DomainError::SeatUnavailable,
    DomainError::MikeState, DomainError::MinorControlLimit, DomainError::NotRelayQualified,
    DomainError::ControlApplyOpen { retry_after_secs: 0 });

/// `mike/up`: takes a seat (action 2 also applies for control: state 1 for 30 s).
#[utoipa::path(operation_id = "mike_up", request_body = UpBody, responses((status = 200, body = Envelope<MikeInfoDto>), UpRefusals))]
#[post("/api/japi/yoo/mike/up")]
pub async fn up(state: web::Data<AppState>, caller: Caller, body: web::Json<UpBody>) -> ApiResult<MikeInfoDto> {
    let m = state
        .platform
        .rooms
        .mike_up(caller.0.uid, body.dd_rid.0, action(body.action)?, body.seat)
        .await?;
    Ok(ok(dto::mike_info(&m)))
}

/// `mike/upOrDown`: action 3 leaves the seat (and control); 1 and 2 as `mike/up`.
#[utoipa::path(operation_id = "mike_up_or_down", request_body = UpBody, responses((status = 200, body = Envelope<MikeInfoDto>), UpRefusals))]
#[post("/api/japi/yoo/mike/upOrDown")]
pub async fn up_or_down(state: web::Data<AppState>, caller: Caller, body: web::Json<UpBody>) -> ApiResult<MikeInfoDto> {
    let m = state
        .platform
        .rooms
        .mike_up_or_down(caller.0.uid, body.dd_rid.0, action(body.action)?)
        .await?;
    Ok(ok(dto::mike_info(&m)))
}

/// A host's call about one member of the room.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MikeTargetBody {
    #[schema(example = 1)]
    pub dd_rid: Id,
    /// A member of the room (the caller's target).
    #[schema(value_type = i64, example = 3)]
    pub user_id: Id,
}

refusals!(InviteRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::TargetNotInRoom,
    DomainError::MikeFull, DomainError::MikeState);

/// `mike/invite` (host): invites a member to a seat (MIKE_UP_INVITE 2015 to them).
#[utoipa::path(operation_id = "mike_invite", request_body = MikeTargetBody, responses((status = 200, body = Envelope<Null>), InviteRefusals))]
#[post("/api/japi/yoo/mike/invite")]
pub async fn invite(state: web::Data<AppState>, caller: Caller, body: web::Json<MikeTargetBody>) -> ApiResult<Null> {
    state
        .platform
        .rooms
        .mike_invite(caller.0.uid, body.dd_rid.0, body.user_id.0)
        .await?;
    Ok(ok(Null))
}

refusals!(InviteAnswerRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::NoInvite, DomainError::MikeFull,
    DomainError::SeatUnavailable);

/// `mike/invite/accept`: takes the seat the host offered.
#[utoipa::path(operation_id = "mike_invite_accept", request_body = RoomSerial, responses((status = 200, body = Envelope<MikeInfoDto>), InviteAnswerRefusals))]
#[post("/api/japi/yoo/mike/invite/accept")]
pub async fn invite_accept(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomSerial>) -> ApiResult<MikeInfoDto> {
    let m = state.platform.rooms.mike_invite_accept(caller.0.uid, body.room_serial.0).await?;
    Ok(ok(dto::mike_info(&m)))
}

/// `mike/invite/refuse`: INVITE_DENY (2016) to the host.
#[utoipa::path(operation_id = "mike_invite_refuse", request_body = RoomSerial, responses((status = 200, body = Envelope<Null>), InviteAnswerRefusals))]
#[post("/api/japi/yoo/mike/invite/refuse")]
pub async fn invite_refuse(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomSerial>) -> ApiResult<Null> {
    state.platform.rooms.mike_invite_refuse(caller.0.uid, body.room_serial.0).await?;
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperateBody {
    #[schema(example = 1)]
    dd_rid: Id,
    #[schema(value_type = i64, example = 2)]
    user_id: Id,
    /// 1 move up onto a free seat, 3 take down, 4 ban the seat's voice, 5 lift the ban.
    #[schema(example = 3)]
    action: i32,
}

refusals!(OperateRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::TargetNotInRoom,
    DomainError::MikeFull, DomainError::MikeState);

/// `mike/operat` (host): moves a member up or down (MIKE_UP 2010 / MIKE_DOWN 2011), or bans or
/// lets a seat's voice (MIKE_BLOCK 2012).
#[utoipa::path(operation_id = "mike_operate", request_body = OperateBody, responses((status = 200, body = Envelope<MikeInfoDto>), OperateRefusals))]
#[post("/api/japi/yoo/mike/operat")]
pub async fn operate(state: web::Data<AppState>, caller: Caller, body: web::Json<OperateBody>) -> ApiResult<MikeInfoDto> {
    let op = match body.action {
        1 => MikeOp::Up,
        3 => MikeOp::Down,
        4 => MikeOp::BanVoice,
        5 => MikeOp::UnbanVoice,
        _ => return Err(ApiError::bad_request()),
    };
    let m = state
        .platform
        .rooms
        .mike_operate(caller.0.uid, body.dd_rid.0, body.user_id.0, op)
        .await?;
    Ok(ok(dto::mike_info(&m)))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LockBody {
    #[schema(example = 1)]
    dd_rid: Id,
    /// The seat index, 1..=7 (seat 0 is the host's).
    #[schema(example = 3)]
    seat: usize,
    /// 1 lock (default), 0 open.
    #[serde(default)]
    lock: Option<Flag>,
}

refusals!(LockRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::SeatUnavailable);

/// `mike/lock` (host): locks or opens one seat (a seated member goes down).
#[utoipa::path(operation_id = "mike_lock", request_body = LockBody, responses((status = 200, body = Envelope<MikeInfoDto>), LockRefusals))]
#[post("/api/japi/yoo/mike/lock")]
pub async fn lock(state: web::Data<AppState>, caller: Caller, body: web::Json<LockBody>) -> ApiResult<MikeInfoDto> {
    let locked = body.lock.is_none_or(|f| f.0);
    let m = state
        .platform
        .rooms
        .mike_lock(caller.0.uid, body.dd_rid.0, body.seat, locked)
        .await?;
    Ok(ok(dto::mike_info(&m)))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LockAllBody {
    #[schema(example = 1)]
    dd_rid: Id,
    /// 1 lock (default), 0 open.
    #[serde(default)]
    lock: Option<Flag>,
}

refusals!(LockAllRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control());

/// `mike/lockAll` (host): every seat but the host's.
#[utoipa::path(operation_id = "mike_lock_all", request_body = LockAllBody, responses((status = 200, body = Envelope<MikeInfoDto>), LockAllRefusals))]
#[post("/api/japi/yoo/mike/lockAll")]
pub async fn lock_all(state: web::Data<AppState>, caller: Caller, body: web::Json<LockAllBody>) -> ApiResult<MikeInfoDto> {
    let locked = body.lock.is_none_or(|f| f.0);
    let m = state.platform.rooms.mike_lock_all(caller.0.uid, body.dd_rid.0, locked).await?;
    Ok(ok(dto::mike_info(&m)))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BanMessageBody {
    #[schema(example = 1)]
    dd_rid: Id,
    #[schema(value_type = i64, example = 2)]
    user_id: Id,
    /// 1 ban (default), 0 lift the ban.
    #[serde(default)]
    ban: Option<Flag>,
}

refusals!(BanMessageRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::TargetNotInRoom);

/// `mike/banMessage` (host): bans or lets a member's chat (CHAT_BLOCK 2030 to them).
#[utoipa::path(operation_id = "mike_ban_message", request_body = BanMessageBody, responses((status = 200, body = Envelope<Null>), BanMessageRefusals))]
#[post("/api/japi/yoo/mike/banMessage")]
pub async fn ban_message(state: web::Data<AppState>, caller: Caller, body: web::Json<BanMessageBody>) -> ApiResult<Null> {
    let on = body.ban.is_none_or(|f| f.0);
    state
        .platform
        .rooms
        .mike_ban_message(caller.0.uid, body.dd_rid.0, body.user_id.0, on)
        .await?;
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReqActionBody {
    #[schema(example = 1)]
    dd_rid: Id,
    /// 1 join the seat queue, 2 leave it, 3 (host) remove `userId` from it.
    #[schema(example = 1)]
    action: i32,
    #[serde(default)]
    user_id: Option<Id>,
}

refusals!(ReqActionRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::MikeState,
    DomainError::TargetNotInRoom);

/// `mikeReq/action`: joins or leaves the seat queue; the host removes someone from it
/// (MIKE_QUEUE_REMOVE 2001 to them).
#[utoipa::path(operation_id = "mike_req_action", request_body = ReqActionBody, responses((status = 200, body = Envelope<Null>), ReqActionRefusals))]
#[post("/api/japi/yoo/mikeReq/action")]
pub async fn req_action(state: web::Data<AppState>, caller: Caller, body: web::Json<ReqActionBody>) -> ApiResult<Null> {
    let (uid, dd_rid) = (caller.0.uid, body.dd_rid.0);
    match (body.action, body.user_id) {
        (1, _) => drop(state.platform.rooms.mike_req_action(uid, dd_rid, MikeReqAction::Apply).await?),
        (2, _) => drop(state.platform.rooms.mike_req_action(uid, dd_rid, MikeReqAction::Cancel).await?),
        (3, Some(target)) => drop(state.platform.rooms.mike_req_remove(uid, dd_rid, target.0).await?),
        _ => return Err(ApiError::bad_request()),
    }
    Ok(ok(Null))
}

refusals!(ReqListRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control());

/// `mikeReq/list`: the seat queue, first come first.
#[utoipa::path(operation_id = "mike_req_list", request_body = DdRid, responses((status = 200, body = Envelope<Vec<RoomUserDto>>), ReqListRefusals))]
#[post("/api/japi/yoo/mikeReq/list")]
pub async fn req_list(state: web::Data<AppState>, caller: Caller, body: web::Json<DdRid>) -> ApiResult<Vec<RoomUserDto>> {
    let q = state.platform.rooms.mike_req_list(caller.0.uid, body.dd_rid.0).await?;
    Ok(ok(queue(&q)))
}

/// `mikeReq/clear` (host): empties the queue (MIKE_QUEUE_CANCEL 2002 to each).
#[utoipa::path(operation_id = "mike_req_clear", request_body = DdRid, responses((status = 200, body = Envelope<Null>), ReqListRefusals))]
#[post("/api/japi/yoo/mikeReq/clear")]
pub async fn req_clear(state: web::Data<AppState>, caller: Caller, body: web::Json<DdRid>) -> ApiResult<Null> {
    state.platform.rooms.mike_req_clear(caller.0.uid, body.dd_rid.0).await?;
    Ok(ok(Null))
}

refusals!(ReqTopRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::TargetNotInRoom,
    DomainError::MikeState);

/// `mikeReq/top` (host): moves `userId` to the head of the queue (MIKE_QUEUE_TOP 2000).
#[utoipa::path(operation_id = "mike_req_top", request_body = MikeTargetBody, responses((status = 200, body = Envelope<Vec<RoomUserDto>>), ReqTopRefusals))]
#[post("/api/japi/yoo/mikeReq/top")]
pub async fn req_top(state: web::Data<AppState>, caller: Caller, body: web::Json<MikeTargetBody>) -> ApiResult<Vec<RoomUserDto>> {
    let q = state
        .platform
        .rooms
        .mike_req_top(caller.0.uid, body.dd_rid.0, body.user_id.0)
        .await?;
    Ok(ok(queue(&q)))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SwitchBody {
    #[schema(example = 1)]
    dd_rid: Id,
    #[schema(value_type = i64, example = 2)]
    user_id: Id,
    #[schema(value_type = i64, example = 3)]
    target_user_id: Id,
}

/// `mikeReq/switchMikeReq` (host): swaps the places of two queued members.
#[utoipa::path(operation_id = "mike_req_switch", request_body = SwitchBody, responses((status = 200, body = Envelope<Vec<RoomUserDto>>), ReqTopRefusals))]
#[post("/api/japi/yoo/mikeReq/switchMikeReq")]
pub async fn req_switch(state: web::Data<AppState>, caller: Caller, body: web::Json<SwitchBody>) -> ApiResult<Vec<RoomUserDto>> {
    let q = state
        .platform
        .rooms
        .mike_req_switch(caller.0.uid, body.dd_rid.0, body.user_id.0, body.target_user_id.0)
        .await?;
    Ok(ok(queue(&q)))
}
