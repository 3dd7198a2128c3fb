//! The room calls as data: [`RoomCall`], one variant per operation the `Rooms` service performs
//! on a room's state, carrying plain values (uids, targets, texts, the room's own enums, the
//! profiles and the game the service read from storage beforehand), and [`RoomReply`], what the
//! room answers. A call reaches the room's actor as `RoomMsg::Call` (no closure: a call can be
//! logged, compared, and later forwarded to another process).
//!
//! One call, in the actor, in this order:
//!
//! 1. [`RoomState::apply`], the one pure dispatcher, runs the call's command on the state and
//!    returns its [`RoomAnswer`] (or the refusal); the command queues its events, deadlines and
//!    membership changes as every command does;
//! 2. the actor carries those effects out (events into the log and out to the watchers, timers
//!    set, the index, the game host told of a new controller: `actor`'s module doc);
//! 3. [`After::complete`] adds what the call declared it needs from the room *after* the
//!    effects ([`RoomCall::after`]): [`After::View`] adds the [`RoomView`] read from the state
//!    and the log then (its epoch and offset are the stream position past the call's own
//!    events, where the caller's watch starts: `room/info`, `room/edit`, the entry answer);
//! 4. the reply is sent.
//!
//! So the reply is plain data whose shape is fixed by the call: [`RoomReply::answer`] is the
//! command's own answer, [`RoomReply::view`] is set exactly for the calls whose `after` is
//! [`After::View`]. The service turns it back into its typed return values
//! (`TryFrom<RoomAnswer>` for each answer type; a mismatch is an internal error).
//!
//! Not serde yet: the profiles and the game carry `Arc<str>` (serde's `rc` feature is off in
//! the workspace), the password is `storage::RoomPassword` and the relay's stream is
//! `view::StreamTarget`, neither serde. Forwarding calls between processes needs those first
//! (or wire mirrors of them); every other payload is already plain data.

use std::sync::Arc;

use storage::RoomPassword;

use super::events::EventLog;
use super::state::{Ended, Entry, Profile, QueueOp, RoomState};
use super::view::*;
use crate::error::{DomainError, DomainResult};
use crate::play::hosts::StreamTarget;

/// One operation on a room's state. `uid` is the caller; `fresh` is the caller's (or the
/// target's) profile read again just before a control call (the minor or relay-ban flag may
/// have been set since the entry), applied to the member before the command.
#[derive(Debug, Clone, PartialEq)]
pub enum RoomCall {
    /// Nothing changes: the answer is the room view (`room/info`, `room/myRoom`, a created
    /// room).
    View,
    /// `room/edit`: `password` None keeps the stored one, `Some(None)` removes it.
    Edit {
        uid: i64,
        name: String,
        mode: i32,
        is_show: bool,
        password: Option<Option<RoomPassword>>,
    },
    /// `room/login`: an entry with what the service found out beforehand.
    Enter { entry: Entry },
    /// `room/exit`.
    Leave { uid: i64 },
    /// `room/userInfo`.
    UserInfo { uid: i64 },
    /// `room/userList`.
    Users { uid: i64, page: u32, size: u32 },
    /// The live summary's counters.
    Counters,
    /// `room/connection`.
    Connection { uid: i64 },
    /// `mike/list`.
    MikeInfo { uid: i64 },
    /// `mike/up`, `mike/upOrDown` (`fresh` for action 2, which applies for control).
    MikeUp {
        uid: i64,
        action: MikeAction,
        seat: Option<usize>,
        fresh: Option<Profile>,
    },
    /// `mike/invite`.
    MikeInvite { uid: i64, target: i64 },
    /// `mike/invite/accept` and `mike/invite/refuse`.
    MikeInviteAnswer { uid: i64, accept: bool },
    /// `mike/operat`.
    MikeOperate { uid: i64, target: i64, op: MikeOp },
    /// `mike/lock` (`seat`), `mike/lockAll` (None).
    MikeLock { uid: i64, seat: Option<usize>, lock: bool },
    /// `mikeReq/action`.
    MikeReq { uid: i64, action: MikeReqAction },
    /// `mikeReq/list`.
    MikeQueue { uid: i64 },
    /// `mikeReq/clear`, `top`, `remove`, `switchMikeReq` (host).
    MikeQueueOp { uid: i64, op: QueueOp },
    /// `control/apply` (`fresh`: the caller's).
    ControlApply { uid: i64, fresh: Option<Profile> },
    /// `control/applyList`.
    Applications { uid: i64 },
    /// `control/assign` (`fresh`: the target's).
    ControlAssign { uid: i64, target: i64, fresh: Option<Profile> },
    /// The host denies an application.
    ControlDeny { uid: i64, target: i64 },
    /// `control/recycle`.
    ControlRecycle { uid: i64 },
    /// `control/invite` (`fresh`: the target's).
    ControlInvite { uid: i64, target: i64, fresh: Option<Profile> },
    /// `control/invite/accept` (`fresh`: the caller's) and `control/invite/refuse`.
    ControlInviteAnswer { uid: i64, accept: bool, fresh: Option<Profile> },
    /// `control/remand`.
    ControlRemand { uid: i64 },
    /// `control/rotation`.
    RotationSet { uid: i64, on: bool, turn_secs: Option<u64> },
    /// The host blacklisted `target` (stored already): out of the open room.
    Blocked { target: i64 },
    /// The host lifted `target`'s block (stored already).
    Unblocked { target: i64 },
    /// `blacklist/kick`.
    Kick { uid: i64, target: i64 },
    /// The host bans (or lets) a member's chat.
    ChatBan { uid: i64, target: i64, on: bool },
    /// `report/add`: checked here, stored by the service when new.
    Report { uid: i64, target: Option<i64> },
    /// A gift shown in the barrage.
    Gift {
        uid: i64,
        receiver: i64,
        gift_image: String,
        gift_num: i64,
    },
    /// `room/chat/send`.
    Chat { uid: i64, text: String, face_id: Option<i64> },
    /// A relay start of `game_id` in the host's room: its visibility and password apply.
    RelayPrepare {
        uid: i64,
        game_id: i64,
        is_show: Option<bool>,
        password: Option<Option<RoomPassword>>,
    },
    /// The host's room switches to `game` before a `changeGame` with relay params.
    SwitchGame { uid: i64, game: RoomGame },
    /// A relay start succeeded: the room adopts the session (unless it follows it already).
    RelayAdopt {
        session_id: i64,
        status: i32,
        stream: Option<Arc<StreamTarget>>,
    },
}

/// What a call's answer needs from the room after its effects are carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// The command's own answer is the whole reply.
    Nothing,
    /// The reply carries the room view after the effects ([`RoomReply::view`]).
    View,
}

impl RoomCall {
    /// What the reply needs after the effects (see the module doc).
    pub fn after(&self) -> After {
        match self {
            RoomCall::View | RoomCall::Edit { .. } | RoomCall::Enter { .. } => After::View,
            _ => After::Nothing,
        }
    }
}

/// A command's own answer.
#[derive(Debug, Clone, PartialEq)]
pub enum RoomAnswer {
    /// The command answers nothing but its success.
    Done,
    /// The entrant's role.
    Role(PlayRole),
    Left(Left),
    UserInfo(RoomUserInfo),
    Users(Page<OnlineUser>),
    Counters(LiveCounters),
    Connection(RoomConnection),
    Mike(MikeInfo),
    /// The seat queue.
    Queue(Vec<RoomUser>),
    ApplyControl(ApplyControl),
    Applications(Vec<ControlApplication>),
    Rotation(RotationView),
    /// A report is new (the service stores it).
    Reported(bool),
}

/// A member left (`room/exit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Left {
    pub ended: Ended,
    pub room_serial: i64,
}

/// The live summary's counters of an open room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveCounters {
    pub audience: i64,
    pub mike: i64,
    pub control: i64,
    pub givers: i64,
    pub gifts: i64,
}

/// The room's reply to a call: the command's answer, and the room view after the effects for
/// the calls whose [`RoomCall::after`] is [`After::View`] (None for the others).
#[derive(Debug, Clone, PartialEq)]
pub struct RoomReply {
    pub answer: RoomAnswer,
    pub view: Option<RoomView>,
}

impl RoomReply {
    /// The room view the call declared it needs.
    pub fn into_view(self) -> DomainResult<RoomView> {
        self.view.ok_or_else(no_view)
    }

    /// The command's answer as `T`, and the room view the call declared it needs.
    pub fn answer_and_view<T: TryFrom<RoomAnswer, Error = DomainError>>(self) -> DomainResult<(T, RoomView)> {
        Ok((self.answer.try_into()?, self.view.ok_or_else(no_view)?))
    }
}

fn no_view() -> DomainError {
    DomainError::Internal("room reply: no view".into())
}

impl After {
    /// Completes a reply from the state and log after the effects (a refusal stays as it is).
    pub fn complete(self, reply: DomainResult<RoomReply>, st: &RoomState, log: &EventLog) -> DomainResult<RoomReply> {
        let mut reply = reply?;
        if self == After::View {
            reply.view = Some(st.view(log.epoch(), log.offset()));
        }
        Ok(reply)
    }
}

macro_rules! answers {
    ($($variant:ident => $ty:ty),* $(,)?) => {$(
        impl TryFrom<RoomAnswer> for $ty {
            type Error = DomainError;
            fn try_from(a: RoomAnswer) -> DomainResult<$ty> {
                match a {
                    RoomAnswer::$variant(v) => Ok(v),
                    other => Err(unexpected(&other)),
                }
            }
        }
    )*};
}

fn unexpected(a: &RoomAnswer) -> DomainError {
    DomainError::Internal(format!("room reply: unexpected answer {a:?}"))
}

impl TryFrom<RoomAnswer> for () {
    type Error = DomainError;
    fn try_from(a: RoomAnswer) -> DomainResult<()> {
        match a {
            RoomAnswer::Done => Ok(()),
            other => Err(unexpected(&other)),
        }
    }
}

answers! {
    Role => PlayRole,
    Left => Left,
    UserInfo => RoomUserInfo,
    Users => Page<OnlineUser>,
    Counters => LiveCounters,
    Connection => RoomConnection,
    Mike => MikeInfo,
    Queue => Vec<RoomUser>,
    ApplyControl => ApplyControl,
    Applications => Vec<ControlApplication>,
    Rotation => RotationView,
    Reported => bool,
}

impl RoomState {
    /// Runs `call` on the state (the permission table decides, as for every command) and returns
    /// its answer; the view after the effects is the actor's to add ([`After::complete`]).
    pub fn apply(&mut self, call: RoomCall, now: i64) -> DomainResult<RoomReply> {
        use RoomAnswer as A;
        let answer = match call {
            RoomCall::View => A::Done,
            RoomCall::Edit {
                uid,
                name,
                mode,
                is_show,
                password,
            } => {
                self.edit(uid, name, mode, is_show, password)?;
                A::Done
            }
            RoomCall::Enter { entry } => A::Role(self.enter(entry, now)?),
            RoomCall::Leave { uid } => A::Left(Left {
                ended: self.leave(uid, now)?,
                room_serial: self.info.room_serial,
            }),
            RoomCall::UserInfo { uid } => A::UserInfo(self.user_info(uid, now)),
            RoomCall::Users { uid, page, size } => A::Users(self.users(uid, page, size)?),
            RoomCall::Counters => {
                let (audience, mike, control) = self.counters();
                let (givers, gifts) = self.gift_counters();
                A::Counters(LiveCounters {
                    audience,
                    mike,
                    control,
                    givers,
                    gifts,
                })
            }
            RoomCall::Connection { uid } => A::Connection(self.connection(uid)?),
            RoomCall::MikeInfo { uid } => A::Mike(self.mike_info(uid, now)?),
            RoomCall::MikeUp { uid, action, seat, fresh } => {
                self.refresh_with(fresh);
                A::Mike(self.mike_up(uid, action, seat, now)?)
            }
            RoomCall::MikeInvite { uid, target } => {
                self.mike_invite(uid, target)?;
                A::Done
            }
            RoomCall::MikeInviteAnswer { uid, accept } => A::Mike(self.mike_invite_answer(uid, accept, now)?),
            RoomCall::MikeOperate { uid, target, op } => A::Mike(self.mike_operate(uid, target, op, now)?),
            RoomCall::MikeLock { uid, seat, lock } => A::Mike(self.mike_lock(uid, seat, lock, now)?),
            RoomCall::MikeReq { uid, action } => A::Mike(self.mike_req(uid, action, now)?),
            RoomCall::MikeQueue { uid } => A::Queue(self.mike_queue(uid)?),
            RoomCall::MikeQueueOp { uid, op } => A::Queue(self.mike_queue_op(uid, op)?),
            RoomCall::ControlApply { uid, fresh } => {
                self.refresh_with(fresh);
                A::ApplyControl(self.control_apply(uid, now)?)
            }
            RoomCall::Applications { uid } => A::Applications(self.applications(uid, now)?),
            RoomCall::ControlAssign { uid, target, fresh } => {
                self.refresh_with(fresh);
                self.control_assign(uid, target, now)?;
                A::Done
            }
            RoomCall::ControlDeny { uid, target } => {
                self.control_deny(uid, target, now)?;
                A::Done
            }
            RoomCall::ControlRecycle { uid } => {
                self.control_recycle(uid, now)?;
                A::Done
            }
            RoomCall::ControlInvite { uid, target, fresh } => {
                self.refresh_with(fresh);
                self.control_invite(uid, target)?;
                A::Done
            }
            RoomCall::ControlInviteAnswer { uid, accept, fresh } => {
                self.refresh_with(fresh);
                self.control_invite_answer(uid, accept, now)?;
                A::Done
            }
            RoomCall::ControlRemand { uid } => {
                self.control_remand(uid, now)?;
                A::Done
            }
            RoomCall::RotationSet { uid, on, turn_secs } => A::Rotation(self.rotation_set(uid, on, turn_secs, now)?),
            RoomCall::Blocked { target } => {
                self.blocked(target, now);
                A::Done
            }
            RoomCall::Unblocked { target } => {
                self.unblocked(target);
                A::Done
            }
            RoomCall::Kick { uid, target } => {
                self.kick(uid, target, now)?;
                A::Done
            }
            RoomCall::ChatBan { uid, target, on } => {
                self.chat_ban(uid, target, on)?;
                A::Done
            }
            RoomCall::Report { uid, target } => A::Reported(self.report(uid, target)?),
            RoomCall::Gift {
                uid,
                receiver,
                gift_image,
                gift_num,
            } => {
                self.gift(uid, receiver, gift_image, gift_num)?;
                A::Done
            }
            RoomCall::Chat { uid, text, face_id } => {
                self.chat(uid, text, face_id, now)?;
                A::Done
            }
            RoomCall::RelayPrepare {
                uid,
                game_id,
                is_show,
                password,
            } => {
                self.relay_prepare(uid, game_id, is_show, password)?;
                A::Done
            }
            RoomCall::SwitchGame { uid, game } => {
                self.switch_game(uid, game)?;
                A::Done
            }
            RoomCall::RelayAdopt {
                session_id,
                status,
                stream,
            } => {
                self.adopt_relay(session_id, status, stream);
                A::Done
            }
        };
        Ok(RoomReply { answer, view: None })
    }

    fn refresh_with(&mut self, fresh: Option<Profile>) {
        if let Some(p) = fresh {
            self.refresh(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RoomsConfig;
    use crate::rooms::events::RoomEventKind;
    use crate::rooms::state::{Info, Rules};

    const HOST: i64 = 1;
    const VIEWER: i64 = 2;
    const STRANGER: i64 = 9;

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

    /// A room of game 1 with its host and one viewer in it, its queues emptied.
    fn room() -> RoomState {
        let info = Info {
            dd_rid: 7,
            room_serial: 500_007,
            host: HOST,
            name: "房间".into(),
            mode: MODE_RELAY,
            is_show: true,
            password: None,
            game: RoomGame {
                id: 1,
                name: "游戏".into(),
                logo: "".into(),
                people: 1,
            },
            created_at_ms: 0,
        };
        let mut st = RoomState::new(info, profile(HOST), Rules::of(&RoomsConfig::default()), 0);
        let entered = st.apply(RoomCall::Enter { entry: entry(VIEWER) }, 0);
        assert_eq!(entered.map(|r| r.answer), Ok(RoomAnswer::Role(PlayRole::RoomWithoutControl)));
        drain(&mut st);
        st
    }

    fn drain(st: &mut RoomState) -> Vec<i32> {
        st.take_timers();
        st.take_membership();
        st.take_events().into_iter().map(|o| o.kind.code()).collect()
    }

    fn codes(kinds: &[RoomEventKind]) -> Vec<i32> {
        kinds.iter().map(RoomEventKind::code).collect()
    }

    // Each call runs its command and answers its own kind of answer; a refusal is the command's
    // refusal and queues nothing (no event goes out for it).
    #[test]
    fn calls_answer_their_commands() {
        let info_change = RoomEventKind::RoomInfoChange {
            room_name: "房间".into(),
            mode: MODE_RELAY,
            is_show: false,
            has_password: false,
        };
        let table: Vec<(&str, RoomCall, DomainResult<RoomAnswer>, Vec<i32>)> = vec![
            ("view", RoomCall::View, Ok(RoomAnswer::Done), vec![]),
            (
                "a stranger is no member",
                RoomCall::Chat {
                    uid: STRANGER,
                    text: "hi".into(),
                    face_id: None,
                },
                Err(DomainError::NotInRoom),
                vec![],
            ),
            (
                "a stranger's mike list",
                RoomCall::MikeInfo { uid: STRANGER },
                Err(DomainError::NotInRoom),
                vec![],
            ),
            (
                "the target must be in the room",
                RoomCall::MikeInvite {
                    uid: HOST,
                    target: STRANGER,
                },
                Err(DomainError::TargetNotInRoom),
                vec![],
            ),
            (
                "a viewer does not edit",
                RoomCall::Edit {
                    uid: VIEWER,
                    name: "x".into(),
                    mode: MODE_RELAY,
                    is_show: true,
                    password: None,
                },
                Err(DomainError::RoomForbidden),
                vec![],
            ),
            (
                "the host bans the host's chat",
                RoomCall::ChatBan {
                    uid: HOST,
                    target: HOST,
                    on: true,
                },
                Err(DomainError::RoomForbidden),
                vec![],
            ),
            (
                "a report is new once",
                RoomCall::Report { uid: VIEWER, target: None },
                Ok(RoomAnswer::Reported(true)),
                vec![],
            ),
            (
                "then acknowledged",
                RoomCall::Report { uid: VIEWER, target: None },
                Ok(RoomAnswer::Reported(false)),
                vec![],
            ),
            (
                "a relay start of another game",
                RoomCall::RelayPrepare {
                    uid: HOST,
                    game_id: 2,
                    is_show: Some(false),
                    password: None,
                },
                Err(DomainError::GameNotSupportRelay),
                vec![],
            ),
            (
                "a relay start that changes nothing edits nothing",
                RoomCall::RelayPrepare {
                    uid: HOST,
                    game_id: 1,
                    is_show: Some(true),
                    password: None,
                },
                Ok(RoomAnswer::Done),
                vec![],
            ),
            (
                "a relay start's visibility applies",
                RoomCall::RelayPrepare {
                    uid: HOST,
                    game_id: 1,
                    is_show: Some(false),
                    password: None,
                },
                Ok(RoomAnswer::Done),
                codes(&[info_change]),
            ),
            (
                "a relay is adopted",
                RoomCall::RelayAdopt {
                    session_id: 40,
                    status: 3,
                    stream: None,
                },
                Ok(RoomAnswer::Done),
                codes(&[RoomEventKind::GameInfoChange { status: 3 }]),
            ),
            (
                "once (the host's pushes may have come first)",
                RoomCall::RelayAdopt {
                    session_id: 40,
                    status: 1,
                    stream: None,
                },
                Ok(RoomAnswer::Done),
                vec![],
            ),
            (
                "the counters (the host is seated from the start)",
                RoomCall::Counters,
                Ok(RoomAnswer::Counters(LiveCounters {
                    audience: 2,
                    mike: 1,
                    control: 0,
                    givers: 0,
                    gifts: 0,
                })),
                vec![],
            ),
            (
                "a viewer leaves",
                RoomCall::Leave { uid: VIEWER },
                Ok(RoomAnswer::Left(Left {
                    ended: Ended::No,
                    room_serial: 500_007,
                })),
                codes(&[RoomEventKind::RoomLeave { uid: VIEWER, others: 0 }]),
            ),
            (
                "and is no member",
                RoomCall::UserInfo { uid: VIEWER },
                Ok(RoomAnswer::UserInfo(RoomUserInfo {
                    id: VIEWER,
                    dd_rid: None,
                    room_serial: None,
                    role: PlayRole::None,
                    apply_control: ApplyControl::default(),
                    chat_banned: false,
                })),
                vec![],
            ),
        ];
        let mut st = room();
        for (what, call, want, events) in table {
            let got = st.apply(call, 1_000).map(|r| {
                assert_eq!(r.view, None, "{what}: the view is the actor's to add");
                r.answer
            });
            assert_eq!(got, want, "{what}");
            assert_eq!(drain(&mut st), events, "{what}");
        }
    }

    // A fresh profile applies before the command: a viewer found a minor since their entry
    // may not apply for control.
    #[test]
    fn a_fresh_profile_applies_first() {
        let mut st = room();
        let minor = Profile {
            minor: true,
            ..profile(VIEWER)
        };
        let call = RoomCall::ControlApply {
            uid: VIEWER,
            fresh: Some(minor),
        };
        assert_eq!(st.apply(call, 0).map(|r| r.answer), Err(DomainError::MinorControlLimit));
        let call = RoomCall::ControlApply {
            uid: VIEWER,
            fresh: Some(profile(VIEWER)),
        };
        let Ok(RoomAnswer::ApplyControl(apply)) = st.apply(call, 0).map(|r| r.answer) else {
            panic!("an application");
        };
        assert_eq!(apply.state, 1);
    }

    // The calls whose answer is the room view declare it; the view is read after the effects,
    // at the log's position past the call's own events (where the caller's watch starts).
    #[test]
    fn the_view_comes_after_the_effects() {
        for call in [
            RoomCall::View,
            RoomCall::Enter { entry: entry(3) },
            RoomCall::Edit {
                uid: HOST,
                name: "新".into(),
                mode: MODE_RELAY,
                is_show: true,
                password: Some(None),
            },
        ] {
            assert_eq!(call.after(), After::View, "{call:?}");
        }
        assert_eq!(RoomCall::Counters.after(), After::Nothing);
        assert_eq!(RoomCall::Leave { uid: VIEWER }.after(), After::Nothing);

        let mut st = room();
        let mut log = EventLog::new("7-0-e".into());
        log.push(RoomEventKind::MikeInfoChange, vec![], vec![], 0);
        let call = RoomCall::Enter { entry: entry(3) };
        let need = call.after();
        let reply = st.apply(call, 5);
        // the actor's step: the events into the log
        for out in st.take_events() {
            log.push(out.kind, out.user_ids, out.exclude_user_ids, 5);
        }
        assert_eq!(log.offset(), 2);
        let (role, view): (PlayRole, RoomView) = need.complete(reply, &st, &log).and_then(RoomReply::answer_and_view).unwrap();
        assert_eq!(role, PlayRole::RoomWithoutControl);
        assert_eq!((&*view.epoch, view.offset, view.online), ("7-0-e", 2, 3));

        // A refusal stays a refusal; a call without the need gets no view.
        let refused = After::View.complete(st.apply(RoomCall::Leave { uid: STRANGER }, 5), &st, &log);
        assert_eq!(refused, Err(DomainError::NotInRoom));
        let counters = After::Nothing.complete(st.apply(RoomCall::Counters, 5), &st, &log).unwrap();
        assert_eq!(counters.view, None);
    }

    // The service reads each answer as the type its call answers; another kind is an internal
    // error, not a wrong value.
    #[test]
    fn answers_read_as_their_types() {
        assert_eq!(<()>::try_from(RoomAnswer::Done), Ok(()));
        assert_eq!(bool::try_from(RoomAnswer::Reported(true)), Ok(true));
        assert!(matches!(MikeInfo::try_from(RoomAnswer::Done), Err(DomainError::Internal(_))));
        assert!(matches!(<()>::try_from(RoomAnswer::Reported(false)), Err(DomainError::Internal(_))));
        let no_view = RoomReply {
            answer: RoomAnswer::Done,
            view: None,
        };
        assert!(matches!(no_view.into_view(), Err(DomainError::Internal(_))));
    }
}
