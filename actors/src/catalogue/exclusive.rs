//! Exclusive play time (commerce.md §2.1 `/game/section`, §2.13, §4.12): a type-4 time card is
//! tied to a game category and pays the play minutes of that category's games only (storage's
//! `charge_minute` takes them before the free and paid balances); the games it can be used for.

use crate::catalogue::Catalogue;
use storage::Game;

use crate::error::DomainResult;

/// One of the user's exclusive cards: its category and the minutes it has left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExclusiveCard {
    pub card_id: i64,
    pub game_category_id: i64,
    pub minutes_left: i64,
}

/// Whether an exclusive card of `card_category` pays for a game of `game_category` (None: the
/// game has no category): only for a game of its own category.
pub fn exclusive_card_fits(card_category: i64, game_category: Option<i64>) -> bool {
    game_category == Some(card_category)
}

impl Catalogue {
    /// The listed games of a game category, in catalogue order (`/game/section`).
    pub async fn games_of_category(&self, game_category_id: i64) -> DomainResult<Vec<Game>> {
        self.ctx
            .db(move |s| {
                let ids = s.games.games_of_category(game_category_id)?;
                let mut games = Vec::with_capacity(ids.len());
                for id in ids {
                    if let Some(g) = s.games.get(id)? {
                        games.push(g);
                    }
                }
                Ok(games)
            })
            .await
    }

    /// The minutes of the user's usable exclusive cards that pay for this game (of its category).
    pub async fn exclusive_minutes_for(&self, uid: i64, game_id: i64) -> DomainResult<i64> {
        let category = self.ctx.db(move |s| s.games.category_of(game_id)).await?;
        let cards = self.exclusive_cards(uid).await?;
        Ok(cards
            .iter()
            .filter(|c| exclusive_card_fits(c.game_category_id, category))
            .map(|c| c.minutes_left)
            .sum())
    }

    /// The caller's exclusive cards with their categories and minutes left, by card id.
    pub async fn exclusive_cards(&self, uid: i64) -> DomainResult<Vec<ExclusiveCard>> {
        let now = self.ctx.clock.now_ms();
        let rows = self.ctx.db(move |s| s.assets.exclusive_cards(uid, now)).await?;
        Ok(rows
            .into_iter()
            .map(|(card_id, game_category_id, minutes_left)| ExclusiveCard {
                card_id,
                game_category_id,
                minutes_left,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::exclusive_card_fits;

    #[test]
    fn an_exclusive_card_fits_only_its_category() {
        assert!(exclusive_card_fits(1, Some(1)));
        assert!(!exclusive_card_fits(1, Some(2)));
        assert!(!exclusive_card_fits(1, None));
    }
}
