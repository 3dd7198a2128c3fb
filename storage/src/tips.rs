//! Tips an operator writes (core-platform.md §4.7, §7.4): the game tip a game's start shows
//! before it (`startTip`), and the loading tips the play page rotates while the stream connects
//! (`loadTip`).
//!
//! A game has at most one tip: its text and, optionally, an ad (`tipExt`, the ad's
//! `target_title`); setting a game's tip replaces it, and an empty text removes it. The loading
//! tips are one ordered list, replaced whole.

use crate::Result;

/// A game's tip as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameTip {
    pub game_id: i64,
    /// The text the '温馨提示' dialog shows.
    pub tip: String,
    /// The ad the dialog shows under the text (`tipExt`), if any.
    pub ad_id: Option<i64>,
    /// ms; when the operator last set it.
    pub updated_at: i64,
}

pub trait TipRepo: Send + Sync {
    /// The tip of a game, None when it has none.
    fn game_tip(&self, game_id: i64) -> Result<Option<GameTip>>;
    /// Replaces the game's tip; an empty `tip` removes it. An `ad_id` naming no ad is
    /// `Error::Conflict` and nothing changes.
    fn set_game_tip(&self, tip: &GameTip) -> Result<()>;
    /// The loading tips, in order.
    fn loading_tips(&self) -> Result<Vec<String>>;
    /// Replaces the loading tips (in this order), in one transaction.
    fn set_loading_tips(&self, tips: &[String]) -> Result<()>;
}
