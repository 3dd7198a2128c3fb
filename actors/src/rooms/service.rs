//! The platform's room calls (social.md §7 Rooms, Mike and control, Moderation, Chat): one
//! method per call, `uid` first, typed answers from `room::view`. Each reads what needs storage
//! (profiles, flags, the blacklist) and hands the rest to the room's actor, whose state decides
//! (the permission table included); calls by `roomSerial` find the room in the platform's index.

use crate::play::PlayCtx;
use crate::rooms::RoomsCtx;
use crate::view::SessionView;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::error::{DomainError, DomainResult, RoomFormFault};
use crate::play::player::SessionOp;
use crate::play::service::{check_start_mode, check_startable};
use crate::rooms::actor::{profile_of, RoomMsg};
use crate::rooms::call::{Left, LiveCounters, RoomAnswer, RoomCall, RoomReply};
use crate::rooms::password;
use crate::rooms::perm::{self, Command, Role, Roles};
use crate::rooms::state::{steering, visible, Ended, Entry, Profile, QueueOp};
use crate::rooms::view::*;
use crate::rooms::wire::{RoomSink, RoomWire, WatchId};
use crate::view::{GameState, Status};

/// The modes the create dialog offers.
pub const ROOM_MODES: [RoomModeInfo; 2] = [
    RoomModeInfo {
        mode: MODE_RELAY,
        name: "一起玩",
        desc: "房主开播，观众可上麦、申请控制权一起玩",
    },
    RoomModeInfo {
        mode: MODE_HAND,
        name: "手柄模式",
        desc: "房主开播，观众按顺序接手游戏",
    },
];

/// The longest report text (characters).
pub const REPORT_TEXT_MAX: usize = 200;

/// The room form's name and mode, checked (social.md §5).
fn check_form(form: &RoomForm) -> DomainResult<String> {
    // Control characters and direction overrides would show the name on other lines or
    // reversed in every list: they are dropped; a name of nothing visible is no name.
    let name: String = form.room_name.chars().filter(|c| !steering(*c)).collect();
    let name = name.trim().to_string();
    if !visible(&name) {
        return Err(DomainError::RoomForm(RoomFormFault::NameEmpty));
    }
    if name.chars().count() > ROOM_NAME_MAX {
        return Err(DomainError::RoomForm(RoomFormFault::NameTooLong));
    }
    if !ROOM_MODES.iter().any(|m| m.mode == form.mode) {
        return Err(DomainError::RoomForm(RoomFormFault::ModeEmpty));
    }
    Ok(name)
}

fn roles_of(p: &Profile) -> Roles {
    let mut r = Roles::of(&[Role::Viewer]);
    if p.minor {
        r = r.with(Role::Minor);
    }
    if p.relay_banned {
        r = r.with(Role::Unqualified);
    }
    match p.user.status {
        1 => r = r.with(Role::Official),
        3 => r = r.with(Role::SuperAdmin),
        _ => {}
    }
    r
}

impl Rooms {
    /// `game/start` with the relay extra params (social.md §3): with `relay`, the started
    /// session becomes the relay of the caller's open room (the room follows its state; its end
    /// ends the room). A session of the room's game already live is adopted as it is.
    pub async fn start_game_with(
        &self,
        uid: i64,
        device_no: &str,
        game_id: i64,
        node_id: Option<i64>,
        node_delay: &[(i64, i64)],
        relay: Option<RelayParams>,
    ) -> DomainResult<SessionView> {
        self.relay_start(uid, device_no, game_id, node_id, node_delay, relay, false).await
    }

    /// `changeGame` with the relay extra params: the host switches their room to `game_id`
    /// together (social.md §2.16: "switch now"); the new session becomes the room's relay and
    /// the old one's end does not end the room. ("Play alone" is `exit_room`, then
    /// `change_game`.)
    pub async fn change_game_with(
        &self,
        uid: i64,
        device_no: &str,
        game_id: i64,
        node_id: Option<i64>,
        node_delay: &[(i64, i64)],
        relay: Option<RelayParams>,
    ) -> DomainResult<SessionView> {
        self.relay_start(uid, device_no, game_id, node_id, node_delay, relay, true).await
    }

    /// [`Rooms::start_game_with`] (`switch` false) and [`Rooms::change_game_with`]
    /// (`switch` true): the room is checked (a new relay, or the host's room switching game)
    /// before the session starts, and follows it after.
    #[allow(clippy::too_many_arguments)]
    async fn relay_start(
        &self,
        uid: i64,
        device_no: &str,
        game_id: i64,
        node_id: Option<i64>,
        node_delay: &[(i64, i64)],
        relay: Option<RelayParams>,
        switch: bool,
    ) -> DomainResult<SessionView> {
        let Some(relay) = relay else {
            return self
                .play()
                .start_or_switch(uid, device_no, game_id, node_id, node_delay, switch, None)
                .await;
        };
        // before the room follows: a game that cannot run in this room's mode changes nothing
        check_start_mode(&self.play().game(game_id).await?, Some(relay.mode))?;
        let room = if switch {
            self.switch_room_game(uid, game_id, &relay).await?
        } else {
            self.relay_room_for_start(uid, game_id, &relay).await?
        };
        let view = self
            .play()
            .start_or_switch(uid, device_no, game_id, node_id, node_delay, switch, Some(relay.mode))
            .await?;
        self.relay_started(room, uid, &view).await;
        Ok(view)
    }

    /// Sends `call` to the room; the reply comes after the room carried out the effects
    /// (events out, timers set, the game host told of a new controller), with the view after
    /// them when the call declares that need (`call`'s module doc). A room gone before it
    /// answered is not found.
    async fn room_call(&self, dd_rid: i64, call: RoomCall) -> DomainResult<RoomReply> {
        let room = self.ctx.room(dd_rid)?;
        ractor::call!(room, |reply| RoomMsg::Call { call, reply }).map_err(|_| DomainError::RoomNotFound)?
    }

    /// [`Self::room_call`], its answer as the type the call answers.
    async fn room_ask<T: TryFrom<RoomAnswer, Error = DomainError>>(&self, dd_rid: i64, call: RoomCall) -> DomainResult<T> {
        self.room_call(dd_rid, call).await?.answer.try_into()
    }

    /// The room view after the effects.
    async fn room_view(&self, dd_rid: i64) -> DomainResult<RoomView> {
        self.room_call(dd_rid, RoomCall::View).await?.into_view()
    }

    /// The open room of a serial.
    fn by_serial(&self, room_serial: i64) -> DomainResult<i64> {
        self.ctx
            .rooms_state()
            .room_index
            .lock()
            .serials
            .get(&room_serial)
            .copied()
            .filter(|d| self.ctx.rooms().get(d).is_some())
            .ok_or(DomainError::RoomNotFound)
    }

    /// The room `uid` is a member of.
    fn room_of(&self, uid: i64) -> Option<i64> {
        self.ctx.rooms_state().room_index.lock().members.get(&uid).copied()
    }

    async fn profile(&self, uid: i64) -> DomainResult<(Profile, String)> {
        profile_of(&self.ctx, uid).await.map_err(|e| match e {
            DomainError::TargetNotInRoom => DomainError::NotLoggedIn,
            e => e,
        })
    }

    /// The profile read again before a control call (the minor flag may have been set since
    /// the entry); None when `needed` is false.
    async fn fresh_profile(&self, uid: i64, needed: bool) -> DomainResult<Option<Profile>> {
        if !needed {
            return Ok(None);
        }
        match profile_of(&self.ctx, uid).await {
            Ok((p, _)) => Ok(Some(p)),
            Err(DomainError::TargetNotInRoom) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Sets the wire that encodes room frames (the facade's, at start).
    pub fn set_room_wire(&self, wire: Arc<dyn RoomWire>) {
        *self.ctx.rooms_state().room_wire.write() = wire;
    }

    /// `room/params`: the create dialog's defaults.
    pub async fn room_params(&self, uid: i64) -> DomainResult<RoomParams> {
        let (p, _) = self.profile(uid).await?;
        let room_name: String = format!("{}的房间", p.user.nickname).chars().take(ROOM_NAME_MAX).collect();
        Ok(RoomParams {
            room_name,
            room_modes: ROOM_MODES.to_vec(),
            password: String::new(),
        })
    }

    /// `room/relayCheck`: may the caller host a relay (not a super admin, no minor, qualified).
    pub async fn relay_check(&self, uid: i64) -> DomainResult<()> {
        let (p, _) = self.profile(uid).await?;
        perm::check(roles_of(&p), Command::CreateRoom)
    }

    /// `room/relay`: creates the caller's room (open at once); the host then starts the game with
    /// [`RelayParams`] and that session becomes the room's relay (a live session of the room's
    /// game is adopted at once).
    pub async fn create_room(&self, uid: i64, form: RoomForm) -> DomainResult<RoomCreated> {
        self.relay_check(uid).await?;
        let name = check_form(&form)?;
        if form.game_id == 0 {
            return Err(DomainError::RoomForm(RoomFormFault::GameEmpty));
        }
        let digits = password::decode(form.password.as_deref()).map_err(DomainError::RoomForm)?;
        let game = self.play().game(form.game_id).await?;
        check_startable(&game).map_err(|_| DomainError::GameNotSupportRelay)?;
        check_start_mode(&game, Some(form.mode)).map_err(|_| DomainError::GameNotSupportRelay)?;
        if let Some(dd_rid) = self.ctx.rooms_state().room_index.lock().hosts.get(&uid).copied() {
            return Err(DomainError::AlreadyHosting { dd_rid });
        }
        let new = storage::NewRoom {
            host_uid: uid,
            name,
            mode: form.mode,
            is_show: form.is_show,
            password: digits.as_deref().map(password::protect),
            game_id: game.id,
            created_at: self.ctx.clock.now_ms(),
        };
        let record = match self.ctx.db_raw(move |s| s.rooms.insert(&new)).await? {
            Ok(r) => r,
            Err(storage::Error::Conflict(_)) => {
                let open = self.ctx.db(move |s| s.rooms.open_by_host(uid)).await?;
                return Err(DomainError::AlreadyHosting {
                    dd_rid: open.map_or(0, |r| r.dd_rid),
                });
            }
            Err(e) => return Err(e.into()),
        };
        // The host lives in their own room now.
        if let Some(other) = self.room_of(uid) {
            if let Ok(r) = self.ctx.room(other) {
                let _ = r.send_message(RoomMsg::Leave(uid));
            }
        }
        let room = self.ctx.rooms().get_or_start(&record.dd_rid).await.map_err(DomainError::Internal)?;
        if let Ok(state @ GameState::Online(_)) = self.play().game_state(uid).await {
            let _ = room.send_message(RoomMsg::Host(state));
        }
        let view = self.room_view(record.dd_rid).await?;
        Ok(RoomCreated {
            uuid: format!("room-{}", record.dd_rid),
            dd_rid: record.dd_rid,
            room_serial: record.room_serial,
            user_id: uid,
            im_username: uid.to_string(),
            room: view,
        })
    }

    /// `room/edit`: the host changes the form of their open room (the game stays; without
    /// `is_update_pass` the password stays).
    pub async fn edit_room(&self, uid: i64, form: RoomForm) -> DomainResult<RoomView> {
        let dd_rid = self
            .ctx
            .rooms_state()
            .room_index
            .lock()
            .hosts
            .get(&uid)
            .copied()
            .ok_or(DomainError::RoomNotFound)?;
        let name = check_form(&form)?;
        let pass = if form.is_update_pass {
            let digits = password::decode(form.password.as_deref()).map_err(DomainError::RoomForm)?;
            Some(digits.as_deref().map(password::protect))
        } else {
            None
        };
        let (mode, is_show) = (form.mode, form.is_show);
        let call = RoomCall::Edit {
            uid,
            name,
            mode,
            is_show,
            password: pass,
        };
        self.room_call(dd_rid, call).await?.into_view()
    }

    /// `room/myRoom`: the room the caller hosts, if open.
    pub async fn my_room(&self, uid: i64) -> DomainResult<Option<RoomView>> {
        let Some(dd_rid) = self.ctx.rooms_state().room_index.lock().hosts.get(&uid).copied() else {
            return Ok(None);
        };
        match self.room_view(dd_rid).await {
            Ok(v) => Ok(Some(v)),
            Err(DomainError::RoomNotFound) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `room/loginRelayRoom` and `room/login`: enters a room with the outcomes of §4.5 in the
    /// order of the design (not found, barred, minor, password, running game, other room, other
    /// device). With `force` the running game is ended and the other room left once the entry
    /// is admitted.
    pub async fn enter_room(&self, uid: i64, device_no: &str, req: EnterRoom) -> DomainResult<RoomEntered> {
        let dd_rid = req.dd_rid;
        let host = self
            .ctx
            .rooms_state()
            .room_index
            .lock()
            .listing
            .get(&dd_rid)
            .map(|l| l.room.user_id)
            .ok_or(DomainError::RoomNotFound)?;
        self.ctx.room(dd_rid)?;
        let (profile, _) = self.profile(uid).await?;
        let blacklisted = uid != host && self.ctx.db(move |s| s.rooms.is_blocked(host, uid)).await?;
        let running_game = if uid == host {
            None
        } else {
            match self.play().game_state(uid).await? {
                GameState::Online(v) if matches!(v.status, Status::Connecting | Status::Playing) => Some((v.id, v.game_id)),
                _ => None,
            }
        };
        let other_room = self.room_of(uid).filter(|d| *d != dd_rid);
        let entry = Entry {
            profile,
            device_no: device_no.to_string(),
            password: req.password,
            force: req.force,
            blacklisted,
            running_game,
            other_room,
        };
        let (role, room) = self.room_call(dd_rid, RoomCall::Enter { entry }).await?.answer_and_view()?;
        let entered = RoomEntered { room, role };
        if let Some((session_id, _)) = running_game {
            if let Err(e) = self.play().session_op(uid, SessionOp::Over, session_id).await {
                tracing::debug!(error = %e, "force-cancel: the game was already gone");
            }
        }
        if let Some(other) = other_room {
            if let Ok(r) = self.ctx.room(other) {
                let _ = r.send_message(RoomMsg::Leave(uid));
            }
        }
        self.activity().task_event(uid, crate::activity::mission::TaskEvent::GameLive).await;
        Ok(entered)
    }

    /// `room/exit`: leaves the caller's room; the host's exit ends it.
    pub async fn exit_room(&self, uid: i64) -> DomainResult<RoomExited> {
        let dd_rid = self.room_of(uid).ok_or(DomainError::NotInRoom)?;
        let left: Left = self.room_ask(dd_rid, RoomCall::Leave { uid }).await?;
        Ok(RoomExited {
            dd_rid,
            ended_room_serial: (left.ended == Ended::Now).then_some(left.room_serial),
        })
    }

    /// `room/info`: the room `dd_rid`, or the caller's current room when None.
    pub async fn room_info(&self, uid: i64, dd_rid: Option<i64>) -> DomainResult<RoomView> {
        let dd_rid = dd_rid.or_else(|| self.room_of(uid)).ok_or(DomainError::NotInRoom)?;
        self.room_view(dd_rid).await
    }

    /// `room/userInfo`: the caller in their current room.
    pub async fn room_user_info(&self, uid: i64) -> DomainResult<RoomUserInfo> {
        let none = RoomUserInfo {
            id: uid,
            dd_rid: None,
            room_serial: None,
            role: PlayRole::None,
            apply_control: ApplyControl::default(),
            chat_banned: false,
        };
        let Some(dd_rid) = self.room_of(uid) else {
            return Ok(none);
        };
        match self.room_ask(dd_rid, RoomCall::UserInfo { uid }).await {
            Err(DomainError::RoomNotFound) => Ok(none),
            r => r,
        }
    }

    /// `room/userList`: the members, page `page` (from 1) of `size` (at most 100), the host
    /// first, then by entry.
    pub async fn room_users(&self, uid: i64, dd_rid: i64, page: u32, size: u32) -> DomainResult<Page<OnlineUser>> {
        self.room_ask(dd_rid, RoomCall::Users { uid, page, size }).await
    }

    /// `orm/relayCount`: open public rooms per game, in the order asked.
    pub async fn relay_counts(&self, game_ids: &[i64]) -> DomainResult<Vec<(i64, u64)>> {
        let index = self.ctx.rooms_state().room_index.lock();
        Ok(game_ids
            .iter()
            .map(|g| {
                let n = index.listing.values().filter(|l| l.room.is_show && l.room.game.id == *g).count();
                (*g, n as u64)
            })
            .collect())
    }

    /// `room/live/detail`: the live summary of a room, live or ended (everyone who was in it
    /// sees the summary when it ends).
    pub async fn live_detail(&self, uid: i64, room_serial: i64) -> DomainResult<LiveDetail> {
        let _ = uid;
        let record = self
            .ctx
            .db(move |s| s.rooms.by_serial(room_serial))
            .await?
            .ok_or(DomainError::RoomNotFound)?;
        let now = self.ctx.clock.now_ms();
        let live = if record.ended_at.is_none() {
            self.room_ask(record.dd_rid, RoomCall::Counters).await.ok()
        } else {
            None
        };
        let LiveCounters {
            audience,
            mike,
            control,
            givers,
            gifts,
        } = live.unwrap_or(LiveCounters {
            audience: record.audience_count,
            mike: record.mike_count,
            control: record.control_count,
            givers: 0,
            gifts: record.gift_count,
        });
        let end = record.ended_at.unwrap_or(now);
        Ok(LiveDetail {
            room_serial,
            dd_rid: record.dd_rid,
            live_type: 0,
            live_duration: (end - record.created_at).max(0) / 60_000,
            audience_count: audience,
            mike_count: mike,
            control_count: control,
            gift_num: gifts,
            give_gift_user_count: givers,
            gold: record.gold,
            ended: record.ended_at.is_some(),
            ..LiveDetail::default()
        })
    }

    /// `v2/room/list`: the open public rooms, hottest first (then newest), page from 1.
    pub async fn room_list(&self, page: u32, size: u32) -> DomainResult<Page<RoomListItem>> {
        let mut all: Vec<RoomListItem> = self
            .ctx
            .rooms_state()
            .room_index
            .lock()
            .listing
            .values()
            .filter(|l| l.room.is_show && !l.room.ended)
            .cloned()
            .collect();
        all.sort_by_key(|l| (std::cmp::Reverse(l.heat), std::cmp::Reverse(l.room.dd_rid)));
        let size = size.clamp(1, 100) as usize;
        let skip = (page.max(1) as usize - 1) * size;
        Ok(Page {
            total_rows: all.len() as u64,
            rows: all.into_iter().skip(skip).take(size).collect(),
        })
    }

    /// `room/connection`: how the caller (a member) watches the relay.
    pub async fn room_connection(&self, uid: i64, dd_rid: i64) -> DomainResult<RoomConnection> {
        self.room_ask(dd_rid, RoomCall::Connection { uid }).await
    }

    /// `mike/list`.
    pub async fn mike_list(&self, uid: i64, dd_rid: i64) -> DomainResult<MikeInfo> {
        self.room_ask(dd_rid, RoomCall::MikeInfo { uid }).await
    }

    /// `mike/up`: take a free seat (`seat` or the first open one); action 2 also applies for
    /// control.
    pub async fn mike_up(&self, uid: i64, dd_rid: i64, action: MikeAction, seat: Option<usize>) -> DomainResult<MikeInfo> {
        let fresh = self.fresh_profile(uid, action == MikeAction::UpWithControl).await?;
        let call = RoomCall::MikeUp { uid, action, seat, fresh };
        self.room_ask(dd_rid, call).await
    }

    /// `mike/upOrDown`: action 3 leaves the seat (and gives control back); 1 and 2 as `mike_up`.
    pub async fn mike_up_or_down(&self, uid: i64, dd_rid: i64, action: MikeAction) -> DomainResult<MikeInfo> {
        self.mike_up(uid, dd_rid, action, None).await
    }

    /// `mike/invite`: the host invites a member to a seat (2015).
    pub async fn mike_invite(&self, uid: i64, dd_rid: i64, target: i64) -> DomainResult<()> {
        self.room_ask(dd_rid, RoomCall::MikeInvite { uid, target }).await
    }

    /// `mike/invite/accept`.
    pub async fn mike_invite_accept(&self, uid: i64, room_serial: i64) -> DomainResult<MikeInfo> {
        let dd_rid = self.by_serial(room_serial)?;
        self.room_ask(dd_rid, RoomCall::MikeInviteAnswer { uid, accept: true }).await
    }

    /// `mike/invite/refuse` (2016 to the host).
    pub async fn mike_invite_refuse(&self, uid: i64, room_serial: i64) -> DomainResult<()> {
        let dd_rid = self.by_serial(room_serial)?;
        let call = RoomCall::MikeInviteAnswer { uid, accept: false };
        self.room_ask::<MikeInfo>(dd_rid, call).await.map(|_| ())
    }

    /// `mike/operat`: the host moves a member up or down, or bans a seat's voice.
    pub async fn mike_operate(&self, uid: i64, dd_rid: i64, target: i64, op: MikeOp) -> DomainResult<MikeInfo> {
        self.room_ask(dd_rid, RoomCall::MikeOperate { uid, target, op }).await
    }

    /// `mike/lock`: the host locks or opens one seat (a seated user goes down).
    pub async fn mike_lock(&self, uid: i64, dd_rid: i64, seat: usize, lock: bool) -> DomainResult<MikeInfo> {
        let call = RoomCall::MikeLock {
            uid,
            seat: Some(seat),
            lock,
        };
        self.room_ask(dd_rid, call).await
    }

    /// `mike/lockAll`: every seat but the host's.
    pub async fn mike_lock_all(&self, uid: i64, dd_rid: i64, lock: bool) -> DomainResult<MikeInfo> {
        self.room_ask(dd_rid, RoomCall::MikeLock { uid, seat: None, lock }).await
    }

    /// `mike/banMessage`: the host bans (or lets) a member's chat; the same as [`Self::chat_ban`].
    pub async fn mike_ban_message(&self, uid: i64, dd_rid: i64, target: i64, on: bool) -> DomainResult<()> {
        self.chat_ban(uid, dd_rid, target, on).await
    }

    /// `mikeReq/action`: join or leave the seat queue.
    pub async fn mike_req_action(&self, uid: i64, dd_rid: i64, action: MikeReqAction) -> DomainResult<MikeInfo> {
        self.room_ask(dd_rid, RoomCall::MikeReq { uid, action }).await
    }

    /// `mikeReq/list`: the seat queue, first come first.
    pub async fn mike_req_list(&self, uid: i64, dd_rid: i64) -> DomainResult<Vec<RoomUser>> {
        self.room_ask(dd_rid, RoomCall::MikeQueue { uid }).await
    }

    /// `mikeReq/clear` (host): empties the queue (2002 to each).
    pub async fn mike_req_clear(&self, uid: i64, dd_rid: i64) -> DomainResult<()> {
        let call = RoomCall::MikeQueueOp { uid, op: QueueOp::Clear };
        self.room_ask::<Vec<RoomUser>>(dd_rid, call).await.map(|_| ())
    }

    /// `mikeReq/top` (host): moves `target` to the head of the queue (2000).
    pub async fn mike_req_top(&self, uid: i64, dd_rid: i64, target: i64) -> DomainResult<Vec<RoomUser>> {
        let call = RoomCall::MikeQueueOp {
            uid,
            op: QueueOp::Top(target),
        };
        self.room_ask(dd_rid, call).await
    }

    /// `mikeReq/remove` (host; the `mikeReq/action` of the host on someone): 2001 to them.
    pub async fn mike_req_remove(&self, uid: i64, dd_rid: i64, target: i64) -> DomainResult<Vec<RoomUser>> {
        let call = RoomCall::MikeQueueOp {
            uid,
            op: QueueOp::Remove(target),
        };
        self.room_ask(dd_rid, call).await
    }

    /// `mikeReq/switchMikeReq` (host): swaps two queued users.
    pub async fn mike_req_switch(&self, uid: i64, dd_rid: i64, a: i64, b: i64) -> DomainResult<Vec<RoomUser>> {
        let call = RoomCall::MikeQueueOp {
            uid,
            op: QueueOp::Switch(a, b),
        };
        self.room_ask(dd_rid, call).await
    }

    /// `control/apply`: the caller applies for control (state 1 for 30 s; 2020 to the host).
    pub async fn control_apply(&self, uid: i64, room_serial: i64) -> DomainResult<ApplyControl> {
        let dd_rid = self.by_serial(room_serial)?;
        let fresh = self.fresh_profile(uid, true).await?;
        self.room_ask(dd_rid, RoomCall::ControlApply { uid, fresh }).await
    }

    /// `control/applyList` (host).
    pub async fn control_apply_list(&self, uid: i64, room_serial: i64) -> DomainResult<Vec<ControlApplication>> {
        let dd_rid = self.by_serial(room_serial)?;
        self.room_ask(dd_rid, RoomCall::Applications { uid }).await
    }

    /// `control/assign` (host): gives control to `target` (also a transfer from another guest).
    pub async fn control_assign(&self, uid: i64, room_serial: i64, target: i64) -> DomainResult<()> {
        let dd_rid = self.by_serial(room_serial)?;
        let fresh = self.fresh_profile(target, true).await?;
        self.room_ask(dd_rid, RoomCall::ControlAssign { uid, target, fresh }).await
    }

    /// The host denies an application (2022 to the applicant; state 2 for 60 s).
    pub async fn control_deny(&self, uid: i64, room_serial: i64, target: i64) -> DomainResult<()> {
        let dd_rid = self.by_serial(room_serial)?;
        self.room_ask(dd_rid, RoomCall::ControlDeny { uid, target }).await
    }

    /// `control/recycle` (host): takes control back from the guest (2024).
    pub async fn control_recycle(&self, uid: i64, room_serial: i64) -> DomainResult<()> {
        let dd_rid = self.by_serial(room_serial)?;
        self.room_ask(dd_rid, RoomCall::ControlRecycle { uid }).await
    }

    /// `control/invite` (host): invites `target` to take control (2025).
    pub async fn control_invite(&self, uid: i64, room_serial: i64, target: i64) -> DomainResult<()> {
        let dd_rid = self.by_serial(room_serial)?;
        let fresh = self.fresh_profile(target, true).await?;
        self.room_ask(dd_rid, RoomCall::ControlInvite { uid, target, fresh }).await
    }

    /// `control/invite/accept`.
    pub async fn control_invite_accept(&self, uid: i64, room_serial: i64) -> DomainResult<()> {
        let dd_rid = self.by_serial(room_serial)?;
        let fresh = self.fresh_profile(uid, true).await?;
        let call = RoomCall::ControlInviteAnswer { uid, accept: true, fresh };
        self.room_ask(dd_rid, call).await
    }

    /// `control/invite/refuse` (2016 to the host).
    pub async fn control_invite_refuse(&self, uid: i64, room_serial: i64) -> DomainResult<()> {
        let dd_rid = self.by_serial(room_serial)?;
        let call = RoomCall::ControlInviteAnswer {
            uid,
            accept: false,
            fresh: None,
        };
        self.room_ask(dd_rid, call).await
    }

    /// `control/remand`: the controlling guest gives control back (2023 to the host).
    /// `remand_user_id`, when given, must be the caller.
    pub async fn control_remand(&self, uid: i64, room_serial: i64, remand_user_id: Option<i64>) -> DomainResult<()> {
        if remand_user_id.is_some_and(|r| r != uid) {
            return Err(DomainError::ControlState);
        }
        let dd_rid = self.by_serial(room_serial)?;
        self.room_ask(dd_rid, RoomCall::ControlRemand { uid }).await
    }

    /// `control/rotation` (host): turns the fair rotation on or off; `turn_secs` (else the
    /// configured turn) is each applicant's turn.
    pub async fn rotation_set(&self, uid: i64, room_serial: i64, on: bool, turn_secs: Option<u64>) -> DomainResult<RotationView> {
        let dd_rid = self.by_serial(room_serial)?;
        self.room_ask(dd_rid, RoomCall::RotationSet { uid, on, turn_secs }).await
    }

    /// Blocks `target` from the caller's rooms (and puts them out of the open one: 2032).
    pub async fn blacklist_add(&self, uid: i64, target: i64) -> DomainResult<()> {
        if target == uid {
            return Err(DomainError::RoomForbidden);
        }
        profile_of(&self.ctx, target).await?;
        let now = self.ctx.clock.now_ms();
        self.ctx.db(move |s| s.rooms.block(uid, target, now)).await?;
        let open = self.ctx.rooms_state().room_index.lock().hosts.get(&uid).copied();
        if let Some(dd_rid) = open {
            let _ = self.room_call(dd_rid, RoomCall::Blocked { target }).await;
        }
        Ok(())
    }

    pub async fn blacklist_del(&self, uid: i64, target: i64) -> DomainResult<()> {
        let was = self.ctx.db(move |s| s.rooms.unblock(uid, target)).await?;
        let open = self.ctx.rooms_state().room_index.lock().hosts.get(&uid).copied();
        if let (true, Some(dd_rid)) = (was, open) {
            let _ = self.room_call(dd_rid, RoomCall::Unblocked { target }).await;
        }
        Ok(())
    }

    /// The caller's blacklist, newest first, page `page` (from 1) of `size`.
    pub async fn blacklist_list(&self, uid: i64, page: u32, size: u32) -> DomainResult<Page<BlackItem>> {
        let size = size.clamp(1, 100);
        let offset = u64::from(page.max(1) - 1) * u64::from(size);
        let (blocks, total) = self.ctx.db(move |s| s.rooms.blocks(uid, offset, size)).await?;
        let mut rows = Vec::with_capacity(blocks.len());
        for b in blocks {
            let user = match profile_of(&self.ctx, b.blocked_uid).await {
                Ok((p, _)) => p.user,
                Err(_) => continue,
            };
            rows.push(BlackItem {
                black_user_id: b.blocked_uid,
                user,
                at_ms: b.created_at,
            });
        }
        Ok(Page { total_rows: total, rows })
    }

    /// `blacklist/kick` (host): puts `target` out (2031); they may not come back for 10 minutes.
    pub async fn kick(&self, uid: i64, dd_rid: i64, target: i64) -> DomainResult<()> {
        self.room_ask(dd_rid, RoomCall::Kick { uid, target }).await
    }

    /// The host bans (or lets) a member's chat (2030).
    pub async fn chat_ban(&self, uid: i64, dd_rid: i64, target: i64, on: bool) -> DomainResult<()> {
        self.room_ask(dd_rid, RoomCall::ChatBan { uid, target, on }).await
    }

    /// `report/add`: reason 0–6 (social.md §9), about the room or one of its members.
    pub async fn report(&self, uid: i64, dd_rid: i64, target: Option<i64>, reason: i32, text: String) -> DomainResult<()> {
        if !(0..=6).contains(&reason) || text.chars().count() > REPORT_TEXT_MAX {
            return Err(DomainError::ReportInvalid);
        }
        if !self.room_ask::<bool>(dd_rid, RoomCall::Report { uid, target }).await? {
            return Ok(());
        }
        let report = storage::RoomReport {
            dd_rid,
            reporter: uid,
            target,
            reason,
            text,
            created_at: self.ctx.clock.now_ms(),
        };
        self.ctx.db(move |s| s.rooms.add_report(&report)).await?;
        metrics::counter!("yoo_room_reports_total").increment(1);
        Ok(())
    }

    /// A gift from `uid` to `receiver` in the room, shown in the barrage (GIFT_MESSAGE 1010):
    /// the path whatever sells gifts later will call.
    pub async fn room_gift(&self, uid: i64, dd_rid: i64, receiver: i64, gift_image: String, gift_num: i64) -> DomainResult<()> {
        let call = RoomCall::Gift {
            uid,
            receiver,
            gift_image,
            gift_num,
        };
        self.room_ask(dd_rid, call).await
    }

    /// `room/chat/send`: a chat text, or an emoji by `face_id` (a bound phone is needed: the
    /// room checks the profile read at entry, so a message costs no storage read).
    pub async fn chat_send(&self, uid: i64, dd_rid: i64, text: String, face_id: Option<i64>) -> DomainResult<()> {
        self.room_ask::<()>(dd_rid, RoomCall::Chat { uid, text, face_id }).await?;
        self.activity().task_event(uid, crate::activity::mission::TaskEvent::Barrage).await;
        Ok(())
    }

    /// ROOM_WATCH: `sink` (one socket of member `uid`) receives the room's events from now on;
    /// with a position (epoch, offset) it first receives what it missed after it, or a reset
    /// (then the events after the reset's offset). Without a position it is live from now.
    pub async fn watch(&self, uid: i64, dd_rid: i64, sink: Arc<dyn RoomSink>, position: Option<(String, u64)>) -> DomainResult<WatchId> {
        let id = WatchId(self.ctx.rooms_state().next_watch.fetch_add(1, Ordering::Relaxed) + 1);
        let room = self.ctx.room(dd_rid)?;
        ractor::call!(room, |reply| RoomMsg::Watch {
            id,
            uid,
            sink,
            position,
            reply
        })
        .map_err(|_| DomainError::RoomNotFound)??;
        Ok(id)
    }

    /// ROOM_UNWATCH, or the socket closed.
    pub fn unwatch(&self, dd_rid: i64, id: WatchId) {
        if let Ok(room) = self.ctx.room(dd_rid) {
            let _ = room.send_message(RoomMsg::Unwatch(id));
        }
    }

    /// The open room `uid` hosts, for a relay start of `game_id`: the params' visibility and
    /// password apply to it.
    pub(crate) async fn relay_room_for_start(&self, uid: i64, game_id: i64, relay: &RelayParams) -> DomainResult<i64> {
        let hosted = self.ctx.rooms_state().room_index.lock().hosts.get(&uid).copied();
        let dd_rid = match (relay.dd_rid, hosted) {
            (Some(d), Some(h)) if d == h => h,
            (None, Some(h)) => h,
            _ => return Err(DomainError::RoomNotFound),
        };
        let pass = if relay.is_update_pass {
            let digits = password::decode(relay.room_password.as_deref()).map_err(DomainError::RoomForm)?;
            Some(digits.as_deref().map(password::protect))
        } else {
            None
        };
        let call = RoomCall::RelayPrepare {
            uid,
            game_id,
            is_show: relay.is_show,
            password: pass,
        };
        self.room_ask::<()>(dd_rid, call).await?;
        Ok(dd_rid)
    }

    /// The host's room switches to `game_id` before a `changeGame` with relay params.
    pub(crate) async fn switch_room_game(&self, uid: i64, game_id: i64, relay: &RelayParams) -> DomainResult<i64> {
        let hosted = self.ctx.rooms_state().room_index.lock().hosts.get(&uid).copied();
        let dd_rid = match (relay.dd_rid, hosted) {
            (Some(d), Some(h)) if d == h => h,
            (None, Some(h)) => h,
            _ => return Err(DomainError::RoomNotFound),
        };
        let game = self.play().game(game_id).await?;
        check_startable(&game).map_err(|_| DomainError::GameNotSupportRelay)?;
        check_start_mode(&game, Some(relay.mode)).map_err(|_| DomainError::GameNotSupportRelay)?;
        let g = RoomGame {
            id: game.id,
            name: game.name.as_str().into(),
            logo: crate::view::game_logo(&game).into(),
            people: 1,
        };
        self.room_ask::<()>(dd_rid, RoomCall::SwitchGame { uid, game: g }).await?;
        Ok(dd_rid)
    }

    /// A relay start succeeded: the room adopts the session.
    pub(crate) async fn relay_started(&self, dd_rid: i64, uid: i64, view: &crate::view::SessionView) {
        let _ = uid;
        // The host's pushes reach the room too (and may have come first, newer): the view only
        // makes the room adopt a session it does not follow yet.
        let call = RoomCall::RelayAdopt {
            session_id: view.id,
            status: view.status as i32,
            stream: view.stream.clone(),
        };
        let _ = self.room_call(dd_rid, call).await;
    }

    /// Who controls relay `session_id`'s game, as its game host was last told (None: not a
    /// relay, or never told).
    pub fn stream_controller_of(&self, session_id: i64) -> Option<i64> {
        self.ctx.play_state().relay_controllers.lock().get(&session_id).copied()
    }

    /// The room serial of the room whose relay `session_id` is (or was): `game/over` answers it.
    pub async fn relay_room_serial(&self, session_id: i64) -> DomainResult<Option<i64>> {
        let room = self.ctx.db(move |s| s.rooms.by_relay_session(session_id)).await?;
        Ok(room.map(|r| r.room_serial))
    }

    /// Operator flags of a user (dev route, tests).
    pub async fn set_user_flags(&self, uid: i64, flags: UserFlags) -> DomainResult<()> {
        match self
            .ctx
            .db_raw(move |s| s.users.set_flags(uid, flags.status, flags.minor, flags.relay_banned))
            .await?
        {
            Ok(_) => Ok(()),
            Err(storage::Error::NotFound) => Err(DomainError::NotLoggedIn),
            Err(e) => Err(e.into()),
        }
    }

    /// Starts the actors of the rooms open at the last stop (new epochs; members come back by
    /// entering again) and hands each its host's game state: a relay that did not survive ends
    /// its room.
    pub(crate) async fn restore_rooms(&self) -> Result<(), String> {
        let open = self.ctx.db(|s| s.rooms.list_open()).await.map_err(|e| e.to_string())?;
        for r in &open {
            match self.ctx.rooms().get_or_start(&r.dd_rid).await {
                Ok(room) => {
                    let state = self.play().game_state(r.host_uid).await.unwrap_or(GameState::None);
                    let _ = room.send_message(RoomMsg::Host(state));
                }
                Err(e) => tracing::warn!(dd_rid = r.dd_rid, error = %e, "room not restored"),
            }
        }
        if !open.is_empty() {
            tracing::info!(rooms = open.len(), "restored the rooms open at the last stop");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(name: &str) -> RoomForm {
        RoomForm {
            room_name: name.into(),
            mode: MODE_RELAY,
            game_id: 1,
            is_show: true,
            password: None,
            is_update_pass: false,
        }
    }

    // A room name shows as one plain line in every list: control characters and direction
    // overrides are dropped, a name of nothing visible is no name, 15 characters at most.
    #[test]
    fn room_names_are_plain() {
        assert_eq!(check_form(&form(" 一起来玩 ")), Ok("一起来玩".to_string()));
        assert_eq!(check_form(&form("a\u{202E}b\nc\u{0}")), Ok("abc".to_string()));
        assert_eq!(check_form(&form("<b>粗体</b>")), Ok("<b>粗体</b>".to_string()));
        for empty in ["", "   ", "\u{200B}\u{FEFF}", "\n\u{202E}"] {
            assert_eq!(
                check_form(&form(empty)),
                Err(DomainError::RoomForm(RoomFormFault::NameEmpty)),
                "{empty:?}"
            );
        }
        assert_eq!(check_form(&form(&"一".repeat(15))).map(|n| n.chars().count()), Ok(15));
        assert_eq!(
            check_form(&form(&"一".repeat(16))),
            Err(DomainError::RoomForm(RoomFormFault::NameTooLong))
        );
    }
}

/// The calls of the rooms feature: live rooms and their bills.
#[derive(Clone)]
pub struct Rooms {
    pub(crate) ctx: std::sync::Arc<crate::ctx::Ctx>,
}

/// The features rooms calls (ARCHITECTURE.md lists the arrows).
impl Rooms {
    pub(crate) fn play(&self) -> crate::play::service::Play {
        crate::play::service::Play { ctx: self.ctx.clone() }
    }

    pub(crate) fn activity(&self) -> crate::activity::service::Activities {
        crate::activity::service::Activities { ctx: self.ctx.clone() }
    }
}
