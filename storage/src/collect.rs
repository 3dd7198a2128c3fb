//! Recently played games and favourites (social.md §2.4, §4.11), and the catalogue's game
//! sections (`/api/web/v1/section/game`).
//!
//! A player's recently played games are one row per (user, game) with the last time a session
//! of it started, at most [`PLAYED_KEPT`] a user (the oldest go); clearing removes them all.
//! Favourites are one row per (user, game), unique: collecting twice keeps the first. Only a
//! game that exists and is not deleted can be collected. Lists never show deleted games. A game
//! section is an ordered list of games under a key (`favorite_game`, seeded).

use crate::model::Game;
use crate::Result;

/// The most recently played games kept per user.
pub const PLAYED_KEPT: u32 = 100;

pub trait CollectRepo: Send + Sync {
    /// `uid` started a session of `game_id` at `at_ms`: the game becomes the most recent one
    /// (ties by time: the later call first); beyond [`PLAYED_KEPT`] the oldest are dropped.
    fn record_played(&self, uid: i64, game_id: i64, at_ms: i64) -> Result<()>;
    /// The user's recently played games that are not deleted, most recent first, at most `limit`.
    fn played(&self, uid: i64, limit: u32) -> Result<Vec<Game>>;
    /// Forgets every recently played game of the user; returns how many there were.
    fn clear_played(&self, uid: i64) -> Result<u64>;
    /// Collects a game: true when it was not collected yet, false when it was (nothing changes).
    /// A game that does not exist or is deleted is `Error::NotFound` and nothing is written.
    fn collect(&self, uid: i64, game_id: i64, at_ms: i64) -> Result<bool>;
    /// True when the game was collected (and no longer is).
    fn uncollect(&self, uid: i64, game_id: i64) -> Result<bool>;
    /// The user's collected games that are not deleted, the latest collected first: `limit` from
    /// `offset`, and how many there are.
    fn collected(&self, uid: i64, offset: u64, limit: u32) -> Result<(Vec<Game>, u64)>;
    /// Which of `game_ids` the user has collected.
    fn collected_among(&self, uid: i64, game_ids: &[i64]) -> Result<Vec<i64>>;
    /// The not-deleted games of a section, in its order, at most `limit`; an unknown key has none.
    fn section_games(&self, section_key: &str, limit: u32) -> Result<Vec<Game>>;
    /// `GameRepo::list` with the user's recently played games first (most recent first), then
    /// the others in listing order.
    fn list_played_first(&self, uid: i64, keyword: Option<&str>, page: u32, page_size: u32) -> Result<(Vec<Game>, u64)>;
}
