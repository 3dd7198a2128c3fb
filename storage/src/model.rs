//! The plain records the repositories store. Times are unix milliseconds chosen by the caller;
//! wire formats are the facade's business, so nothing here serializes.

/// A player account, found by phone number.
#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub uid: i64,
    pub cellphone: String,
    pub nickname: String,
    /// Avatar URL; empty until the user sets one.
    pub avatar: String,
    pub created_at: i64,
    /// Free play time left, in minutes.
    pub play_time_free: i64,
    /// Bought play time left, in minutes.
    pub play_time_paid: i64,
}

/// A signed-in browser: the token is the session cookie, the CSRF token guards its writes.
#[derive(Debug, Clone, PartialEq)]
pub struct LoginSession {
    pub token: String,
    pub uid: i64,
    pub csrf_token: String,
    pub device_no: String,
    pub created_at: i64,
    /// The session is gone from `now >= expires_at` on.
    pub expires_at: i64,
}

/// A catalogue entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub id: i64,
    pub name: String,
    pub description: String,
    /// 0 coming soon, 1 on the shelf, 2 off the shelf, 10 not supported on this client.
    pub status: i32,
    /// False takes an on-shelf game off the shelf without changing its status.
    pub available: bool,
    /// Deleted games never appear in listings but can still be fetched by id.
    pub deleted: bool,
    /// The membership needed to play: None, "vip", "vvip" or "hvip".
    pub member_type: Option<String>,
    /// "steam", "epic", "wegame", "uplay", "origin", "battlenet" or "mobile".
    pub platform: String,
    pub chinese: bool,
    pub controller: bool,
    pub instant_play: bool,
    /// 0..360, the main colour of the generated cover art.
    pub hue: i32,
    /// Listing position; ties are broken by id.
    pub sort_order: i32,
}

/// A server region a game can run in.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub id: i64,
    pub name: String,
    /// 1 = selectable; anything else means under maintenance.
    pub status: i32,
}

/// What a caller knows when a player starts a game; storage assigns the id and the QUEUE status.
#[derive(Debug, Clone, PartialEq)]
pub struct NewGameSession {
    pub uid: i64,
    pub game_id: i64,
    pub node_id: i64,
    pub device_no: String,
    pub created_at: i64,
}

/// One run of a game by a player, from queueing to its end.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSessionRecord {
    pub id: i64,
    pub uid: i64,
    pub game_id: i64,
    pub node_id: i64,
    pub device_no: String,
    /// 1 QUEUE, 3 READY, 4 CONNECTING, 5 PLAYING, 0 ENDED.
    pub status: i32,
    /// The machine the game runs on, once one is assigned.
    pub machine_id: Option<String>,
    pub created_at: i64,
    pub ready_at: Option<i64>,
    pub playing_at: Option<i64>,
    /// None while the session is open.
    pub ended_at: Option<i64>,
    pub end_reason: Option<String>,
}
