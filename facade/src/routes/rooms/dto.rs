//! The JSON shapes of the room calls (social.md §3, §7) and the `data` of the room events
//! (§4.8), converted at the boundary from the domain's typed views (`actors::rooms::view`) and
//! events (`actors::rooms::events`). Nothing here decides a room rule.

use std::collections::BTreeMap;

use actors::rooms::view::{
    ApplyControl, BlackItem, ControlApplication, LiveDetail, MikeInfo, OnlineUser, PlayRole, RoomCreated, RoomEntered, RoomGame,
    RoomListItem, RoomParams, RoomUser, RoomUserInfo, RoomView, RotationView, SeatState, SeatView,
};
use serde::Serialize;
use utoipa::ToSchema;

/// A user as the room shows them (online list, seats, queue, blacklist, events).
#[derive(Serialize, ToSchema, Clone)]
#[serde(rename_all = "camelCase")]
pub struct RoomUserDto {
    pub user_id: i64,
    pub nickname: String,
    /// The spec's chat user `displayName` (the nickname).
    pub display_name: String,
    pub avatar: String,
    /// 0 normal, 1 official, 3 super admin.
    pub status: i32,
    /// vip, vvip, tyvip or tyschvip when held (red name in rooms).
    pub member: Option<String>,
}

pub fn room_user(u: &RoomUser) -> RoomUserDto {
    RoomUserDto {
        user_id: u.uid,
        nickname: u.nickname.to_string(),
        display_name: u.nickname.to_string(),
        avatar: u.avatar.to_string(),
        status: u.status,
        member: u.member.as_deref().map(str::to_string),
    }
}

/// A mode the create dialog offers.
#[derive(Serialize, ToSchema)]
pub struct RoomModeDto {
    /// 2 RELAY, 4 HAND.
    pub mode: i32,
    pub name: String,
    pub desc: String,
}

/// `room/params`: the create dialog's defaults.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomParamsDto {
    pub room_name: String,
    pub room_modes: Vec<RoomModeDto>,
    /// The base64 of the caller's last room password; "" when none.
    pub password: String,
}

pub fn room_params(p: &RoomParams) -> RoomParamsDto {
    RoomParamsDto {
        room_name: p.room_name.clone(),
        room_modes: p
            .room_modes
            .iter()
            .map(|m| RoomModeDto {
                mode: m.mode,
                name: m.name.into(),
                desc: m.desc.into(),
            })
            .collect(),
        password: p.password.clone(),
    }
}

/// The game of a room (multiplayer when `people` > 1).
#[derive(Serialize, ToSchema)]
pub struct RoomGameDto {
    pub id: i64,
    pub name: String,
    pub logo: String,
    pub people: i32,
}

pub fn room_game(g: &RoomGame) -> RoomGameDto {
    RoomGameDto {
        id: g.id,
        name: g.name.to_string(),
        logo: g.logo.to_string(),
        people: g.people,
    }
}

/// The fair control rotation (beyond the spec): on, the turn length, whose turn and until when,
/// and the applicants waiting (first come first; a viewer's position is its index + 1).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RotationDto {
    pub on: bool,
    pub turn_secs: u64,
    /// Whose turn it is.
    pub current: Option<i64>,
    /// When the current turn ends (server ms); the time left is `turnEndsAt - serverTime`.
    pub turn_ends_at: Option<i64>,
    pub queue: Vec<i64>,
}

pub fn rotation(r: &RotationView) -> RotationDto {
    RotationDto {
        on: r.on,
        turn_secs: r.turn_secs,
        current: r.current,
        turn_ends_at: r.turn_ends_at_ms,
        queue: r.queue.clone(),
    }
}

/// A room as everyone sees it (social.md §3 Room).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomDto {
    pub dd_rid: i64,
    pub room_serial: i64,
    pub room_name: String,
    /// 2 RELAY, 4 HAND.
    pub mode: i32,
    /// 1 public, 0 private.
    pub is_show: i32,
    /// A password guards entry (the password itself is never shown).
    pub has_password: bool,
    /// The host.
    pub user_id: i64,
    pub host: RoomUserDto,
    /// The relay's game status: 0 none, 1 QUEUE, 3 READY, 4 CONNECTING, 5 PLAYING.
    pub game_status: i32,
    /// Who controls the game (the host unless a guest holds control).
    pub controller: i64,
    /// Members now.
    pub online: u64,
    pub rotation: RotationDto,
    /// ms.
    pub created_at: i64,
    pub ended: bool,
}

fn room(v: &RoomView) -> RoomDto {
    RoomDto {
        dd_rid: v.dd_rid,
        room_serial: v.room_serial,
        room_name: v.room_name.clone(),
        mode: v.mode,
        is_show: v.is_show as i32,
        has_password: v.has_password,
        user_id: v.user_id,
        host: room_user(&v.host),
        game_status: v.game_status,
        controller: v.controller,
        online: v.online,
        rotation: rotation(&v.rotation),
        created_at: v.created_at_ms,
        ended: v.ended,
    }
}

/// `room/info` and `room/myRoom`: the room, its game, and the position of its event stream to
/// watch from (`ROOM_WATCH {ddRid, epoch, afterOffset: offset}`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomInfoDto {
    pub room: RoomDto,
    pub game: RoomGameDto,
    pub epoch: String,
    pub offset: u64,
    /// Server clock in ms.
    pub server_time: i64,
    /// The longest chat text the room takes, in characters (the chat box's limit).
    pub chat_max_chars: u64,
}

pub fn room_info(v: &RoomView, now_ms: i64) -> RoomInfoDto {
    RoomInfoDto {
        room: room(v),
        game: room_game(&v.game),
        epoch: v.epoch.to_string(),
        offset: v.offset,
        server_time: now_ms,
        chat_max_chars: v.chat_max_chars as u64,
    }
}

/// The caller's play role in a room (social.md §4.1): 2 ROOM_HOST, 3 ROOM_CONTROL,
/// 4 ROOM_WITHOUT_CONTROL (0 NONE, 1 SINGLE outside rooms).
pub fn play_role(r: PlayRole) -> i32 {
    r as i32
}

/// `room/loginRelayRoom`, `room/login`: the room status after entering.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomEnteredDto {
    /// 1 SUCCESS (the room page's load state).
    pub status: i32,
    #[serde(flatten)]
    pub info: RoomInfoDto,
    /// 2 ROOM_HOST, 3 ROOM_CONTROL, 4 ROOM_WITHOUT_CONTROL.
    pub game_type: i32,
}

pub fn room_entered(e: &RoomEntered, now_ms: i64) -> RoomEnteredDto {
    RoomEnteredDto {
        status: 1,
        info: room_info(&e.room, now_ms),
        game_type: play_role(e.role),
    }
}

/// `room/relay` (the create call): the new room and the relay info of social.md §3. The chat
/// service fields the spec's client read (`impassword`, `appKey`, `swAppId`) are empty: the
/// room's events and chat are this server's own socket frames.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomCreatedDto {
    /// The room's chat uuid (kept by the client).
    pub uuid: String,
    pub dd_rid: i64,
    pub room_serial: i64,
    pub user_id: i64,
    pub im_username: String,
    pub impassword: String,
    pub app_key: String,
    pub sw_app_id: String,
    #[serde(flatten)]
    pub info: RoomInfoDto,
}

pub fn room_created(c: &RoomCreated, now_ms: i64) -> RoomCreatedDto {
    RoomCreatedDto {
        uuid: c.uuid.clone(),
        dd_rid: c.dd_rid,
        room_serial: c.room_serial,
        user_id: c.user_id,
        im_username: c.im_username.clone(),
        impassword: String::new(),
        app_key: String::new(),
        sw_app_id: String::new(),
        info: room_info(&c.room, now_ms),
    }
}

/// The apply-control state (social.md §4.7): 0 none, 1 pending (30 s), 2 denied (60 s).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApplyControlDto {
    pub state: i32,
    /// When the state lapses back to 0 (server ms).
    pub until: Option<i64>,
}

pub fn apply_control(a: &ApplyControl) -> ApplyControlDto {
    ApplyControlDto {
        state: a.state,
        until: a.until_ms,
    }
}

/// `room/userInfo`: the caller in their current room (social.md §3 "current room user data").
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomUserInfoDto {
    pub id: i64,
    pub dd_rid: Option<i64>,
    pub room_serial: Option<i64>,
    /// 0 NONE (in no room), 2 ROOM_HOST, 3 ROOM_CONTROL, 4 ROOM_WITHOUT_CONTROL.
    pub game_type: i32,
    pub apply_control: ApplyControlDto,
    pub chat_banned: bool,
}

pub fn room_user_info(u: &RoomUserInfo) -> RoomUserInfoDto {
    RoomUserInfoDto {
        id: u.id,
        dd_rid: u.dd_rid,
        room_serial: u.room_serial,
        game_type: play_role(u.role),
        apply_control: apply_control(&u.apply_control),
        chat_banned: u.chat_banned,
    }
}

/// Pages of rows: `totalRows` and the `rows` of this page (social.md §3 online list, blacklist).
/// One named struct per row type (a generic one would share one name in the document).
macro_rules! rows {
    ($(#[$meta:meta])* $name:ident of $row:ty) => {
        $(#[$meta])*
        #[derive(Serialize, ToSchema)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            pub total_rows: u64,
            pub rows: Vec<$row>,
        }
    };
}

/// A member in the online list.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OnlineUserDto {
    #[serde(flatten)]
    pub user: RoomUserDto,
    /// Banned from chat (told to the host only; false to anyone else).
    pub chat_banned: bool,
}

pub fn online_user(u: &OnlineUser) -> OnlineUserDto {
    OnlineUserDto {
        user: room_user(&u.user),
        chat_banned: u.chat_banned,
    }
}

rows!(
    /// `room/userList`: the members.
    RoomUserPage of OnlineUserDto
);

/// An entry of the room list.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomListItemDto {
    pub room: RoomDto,
    pub game: RoomGameDto,
    /// Watchers × 10 + distinct chatters of the last minute × 50; shown as is below 10000, else
    /// in 万 with 2 decimals.
    pub heat: u64,
}

pub fn room_list_item(i: &RoomListItem) -> RoomListItemDto {
    RoomListItemDto {
        room: room(&i.room),
        game: room_game(&i.room.game),
        heat: i.heat,
    }
}

rows!(
    /// `v2/room/list`: the open public rooms, hottest first.
    RoomListPage of RoomListItemDto
);

/// `orm/relayCount`: open public rooms per game id (the key is the game id as text).
#[derive(Serialize, Default)]
#[serde(transparent)]
pub struct RelayCounts(pub BTreeMap<String, u64>);

impl utoipa::PartialSchema for RelayCounts {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
        ObjectBuilder::new()
            .additional_properties(Some(AdditionalProperties::RefOr(
                ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)).into(),
            )))
            .description(Some("open public rooms per game id"))
            .into()
    }
}

impl ToSchema for RelayCounts {}

/// `room/live/detail`: the live summary (social.md §2.15, §3).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LiveDetailDto {
    pub room_serial: i64,
    pub dd_rid: i64,
    /// 0 common, 1 pk, 2 competition.
    #[serde(rename = "type")]
    pub live_type: i32,
    /// Minutes.
    pub live_duration: i64,
    pub audience_count: i64,
    pub mike_count: i64,
    pub control_count: i64,
    pub pk_count: i64,
    pub competition_count: i64,
    pub fans_add_count: i64,
    pub give_gift_user_count: i64,
    pub gold: i64,
    pub gift_num: i64,
    /// Gifts do not exist yet: always empty.
    pub gift_log_list: Vec<RoomUserDto>,
    pub prop_log_list: Vec<RoomUserDto>,
    pub ended: bool,
}

pub fn live_detail(d: &LiveDetail) -> LiveDetailDto {
    LiveDetailDto {
        room_serial: d.room_serial,
        dd_rid: d.dd_rid,
        live_type: d.live_type,
        live_duration: d.live_duration,
        audience_count: d.audience_count,
        mike_count: d.mike_count,
        control_count: d.control_count,
        pk_count: d.pk_count,
        competition_count: d.competition_count,
        fans_add_count: d.fans_add_count,
        give_gift_user_count: d.give_gift_user_count,
        gold: d.gold,
        gift_num: d.gift_num,
        gift_log_list: vec![],
        prop_log_list: vec![],
        ended: d.ended,
    }
}

/// `room/connection`: how a member watches the relay (social.md §3 connect info).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomConnectionDto {
    /// The relay's game status: 0 none, 1 QUEUE, 3 READY, 4 CONNECTING, 5 PLAYING.
    pub status: i32,
    /// The relay session, while it streams.
    pub session_id: Option<i64>,
    /// `ws(s)://host:port` of the game host; the browser opens `{streamUrl}/stream?ticket=`.
    pub stream_url: Option<String>,
    /// A viewer ticket for the caller (its input reaches the game only while it controls).
    pub ticket: Option<String>,
    /// The caller controls the game.
    pub controller: bool,
}

/// A seat of the mike list (social.md §3 mike info).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatDto {
    pub index: usize,
    /// open, closed, banned, locked or host.
    pub state: &'static str,
    pub user_id: Option<i64>,
    pub user: Option<RoomUserDto>,
    /// Mic permission: 0 DENY, 1 MAIN (holds control), 2 ASSISTANT; > 0 has control.
    #[serde(rename = "type")]
    pub seat_type: i32,
    pub is_ban_voice: bool,
}

fn seat(s: &SeatView) -> SeatDto {
    SeatDto {
        index: s.index,
        state: match s.state {
            SeatState::Open => "open",
            SeatState::Closed => "closed",
            SeatState::Banned => "banned",
            SeatState::Locked => "locked",
            SeatState::Host => "host",
        },
        user_id: s.user.as_ref().map(|u| u.uid),
        user: s.user.as_ref().map(room_user),
        seat_type: s.seat_type,
        is_ban_voice: s.is_ban_voice,
    }
}

/// `mike/list` and the answer of every seat call.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MikeInfoDto {
    pub mike_list: Vec<SeatDto>,
    pub game_status: i32,
    /// 2: every open seat is taken.
    pub mike_status: i32,
    pub is_open_mike: bool,
    /// The caller waits in the seat queue.
    pub is_mike_req: bool,
    /// 2: a guest holds control (the host can recycle it).
    pub control_status: i32,
    /// 2: the caller is in the list.
    pub mike_sub_status: i32,
    pub apply_control: ApplyControlDto,
}

pub fn mike_info(m: &MikeInfo) -> MikeInfoDto {
    MikeInfoDto {
        mike_list: m.mike_list.iter().map(seat).collect(),
        game_status: m.game_status,
        mike_status: m.mike_status,
        is_open_mike: m.is_open_mike,
        is_mike_req: m.is_mike_req,
        control_status: m.control_status,
        mike_sub_status: m.mike_sub_status,
        apply_control: apply_control(&m.apply_control),
    }
}

/// A control application in the host's list.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ControlApplicationDto {
    pub user_id: i64,
    pub user: RoomUserDto,
    /// ms.
    pub applied_at: i64,
}

pub fn control_application(a: &ControlApplication) -> ControlApplicationDto {
    ControlApplicationDto {
        user_id: a.user.uid,
        user: room_user(&a.user),
        applied_at: a.at_ms,
    }
}

/// A blacklist row (social.md §3): `blackUserId` and its `userProfile`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlackItemDto {
    pub black_user_id: i64,
    pub user_profile: RoomUserDto,
    /// ms.
    pub created_at: i64,
}

pub fn black_item(b: &BlackItem) -> BlackItemDto {
    BlackItemDto {
        black_user_id: b.black_user_id,
        user_profile: room_user(&b.user),
        created_at: b.at_ms,
    }
}

rows!(
    /// `social/black/list`: the caller's blacklist, newest first.
    BlackPage of BlackItemDto
);
