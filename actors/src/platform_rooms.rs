//! The platform's room calls (social.md §7 Rooms, Mike and control, Moderation, Chat): one
//! method per call, `uid` first, typed answers from `room::view`. Each checks what needs storage
//! (profiles, flags, the blacklist) and hands the rest to the room's actor, which decides.

use std::sync::Arc;

use crate::error::{DomainError, DomainResult};
use crate::platform::Platform;
use crate::room::view::*;
use crate::room::wire::{RoomSink, RoomWire, WatchId};

fn todo<T>() -> DomainResult<T> {
    Err(DomainError::Internal("room calls: not built yet".into()))
}

impl Platform {
    /// Sets the wire that encodes room frames (the facade's, at start).
    pub fn set_room_wire(&self, wire: Arc<dyn RoomWire>) {
        let _ = wire;
    }

    /// `room/params`: the create dialog's defaults.
    pub async fn room_params(&self, uid: i64) -> DomainResult<RoomParams> {
        let _ = uid;
        todo()
    }

    /// `room/relayCheck`: may the caller host a relay (not a super admin, qualified, no minor).
    pub async fn relay_check(&self, uid: i64) -> DomainResult<()> {
        let _ = uid;
        todo()
    }

    /// `room/relay`: creates the caller's room (open at once); the host then starts the game with
    /// [`RelayParams`] and that session becomes the room's relay.
    pub async fn create_room(&self, uid: i64, form: RoomForm) -> DomainResult<RoomCreated> {
        let _ = (uid, form);
        todo()
    }

    /// `room/edit`: the host changes the form of their open room (the game stays).
    pub async fn edit_room(&self, uid: i64, form: RoomForm) -> DomainResult<RoomView> {
        let _ = (uid, form);
        todo()
    }

    /// `room/myRoom`: the room the caller hosts, if open.
    pub async fn my_room(&self, uid: i64) -> DomainResult<Option<RoomView>> {
        let _ = uid;
        todo()
    }

    /// `room/loginRelayRoom` and `room/login`: enters a room with the outcomes of §4.5 in the
    /// order of the design (not found, barred, minor, password, running game, other room, other
    /// device).
    pub async fn enter_room(&self, uid: i64, device_no: &str, req: EnterRoom) -> DomainResult<RoomEntered> {
        let _ = (uid, device_no, req);
        todo()
    }

    /// `room/exit`: leaves the caller's room; the host's exit ends it.
    pub async fn exit_room(&self, uid: i64) -> DomainResult<RoomExited> {
        let _ = uid;
        todo()
    }

    /// `room/info`: the room `dd_rid`, or the caller's current room when None.
    pub async fn room_info(&self, uid: i64, dd_rid: Option<i64>) -> DomainResult<RoomView> {
        let _ = (uid, dd_rid);
        todo()
    }

    /// `room/userInfo`: the caller in their current room.
    pub async fn room_user_info(&self, uid: i64) -> DomainResult<RoomUserInfo> {
        let _ = uid;
        todo()
    }

    /// `room/userList`: the members, page `page` (from 1) of `size`, the host first, then by
    /// entry.
    pub async fn room_users(&self, uid: i64, dd_rid: i64, page: u32, size: u32) -> DomainResult<Page<RoomUser>> {
        let _ = (uid, dd_rid, page, size);
        todo()
    }

    /// `orm/relayCount`: open public rooms per game.
    pub async fn relay_counts(&self, game_ids: &[i64]) -> DomainResult<Vec<(i64, u64)>> {
        let _ = game_ids;
        todo()
    }

    /// `room/live/detail`: the live summary of a room (the host's; live or ended).
    pub async fn live_detail(&self, uid: i64, room_serial: i64) -> DomainResult<LiveDetail> {
        let _ = (uid, room_serial);
        todo()
    }

    /// `v2/room/list`: the open public rooms, hottest first.
    pub async fn room_list(&self, page: u32, size: u32) -> DomainResult<Page<RoomListItem>> {
        let _ = (page, size);
        todo()
    }

    /// `room/connection`: how the caller (a member) watches the relay.
    pub async fn room_connection(&self, uid: i64, dd_rid: i64) -> DomainResult<RoomConnection> {
        let _ = (uid, dd_rid);
        todo()
    }

    /// `mike/list`.
    pub async fn mike_list(&self, uid: i64, dd_rid: i64) -> DomainResult<MikeInfo> {
        let _ = (uid, dd_rid);
        todo()
    }

    /// `mike/up`: take a free seat (`seat` or the first open one); action 2 also applies for
    /// control.
    pub async fn mike_up(&self, uid: i64, dd_rid: i64, action: MikeAction, seat: Option<usize>) -> DomainResult<MikeInfo> {
        let _ = (uid, dd_rid, action, seat);
        todo()
    }

    /// `mike/upOrDown`: action 3 leaves the seat (and control); 1 and 2 as `mike_up`.
    pub async fn mike_up_or_down(&self, uid: i64, dd_rid: i64, action: MikeAction) -> DomainResult<MikeInfo> {
        let _ = (uid, dd_rid, action);
        todo()
    }

    /// `mike/invite`: the host invites a member to a seat (2015).
    pub async fn mike_invite(&self, uid: i64, dd_rid: i64, target: i64) -> DomainResult<()> {
        let _ = (uid, dd_rid, target);
        todo()
    }

    /// `mike/invite/accept`.
    pub async fn mike_invite_accept(&self, uid: i64, room_serial: i64) -> DomainResult<MikeInfo> {
        let _ = (uid, room_serial);
        todo()
    }

    /// `mike/invite/refuse` (2016 to the host).
    pub async fn mike_invite_refuse(&self, uid: i64, room_serial: i64) -> DomainResult<()> {
        let _ = (uid, room_serial);
        todo()
    }

    /// `mike/operat`: the host moves a member up or down, or bans a seat's voice.
    pub async fn mike_operate(&self, uid: i64, dd_rid: i64, target: i64, op: MikeOp) -> DomainResult<MikeInfo> {
        let _ = (uid, dd_rid, target, op);
        todo()
    }

    /// `mike/lock`: the host locks or opens one seat (a seated user goes down).
    pub async fn mike_lock(&self, uid: i64, dd_rid: i64, seat: usize, lock: bool) -> DomainResult<MikeInfo> {
        let _ = (uid, dd_rid, seat, lock);
        todo()
    }

    /// `mike/lockAll`: every seat but the host's.
    pub async fn mike_lock_all(&self, uid: i64, dd_rid: i64, lock: bool) -> DomainResult<MikeInfo> {
        let _ = (uid, dd_rid, lock);
        todo()
    }

    /// `mike/banMessage`: the host bans (or lets) a member's chat; the same as [`Self::chat_ban`].
    pub async fn mike_ban_message(&self, uid: i64, dd_rid: i64, target: i64, on: bool) -> DomainResult<()> {
        self.chat_ban(uid, dd_rid, target, on).await
    }

    /// `mikeReq/action`: join or leave the seat queue.
    pub async fn mike_req_action(&self, uid: i64, dd_rid: i64, action: MikeReqAction) -> DomainResult<MikeInfo> {
        let _ = (uid, dd_rid, action);
        todo()
    }

    /// `mikeReq/list`: the seat queue, first come first.
    pub async fn mike_req_list(&self, uid: i64, dd_rid: i64) -> DomainResult<Vec<RoomUser>> {
        let _ = (uid, dd_rid);
        todo()
    }

    /// `mikeReq/clear` (host): empties the queue (2002 to each).
    pub async fn mike_req_clear(&self, uid: i64, dd_rid: i64) -> DomainResult<()> {
        let _ = (uid, dd_rid);
        todo()
    }

    /// `mikeReq/top` (host): moves `target` to the head of the queue (2000).
    pub async fn mike_req_top(&self, uid: i64, dd_rid: i64, target: i64) -> DomainResult<Vec<RoomUser>> {
        let _ = (uid, dd_rid, target);
        todo()
    }

    /// `mikeReq/remove` (host; the `mikeReq/action` of the host on someone): 2001 to them.
    pub async fn mike_req_remove(&self, uid: i64, dd_rid: i64, target: i64) -> DomainResult<Vec<RoomUser>> {
        let _ = (uid, dd_rid, target);
        todo()
    }

    /// `mikeReq/switchMikeReq` (host): swaps two queued users.
    pub async fn mike_req_switch(&self, uid: i64, dd_rid: i64, a: i64, b: i64) -> DomainResult<Vec<RoomUser>> {
        let _ = (uid, dd_rid, a, b);
        todo()
    }

    /// `control/apply`: the caller applies for control (state 1 for 30 s; 2020 to the host).
    pub async fn control_apply(&self, uid: i64, room_serial: i64) -> DomainResult<ApplyControl> {
        let _ = (uid, room_serial);
        todo()
    }

    /// `control/applyList` (host).
    pub async fn control_apply_list(&self, uid: i64, room_serial: i64) -> DomainResult<Vec<ControlApplication>> {
        let _ = (uid, room_serial);
        todo()
    }

    /// `control/assign` (host): gives control to `target` (also a transfer from another guest).
    pub async fn control_assign(&self, uid: i64, room_serial: i64, target: i64) -> DomainResult<()> {
        let _ = (uid, room_serial, target);
        todo()
    }

    /// The host denies an application (2022 to the applicant; state 2 for 60 s).
    pub async fn control_deny(&self, uid: i64, room_serial: i64, target: i64) -> DomainResult<()> {
        let _ = (uid, room_serial, target);
        todo()
    }

    /// `control/recycle` (host): takes control back from the guest (2024).
    pub async fn control_recycle(&self, uid: i64, room_serial: i64) -> DomainResult<()> {
        let _ = (uid, room_serial);
        todo()
    }

    /// `control/invite` (host): invites `target` to take control (2025).
    pub async fn control_invite(&self, uid: i64, room_serial: i64, target: i64) -> DomainResult<()> {
        let _ = (uid, room_serial, target);
        todo()
    }

    /// `control/invite/accept`.
    pub async fn control_invite_accept(&self, uid: i64, room_serial: i64) -> DomainResult<()> {
        let _ = (uid, room_serial);
        todo()
    }

    /// `control/invite/refuse` (2016 to the host).
    pub async fn control_invite_refuse(&self, uid: i64, room_serial: i64) -> DomainResult<()> {
        let _ = (uid, room_serial);
        todo()
    }

    /// `control/remand`: the controlling guest gives control back (2023 to the host).
    pub async fn control_remand(&self, uid: i64, room_serial: i64, remand_user_id: Option<i64>) -> DomainResult<()> {
        let _ = (uid, room_serial, remand_user_id);
        todo()
    }

    /// `control/rotation` (host): turns the fair rotation on or off; `turn_secs` (else the
    /// configured turn) is each applicant's turn.
    pub async fn rotation_set(&self, uid: i64, room_serial: i64, on: bool, turn_secs: Option<u64>) -> DomainResult<RotationView> {
        let _ = (uid, room_serial, on, turn_secs);
        todo()
    }

    /// Blocks `target` from the caller's rooms (and puts them out of the open one: 2032).
    pub async fn blacklist_add(&self, uid: i64, target: i64) -> DomainResult<()> {
        let _ = (uid, target);
        todo()
    }

    pub async fn blacklist_del(&self, uid: i64, target: i64) -> DomainResult<()> {
        let _ = (uid, target);
        todo()
    }

    /// The caller's blacklist, newest first, page `page` (from 1) of `size`.
    pub async fn blacklist_list(&self, uid: i64, page: u32, size: u32) -> DomainResult<Page<BlackItem>> {
        let _ = (uid, page, size);
        todo()
    }

    /// `blacklist/kick` (host): puts `target` out (2031); they may not come back for 10 minutes.
    pub async fn kick(&self, uid: i64, dd_rid: i64, target: i64) -> DomainResult<()> {
        let _ = (uid, dd_rid, target);
        todo()
    }

    /// The host bans (or lets) a member's chat (2030).
    pub async fn chat_ban(&self, uid: i64, dd_rid: i64, target: i64, on: bool) -> DomainResult<()> {
        let _ = (uid, dd_rid, target, on);
        todo()
    }

    /// `report/add`: reason 0–6 (social.md §9), about the room or one of its members.
    pub async fn report(&self, uid: i64, dd_rid: i64, target: Option<i64>, reason: i32, text: String) -> DomainResult<()> {
        let _ = (uid, dd_rid, target, reason, text);
        todo()
    }

    /// `room/chat/send`: a chat text, or an emoji by `face_id` (a bound phone is needed).
    pub async fn chat_send(&self, uid: i64, dd_rid: i64, text: String, face_id: Option<i64>) -> DomainResult<()> {
        let _ = (uid, dd_rid, text, face_id);
        todo()
    }

    /// ROOM_WATCH: `sink` (one socket of member `uid`) receives the room's events from now on;
    /// with a position (epoch, offset) it first receives what it missed after it, or a reset.
    pub async fn watch(&self, uid: i64, dd_rid: i64, sink: Arc<dyn RoomSink>, position: Option<(String, u64)>) -> DomainResult<WatchId> {
        let _ = (uid, dd_rid, sink, position);
        todo()
    }

    /// ROOM_UNWATCH, or the socket closed.
    pub fn unwatch(&self, dd_rid: i64, id: WatchId) {
        let _ = (dd_rid, id);
    }

    /// The open room `uid` hosts, checked for a relay start of `game_id` (the params of the
    /// start apply to it).
    pub(crate) async fn relay_room_for_start(&self, uid: i64, game_id: i64, relay: &RelayParams) -> DomainResult<i64> {
        let _ = (uid, game_id, relay);
        todo()
    }

    /// A relay start succeeded: the room adopts the session.
    pub(crate) async fn relay_started(&self, dd_rid: i64, uid: i64, view: &crate::view::SessionView) {
        let _ = (dd_rid, uid, view);
    }

    /// The room serial of the room whose relay `session_id` is (or was): `game/over` answers it.
    pub async fn relay_room_serial(&self, session_id: i64) -> DomainResult<Option<i64>> {
        let _ = session_id;
        todo()
    }

    /// Operator flags of a user (dev route, tests).
    pub async fn set_user_flags(&self, uid: i64, flags: UserFlags) -> DomainResult<()> {
        let _ = (uid, flags);
        todo()
    }
}
