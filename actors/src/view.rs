//! What a player sees of their game, and what is pushed to their browser.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// Session status codes of core-platform.md §4.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    Queue = 1,
    Ready = 3,
    Connecting = 4,
    Playing = 5,
}

/// Why a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// The ready countdown lapsed without a confirm.
    Missed,
    /// The player gave up the ready machine (cancelConfirm).
    GaveUp,
    /// The player left the queue (cancelQue).
    Cancelled,
    /// The player ended the game (over).
    Over,
    /// The player's play time ran out.
    TimeUp,
    /// The server stopped while the session was live.
    ServerRestart,
    /// The game on the session's machine ended on its own (exited, crashed, could not start).
    GameExited,
    /// The game host of the session's machine stopped answering or went away.
    HostLost,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Missed => "missed",
            EndReason::GaveUp => "gave_up",
            EndReason::Cancelled => "cancelled",
            EndReason::Over => "over",
            EndReason::TimeUp => "time_up",
            EndReason::ServerRestart => "server_restart",
            EndReason::GameExited => "game_exited",
            EndReason::HostLost => "host_lost",
        }
    }

    /// Whether the server ended the session (not the player, nor their play time): the player
    /// is told with a notice (130124).
    pub fn by_server(self) -> bool {
        matches!(self, EndReason::ServerRestart | EndReason::GameExited | EndReason::HostLost)
    }
}

/// A live session as its player sees it. The names are shared with the queue (a rank push
/// copies no string).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionView {
    pub id: i64,
    pub game_id: i64,
    pub game_name: Arc<str>,
    pub game_logo: Arc<str>,
    pub status: Status,
    /// The device that started the session ("this client" is the same device).
    pub device_no: crate::small_str::SmallStr,
    pub node_id: i64,
    pub node_name: Arc<str>,
    pub connect_countdown_secs: u64,
    pub queued_at_ms: i64,
    pub ready_at_ms: Option<i64>,
    pub playing_at_ms: Option<i64>,
    /// When the game last took its controller's input (a game host's report); None before the
    /// first. A session PLAYING without input for `hang_after_secs` is hanging.
    pub last_input_ms: Option<i64>,
    /// The queue lane (core-platform.md §4.6); 0 is the normal lane.
    pub is_fast: i32,
    /// Exact rank while in QUEUE, 1 = next to get a machine; 0 otherwise.
    pub sort: u64,
    /// How many times the platform put the session back in the queue because its machine was
    /// lost while READY: a state with more is newer than any with fewer (the one move back in
    /// status a client must not take for a stale answer).
    pub requeues: u32,
    /// Where the game's stream is served, when the machine is a game host's slot (None while
    /// queued and on the static machines of the configuration).
    pub stream: Option<Arc<StreamTarget>>,
}

/// The player's game state: what floatBall answers and USER_GAME_STATUS_CHANGE carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum GameState {
    /// A session is live.
    Online(SessionView),
    /// The session just ended.
    Ended { id: i64, game_id: i64, reason: EndReason },
    /// No session.
    None,
}

/// Something pushed to every socket of one user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Push {
    /// USER_GAME_STATUS_CHANGE (130122) with the new state.
    GameStatus(GameState),
    /// The login session behind the socket ended (logout elsewhere): the socket closes.
    Authorization { status: Arc<str> },
    /// A notice of core-platform.md §4.11; the facade renders its data.
    Notice(Notice),
    /// What the player holds changed (a purchase, a grant): the client re-reads it
    /// (commerce.md §4.14).
    Changed(Changed),
    /// NEW_MESSAGE: a message reached the message centre (social.md §4.10); the header dot
    /// re-reads the unread counts.
    NewMessage,
}

/// What to re-read after a change of holdings (commerce.md §4.14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Changed {
    /// BALANCE_NOTIFICATION: the balances (coins, yoodo, play time, cards).
    Balance,
    /// MEMBER_INFO_NOTIFICATION: the member info and the queue data.
    MemberInfo,
    /// USER_INFO: the user (nickname, avatar) changed; re-read it.
    UserInfo,
}

/// The notices of core-platform.md §4.11 the domain sends, typed: the facade alone turns them
/// into the wire's code, name and JSON data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Notice {
    /// USER_GAME_TIME_NOT_ENOUGH (130123): under 10 minutes of play time left while playing.
    TimeShort { game_id: i64, left_minutes: i64 },
    /// USER_GAME_END (130124): the server ended the session.
    GameEnd { game_id: i64, reason: EndReason },
    /// USER_TIME_END (130125): play time ran out; the game ends after `science_duration_secs`
    /// (the time-up dialog's countdown) unless play time is added.
    TimeUp { game_id: i64, science_duration_secs: u64 },
    /// USER_RELAY_END (130447): the room the user is in (or hosts) ended; its live summary is
    /// by `room_serial`.
    RelayEnd { dd_rid: i64, room_serial: i64 },
    /// CHILDREN_LIMIT (130135): a minor's play window is closing; the game ends (core-platform.md
    /// §4.11: the limit alert with `msg` and `remark`).
    ChildrenLimit { msg: Arc<str>, remark: Arc<str> },
}

impl Notice {
    /// One notice of each kind (tests of the lists that must name them all).
    pub fn every_kind() -> Vec<Notice> {
        let all = vec![
            Notice::TimeShort {
                game_id: 1,
                left_minutes: 9,
            },
            Notice::GameEnd {
                game_id: 1,
                reason: EndReason::HostLost,
            },
            Notice::TimeUp {
                game_id: 1,
                science_duration_secs: 60,
            },
            Notice::RelayEnd { dd_rid: 1, room_serial: 1 },
            Notice::ChildrenLimit {
                msg: "".into(),
                remark: "".into(),
            },
        ];
        for n in &all {
            // no wildcard: a notice added to the enum must be added above
            match n {
                Notice::TimeShort { .. }
                | Notice::GameEnd { .. }
                | Notice::TimeUp { .. }
                | Notice::RelayEnd { .. }
                | Notice::ChildrenLimit { .. } => {}
            }
        }
        all
    }

    /// The notification code.
    pub fn code(&self) -> i32 {
        match self {
            Notice::TimeShort { .. } => USER_GAME_TIME_NOT_ENOUGH,
            Notice::GameEnd { .. } => USER_GAME_END,
            Notice::TimeUp { .. } => USER_TIME_END,
            Notice::RelayEnd { .. } => USER_RELAY_END,
            Notice::ChildrenLimit { .. } => CHILDREN_LIMIT,
        }
    }

    /// The spec's name of the code.
    pub fn name(&self) -> &'static str {
        match self {
            Notice::TimeShort { .. } => "USER_GAME_TIME_NOT_ENOUGH",
            Notice::GameEnd { .. } => "USER_GAME_END",
            Notice::TimeUp { .. } => "USER_TIME_END",
            Notice::RelayEnd { .. } => "USER_RELAY_END",
            Notice::ChildrenLimit { .. } => "CHILDREN_LIMIT",
        }
    }
}

/// Every notification code of core-platform.md §4.11 and social.md §4.8 the client knows, and
/// its name; the client's list is generated from this one (the facade's `x-push-codes`). The
/// ones this server sends are USER_GAME_STATUS_CHANGE (`Push::GameStatus`) and [`Notice`]'s;
/// the others a client must still understand from the spec's servers.
pub const NOTIFICATION_CODES: &[(i32, &str)] = &[
    (USER_GAME_STATUS_CHANGE, "USER_GAME_STATUS_CHANGE"),
    (USER_GAME_TIME_NOT_ENOUGH, "USER_GAME_TIME_NOT_ENOUGH"),
    (USER_GAME_END, "USER_GAME_END"),
    (USER_TIME_END, "USER_TIME_END"),
    (130132, "GAME_OFFLINE_SOON"),
    (130133, "LIVE_CONTROL_OFFLINE_SOON"),
    (130134, "LIVE_OFFLINE"),
    (CHILDREN_LIMIT, "CHILDREN_LIMIT"),
    (130140, "GAME_HANG_END"),
    (USER_RELAY_END, "USER_RELAY_END"),
    (130467, "LIGHT_PACKAGE_END_SOON"),
];

/// USER_GAME_STATUS_CHANGE: the player's game state changed (its data is the floatBall answer).
pub const USER_GAME_STATUS_CHANGE: i32 = 130122;
/// USER_GAME_TIME_NOT_ENOUGH: under 10 minutes of play time left while playing.
pub const USER_GAME_TIME_NOT_ENOUGH: i32 = 130123;
/// CHILDREN_LIMIT: a minor's play window closes.
pub const CHILDREN_LIMIT: i32 = 130135;
/// USER_GAME_END: the server ended the session.
pub const USER_GAME_END: i32 = 130124;
/// USER_TIME_END: play time ran out; the session ends.
pub const USER_TIME_END: i32 = 130125;

/// USER_RELAY_END: the room ended.
pub const USER_RELAY_END: i32 = 130447;

/// Where a session's stream is served: the facade signs a ticket for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamTarget {
    pub node_id: i64,
    pub host: Arc<str>,
    pub slot: u32,
    pub stream_url: Arc<str>,
}

/// The logo URL of a game (the covers are generated by the facade).
pub fn game_logo(game: &storage::Game) -> String {
    format!("/covers/{}/logo.svg", game.id)
}
