//! The platform's shop and payment calls (commerce.md §7 "Goods, sections and products",
//! "Orders and payment", `user/balance`, `user/order`), `uid` first, typed answers.
//!
//! An order is created once per (user, idempotency key). Paid with coins it is debited and
//! fulfilled in one storage transaction; paid by QR it waits for the provider's signed notice
//! (`payment_notice`), which settles it (paid and fulfilled in one transaction) once, whatever
//! the notices do: repeated, reordered, late or forged. Its expiry is the order desk's timer.
//! Every notice is logged with what it did.

use std::time::Duration;

use storage::{GoodsGrant, NewOrder, Order, OrderState, Settled, Wallet};

use crate::commerce::fulfil::Fulfilment;
use crate::commerce::order::{poll_answer, PollAnswer};
use crate::commerce::payment::{Channel, PayRequest, Queried, SandboxOrder, SandboxPay, SandboxRefusal};
use crate::commerce::paytype::{self, PayContext, PayMethod};
use crate::commerce::pricing::{self, PriceInput};
use crate::commerce::{DeskMsg, QrTicket, Shop};
use crate::error::{DomainError, DomainResult};

/// A goods with its duration options (`speci_list`).
#[derive(Debug, Clone, PartialEq)]
pub struct GoodsItem {
    pub goods: storage::Goods,
    pub speci: Vec<storage::Goods>,
}

/// A purchase as the client submits it.
#[derive(Debug, Clone, PartialEq)]
pub struct Purchase {
    /// The goods (or duration option) id; 0 when `goods_code` names it.
    pub goods_id: i64,
    pub goods_code: Option<String>,
    pub count: i64,
    pub pay_method: PayMethod,
    /// 0 or None: no coupon.
    pub coupon_id: Option<i64>,
    /// The client's key: the same submit sent again makes no second order.
    pub idempotency_key: String,
    /// The section ad it is bought through, if any: its per-user pay-times limit applies
    /// (70109 beyond it).
    pub ad_id: Option<i64>,
}

/// What a submit made.
#[derive(Debug, Clone, PartialEq)]
pub enum Submitted {
    /// An order to pay by QR (or bank transfer).
    Order(Order),
    /// Paid with coins and fulfilled (an exchange).
    Exchanged(Order),
}

/// A QR for an order: what it encodes and the ticket its polls carry.
#[derive(Debug, Clone, PartialEq)]
pub struct QrCode {
    pub qrcode: String,
    pub ticket: String,
    pub order: Order,
}

/// What the sandbox's pay page shows.
#[derive(Debug, Clone, PartialEq)]
pub struct SandboxPage {
    pub order: Order,
    pub sandbox: SandboxOrder,
}

/// The QR tickets kept at most (the oldest go first).
const MAX_TICKETS: usize = 100_000;

impl Commerce {
    pub(crate) fn shop(&self) -> &Shop {
        self.ctx
            .slot::<crate::commerce::CommerceShared>()
            .shop
            .get()
            .expect("platform started")
    }

    pub(crate) fn desk(&self, msg: DeskMsg) {
        if let Some(d) = self
            .ctx
            .slot::<crate::commerce::CommerceShared>()
            .desk
            .get()
            .and_then(|r| r.get(&0))
        {
            let _ = d.send_message(msg);
        }
    }

    /// The goods of a section (commerce.md §7 section keys), each with its duration options.
    pub async fn section(&self, section_key: &str) -> DomainResult<Vec<GoodsItem>> {
        let key = section_key.to_owned();
        let all = self.ctx.db(move |s| s.commerce.section(&key)).await?;
        Ok(all.into_iter().map(|(goods, speci)| GoodsItem { goods, speci }).collect())
    }

    /// One goods by code or id (the code wins when both are given), with its duration options.
    pub async fn goods_item(&self, goods_code: Option<String>, goods_id: Option<i64>) -> DomainResult<GoodsItem> {
        let goods = self
            .ctx
            .db(
                move |s| match (goods_code.filter(|c| !c.is_empty()), goods_id.filter(|id| *id > 0)) {
                    (Some(code), _) => s.commerce.goods_by_code(&code),
                    (None, Some(id)) => s.commerce.goods(id),
                    (None, None) => Ok(None),
                },
            )
            .await?
            .filter(|g| g.on_sale)
            .ok_or(DomainError::UnknownGoods)?;
        let id = goods.id;
        let speci = self.ctx.db(move |s| s.commerce.speci(id)).await?;
        Ok(GoodsItem { goods, speci })
    }

    /// The coins and yoodo of a player.
    pub async fn wallet(&self, uid: i64) -> DomainResult<Wallet> {
        self.ctx.db(move |s| s.commerce.wallet(uid)).await
    }

    /// The pay methods a goods may be paid with (§4.2).
    pub fn pay_methods(goods: &storage::Goods) -> Vec<PayMethod> {
        paytype::allowed(PayContext {
            recharging_coins: matches!(goods.grant, GoodsGrant::Coins { .. }),
            auto_renew: goods.cycleable,
            coupon_group: false,
        })
    }

    /// What one unit of each goods costs a caller now, fen (§4.5 before coupons), as `submit`
    /// prices it with a count of 1: the first-period price of an auto-renew goods the caller
    /// never had, else the member price for a holder of the member-price privilege when below
    /// retail, else retail. A guest (None) pays retail. Shown by the purchase dialog, so the
    /// client restates no pricing rule.
    pub async fn unit_prices(&self, uid: Option<i64>, goods: &[&storage::Goods]) -> DomainResult<Vec<i64>> {
        let Some(uid) = uid else {
            return Ok(goods.iter().map(|g| g.retail_price).collect());
        };
        let member_privilege = self.play().holdings(uid).await?.is_member();
        let mut out = Vec::with_capacity(goods.len());
        for g in goods {
            let first_period = g.cycleable && {
                let (code, t) = (g.code.clone(), g.goods_type);
                let (orders, _) = self.ctx.db(move |s| s.commerce.orders(uid, Some(t), 0, 1000)).await?;
                !orders
                    .iter()
                    .any(|o| o.order.goods_code == code && o.state == OrderState::Fulfilled)
            };
            let price = pricing::price(&PriceInput {
                retail: g.retail_price,
                member_price: g.member_price,
                first_price: g.first_price,
                first_period,
                count: 1,
                member_privilege,
                coupon_price: None,
                group_total: None,
            });
            out.push(price.map_or(g.retail_price, |p| p.pay));
        }
        Ok(out)
    }

    /// Minors' charge limits before a payment (core-platform.md §8.2; `identity::minors`): a
    /// certified minor's payment over the limits is refused (20151); one within them asks the
    /// player to confirm first (20160), and goes on once confirmed. Coins spent are not money
    /// paid: an exchange passes.
    pub(crate) async fn charge_allowed(&self, uid: i64, amount_fen: i64, pay_method: PayMethod, confirmed: bool) -> DomainResult<()> {
        if pay_method == PayMethod::Yunyoubi {
            return Ok(());
        }
        let now = self.ctx.clock.now_ms();
        let Some(c) = self.ctx.db(move |s| s.accounts.certification(uid)).await? else {
            return Ok(());
        };
        if c.adult_at <= now {
            return Ok(());
        }
        let birth = self
            .ctx
            .slot::<crate::identity::Identity>()
            .vault
            .open(&c.id_sealed)
            .and_then(|id| crate::identity::idcard::birth_date(&id))
            .ok_or_else(|| DomainError::Internal("a certification that does not open".into()))?;
        let today = crate::beijing::date(now);
        let age = crate::identity::idcard::age_on(birth, today);
        let since = crate::beijing::month_start(now);
        let month = self.ctx.db(move |s| s.accounts.paid_since(uid, since)).await?;
        match crate::identity::minors::charge_verdict(age, amount_fen, month) {
            crate::identity::minors::ChargeVerdict::Refused(why) => Err(DomainError::MinorChargeRefused(why)),
            crate::identity::minors::ChargeVerdict::Allowed if !confirmed => Err(DomainError::MinorChargeConfirm),
            crate::identity::minors::ChargeVerdict::Allowed => Ok(()),
        }
    }

    /// Submits a purchase (`POST /api/payment/goods`): prices it (§4.5), checks the pay method
    /// (§4.2) and the quantity (1–100), and creates its order once per idempotency key. Paid
    /// with coins, the order is debited and fulfilled at once (20110 when the coins do not
    /// cover it); otherwise it waits for its payment until it expires.
    pub async fn submit(&self, uid: i64, p: Purchase) -> DomainResult<Submitted> {
        self.submit_confirmed(uid, p, false).await
    }

    /// [`Platform::submit`], with a minor's confirmation of the charge reminder (`confirm=1`).
    pub async fn submit_confirmed(&self, uid: i64, mut p: Purchase, confirmed: bool) -> DomainResult<Submitted> {
        if !(1..=100).contains(&p.count) {
            return Err(DomainError::BadQuantity);
        }
        let item = self.goods_item(p.goods_code.clone(), Some(p.goods_id)).await?;
        let goods = item.goods;
        let ad_id = match p.ad_id.filter(|id| *id != 0) {
            Some(id) => Some(self.activity().ad_of_purchase(id, &goods.code).await?.id),
            None => None,
        };
        p.count = self.purchase_count(Some(uid), &goods, p.count).await?;
        if goods.cycleable && self.renewing(uid, &goods.code).await? {
            // one auto-renewal a goods: a second would charge each period twice
            return Err(DomainError::AlreadyRenewing);
        }
        if !Commerce::pay_methods(&goods).contains(&p.pay_method) || p.pay_method == PayMethod::Bank {
            // Bank transfer is the coupon groups' alone (§4.2).
            return Err(DomainError::PayMethodUnavailable);
        }
        let now = self.ctx.clock.now_ms();
        let quoted = match self.coupon_quote(Some(uid), &goods, p.count, p.coupon_id).await {
            Err(DomainError::CouponUnusable) => {
                // The same submit again: its order holds (or used) the coupon.
                return match self.order_holding(uid, p.coupon_id, &p.idempotency_key).await? {
                    Some(o) if o.order.pay_method == PayMethod::Yunyoubi.code() => Ok(Submitted::Exchanged(o)),
                    Some(o) => Ok(Submitted::Order(o)),
                    None => Err(DomainError::CouponUnusable),
                };
            }
            q => q?,
        };
        let price = quoted.price;
        let coupon_id = quoted.applied.map(|c| c.id);
        let grant = goods.grant.times(p.count).ok_or(DomainError::BadQuantity)?;
        self.charge_allowed(uid, price.pay, p.pay_method, confirmed).await?;
        let order = NewOrder {
            order_no: new_order_no(now),
            uid,
            goods_id: goods.id,
            goods_code: goods.code.clone(),
            goods_type: goods.goods_type,
            title: goods.title.clone(),
            count: p.count,
            amount_fen: price.pay,
            retail_total: price.retail_total,
            pay_method: p.pay_method.code().to_owned(),
            coupon_id,
            grant: grant.clone(),
            idem_key: p.idempotency_key.clone(),
            created_at: now,
            expires_at: now + secs_ms(self.ctx.config.payment.order_ttl_secs),
        };
        if p.pay_method == PayMethod::Yunyoubi {
            let settled = self
                .ctx
                .db_raw(move |s| match ad_id {
                    Some(ad) => s.ads.pay_with_coins(&order, ad, now, &Fulfilment),
                    None => s.commerce.pay_with_coins(&order, now, &Fulfilment),
                })
                .await?
                .map_err(|e| match e {
                    storage::Error::Refused(storage::Refusal::AdPayTimesUsed) => DomainError::AdPayTimesUsed,
                    storage::Error::Refused(storage::Refusal::InsufficientCoins) => DomainError::InsufficientCoins,
                    storage::Error::Refused(storage::Refusal::CouponUnusable) => DomainError::CouponUnusable,
                    storage::Error::Conflict(_) => DomainError::OrderClosed,
                    e => e.into(),
                })?;
            return Ok(Submitted::Exchanged(match settled {
                Settled::Fulfilled(o) => {
                    self.order_paid(uid, &grant).await?;
                    self.activity().task_event(uid, crate::activity::mission::TaskEvent::Order).await;
                    o
                }
                Settled::Already(o) => o,
            }));
        }
        let (order, created) = self
            .ctx
            .db_raw(move |s| match ad_id {
                Some(ad) => s.ads.create_order(&order, ad),
                None => s.commerce.create_order(&order),
            })
            .await?
            .map_err(|e| match e {
                storage::Error::Refused(storage::Refusal::AdPayTimesUsed) => DomainError::AdPayTimesUsed,
                // Another order took the coupon meanwhile, or it ran out: nothing was created.
                storage::Error::Refused(storage::Refusal::CouponUnusable) => DomainError::CouponUnusable,
                e => e.into(),
            })?;
        if created {
            self.desk(DeskMsg::Arm {
                order_no: order.order.order_no.clone(),
                at_ms: order.order.expires_at,
            });
        }
        if goods.cycleable {
            // paying the first period signs the auto-renewal
            self.open_agreement(&order, &goods).await?;
        }
        match order.order.pay_method.as_str() {
            "yunyoubi" => Ok(Submitted::Exchanged(order)),
            _ => Ok(Submitted::Order(order)),
        }
    }

    /// The caller's order of this idempotency key that holds or used the coupon, if any.
    async fn order_holding(&self, uid: i64, coupon_id: Option<i64>, key: &str) -> DomainResult<Option<Order>> {
        let Some(id) = coupon_id.filter(|c| *c != 0) else { return Ok(None) };
        let Some(c) = self.ctx.db(move |s| s.coupons.coupon(id)).await?.filter(|c| c.uid == uid) else {
            return Ok(None);
        };
        let Some(no) = c.reserved_by.or(c.used_order) else {
            return Ok(None);
        };
        let order = self.ctx.db(move |s| s.commerce.order(&no)).await?;
        Ok(order.filter(|o| o.order.uid == uid && o.order.idem_key == key))
    }

    /// The price of `count` of a goods for a buyer (a guest: no privilege, no first period),
    /// by §4.5 before coupons (`coupon_quote` applies one).
    pub async fn quote(&self, uid: Option<i64>, goods: &storage::Goods, count: i64) -> DomainResult<pricing::Price> {
        let count = self.purchase_count(uid, goods, count).await?;
        let (member_privilege, first_period) = match uid {
            None => (false, false),
            Some(uid) => {
                let member = self.play().holdings(uid).await?.is_member();
                let first = goods.cycleable && {
                    let (code, t) = (goods.code.clone(), goods.goods_type);
                    let (orders, _) = self.ctx.db(move |s| s.commerce.orders(uid, Some(t), 0, 1000)).await?;
                    !orders
                        .iter()
                        .any(|o| o.order.goods_code == code && o.state == OrderState::Fulfilled)
                };
                (member, first)
            }
        };
        pricing::price(&PriceInput {
            retail: goods.retail_price,
            member_price: goods.member_price,
            first_price: goods.first_price,
            first_period,
            count,
            member_privilege,
            coupon_price: None,
            group_total: None,
        })
        .ok_or(DomainError::BadQuantity)
    }

    /// How many units a purchase buys: the count asked (1–100), except for an upgrade, which
    /// buys one unit per day left of the membership upgraded (commerce.md §2.5 "upgrade view"),
    /// refused when there is nothing to upgrade.
    pub async fn purchase_count(&self, uid: Option<i64>, goods: &storage::Goods, asked: i64) -> DomainResult<i64> {
        if let GoodsGrant::Upgrade { from, to, .. } = &goods.grant {
            let uid = uid.ok_or(DomainError::NotUpgradable)?;
            let quote = self.upgrade_quote(uid).await?.ok_or(DomainError::NotUpgradable)?;
            if quote.from != from || quote.to != to {
                return Err(DomainError::NotUpgradable);
            }
            return Ok(quote.up_days);
        }
        if !(1..=100).contains(&asked) {
            return Err(DomainError::BadQuantity);
        }
        Ok(asked)
    }

    /// The upgrade the player may buy now, if any (commerce.md §2.4's banner).
    pub async fn upgrade_quote(&self, uid: i64) -> DomainResult<Option<crate::commerce::member::UpgradeQuote>> {
        let holdings = self.play().holdings(uid).await?;
        Ok(crate::commerce::member::upgrade_quote(&holdings, self.ctx.clock.now_ms()))
    }

    /// The caller's order, or UnknownOrder.
    pub async fn order_of(&self, uid: i64, order_no: &str) -> DomainResult<Order> {
        let no = order_no.to_owned();
        self.ctx
            .db(move |s| s.commerce.order(&no))
            .await?
            .filter(|o| o.order.uid == uid)
            .ok_or(DomainError::UnknownOrder)
    }

    /// A QR for an unpaid order (`qrcode/generate`, action scan_payment): the provider's pay
    /// address and a ticket for the polls. `site` is this server's address as the caller
    /// reached it.
    pub async fn qrcode(&self, uid: i64, order_no: &str, site: &str) -> DomainResult<QrCode> {
        let order = self.order_of(uid, order_no).await?;
        let channel = match order.order.pay_method.as_str() {
            "wechat" => Channel::Wechat,
            "alipay" => Channel::Alipay,
            _ => return Err(DomainError::PayMethodUnavailable),
        };
        if order.state != OrderState::Created || order.order.expires_at <= self.ctx.clock.now_ms() {
            return Err(DomainError::OrderClosed);
        }
        let req = PayRequest {
            order_no: order.order.order_no.clone(),
            amount_fen: order.order.amount_fen,
            title: order.order.title.clone(),
            channel,
            expires_at: order.order.expires_at,
            agreement_no: self
                .agreement_of_order(&order.order.order_no)
                .await?
                .filter(|a| a.first_order == order.order.order_no)
                .map(|a| a.agreement_no),
        };
        let qrcode = self
            .shop()
            .provider
            .prepay(&req, site)
            .await
            .map_err(|e| DomainError::Internal(format!("payment provider: {e}")))?;
        let ticket = new_ticket();
        let mut tickets = self.shop().tickets.lock();
        if tickets.len() >= MAX_TICKETS {
            let oldest = tickets.iter().min_by_key(|(_, t)| t.issued).map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                tickets.remove(&k);
            }
        }
        tickets.insert(
            ticket.clone(),
            QrTicket {
                order_no: order.order.order_no.clone(),
                uid,
                issued: tokio::time::Instant::now(),
                told_scanned: false,
            },
        );
        Ok(QrCode { qrcode, ticket, order })
    }

    /// The long poll of a QR (`payment/order/polling`, §4.3): answers at once when there is
    /// news for this QR (paid: the order; scanned 20143, once a QR; cancelled 20141; the order
    /// over 20140 `invalid`; the QR too old 20140 `timeout`), else waits for a change of the
    /// order up to `poll_wait_secs` and answers 20142. Dropping the call (the client cancels)
    /// ends the wait.
    pub async fn poll_order(&self, uid: i64, order_no: &str, ticket: &str) -> DomainResult<Order> {
        let qr_ttl = Duration::from_secs(self.ctx.config.payment.qr_ttl_secs);
        let wait = Duration::from_secs(self.ctx.config.payment.poll_wait_secs);
        let issued = {
            let tickets = self.shop().tickets.lock();
            match tickets.get(ticket) {
                Some(t) if t.order_no == order_no && t.uid == uid => t.issued,
                // A QR this server does not know (another, or from before a restart): a new one.
                _ => return Err(DomainError::QrTimeout { invalid: false }),
            }
        };
        let deadline = tokio::time::Instant::now() + wait;
        let qr_end = issued + qr_ttl;
        let mut rx = self.shop().watch(order_no);
        let answer = loop {
            rx.borrow_and_update();
            let order = self.order_of(uid, order_no).await?;
            let now = tokio::time::Instant::now();
            let told = self.shop().tickets.lock().get(ticket).is_some_and(|t| t.told_scanned);
            match poll_answer(&order, told, now >= qr_end) {
                Some(PollAnswer::Paid) => break Ok(order),
                Some(PollAnswer::Scanned) => {
                    if let Some(t) = self.shop().tickets.lock().get_mut(ticket) {
                        t.told_scanned = true;
                    }
                    break Err(DomainError::QrScanned);
                }
                Some(PollAnswer::Cancelled) => break Err(DomainError::QrCancelled),
                Some(PollAnswer::Invalid) => break Err(DomainError::QrTimeout { invalid: true }),
                Some(PollAnswer::QrTimeout) => break Err(DomainError::QrTimeout { invalid: false }),
                Some(PollAnswer::Waiting) | None => {}
            }
            if now >= deadline {
                break Err(DomainError::QrWaiting);
            }
            // Wake at a change, or at the poll's end or the QR's, whichever comes first.
            let until = if now < qr_end { deadline.min(qr_end) } else { deadline };
            if tokio::time::timeout_at(until, rx.changed()).await.is_ok_and(|r| r.is_err()) {
                break Err(DomainError::QrWaiting);
            }
        };
        drop(rx);
        self.shop().unwatch(order_no);
        answer
    }

    /// `payment/query`: whether the order is paid (`true`) or still pending. An unpaid open
    /// order is checked with the provider too, and settled when it was paid (the notice may
    /// have been lost, or the server restarted before it came).
    pub async fn payment_query(&self, uid: i64, order_no: &str) -> DomainResult<(Order, bool)> {
        let order = self.order_of(uid, order_no).await?;
        if order.state == OrderState::Created {
            if let Ok(Queried::Paid(n)) = self.shop().provider.query(order_no).await {
                let body = n.encode();
                let _ = self.settle_notice(self.shop().provider.name(), &body, n).await;
                let order = self.order_of(uid, order_no).await?;
                let paid = matches!(order.state, OrderState::Paid | OrderState::Fulfilled);
                return Ok((order, paid));
            }
        }
        let paid = matches!(order.state, OrderState::Paid | OrderState::Fulfilled);
        Ok((order, paid))
    }

    /// The player's orders (bills), newest first, of one goods type when given.
    pub async fn orders(&self, uid: i64, goods_type: Option<i32>, page: u32, page_size: u32) -> DomainResult<(Vec<Order>, u64)> {
        let offset = u64::from(page.max(1) - 1) * u64::from(page_size);
        self.ctx.db(move |s| s.commerce.orders(uid, goods_type, offset, page_size)).await
    }

    /// A provider's notice on the callback route: verified (a bad signature or a malformed
    /// body changes nothing, is logged and refused), then settled once. Every notice is logged
    /// with what it did. Ok means "acknowledged": the provider stops sending it.
    pub async fn payment_notice(&self, provider: &str, body: &str, signature: &str) -> DomainResult<()> {
        let now = self.ctx.clock.now_ms();
        let shop = self.shop();
        let verified = if provider == shop.provider.name() {
            shop.provider.verify(body, signature)
        } else {
            Err(format!("unknown provider {provider}"))
        };
        let notice = match verified {
            Ok(n) => n,
            Err(reason) => {
                notice_outcome(shop.provider.name(), provider, "refused");
                let (no, p, b, r) = (
                    crate::commerce::payment::Notice::order_no_of(body),
                    provider.chars().take(32).collect::<String>(),
                    body.chars().take(2048).collect::<String>(),
                    reason.clone(),
                );
                self.ctx.db(move |s| s.commerce.log_callback(&no, &p, &b, false, &r, now)).await?;
                tracing::warn!(provider, %reason, "payment notice refused");
                return Err(DomainError::PaymentNoticeRefused(reason));
            }
        };
        self.settle_notice(provider, body, notice).await
    }

    /// Settles a verified notice and logs what it did.
    async fn settle_notice(&self, provider: &str, body: &str, n: crate::commerce::payment::Notice) -> DomainResult<()> {
        let now = self.ctx.clock.now_ms();
        let log = |accepted: bool, outcome: String| {
            let (no, p, b) = (n.order_no.clone(), provider.to_owned(), body.to_owned());
            self.ctx.db(move |s| s.commerce.log_callback(&no, &p, &b, accepted, &outcome, now))
        };
        if !n.paid() {
            // A stale "not paid" after the payment, or before it: nothing to do.
            notice_outcome(self.shop().provider.name(), provider, "not_paid");
            return log(true, format!("status {}: nothing to do", n.status)).await;
        }
        let (no, trade, amount, paid_at) = (n.order_no.clone(), n.trade_no.clone(), n.amount_fen, n.paid_at);
        let settled = self
            .ctx
            .db_raw(move |s| s.commerce.settle(&no, amount, &trade, paid_at, now, &Fulfilment))
            .await?;
        match settled {
            Ok(Settled::Fulfilled(order)) => {
                notice_outcome(self.shop().provider.name(), provider, "fulfilled");
                log(true, "paid and fulfilled".into()).await?;
                self.desk(DeskMsg::Disarm(n.order_no.clone()));
                self.shop().changed(&n.order_no);
                tracing::info!(order_no = %n.order_no, uid = order.order.uid, "order paid and fulfilled");
                self.activity()
                    .task_event(order.order.uid, crate::activity::mission::TaskEvent::Order)
                    .await;
                self.order_paid(order.order.uid, &order.order.grant).await?;
                self.agreement_order_paid(&order).await
            }
            Ok(Settled::Already(_)) => {
                notice_outcome(self.shop().provider.name(), provider, "duplicate");
                log(true, "duplicate: already fulfilled".into()).await
            }
            Err(storage::Error::NotFound) => {
                notice_outcome(self.shop().provider.name(), provider, "unknown_order");
                log(false, "unknown order".into()).await?;
                Err(DomainError::PaymentNoticeRefused("unknown order".into()))
            }
            Err(storage::Error::Conflict(why)) => {
                // Paid for an order that is closed (cancelled, expired before the payment),
                // or a second payment of it: the money goes back.
                notice_outcome(self.shop().provider.name(), provider, "refunded");
                self.shop().provider.refund(&n.order_no, &n.trade_no);
                log(true, format!("refunded: {why}")).await
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Settles the open orders the provider says were paid (at start: notices lost to a crash).
    pub(crate) async fn reconcile_orders(&self) -> DomainResult<()> {
        let open = self.ctx.db(|s| s.commerce.open_orders()).await?;
        for o in open {
            if let Ok(Queried::Paid(n)) = self.shop().provider.query(&o.order.order_no).await {
                let body = n.encode();
                let name = self.shop().provider.name();
                self.settle_notice(name, &body, n).await?;
            }
        }
        Ok(())
    }

    /// Orders, QR polling and the sandbox's settings.
    pub fn payment_config(&self) -> &crate::config::PaymentConfig {
        &self.ctx.config.payment
    }

    /// The sandbox provider (dev mode).
    pub fn sandbox_pay(&self) -> Option<&SandboxPay> {
        self.shop().provider.sandbox()
    }

    /// The sandbox's pay page was opened: the order and the sandbox's side of it; the QR counts
    /// as scanned.
    pub async fn sandbox_open(&self, order_no: &str) -> DomainResult<SandboxPage> {
        let sandbox = self.sandbox_pay().ok_or(DomainError::UnknownOrder)?;
        let theirs = sandbox.open(order_no).map_err(|_| DomainError::UnknownOrder)?;
        let (no, now) = (order_no.to_owned(), self.ctx.clock.now_ms());
        let order = self
            .ctx
            .db_raw(move |s| s.commerce.mark_scanned(&no, now))
            .await?
            .map_err(|e| match e {
                storage::Error::NotFound => DomainError::UnknownOrder,
                e => e.into(),
            })?;
        self.shop().changed(order_no);
        Ok(SandboxPage { order, sandbox: theirs })
    }

    /// Every user's ledger replayed against their balances, in one transaction: (users
    /// checked, each mismatch).
    pub async fn ledger_check(&self) -> DomainResult<(u64, Vec<storage::LedgerMismatch>)> {
        self.ctx.db(|s| s.commerce.ledger_check_all()).await
    }

    /// The payer confirmed on the sandbox's page: the sandbox takes the money and sends its notice.
    pub fn sandbox_confirm(&self, order_no: &str) -> DomainResult<()> {
        let sandbox = self.sandbox_pay().ok_or(DomainError::UnknownOrder)?;
        sandbox.confirm(order_no, self.ctx.clock.now_ms()).map(|_| ()).map_err(|e| match e {
            SandboxRefusal::UnknownOrder => DomainError::UnknownOrder,
            SandboxRefusal::NotPending | SandboxRefusal::Expired => DomainError::OrderClosed,
        })
    }

    /// The payer cancelled on the sandbox's page: the order is cancelled (its poll answers 20141).
    pub async fn sandbox_cancel(&self, order_no: &str) -> DomainResult<()> {
        let sandbox = self.sandbox_pay().ok_or(DomainError::UnknownOrder)?;
        sandbox.cancel(order_no).map_err(|e| match e {
            SandboxRefusal::UnknownOrder => DomainError::UnknownOrder,
            _ => DomainError::OrderClosed,
        })?;
        let (no, now) = (order_no.to_owned(), self.ctx.clock.now_ms());
        if self.ctx.db(move |s| s.commerce.cancel(&no, now)).await? {
            self.desk(DeskMsg::Disarm(order_no.to_owned()));
        }
        self.shop().changed(order_no);
        Ok(())
    }
}

/// Counts a payment notice by what it did: `yoo_payment_notices_total{provider,outcome}`. The
/// provider label is the configured provider's name or `other` (the callback path's name is the
/// caller's: never a label as given).
fn notice_outcome(ours: &'static str, named: &str, outcome: &'static str) {
    let provider = if named == ours { ours } else { "other" };
    metrics::counter!("yoo_payment_notices_total", "provider" => provider, "outcome" => outcome).increment(1);
}

pub(crate) fn secs_ms(secs: u64) -> i64 {
    i64::try_from(secs.saturating_mul(1000)).unwrap_or(i64::MAX)
}

/// A new order number: the time in ms and six random digits (unique by the table's key).
pub(crate) fn new_order_no(now_ms: i64) -> String {
    format!("Y{now_ms}{:06}", rand::random::<u32>() % 1_000_000)
}

/// A QR ticket: 128 random bits, hex.
fn new_ticket() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// The calls of the commerce feature: the shop, orders, payments, coupons, memberships, packages, merchants, agreements.
#[derive(Clone)]
pub struct Commerce {
    pub(crate) ctx: std::sync::Arc<crate::ctx::Ctx>,
}

/// The features commerce calls (ARCHITECTURE.md lists the arrows).
impl Commerce {
    pub(crate) fn play(&self) -> crate::play::service::Play {
        crate::play::service::Play { ctx: self.ctx.clone() }
    }

    pub(crate) fn activity(&self) -> crate::activity::service::Activities {
        crate::activity::service::Activities { ctx: self.ctx.clone() }
    }

    pub(crate) fn messages(&self) -> crate::messages::Messages {
        crate::messages::Messages { ctx: self.ctx.clone() }
    }

    pub(crate) fn clock(&self) -> crate::clock::Clock {
        self.ctx.clock
    }
}
