//! Control of the room's game (social.md §4.7, §7 Mike and control) and the fair rotation
//! (beyond the spec): apply, the host's list, assign, deny, invite, accept, refuse, return,
//! recycle. Every change reaches the game host before the call answers (the room's actor calls
//! `Platform::set_stream_controller`).

use actix_web::{post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use super::dto::{self, ApplyControlDto, ControlApplicationDto, RotationDto};
use super::room::RoomSerial;
use crate::auth::Caller;
use crate::dto::{Flag, Id};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

/// The shortest and longest rotation turn a host may set (seconds).
const TURN_SECS: std::ops::RangeInclusive<u64> = 30..=3600;

refusals!(ApplyRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::MinorControlLimit,
    DomainError::NotRelayQualified, DomainError::ControlApplyOpen { retry_after_secs: 0 }, DomainError::ControlState);

/// `control/apply`: the caller applies for control (state 1 for 30 s; CONTROL_REQUEST 2020 to
/// the host; with rotation on, the caller joins the rotation's queue).
#[utoipa::path(operation_id = "control_apply", request_body = RoomSerial, responses((status = 200, body = Envelope<ApplyControlDto>), ApplyRefusals))]
#[post("/api/japi/yoo/control/apply")]
pub async fn apply(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomSerial>) -> ApiResult<ApplyControlDto> {
    let a = state.platform.rooms.control_apply(caller.0.uid, body.room_serial.0).await?;
    Ok(ok(dto::apply_control(&a)))
}

refusals!(ListRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control());

/// `control/applyList` (host): the pending applications, oldest first.
#[utoipa::path(operation_id = "control_apply_list", request_body = RoomSerial, responses((status = 200, body = Envelope<Vec<ControlApplicationDto>>), ListRefusals))]
#[post("/api/japi/yoo/control/applyList")]
pub async fn apply_list(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomSerial>) -> ApiResult<Vec<ControlApplicationDto>> {
    let list = state.platform.rooms.control_apply_list(caller.0.uid, body.room_serial.0).await?;
    Ok(ok(list.iter().map(dto::control_application).collect()))
}

/// A host's control call about one member.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ControlTargetBody {
    #[schema(value_type = i64, example = 500001)]
    room_serial: Id,
    #[schema(value_type = i64, example = 2)]
    user_id: Id,
}

refusals!(TargetRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::TargetNotInRoom,
    DomainError::MinorControlLimit, DomainError::NotRelayQualified, DomainError::ControlState);

/// `control/assign` (host): gives control to `userId` (CONTROL_ON 2021 to them, CONTROL_CHANGE
/// 1003 to the others; a transfer when another guest held it).
#[utoipa::path(operation_id = "control_assign", request_body = ControlTargetBody, responses((status = 200, body = Envelope<Null>), TargetRefusals))]
#[post("/api/japi/yoo/control/assign")]
pub async fn assign(state: web::Data<AppState>, caller: Caller, body: web::Json<ControlTargetBody>) -> ApiResult<Null> {
    state
        .platform
        .rooms
        .control_assign(caller.0.uid, body.room_serial.0, body.user_id.0)
        .await?;
    Ok(ok(Null))
}

/// `control/deny` (host; the spec's "deny" flow, path ours): refuses an application
/// (CONTROL_DENY 2022; the applicant's state is 2 for 60 s).
#[utoipa::path(operation_id = "control_deny", request_body = ControlTargetBody, responses((status = 200, body = Envelope<Null>), TargetRefusals))]
#[post("/api/japi/yoo/control/deny")]
pub async fn deny(state: web::Data<AppState>, caller: Caller, body: web::Json<ControlTargetBody>) -> ApiResult<Null> {
    state
        .platform
        .rooms
        .control_deny(caller.0.uid, body.room_serial.0, body.user_id.0)
        .await?;
    Ok(ok(Null))
}

/// `control/invite` (host): invites `userId` to take control (CONTROL_ON_INVITE 2025).
#[utoipa::path(operation_id = "control_invite", request_body = ControlTargetBody, responses((status = 200, body = Envelope<Null>), TargetRefusals))]
#[post("/api/japi/yoo/control/invite")]
pub async fn invite(state: web::Data<AppState>, caller: Caller, body: web::Json<ControlTargetBody>) -> ApiResult<Null> {
    state
        .platform
        .rooms
        .control_invite(caller.0.uid, body.room_serial.0, body.user_id.0)
        .await?;
    Ok(ok(Null))
}

refusals!(RecycleRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::ControlState);

/// `control/recycle` (host): takes control back from the guest (CONTROL_OFF 2024; with rotation
/// on, the next turn starts).
#[utoipa::path(operation_id = "control_recycle", request_body = RoomSerial, responses((status = 200, body = Envelope<Null>), RecycleRefusals))]
#[post("/api/japi/yoo/control/recycle")]
pub async fn recycle(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomSerial>) -> ApiResult<Null> {
    state.platform.rooms.control_recycle(caller.0.uid, body.room_serial.0).await?;
    Ok(ok(Null))
}

refusals!(InviteAnswerRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control(), DomainError::NoInvite,
    DomainError::MinorControlLimit, DomainError::NotRelayQualified);

/// `control/invite/accept`: takes the control the host offered.
#[utoipa::path(operation_id = "control_invite_accept", request_body = RoomSerial, responses((status = 200, body = Envelope<Null>), InviteAnswerRefusals))]
#[post("/api/japi/yoo/control/invite/accept")]
pub async fn invite_accept(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomSerial>) -> ApiResult<Null> {
    state.platform.rooms.control_invite_accept(caller.0.uid, body.room_serial.0).await?;
    Ok(ok(Null))
}

/// `control/invite/refuse`: INVITE_DENY (2016) to the host.
#[utoipa::path(operation_id = "control_invite_refuse", request_body = RoomSerial, responses((status = 200, body = Envelope<Null>), InviteAnswerRefusals))]
#[post("/api/japi/yoo/control/invite/refuse")]
pub async fn invite_refuse(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomSerial>) -> ApiResult<Null> {
    state.platform.rooms.control_invite_refuse(caller.0.uid, body.room_serial.0).await?;
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemandBody {
    #[schema(value_type = i64, example = 500001)]
    room_serial: Id,
    /// Who control goes back to (the host when absent).
    #[serde(default)]
    remand_user_id: Option<Id>,
}

/// `control/remand`: the controlling guest gives control back (CONTROL_RETURN 2023 to the host).
#[utoipa::path(operation_id = "control_remand", request_body = RemandBody, responses((status = 200, body = Envelope<Null>), RecycleRefusals))]
#[post("/api/japi/yoo/control/remand")]
pub async fn remand(state: web::Data<AppState>, caller: Caller, body: web::Json<RemandBody>) -> ApiResult<Null> {
    state
        .platform
        .rooms
        .control_remand(caller.0.uid, body.room_serial.0, body.remand_user_id.map(|i| i.0))
        .await?;
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RotationBody {
    #[schema(value_type = i64, example = 500001)]
    room_serial: Id,
    /// 1 on, 0 off.
    on: Flag,
    /// Each applicant's turn, 30..=3600 s (the configured `rotation_turn_secs` when absent).
    #[serde(default)]
    #[schema(minimum = 30, maximum = 3600, example = 300)]
    turn_secs: Option<u64>,
}

refusals!(RotationRefusals: common::input(), common::logged_in(), common::room(), common::seats_and_control());

/// `control/rotation` (host; beyond the spec): turns the fair rotation on or off. Applicants
/// wait in a first-come queue and each controls for a turn; the host's assign and recycle still
/// work and the queue follows them (ROTATION_CHANGE 3001 to everyone).
#[utoipa::path(operation_id = "control_rotation", request_body = RotationBody, responses((status = 200, body = Envelope<RotationDto>), RotationRefusals))]
#[post("/api/japi/yoo/control/rotation")]
pub async fn rotation(state: web::Data<AppState>, caller: Caller, body: web::Json<RotationBody>) -> ApiResult<RotationDto> {
    if body.turn_secs.is_some_and(|s| !TURN_SECS.contains(&s)) {
        return Err(ApiError::bad_request());
    }
    let r = state
        .platform
        .rooms
        .rotation_set(caller.0.uid, body.room_serial.0, body.on.0, body.turn_secs)
        .await?;
    Ok(ok(dto::rotation(&r)))
}
