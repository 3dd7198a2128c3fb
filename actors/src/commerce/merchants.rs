//! The merchant area's calls (commerce.md §2.14, §7 "Merchant"): whether it is open to a user,
//! the goods with their tiers, a coupon group's submit (priced by tiers, one order per
//! idempotency key, paid by QR or bank transfer through the provider like every order), its
//! records with the redeem keys a paid group issued, and the redeem of a key by any user.

use crate::commerce::service::Commerce;
use storage::merchant::{GroupItem, MerchantGoods, NewGroupOrder, RedeemKey, GROUP_GOODS_CODE, GROUP_GOODS_ID, GROUP_GOODS_TYPE};
use storage::{Coupon, GoodsGrant, NewOrder, Order};

use crate::commerce::merchant::{self as rules, CartFault};
use crate::commerce::payment::{Channel, PayRequest};
use crate::commerce::paytype::{self, PayContext, PayMethod};
use crate::commerce::service::{new_order_no, secs_ms};
use crate::commerce::tiers::Tier;
use crate::commerce::DeskMsg;
use crate::error::{DomainError, DomainResult};

/// A coupon group as the client submits it.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupPurchase {
    /// (merchant goods id, num), as in the cart.
    pub goods: Vec<(i64, i64)>,
    pub pay_method: PayMethod,
    pub idempotency_key: String,
    /// A minor confirmed the charge reminder.
    pub confirmed: bool,
}

/// A submitted coupon group: its order, lines and, for a bank transfer, the provider's page
/// (the sandbox's in dev mode, where a tester marks the transfer received).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupOrder {
    pub order: Order,
    pub items: Vec<GroupItem>,
    pub pay_url: Option<String>,
}

/// One record's detail: the order, its lines and its keys (none before it is paid).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupRecord {
    pub order: Order,
    pub items: Vec<GroupItem>,
    pub keys: Vec<RedeemKey>,
}

fn tiers_of(g: &MerchantGoods) -> Vec<Tier> {
    g.tiers
        .iter()
        .map(|t| Tier {
            min_num: t.min_num,
            max_num: t.max_num,
            price: t.price,
        })
        .collect()
}

impl Commerce {
    /// Whether the merchant area is open to the user (app info status 1): to everyone under
    /// `[payment] merchant_open`, else to the users of `merchant_uids`.
    pub fn merchant_open(&self, uid: i64) -> bool {
        let p = &self.ctx.config.payment;
        p.merchant_open || p.merchant_uids.contains(&uid)
    }

    /// Seconds a bank transfer may take (`limitTime`).
    pub fn bank_limit_secs(&self) -> u64 {
        self.ctx.config.payment.bank_limit_secs
    }

    /// The merchant goods on sale with their tiers; MerchantClosed for a user it is closed to.
    pub async fn merchant_goods(&self, uid: i64) -> DomainResult<Vec<MerchantGoods>> {
        if !self.merchant_open(uid) {
            return Err(DomainError::MerchantClosed);
        }
        self.ctx.db(|s| s.merchant.merchant_goods()).await
    }

    /// Submits a coupon group (`mch/v1/payment/submit`): only lines of a count above 0 (none:
    /// EmptyCart), each priced by its tier (a count no tier prices: GroupQuantity), paid by
    /// wechat, alipay or bank (§4.2), once per idempotency key. A bank order waits
    /// `bank_limit_secs` for its transfer; the provider is told of it at once (its page is
    /// `pay_url`). `site` is this server's address as the caller reached it.
    pub async fn submit_group(&self, uid: i64, p: GroupPurchase, site: &str) -> DomainResult<GroupOrder> {
        if !self.merchant_open(uid) {
            return Err(DomainError::MerchantClosed);
        }
        if !paytype::allowed(PayContext {
            coupon_group: true,
            ..Default::default()
        })
        .contains(&p.pay_method)
        {
            return Err(DomainError::PayMethodUnavailable);
        }
        let goods = self.ctx.db(|s| s.merchant.merchant_goods()).await?;
        let tiers: Vec<(i64, Vec<Tier>)> = goods.iter().map(|g| (g.id, tiers_of(g))).collect();
        let (lines, total) =
            rules::price_cart(&p.goods, |id| tiers.iter().find(|(g, _)| *g == id).map(|(_, t)| &t[..])).map_err(|f| match f {
                CartFault::Empty => DomainError::EmptyCart,
                CartFault::UnknownGoods => DomainError::UnknownGoods,
                CartFault::Quantity => DomainError::GroupQuantity,
            })?;
        self.charge_allowed(uid, total, p.pay_method, p.confirmed).await?;
        let now = self.ctx.clock.now_ms();
        let name_of = |id: i64| goods.iter().find(|g| g.id == id).map(|g| g.name.clone()).unwrap_or_default();
        let items: Vec<GroupItem> = lines
            .iter()
            .map(|l| GroupItem {
                goods_id: l.goods_id,
                name: name_of(l.goods_id),
                num: l.num,
                unit_price: l.unit_price,
            })
            .collect();
        let count: i64 = lines.iter().map(|l| l.num).sum();
        let mut keys = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
        for l in &lines {
            for _ in 0..l.num {
                keys.push((rules::new_key(rand::random::<u32>), l.goods_id));
            }
        }
        let title = match &items[..] {
            [one] => format!("{} x{}", one.name, one.num),
            [first, ..] => format!("{}等{}张", first.name, count),
            [] => String::new(),
        };
        let ttl = if p.pay_method == PayMethod::Bank {
            self.ctx.config.payment.bank_limit_secs
        } else {
            self.ctx.config.payment.order_ttl_secs
        };
        let order = NewGroupOrder {
            order: NewOrder {
                order_no: new_order_no(now),
                uid,
                goods_id: GROUP_GOODS_ID,
                goods_code: GROUP_GOODS_CODE.into(),
                goods_type: GROUP_GOODS_TYPE,
                title,
                count: 1,
                amount_fen: total,
                retail_total: lines.iter().map(|l| l.retail_price * l.num).sum(),
                pay_method: p.pay_method.code().into(),
                coupon_id: None,
                grant: GoodsGrant::RedeemKeys { count },
                idem_key: p.idempotency_key,
                created_at: now,
                expires_at: now + secs_ms(ttl),
            },
            items,
            keys,
        };
        let (order, created) = self.ctx.db(move |s| s.merchant.create_group_order(&order)).await?;
        if order.order.goods_code != GROUP_GOODS_CODE {
            // The key named another purchase.
            return Err(DomainError::OrderClosed);
        }
        if created {
            self.desk(DeskMsg::Arm {
                order_no: order.order.order_no.clone(),
                at_ms: order.order.expires_at,
            });
        }
        let pay_url = if order.order.pay_method == PayMethod::Bank.code() {
            let req = PayRequest {
                order_no: order.order.order_no.clone(),
                amount_fen: order.order.amount_fen,
                title: order.order.title.clone(),
                channel: Channel::Bank,
                expires_at: order.order.expires_at,
                agreement_no: None,
            };
            Some(
                self.shop()
                    .provider
                    .prepay(&req, site)
                    .await
                    .map_err(|e| DomainError::Internal(format!("payment provider: {e}")))?,
            )
        } else {
            None
        };
        let no = order.order.order_no.clone();
        let items = self.ctx.db(move |s| s.merchant.group_items(&no)).await?;
        Ok(GroupOrder { order, items, pay_url })
    }

    /// The caller's coupon-group order, or UnknownOrder.
    pub async fn group_order(&self, uid: i64, order_no: &str) -> DomainResult<Order> {
        let o = self.order_of(uid, order_no).await?;
        if o.order.goods_code != GROUP_GOODS_CODE {
            return Err(DomainError::UnknownOrder);
        }
        Ok(o)
    }

    /// `mch/v1/payment/query`: whether the caller's coupon group is paid.
    pub async fn group_query(&self, uid: i64, order_no: &str) -> DomainResult<(Order, bool)> {
        self.group_order(uid, order_no).await?;
        self.payment_query(uid, order_no).await
    }

    /// The caller's coupon groups, newest first.
    pub async fn group_records(&self, uid: i64, page: u32, page_size: u32) -> DomainResult<(Vec<Order>, u64)> {
        self.orders(uid, Some(GROUP_GOODS_TYPE), page, page_size).await
    }

    /// One of the caller's coupon groups with its lines and, once paid, its keys.
    pub async fn group_record(&self, uid: i64, order_no: &str) -> DomainResult<GroupRecord> {
        let order = self.group_order(uid, order_no).await?;
        let (a, b) = (order_no.to_owned(), order_no.to_owned());
        let items = self.ctx.db(move |s| s.merchant.group_items(&a)).await?;
        let keys = self
            .ctx
            .db(move |s| s.merchant.group_keys(&b))
            .await?
            .into_iter()
            .filter(|k| k.status != storage::merchant::KEY_PENDING)
            .collect();
        Ok(GroupRecord { order, items, keys })
    }

    /// Any logged-in user redeems a key once: they receive its coupon (§2.13's backpack), the
    /// buyer's redeemable keys go down by one, both in one transaction. An unknown key (or one
    /// of an unpaid group): UnknownRedeemKey; redeemed before: RedeemKeyUsed.
    pub async fn redeem_key(&self, uid: i64, typed: &str) -> DomainResult<(RedeemKey, Coupon)> {
        let key = rules::normalize_key(typed).ok_or(DomainError::UnknownRedeemKey)?;
        let k = key.clone();
        let (_, spec) = self
            .ctx
            .db(move |s| s.merchant.redeem_key_of(&k))
            .await?
            .ok_or(DomainError::UnknownRedeemKey)?;
        let now = self.ctx.clock.now_ms();
        let (_, expires_at) = crate::commerce::coupon::granted(spec, now);
        let redeemed = self.ctx.db_raw(move |s| s.merchant.redeem(&key, uid, expires_at, now)).await?;
        let (k, coupon) = redeemed.map_err(|e| match e {
            storage::Error::NotFound => DomainError::UnknownRedeemKey,
            storage::Error::Refused(storage::Refusal::KeyRedeemed) => DomainError::RedeemKeyUsed,
            e => e.into(),
        })?;
        self.play().granted(uid, &[]).await?;
        Ok((k, coupon))
    }
}
