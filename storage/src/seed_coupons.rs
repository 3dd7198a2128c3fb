//! The coupon kinds and the limited-time coupon activities (commerce.md §2.16, §4.13). Prices
//! are fen; goods types are the shop's (2 TIME, 3 QUEUE, 4 VIP, 5 VVIP, 19 coins).

use crate::model::CouponSpec;

/// A limited-time coupon activity: its coupons are received once per user between its start
/// and end (UTC+8 wall-clock strings), and it shows the first SKUs of its section.
#[derive(Debug, Clone, PartialEq)]
pub struct CouponActivity {
    pub id: i64,
    pub title: String,
    /// 'YYYY-MM-DD HH:mm:ss', UTC+8.
    pub start_time: String,
    pub end_time: String,
    /// The coupon kinds received, by `sid`.
    pub coupons: Vec<String>,
    /// The shop section whose goods it shows.
    pub sku_section_key: String,
}

/// `money`: (face value, threshold), fen.
fn spec(sid: &str, title: &str, goods_code: &str, goods_types: &[i32], money: (i64, i64), supermarket: bool, days: i64) -> CouponSpec {
    let (face, min) = money;
    CouponSpec {
        sid: sid.to_owned(),
        title: title.to_owned(),
        goods_code: goods_code.to_owned(),
        goods_types: goods_types.to_vec(),
        face_value: face,
        min_order_money: min,
        supermarket,
        valid_days: days,
    }
}

/// Every coupon kind.
#[rustfmt::skip] // one kind per line reads as a table
pub fn coupon_specs() -> Vec<CouponSpec> {
    vec![
        spec("welcome_time_3", "时长立减券", "", &[2], (300, 0), false, 7),
        spec("welcome_time_5", "时长满减券", "", &[2], (500, 1000), false, 30),
        spec("welcome_member_10", "会员满减券", "", &[4, 5], (1000, 4000), false, 30),
        spec("coin_2", "超市专享券", "coin_3000", &[], (200, 3000), true, 30),
        spec("act_time_8", "限时时长券", "", &[2], (800, 2800), false, 7),
        spec("act_vvip_15", "限时VVIP券", "", &[5], (1500, 4500), false, 7),
    ]
}

/// The kind of a `sid`.
pub fn coupon_spec(sid: &str) -> Option<CouponSpec> {
    coupon_specs().into_iter().find(|s| s.sid == sid)
}

/// What a new player receives (the welcome grant).
pub const WELCOME: [&str; 3] = ["welcome_time_3", "welcome_time_5", "welcome_member_10"];

/// The limited-time coupon activities.
pub fn activities() -> Vec<CouponActivity> {
    vec![
        CouponActivity {
            id: 1,
            title: "限时领券".to_owned(),
            start_time: "2024-01-01 00:00:00".to_owned(),
            end_time: "2099-12-31 23:59:59".to_owned(),
            coupons: vec!["act_time_8".to_owned(), "act_vvip_15".to_owned()],
            sku_section_key: "shop_card_time".to_owned(),
        },
        CouponActivity {
            id: 2,
            title: "新春领券".to_owned(),
            start_time: "2024-01-20 00:00:00".to_owned(),
            end_time: "2024-02-20 23:59:59".to_owned(),
            coupons: vec!["act_time_8".to_owned()],
            sku_section_key: "shop_card_time".to_owned(),
        },
        CouponActivity {
            id: 3,
            title: "未来领券".to_owned(),
            start_time: "2099-01-01 00:00:00".to_owned(),
            end_time: "2099-12-31 23:59:59".to_owned(),
            coupons: vec!["act_time_8".to_owned()],
            sku_section_key: "shop_card_time".to_owned(),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every activity and welcome coupon names a kind, and the kinds' codes are distinct.
    #[test]
    fn kinds_are_named_and_distinct() {
        let specs = coupon_specs();
        let mut sids: Vec<&str> = specs.iter().map(|s| s.sid.as_str()).collect();
        sids.sort_unstable();
        sids.dedup();
        assert_eq!(sids.len(), specs.len());
        for sid in WELCOME
            .iter()
            .copied()
            .chain(activities().iter().flat_map(|a| a.coupons.iter().map(String::as_str)))
        {
            assert!(coupon_spec(sid).is_some(), "{sid}");
        }
        assert!(specs.iter().all(|s| s.face_value > 0 && s.valid_days > 0));
    }
}
