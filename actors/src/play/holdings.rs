//! What a player holds, and the rules that follow from it: the queue lane they join, the
//! packages whose window is open, the member-only and subscription games, the monthly member
//! fast-entry cards. Plain functions over plain data, so they are tested without a runtime.
//!
//! Package windows are in China Standard Time (UTC+8): the daily package 08:00–24:00, the
//! night package 23:00 to 07:00 the next day (commerce.md §1).

use storage::{Entitlement, Game};

use crate::error::DomainError;
use crate::play::lanes::{Lane, PREFERENCE_ORDER};

use crate::beijing::DAY_MS;
#[cfg(test)]
use crate::beijing::HOUR_MS;

/// The yoodo a game's play costs an hour once play time has run out (commerce.md §2.9's yoodo
/// rule), and the line that shows it (`%s` is the amount).
pub const YOODO_PER_HOUR: i64 = 60;
pub const YOODO_TEXT: &str = "时长不足时，可消耗%s悠豆/小时继续畅玩";

/// What a player holds at one moment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Holdings {
    /// Active entitlements (vip, vvip, tyvip, tyschvip, daily, night, fast_enter, sub:{game}).
    pub entitlements: Vec<Entitlement>,
    pub play_time_free: i64,
    pub play_time_paid: i64,
    /// Usable fast-entry cards.
    pub cards: usize,
}

impl Holdings {
    pub fn has(&self, kind: &str) -> bool {
        self.entitlements.iter().any(|e| e.kind == kind)
    }

    /// The membership in use (`memberInfoUsing`, commerce.md §4.7): vvip (hvip is vvip), vip,
    /// or a carrier membership.
    pub fn member_type(&self) -> Option<&'static str> {
        if self.has("hvip") {
            return Some("vvip");
        }
        ["vvip", "vip", "tyvip", "tyschvip"].into_iter().find(|k| self.has(k))
    }

    /// VVIP rights: vvip (hvip is vvip). The carrier tyvip is a carrier member, not VVIP
    /// (commerce.md §6); only its display class maps to vvip.
    pub fn is_vvip(&self) -> bool {
        self.has("vvip") || self.has("hvip")
    }

    /// Member rights (core-platform.md §6 "Members vip and vvip"): member games, the member
    /// price, cross-screen and the monthly fast-entry claim. Carrier members have their own
    /// rights (the carrier lane), not these.
    pub fn is_member(&self) -> bool {
        self.is_vvip() || self.has("vip")
    }

    /// A carrier-partner member (tyvip, or the campus tyschvip).
    pub fn is_carrier(&self) -> bool {
        self.has("tyvip") || self.has("tyschvip")
    }

    /// Whether the holdings entitle the player to `lane` at `now_ms` (packages only in their
    /// window).
    pub fn entitled(&self, lane: Lane, now_ms: i64) -> bool {
        let h = crate::beijing::hour(now_ms);
        match lane {
            Lane::Member => self.has("fast_enter"),
            Lane::Carrier => self.is_carrier(),
            Lane::Vvip => self.is_vvip(),
            Lane::Vip => self.has("vip"),
            Lane::Daily => self.has("daily") && (8..24).contains(&h),
            Lane::Night => self.has("night") && !(7..23).contains(&h),
            Lane::Normal => true,
        }
    }

    /// Whether a daily or night package covers this moment.
    pub fn package_window_open(&self, now_ms: i64) -> bool {
        let h = crate::beijing::hour(now_ms);
        (self.has("daily") && (8..24).contains(&h)) || (self.has("night") && !(7..23).contains(&h))
    }

    /// The lane a player joins now (core-platform.md §4.6): the first of
    /// [`PREFERENCE_ORDER`] they are entitled to (fast-entry time, carrier, VVIP, VIP, the daily
    /// package in its window, the night package in its window), else normal. A player holding
    /// both packages at 23:00 joins the daily lane.
    pub fn lane(&self, now_ms: i64) -> Lane {
        PREFERENCE_ORDER
            .into_iter()
            .find(|l| self.entitled(*l, now_ms))
            .unwrap_or(Lane::Normal)
    }

    /// One-hour fast-entry cards a member may claim each month (commerce.md §6: 3 for vip,
    /// 5 for vvip; carrier members none).
    pub fn monthly_cards(&self) -> i32 {
        if self.is_vvip() {
            5
        } else if self.is_member() {
            3
        } else {
            0
        }
    }

    /// Members may move a running game to another device.
    pub fn cross_screen(&self) -> bool {
        self.is_member()
    }

    /// The start checks of commerce.md §8 for `game`: member-only games, subscription games
    /// (`subscription_games` from the configuration), and play time.
    pub fn check_start(&self, game: &Game, subscription_games: &[i64], now_ms: i64) -> Result<(), DomainError> {
        match game.member_type.as_deref() {
            Some("vvip" | "hvip") if !self.is_vvip() => return Err(DomainError::VvipOnly),
            Some("vip") if !self.is_member() => return Err(DomainError::VipOnly),
            _ => {}
        }
        if subscription_games.contains(&game.id) && !self.has(&format!("sub:{}", game.id)) {
            return Err(DomainError::NeedSubscription);
        }
        if self.play_time_free + self.play_time_paid <= 0 && !self.package_window_open(now_ms) {
            return Err(DomainError::ShortOfTime);
        }
        Ok(())
    }
}

/// Entitlements that are a membership or a package (what the profile lists as member items).
pub const MEMBERSHIP_KINDS: [&str; 6] = ["vip", "vvip", "tyvip", "tyschvip", "daily", "night"];

/// A membership ending within this is "near expiry" (the profile's `near_expiration`).
pub const NEAR_EXPIRY_MS: i64 = 3 * DAY_MS;

impl Holdings {
    /// The memberships and packages held, in the order held.
    pub fn member_entitlements(&self) -> impl Iterator<Item = &Entitlement> {
        self.entitlements.iter().filter(|e| MEMBERSHIP_KINDS.contains(&e.kind.as_str()))
    }

    /// Since when the membership in use has been held (ms), if any.
    pub fn member_since(&self) -> Option<i64> {
        let using = self.member_type()?;
        self.entitlements.iter().filter(|e| e.kind == using).map(|e| e.starts_at).min()
    }

    /// Whether the membership in use ends within [`NEAR_EXPIRY_MS`].
    pub fn membership_near_expiry(&self, now_ms: i64) -> bool {
        let using = self.member_type();
        self.entitlements
            .iter()
            .any(|e| Some(e.kind.as_str()) == using && e.expires_at - now_ms < NEAR_EXPIRY_MS)
    }

    /// Seconds of fast-entry time left.
    pub fn fast_enter_secs(&self, now_ms: i64) -> i64 {
        self.entitlements
            .iter()
            .find(|e| e.kind == "fast_enter")
            .map_or(0, |e| (e.expires_at - now_ms).max(0) / 1000)
    }
}

#[cfg(test)]
mod membership_tests {
    use super::*;

    fn ent(kind: &str, starts_at: i64, expires_at: i64) -> Entitlement {
        Entitlement {
            uid: 1,
            kind: kind.into(),
            starts_at,
            expires_at,
        }
    }

    // Member items, join date and the three-day near expiry follow the membership in use.
    #[test]
    fn membership_rules() {
        let h = Holdings {
            entitlements: vec![ent("vip", 5, DAY_MS * 10), ent("fast_enter", 0, 120_000), ent("daily", 1, DAY_MS)],
            ..Holdings::default()
        };
        assert_eq!(
            h.member_entitlements().map(|e| e.kind.as_str()).collect::<Vec<_>>(),
            ["vip", "daily"]
        );
        assert_eq!(h.member_since(), Some(5));
        assert!(!h.membership_near_expiry(DAY_MS * 7 - 1));
        assert!(h.membership_near_expiry(DAY_MS * 7 + 1));
        assert_eq!(h.fast_enter_secs(60_000), 60);
        assert_eq!(Holdings::default().member_since(), None);
        assert!(!Holdings::default().membership_near_expiry(0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-22 00:00 in UTC+8, as unix ms.
    const MIDNIGHT_CST: i64 = 1795305600000 - 8 * HOUR_MS;

    fn holding(kinds: &[&str]) -> Holdings {
        Holdings {
            entitlements: kinds
                .iter()
                .map(|k| Entitlement {
                    uid: 1,
                    kind: k.to_string(),
                    starts_at: 0,
                    expires_at: i64::MAX,
                })
                .collect(),
            play_time_free: 10,
            ..Default::default()
        }
    }

    #[test]
    fn calendar() {
        assert_eq!(crate::beijing::hour(MIDNIGHT_CST), 0);
        assert_eq!(crate::beijing::hour(MIDNIGHT_CST + 23 * HOUR_MS + 59 * 60_000), 23);
        let (month, next) = crate::beijing::month(MIDNIGHT_CST);
        assert_eq!(month, "2026-11");
        assert_eq!(crate::beijing::month(next).0, "2026-12");
        assert_eq!(crate::beijing::month(next - 1).0, "2026-11");
        assert_eq!(
            crate::beijing::month(crate::beijing::days_from_civil(2026, 12, 31) * DAY_MS - crate::beijing::OFFSET_MS).1,
            crate::beijing::days_from_civil(2027, 1, 1) * DAY_MS - crate::beijing::OFFSET_MS
        );
    }

    #[test]
    fn lanes_follow_holdings_and_windows() {
        let at = |h: i64| MIDNIGHT_CST + h * HOUR_MS;
        let check = |kinds: &[&str], hour: i64, want: Lane| assert_eq!(holding(kinds).lane(at(hour)), want, "{kinds:?} at {hour}h");
        check(&[], 12, Lane::Normal);
        check(&["fast_enter", "vvip"], 12, Lane::Member);
        check(&["tyvip"], 12, Lane::Carrier);
        check(&["tyschvip", "vip"], 12, Lane::Carrier);
        check(&["vvip", "vip"], 12, Lane::Vvip);
        check(&["vip"], 12, Lane::Vip);
        check(&["night"], 23, Lane::Night);
        check(&["night"], 3, Lane::Night);
        check(&["night"], 7, Lane::Normal);
        check(&["daily"], 8, Lane::Daily);
        check(&["daily"], 7, Lane::Normal);
        check(&["daily", "night"], 23, Lane::Daily);
        check(&["daily", "night"], 2, Lane::Night);
        check(&["tyvip", "vvip"], 12, Lane::Carrier);
        check(&["hvip"], 12, Lane::Vvip);
    }

    #[test]
    fn start_checks() {
        let game = |member: Option<&str>| Game {
            id: 9,
            name: "g".into(),
            description: String::new(),
            status: 1,
            available: true,
            deleted: false,
            member_type: member.map(str::to_string),
            platform: "steam".into(),
            chinese: true,
            controller: false,
            instant_play: false,
            hue: 0,
            sort_order: 0,
            host_game: String::new(),
            start: Default::default(),
        };
        let now = MIDNIGHT_CST + 12 * HOUR_MS;
        let check = |h: Holdings, g: Game, subs: &[i64], want: Result<(), DomainError>| assert_eq!(h.check_start(&g, subs, now), want);
        check(holding(&[]), game(None), &[], Ok(()));
        check(holding(&[]), game(Some("vip")), &[], Err(DomainError::VipOnly));
        check(holding(&["vip"]), game(Some("vip")), &[], Ok(()));
        check(holding(&["vip"]), game(Some("vvip")), &[], Err(DomainError::VvipOnly));
        check(holding(&["hvip"]), game(Some("vvip")), &[], Ok(()));
        check(holding(&["tyvip"]), game(Some("hvip")), &[], Err(DomainError::VvipOnly));
        check(holding(&["tyvip"]), game(Some("vip")), &[], Err(DomainError::VipOnly));
        check(holding(&[]), game(None), &[9], Err(DomainError::NeedSubscription));
        check(holding(&["sub:9"]), game(None), &[9], Ok(()));
        let broke = Holdings {
            play_time_free: 0,
            ..holding(&[])
        };
        check(broke.clone(), game(None), &[], Err(DomainError::ShortOfTime));
        check(
            Holdings {
                entitlements: holding(&["daily"]).entitlements,
                ..broke
            },
            game(None),
            &[],
            Ok(()),
        );
    }

    /// commerce.md §6: 3 one-hour cards a month for vip, 5 for vvip; none for carriers.
    #[test]
    fn monthly_cards_by_tier() {
        assert_eq!(holding(&[]).monthly_cards(), 0);
        assert_eq!(holding(&["vip"]).monthly_cards(), 3);
        assert_eq!(holding(&["vvip"]).monthly_cards(), 5);
        assert_eq!(holding(&["hvip"]).monthly_cards(), 5);
        assert_eq!(holding(&["tyvip"]).monthly_cards(), 0);
        assert_eq!(holding(&["tyschvip", "vip"]).monthly_cards(), 3);
    }

    /// tyvip is a carrier member (the carrier lane, displayed as carrier), not VVIP: no VVIP
    /// games, no member rights, but its display class (`member_type`) is still reported.
    #[test]
    fn carrier_members_are_not_vvip() {
        let ty = holding(&["tyvip"]);
        assert!(!ty.is_vvip() && !ty.is_member() && ty.is_carrier());
        assert!(!ty.cross_screen());
        assert_eq!(ty.member_type(), Some("tyvip"));
        assert_eq!(holding(&["hvip"]).member_type(), Some("vvip"));
        assert_eq!(crate::play::lanes::DISPLAY_ORDER[1], Lane::Carrier);
    }
}
