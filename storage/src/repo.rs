//! The repository traits, one per aggregate. They are synchronous and may block on I/O: async
//! callers run them in `spawn_blocking`. Every backend must pass `crate::conformance`.
//!
//! References between records (a login's or a game session's `uid`, a game session's `game_id`)
//! are the caller's to keep right; a backend that can check them reports a missing row as
//! [`Error::Conflict`](crate::Error::Conflict).

use crate::model::{Game, GameSessionRecord, LoginSession, NewGameSession, Node, User};
use crate::Result;

/// Player accounts.
pub trait UserRepo: Send + Sync {
    /// Returns the user with this phone, creating it (nickname given) if absent; bool = created now.
    /// A new user has an empty avatar and no play time. Concurrent calls for one phone create one user.
    fn get_or_create_by_phone(
        &self,
        cellphone: &str,
        nickname: &str,
        now: i64,
    ) -> Result<(User, bool)>;
    fn get(&self, uid: i64) -> Result<Option<User>>;
}

/// Signed-in browsers.
pub trait LoginSessionRepo: Send + Sync {
    /// Conflict on a duplicate token.
    fn insert(&self, s: &LoginSession) -> Result<()>;
    /// None if unknown or expired (`now >= expires_at`).
    fn get(&self, token: &str, now: i64) -> Result<Option<LoginSession>>;
    /// Deleting an unknown token succeeds.
    fn delete(&self, token: &str) -> Result<()>;
    /// Deletes the sessions expired at `now`; returns how many.
    fn delete_expired(&self, now: i64) -> Result<u64>;
}

/// The game catalogue.
pub trait GameRepo: Send + Sync {
    /// Not-deleted games whose name contains keyword (case-insensitive for ASCII letters; the
    /// keyword is trimmed, and None or "" = all), ordered by sort_order then id; page is 1-based
    /// (0 counts as 1). Returns (page items, total matching).
    fn list(&self, keyword: Option<&str>, page: u32, page_size: u32) -> Result<(Vec<Game>, u64)>;
    /// Deleted games are still returned (callers decide).
    fn get(&self, id: i64) -> Result<Option<Game>>;
    /// Inserts or replaces each game by id, all or nothing.
    fn upsert_all(&self, games: &[Game]) -> Result<()>;
    /// All stored games, deleted ones included.
    fn count(&self) -> Result<u64>;
}

/// Server regions.
pub trait NodeRepo: Send + Sync {
    /// Ordered by id.
    fn list(&self) -> Result<Vec<Node>>;
    fn get(&self, id: i64) -> Result<Option<Node>>;
    /// Inserts or replaces the node by id.
    fn upsert(&self, node: &Node) -> Result<()>;
}

/// Game sessions, open and ended.
pub trait GameSessionRepo: Send + Sync {
    /// Stores a session in status 1 (QUEUE) under a new, never reused, increasing id.
    fn insert(&self, s: &NewGameSession) -> Result<GameSessionRecord>;
    /// Replaces every field but the id; NotFound if the id is unknown.
    fn update(&self, r: &GameSessionRecord) -> Result<()>;
    fn get(&self, id: i64) -> Result<Option<GameSessionRecord>>;
    /// The user's sessions, newest first (by created_at, then id), at most `limit`.
    fn list_by_user(&self, uid: i64, limit: u32) -> Result<Vec<GameSessionRecord>>;
    /// Sessions with `ended_at` None, by id.
    fn list_open(&self) -> Result<Vec<GameSessionRecord>>;
}
