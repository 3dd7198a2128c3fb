//! The merchant area (commerce.md §2.14, §3 "Merchant goods", §4.5 "Merchant cart"): coupon
//! goods sold in bulk at tier prices, the coupon-group orders that buy them and the redeem keys
//! a paid group issues, one per coupon bought.
//!
//! A coupon-group order is an order of the shop (`orders`, goods `GROUP_GOODS_ID`, type
//! `GROUP_GOODS_TYPE`) so that it is paid the one way every order is (QR or bank transfer, the
//! provider's signed notice, `settle`). Its lines are `coupon_group_items`; its keys are written
//! with it, pending (0), and become redeemable (1) in the transaction that fulfils it
//! (`GoodsGrant::RedeemKeys`), with the buyer's ledger entry (`Asset::RedeemKeys`: the buyer's
//! redeemable keys). A redeem is the conditional move 1 → 2 of one key in the transaction that
//! gives the redeemer the coupon with both users' ledger entries, so a key gives one coupon
//! whatever the concurrency.

use crate::model::{Coupon, CouponSpec, NewOrder, Order};
use crate::Result;

/// The goods row every coupon-group order names (orders reference a goods).
pub const GROUP_GOODS_ID: i64 = 9000;
/// The code of that goods (`goods_code` of a coupon-group order).
pub const GROUP_GOODS_CODE: &str = "coupon_group";
/// The product type of a coupon-group order (26 COUPON, commerce.md §9).
pub const GROUP_GOODS_TYPE: i32 = 26;

/// A key's states.
pub const KEY_PENDING: i32 = 0;
pub const KEY_ISSUED: i32 = 1;
pub const KEY_REDEEMED_STATE: i32 = 2;

/// One price tier of a merchant goods, fen a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tier {
    pub min_num: i64,
    pub max_num: i64,
    pub price: i64,
}

/// A merchant goods: a coupon kind sold in bulk.
#[derive(Debug, Clone, PartialEq)]
pub struct MerchantGoods {
    pub id: i64,
    pub name: String,
    /// blue or golden (the card skins of §2.14).
    pub skin: String,
    /// The coupon a redeemed key gives.
    pub coupon: CouponSpec,
    /// Ascending, not overlapping.
    pub tiers: Vec<Tier>,
    pub on_sale: bool,
    pub sort_order: i32,
}

/// One line of a coupon-group order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupItem {
    pub goods_id: i64,
    pub name: String,
    pub num: i64,
    /// fen, the tier's price for `num`.
    pub unit_price: i64,
}

/// A coupon-group order as submitted: the order, its lines and its keys (key, goods id).
#[derive(Debug, Clone, PartialEq)]
pub struct NewGroupOrder {
    pub order: NewOrder,
    pub items: Vec<GroupItem>,
    pub keys: Vec<(String, i64)>,
}

/// A redeem key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedeemKey {
    pub key: String,
    pub order_no: String,
    pub goods_id: i64,
    pub goods_name: String,
    pub buyer_uid: i64,
    /// 0 pending (the order unpaid), 1 redeemable, 2 redeemed.
    pub status: i32,
    pub redeemed_by: Option<i64>,
    pub redeemed_at: Option<i64>,
    pub coupon_id: Option<i64>,
}

pub trait MerchantRepo: Send + Sync {
    /// The goods on sale, by sort order, each with its tiers.
    fn merchant_goods(&self) -> Result<Vec<MerchantGoods>>;
    /// Creates the order with its lines and pending keys once per (user, idempotency key);
    /// returns the key's order and whether it is new.
    fn create_group_order(&self, o: &NewGroupOrder) -> Result<(Order, bool)>;
    fn group_items(&self, order_no: &str) -> Result<Vec<GroupItem>>;
    fn group_keys(&self, order_no: &str) -> Result<Vec<RedeemKey>>;
    fn redeem_key_of(&self, key: &str) -> Result<Option<(RedeemKey, CouponSpec)>>;
    /// The user redeems a redeemable key: the key becomes redeemed and the user receives one
    /// coupon of its kind expiring at `expires_at`, with the ledger entries of the buyer (−1
    /// redeem key) and the redeemer (+1 coupon), in one transaction. NotFound: no such key or
    /// not redeemable yet; Refused(KeyRedeemed): redeemed before.
    fn redeem(&self, key: &str, uid: i64, expires_at: i64, now: i64) -> Result<(RedeemKey, Coupon)>;
}

/// The seeded merchant goods (the migration writes the same).
pub fn seed_goods() -> Vec<MerchantGoods> {
    let spec = |sid: &str, title: &str, types: &[i32], face: i64| CouponSpec {
        sid: sid.to_owned(),
        title: title.to_owned(),
        goods_code: String::new(),
        goods_types: types.to_vec(),
        face_value: face,
        min_order_money: 0,
        supermarket: false,
        valid_days: 30,
    };
    let tiers = |p: [i64; 3]| {
        vec![
            Tier {
                min_num: 1,
                max_num: 9,
                price: p[0],
            },
            Tier {
                min_num: 10,
                max_num: 99,
                price: p[1],
            },
            Tier {
                min_num: 100,
                max_num: 999,
                price: p[2],
            },
        ]
    };
    vec![
        MerchantGoods {
            id: 1,
            name: "10元时长券".into(),
            skin: "blue".into(),
            coupon: spec("mch_time_10", "10元时长券", &[2], 1000),
            tiers: tiers([900, 800, 700]),
            on_sale: true,
            sort_order: 1,
        },
        MerchantGoods {
            id: 2,
            name: "30元VVIP会员券".into(),
            skin: "golden".into(),
            coupon: spec("mch_vvip_30", "30元VVIP会员券", &[5], 3000),
            tiers: tiers([2700, 2500, 2300]),
            on_sale: true,
            sort_order: 2,
        },
    ]
}
