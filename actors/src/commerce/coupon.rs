//! The coupon rules (commerce.md §2.13, §4.5, §4.6, §5) and the limited-time activities'
//! status (§2.16, §4.13), as plain functions over fen and ms.
//!
//! - A coupon is usable on a purchase (`usable` 1) when it is unused, unexpired, held by no open
//!   order, applies to the goods (its `goods_code`, else its goods types; none of either: any
//!   goods) and the purchase's price before coupons reaches its threshold (`min_order_money`).
//!   Otherwise `usable` is -2 (goods not applicable), -1 (threshold not reached) or 0.
//! - The coupon price is the price before coupons less the face value, never below 1 fen (an
//!   order is always paid for something): it is the second rule of §4.5's precedence.
//! - A coupon expires at 23:59:59.999 (UTC+8) of the day `valid_days` after the grant's.

use storage::{Coupon, CouponSpec, Goods};

use crate::play::holdings::NEAR_EXPIRY_MS;

/// `usable`: selectable.
pub const USABLE: i64 = 1;
/// `usable`: the purchase does not reach the threshold ('未达门槛').
pub const BELOW_THRESHOLD: i64 = -1;
/// `usable`: the coupon does not apply to the goods ('商品不可用').
pub const NOT_APPLICABLE: i64 = -2;
/// `usable`: used, expired or held by an open order ('不可用').
pub const UNAVAILABLE: i64 = 0;

/// The status a coupon reads at `now`: 0 unused, 1 used, 2 expired, 3 invalidated.
pub fn status_at(c: &Coupon, now_ms: i64) -> i32 {
    if c.status == 0 && c.expires_at <= now_ms {
        2
    } else {
        c.status
    }
}

/// Unused and expiring within 3 days.
pub fn near_expiration(c: &Coupon, now_ms: i64) -> bool {
    status_at(c, now_ms) == 0 && c.expires_at - now_ms <= NEAR_EXPIRY_MS
}

/// Whether the coupon applies to the goods (its code, or its parent's for a duration option,
/// else its type).
pub fn applies(spec: &CouponSpec, goods: &Goods, parent_code: Option<&str>) -> bool {
    let code_ok = spec.goods_code.is_empty() || spec.goods_code == goods.code || parent_code == Some(spec.goods_code.as_str());
    let type_ok = spec.goods_types.is_empty() || spec.goods_types.contains(&goods.goods_type);
    code_ok && type_ok
}

/// Whether (and why not) the coupon can be used on a purchase priced `order_money` fen before
/// coupons, at `now`.
pub fn usable(c: &Coupon, goods: &Goods, parent_code: Option<&str>, order_money: i64, now_ms: i64) -> i64 {
    if status_at(c, now_ms) != 0 || c.reserved_by.is_some() {
        UNAVAILABLE
    } else if !applies(&c.spec, goods, parent_code) {
        NOT_APPLICABLE
    } else if order_money < c.spec.min_order_money {
        BELOW_THRESHOLD
    } else {
        USABLE
    }
}

/// The price after the coupon: `order_money` less the face value, at least 1 fen (a price of
/// 0 or less stays as it is).
pub fn coupon_price(order_money: i64, face_value: i64) -> i64 {
    if order_money <= 0 {
        order_money
    } else {
        order_money.saturating_sub(face_value.max(0)).max(1)
    }
}

/// A coupon of `spec` granted at `now`: with its expiry.
pub fn granted(spec: CouponSpec, now_ms: i64) -> (CouponSpec, i64) {
    let expires_at = crate::beijing::day_end(now_ms, spec.valid_days.max(1) - 1);
    (spec, expires_at)
}

/// The source of the welcome coupons a new account receives.
pub const WELCOME_SOURCE: &str = "welcome";

/// The welcome coupons of a new player.
pub fn welcome(now_ms: i64) -> Vec<(CouponSpec, i64)> {
    storage::seed_coupons::WELCOME
        .iter()
        .filter_map(|sid| storage::seed_coupons::coupon_spec(sid))
        .map(|s| granted(s, now_ms))
        .collect()
}

/// An activity's status at `now`: 0 not started, 1 running, 2 over; None when a time does not
/// parse.
pub fn activity_status(start: &str, end: &str, now_ms: i64) -> Option<i32> {
    let (start, end) = (cst_ms(start)?, cst_ms(end)?);
    Some(if now_ms < start {
        0
    } else if now_ms > end + 999 {
        2
    } else {
        1
    })
}

/// 'YYYY-MM-DD HH:mm:ss' read as UTC+8, in ms (the last second counts whole: `end` is inclusive
/// through .999).
pub fn cst_ms(s: &str) -> Option<i64> {
    // a date alone is not a coupon's time
    s.trim().contains(' ').then(|| crate::beijing::parse(s)).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use storage::GoodsGrant;

    fn goods(code: &str, goods_type: i32) -> Goods {
        Goods {
            id: 1,
            code: code.into(),
            goods_type,
            title: String::new(),
            name: String::new(),
            image: String::new(),
            label: String::new(),
            description: String::new(),
            introduction: String::new(),
            give_goods_name: String::new(),
            face_value_txt: String::new(),
            face_value: 0,
            retail_price: 1000,
            member_price: 0,
            crossed_price: 0,
            cycleable: false,
            first_price: 0,
            grant: GoodsGrant::Coins { amount: 1 },
            parent_id: None,
            on_sale: true,
            sort_order: 0,
        }
    }

    fn coupon(code: &str, types: &[i32], face: i64, min: i64) -> Coupon {
        Coupon {
            id: 1,
            uid: 1,
            spec: CouponSpec {
                sid: "s".into(),
                title: "t".into(),
                goods_code: code.into(),
                goods_types: types.to_vec(),
                face_value: face,
                min_order_money: min,
                supermarket: false,
                valid_days: 1,
            },
            status: 0,
            expires_at: 10_000,
            created_at: 0,
            used_at: None,
            used_order: None,
            reserved_by: None,
            source: "grant".into(),
        }
    }

    // §5's usable values, one case a row: applicability, threshold, used, expired, held.
    #[test]
    fn usable_by_rule() {
        let time = goods("time_600", 2);
        let cases = [
            (coupon("", &[], 300, 0), 1000, USABLE),
            (coupon("", &[2], 300, 1000), 1000, USABLE),
            (coupon("", &[2], 300, 1001), 1000, BELOW_THRESHOLD),
            (coupon("", &[4, 5], 300, 0), 1000, NOT_APPLICABLE),
            (coupon("time_600", &[], 300, 0), 1000, USABLE),
            (coupon("time_300", &[], 300, 0), 1000, NOT_APPLICABLE),
            // Not applicable wins over the threshold.
            (coupon("time_300", &[], 300, 5000), 1000, NOT_APPLICABLE),
            (
                Coupon {
                    status: 1,
                    ..coupon("", &[], 300, 0)
                },
                1000,
                UNAVAILABLE,
            ),
            (
                Coupon {
                    status: 3,
                    ..coupon("", &[], 300, 0)
                },
                1000,
                UNAVAILABLE,
            ),
            (
                Coupon {
                    expires_at: 500,
                    ..coupon("", &[], 300, 0)
                },
                1000,
                UNAVAILABLE,
            ),
            (
                Coupon {
                    reserved_by: Some("Y1".into()),
                    ..coupon("", &[], 300, 0)
                },
                1000,
                UNAVAILABLE,
            ),
        ];
        for (c, money, expected) in cases {
            assert_eq!(usable(&c, &time, None, money, 500), expected, "{c:?}");
        }
        // A duration option matches its parent's code.
        let speci = goods("vvip_1m", 5);
        assert_eq!(usable(&coupon("vvip", &[], 300, 0), &speci, Some("vvip"), 1000, 0), USABLE);
    }

    #[test]
    fn coupon_price_never_below_a_fen() {
        for (money, face, expected) in [(1000, 300, 700), (1000, 1000, 1), (1000, 5000, 1), (0, 300, 0), (1000, -5, 1000)] {
            assert_eq!(coupon_price(money, face), expected);
        }
    }

    // Expired at the read: status 2; near expiry within 3 days of an unused one.
    #[test]
    fn status_and_near_expiry() {
        let c = coupon("", &[], 1, 0);
        assert_eq!(status_at(&c, 9_999), 0);
        assert_eq!(status_at(&c, 10_000), 2);
        assert!(near_expiration(&c, 0));
        assert!(!near_expiration(
            &Coupon {
                expires_at: 4 * 24 * 3600 * 1000,
                ..c.clone()
            },
            0
        ));
        assert!(!near_expiration(&Coupon { status: 1, ..c }, 0));
    }

    // A coupon granted at 2026-11-23 23:30 UTC+8 valid 1 day ends that day at 23:59:59.999 UTC+8.
    #[test]
    fn expiry_is_the_end_of_a_utc8_day() {
        let granted_at = cst_ms("2026-11-23 23:30:00").unwrap();
        let (_, end) = granted(coupon("", &[], 1, 0).spec, granted_at);
        assert_eq!(end, cst_ms("2026-11-23 23:59:59").unwrap() + 999);
        let (_, end7) = granted(
            CouponSpec {
                valid_days: 7,
                ..coupon("", &[], 1, 0).spec
            },
            granted_at,
        );
        assert_eq!(end7, cst_ms("2026-11-29 23:59:59").unwrap() + 999);
    }

    #[test]
    fn activity_status_by_utc8_times() {
        // 2024-01-01 00:00:00 UTC+8 is 2023-12-31 16:00:00 UTC.
        assert_eq!(cst_ms("2024-01-01 00:00:00"), Some(1_704_038_400_000));
        let (s, e) = ("2024-01-01 00:00:00", "2024-01-31 23:59:59");
        let start = cst_ms(s).unwrap();
        assert_eq!(activity_status(s, e, start - 1), Some(0));
        assert_eq!(activity_status(s, e, start), Some(1));
        assert_eq!(activity_status(s, e, cst_ms(e).unwrap()), Some(1));
        assert_eq!(activity_status(s, e, cst_ms(e).unwrap() + 1001), Some(2));
        assert_eq!(activity_status("x", e, 0), None);
        assert_eq!(cst_ms("2024-13-01 00:00:00"), None);
    }
}
