//! What a player sees of their game, and what is pushed to their browser.

use std::sync::Arc;

/// Session status codes of core-platform.md §4.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Queue = 1,
    Ready = 3,
    Connecting = 4,
    Playing = 5,
}

/// Why a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
        }
    }
}

/// A live session as its player sees it. The names are shared with the channel (a rank push
/// copies no string).
#[derive(Debug, Clone, PartialEq)]
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
    /// The queue lane (core-platform.md §4.6); 0 is the normal lane.
    pub is_fast: i32,
    /// Exact rank while in QUEUE, 1 = next to get a machine; 0 otherwise.
    pub sort: u64,
}

/// The player's game state: what floatBall answers and USER_GAME_STATUS_CHANGE carries.
#[derive(Debug, Clone, PartialEq)]
pub enum GameState {
    /// A session is live.
    Online(SessionView),
    /// The session just ended.
    Ended { id: i64, game_id: i64, reason: EndReason },
    /// No session.
    None,
}

/// Something pushed to every socket of one user.
#[derive(Debug, Clone, PartialEq)]
pub enum Push {
    /// USER_GAME_STATUS_CHANGE (130122) with the new state.
    GameStatus(GameState),
    /// The login session behind the socket ended (logout elsewhere): the socket closes.
    Authorization { status: &'static str },
    /// A notice of core-platform.md §4.11 (130123 time short, 130125 time up, ...), with its
    /// JSON data.
    Notice { code: i32, data: String },
}

/// USER_GAME_TIME_NOT_ENOUGH: under 10 minutes of play time left while playing.
pub const USER_GAME_TIME_NOT_ENOUGH: i32 = 130123;
/// USER_GAME_END: the server ended the session.
pub const USER_GAME_END: i32 = 130124;
/// USER_TIME_END: play time ran out; the session ends.
pub const USER_TIME_END: i32 = 130125;
