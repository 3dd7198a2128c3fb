//! What the callers of the room calls see: the typed answers of every `Platform` room method and
//! the forms they take. The facade turns these into the spec's JSON (social.md §3, §7); nothing
//! here serializes.

use std::sync::Arc;

use crate::play::hosts::StreamTarget;

/// Room mode RELAY (social.md §9): the host's game session is the room's relay.
pub const MODE_RELAY: i32 = 2;
/// Room mode HAND (social.md §9).
pub const MODE_HAND: i32 = 4;
/// The longest room name (characters).
pub const ROOM_NAME_MAX: usize = 15;
/// Mic seats of a room; seat 0 is the host's.
pub const SEATS: usize = 8;
/// The chat box's faces are ids 1..=CHAT_FACES (the frontend's `FACES`); another id is no face.
pub const CHAT_FACES: i64 = 12;

/// A mode the create dialog offers.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomModeInfo {
    pub mode: i32,
    pub name: &'static str,
    pub desc: &'static str,
}

/// `room/params`: the create dialog's defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomParams {
    /// The default room name ("{nickname}的房间", cut to 15 characters).
    pub room_name: String,
    pub room_modes: Vec<RoomModeInfo>,
    /// The base64 of the caller's last room password, empty when none.
    pub password: String,
}

/// The room form (create and edit), as the dialog sends it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoomForm {
    pub room_name: String,
    /// 0 when absent (refused: "room mode cannot be empty").
    pub mode: i32,
    /// 0 when absent (refused on create: "game cannot be empty").
    pub game_id: i64,
    pub is_show: bool,
    /// The base64 of 4 digits; None or "" = no password.
    pub password: Option<String>,
    /// 1 when a password is set or changed (edit: false keeps the stored password).
    pub is_update_pass: bool,
}

/// The relay extra params of `game/start` (social.md §3): the started session becomes the relay
/// of the caller's open room.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RelayParams {
    /// `isApplyRelay`: the room mode (2 RELAY).
    pub mode: i32,
    /// `roomPassword` (base64), applied to the room when `is_update_pass`.
    pub room_password: Option<String>,
    pub is_update_pass: bool,
    /// `isShow`, applied to the room when given.
    pub is_show: Option<bool>,
    /// The room, when the caller names it; the caller's open room otherwise.
    pub dd_rid: Option<i64>,
}

/// `room/relay` (the create call): the new room's ids and the relay info.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomCreated {
    /// The room's chat uuid (kept by the client; `room-{ddRid}`).
    pub uuid: String,
    pub dd_rid: i64,
    pub room_serial: i64,
    pub user_id: i64,
    /// The host's name in the room's chat (the uid as text).
    pub im_username: String,
    pub room: RoomView,
}

/// A user as rooms show them (online list, seats, blacklist, events).
#[derive(Debug, Clone, PartialEq)]
pub struct RoomUser {
    pub uid: i64,
    pub nickname: Arc<str>,
    pub avatar: Arc<str>,
    /// 0 normal, 1 official, 3 super admin.
    pub status: i32,
    /// vip, vvip, tyvip, tyschvip when the user holds one.
    pub member: Option<Arc<str>>,
}

/// A member in the online list: to the host, whether they are banned from chat (so the list
/// offers to lift it); to anyone else always false.
#[derive(Debug, Clone, PartialEq)]
pub struct OnlineUser {
    pub user: RoomUser,
    pub chat_banned: bool,
}

/// The user's role in a play session (social.md §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayRole {
    None = 0,
    Single = 1,
    RoomHost = 2,
    RoomControl = 3,
    RoomWithoutControl = 4,
}

/// The game of a room.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomGame {
    pub id: i64,
    pub name: Arc<str>,
    pub logo: Arc<str>,
    /// Players the game takes (multiplayer when > 1).
    pub people: i32,
}

/// The fair control rotation as everyone sees it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RotationView {
    pub on: bool,
    pub turn_secs: u64,
    /// Whose turn it is (the controller while rotation is on).
    pub current: Option<i64>,
    /// When the current turn ends (ms); None without a turn.
    pub turn_ends_at_ms: Option<i64>,
    /// The applicants waiting, first come first.
    pub queue: Vec<i64>,
}

/// `room/info`: a room as everyone sees it, with its stream position.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomView {
    pub dd_rid: i64,
    pub room_serial: i64,
    pub room_name: String,
    pub mode: i32,
    pub is_show: bool,
    /// A password guards entry (the password itself is never shown).
    pub has_password: bool,
    /// The host.
    pub user_id: i64,
    pub host: RoomUser,
    pub game: RoomGame,
    /// The relay's game status: 0 none (not started or ended), 1 QUEUE, 3 READY, 4 CONNECTING,
    /// 5 PLAYING.
    pub game_status: i32,
    /// Who controls the game (the host unless a guest holds control).
    pub controller: i64,
    /// Members now (the online count).
    pub online: u64,
    pub rotation: RotationView,
    pub created_at_ms: i64,
    /// The room ended (only the live detail and `my_room` of a just-ended room show this).
    pub ended: bool,
    /// The room's event stream position: watch from here.
    pub epoch: Arc<str>,
    pub offset: u64,
    /// The longest chat text the room takes, in characters.
    pub chat_max_chars: usize,
}

/// `room/loginRelayRoom` and `room/login`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EnterRoom {
    pub dd_rid: i64,
    pub mode: i32,
    /// 1: end the running game (130443), leave the other room (130203), move the membership
    /// from the other device (130204).
    pub force: bool,
    /// The base64 of 4 digits.
    pub password: Option<String>,
}

/// The caller's membership after entering.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomEntered {
    pub room: RoomView,
    pub role: PlayRole,
}

/// `room/exit`.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomExited {
    pub dd_rid: i64,
    /// Set when the caller was the host: the room ended; its live summary is by this serial.
    pub ended_room_serial: Option<i64>,
}

/// `room/userInfo`: the caller in their current room.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomUserInfo {
    pub id: i64,
    pub dd_rid: Option<i64>,
    pub room_serial: Option<i64>,
    pub role: PlayRole,
    /// The apply-control state (0 none, 1 pending, 2 denied) and when it lapses (ms).
    pub apply_control: ApplyControl,
    pub chat_banned: bool,
}

/// A page of rows and how many there are.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub total_rows: u64,
    pub rows: Vec<T>,
}

/// An entry of the room list.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomListItem {
    pub room: RoomView,
    /// watchers × 10 + distinct chatters of the last minute × 50 (see `RoomState::heat`).
    pub heat: u64,
}

/// `room/live/detail`: the live summary (social.md §2.15, §3).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LiveDetail {
    pub room_serial: i64,
    pub dd_rid: i64,
    /// 0 common (the only type here).
    pub live_type: i32,
    /// Minutes from creation to the end (or now while live).
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
    pub ended: bool,
}

/// `room/connection`: how a member watches the relay's stream.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomConnection {
    /// The relay's game status (as [`RoomView::game_status`]).
    pub status: i32,
    /// The relay session and where it streams: only while CONNECTING or PLAYING on a host's
    /// slot. The facade signs a viewer ticket for it (a controller ticket for the controller).
    pub stream: Option<(i64, Arc<StreamTarget>)>,
    /// The caller controls the game.
    pub controller: bool,
}

/// The state of one mic seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatState {
    Open,
    Closed,
    Banned,
    Locked,
    Host,
}

/// A seat in the mike list.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatView {
    pub index: usize,
    pub state: SeatState,
    pub user: Option<RoomUser>,
    /// Mic permission: 0 DENY, 1 MAIN (holds control), 2 ASSISTANT.
    pub seat_type: i32,
    pub is_ban_voice: bool,
}

/// The apply-control state of one viewer (social.md §4.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ApplyControl {
    /// 0 none, 1 pending, 2 denied.
    pub state: i32,
    /// When the state lapses back to 0 (ms); None for 0.
    pub until_ms: Option<i64>,
}

/// `mike/list`: the mike info (social.md §3).
#[derive(Debug, Clone, PartialEq)]
pub struct MikeInfo {
    pub mike_list: Vec<SeatView>,
    pub game_status: i32,
    /// 2 = every open seat is taken.
    pub mike_status: i32,
    pub is_open_mike: bool,
    /// The caller waits in the seat queue.
    pub is_mike_req: bool,
    /// 2 = a guest holds control (the host can recycle it).
    pub control_status: i32,
    /// 2 = the caller is in the list.
    pub mike_sub_status: i32,
    pub apply_control: ApplyControl,
}

/// A control application in the host's list.
#[derive(Debug, Clone, PartialEq)]
pub struct ControlApplication {
    pub user: RoomUser,
    pub at_ms: i64,
}

/// A blocked user in the caller's room blacklist.
#[derive(Debug, Clone, PartialEq)]
pub struct BlackItem {
    pub black_user_id: i64,
    pub user: RoomUser,
    pub at_ms: i64,
}

/// `mike/up` and `mike/upOrDown` actions (social.md §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MikeAction {
    /// 1: take a seat.
    Up,
    /// 2: take a seat and apply for control.
    UpWithControl,
    /// 3: leave the seat.
    Down,
}

impl MikeAction {
    pub fn from_code(code: i32) -> Option<MikeAction> {
        match code {
            1 => Some(MikeAction::Up),
            2 => Some(MikeAction::UpWithControl),
            3 => Some(MikeAction::Down),
            _ => None,
        }
    }
}

/// The host's operation on a member's seat (`mike/operat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MikeOp {
    /// Move the user onto a free seat.
    Up,
    /// Take the user off their seat.
    Down,
    /// Ban the seat's voice (MIKE_BLOCK 2012).
    BanVoice,
    /// Lift the ban (MIKE_BLOCK_OFF, 2012).
    UnbanVoice,
}

/// A viewer's own seat-queue action (`mikeReq/action`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MikeReqAction {
    /// Join the queue (the list is full).
    Apply,
    /// Leave the queue.
    Cancel,
}

/// Operator flags of a user (dev route, tests): status 0/1/3, minor, relay banned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UserFlags {
    pub status: i32,
    pub minor: bool,
    pub relay_banned: bool,
}
