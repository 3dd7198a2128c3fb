//! Recently played games and favourites (social.md §2.4, §4.11, §7 "Catalogue, recent and
//! favourites"): a player's games started lately (recorded by the session actor when a session
//! of theirs starts to play, see `game_session.rs`), cleared on request; the games they
//! collected; the catalogue's game sections; and the catalogue's `collected` flag for the caller.

use crate::catalogue::Catalogue;
use storage::model::Game;

use crate::error::{DomainError, DomainResult};

/// The longest section key read; a longer one names no section.
const MAX_SECTION_KEY: usize = 64;

impl Catalogue {
    /// The caller's recently played games, most recent first, at most `limit`.
    pub async fn played_games(&self, uid: i64, limit: u32) -> DomainResult<Vec<Game>> {
        self.ctx.db(move |s| s.collect.played(uid, limit)).await
    }

    /// Forgets the caller's recently played games (another user's stay).
    pub async fn clear_played(&self, uid: i64) -> DomainResult<u64> {
        self.ctx.db(move |s| s.collect.clear_played(uid)).await
    }

    /// Collects a game; collecting it again changes nothing. A game that does not exist or is
    /// deleted is refused (`UnknownGame`). True when it was not collected before.
    pub async fn collect_game(&self, uid: i64, game_id: i64) -> DomainResult<bool> {
        let now = self.ctx.clock.now_ms();
        match self.ctx.db_raw(move |s| s.collect.collect(uid, game_id, now)).await? {
            Ok(added) => Ok(added),
            Err(storage::Error::NotFound) => Err(DomainError::UnknownGame),
            Err(e) => Err(e.into()),
        }
    }

    /// Takes a game out of the caller's favourites (a game not collected: nothing changes).
    pub async fn uncollect_game(&self, uid: i64, game_id: i64) -> DomainResult<bool> {
        self.ctx.db(move |s| s.collect.uncollect(uid, game_id)).await
    }

    /// The caller's favourites, the latest first: `limit` from `offset`, and how many there are.
    pub async fn collected_games(&self, uid: i64, offset: u64, limit: u32) -> DomainResult<(Vec<Game>, u64)> {
        self.ctx.db(move |s| s.collect.collected(uid, offset, limit)).await
    }

    /// How many games the caller has collected (the card panel's `collects`).
    pub async fn collect_count(&self, uid: i64) -> DomainResult<u64> {
        Ok(self.collected_games(uid, 0, 0).await?.1)
    }

    /// Which of these games the caller has collected (the catalogue's `collected` flag); none
    /// for a guest.
    pub async fn collected_among(&self, uid: Option<i64>, game_ids: Vec<i64>) -> DomainResult<Vec<i64>> {
        match uid {
            Some(uid) if !game_ids.is_empty() => self.ctx.db(move |s| s.collect.collected_among(uid, &game_ids)).await,
            _ => Ok(Vec::new()),
        }
    }

    /// The games of a section, in its order, at most `limit`; an unknown key has none.
    pub async fn section_games(&self, section_key: String, limit: u32) -> DomainResult<Vec<Game>> {
        if section_key.chars().count() > MAX_SECTION_KEY {
            return Ok(Vec::new());
        }
        self.ctx.db(move |s| s.collect.section_games(&section_key, limit)).await
    }

    /// A catalogue page with the caller's recently played games first (`played_first`).
    pub async fn games_played_first(&self, uid: i64, keyword: Option<String>, page: u32, page_size: u32) -> DomainResult<(Vec<Game>, u64)> {
        self.ctx
            .db(move |s| s.collect.list_played_first(uid, keyword.as_deref(), page, page_size))
            .await
    }
}
