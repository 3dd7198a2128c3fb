//! The national rule for minors' online games: play only on Fridays, Saturdays, Sundays and
//! public holidays, 20:00–21:00 Beijing time; the holidays are configuration (they change every
//! year). Pure: the caller passes the time and the holiday list.

use crate::beijing::{self, HOUR_MS};

/// The hour (Beijing time) a minor's play window opens, and closes.
pub const WINDOW_START_HOUR: i64 = 20;
pub const WINDOW_END_HOUR: i64 = 21;
/// A minor playing at the window's end is told this long before the game ends.
pub const CUTOFF_NOTICE_MS: i64 = 60_000;

/// The refusal's texts (§8.2: the alert shows the message and the remark).
pub const PLAY_LIMIT_MESSAGE: &str = "根据国家新闻出版署相关规定，未成年人仅可在周五、周六、周日和法定节假日的20时至21时进行游戏";
pub const PLAY_LIMIT_REMARK: &str = "当前不在未成年人可游戏时段，请合理安排游戏时间";
pub const CUTOFF_MESSAGE: &str = "未成年人游戏时间即将结束";
pub const CUTOFF_REMARK: &str = "根据国家新闻出版署相关规定，未成年人游戏时段已结束，游戏将在1分钟后关闭";

/// What a minor may pay (the national rule): nothing under 8; from 8 to 15 at most 50 yuan a
/// payment and 200 a month; from 16 to 17 at most 100 and 400.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeVerdict {
    /// Within the limits: the player confirms first (20160), then it goes on.
    Allowed,
    /// Refused (20151), with why.
    Refused(&'static str),
}

pub const CHARGE_UNDER_8: &str = "根据国家相关规定，未满8周岁的用户不能使用充值服务";
pub const CHARGE_8_TO_16: &str = "根据国家相关规定，8周岁以上未满16周岁的用户，单次充值金额不得超过50元，每月充值金额累计不得超过200元";
pub const CHARGE_16_TO_18: &str = "根据国家相关规定，16周岁以上未满18周岁的用户，单次充值金额不得超过100元，每月充值金额累计不得超过400元";
/// The reminder a minor confirms before a payment within the limits (20160).
pub const CHARGE_CONFIRM: &str = "您是未成年人，本次充值需在监护人同意后进行，确认继续充值吗？";

/// The verdict for a payment of `amount_fen` by a minor of `age` who paid `month_fen` this month.
pub fn charge_verdict(age: i64, amount_fen: i64, month_fen: i64) -> ChargeVerdict {
    let (single, monthly, why) = match age {
        a if a < 8 => return ChargeVerdict::Refused(CHARGE_UNDER_8),
        a if a < 16 => (5_000, 20_000, CHARGE_8_TO_16),
        _ => (10_000, 40_000, CHARGE_16_TO_18),
    };
    if amount_fen > single || month_fen + amount_fen > monthly {
        ChargeVerdict::Refused(why)
    } else {
        ChargeVerdict::Allowed
    }
}

/// Whether the Beijing day of `now_ms` is a day minors may play on.
pub fn is_play_day(now_ms: i64, holidays: &[String]) -> bool {
    let (date, days) = (beijing::date_text(now_ms), beijing::day(now_ms));
    // 1970-01-01 was a Thursday: 0 Sunday … 5 Friday, 6 Saturday
    let weekday = (days + 4).rem_euclid(7);
    matches!(weekday, 0 | 5 | 6) || holidays.iter().any(|h| h.trim() == date)
}

/// When the window a minor may play in now ends (ms), or None outside every window.
pub fn window_end(now_ms: i64, holidays: &[String]) -> Option<i64> {
    if !is_play_day(now_ms, holidays) {
        return None;
    }
    let day_start = beijing::day_start(now_ms);
    let (start, end) = (day_start + WINDOW_START_HOUR * HOUR_MS, day_start + WINDOW_END_HOUR * HOUR_MS);
    (start..end).contains(&now_ms).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ms of a Beijing wall-clock time.
    fn beijing(y: i64, m: i64, d: i64, h: i64, min: i64) -> i64 {
        beijing::at(y, m, d, h, min)
    }

    #[test]
    fn what_minors_may_pay() {
        assert_eq!(charge_verdict(7, 100, 0), ChargeVerdict::Refused(CHARGE_UNDER_8));
        assert_eq!(charge_verdict(8, 5_000, 15_000), ChargeVerdict::Allowed);
        assert_eq!(charge_verdict(15, 5_001, 0), ChargeVerdict::Refused(CHARGE_8_TO_16));
        assert_eq!(charge_verdict(15, 5_000, 15_001), ChargeVerdict::Refused(CHARGE_8_TO_16));
        assert_eq!(charge_verdict(16, 10_000, 30_000), ChargeVerdict::Allowed);
        assert_eq!(charge_verdict(17, 10_000, 30_001), ChargeVerdict::Refused(CHARGE_16_TO_18));
        assert_eq!(beijing::month_start(beijing(2026, 11, 27, 20, 0)), beijing(2026, 11, 1, 0, 0));
        assert_eq!(beijing::month_start(beijing(2026, 12, 1, 0, 0)), beijing(2026, 12, 1, 0, 0));
    }

    #[test]
    fn fridays_weekends_and_holidays_from_eight_to_nine() {
        let none: Vec<String> = vec![];
        // 2026-11-27 is a Friday, 2026-11-30 a Monday
        assert_eq!(window_end(beijing(2026, 11, 27, 20, 0), &none), Some(beijing(2026, 11, 27, 21, 0)));
        assert_eq!(window_end(beijing(2026, 11, 27, 20, 59), &none), Some(beijing(2026, 11, 27, 21, 0)));
        assert_eq!(window_end(beijing(2026, 11, 27, 21, 0), &none), None);
        assert_eq!(window_end(beijing(2026, 11, 27, 19, 59), &none), None);
        assert!(window_end(beijing(2026, 11, 28, 20, 30), &none).is_some(), "Saturday");
        assert!(window_end(beijing(2026, 11, 29, 20, 30), &none).is_some(), "Sunday");
        assert_eq!(window_end(beijing(2026, 11, 30, 20, 30), &none), None, "Monday");
        // a holiday on a Thursday (2026-10-01)
        let holidays = vec!["2026-10-01".to_string()];
        assert_eq!(window_end(beijing(2026, 10, 1, 20, 30), &none), None);
        assert_eq!(
            window_end(beijing(2026, 10, 1, 20, 30), &holidays),
            Some(beijing(2026, 10, 1, 21, 0))
        );
        // Beijing's day, not UTC's: 20:30 Beijing on Friday is 12:30 UTC the same day
        assert!(
            is_play_day(beijing(2026, 11, 27, 0, 30), &none),
            "just after midnight Beijing, Friday"
        );
        assert!(!is_play_day(beijing(2026, 11, 26, 23, 30), &none), "Thursday night");
    }
}
