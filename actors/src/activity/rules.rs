//! The activities' pure rules (commerce.md §3 "Activity config", §4.13, §2.16): the activity
//! status from its start and end times read as UTC+8, the UTC+8 day a lottery's daily chances
//! count in, and invite codes. The weighted prize pick and the recharge tiers are storage's
//! (`storage::activity`), applied inside its transactions.

use crate::play::holdings::{civil_from_days, days_from_civil};

const CST_OFFSET_MS: i64 = 8 * 3600 * 1000;
const DAY_MS: i64 = 24 * 3600 * 1000;

/// An activity's status (§4.13): 0 not started, 1 ongoing, 2 ended.
pub const NOT_STARTED: i32 = 0;
pub const ONGOING: i32 = 1;
pub const ENDED: i32 = 2;

/// Reads 'YYYY-MM-DD HH:mm:ss' (or 'YYYY-MM-DD') as UTC+8; the unix ms, or None if malformed.
pub fn parse_cst(s: &str) -> Option<i64> {
    let s = s.trim();
    let (date, time) = match s.split_once(' ') {
        Some((d, t)) => (d, t.trim()),
        None => (s, "00:00:00"),
    };
    let d: Vec<i64> = date.split('-').map(|p| p.parse().ok()).collect::<Option<_>>()?;
    let t: Vec<i64> = time.split(':').map(|p| p.parse().ok()).collect::<Option<_>>()?;
    let ([y, m, day], [h, min, sec]) = (<[i64; 3]>::try_from(d).ok()?, <[i64; 3]>::try_from(t).ok()?);
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&m) || !(0..24).contains(&h) || !(0..60).contains(&min) || !(0..60).contains(&sec)
    {
        return None;
    }
    let days = days_from_civil(y, m, day);
    // A day past the month's end (2025-02-30) is refused rather than rolled over.
    if civil_from_days(days) != (y, m, day) {
        return None;
    }
    Some(days * DAY_MS + (h * 3600 + min * 60 + sec) * 1000 - CST_OFFSET_MS)
}

/// The unix ms as 'YYYY-MM-DD HH:mm:ss' in UTC+8.
pub fn format_cst(ms: i64) -> String {
    let local = ms + CST_OFFSET_MS;
    let (y, m, d) = civil_from_days(local.div_euclid(DAY_MS));
    let secs = local.rem_euclid(DAY_MS) / 1000;
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// The status of an activity running from `start` (inclusive) to `end` (exclusive), both
/// 'YYYY-MM-DD HH:mm:ss' in UTC+8, at `now`: 0 not started, 1 ongoing, 2 ended. Malformed
/// times, or an end not after the start, read as ended (the activity is disabled).
pub fn status(start: &str, end: &str, now_ms: i64) -> i32 {
    match (parse_cst(start), parse_cst(end)) {
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

/// The first ms of `now_ms`'s day in UTC+8 (a lottery's daily chances count from it).
pub fn cst_day_start(now_ms: i64) -> i64 {
    (now_ms + CST_OFFSET_MS).div_euclid(DAY_MS) * DAY_MS - CST_OFFSET_MS
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

    // 2025-06-01 00:00:00 UTC+8.
    const JUNE_1: i64 = 1_748_707_200_000;

    #[test]
    fn times_are_read_and_written_in_utc8() {
        assert_eq!(parse_cst("2025-06-01 00:00:00"), Some(JUNE_1));
        assert_eq!(parse_cst("2025-06-01"), Some(JUNE_1));
        assert_eq!(format_cst(JUNE_1), "2025-06-01 00:00:00");
        assert_eq!(format_cst(JUNE_1 + 3_723_000), "2025-06-01 01:02:03");
        assert_eq!(parse_cst("2025-02-30 00:00:00"), None);
        assert_eq!(parse_cst("2025-06-01 24:00:00"), None);
        assert_eq!(parse_cst("soon"), None);
        assert_eq!(parse_cst(""), None);
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
        assert_eq!(cst_day_start(JUNE_1), JUNE_1);
        assert_eq!(cst_day_start(JUNE_1 + DAY_MS - 1), JUNE_1);
        assert_eq!(cst_day_start(JUNE_1 - 1), JUNE_1 - DAY_MS);
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
