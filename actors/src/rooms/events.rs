//! A room's events (social.md §4.8, plus our own 3000–3002) and [`EventLog`], the room's stream
//! with offsets under an epoch.
//!
//! Every event gets the next offset (from 1) under the room's epoch, a string made when the
//! room's actor starts (ddRid, start ms, random): a restarted actor starts a new epoch, so a
//! watcher holding an old position learns it must refetch. The log keeps the last
//! [`LOG_CAPACITY`] events in memory; a watcher that comes back within it gets exactly what it
//! missed ([`EventLog::since`]), without a database read. Targeted events (`user_ids`) go in the
//! same stream: the client filters, and nothing secret is in them.

use std::collections::VecDeque;
use std::sync::Arc;

use super::view::{RoomUser, RotationView};

/// Events kept for resume.
pub const LOG_CAPACITY: usize = 2048;

/// What happened, with its data (typed; the facade renders the spec's JSON).
#[derive(Debug, Clone, PartialEq)]
pub enum RoomEventKind {
    /// 1000: name, mode, isShow or password changed.
    RoomInfoChange {
        room_name: String,
        mode: i32,
        is_show: bool,
        has_password: bool,
    },
    /// 1001: the relay's game status (0 none, 1 queue, 3 ready, 4 connecting, 5 playing).
    GameInfoChange { status: i32 },
    /// 1002: the seats or their queue changed: refetch the mike info.
    MikeInfoChange,
    /// 1003: the controller changed (to everyone but `exclude_user_ids`).
    ControlChange { controller: i64 },
    /// 1004: `user` entered, and `others` more with them (a busy room's batch carries its
    /// entries as one event: [`merge_presence`]).
    RoomEnter { user: RoomUser, others: u32 },
    /// 1005: `uid` left, and `others` more with them (merged as entries are).
    RoomLeave { uid: i64, others: u32 },
    /// 1006: a seat's voice banned for a while.
    MikeBlockTmp { uid: i64 },
    /// 1007: a user blacklisted by the host.
    Block { uid: i64 },
    /// 1008: a user taken off the blacklist.
    Unblock { uid: i64 },
    /// 1009.
    WelcomeMessageChange { text: String },
    /// 1010.
    Gift {
        giver: RoomUser,
        receiver: RoomUser,
        gift_image: String,
        gift_num: i64,
    },
    /// 2000 (targeted): moved to the top of the seat queue.
    MikeQueueTop,
    /// 2001 (targeted): removed from the seat queue ("您已被移除排麦").
    MikeQueueRemove,
    /// 2002 (targeted): the queue place was cancelled.
    MikeQueueCancel,
    /// 2010 (targeted): put on a seat.
    MikeUp { seat: usize },
    /// 2011 (targeted): taken off the seat.
    MikeDown,
    /// 2012 (targeted): the seat's voice banned (`on`) or the ban lifted.
    MikeBlock { on: bool },
    /// 2014 (targeted): taken off the seat and control removed.
    MikeDownAndControlOff,
    /// 2015 (targeted): the host invites to a seat.
    MikeUpInvite { host: RoomUser },
    /// 2016 (to the host): an invite was refused.
    InviteDeny { user: RoomUser },
    /// 2020 (to the host): a control application.
    ControlRequest { user: RoomUser },
    /// 2021 (targeted): control granted.
    ControlOn,
    /// 2022 (targeted): the application was denied.
    ControlDeny,
    /// 2023 (to the host): control given back; `main` when it returns to the host.
    ControlReturn { main: bool, user: RoomUser },
    /// 2024 (targeted): control recycled ("当前用户被收回控制权").
    ControlOff,
    /// 2025 (targeted): the host invites to take control.
    ControlOnInvite { host: RoomUser },
    /// 2030 (targeted): chat banned (`on`) or the ban lifted.
    ChatBlock { on: bool },
    /// 2031 (targeted): kicked out.
    KickOut,
    /// 2032 (targeted): blacklisted and put out.
    KickOutBlack,
    /// 3000: a chat message (text, or an emoji by `face_id`).
    Chat {
        user: RoomUser,
        text: String,
        face_id: Option<i64>,
    },
    /// 3001: the rotation changed (on/off, a new turn, the queue).
    RotationChange(RotationView),
    /// 3002: the room ended (the stream's last event).
    RoomEnd { room_serial: i64 },
}

/// Every event code and the spec's name of it (MIKE_BLOCK's lifting shares 2012), as the
/// client's list of codes is generated from it (the facade's `x-push-codes`).
pub const EVENT_CODES: &[(i32, &str)] = &[
    (1000, "ROOM_INFO_CHANGE"),
    (1001, "GAME_INFO_CHANGE"),
    (1002, "MIKE_INFO_CHANGE"),
    (1003, "CONTROL_CHANGE"),
    (1004, "ROOM_ENTER"),
    (1005, "ROOM_LEAVE"),
    (1006, "MIKE_BLOCK_TMP"),
    (1007, "BLOCK"),
    (1008, "UNBLOCK"),
    (1009, "WELCOME_MESSAGE_CHANGE"),
    (1010, "GIFT_MESSAGE"),
    (2000, "MIKE_QUEUE_TOP"),
    (2001, "MIKE_QUEUE_REMOVE"),
    (2002, "MIKE_QUEUE_CANCEL"),
    (2010, "MIKE_UP"),
    (2011, "MIKE_DOWN"),
    (2012, "MIKE_BLOCK"),
    (2014, "MIKE_DOWN_AND_CONTROL_OFF"),
    (2015, "MIKE_UP_INVITE"),
    (2016, "INVITE_DENY"),
    (2020, "CONTROL_REQUEST"),
    (2021, "CONTROL_ON"),
    (2022, "CONTROL_DENY"),
    (2023, "CONTROL_RETURN"),
    (2024, "CONTROL_OFF"),
    (2025, "CONTROL_ON_INVITE"),
    (2030, "CHAT_BLOCK"),
    (2031, "KICK_OUT"),
    (2032, "KICK_OUT_"),
    (3000, "CHAT"),
    (3001, "ROTATION_CHANGE"),
    (3002, "ROOM_END"),
];

impl RoomEventKind {
    /// The event's code on the wire.
    pub fn code(&self) -> i32 {
        use RoomEventKind::*;
        match self {
            RoomInfoChange { .. } => 1000,
            GameInfoChange { .. } => 1001,
            MikeInfoChange => 1002,
            ControlChange { .. } => 1003,
            RoomEnter { .. } => 1004,
            RoomLeave { .. } => 1005,
            MikeBlockTmp { .. } => 1006,
            Block { .. } => 1007,
            Unblock { .. } => 1008,
            WelcomeMessageChange { .. } => 1009,
            Gift { .. } => 1010,
            MikeQueueTop => 2000,
            MikeQueueRemove => 2001,
            MikeQueueCancel => 2002,
            MikeUp { .. } => 2010,
            MikeDown => 2011,
            MikeBlock { .. } => 2012,
            MikeDownAndControlOff => 2014,
            MikeUpInvite { .. } => 2015,
            InviteDeny { .. } => 2016,
            ControlRequest { .. } => 2020,
            ControlOn => 2021,
            ControlDeny => 2022,
            ControlReturn { .. } => 2023,
            ControlOff => 2024,
            ControlOnInvite { .. } => 2025,
            ChatBlock { .. } => 2030,
            KickOut => 2031,
            KickOutBlack => 2032,
            Chat { .. } => 3000,
            RotationChange(_) => 3001,
            RoomEnd { .. } => 3002,
        }
    }

    /// The spec's name of the code (the event's `msg` when it has no text of its own).
    pub fn name(&self) -> &'static str {
        use RoomEventKind::*;
        match self {
            RoomInfoChange { .. } => "ROOM_INFO_CHANGE",
            GameInfoChange { .. } => "GAME_INFO_CHANGE",
            MikeInfoChange => "MIKE_INFO_CHANGE",
            ControlChange { .. } => "CONTROL_CHANGE",
            RoomEnter { .. } => "ROOM_ENTER",
            RoomLeave { .. } => "ROOM_LEAVE",
            MikeBlockTmp { .. } => "MIKE_BLOCK_TMP",
            Block { .. } => "BLOCK",
            Unblock { .. } => "UNBLOCK",
            WelcomeMessageChange { .. } => "WELCOME_MESSAGE_CHANGE",
            Gift { .. } => "GIFT_MESSAGE",
            MikeQueueTop => "MIKE_QUEUE_TOP",
            MikeQueueRemove => "MIKE_QUEUE_REMOVE",
            MikeQueueCancel => "MIKE_QUEUE_CANCEL",
            MikeUp { .. } => "MIKE_UP",
            MikeDown => "MIKE_DOWN",
            MikeBlock { on: true } => "MIKE_BLOCK",
            MikeBlock { on: false } => "MIKE_BLOCK_OFF",
            MikeDownAndControlOff => "MIKE_DOWN_AND_CONTROL_OFF",
            MikeUpInvite { .. } => "MIKE_UP_INVITE",
            InviteDeny { .. } => "INVITE_DENY",
            ControlRequest { .. } => "CONTROL_REQUEST",
            ControlOn => "CONTROL_ON",
            ControlDeny => "CONTROL_DENY",
            ControlReturn { .. } => "CONTROL_RETURN",
            ControlOff => "CONTROL_OFF",
            ControlOnInvite { .. } => "CONTROL_ON_INVITE",
            ChatBlock { .. } => "CHAT_BLOCK",
            KickOut => "KICK_OUT",
            KickOutBlack => "KICK_OUT_",
            Chat { .. } => "CHAT",
            RotationChange(_) => "ROTATION_CHANGE",
            RoomEnd { .. } => "ROOM_END",
        }
    }

    /// The user-facing text the spec gives for the event (its `msg`), else "".
    pub fn text(&self) -> &'static str {
        use RoomEventKind::*;
        match self {
            MikeQueueRemove => "您已被移除排麦",
            MikeQueueTop => "您已被置顶排麦",
            MikeQueueCancel => "您的排麦已被取消",
            MikeUp { .. } => "您已上麦",
            MikeDown | MikeDownAndControlOff => "您已被抱下麦",
            MikeBlock { on: true } => "您已被禁麦",
            MikeBlock { on: false } => "您已被解除禁麦",
            MikeUpInvite { .. } => "邀请你上麦，快来一起玩吧~",
            InviteDeny { .. } => "对方拒绝了你的邀请",
            ControlOff => "当前用户被收回控制权",
            ControlDeny => "房主拒绝了你的控制申请",
            ControlOnInvite { .. } => "邀请你一起加入游戏，快来体验吧~",
            ChatBlock { on: true } => "您已被禁言",
            ChatBlock { on: false } => "您已被解除禁言",
            KickOut | KickOutBlack => "你已被移出该房间",
            _ => "",
        }
    }

    /// Whether the barrage history keeps it (chat, enter, gift).
    pub fn is_barrage(&self) -> bool {
        matches!(
            self,
            RoomEventKind::Chat { .. } | RoomEventKind::RoomEnter { .. } | RoomEventKind::Gift { .. }
        )
    }
}

/// A busy room's batch as its watchers receive it: every entry of the batch becomes one
/// ROOM_ENTER (the first entrant, with how many others entered) and every leave one ROOM_LEAVE,
/// each at the place of the first; every other event stays as it is. The batch still covers all
/// its offsets (the frame says which), so nobody sees a gap. Entries and leaves are what a busy
/// room is mostly made of (a churn of 50 a second in a room of 19,000 is 100 events a second to
/// each viewer, against 20 chat messages), and a viewer needs only the barrage line and one
/// reload of the online list per batch.
pub fn merge_presence(events: Vec<RoomEvent>) -> Vec<RoomEvent> {
    let mut out: Vec<RoomEvent> = Vec::with_capacity(events.len());
    let (mut enter, mut leave) = (None::<usize>, None::<usize>);
    for e in events {
        let to_all = e.user_ids.is_empty() && e.exclude_user_ids.is_empty();
        let (slot, more) = match &e.kind {
            RoomEventKind::RoomEnter { others, .. } if to_all => (&mut enter, *others),
            RoomEventKind::RoomLeave { others, .. } if to_all => (&mut leave, *others),
            _ => {
                out.push(e);
                continue;
            }
        };
        match *slot {
            Some(i) => {
                if let RoomEventKind::RoomEnter { others, .. } | RoomEventKind::RoomLeave { others, .. } = &mut out[i].kind {
                    *others = others.saturating_add(1).saturating_add(more);
                }
            }
            None => {
                *slot = Some(out.len());
                out.push(e);
            }
        }
    }
    out
}

/// One event of a room's stream.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomEvent {
    /// Its position under the room's epoch (from 1).
    pub offset: u64,
    pub kind: RoomEventKind,
    /// Aimed at these users only (empty: everyone); the client filters.
    pub user_ids: Vec<i64>,
    /// Everyone but these.
    pub exclude_user_ids: Vec<i64>,
    /// When it happened (ms).
    pub ts_ms: i64,
}

/// The room's stream: the epoch, the next offset and the last [`LOG_CAPACITY`] events.
#[derive(Debug)]
pub struct EventLog {
    epoch: Arc<str>,
    /// The offset of the last event (0 before the first).
    last: u64,
    ring: VecDeque<RoomEvent>,
    capacity: usize,
}

/// What a returning watcher gets.
#[derive(Debug, PartialEq)]
pub enum Resume<'a> {
    /// The missed events (possibly none), oldest first.
    Missed(Vec<&'a RoomEvent>),
    /// Another epoch, or a position the ring no longer holds: refetch and watch from the
    /// current position.
    Reset,
}

impl EventLog {
    pub fn new(epoch: Arc<str>) -> EventLog {
        EventLog::with_capacity(epoch, LOG_CAPACITY)
    }

    pub fn with_capacity(epoch: Arc<str>, capacity: usize) -> EventLog {
        EventLog {
            epoch,
            last: 0,
            ring: VecDeque::with_capacity(capacity.min(64)),
            capacity: capacity.max(1),
        }
    }

    pub fn epoch(&self) -> &Arc<str> {
        &self.epoch
    }

    /// The offset of the last event (0 before any).
    pub fn offset(&self) -> u64 {
        self.last
    }

    /// Appends an event under the next offset; returns it.
    pub fn push(&mut self, kind: RoomEventKind, user_ids: Vec<i64>, exclude_user_ids: Vec<i64>, ts_ms: i64) -> &RoomEvent {
        self.last += 1;
        if self.ring.len() == self.capacity {
            self.ring.pop_front();
        }
        self.ring.push_back(RoomEvent {
            offset: self.last,
            kind,
            user_ids,
            exclude_user_ids,
            ts_ms,
        });
        self.ring.back().expect("just pushed")
    }

    /// The events after `after` under `epoch`, when the ring still holds them all.
    pub fn since(&self, epoch: &str, after: u64) -> Resume<'_> {
        if epoch != &*self.epoch || after > self.last {
            return Resume::Reset;
        }
        if after == self.last {
            return Resume::Missed(vec![]);
        }
        let first = self.ring.front().map_or(self.last + 1, |e| e.offset);
        // The next event the watcher needs is after + 1; the ring must still hold it.
        if after + 1 < first {
            return Resume::Reset;
        }
        let skip = (after + 1 - first) as usize;
        Resume::Missed(self.ring.iter().skip(skip).collect())
    }

    /// The events from `from_offset` on (for a batch about to be flushed).
    pub fn tail(&self, from_offset: u64) -> impl Iterator<Item = &RoomEvent> {
        let first = self.ring.front().map_or(self.last + 1, |e| e.offset);
        let skip = from_offset.saturating_sub(first) as usize;
        self.ring.iter().skip(skip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every kind's code is in the list, under its name (MIKE_BLOCK's lifting aside), and the
    // list names each code once. A new kind goes in `every_kind` (its match has no wildcard).
    #[test]
    fn every_code_is_listed_once() {
        fn every_kind() -> Vec<RoomEventKind> {
            let user = RoomUser {
                uid: 1,
                nickname: "".into(),
                avatar: "".into(),
                status: 0,
                member: None,
            };
            use RoomEventKind::*;
            let all = vec![
                RoomInfoChange {
                    room_name: String::new(),
                    mode: 2,
                    is_show: true,
                    has_password: false,
                },
                GameInfoChange { status: 0 },
                MikeInfoChange,
                ControlChange { controller: 1 },
                RoomEnter {
                    user: user.clone(),
                    others: 0,
                },
                RoomLeave { uid: 1, others: 0 },
                MikeBlockTmp { uid: 1 },
                Block { uid: 1 },
                Unblock { uid: 1 },
                WelcomeMessageChange { text: String::new() },
                Gift {
                    giver: user.clone(),
                    receiver: user.clone(),
                    gift_image: String::new(),
                    gift_num: 1,
                },
                MikeQueueTop,
                MikeQueueRemove,
                MikeQueueCancel,
                MikeUp { seat: 1 },
                MikeDown,
                MikeBlock { on: true },
                MikeDownAndControlOff,
                MikeUpInvite { host: user.clone() },
                InviteDeny { user: user.clone() },
                ControlRequest { user: user.clone() },
                ControlOn,
                ControlDeny,
                ControlReturn {
                    main: true,
                    user: user.clone(),
                },
                ControlOff,
                ControlOnInvite { host: user.clone() },
                ChatBlock { on: true },
                KickOut,
                KickOutBlack,
                Chat {
                    user,
                    text: String::new(),
                    face_id: None,
                },
                RotationChange(RotationView {
                    on: false,
                    turn_secs: 0,
                    current: None,
                    turn_ends_at_ms: None,
                    queue: vec![],
                }),
                RoomEnd { room_serial: 1 },
            ];
            // no wildcard: a kind added to the enum must be added above
            for k in &all {
                match k {
                    RoomInfoChange { .. }
                    | GameInfoChange { .. }
                    | MikeInfoChange
                    | ControlChange { .. }
                    | RoomEnter { .. }
                    | RoomLeave { .. }
                    | MikeBlockTmp { .. }
                    | Block { .. }
                    | Unblock { .. }
                    | WelcomeMessageChange { .. }
                    | Gift { .. }
                    | MikeQueueTop
                    | MikeQueueRemove
                    | MikeQueueCancel
                    | MikeUp { .. }
                    | MikeDown
                    | MikeBlock { .. }
                    | MikeDownAndControlOff
                    | MikeUpInvite { .. }
                    | InviteDeny { .. }
                    | ControlRequest { .. }
                    | ControlOn
                    | ControlDeny
                    | ControlReturn { .. }
                    | ControlOff
                    | ControlOnInvite { .. }
                    | ChatBlock { .. }
                    | KickOut
                    | KickOutBlack
                    | Chat { .. }
                    | RotationChange(_)
                    | RoomEnd { .. } => {}
                }
            }
            all
        }
        let kinds = every_kind();
        assert_eq!(kinds.len(), EVENT_CODES.len());
        for k in &kinds {
            assert!(EVENT_CODES.contains(&(k.code(), k.name())), "{k:?}");
        }
        let mut codes: Vec<i32> = EVENT_CODES.iter().map(|(c, _)| *c).collect();
        codes.dedup();
        assert_eq!(codes.len(), EVENT_CODES.len());
    }

    fn log(cap: usize, n: u64) -> EventLog {
        let mut l = EventLog::with_capacity("e1".into(), cap);
        for i in 0..n {
            l.push(RoomEventKind::GameInfoChange { status: i as i32 }, vec![], vec![], 0);
        }
        l
    }

    fn offsets(r: Resume<'_>) -> Option<Vec<u64>> {
        match r {
            Resume::Missed(v) => Some(v.iter().map(|e| e.offset).collect()),
            Resume::Reset => None,
        }
    }

    #[test]
    fn offsets_count_from_one() {
        let l = log(4, 3);
        assert_eq!(l.offset(), 3);
        assert_eq!(offsets(l.since("e1", 0)), Some(vec![1, 2, 3]));
    }

    // Resume: exactly the missed events while the ring holds them; a gap, a future offset or
    // another epoch is a reset.
    #[test]
    fn resume_and_gaps() {
        let l = log(4, 10); // holds 7..=10
        let check = |epoch: &str, after: u64, want: Option<Vec<u64>>| assert_eq!(offsets(l.since(epoch, after)), want, "{epoch} {after}");
        check("e1", 10, Some(vec![]));
        check("e1", 9, Some(vec![10]));
        check("e1", 6, Some(vec![7, 8, 9, 10]));
        check("e1", 5, None);
        check("e1", 0, None);
        check("e1", 11, None);
        check("e0", 9, None);
        assert_eq!(l.tail(9).map(|e| e.offset).collect::<Vec<_>>(), vec![9, 10]);
        assert_eq!(l.tail(1).count(), 4);
    }

    fn ev(offset: u64, kind: RoomEventKind, user_ids: Vec<i64>) -> RoomEvent {
        RoomEvent {
            offset,
            kind,
            user_ids,
            exclude_user_ids: vec![],
            ts_ms: 0,
        }
    }

    fn enter(uid: i64) -> RoomEventKind {
        RoomEventKind::RoomEnter {
            user: RoomUser {
                uid,
                nickname: "n".into(),
                avatar: "".into(),
                status: 0,
                member: None,
            },
            others: 0,
        }
    }

    // Entries become one ROOM_ENTER at the first one's place (the others counted), leaves one
    // ROOM_LEAVE; chat and targeted events stay, in order.
    #[test]
    fn presence_merges_per_batch() {
        let chat = RoomEventKind::GameInfoChange { status: 5 };
        let leave = |uid| RoomEventKind::RoomLeave { uid, others: 0 };
        let merged = merge_presence(vec![
            ev(1, chat.clone(), vec![]),
            ev(2, enter(7), vec![]),
            ev(3, leave(8), vec![]),
            ev(4, enter(9), vec![]),
            ev(5, RoomEventKind::KickOut, vec![9]),
            ev(6, leave(10), vec![]),
            ev(7, enter(11), vec![]),
            ev(8, chat.clone(), vec![]),
        ]);
        let got: Vec<(u64, i32)> = merged.iter().map(|e| (e.offset, e.kind.code())).collect();
        assert_eq!(got, [(1, 1001), (2, 1004), (3, 1005), (5, 2031), (8, 1001)]);
        assert!(matches!(&merged[1].kind, RoomEventKind::RoomEnter { user, others: 2 } if user.uid == 7));
        assert!(matches!(merged[2].kind, RoomEventKind::RoomLeave { uid: 8, others: 1 }));
        // A merged event merged again keeps the count.
        let again = merge_presence(vec![merged[1].clone(), ev(9, enter(12), vec![])]);
        assert!(matches!(again[0].kind, RoomEventKind::RoomEnter { others: 3, .. }));
        // Nothing to merge: the same events.
        let plain = vec![ev(1, chat.clone(), vec![]), ev(2, enter(1), vec![])];
        assert_eq!(merge_presence(plain.clone()), plain);
    }

    #[test]
    fn an_empty_log_resumes_from_zero() {
        let l = log(4, 0);
        assert_eq!(offsets(l.since("e1", 0)), Some(vec![]));
        assert_eq!(offsets(l.since("e1", 1)), None);
    }
}
