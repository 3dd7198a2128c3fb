//! The tips of the start sequence (core-platform.md §4.4 step 9, §4.7, §2.14; §7.4 `startTip`,
//! `loadTip`): a game's tip, shown in the '温馨提示' dialog before its start, and the loading
//! tips the play page rotates while the stream connects. Operators write both; what a player
//! reads is the tip with its ad (`tipExt`) while that ad runs, and the yoodo line when the game
//! is played on play time (a subscription game is played on its subscription).

use crate::play::service::Play;
use storage::ads::Ad;
use storage::model::Game;
use storage::tips::GameTip;

use crate::error::{DomainError, DomainResult};
use crate::play::holdings::{YOODO_PER_HOUR, YOODO_TEXT};

/// The longest game tip, in characters.
pub const MAX_TIP_CHARS: usize = 500;
/// The most loading tips, and the longest one in characters.
pub const MAX_LOADING_TIPS: usize = 20;
pub const MAX_LOADING_TIP_CHARS: usize = 100;

/// A game's tip as a player reads it before the start.
#[derive(Debug, Clone, PartialEq)]
pub struct StartTip {
    pub tip: String,
    /// The tip's ad, while it runs (a retired or ended ad is left out).
    pub ad: Option<Ad>,
    /// Yoodo an hour once play time has run out, and the line that shows it (`%s` the amount):
    /// for a game played on play time.
    pub yoodo: Option<(i64, &'static str)>,
}

/// Why an operator's tip was refused (the facade answers 40000).
#[derive(Debug, Clone, PartialEq)]
pub enum TipRefusal {
    /// The field named breaks its rule.
    Invalid(&'static str),
    Domain(DomainError),
}

impl From<DomainError> for TipRefusal {
    fn from(e: DomainError) -> Self {
        TipRefusal::Domain(e)
    }
}

/// Whether play of `game` costs play time (and so, once it has run out, yoodo): every game but
/// a subscription game.
pub fn charges_play_time(game: &Game, subscription_games: &[i64]) -> bool {
    !subscription_games.contains(&game.id)
}

/// The field of an operator's game tip that breaks its rule: the text at most
/// [`MAX_TIP_CHARS`] characters (empty removes the tip), an ad id positive.
pub fn game_tip_fault(tip: &str, ad_id: Option<i64>) -> Option<&'static str> {
    if tip.chars().count() > MAX_TIP_CHARS {
        return Some("tip");
    }
    if ad_id.is_some_and(|id| id <= 0) {
        return Some("adId");
    }
    None
}

/// The field of an operator's loading tips that breaks its rule: at most [`MAX_LOADING_TIPS`],
/// each 1..=[`MAX_LOADING_TIP_CHARS`] characters.
pub fn loading_tips_fault(tips: &[String]) -> Option<&'static str> {
    if tips.len() > MAX_LOADING_TIPS {
        return Some("tips");
    }
    if tips.iter().any(|t| t.is_empty() || t.chars().count() > MAX_LOADING_TIP_CHARS) {
        return Some("tip");
    }
    None
}

/// What a player reads of a stored tip at `now`.
pub fn start_tip(tip: GameTip, ad: Option<Ad>, game: &Game, subscription_games: &[i64], now: i64) -> StartTip {
    StartTip {
        tip: tip.tip,
        ad: ad.filter(|a| a.live(now)),
        yoodo: charges_play_time(game, subscription_games).then_some((YOODO_PER_HOUR, YOODO_TEXT)),
    }
}

impl Play {
    /// The tip of a game for its start; None when the game has none (the start goes straight
    /// on). An unknown or deleted game is refused.
    pub async fn start_tip(&self, game_id: i64) -> DomainResult<Option<StartTip>> {
        let game = self.game(game_id).await?;
        let Some(tip) = self.ctx.db(move |s| s.tips.game_tip(game_id)).await? else {
            return Ok(None);
        };
        let ad = match tip.ad_id {
            Some(id) => self.ctx.db(move |s| s.ads.ad(id)).await?,
            None => None,
        };
        let now = self.ctx.clock.now_ms();
        Ok(Some(start_tip(tip, ad, &game, &self.ctx.config.subscription_games, now)))
    }

    /// Sets (an empty text: removes) a game's tip: the operator's call. The ad must exist.
    pub async fn set_game_tip(&self, game_id: i64, tip: String, ad_id: Option<i64>) -> Result<(), TipRefusal> {
        if let Some(field) = game_tip_fault(&tip, ad_id) {
            return Err(TipRefusal::Invalid(field));
        }
        self.game(game_id).await?;
        if let Some(id) = ad_id {
            if self.ctx.db(move |s| s.ads.ad(id)).await?.is_none() {
                return Err(TipRefusal::Invalid("adId"));
            }
        }
        let updated_at = self.ctx.clock.now_ms();
        let stored = GameTip {
            game_id,
            tip,
            ad_id,
            updated_at,
        };
        self.ctx.db(move |s| s.tips.set_game_tip(&stored)).await?;
        Ok(())
    }

    /// The play page's loading tips, in order.
    pub async fn loading_tips(&self) -> DomainResult<Vec<String>> {
        self.ctx.db(|s| s.tips.loading_tips()).await
    }

    /// Replaces the loading tips: the operator's call.
    pub async fn set_loading_tips(&self, tips: Vec<String>) -> Result<(), TipRefusal> {
        if let Some(field) = loading_tips_fault(&tips) {
            return Err(TipRefusal::Invalid(field));
        }
        self.ctx.db(move |s| s.tips.set_loading_tips(&tips)).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use storage::ads::AdSpec;

    use super::*;

    fn game(id: i64) -> Game {
        storage::seed::catalogue().into_iter().find(|g| g.id == id).expect("seeded game")
    }

    fn ad(retired: bool, end_at: i64) -> Ad {
        Ad {
            id: 7,
            slot: "gift_game_dialog".into(),
            spec: AdSpec {
                id: Some(7),
                title: "排队加速卡".into(),
                target_title: "排队加速卡".into(),
                image: String::new(),
                target_type: 5,
                target_value: "accelerate_card".into(),
                need_login: true,
                sort_order: 1,
                start_at: 0,
                end_at,
                pay_times: 0,
            },
            retired,
        }
    }

    fn tip(text: &str) -> GameTip {
        GameTip {
            game_id: 13,
            tip: text.into(),
            ad_id: Some(7),
            updated_at: 0,
        }
    }

    // A game played on play time shows the yoodo line; a subscription game does not.
    #[test]
    fn yoodo_follows_play_time() {
        let check = |subs: &[i64], want: Option<(i64, &str)>| {
            assert_eq!(
                start_tip(tip("t"), None, &game(13), subs, 0).yoodo,
                want,
                "subscription games {subs:?}"
            );
        };
        check(&[], Some((YOODO_PER_HOUR, YOODO_TEXT)));
        check(&[19], Some((YOODO_PER_HOUR, YOODO_TEXT)));
        check(&[13], None);
    }

    // The ad is shown while it runs: not once retired or past its end.
    #[test]
    fn ad_only_while_it_runs() {
        let check = |a: Ad, now: i64, shown: bool| {
            assert_eq!(
                start_tip(tip("t"), Some(a.clone()), &game(13), &[], now).ad.is_some(),
                shown,
                "{a:?} at {now}"
            );
        };
        check(ad(false, 0), 10, true);
        check(ad(true, 0), 10, false);
        check(ad(false, 100), 99, true);
        check(ad(false, 100), 100, false);
    }

    // The operator's fields: the text's length (empty allowed: it removes), the ad id.
    #[test]
    fn operator_fields() {
        let long = "长".repeat(MAX_TIP_CHARS + 1);
        let max = "长".repeat(MAX_TIP_CHARS);
        let check = |text: &str, ad: Option<i64>, want: Option<&str>| assert_eq!(game_tip_fault(text, ad), want, "{ad:?}");
        check("", None, None);
        check(&max, Some(1), None);
        check(&long, None, Some("tip"));
        check("t", Some(0), Some("adId"));
        check("t", Some(-1), Some("adId"));

        let many: Vec<String> = (0..=MAX_LOADING_TIPS).map(|i| i.to_string()).collect();
        assert_eq!(loading_tips_fault(&many), Some("tips"));
        assert_eq!(loading_tips_fault(&many[..MAX_LOADING_TIPS]), None);
        assert_eq!(loading_tips_fault(&[String::new()]), Some("tip"));
        assert_eq!(loading_tips_fault(&["长".repeat(MAX_LOADING_TIP_CHARS + 1)]), Some("tip"));
        assert_eq!(loading_tips_fault(&[]), None);
    }
}
