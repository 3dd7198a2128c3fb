//! Membership rules (commerce.md §4.7, §6) as plain functions: the member play-time grants
//! (vip 1 h daily; vvip 2 h daily plus 20 h monthly valid 31 days; a daily grant is void at the
//! next 0:00 UTC+8), the days to and since expiry, and the privilege table.

use crate::play::holdings::Holdings;

pub use crate::beijing::DAY_MS;

/// How long the monthly member grant stays usable.
pub const MONTHLY_GRANT_VALID_MS: i64 = 31 * DAY_MS;

/// The minutes of the daily and monthly grants of a membership in use (`member_type`).
pub fn grant_minutes(member_type: Option<&str>) -> (i64, i64) {
    match member_type {
        Some("vvip" | "hvip") => (120, 1200),
        Some("vip") => (60, 0),
        _ => (0, 0),
    }
}

/// The profile's `privilege.playtime` (minutes daily, monthly).
pub fn playtime_privilege(h: &Holdings) -> (i64, i64) {
    if h.is_vvip() {
        grant_minutes(Some("vvip"))
    } else if h.is_member() {
        grant_minutes(Some("vip"))
    } else {
        (0, 0)
    }
}

/// The UTC+8 day of `now_ms` as `YYYY-MM-DD`, and the first millisecond of the next day
/// (when the daily grant is void).
pub fn cst_day(now_ms: i64) -> (String, i64) {
    (crate::beijing::date_text(now_ms), crate::beijing::day_end(now_ms, 0) + 1)
}

/// One grant to receive now: its kind (daily, monthly), period, minutes and expiry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantPlan {
    pub kind: &'static str,
    pub period: String,
    pub minutes: i64,
    pub expires_at: i64,
}

/// The grants a membership in use may receive at `now_ms`: the daily one (this UTC+8 day,
/// void at the next midnight), and for vvip the monthly one (this UTC+8 month, 31 days).
pub fn grant_plans(member_type: Option<&str>, now_ms: i64) -> Vec<GrantPlan> {
    let (daily, monthly) = grant_minutes(member_type);
    let mut out = vec![];
    if daily > 0 {
        let (day, next) = cst_day(now_ms);
        out.push(GrantPlan {
            kind: "daily",
            period: day,
            minutes: daily,
            expires_at: next,
        });
    }
    if monthly > 0 {
        let (month, _) = crate::beijing::month(now_ms);
        out.push(GrantPlan {
            kind: "monthly",
            period: month,
            minutes: monthly,
            expires_at: now_ms + MONTHLY_GRANT_VALID_MS,
        });
    }
    out
}

/// Whether the `type` a client asks the grant for names the membership in use ('hvip' is
/// 'vvip').
pub fn type_matches(asked: &str, using: Option<&str>) -> bool {
    let norm = |t: &str| if t == "hvip" { "vvip".to_owned() } else { t.to_owned() };
    using.is_some_and(|u| norm(asked.trim()) == norm(u))
}

/// Days to expiry (§4.7): whole days rounded up from `now_ms` to `expired_at`; 0 reads 今天.
pub fn days_to_expiry(expired_at: i64, now_ms: i64) -> i64 {
    let left = expired_at - now_ms;
    if left <= 0 {
        0
    } else {
        (left + DAY_MS - 1) / DAY_MS
    }
}

/// Days since expiry (§4.7): whole days rounded down from `expired_at` to `now_ms`.
pub fn days_since_expiry(expired_at: i64, now_ms: i64) -> i64 {
    ((now_ms - expired_at).max(0)) / DAY_MS
}

/// What a member may upgrade now (commerce.md §2.4, §2.5 "upgrade view"): the days of the
/// membership `from` in use that turn into `to`, day for day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpgradeQuote {
    pub from: &'static str,
    pub to: &'static str,
    /// Whole days left of `from`, rounded up: what is bought (one goods unit a day).
    pub up_days: i64,
}

/// The upgrade a player may buy at `now_ms`: a vip in use (not vvip, not a carrier membership)
/// with time left becomes vvip for its days left. None otherwise.
pub fn upgrade_quote(h: &Holdings, now_ms: i64) -> Option<UpgradeQuote> {
    if h.member_type() != Some("vip") {
        return None;
    }
    let ends = h.member_entitlements().filter(|e| e.kind == "vip").map(|e| e.expires_at).max()?;
    let up_days = days_to_expiry(ends, now_ms);
    (up_days >= 1).then_some(UpgradeQuote {
        from: "vip",
        to: "vvip",
        up_days,
    })
}

/// The member expiry popup of a membership that ends soon (commerce.md §2.8, §4.7).
pub const EXPIRE_NEAR: i32 = 4;
/// The member expiry popup of a membership that has ended.
pub const EXPIRE_LAPSED: i32 = 8;

/// One member expiry popup of `common_config.member_expire` (commerce.md §3, §4.7): shown when
/// the days to (type 4) or since (type 8) the end of the membership are one of `day_step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpiryPopup {
    pub expire_type: i32,
    pub day_step: &'static [i64],
    pub message: &'static str,
    pub privilege_hint: &'static str,
}

/// The popups the platform runs: a week, three days, the day before and the last day of a
/// membership; the day after it ended, then three, seven, fifteen and thirty days after.
pub const EXPIRY_POPUPS: [ExpiryPopup; 2] = [
    ExpiryPopup {
        expire_type: EXPIRE_NEAR,
        day_step: &[7, 3, 1, 0],
        message: "会员到期后，专属时长、会员通道等特权将无法使用",
        privilege_hint: "续费会员，特权不中断",
    },
    ExpiryPopup {
        expire_type: EXPIRE_LAPSED,
        day_step: &[1, 3, 7, 15, 30],
        message: "开通会员，立即恢复专属时长、会员通道等特权",
        privilege_hint: "重新开通，特权立即恢复",
    },
];

/// A cell of the privilege table: a yes/no, or a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Flag(bool),
    Text(&'static str),
}

/// One row of the privilege comparison (commerce.md §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrivilegeRow {
    pub code: &'static str,
    pub title: &'static str,
    pub normal: Cell,
    pub vip: Cell,
    pub vvip: Cell,
    /// Shown greyed.
    pub gray: bool,
}

use Cell::{Flag, Text};

const fn row(code: &'static str, title: &'static str, normal: Cell, vip: Cell, vvip: Cell) -> PrivilegeRow {
    PrivilegeRow {
        code,
        title,
        normal,
        vip,
        vvip,
        gray: false,
    }
}

/// The privilege comparison of commerce.md §6 (normal / vip / vvip).
pub const PRIVILEGES: [PrivilegeRow; 16] = [
    row("time", "会员专享时长", Flag(false), Text("每日1小时"), Text("每日2小时+每月20小时")),
    row("game", "会员专属游戏", Flag(false), Flag(true), Flag(true)),
    row("fastenter", "每月速进卡", Flag(false), Text("3张1小时"), Text("5张1小时")),
    row("queue", "会员排队通道", Flag(false), Flag(true), Flag(true)),
    row("sleep", "待机自动退出", Text("5分钟"), Text("10分钟"), Text("15分钟")),
    row("hang", "挂机模式", Flag(false), Flag(true), Flag(true)),
    row("discount", "会员折扣商品", Flag(false), Flag(true), Flag(true)),
    row("bd", "蓝光画质", Flag(false), Flag(true), Flag(true)),
    PrivilegeRow {
        gray: true,
        ..row("transform", "跨屏续玩", Flag(false), Flag(true), Flag(true))
    },
    row("mark", "铭牌标识", Flag(false), Flag(true), Flag(true)),
    row("growUp", "成长加速", Flag(false), Text("1.2倍"), Text("1.5倍")),
    row("photoFrame", "头像框", Flag(false), Flag(true), Flag(true)),
    row("textColor", "聊天背景", Flag(false), Flag(true), Flag(true)),
    row("RedName", "一起玩红名", Flag(false), Flag(true), Flag(true)),
    row("nameCard", "名片", Flag(false), Flag(true), Flag(true)),
    row("gift", "每日3个免费礼物", Flag(false), Flag(true), Flag(true)),
];

/// The privilege keys of each tier (commerce.md §6).
pub const VIP_KEYS: [&str; 10] = [
    "1080p",
    "bd",
    "discount",
    "fastenter",
    "mark",
    "member",
    "queue",
    "sleep",
    "time",
    "transform",
];
pub const VVIP_KEYS: [&str; 18] = [
    "1080p",
    "RedName",
    "bd",
    "discount",
    "fastenter",
    "game",
    "gift",
    "growUp",
    "hang",
    "mark",
    "member",
    "nameCard",
    "photoFrame",
    "queue",
    "sleep",
    "textColor",
    "time",
    "transform",
];

#[cfg(test)]
mod tests {
    use super::*;
    use storage::Entitlement;

    const HOUR_MS: i64 = 3600 * 1000;
    /// 2026-11-22 00:00 in UTC+8, as unix ms.
    const MIDNIGHT_CST: i64 = 1795305600000 - 8 * HOUR_MS;

    #[test]
    fn grants_by_tier() {
        assert_eq!(grant_minutes(Some("vip")), (60, 0));
        assert_eq!(grant_minutes(Some("vvip")), (120, 1200));
        assert_eq!(grant_minutes(Some("hvip")), (120, 1200));
        assert_eq!(grant_minutes(Some("tyvip")), (0, 0));
        assert_eq!(grant_minutes(None), (0, 0));
        let h = |k: &str| Holdings {
            entitlements: vec![Entitlement {
                uid: 1,
                kind: k.into(),
                starts_at: 0,
                expires_at: i64::MAX,
            }],
            ..Holdings::default()
        };
        assert_eq!(playtime_privilege(&h("vvip")), (120, 1200));
        assert_eq!(playtime_privilege(&h("vip")), (60, 0));
        assert_eq!(playtime_privilege(&h("tyvip")), (0, 0));
    }

    // The daily grant belongs to the UTC+8 day and is void at the next UTC+8 midnight, even
    // when received a minute before it; the monthly one lasts 31 days.
    #[test]
    fn daily_grant_ends_at_midnight_cst() {
        let late = MIDNIGHT_CST + 24 * HOUR_MS - 60_000;
        let plans = grant_plans(Some("vvip"), late);
        assert_eq!(plans.len(), 2);
        assert_eq!(plans[0].kind, "daily");
        assert_eq!(plans[0].period, "2026-11-22");
        assert_eq!(plans[0].expires_at, MIDNIGHT_CST + 24 * HOUR_MS);
        assert_eq!(plans[0].minutes, 120);
        assert_eq!(plans[1].period, "2026-11");
        assert_eq!(plans[1].expires_at, late + 31 * DAY_MS);
        // a minute later it is the next day's grant
        let next = grant_plans(Some("vip"), MIDNIGHT_CST + 24 * HOUR_MS);
        assert_eq!(next.len(), 1);
        assert_eq!(next[0].period, "2026-11-23");
        assert_eq!(next[0].minutes, 60);
        // 16:00 UTC is already the next day in UTC+8
        assert_eq!(cst_day(MIDNIGHT_CST - 1).0, "2026-11-21");
        assert!(grant_plans(None, late).is_empty());
    }

    #[test]
    fn asked_type_must_be_held() {
        assert!(type_matches("vvip", Some("vvip")));
        assert!(type_matches("hvip", Some("vvip")));
        assert!(!type_matches("vvip", Some("vip")));
        assert!(!type_matches("vip", None));
        assert!(!type_matches("", Some("vip")));
    }

    #[test]
    fn day_counts() {
        assert_eq!(days_to_expiry(1000, 1000), 0);
        assert_eq!(days_to_expiry(1000 + 1, 1000), 1);
        assert_eq!(days_to_expiry(1000 + DAY_MS, 1000), 1);
        assert_eq!(days_to_expiry(1000 + DAY_MS + 1, 1000), 2);
        assert_eq!(days_since_expiry(1000, 500), 0);
        assert_eq!(days_since_expiry(1000, 1000 + DAY_MS - 1), 0);
        assert_eq!(days_since_expiry(1000, 1000 + 2 * DAY_MS), 2);
    }

    #[test]
    fn privilege_keys_and_table() {
        assert!(VIP_KEYS.iter().all(|k| VVIP_KEYS.contains(k)));
        assert!(PRIVILEGES.iter().all(|r| r.normal != Flag(true)), "non-members get none");
        assert!(PRIVILEGES.iter().any(|r| r.code == "transform" && r.gray));
    }

    #[test]
    fn upgrade_quotes_a_vip_in_use_by_its_days_left() {
        let held = |kinds: &[(&str, i64)]| Holdings {
            entitlements: kinds
                .iter()
                .map(|(k, ends)| Entitlement {
                    uid: 1,
                    kind: (*k).to_owned(),
                    starts_at: 0,
                    expires_at: *ends,
                })
                .collect(),
            play_time_free: 0,
            play_time_paid: 0,
            cards: 0,
        };
        let now = MIDNIGHT_CST + 10 * HOUR_MS;
        let q = upgrade_quote(&held(&[("vip", now + 2 * DAY_MS + HOUR_MS)]), now).unwrap();
        assert_eq!((q.from, q.to, q.up_days), ("vip", "vvip", 3), "2 days and an hour: 3 days bought");
        assert_eq!(upgrade_quote(&held(&[("vip", now + 1)]), now).map(|q| q.up_days), Some(1));
        assert_eq!(
            upgrade_quote(&held(&[("vip", now + DAY_MS), ("daily", now + 9 * DAY_MS)]), now).map(|q| q.up_days),
            Some(1)
        );
        assert_eq!(
            upgrade_quote(&held(&[("vvip", now + DAY_MS), ("vip", now + 9 * DAY_MS)]), now),
            None,
            "vvip in use"
        );
        assert_eq!(upgrade_quote(&held(&[("tyvip", now + DAY_MS)]), now), None, "a carrier membership");
        assert_eq!(upgrade_quote(&held(&[]), now), None);
        assert_eq!(upgrade_quote(&held(&[("vip", now)]), now), None, "no time left");
    }
}
