//! The commerce feature's shared JSON shapes: a card of the backpack (a fast-entry card, a time
//! card, a coupon), which the backpack and the packages show.

use serde::Serialize;
use utoipa::ToSchema;

use super::coupons::CouponDto;

/// A card of the backpack as the card list shows it: a fast-entry card (`play_type` 0) or a
/// time card (commerce.md §2.13, §4.12).
#[derive(Serialize, ToSchema)]
pub struct Card {
    pub id: i64,
    pub goods_title: String,
    /// ms: 23:59:59.999 (UTC+8) of the last day it can be used.
    pub expires_at: i64,
    /// 0 unused, 1 used, 2 expired (an unused card past `expires_at` reads 2), 3 invalidated.
    pub status: i32,
    /// 1 card, 2 gift, 3 coupon.
    pub card_type: i32,
    /// 0 a fast-entry card; a time card's play-time type: 1 paid, 2 free, 4 exclusive.
    pub play_type: i32,
    /// The play minutes a time card adds when used (0 for a fast-entry card).
    pub minutes: i64,
    /// Where it came from: shop, grant, monthly, ...
    pub source: String,
    /// ms; None until used.
    pub used_at: Option<i64>,
    /// Unused and expiring within 3 days: the item shows a countdown.
    pub near_expiration: bool,
    /// How many more times it may be given (the '赠送' button shows while unused and > 0).
    pub remain_give_times: i32,
    /// The phone the caller gave it to ('赠送给{phone}').
    pub target_user: Option<CardUser>,
    /// The phone that gave it to the caller ('{phone}赠送给我').
    pub from_user: Option<CardUser>,
    /// A coupon (card_type 3): the coupon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coupon: Option<CouponDto>,
}

/// The other side of a given card.
#[derive(Serialize, ToSchema)]
pub struct CardUser {
    pub phone: String,
}

/// A card as read at `now_ms`: an unused card that ran out reads as expired.
pub fn card_at(c: &storage::FastEnterCard, now_ms: i64) -> Card {
    let usable = c.status == 0 && c.expires_at > now_ms;
    Card {
        id: c.id,
        goods_title: c.goods_title.clone(),
        expires_at: c.expires_at,
        status: if c.status == 0 && !usable { 2 } else { c.status },
        card_type: 1,
        play_type: c.play_type,
        minutes: c.minutes,
        source: c.source.clone(),
        used_at: c.used_at,
        near_expiration: usable && c.expires_at - now_ms <= actors::play::holdings::NEAR_EXPIRY_MS,
        remain_give_times: c.remain_give_times,
        target_user: c.given_to.clone().map(|phone| CardUser { phone }),
        from_user: c.given_from.clone().map(|phone| CardUser { phone }),
        coupon: None,
    }
}

/// A coupon as a backpack card (card_type 3).
pub fn coupon_card(c: CouponDto) -> Card {
    Card {
        id: c.id,
        goods_title: c.goods_title.clone(),
        expires_at: c.expires_at,
        status: c.status,
        card_type: 3,
        play_type: 0,
        minutes: 0,
        source: c.source.clone(),
        used_at: c.used_at,
        near_expiration: c.near_expiration,
        remain_give_times: 0,
        target_user: None,
        from_user: None,
        coupon: Some(c),
    }
}
