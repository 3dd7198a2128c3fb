//! The activities' pure rules (commerce.md §3 "Activity config", §4.13, §2.16): the activity
//! status from its start and end times read as UTC+8, the UTC+8 day a lottery's daily chances
//! count in, invite codes, and what an order triggers: the recharge gift and the inviter's
//! advanced reward (`commerce::fulfil` asks these when an order is fulfilled). The weighted
//! prize pick is storage's (`storage::activity`), applied inside its transaction.

use storage::activity::RechargeTier;

#[cfg(test)]
use crate::beijing::DAY_MS;

/// The bonus coins of a recharge paying `paid_fen`: the highest tier it reaches, 0 below all.
pub fn recharge_bonus(tiers: &[RechargeTier], paid_fen: i64) -> i64 {
    tiers
        .iter()
        .filter(|t| t.min_fen > 0 && paid_fen >= t.min_fen && t.bonus_coins > 0)
        .max_by_key(|t| t.min_fen)
        .map_or(0, |t| t.bonus_coins)
}

/// An order that may earn the recharge gift or the invite reward, as the rules see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Purchase {
    /// Paid with money (not with coins: coins may come from prizes and must not buy rewards).
    pub with_money: bool,
    /// What was paid, fen.
    pub paid_fen: i64,
    /// It buys coins from the coin shop.
    pub coin_recharge: bool,
}

/// The recharge gift (§2.16) of a purchase while the activity with these tiers runs (None:
/// none runs): a coin recharge paid with money gets its tier's bonus coins.
pub fn recharge_gift(p: Purchase, running: Option<&[RechargeTier]>) -> i64 {
    match running {
        Some(tiers) if p.with_money && p.coin_recharge => recharge_bonus(tiers, p.paid_fen),
        _ => 0,
    }
}

/// The inviter's advanced reward (§4.13): earned by the invitee's first purchase paid with
/// money (`invite_open`: they were invited and it was not earned yet).
pub fn invite_advanced(p: Purchase, invite_open: bool) -> bool {
    invite_open && p.with_money && p.paid_fen > 0
}

/// Whether a new user's invite code may bind them to its inviter (§4.13): not their own code.
/// (An unknown inviter and a second invite are facts the store reports.)
pub fn invite_allowed(invitee: i64, inviter: i64) -> bool {
    invitee != inviter
}

/// An activity's status (§4.13): 0 not started, 1 ongoing, 2 ended.
pub const NOT_STARTED: i32 = 0;
pub const ONGOING: i32 = 1;
pub const ENDED: i32 = 2;

/// The status of an activity running from `start` (inclusive) to `end` (exclusive), both
/// 'YYYY-MM-DD HH:mm:ss' in UTC+8, at `now`: 0 not started, 1 ongoing, 2 ended. Malformed
/// times, or an end not after the start, read as ended (the activity is disabled).
pub fn status(start: &str, end: &str, now_ms: i64) -> i32 {
    match (crate::beijing::parse(start), crate::beijing::parse(end)) {
        (Some(s), Some(e)) if s < e => status_ms(s, e, now_ms),
        _ => ENDED,
    }
}

/// [`status`] over unix ms.
pub fn status_ms(start: i64, end: i64, now_ms: i64) -> i32 {
    if now_ms < start {
        NOT_STARTED
    } else if now_ms < end {
        ONGOING
    } else {
        ENDED
    }
}

/// Whether an activity of this status can be taken part in (0 and 2 disable it).
pub fn enabled(status: i32) -> bool {
    status == ONGOING
}

const CODE_ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
/// Mixes the uid so that neighbouring users' codes do not look alike (an odd multiplier modulo
/// 2^40 is a bijection); the code is not a secret.
const CODE_MUL: u64 = 0x5DEE_CE66D;
const CODE_MASK: u64 = (1 << 40) - 1;

/// The invite code of a user: 8 characters of a 32-letter alphabet without 0/1/I/O.
pub fn invite_code(uid: i64) -> String {
    let mut v = (uid as u64).wrapping_mul(CODE_MUL) & CODE_MASK;
    let mut out = [0u8; 8];
    for c in out.iter_mut().rev() {
        *c = CODE_ALPHABET[(v & 31) as usize];
        v >>= 5;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The user an invite code names, if it is well formed (case-insensitive).
pub fn invite_uid(code: &str) -> Option<i64> {
    let code = code.trim();
    if code.len() != 8 {
        return None;
    }
    let mut v: u64 = 0;
    for b in code.bytes() {
        let i = CODE_ALPHABET.iter().position(|&c| c == b.to_ascii_uppercase())?;
        v = (v << 5) | i as u64;
    }
    // The inverse of CODE_MUL modulo 2^40 (Newton's iteration).
    let mut inv: u64 = 1;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(CODE_MUL.wrapping_mul(inv)));
    }
    let uid = v.wrapping_mul(inv) & CODE_MASK;
    i64::try_from(uid)
        .ok()
        .filter(|&u| u > 0 && invite_code(u) == code.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiers() -> Vec<RechargeTier> {
        [(3000, 300), (9800, 1500), (19800, 4000)]
            .into_iter()
            .map(|(min_fen, bonus_coins)| RechargeTier { min_fen, bonus_coins })
            .collect()
    }

    #[test]
    fn an_invite_binds_to_anyone_but_oneself() {
        assert!(invite_allowed(2, 1));
        assert!(!invite_allowed(7, 7));
    }

    #[test]
    fn the_highest_tier_reached_gives_its_bonus() {
        let t = tiers();
        assert_eq!(recharge_bonus(&t, 0), 0);
        assert_eq!(recharge_bonus(&t, 2999), 0);
        assert_eq!(recharge_bonus(&t, 3000), 300);
        assert_eq!(recharge_bonus(&t, 9799), 300);
        assert_eq!(recharge_bonus(&t, 9800), 1500);
        assert_eq!(recharge_bonus(&t, 1_000_000), 4000);
        assert_eq!(recharge_bonus(&[], 1_000_000), 0);
        assert_eq!(recharge_bonus(&t, -5), 0);
    }

    // Only a coin recharge paid with money, while the activity runs, gets the gift; only a
    // purchase paid with money, of an invitee whose reward is open, earns the inviter's.
    #[test]
    fn what_an_order_triggers() {
        let t = tiers();
        let recharge = Purchase {
            with_money: true,
            paid_fen: 9800,
            coin_recharge: true,
        };
        assert_eq!(recharge_gift(recharge, Some(&t)), 1500);
        assert_eq!(recharge_gift(recharge, None), 0, "no activity running");
        assert_eq!(
            recharge_gift(
                Purchase {
                    with_money: false,
                    ..recharge
                },
                Some(&t)
            ),
            0
        );
        assert_eq!(
            recharge_gift(
                Purchase {
                    coin_recharge: false,
                    ..recharge
                },
                Some(&t)
            ),
            0
        );
        assert!(invite_advanced(recharge, true));
        assert!(!invite_advanced(recharge, false), "earned already, or not invited");
        assert!(
            !invite_advanced(
                Purchase {
                    with_money: false,
                    ..recharge
                },
                true
            ),
            "coins earn nothing"
        );
        assert!(
            !invite_advanced(Purchase { paid_fen: 0, ..recharge }, true),
            "a free order earns nothing"
        );
    }

    // 2025-06-01 00:00:00 UTC+8.
    const JUNE_1: i64 = 1_748_707_200_000;

    #[test]
    fn times_are_read_and_written_in_utc8() {
        assert_eq!(crate::beijing::parse("2025-06-01 00:00:00"), Some(JUNE_1));
        assert_eq!(crate::beijing::parse("2025-06-01"), Some(JUNE_1));
        assert_eq!(crate::beijing::format(JUNE_1), "2025-06-01 00:00:00");
        assert_eq!(crate::beijing::format(JUNE_1 + 3_723_000), "2025-06-01 01:02:03");
        assert_eq!(crate::beijing::parse("2025-02-30 00:00:00"), None);
        assert_eq!(crate::beijing::parse("2025-06-01 24:00:00"), None);
        assert_eq!(crate::beijing::parse("soon"), None);
        assert_eq!(crate::beijing::parse(""), None);
    }

    #[test]
    fn status_follows_start_and_end() {
        let (s, e) = ("2025-06-01 00:00:00", "2025-06-08 00:00:00");
        assert_eq!(status(s, e, JUNE_1 - 1), NOT_STARTED);
        assert_eq!(status(s, e, JUNE_1), ONGOING);
        assert_eq!(status(s, e, JUNE_1 + 7 * DAY_MS - 1), ONGOING);
        assert_eq!(status(s, e, JUNE_1 + 7 * DAY_MS), ENDED);
        // Broken or reversed times disable the activity.
        assert_eq!(status("x", e, JUNE_1), ENDED);
        assert_eq!(status(e, s, JUNE_1 + DAY_MS), ENDED);
        assert!(!enabled(NOT_STARTED) && enabled(ONGOING) && !enabled(ENDED));
    }

    #[test]
    fn the_day_starts_at_midnight_utc8() {
        assert_eq!(crate::beijing::day_start(JUNE_1), JUNE_1);
        assert_eq!(crate::beijing::day_start(JUNE_1 + DAY_MS - 1), JUNE_1);
        assert_eq!(crate::beijing::day_start(JUNE_1 - 1), JUNE_1 - DAY_MS);
    }

    #[test]
    fn invite_codes_name_their_user_only() {
        for uid in [1, 2, 3, 1000, 123_456_789, (1 << 40) - 1] {
            let code = invite_code(uid);
            assert_eq!(code.len(), 8);
            assert_eq!(invite_uid(&code), Some(uid), "{code}");
            assert_eq!(invite_uid(&code.to_ascii_lowercase()), Some(uid));
        }
        assert_ne!(invite_code(1), invite_code(2));
        assert_eq!(invite_uid(""), None);
        assert_eq!(invite_uid("22222222"), None);
        assert_eq!(invite_uid("ABC"), None);
        assert_eq!(invite_uid("OOOOOOOO"), None);
    }
}
