//! Live rooms (social.md §7 Rooms, and our chat send and room list): create, edit, enter, exit,
//! room info, members, the relay's stream, the live summary. Every handler reads its body,
//! calls one `Platform` room method and converts the typed answer (`dto`); the room's
//! actor decides every rule.

use actix_web::{post, web};
use actors::rooms::view::{EnterRoom, RoomForm};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::dto::{
    self as dto, LiveDetailDto, RelayCounts, RoomConnectionDto, RoomCreatedDto, RoomEnteredDto, RoomInfoDto, RoomListPage, RoomParamsDto,
    RoomUserInfoDto, RoomUserPage,
};
use crate::auth::{Caller, MaybeCaller};
use crate::dto::Empty;
use crate::dto::{Flag, Id};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

/// The largest page a list call answers.
pub const MAX_PAGE_SIZE: u32 = 100;

/// `page` (from 1, default 1) and `size` (1..=100, default `default_size`); anything else is
/// malformed (40000).
pub fn paging(page: Option<u32>, size: Option<u32>, default_size: u32) -> Result<(u32, u32), ApiError> {
    let page = page.unwrap_or(1);
    let size = size.unwrap_or(default_size);
    if !(1..=100_000).contains(&page) || !(1..=MAX_PAGE_SIZE).contains(&size) {
        return Err(ApiError::bad_request());
    }
    Ok((page, size))
}

/// A call about one room.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DdRid {
    #[schema(example = 1)]
    pub dd_rid: Id,
}

/// A call about one live session of a room.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomSerial {
    #[schema(value_type = i64, example = 500001)]
    pub room_serial: Id,
}

refusals!(ParamsRefusals: common::logged_in(), common::room());

/// `room/params`: the create dialog's defaults (room name, modes, the last password).
#[utoipa::path(operation_id = "room_params", request_body(content = Option<Empty>), responses((status = 200, body = Envelope<RoomParamsDto>), ParamsRefusals))]
#[post("/api/japi/yoo/v2/room/params")]
pub async fn params(state: web::Data<AppState>, caller: Caller) -> ApiResult<RoomParamsDto> {
    let p = state.platform.rooms.room_params(caller.0.uid).await?;
    Ok(ok(dto::room_params(&p)))
}

refusals!(RelayCheckRefusals: common::logged_in(), common::room(), DomainError::SuperAdminRoom,
    DomainError::NotRelayQualified, DomainError::MinorRelayLimit);

/// `room/relayCheck`: may the caller host a room (not a super admin, relay-qualified, no minor).
#[utoipa::path(operation_id = "room_relay_check", request_body(content = Option<Empty>), responses((status = 200, body = Envelope<Null>), RelayCheckRefusals))]
#[post("/api/japi/yoo/v2/room/relayCheck")]
pub async fn relay_check(state: web::Data<AppState>, caller: Caller) -> ApiResult<Null> {
    state.platform.rooms.relay_check(caller.0.uid).await?;
    Ok(ok(Null))
}

/// The room form (social.md §3 create room payload, §5 rules).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomFormBody {
    /// Required, at most 15 characters.
    #[serde(default)]
    #[schema(example = "一起来玩")]
    room_name: String,
    /// Create only (the game stays on edit).
    #[serde(default)]
    #[schema(example = 1)]
    game_id: Option<Id>,
    /// 2 RELAY, 4 HAND.
    #[serde(default)]
    #[schema(example = 2)]
    mode: Option<i32>,
    /// 1 public (default), 0 private.
    #[serde(default)]
    is_show: Option<Flag>,
    /// base64 of exactly 4 digits; absent or "" for none.
    #[serde(default)]
    #[schema(example = "MTIzNA==")]
    password: Option<String>,
    /// 1 when a password is set or changed (edit: 0 keeps the stored one).
    #[serde(default)]
    is_update_pass: Option<Flag>,
    /// 2 (the relay call); accepted and ignored.
    #[serde(default)]
    #[allow(dead_code)]
    auth_type: Option<i32>,
}

impl RoomFormBody {
    fn form(&self) -> RoomForm {
        let password = self.password.clone().filter(|p| !p.is_empty());
        RoomForm {
            room_name: self.room_name.clone(),
            mode: self.mode.unwrap_or(0),
            game_id: self.game_id.map_or(0, |i| i.0),
            is_show: self.is_show.is_none_or(|f| f.0),
            is_update_pass: self.is_update_pass.map_or(password.is_some(), |f| f.0),
            password,
        }
    }
}

/// The rules of the room form, each its own code.
fn form_faults() -> Vec<crate::envelope::Refusal> {
    use actors::error::RoomFormFault as F;
    [F::NameEmpty, F::NameTooLong, F::ModeEmpty, F::GameEmpty, F::PasswordFormat]
        .into_iter()
        .map(|f| actors::DomainError::RoomForm(f).into())
        .collect()
}

refusals!(CreateRefusals: common::input(), common::logged_in(), common::room(), form_faults(),
    DomainError::SuperAdminRoom, DomainError::NotRelayQualified, DomainError::MinorRelayLimit, DomainError::UnknownGame,
    DomainError::GameNotOpen, DomainError::GameNotSupportRelay, DomainError::AlreadyHosting { dd_rid: 0 });

/// `room/relay` (the create call, authType 2): opens the caller's room at once and answers its
/// ids, the relay info and the room's stream position. The host then starts the game with
/// `game/start` and the relay extra params.
#[utoipa::path(operation_id = "room_relay", request_body = RoomFormBody, responses((status = 200, body = Envelope<RoomCreatedDto>), CreateRefusals))]
#[post("/api/japi/yoo/v2/room/relay")]
pub async fn relay(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomFormBody>) -> ApiResult<RoomCreatedDto> {
    let created = state.platform.rooms.create_room(caller.0.uid, body.form()).await?;
    Ok(ok(dto::room_created(&created, state.platform.clock().now_ms())))
}

refusals!(EditRefusals: common::input(), common::logged_in(), common::room(), form_faults(), DomainError::GameNotSupportRelay);

/// `room/edit`: the host changes the form of their open room (ROOM_INFO_CHANGE to everyone).
#[utoipa::path(operation_id = "room_edit", request_body = RoomFormBody, responses((status = 200, body = Envelope<RoomInfoDto>), EditRefusals))]
#[post("/api/japi/yoo/v2/room/edit")]
pub async fn edit(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomFormBody>) -> ApiResult<RoomInfoDto> {
    let room = state.platform.rooms.edit_room(caller.0.uid, body.form()).await?;
    Ok(ok(dto::room_info(&room, state.platform.clock().now_ms())))
}

refusals!(MyRoomRefusals: common::logged_in(), common::room());

/// `room/myRoom`: the room the caller hosts, or null.
#[utoipa::path(operation_id = "room_my_room", request_body(content = Option<Empty>), responses((status = 200, body = Envelope<Option<RoomInfoDto>>), MyRoomRefusals))]
#[post("/api/japi/yoo/v2/room/myRoom")]
pub async fn my_room(state: web::Data<AppState>, caller: Caller) -> ApiResult<Option<RoomInfoDto>> {
    let room = state.platform.rooms.my_room(caller.0.uid).await?;
    let now = state.platform.clock().now_ms();
    Ok(ok(room.map(|r| dto::room_info(&r, now))))
}

/// Entering a room (social.md §7: both readings of the payload are accepted).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnterBody {
    #[schema(example = 1)]
    dd_rid: Id,
    #[serde(default)]
    mode: Option<i32>,
    /// 1: end the running game (130443), leave the other room (130203), move the membership
    /// from the other device (130204).
    #[serde(default)]
    force: Option<Flag>,
    /// base64 of the 4-digit password.
    #[serde(default)]
    password: Option<String>,
    /// Accepted and ignored: `invitable`, `uuid`, `followId`, `authType`.
    #[serde(default)]
    #[allow(dead_code)]
    invitable: Option<serde_json::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    uuid: Option<serde_json::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    follow_id: Option<serde_json::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    auth_type: Option<serde_json::Value>,
}

refusals!(EnterRefusals: common::input(), common::logged_in(), common::room(), DomainError::GameNotSupportRelay,
    DomainError::RoomBarred, DomainError::Minor, DomainError::RoomPasswordNeeded,
    DomainError::RoomPasswordWrong { retry_after_secs: None }, DomainError::RoomPasswordWrong { retry_after_secs: Some(60) },
    DomainError::RoomGameRunning { session_id: 0, game_id: 0 }, DomainError::InOtherRoom { dd_rid: 0 },
    DomainError::InRoomElsewhere { dd_rid: 0 });

async fn enter(state: &AppState, caller: &Caller, body: &EnterBody) -> ApiResult<RoomEnteredDto> {
    let req = EnterRoom {
        dd_rid: body.dd_rid.0,
        mode: body.mode.unwrap_or(0),
        force: body.force.is_some_and(|f| f.0),
        password: body.password.clone().filter(|p| !p.is_empty()),
    };
    let entered = state.platform.rooms.enter_room(caller.0.uid, &caller.0.device_no, req).await?;
    Ok(ok(dto::room_entered(&entered, state.platform.clock().now_ms())))
}

/// `room/loginRelayRoom`: enters a room, with every outcome of social.md §4.5 in order: 130300
/// not found or ended, 130205 barred (blacklisted, or kicked within 10 minutes), 20151 minor,
/// 130201 password needed, 130202 wrong password (5 wrong tries a minute, then 130202 with
/// `data.retry_after`), 130443 a game running, 130203 in another room, 130204 in this room on
/// another device; `force` 1 settles the last three. Answers the room and its stream position.
#[utoipa::path(operation_id = "room_login_relay_room", request_body = EnterBody, responses((status = 200, body = Envelope<RoomEnteredDto>), EnterRefusals))]
#[post("/api/japi/yoo/v2/room/loginRelayRoom")]
pub async fn login_relay_room(state: web::Data<AppState>, caller: Caller, body: web::Json<EnterBody>) -> ApiResult<RoomEnteredDto> {
    enter(&state, &caller, &body).await
}

/// `room/login`: as `loginRelayRoom`.
#[utoipa::path(operation_id = "room_login", request_body = EnterBody, responses((status = 200, body = Envelope<RoomEnteredDto>), EnterRefusals))]
#[post("/api/japi/yoo/v2/room/login")]
pub async fn login(state: web::Data<AppState>, caller: Caller, body: web::Json<EnterBody>) -> ApiResult<RoomEnteredDto> {
    enter(&state, &caller, &body).await
}

refusals!(ConnectionRefusals: common::input(), common::logged_in(), common::room());

/// `room/connection`: how the caller, a member, watches the relay: its game status and, while
/// the relay is CONNECTING or PLAYING on a game host, the stream and a viewer ticket (the
/// caller's input reaches the game only while it controls).
#[utoipa::path(operation_id = "room_connection", request_body = DdRid, responses((status = 200, body = Envelope<RoomConnectionDto>), ConnectionRefusals))]
#[post("/api/japi/yoo/v2/room/connection")]
pub async fn connection(state: web::Data<AppState>, caller: Caller, body: web::Json<DdRid>) -> ApiResult<RoomConnectionDto> {
    let uid = caller.0.uid;
    let c = state.platform.rooms.room_connection(uid, body.dd_rid.0).await?;
    let now = state.platform.clock().now_ms();
    let signed = c.stream.as_ref().and_then(|(session_id, target)| {
        crate::routes::play::game::sign_ticket(&state, target, *session_id, uid, hostlink::Role::Viewer, now).map(|s| (*session_id, s))
    });
    Ok(ok(RoomConnectionDto {
        status: c.status,
        session_id: signed.as_ref().map(|(id, _)| *id),
        stream_url: signed.as_ref().map(|(_, (url, _, _))| url.clone()),
        ticket: signed.map(|(_, (_, ticket, _))| ticket),
        controller: c.controller,
    }))
}

/// `room/info`: the room `ddRid`, or the caller's current room when absent.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomInfoBody {
    #[serde(default)]
    dd_rid: Option<Id>,
}

refusals!(InfoRefusals: common::input(), common::logged_in(), common::room());

/// `room/info`: the room, its game and its stream position.
#[utoipa::path(operation_id = "room_info", request_body = RoomInfoBody, responses((status = 200, body = Envelope<RoomInfoDto>), InfoRefusals))]
#[post("/api/japi/yoo/v2/room/info")]
pub async fn info(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomInfoBody>) -> ApiResult<RoomInfoDto> {
    let room = state.platform.rooms.room_info(caller.0.uid, body.dd_rid.map(|i| i.0)).await?;
    Ok(ok(dto::room_info(&room, state.platform.clock().now_ms())))
}

refusals!(UserInfoRefusals: common::logged_in(), common::room());

/// `room/userInfo`: the caller in their current room (role, apply-control state, chat ban).
#[utoipa::path(operation_id = "room_user_info", request_body(content = Option<Empty>), responses((status = 200, body = Envelope<RoomUserInfoDto>), UserInfoRefusals))]
#[post("/api/japi/yoo/v2/room/userInfo")]
pub async fn user_info(state: web::Data<AppState>, caller: Caller) -> ApiResult<RoomUserInfoDto> {
    let u = state.platform.rooms.room_user_info(caller.0.uid).await?;
    Ok(ok(dto::room_user_info(&u)))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserListBody {
    #[schema(example = 1)]
    dd_rid: Id,
    /// From 1 (default 1).
    #[serde(default)]
    #[schema(minimum = 1)]
    page: Option<u32>,
    /// 1..=100 (default 20).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 100)]
    size: Option<u32>,
}

refusals!(UserListRefusals: common::input(), common::logged_in(), common::room());

/// `room/userList`: the members (the host first, then by entry); the online count is
/// `totalRows` (shown as 99+ from 100).
#[utoipa::path(operation_id = "room_user_list", request_body = UserListBody, responses((status = 200, body = Envelope<RoomUserPage>), UserListRefusals))]
#[post("/api/japi/yoo/v2/room/userList")]
pub async fn user_list(state: web::Data<AppState>, caller: Caller, body: web::Json<UserListBody>) -> ApiResult<RoomUserPage> {
    let (page, size) = paging(body.page, body.size, 20)?;
    let p = state.platform.rooms.room_users(caller.0.uid, body.dd_rid.0, page, size).await?;
    Ok(ok(RoomUserPage {
        total_rows: p.total_rows,
        rows: p.rows.iter().map(dto::online_user).collect(),
    }))
}

/// What leaving a room did.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Exited {
    pub dd_rid: i64,
    /// Set when the caller was the host: the room ended, its live summary is by this serial.
    pub room_serial: Option<i64>,
}

refusals!(ExitRefusals: common::logged_in(), common::room());

/// `room/exit`: leaves the caller's room; the host's exit ends the room (USER_RELAY_END to
/// everyone, the live summary written).
#[utoipa::path(operation_id = "room_exit", request_body(content = Option<Empty>), responses((status = 200, body = Envelope<Exited>), ExitRefusals))]
#[post("/api/japi/yoo/v2/room/exit")]
pub async fn exit(state: web::Data<AppState>, caller: Caller) -> ApiResult<Exited> {
    let e = state.platform.rooms.exit_room(caller.0.uid).await?;
    Ok(ok(Exited {
        dd_rid: e.dd_rid,
        room_serial: e.ended_room_serial,
    }))
}

refusals!(LiveDetailRefusals: common::input(), common::logged_in(), common::room());

/// `room/live/detail`: the live summary of the caller's room (live or ended).
#[utoipa::path(operation_id = "room_live_detail", request_body = RoomSerial, responses((status = 200, body = Envelope<LiveDetailDto>), LiveDetailRefusals))]
#[post("/api/japi/yoo/v2/room/live/detail")]
pub async fn live_detail(state: web::Data<AppState>, caller: Caller, body: web::Json<RoomSerial>) -> ApiResult<LiveDetailDto> {
    let d = state.platform.rooms.live_detail(caller.0.uid, body.room_serial.0).await?;
    Ok(ok(dto::live_detail(&d)))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RelayCountBody {
    /// At most 100 game ids.
    game_ids: Vec<Id>,
}

refusals!(RelayCountRefusals: common::input(), common::maybe_logged_in(), common::room());

/// `orm/relayCount`: open public rooms per game (`{"gameId": count}`; a game without rooms
/// counts 0).
#[utoipa::path(operation_id = "room_relay_count", request_body = RelayCountBody, responses((status = 200, body = Envelope<RelayCounts>), RelayCountRefusals))]
#[post("/api/japi/yoo/orm/relayCount")]
pub async fn relay_count(state: web::Data<AppState>, _caller: MaybeCaller, body: web::Json<RelayCountBody>) -> ApiResult<RelayCounts> {
    if body.game_ids.len() > MAX_PAGE_SIZE as usize {
        return Err(ApiError::bad_request());
    }
    let ids: Vec<i64> = body.game_ids.iter().map(|i| i.0).collect();
    let counts = state.platform.rooms.relay_counts(&ids).await?;
    let mut map = RelayCounts(ids.iter().map(|id| (id.to_string(), 0)).collect());
    for (id, n) in counts {
        map.0.insert(id.to_string(), n);
    }
    Ok(ok(map))
}

#[derive(Deserialize, ToSchema)]
pub struct PageBody {
    /// From 1 (default 1).
    #[serde(default)]
    page: Option<u32>,
    /// 1..=100 (default 20).
    #[serde(default)]
    size: Option<u32>,
}

impl PageBody {
    pub fn paging(&self, default_size: u32) -> Result<(u32, u32), ApiError> {
        paging(self.page, self.size, default_size)
    }
}

refusals!(RoomListRefusals: common::input(), common::maybe_logged_in(), common::room());

/// `v2/room/list`: the open public rooms, hottest first, with their heat.
#[utoipa::path(operation_id = "room_list", request_body = PageBody, responses((status = 200, body = Envelope<RoomListPage>), RoomListRefusals))]
#[post("/api/japi/yoo/v2/room/list")]
pub async fn list(state: web::Data<AppState>, _caller: MaybeCaller, body: web::Json<PageBody>) -> ApiResult<RoomListPage> {
    let (page, size) = body.paging(20)?;
    let p = state.platform.rooms.room_list(page, size).await?;
    Ok(ok(RoomListPage {
        total_rows: p.total_rows,
        rows: p.rows.iter().map(dto::room_list_item).collect(),
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChatBody {
    #[schema(example = 1)]
    dd_rid: Id,
    /// The text (1..=200 characters), or "" with `faceId` for an emoji.
    #[serde(default)]
    #[schema(example = "大家好")]
    text: String,
    /// A face of the chat box, 1..=12 (`room::view::CHAT_FACES`); another id is 130214.
    #[serde(default)]
    face_id: Option<Id>,
}

refusals!(ChatRefusals: common::input(), common::logged_in(), common::room(), DomainError::ChatBanned, DomainError::ChatInvalid,
    DomainError::PhoneUnbound);

/// `room/chat/send`: a chat message to the room (CHAT 3000 to every watcher, in the barrage).
#[utoipa::path(operation_id = "room_chat_send", request_body = ChatBody, responses((status = 200, body = Envelope<Null>), ChatRefusals))]
#[post("/api/japi/yoo/room/chat/send")]
pub async fn chat_send(state: web::Data<AppState>, caller: Caller, body: web::Json<ChatBody>) -> ApiResult<Null> {
    let b = body.into_inner();
    state
        .platform
        .rooms
        .chat_send(caller.0.uid, b.dd_rid.0, b.text, b.face_id.map(|i| i.0))
        .await?;
    Ok(ok(Null))
}
