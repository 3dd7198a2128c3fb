//! The platform's calls around the queue's acceleration and the daily and night packages
//! (commerce.md §2.7, §2.10, §4.9).
//!
//! A paid order goes through [`Platform::order_paid`]: what any grant causes
//! ([`Platform::granted`]: a queued player moves to the lane their holdings now entitle them
//! to), and for fast-entry cards bought while queued off the ultimate lanes, one card used on
//! the queued session at once (the acceleration card of `shop_queue_accelerate` and the
//! retention offer are cards: "排队中购买后可立即使用"). An operator's grant of cards leaves
//! them in the backpack.

use crate::commerce::service::Commerce;
use storage::{Entitlement, GoodsGrant};

use crate::commerce::service::GoodsItem;
use crate::error::{DomainError, DomainResult};
use crate::play::lanes::Lane;
use crate::view::{GameState, Status};

/// A package's state as `night-play/info` answers it (commerce.md §3 "Daily/night package info").
#[derive(Debug, Clone, PartialEq)]
pub struct PackageInfo {
    /// "daily" or "night".
    pub kind: &'static str,
    /// 1 active, 2 expired (or never bought).
    pub status: i32,
    /// Never bought: the dialog hides the expiry.
    pub exp_hide: bool,
    /// Minutes played under the package during its current (or last) run.
    pub play_time: i64,
    /// The end of the run (ms), 0 when never bought.
    pub expired_at: i64,
}

/// The two packages, in the dialog's order.
pub const PACKAGE_KINDS: [&str; 2] = ["daily", "night"];

/// The package's status from its latest run (commerce.md §9: 1 active, 2 expired) and whether
/// its expiry is hidden (never bought: status 2 with nothing to show).
pub fn package_status(run: Option<&Entitlement>, now_ms: i64) -> (i32, bool) {
    match run {
        None => (2, true),
        Some(e) if e.expires_at > now_ms => (1, false),
        Some(_) => (2, false),
    }
}

/// Whether a charged minute at `at_ms` (UTC) falls in the package's window (UTC+8): the daily
/// package 08:00–24:00, the night package 23:00–07:00.
pub fn in_window(kind: &str, at_ms: i64) -> bool {
    let h = crate::beijing::hour(at_ms);
    match kind {
        "daily" => (8..24).contains(&h),
        "night" => !(7..23).contains(&h),
        _ => false,
    }
}

/// The product type of a game subscription package (commerce.md §9 GAME_PACKAGE).
pub const GAME_PACKAGE: i32 = 9;

/// The shop section listing a game's subscription packages.
pub fn game_package_section(game_id: i64) -> String {
    format!("game_package_{game_id}")
}

/// The play-time types of a time card (commerce.md §4.12): paid, free, exclusive.
const PAID_TIME: i32 = 1;
const FREE_TIME: i32 = 2;

pub use crate::play::holdings::{YOODO_PER_HOUR, YOODO_TEXT};

/// Whether a card is a time card the use-up prompt may offer for any game now: unused,
/// unexpired, paid or free play time. An exclusive card (4) is tied to a game category this
/// catalogue does not have, so it is never offered for a game.
pub fn usable_time_card(c: &storage::FastEnterCard, now_ms: i64) -> bool {
    c.status == 0 && c.expires_at > now_ms && matches!(c.play_type, PAID_TIME | FREE_TIME) && c.minutes > 0
}

/// A package's window as hours of the day in UTC+8, `start..end` (wrapping past midnight).
pub fn window_hours(kind: &str) -> (i64, i64) {
    if kind == "daily" {
        (8, 24)
    } else {
        (23, 7)
    }
}

/// One of the player's subscriptions (commerce.md §2.1 /user/subscription).
#[derive(Debug, Clone, PartialEq)]
pub struct Subscription {
    pub game: storage::Game,
    /// The package that unlocks it (its shop goods), when one is on sale.
    pub package: Option<storage::Goods>,
    /// 1 active, 2 expired.
    pub status: i32,
    pub expired_at: i64,
}

/// The package an entitlement kind `sub:{game}` names, the game id.
pub fn subscribed_game(kind: &str) -> Option<i64> {
    kind.strip_prefix("sub:")?.parse().ok().filter(|id| *id > 0)
}

impl Commerce {
    /// The player's subscriptions, ever held, of the subscription games of the configuration.
    pub async fn subscriptions(&self, uid: i64) -> DomainResult<Vec<Subscription>> {
        let now = self.ctx.clock.now_ms();
        let mut all = vec![];
        for game_id in self.ctx.config.subscription_games.clone() {
            let kind = format!("sub:{game_id}");
            let Some(run) = self.ctx.db(move |s| s.assets.latest_entitlement(uid, &kind)).await? else {
                continue;
            };
            let game = self.play().game(game_id).await?;
            let package = self.game_packages(game_id).await?.into_iter().next().map(|i| i.goods);
            let (status, _) = package_status(Some(&run), now);
            all.push(Subscription {
                game,
                package,
                status,
                expired_at: run.expires_at,
            });
        }
        Ok(all)
    }

    /// The games a package unlocks (its grant's `sub:{game}`).
    pub async fn package_games(&self, package: &storage::Goods) -> DomainResult<Vec<storage::Game>> {
        let (kind, _) = package.grant.to_parts();
        match subscribed_game(&kind) {
            Some(id) => Ok(vec![self.play().game(id).await?]),
            None => Ok(vec![]),
        }
    }

    /// The time cards usable for `game_id` (the use-up prompt's card), soonest expiry first.
    pub async fn usable_time_cards(&self, uid: i64, game_id: i64) -> DomainResult<(Vec<storage::FastEnterCard>, i64)> {
        self.play().game(game_id).await?;
        let (mut cards, now) = self.play().backpack(uid).await?;
        cards.retain(|c| usable_time_card(c, now));
        cards.sort_by_key(|c| (c.expires_at, c.id));
        Ok((cards, now))
    }

    /// The yoodo rule of a game: its hourly yoodo once play time has run out.
    pub async fn yoodo_rule(&self, game_id: i64) -> DomainResult<(i64, &'static str)> {
        self.play().game(game_id).await?;
        Ok((YOODO_PER_HOUR, YOODO_TEXT))
    }

    /// The subscription packages that unlock `game_id` (commerce.md §2.6), each with its
    /// duration options; none for a game without one.
    pub async fn game_packages(&self, game_id: i64) -> DomainResult<Vec<GoodsItem>> {
        self.section(&game_package_section(game_id)).await
    }

    /// One subscription package with its duration options (`speci_list`); UnknownGoods for
    /// anything else.
    pub async fn game_package_item(&self, package_id: i64) -> DomainResult<GoodsItem> {
        let item = self.goods_item(None, Some(package_id)).await?;
        if item.goods.goods_type != GAME_PACKAGE || item.goods.parent_id.is_some() {
            return Err(DomainError::UnknownGoods);
        }
        Ok(item)
    }

    /// What follows a paid order's fulfilment (coins or a provider's notice).
    pub async fn order_paid(&self, uid: i64, grant: &GoodsGrant) -> DomainResult<()> {
        self.play().granted(uid, std::slice::from_ref(grant)).await?;
        if matches!(grant, GoodsGrant::Cards { .. }) {
            self.accelerate_with_card(uid).await?;
        }
        Ok(())
    }

    /// Uses one of the player's fast-entry cards on their queued session when it waits off the
    /// ultimate lanes; true when it moved.
    pub async fn accelerate_with_card(&self, uid: i64) -> DomainResult<bool> {
        let GameState::Online(v) = self.play().game_state(uid).await? else {
            return Ok(false);
        };
        let ultimate = Lane::from_code(v.is_fast).is_some_and(Lane::is_ultimate);
        if v.status != Status::Queue || ultimate {
            return Ok(false);
        }
        let Some(card) = self.play().cards(uid).await?.into_iter().next() else {
            return Ok(false);
        };
        match self.play().use_card(uid, card.id).await {
            Ok(_) => Ok(true),
            // The session left the queue meanwhile, or the card went: the card stays for later.
            Err(DomainError::CardNotQueued | DomainError::CardUnusable | DomainError::UnknownCard) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The daily or night package of the player (`kind` "daily" or "night"): its latest run and
    /// the minutes played under it during that run.
    pub async fn package_info(&self, uid: i64, kind: &'static str) -> DomainResult<PackageInfo> {
        let now = self.ctx.clock.now_ms();
        let run = self.ctx.db(move |s| s.assets.latest_entitlement(uid, kind)).await?;
        let (status, exp_hide) = package_status(run.as_ref(), now);
        let play_time = match &run {
            Some(e) => {
                let (from, to) = (e.starts_at, e.expires_at.min(now));
                let hours = window_hours(kind);
                self.ctx.db(move |s| s.assets.package_minutes(uid, from, to, hours)).await?
            }
            None => 0,
        };
        Ok(PackageInfo {
            kind,
            status,
            exp_hide,
            play_time,
            expired_at: run.map_or(0, |e| e.expires_at),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3600 * 1000;
    /// 2026-11-23 00:00 UTC+8.
    const MIDNIGHT_CST: i64 = 1_795_363_200_000;

    #[test]
    fn status_follows_the_latest_run() {
        let run = |expires_at| Entitlement {
            uid: 1,
            kind: "daily".into(),
            starts_at: 0,
            expires_at,
        };
        assert_eq!(package_status(None, 10), (2, true), "never bought");
        assert_eq!(package_status(Some(&run(11)), 10), (1, false));
        assert_eq!(package_status(Some(&run(10)), 10), (2, false), "ended at that very moment");
        assert_eq!(package_status(Some(&run(5)), 10), (2, false));
    }

    #[test]
    fn time_cards_offered_for_a_game() {
        let card = |status, expires_at, play_type, minutes| storage::FastEnterCard {
            id: 1,
            uid: 1,
            goods_title: "t".into(),
            status,
            expires_at,
            created_at: 0,
            used_at: None,
            used_session: None,
            source: String::new(),
            play_type,
            minutes,
            remain_give_times: 0,
            given_to: None,
            given_from: None,
        };
        assert!(usable_time_card(&card(0, 11, 1, 60), 10));
        assert!(usable_time_card(&card(0, 11, 2, 60), 10));
        assert!(!usable_time_card(&card(0, 11, 4, 60), 10), "exclusive");
        assert!(!usable_time_card(&card(0, 11, 0, 0), 10), "a fast-entry card");
        assert!(!usable_time_card(&card(1, 11, 1, 60), 10), "used");
        assert!(!usable_time_card(&card(0, 10, 1, 60), 10), "expired");
    }

    #[test]
    fn subscription_kinds() {
        assert_eq!(subscribed_game("sub:19"), Some(19));
        assert_eq!(subscribed_game("sub:0"), None);
        assert_eq!(subscribed_game("sub:x"), None);
        assert_eq!(subscribed_game("vip"), None);
    }

    #[test]
    fn windows_in_china_time() {
        let at = |h: i64| MIDNIGHT_CST + h * HOUR;
        assert!(in_window("daily", at(8)));
        assert!(in_window("daily", at(23) + HOUR - 1));
        assert!(!in_window("daily", at(7) + HOUR - 1));
        assert!(!in_window("daily", at(24)));
        assert!(in_window("night", at(23)));
        assert!(in_window("night", at(30)), "06:00 the next day");
        assert!(!in_window("night", at(31)), "07:00 the next day");
        assert!(!in_window("night", at(12)));
        assert!(!in_window("monthly", at(12)));
    }
}
