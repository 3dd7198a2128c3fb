//! Beijing time (UTC+8), the only time the product shows and the one its days, months and
//! windows are counted in: the package windows, the minors' hours, check-in days, card expiries,
//! activity times. Every conversion between unix milliseconds and the Beijing calendar is here,
//! and nowhere else on the server's side (the browser has its own one module, `lib/time.ts`).

/// Milliseconds of UTC+8 ahead of UTC.
pub const OFFSET_MS: i64 = 8 * HOUR_MS;
pub const DAY_MS: i64 = 24 * HOUR_MS;
pub const HOUR_MS: i64 = 3600 * 1000;

/// The Beijing calendar day of an instant, as days since 1970-01-01.
pub fn day(ms: i64) -> i64 {
    (ms + OFFSET_MS).div_euclid(DAY_MS)
}

/// The first millisecond of Beijing day `day` (days since 1970-01-01).
pub fn day_start_of(day: i64) -> i64 {
    day * DAY_MS - OFFSET_MS
}

/// The first millisecond of an instant's Beijing day.
pub fn day_start(ms: i64) -> i64 {
    day_start_of(day(ms))
}

/// The last millisecond (23:59:59.999) of the Beijing day `days` days after an instant's: a
/// card's expiry (commerce.md §4.12).
pub fn day_end(ms: i64, days: i64) -> i64 {
    day_start_of(day(ms) + days + 1) - 1
}

/// The hour of the day (0..24).
pub fn hour(ms: i64) -> i64 {
    (ms + OFFSET_MS).rem_euclid(DAY_MS) / HOUR_MS
}

/// The unix ms of a Beijing wall-clock time.
pub fn at(y: i64, m: i64, d: i64, h: i64, min: i64) -> i64 {
    day_start_of(days_from_civil(y, m, d)) + h * HOUR_MS + min * 60_000
}

/// (year, month, day) of an instant.
pub fn date(ms: i64) -> (i64, i64, i64) {
    civil_from_days(day(ms))
}

/// "YYYY-MM-DD" of an instant's day.
pub fn date_text(ms: i64) -> String {
    let (y, m, d) = date(ms);
    format!("{y:04}-{m:02}-{d:02}")
}

/// "YYYY-MM" of an instant's month, and the first millisecond of the next month.
pub fn month(ms: i64) -> (String, i64) {
    let (y, m, _) = date(ms);
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    (format!("{y:04}-{m:02}"), day_start_of(days_from_civil(ny, nm, 1)))
}

/// The first millisecond of an instant's month.
pub fn month_start(ms: i64) -> i64 {
    let (y, m, _) = date(ms);
    day_start_of(days_from_civil(y, m, 1))
}

/// "YYYY-MM-DD HH:mm" (as players read a time).
pub fn minute_text(ms: i64) -> String {
    let (y, m, d) = date(ms);
    let minute = (ms + OFFSET_MS).rem_euclid(DAY_MS) / 60_000;
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", minute / 60, minute % 60)
}

/// "YYYY-MM-DD HH:mm:ss".
pub fn format(ms: i64) -> String {
    let (y, m, d) = date(ms);
    let secs = (ms + OFFSET_MS).rem_euclid(DAY_MS) / 1000;
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// Reads "YYYY-MM-DD HH:mm:ss" (or "YYYY-MM-DD"); the unix ms, or None if malformed or not a
/// real day (2025-02-30 is refused rather than rolled over).
pub fn parse(s: &str) -> Option<i64> {
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
    if civil_from_days(days) != (y, m, day) {
        return None;
    }
    Some(day_start_of(days) + (h * 3600 + min * 60 + sec) * 1000)
}

/// (year, month, day) of a day number (days since 1970-01-01); Howard Hinnant's algorithm.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The day number (days since 1970-01-01) of a calendar date.
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-27 20:59 Beijing is 12:59 UTC; its day, hour, month and texts.
    #[test]
    fn beijing_calendar() {
        let t = at(2026, 11, 27, 20, 59);
        assert_eq!(t, 1_795_784_340_000);
        assert_eq!((date(t), hour(t)), ((2026, 11, 27), 20));
        assert_eq!(minute_text(t), "2026-11-27 20:59");
        assert_eq!(format(t), "2026-11-27 20:59:00");
        assert_eq!(parse("2026-11-27 20:59:00"), Some(t));
        assert_eq!(parse("2026-02-30"), None);
        assert_eq!(day_start(t), at(2026, 11, 27, 0, 0));
        assert_eq!(day_end(t, 0), at(2026, 11, 28, 0, 0) - 1);
        assert_eq!(month(t), ("2026-11".to_string(), at(2026, 12, 1, 0, 0)));
        assert_eq!(month_start(t), at(2026, 11, 1, 0, 0));
        // 23:30 Beijing is still the same day in Beijing, the next in no other sense.
        assert_eq!(day(at(2026, 12, 31, 23, 30)), days_from_civil(2026, 12, 31));
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
    }
}
