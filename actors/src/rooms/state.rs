//! [`RoomState`]: one open room, whole: its info, members, seats, control, moderation, the
//! relay's game status and the summary counters. Every command is a method that checks the
//! caller's role in the permission table, changes the state and queues what follows: events for
//! the room's stream ([`RoomState::take_events`]) and deadlines for the actor's timers
//! ([`RoomState::take_timers`]). Time comes in as `now` (ms); nothing here waits or does I/O.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::Arc;

use storage::RoomPassword;

use super::control::{Change, Control};
use super::events::RoomEventKind;
use super::password::{self, Tries};
use super::perm::{self, Command, Role, Roles};
use super::seats::Seats;
use super::view::*;
use crate::config::RoomsConfig;
use crate::error::DomainError;
use crate::play::hosts::StreamTarget;

/// The room's fixed and editable facts.
#[derive(Debug, Clone, PartialEq)]
pub struct Info {
    pub dd_rid: i64,
    pub room_serial: i64,
    pub host: i64,
    pub name: String,
    pub mode: i32,
    pub is_show: bool,
    pub password: Option<RoomPassword>,
    pub game: RoomGame,
    pub created_at_ms: i64,
}

/// What a member brings into the room (read by the platform from storage and holdings).
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    pub user: RoomUser,
    pub minor: bool,
    /// Holds vip or vvip: cross-screen.
    pub cross_screen: bool,
    /// A phone is bound (chat needs one: 20007).
    pub phone_bound: bool,
    /// The operator withdrew the relay qualification: no control either (20154).
    pub relay_banned: bool,
}

/// A member of the room.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub profile: Profile,
    pub device_no: String,
    pub joined_at: i64,
    seq: u64,
    /// Sockets watching the room now.
    pub watchers: u32,
    /// Since when no socket watches (the reconnect window runs from here).
    pub away_since: Option<i64>,
}

/// An entry attempt, with what the platform found out beforehand.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub profile: Profile,
    pub device_no: String,
    /// The base64 password field as sent.
    pub password: Option<String>,
    pub force: bool,
    /// The host blacklisted the user.
    pub blacklisted: bool,
    /// The user's own game is CONNECTING or PLAYING (and is not this room's relay).
    pub running_game: Option<(i64, i64)>,
    /// The user is a member of another room.
    pub other_room: Option<i64>,
}

/// A deadline for the actor's timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimerKey {
    /// The apply-control state of a user lapses.
    Apply(i64),
    /// The rotation turn ends.
    Turn,
    /// The reconnect window of a member with no socket closes.
    Away(i64),
}

/// An event to append, with its audience.
#[derive(Debug, Clone, PartialEq)]
pub struct Out {
    pub kind: RoomEventKind,
    pub user_ids: Vec<i64>,
    pub exclude_user_ids: Vec<i64>,
}

/// A membership change the platform's index must follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Membership {
    Joined(i64),
    Left(i64),
}

/// The rules' numbers, in ms, from [`RoomsConfig`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rules {
    pub pending_ms: i64,
    pub denied_ms: i64,
    pub turn_ms: i64,
    pub reconnect_ms: i64,
    pub kick_ms: i64,
    pub password_tries_per_minute: u32,
    pub chat_max_chars: usize,
}

impl Rules {
    pub fn of(c: &RoomsConfig) -> Rules {
        Rules {
            pending_ms: c.apply_pending_secs as i64 * 1000,
            denied_ms: c.apply_denied_secs as i64 * 1000,
            turn_ms: c.rotation_turn_secs as i64 * 1000,
            reconnect_ms: c.reconnect_secs as i64 * 1000,
            kick_ms: c.kick_secs as i64 * 1000,
            password_tries_per_minute: c.password_tries_per_minute,
            chat_max_chars: c.chat_max_chars,
        }
    }
}

/// How a command ends the room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Still open.
    No,
    /// It ended now.
    Now,
}

/// One open room.
#[derive(Debug)]
pub struct RoomState {
    pub info: Info,
    rules: Rules,
    members: HashMap<i64, Member>,
    /// Members in the order they entered (the host first): the online list's order.
    order: BTreeMap<u64, i64>,
    next_seq: u64,
    seats: Seats,
    control: Control,
    chat_bans: HashSet<i64>,
    kicked_until: HashMap<i64, i64>,
    tries: Tries,
    /// The relay: the host's game session, its status (0 none, 1, 3, 4, 5) and stream.
    relay: Option<i64>,
    game_status: i32,
    stream: Option<Arc<StreamTarget>>,
    /// Distinct members and seated users over the room's life.
    audience: HashSet<i64>,
    seated_ever: HashSet<i64>,
    /// (ms, uid) of the chat messages of the last minute, and how many each uid sent in it:
    /// the heat counts distinct chatters without a pass over the minute.
    chatters: VecDeque<(i64, i64)>,
    chat_counts: HashMap<i64, u32>,
    /// Distinct gift givers and gifts over the room's life.
    givers: HashSet<i64>,
    /// (reporter, reported) pairs already reported in this room: a report is stored once.
    reported: HashSet<(i64, Option<i64>)>,
    gifts: i64,
    /// The counters a restored room had reached (its distinct sets restart empty).
    restored: (i64, i64, i64),
    ended: bool,
    events: Vec<Out>,
    timers: Vec<(TimerKey, i64)>,
    membership: Vec<Membership>,
}

impl RoomState {
    /// A room as created (or restored): the host is its first member, with no socket yet.
    pub fn new(info: Info, host: Profile, rules: Rules, now: i64) -> RoomState {
        let host_uid = info.host;
        let mut st = RoomState {
            seats: Seats::new(host_uid),
            control: Control::new(host_uid, rules.pending_ms, rules.denied_ms, rules.turn_ms),
            info,
            rules,
            members: HashMap::new(),
            order: BTreeMap::new(),
            next_seq: 0,
            chat_bans: HashSet::new(),
            kicked_until: HashMap::new(),
            tries: Tries::default(),
            relay: None,
            game_status: 0,
            stream: None,
            audience: HashSet::new(),
            seated_ever: HashSet::new(),
            chatters: VecDeque::new(),
            chat_counts: HashMap::new(),
            givers: HashSet::new(),
            reported: HashSet::new(),
            gifts: 0,
            restored: (0, 0, 0),
            ended: false,
            events: vec![],
            timers: vec![],
            membership: vec![],
        };
        st.admit(host, String::new(), now);
        st.seated_ever.insert(host_uid);
        st.events.clear();
        st
    }

    /// Restores the summary counters of a restarted room.
    pub fn restore_counters(&mut self, audience: i64, mike: i64, control: i64) {
        self.restored = (audience, mike, control);
    }

    /// Restores the relay session of a restarted room (its state comes from the host's game).
    pub fn restore_relay(&mut self, relay: Option<i64>) {
        self.relay = relay;
    }

    pub fn take_events(&mut self) -> Vec<Out> {
        std::mem::take(&mut self.events)
    }

    pub fn take_timers(&mut self) -> Vec<(TimerKey, i64)> {
        std::mem::take(&mut self.timers)
    }

    pub fn take_membership(&mut self) -> Vec<Membership> {
        std::mem::take(&mut self.membership)
    }

    pub fn is_ended(&self) -> bool {
        self.ended
    }

    pub fn host(&self) -> i64 {
        self.info.host
    }

    pub fn controller(&self) -> i64 {
        self.control.controller()
    }

    pub fn relay(&self) -> Option<i64> {
        self.relay
    }

    pub fn game_status(&self) -> i32 {
        self.game_status
    }

    pub fn online(&self) -> u64 {
        self.members.len() as u64
    }

    pub fn member(&self, uid: i64) -> Option<&Member> {
        self.members.get(&uid)
    }

    pub fn members(&self) -> impl Iterator<Item = i64> + '_ {
        self.order.values().copied()
    }

    /// The summary counters: (audience, mic, control).
    pub fn counters(&self) -> (i64, i64, i64) {
        let (a, m, c) = self.restored;
        (
            (self.audience.len() as i64).max(a),
            (self.seated_ever.len() as i64).max(m),
            (self.control.grants() as i64).max(c),
        )
    }

    /// watchers × 10 + distinct chatters of the last minute × 50.
    pub fn heat(&mut self, watchers: usize, now: i64) -> u64 {
        while let Some((_, uid)) = self.chatters.front().copied().filter(|(t, _)| *t <= now - 60_000) {
            self.chatters.pop_front();
            if let Some(n) = self.chat_counts.get_mut(&uid) {
                *n -= 1;
                if *n == 0 {
                    self.chat_counts.remove(&uid);
                }
            }
        }
        watchers as u64 * 10 + self.chat_counts.len() as u64 * 50
    }

    /// The roles of `uid` in this room.
    pub fn roles(&self, uid: i64) -> Roles {
        let mut r = if uid == self.info.host {
            Roles::of(&[Role::Host])
        } else {
            Roles::of(&[Role::Viewer])
        };
        if uid != self.info.host && self.control.controller() == uid {
            r = r.with(Role::Controller);
        }
        if let Some(m) = self.members.get(&uid) {
            r = with_flags(r, &m.profile);
        }
        r
    }

    fn check(&self, uid: i64, cmd: Command) -> Result<(), DomainError> {
        if !self.members.contains_key(&uid) {
            return Err(DomainError::NotInRoom);
        }
        perm::check(self.roles(uid), cmd)
    }

    fn target(&self, uid: i64) -> Result<&Member, DomainError> {
        self.members.get(&uid).ok_or(DomainError::TargetNotInRoom)
    }

    fn user(&self, uid: i64) -> RoomUser {
        self.members.get(&uid).map(|m| m.profile.user.clone()).unwrap_or_else(|| RoomUser {
            uid,
            nickname: "".into(),
            avatar: "".into(),
            status: 0,
            member: None,
        })
    }

    fn to(&mut self, kind: RoomEventKind, users: Vec<i64>) {
        self.events.push(Out {
            kind,
            user_ids: users,
            exclude_user_ids: vec![],
        });
    }

    fn all(&mut self, kind: RoomEventKind) {
        self.to(kind, vec![]);
    }

    fn all_but(&mut self, kind: RoomEventKind, exclude: Vec<i64>) {
        self.events.push(Out {
            kind,
            user_ids: vec![],
            exclude_user_ids: exclude,
        });
    }

    // ---- entry and exit ----

    fn admit(&mut self, profile: Profile, device_no: String, now: i64) {
        let uid = profile.user.uid;
        let seq = self.next_seq;
        self.next_seq += 1;
        self.order.insert(seq, uid);
        self.audience.insert(uid);
        let user = profile.user.clone();
        self.members.insert(
            uid,
            Member {
                profile,
                device_no,
                joined_at: now,
                seq,
                watchers: 0,
                away_since: Some(now),
            },
        );
        self.membership.push(Membership::Joined(uid));
        if uid != self.info.host {
            self.timers.push((TimerKey::Away(uid), now + self.rules.reconnect_ms));
        }
        self.all(RoomEventKind::RoomEnter { user, others: 0 });
    }

    /// Enters the room with the outcomes of social.md §4.5 in the design's order: barred, minor,
    /// password, the running game, another room, another device.
    pub fn enter(&mut self, e: Entry, now: i64) -> Result<PlayRole, DomainError> {
        let uid = e.profile.user.uid;
        if self.ended {
            return Err(DomainError::RoomNotFound);
        }
        let is_host = uid == self.info.host;
        if !is_host && (e.blacklisted || self.kicked_until.get(&uid).is_some_and(|t| *t > now)) {
            return Err(DomainError::RoomBarred);
        }
        let roles = with_flags(
            if is_host {
                Roles::of(&[Role::Host])
            } else {
                Roles::of(&[Role::Viewer])
            },
            &e.profile,
        );
        perm::check(roles, Command::Enter)?;
        let member = self.members.get(&uid);
        if let (Some(stored), false, None) = (&self.info.password, is_host, member) {
            let digits = password::decode(e.password.as_deref()).map_err(|_| DomainError::RoomPasswordWrong { retry_after_secs: None })?;
            let Some(digits) = digits else {
                return Err(DomainError::RoomPasswordNeeded);
            };
            if let Some(wait) = self.tries.wait(uid, now, self.rules.password_tries_per_minute) {
                return Err(DomainError::RoomPasswordWrong {
                    retry_after_secs: Some(wait),
                });
            }
            if !password::matches(stored, &digits) {
                self.tries.wrong(uid, now);
                return Err(DomainError::RoomPasswordWrong { retry_after_secs: None });
            }
        }
        if let (Some((session_id, game_id)), false) = (e.running_game, e.force) {
            return Err(DomainError::RoomGameRunning { session_id, game_id });
        }
        if let (Some(dd_rid), false) = (e.other_room, e.force) {
            if dd_rid != self.info.dd_rid {
                return Err(DomainError::InOtherRoom { dd_rid });
            }
        }
        if let Some(m) = self.members.get_mut(&uid) {
            if !m.device_no.is_empty() && m.device_no != e.device_no && !e.force && !perm::allowed(roles, Command::CrossScreen) && !is_host
            {
                return Err(DomainError::InRoomElsewhere { dd_rid: self.info.dd_rid });
            }
            m.device_no = e.device_no;
            m.profile = e.profile;
            return Ok(self.play_role(uid));
        }
        self.admit(e.profile, e.device_no, now);
        Ok(self.play_role(uid))
    }

    /// A member's profile read again (flags set by operators while they are in the room).
    pub fn refresh(&mut self, profile: Profile) {
        if let Some(m) = self.members.get_mut(&profile.user.uid) {
            m.profile = profile;
        }
    }

    /// The caller's role in the play session (social.md §4.1).
    pub fn play_role(&self, uid: i64) -> PlayRole {
        if uid == self.info.host {
            PlayRole::RoomHost
        } else if self.control.controller() == uid {
            PlayRole::RoomControl
        } else if self.members.contains_key(&uid) {
            PlayRole::RoomWithoutControl
        } else {
            PlayRole::None
        }
    }

    /// A member leaves (exit, kick, the reconnect window, their own game starting); the host's
    /// exit ends the room.
    pub fn leave(&mut self, uid: i64, now: i64) -> Result<Ended, DomainError> {
        if !self.members.contains_key(&uid) {
            return Err(DomainError::NotInRoom);
        }
        if uid == self.info.host {
            self.end();
            return Ok(Ended::Now);
        }
        self.remove(uid, now);
        Ok(Ended::No)
    }

    fn remove(&mut self, uid: i64, now: i64) {
        let Some(m) = self.members.remove(&uid) else {
            return;
        };
        self.order.remove(&m.seq);
        self.membership.push(Membership::Left(uid));
        let seat_changed = self.seats.remove(uid);
        if let Some(change) = self.control.member_left(uid, now) {
            self.control_changed(change, Cause::Left);
        }
        // A chat ban outlives the membership: leaving and entering again does not lift it.
        self.all(RoomEventKind::RoomLeave { uid, others: 0 });
        if seat_changed {
            self.fill_seats();
            self.all(RoomEventKind::MikeInfoChange);
        }
    }

    /// Ends the room: the stream's last event.
    pub fn end(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        self.all(RoomEventKind::RoomEnd {
            room_serial: self.info.room_serial,
        });
    }

    /// A socket of `uid` watches the room.
    pub fn watch_opened(&mut self, uid: i64) {
        if let Some(m) = self.members.get_mut(&uid) {
            m.watchers += 1;
            m.away_since = None;
        }
    }

    /// A socket of `uid` stopped watching; the reconnect window opens when it was the last.
    pub fn watch_closed(&mut self, uid: i64, now: i64) {
        let host = self.info.host;
        if let Some(m) = self.members.get_mut(&uid) {
            m.watchers = m.watchers.saturating_sub(1);
            if m.watchers == 0 {
                m.away_since = Some(now);
                if uid != host {
                    self.timers.push((TimerKey::Away(uid), now + self.rules.reconnect_ms));
                }
            }
        }
    }

    /// A timer fired: it acts only if its deadline really passed (a stale timer does nothing).
    pub fn timer(&mut self, key: TimerKey, now: i64) {
        match key {
            TimerKey::Apply(uid) => {
                self.control.expire(uid, now);
            }
            TimerKey::Turn => {
                let running = self.control.turn_deadline().is_some();
                if let Some(change) = self.control.turn_end(now) {
                    self.control_changed(change, Cause::Turn);
                } else if running && self.control.turn_deadline().is_none() {
                    self.all(RoomEventKind::RotationChange(self.control.rotation_view()));
                }
            }
            TimerKey::Away(uid) => {
                let due = self
                    .members
                    .get(&uid)
                    .and_then(|m| m.away_since)
                    .is_some_and(|since| since + self.rules.reconnect_ms <= now);
                if due && uid != self.info.host {
                    self.remove(uid, now);
                }
            }
        }
    }

    // ---- the relay ----

    /// The host's game changed: `session_id` in `status` (0: ended) with its stream. Returns
    /// whether the room ends (its relay ended).
    pub fn relay_state(&mut self, session_id: i64, status: i32, stream: Option<Arc<StreamTarget>>) -> Ended {
        match self.relay {
            Some(r) if r != session_id => return Ended::No,
            None if status == 0 => return Ended::No,
            _ => {}
        }
        self.relay = Some(session_id);
        self.stream = stream;
        if status == 0 {
            self.game_status = 0;
            self.all(RoomEventKind::GameInfoChange { status: 0 });
            self.end();
            return Ended::Now;
        }
        if status != self.game_status {
            self.game_status = status;
            self.all(RoomEventKind::GameInfoChange { status });
        }
        Ended::No
    }

    /// A relay start succeeded: the room adopts `session_id` in `status`, unless it follows it
    /// already (the host's pushes reach the room too and may have come first, newer).
    pub fn adopt_relay(&mut self, session_id: i64, status: i32, stream: Option<Arc<StreamTarget>>) {
        if self.relay != Some(session_id) {
            self.relay_state(session_id, status, stream);
        }
    }

    /// A relay start of `game_id` in the host's room: the room's game must be it (else 130129);
    /// the start's visibility (`is_show`, when given) and password (`password`, as
    /// [`RoomState::edit`]'s) apply to the room, an edit by `uid` when anything changes.
    pub fn relay_prepare(
        &mut self,
        uid: i64,
        game_id: i64,
        is_show: Option<bool>,
        password: Option<Option<RoomPassword>>,
    ) -> Result<(), DomainError> {
        if self.info.game.id != game_id {
            return Err(DomainError::GameNotSupportRelay);
        }
        if password.is_some() || is_show.is_some_and(|s| s != self.info.is_show) {
            let (name, mode) = (self.info.name.clone(), self.info.mode);
            let show = is_show.unwrap_or(self.info.is_show);
            self.edit(uid, name, mode, show, password)?;
        }
        Ok(())
    }

    /// `room/connection` for `uid`.
    pub fn connection(&self, uid: i64) -> Result<RoomConnection, DomainError> {
        self.check(uid, Command::Connect)?;
        let stream = match (self.relay, &self.stream, self.game_status) {
            (Some(s), Some(t), 4 | 5) => Some((s, t.clone())),
            _ => None,
        };
        Ok(RoomConnection {
            status: self.game_status,
            stream,
            controller: self.control.controller() == uid,
        })
    }

    // ---- views ----

    pub fn view(&self, epoch: &Arc<str>, offset: u64) -> RoomView {
        RoomView {
            dd_rid: self.info.dd_rid,
            room_serial: self.info.room_serial,
            room_name: self.info.name.clone(),
            mode: self.info.mode,
            is_show: self.info.is_show,
            has_password: self.info.password.is_some(),
            user_id: self.info.host,
            host: self.user(self.info.host),
            game: self.info.game.clone(),
            game_status: self.game_status,
            controller: self.control.controller(),
            online: self.online(),
            rotation: self.control.rotation_view(),
            created_at_ms: self.info.created_at_ms,
            ended: self.ended,
            epoch: epoch.clone(),
            offset,
            chat_max_chars: self.rules.chat_max_chars,
        }
    }

    pub fn user_info(&self, uid: i64, now: i64) -> RoomUserInfo {
        let member = self.members.contains_key(&uid);
        RoomUserInfo {
            id: uid,
            dd_rid: member.then_some(self.info.dd_rid),
            room_serial: member.then_some(self.info.room_serial),
            role: self.play_role(uid),
            apply_control: self.control.apply_state(uid, now),
            chat_banned: self.chat_bans.contains(&uid),
        }
    }

    /// The online list: the host first, then by entry; page from 1.
    pub fn users(&self, uid: i64, page: u32, size: u32) -> Result<Page<OnlineUser>, DomainError> {
        self.check(uid, Command::UserList)?;
        let size = size.clamp(1, 100) as usize;
        let skip = (page.max(1) as usize - 1) * size;
        let host = uid == self.info.host;
        Ok(Page {
            total_rows: self.online(),
            rows: self
                .order
                .values()
                .skip(skip)
                .take(size)
                .map(|u| OnlineUser {
                    user: self.user(*u),
                    chat_banned: host && self.chat_bans.contains(u),
                })
                .collect(),
        })
    }

    pub fn mike_info(&self, uid: i64, now: i64) -> Result<MikeInfo, DomainError> {
        self.check(uid, Command::MikeList)?;
        Ok(self.mike_view(uid, now))
    }

    fn mike_view(&self, uid: i64, now: i64) -> MikeInfo {
        let controller = self.control.controller();
        let mike_list = self
            .seats
            .seats()
            .iter()
            .enumerate()
            .map(|(i, s)| SeatView {
                index: i,
                state: if i == 0 {
                    SeatState::Host
                } else if s.locked {
                    SeatState::Locked
                } else if s.ban_voice {
                    SeatState::Banned
                } else {
                    SeatState::Open
                },
                user: s.user.map(|u| self.user(u)),
                seat_type: if s.user == Some(controller) { 1 } else { 0 },
                is_ban_voice: s.ban_voice,
            })
            .collect();
        MikeInfo {
            mike_list,
            game_status: self.game_status,
            mike_status: if self.seats.is_full() { 2 } else { 1 },
            is_open_mike: true,
            is_mike_req: self.seats.queued(uid),
            control_status: if self.control.guest().is_some() { 2 } else { 1 },
            mike_sub_status: if self.seats.seat_of(uid).is_some() { 2 } else { 1 },
            apply_control: self.control.apply_state(uid, now),
        }
    }

    pub fn mike_queue(&self, uid: i64) -> Result<Vec<RoomUser>, DomainError> {
        self.check(uid, Command::MikeList)?;
        Ok(self.seats.queue().map(|u| self.user(u)).collect())
    }

    pub fn applications(&self, uid: i64, now: i64) -> Result<Vec<ControlApplication>, DomainError> {
        self.check(uid, Command::ControlList)?;
        Ok(self
            .control
            .applications(now)
            .into_iter()
            .map(|(u, at)| ControlApplication {
                user: self.user(u),
                at_ms: at,
            })
            .collect())
    }

    // ---- the room form ----

    /// The host edits name, mode, visibility and password (`password` already checked).
    pub fn edit(
        &mut self,
        uid: i64,
        name: String,
        mode: i32,
        is_show: bool,
        password: Option<Option<RoomPassword>>,
    ) -> Result<(), DomainError> {
        self.check(uid, Command::EditRoom)?;
        self.info.name = name;
        self.info.mode = mode;
        self.info.is_show = is_show;
        if let Some(p) = password {
            self.info.password = p;
        }
        self.all(RoomEventKind::RoomInfoChange {
            room_name: self.info.name.clone(),
            mode,
            is_show,
            has_password: self.info.password.is_some(),
        });
        Ok(())
    }

    // ---- seats ----

    fn seat_changed(&mut self) {
        self.fill_seats();
        self.all(RoomEventKind::MikeInfoChange);
    }

    fn fill_seats(&mut self) {
        for (uid, seat) in self.seats.fill() {
            self.seated_ever.insert(uid);
            self.to(RoomEventKind::MikeUp { seat }, vec![uid]);
        }
    }

    /// `mike/up` (actions 1 and 2) and `mike/upOrDown` (3).
    pub fn mike_up(&mut self, uid: i64, action: MikeAction, seat: Option<usize>, now: i64) -> Result<MikeInfo, DomainError> {
        match action {
            MikeAction::Down => {
                self.check(uid, Command::MikeDown)?;
                self.seats.down(uid)?;
                if self.control.guest() == Some(uid) {
                    let change = self.control.remand(uid, now)?;
                    self.control_changed(change, Cause::Remand);
                }
                self.seat_changed();
            }
            MikeAction::Up | MikeAction::UpWithControl => {
                self.check(uid, Command::MikeUp)?;
                if action == MikeAction::UpWithControl {
                    perm::check(self.roles(uid), Command::ControlApply)?;
                }
                // Action 2 from a seat applies for control only.
                let seated = self.seats.seat_of(uid).is_some();
                if !(action == MikeAction::UpWithControl && seated) {
                    self.seats.up(uid, seat)?;
                    self.seated_ever.insert(uid);
                    self.seat_changed();
                }
                if action == MikeAction::UpWithControl && self.control.controller() != uid {
                    // Taking the seat counts even when an application is open already.
                    let applied = self.apply_control(uid, now);
                    if seated {
                        applied?;
                    }
                }
            }
        }
        Ok(self.mike_view(uid, now))
    }

    /// `mikeReq/action`: join or leave the seat queue.
    pub fn mike_req(&mut self, uid: i64, action: MikeReqAction, now: i64) -> Result<MikeInfo, DomainError> {
        match action {
            MikeReqAction::Apply => {
                self.check(uid, Command::MikeReqJoin)?;
                self.seats.join_queue(uid)?;
            }
            MikeReqAction::Cancel => {
                self.check(uid, Command::MikeReqCancel)?;
                self.seats.leave_queue(uid)?;
            }
        }
        self.all(RoomEventKind::MikeInfoChange);
        Ok(self.mike_view(uid, now))
    }

    pub fn mike_invite(&mut self, uid: i64, target: i64) -> Result<(), DomainError> {
        self.check(uid, Command::MikeInvite)?;
        self.target(target)?;
        self.seats.invite(target)?;
        let host = self.user(uid);
        self.to(RoomEventKind::MikeUpInvite { host }, vec![target]);
        Ok(())
    }

    pub fn mike_invite_answer(&mut self, uid: i64, accept: bool, now: i64) -> Result<MikeInfo, DomainError> {
        self.check(uid, Command::MikeInviteAnswer)?;
        if accept {
            self.seats.accept(uid)?;
            self.seated_ever.insert(uid);
            self.seat_changed();
        } else {
            self.seats.refuse(uid)?;
            let user = self.user(uid);
            self.to(RoomEventKind::InviteDeny { user }, vec![self.info.host]);
        }
        Ok(self.mike_view(uid, now))
    }

    /// `mike/operat`: the host moves a member up or down, or bans a seat's voice.
    pub fn mike_operate(&mut self, uid: i64, target: i64, op: MikeOp, now: i64) -> Result<MikeInfo, DomainError> {
        self.check(uid, Command::MikeOperate)?;
        self.target(target)?;
        match op {
            MikeOp::Up => {
                let seat = self.seats.up(target, None)?;
                self.seated_ever.insert(target);
                self.to(RoomEventKind::MikeUp { seat }, vec![target]);
                self.seat_changed();
            }
            MikeOp::Down => {
                self.seats.down(target)?;
                if self.control.guest() == Some(target) {
                    let change = self.control.recycle(now)?;
                    self.to(RoomEventKind::MikeDownAndControlOff, vec![target]);
                    self.control_changed(change, Cause::SeatLost);
                } else {
                    self.to(RoomEventKind::MikeDown, vec![target]);
                }
                self.seat_changed();
            }
            MikeOp::BanVoice | MikeOp::UnbanVoice => {
                let on = op == MikeOp::BanVoice;
                self.seats.ban_voice(target, on)?;
                self.to(RoomEventKind::MikeBlock { on }, vec![target]);
                self.all(RoomEventKind::MikeInfoChange);
            }
        }
        Ok(self.mike_view(uid, now))
    }

    /// `mike/lock` (one seat) and `mike/lockAll` (None).
    pub fn mike_lock(&mut self, uid: i64, seat: Option<usize>, lock: bool, now: i64) -> Result<MikeInfo, DomainError> {
        self.check(uid, Command::MikeLock)?;
        let down = match seat {
            Some(s) => self.seats.lock(s, lock)?.into_iter().collect(),
            None => self.seats.lock_all(lock),
        };
        for u in down {
            if self.control.guest() == Some(u) {
                let change = self.control.recycle(now)?;
                self.to(RoomEventKind::MikeDownAndControlOff, vec![u]);
                self.control_changed(change, Cause::SeatLost);
            } else {
                self.to(RoomEventKind::MikeDown, vec![u]);
            }
        }
        self.seat_changed();
        Ok(self.mike_view(uid, now))
    }

    /// The host's queue operations.
    pub fn mike_queue_op(&mut self, uid: i64, op: QueueOp) -> Result<Vec<RoomUser>, DomainError> {
        self.check(uid, Command::MikeReqManage)?;
        match op {
            QueueOp::Top(t) => {
                self.seats.top(t)?;
                self.to(RoomEventKind::MikeQueueTop, vec![t]);
            }
            QueueOp::Remove(t) => {
                self.seats.leave_queue(t)?;
                self.to(RoomEventKind::MikeQueueRemove, vec![t]);
            }
            QueueOp::Switch(a, b) => self.seats.switch(a, b)?,
            QueueOp::Clear => {
                let gone = self.seats.clear();
                if !gone.is_empty() {
                    self.to(RoomEventKind::MikeQueueCancel, gone);
                }
            }
        }
        self.all(RoomEventKind::MikeInfoChange);
        Ok(self.seats.queue().map(|u| self.user(u)).collect())
    }

    // ---- control ----

    fn control_changed(&mut self, change: Change, cause: Cause) {
        let host = self.info.host;
        if change.from != host {
            match cause {
                Cause::Remand => {
                    let user = self.user(change.from);
                    self.to(RoomEventKind::ControlReturn { main: true, user }, vec![host]);
                }
                Cause::Left => {}
                _ => self.to(RoomEventKind::ControlOff, vec![change.from]),
            }
        }
        if change.to != host {
            self.to(RoomEventKind::ControlOn, vec![change.to]);
        }
        self.all_but(RoomEventKind::ControlChange { controller: change.to }, vec![change.from, change.to]);
        self.all(RoomEventKind::MikeInfoChange);
        if let Some(at) = self.control.turn_deadline() {
            self.timers.push((TimerKey::Turn, at));
        }
        if self.control.rotation_view().on {
            self.all(RoomEventKind::RotationChange(self.control.rotation_view()));
        }
    }

    fn apply_control(&mut self, uid: i64, now: i64) -> Result<ApplyControl, DomainError> {
        let change = self.control.apply(uid, now)?;
        if let Some(at) = self.control.apply_deadline(uid) {
            self.timers.push((TimerKey::Apply(uid), at));
        }
        let user = self.user(uid);
        self.to(RoomEventKind::ControlRequest { user }, vec![self.info.host]);
        match change {
            Some(c) => self.control_changed(c, Cause::Grant),
            None if self.control.rotation_view().on => self.all(RoomEventKind::RotationChange(self.control.rotation_view())),
            None => {}
        }
        Ok(self.control.apply_state(uid, now))
    }

    /// `control/apply`.
    pub fn control_apply(&mut self, uid: i64, now: i64) -> Result<ApplyControl, DomainError> {
        self.check(uid, Command::ControlApply)?;
        self.apply_control(uid, now)
    }

    /// `control/assign`: to a member who may take control.
    pub fn control_assign(&mut self, uid: i64, target: i64, now: i64) -> Result<(), DomainError> {
        self.check(uid, Command::ControlAssign)?;
        self.may_control(target)?;
        let change = self.control.assign(target, now)?;
        self.control_changed(change, Cause::Grant);
        Ok(())
    }

    fn may_control(&self, target: i64) -> Result<(), DomainError> {
        let m = self.target(target)?;
        if target == self.info.host {
            return Ok(());
        }
        let roles = with_flags(Roles::of(&[Role::Viewer]), &m.profile);
        perm::check(roles, Command::ControlInviteAnswer)
    }

    pub fn control_deny(&mut self, uid: i64, target: i64, now: i64) -> Result<(), DomainError> {
        self.check(uid, Command::ControlDeny)?;
        self.control.deny(target, now)?;
        if let Some(at) = self.control.apply_deadline(target) {
            self.timers.push((TimerKey::Apply(target), at));
        }
        self.to(RoomEventKind::ControlDeny, vec![target]);
        if self.control.rotation_view().on {
            self.all(RoomEventKind::RotationChange(self.control.rotation_view()));
        }
        Ok(())
    }

    pub fn control_recycle(&mut self, uid: i64, now: i64) -> Result<(), DomainError> {
        self.check(uid, Command::ControlRecycle)?;
        let change = self.control.recycle(now)?;
        self.control_changed(change, Cause::Recycle);
        Ok(())
    }

    pub fn control_invite(&mut self, uid: i64, target: i64) -> Result<(), DomainError> {
        self.check(uid, Command::ControlInvite)?;
        self.may_control(target)?;
        self.control.invite(target)?;
        let host = self.user(uid);
        self.to(RoomEventKind::ControlOnInvite { host }, vec![target]);
        Ok(())
    }

    pub fn control_invite_answer(&mut self, uid: i64, accept: bool, now: i64) -> Result<(), DomainError> {
        self.check(uid, Command::ControlInviteAnswer)?;
        if accept {
            let change = self.control.accept(uid, now)?;
            self.control_changed(change, Cause::Grant);
        } else {
            self.control.refuse(uid)?;
            let user = self.user(uid);
            self.to(RoomEventKind::InviteDeny { user }, vec![self.info.host]);
        }
        Ok(())
    }

    pub fn control_remand(&mut self, uid: i64, now: i64) -> Result<(), DomainError> {
        self.check(uid, Command::ControlRemand)?;
        let change = self.control.remand(uid, now)?;
        self.control_changed(change, Cause::Remand);
        Ok(())
    }

    pub fn rotation_set(&mut self, uid: i64, on: bool, turn_secs: Option<u64>, now: i64) -> Result<RotationView, DomainError> {
        self.check(uid, Command::Rotation)?;
        let turn_ms = turn_secs.map(|s| (s.min(24 * 3600) * 1000) as i64);
        match self.control.set_rotation(on, turn_ms, now) {
            Some(change) => self.control_changed(change, Cause::Grant),
            None => {
                if let Some(at) = self.control.turn_deadline() {
                    self.timers.push((TimerKey::Turn, at));
                }
                self.all(RoomEventKind::RotationChange(self.control.rotation_view()));
            }
        }
        Ok(self.control.rotation_view())
    }

    // ---- moderation and chat ----

    /// `blacklist/kick`: out, and barred for the kick time.
    pub fn kick(&mut self, uid: i64, target: i64, now: i64) -> Result<(), DomainError> {
        self.check(uid, Command::Kick)?;
        if target == self.info.host {
            return Err(DomainError::RoomForbidden);
        }
        self.target(target)?;
        self.kicked_until.insert(target, now + self.rules.kick_ms);
        self.to(RoomEventKind::KickOut, vec![target]);
        self.remove(target, now);
        Ok(())
    }

    /// The host blacklisted `target` (stored by the platform): out if a member.
    pub fn blocked(&mut self, target: i64, now: i64) {
        if target == self.info.host {
            return;
        }
        self.all(RoomEventKind::Block { uid: target });
        if self.members.contains_key(&target) {
            self.to(RoomEventKind::KickOutBlack, vec![target]);
            self.remove(target, now);
        }
    }

    pub fn unblocked(&mut self, target: i64) {
        self.all(RoomEventKind::Unblock { uid: target });
    }

    pub fn chat_ban(&mut self, uid: i64, target: i64, on: bool) -> Result<(), DomainError> {
        self.check(uid, Command::ChatBan)?;
        if target == self.info.host {
            return Err(DomainError::RoomForbidden);
        }
        self.target(target)?;
        if on {
            self.chat_bans.insert(target);
        } else {
            self.chat_bans.remove(&target);
        }
        self.to(RoomEventKind::ChatBlock { on }, vec![target]);
        Ok(())
    }

    /// A gift from `giver` to `receiver` (both members), shown in the barrage (1010).
    pub fn gift(&mut self, giver: i64, receiver: i64, gift_image: String, gift_num: i64) -> Result<(), DomainError> {
        self.check(giver, Command::Chat)?;
        self.target(receiver)?;
        self.givers.insert(giver);
        self.gifts += gift_num.max(1);
        let (giver, receiver) = (self.user(giver), self.user(receiver));
        self.all(RoomEventKind::Gift {
            giver,
            receiver,
            gift_image,
            gift_num: gift_num.max(1),
        });
        Ok(())
    }

    /// (distinct givers, gifts) over the room's life.
    pub fn gift_counters(&self) -> (i64, i64) {
        (self.givers.len() as i64, self.gifts)
    }

    /// The host switches the room to another game together (social.md §2.16): the room
    /// follows the next session of `game` as its relay; the old session's end no longer ends it.
    pub fn switch_game(&mut self, uid: i64, game: RoomGame) -> Result<(), DomainError> {
        self.check(uid, Command::EditRoom)?;
        self.info.game = game;
        self.relay = None;
        self.stream = None;
        self.game_status = 0;
        self.all(RoomEventKind::RoomInfoChange {
            room_name: self.info.name.clone(),
            mode: self.info.mode,
            is_show: self.info.is_show,
            has_password: self.info.password.is_some(),
        });
        self.all(RoomEventKind::GameInfoChange { status: 0 });
        Ok(())
    }

    /// Checks a report by a member of the room or of another member (not of oneself); true
    /// when it is new (the platform stores it), false when this member reported the same
    /// already in this room (acknowledged, not stored again: no flood of rows).
    pub fn report(&mut self, uid: i64, target: Option<i64>) -> Result<bool, DomainError> {
        self.check(uid, Command::Report)?;
        if let Some(t) = target {
            if t == uid {
                return Err(DomainError::RoomForbidden);
            }
            self.target(t)?;
        }
        Ok(self.reported.insert((uid, target)))
    }

    pub fn may(&self, uid: i64, cmd: Command) -> Result<(), DomainError> {
        self.check(uid, cmd)
    }

    /// A chat message: text or an emoji.
    pub fn chat(&mut self, uid: i64, text: String, face_id: Option<i64>, now: i64) -> Result<(), DomainError> {
        self.check(uid, Command::Chat)?;
        if self.members.get(&uid).is_some_and(|m| !m.profile.phone_bound) {
            return Err(DomainError::PhoneUnbound);
        }
        if self.chat_bans.contains(&uid) {
            return Err(DomainError::ChatBanned);
        }
        let text = text.trim().to_string();
        let unknown_face = face_id.is_some_and(|f| !(1..=CHAT_FACES).contains(&f));
        if (text.is_empty() && face_id.is_none()) || unknown_face || !plain_line(&text) || text.chars().count() > self.rules.chat_max_chars
        {
            return Err(DomainError::ChatInvalid);
        }
        self.chatters.push_back((now, uid));
        *self.chat_counts.entry(uid).or_default() += 1;
        let user = self.user(uid);
        self.all(RoomEventKind::Chat { user, text, face_id });
        Ok(())
    }
}

/// A chat text everyone sees as it was typed: one line, no control characters, no
/// direction overrides (which would show the text reversed), and something visible when not
/// empty (a line of zero-width characters would show as nothing).
fn plain_line(text: &str) -> bool {
    !text.chars().any(steering) && (text.is_empty() || visible(text))
}

/// A control character or a direction mark or override: it changes how the text around it
/// shows (another line, reversed), so user text carries none.
pub(crate) fn steering(c: char) -> bool {
    c.is_control() || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether the text shows anything (zero-width characters and spaces do not).
pub(crate) fn visible(text: &str) -> bool {
    text.chars()
        .any(|c| !matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}') && !c.is_whitespace())
}

/// Why the controller changed (which targeted events go out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    Grant,
    Recycle,
    Remand,
    Turn,
    SeatLost,
    Left,
}

/// The host's operations on the seat queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueOp {
    Top(i64),
    Remove(i64),
    Switch(i64, i64),
    Clear,
}

fn with_flags(mut r: Roles, p: &Profile) -> Roles {
    if p.cross_screen {
        r = r.with(Role::Member);
    }
    match p.user.status {
        1 => r = r.with(Role::Official),
        3 => r = r.with(Role::SuperAdmin),
        _ => {}
    }
    if p.minor {
        r = r.with(Role::Minor);
    }
    if p.relay_banned {
        r = r.with(Role::Unqualified);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOST: i64 = 1;

    fn profile(uid: i64) -> Profile {
        Profile {
            user: RoomUser {
                uid,
                nickname: format!("u{uid}").into(),
                avatar: "".into(),
                status: 0,
                member: None,
            },
            minor: false,
            cross_screen: false,
            phone_bound: true,
            relay_banned: false,
        }
    }

    fn room(password: Option<&str>) -> RoomState {
        let info = Info {
            dd_rid: 7,
            room_serial: 500_007,
            host: HOST,
            name: "房间".into(),
            mode: MODE_RELAY,
            is_show: true,
            password: password.map(password::protect),
            game: RoomGame {
                id: 1,
                name: "游戏".into(),
                logo: "".into(),
                people: 1,
            },
            created_at_ms: 0,
        };
        RoomState::new(info, profile(HOST), Rules::of(&RoomsConfig::default()), 0)
    }

    fn entry(uid: i64) -> Entry {
        Entry {
            profile: profile(uid),
            device_no: "d".into(),
            password: None,
            force: false,
            blacklisted: false,
            running_game: None,
            other_room: None,
        }
    }

    fn codes(st: &mut RoomState) -> Vec<(i32, Vec<i64>)> {
        st.take_events().into_iter().map(|o| (o.kind.code(), o.user_ids)).collect()
    }

    // The outcomes of §4.5 come in the design's order: barred, minor, password, running game,
    // other room, other device; each refusal changes nothing.
    #[test]
    fn entry_outcomes_in_order() {
        let mut st = room(Some("1234"));
        let all_wrong = Entry {
            blacklisted: true,
            running_game: Some((9, 2)),
            other_room: Some(8),
            ..entry(2)
        };
        let mut e = all_wrong.clone();
        let mut check = |e: &Entry, want: DomainError| assert_eq!(st.enter(e.clone(), 0), Err(want));
        check(&e, DomainError::RoomBarred);
        e.blacklisted = false;
        e.profile.minor = true;
        check(&e, DomainError::Minor);
        e.profile.minor = false;
        check(&e, DomainError::RoomPasswordNeeded);
        e.password = Some(password::encode("1234"));
        check(&e, DomainError::RoomGameRunning { session_id: 9, game_id: 2 });
        e.running_game = None;
        check(&e, DomainError::InOtherRoom { dd_rid: 8 });
        e.other_room = None;
        assert_eq!(st.online(), 1, "refusals admit nobody");
        assert_eq!(st.enter(e.clone(), 0), Ok(PlayRole::RoomWithoutControl));
        // Another device: 130204 unless forced or cross-screen.
        let other = Entry {
            device_no: "d2".into(),
            ..e.clone()
        };
        assert_eq!(st.enter(other.clone(), 0), Err(DomainError::InRoomElsewhere { dd_rid: 7 }));
        let mut vip = other.clone();
        vip.profile.cross_screen = true;
        assert_eq!(st.enter(vip, 0), Ok(PlayRole::RoomWithoutControl));
        assert_eq!(st.enter(Entry { force: true, ..other }, 0), Ok(PlayRole::RoomWithoutControl));
        assert_eq!(st.online(), 2);
        assert_eq!(st.take_membership(), vec![Membership::Joined(HOST), Membership::Joined(2)]);
    }

    #[test]
    fn kicked_members_stay_out_for_a_while() {
        let mut st = room(None);
        st.enter(entry(2), 0).unwrap();
        codes(&mut st);
        st.kick(HOST, 2, 1_000).unwrap();
        assert_eq!(codes(&mut st), vec![(2031, vec![2]), (1005, vec![])]);
        assert_eq!(st.enter(entry(2), 600_999), Err(DomainError::RoomBarred));
        assert!(st.enter(entry(2), 601_000).is_ok());
        assert_eq!(st.kick(2, HOST, 0), Err(DomainError::RoomForbidden));
        assert_eq!(st.kick(HOST, HOST, 0), Err(DomainError::RoomForbidden));
    }

    // The relay: a session of the host is adopted, its status changes become 1001, its end
    // ends the room; another session of the host is ignored.
    #[test]
    fn the_relay() {
        let mut st = room(None);
        codes(&mut st);
        assert_eq!(st.relay_state(5, 0, None), Ended::No, "an end of nothing followed");
        assert_eq!(st.relay_state(5, 1, None), Ended::No);
        assert_eq!(st.relay_state(5, 1, None), Ended::No);
        assert_eq!(st.relay_state(6, 5, None), Ended::No, "another session");
        assert_eq!(st.relay_state(5, 5, None), Ended::No);
        assert_eq!(codes(&mut st), vec![(1001, vec![]), (1001, vec![])]);
        assert_eq!(st.game_status(), 5);
        assert_eq!(st.relay_state(5, 0, None), Ended::Now);
        assert!(st.is_ended());
        assert_eq!(codes(&mut st), vec![(1001, vec![]), (3002, vec![])]);
        assert_eq!(st.enter(entry(2), 0), Err(DomainError::RoomNotFound));
    }

    // Control events are aimed: 2021 to the new controller, 2024 to the recycled one, 1003 to
    // everyone else.
    #[test]
    fn control_events_are_targeted() {
        let mut st = room(None);
        st.enter(entry(2), 0).unwrap();
        codes(&mut st);
        st.control_assign(HOST, 2, 0).unwrap();
        let ev = st.take_events();
        assert_eq!(ev[0].kind.code(), 2021);
        assert_eq!(ev[0].user_ids, vec![2]);
        assert_eq!(ev[1].kind, RoomEventKind::ControlChange { controller: 2 });
        assert_eq!(ev[1].exclude_user_ids, vec![HOST, 2]);
        st.control_recycle(HOST, 0).unwrap();
        assert_eq!(codes(&mut st)[0], (2024, vec![2]));
        assert_eq!(st.controller(), HOST);
        // A controller who leaves gives control back.
        st.control_assign(HOST, 2, 0).unwrap();
        st.leave(2, 0).unwrap();
        assert_eq!(st.controller(), HOST);
    }

    // Mike up with action 2 seats and applies (state 1, 2020 to the host); from a seat it only
    // applies; action 3 with control gives it back.
    #[test]
    fn mike_up_with_control() {
        let mut st = room(None);
        st.enter(entry(2), 0).unwrap();
        codes(&mut st);
        let info = st.mike_up(2, MikeAction::UpWithControl, None, 0).unwrap();
        assert_eq!((info.mike_sub_status, info.apply_control.state), (2, 1));
        assert!(codes(&mut st).contains(&(2020, vec![HOST])));
        assert!(matches!(
            st.mike_up(2, MikeAction::UpWithControl, None, 1_000),
            Err(DomainError::ControlApplyOpen { .. })
        ));
        st.control_assign(HOST, 2, 2_000).unwrap();
        let info = st.mike_up(2, MikeAction::Down, None, 3_000).unwrap();
        assert_eq!(info.mike_sub_status, 1);
        assert_eq!(st.controller(), HOST);
        assert!(codes(&mut st).contains(&(2023, vec![HOST])));
    }

    // A user whose relay qualification was withdrawn watches and chats but never controls:
    // applying (also through a seat), being granted and being invited are all 20154.
    #[test]
    fn relay_banned_members_never_control() {
        let mut st = room(None);
        let mut banned = entry(2);
        banned.profile.relay_banned = true;
        st.enter(banned, 0).unwrap();
        assert_eq!(st.control_apply(2, 0), Err(DomainError::NotRelayQualified));
        assert_eq!(
            st.mike_up(2, MikeAction::UpWithControl, None, 0).map(|_| ()),
            Err(DomainError::NotRelayQualified)
        );
        assert_eq!(st.control_assign(HOST, 2, 0), Err(DomainError::NotRelayQualified));
        assert_eq!(st.control_invite(HOST, 2), Err(DomainError::NotRelayQualified));
        assert_eq!(st.controller(), HOST);
        assert_eq!(st.chat(2, "hi".into(), None, 0), Ok(()));
        assert!(st.mike_up(2, MikeAction::Up, None, 0).is_ok(), "a seat without control is fine");
    }

    // A report is of the room or another member, stored once per reporter and target.
    #[test]
    fn reports_are_stored_once() {
        let mut st = room(None);
        st.enter(entry(2), 0).unwrap();
        st.enter(entry(3), 0).unwrap();
        assert_eq!(st.report(2, Some(3)), Ok(true));
        assert_eq!(st.report(2, Some(3)), Ok(false), "the same again is not stored");
        assert_eq!(st.report(2, None), Ok(true));
        assert_eq!(st.report(2, None), Ok(false));
        assert_eq!(st.report(3, Some(2)), Ok(true));
        assert_eq!(st.report(2, Some(2)), Err(DomainError::RoomForbidden), "not oneself");
        assert_eq!(st.report(2, Some(9)), Err(DomainError::TargetNotInRoom));
        assert_eq!(st.report(9, None), Err(DomainError::NotInRoom));
        assert_eq!(st.report(HOST, Some(2)), Err(DomainError::RoomForbidden), "the host kicks instead");
    }

    #[test]
    fn chat_rules() {
        let mut st = room(None);
        st.enter(entry(2), 0).unwrap();
        assert_eq!(st.chat(3, "hi".into(), None, 0), Err(DomainError::NotInRoom));
        assert_eq!(st.chat(2, " ".into(), None, 0), Err(DomainError::ChatInvalid));
        assert_eq!(st.chat(2, "长".repeat(201), None, 0), Err(DomainError::ChatInvalid));
        assert_eq!(st.chat(2, String::new(), Some(1), 0), Ok(()));
        // A face the chat box does not have would show an empty line to everyone.
        for face in [0, -1, CHAT_FACES + 1, i64::MAX, i64::MIN] {
            assert_eq!(st.chat(2, String::new(), Some(face), 0), Err(DomainError::ChatInvalid), "{face}");
            assert_eq!(st.chat(2, "hi".into(), Some(face), 0), Err(DomainError::ChatInvalid), "{face}");
        }
        assert_eq!(st.chat(2, String::new(), Some(CHAT_FACES), 0), Ok(()));
        // Control characters, direction overrides and invisible-only lines are refused.
        for text in [
            "a\u{0}b",
            "two\nlines",
            "\u{202E}gnp.exe",
            "a\u{2066}b",
            "\u{200B}\u{200B}",
            "\u{FEFF}",
        ] {
            assert_eq!(st.chat(2, text.into(), None, 0), Err(DomainError::ChatInvalid), "{text:?}");
        }
        assert_eq!(st.chat(2, "<b>粗体</b> [微笑.png] 👍🏻 e\u{301}".into(), None, 0), Ok(()));
        let mut unbound = entry(3);
        unbound.profile.phone_bound = false;
        st.enter(unbound, 0).unwrap();
        assert_eq!(st.chat(3, "hi".into(), None, 0), Err(DomainError::PhoneUnbound));
        st.chat_ban(HOST, 2, true).unwrap();
        assert_eq!(st.chat(2, "hi".into(), None, 0), Err(DomainError::ChatBanned));
        assert_eq!(st.heat(3, 1_000), 3 * 10 + 50);
        assert_eq!(st.heat(3, 61_000), 30, "chatters of the last minute only");
        // Leaving and entering again does not lift the ban.
        st.leave(2, 62_000).unwrap();
        st.enter(entry(2), 62_000).unwrap();
        assert_eq!(st.chat(2, "hi".into(), None, 62_000), Err(DomainError::ChatBanned));
        assert!(st.user_info(2, 62_000).chat_banned);
        st.chat_ban(HOST, 2, false).unwrap();
        assert_eq!(st.chat(2, "hi".into(), None, 62_000), Ok(()));
    }
}
