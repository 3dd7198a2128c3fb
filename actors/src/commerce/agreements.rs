//! Auto-renewal agreements (`storage::agreements`; commerce.md §1, §2.5 renewal info, §4.2, §5):
//! paying the first period of an auto-renew goods (Alipay only) signs an agreement with the
//! provider ("pay and sign"); a day before the membership it bought ends, the order desk's
//! renewal timer makes a renewal order at the goods' retail price and asks the provider to
//! charge the agreement; the provider's notice settles that order on the usual path, which
//! extends the membership and arms the next renewal. The player cancels on the site (the
//! provider is told), or on the provider's side (the next charge is refused and the agreement
//! ends). Nothing is charged twice for a period: the renewal order of a period has one
//! idempotency key, and the provider charges an order once.

use crate::commerce::service::Commerce;
use storage::agreements::{Agreement, AGREEMENT_ACTIVE, AGREEMENT_PENDING};
use storage::{Goods, NewOrder, Order, OrderState};

use crate::commerce::payment::{Channel, PayRequest};
use crate::commerce::paytype::PayMethod;
use crate::commerce::DeskMsg;
use crate::error::{DomainError, DomainResult};

/// The agreement number of an order that signs one.
fn agreement_no_of(order_no: &str) -> String {
    format!("AG{}", order_no.trim_start_matches('Y'))
}

impl Commerce {
    /// A submit of an auto-renew goods made `order`: its pending agreement (the same one when
    /// the submit came again).
    pub(crate) async fn open_agreement(&self, order: &Order, goods: &Goods) -> DomainResult<Agreement> {
        let a = Agreement {
            agreement_no: agreement_no_of(&order.order.order_no),
            uid: order.order.uid,
            goods_id: goods.id,
            goods_code: goods.code.clone(),
            title: goods.title.clone(),
            amount_fen: goods.retail_price,
            state: AGREEMENT_PENDING,
            first_order: order.order.order_no.clone(),
            last_order: order.order.order_no.clone(),
            next_at: 0,
            periods: 0,
            created_at: order.order.created_at,
            cancelled_at: None,
        };
        self.ctx.db(move |s| s.agreements.create(&a)).await
    }

    /// The agreement paying `order_no` signs or renews, if any.
    pub(crate) async fn agreement_of_order(&self, order_no: &str) -> DomainResult<Option<Agreement>> {
        let no = order_no.to_owned();
        self.ctx.db(move |s| s.agreements.by_order(&no)).await
    }

    /// An order was fulfilled: when it was made under an agreement, settling it activated the
    /// agreement in the same transaction (`storage::sqlite::agreements::on_order_fulfilled`);
    /// its next period's timer is armed here (and again at every start).
    pub(crate) async fn agreement_order_paid(&self, order: &Order) -> DomainResult<()> {
        let Some(a) = self.agreement_of_order(&order.order.order_no).await? else {
            return Ok(());
        };
        if a.state == AGREEMENT_ACTIVE && a.last_order == order.order.order_no {
            tracing::info!(agreement_no = %a.agreement_no, periods = a.periods, next_at = a.next_at, "auto-renewal armed");
            self.desk(DeskMsg::ArmRenewal {
                agreement_no: a.agreement_no,
                at_ms: a.next_at,
            });
        }
        Ok(())
    }

    /// A renewal is due (the order desk's timer): the renewal order of this period, charged
    /// through the provider. A provider that refuses (the payer cancelled on their side) ends
    /// the agreement and closes the order.
    pub async fn renew(&self, agreement_no: &str) -> DomainResult<()> {
        let no = agreement_no.to_owned();
        let Some(a) = self.ctx.db(move |s| s.agreements.get(&no)).await? else {
            return Ok(());
        };
        let now = self.ctx.clock.now_ms();
        if a.state != AGREEMENT_ACTIVE {
            return Ok(());
        }
        if a.next_at > now {
            // armed early (a restart with a changed clock): wait for its time
            self.desk(DeskMsg::ArmRenewal {
                agreement_no: a.agreement_no,
                at_ms: a.next_at,
            });
            return Ok(());
        }
        let goods_id = a.goods_id;
        let goods = self.ctx.db(move |s| s.commerce.goods(goods_id)).await?;
        let Some(goods) = goods.filter(|g| g.on_sale) else {
            tracing::warn!(agreement_no, "auto-renewal goods no longer on sale: agreement ended");
            return self.end_agreement(&a, "goods off sale").await;
        };
        let order = NewOrder {
            order_no: crate::commerce::service::new_order_no(now),
            uid: a.uid,
            goods_id: goods.id,
            goods_code: goods.code.clone(),
            goods_type: goods.goods_type,
            title: goods.title.clone(),
            count: 1,
            amount_fen: a.amount_fen,
            retail_total: goods.retail_price,
            pay_method: PayMethod::Alipay.code().to_owned(),
            coupon_id: None,
            grant: goods.grant.clone(),
            // one renewal order a period, however often the timer fires
            idem_key: format!("renew:{}:{}", a.agreement_no, a.periods),
            created_at: now,
            expires_at: now + i64::try_from(self.ctx.config.payment.order_ttl_secs).unwrap_or(i64::MAX / 2000) * 1000,
        };
        let (order, created) = self.ctx.db(move |s| s.commerce.create_order(&order)).await?;
        if order.state != OrderState::Created {
            return Ok(());
        }
        if created {
            self.desk(DeskMsg::Arm {
                order_no: order.order.order_no.clone(),
                at_ms: order.order.expires_at,
            });
        }
        let (ag, order_no) = (a.agreement_no.clone(), order.order.order_no.clone());
        self.ctx.db(move |s| s.agreements.renewing(&ag, &order_no)).await?;
        let req = PayRequest {
            order_no: order.order.order_no.clone(),
            amount_fen: order.order.amount_fen,
            title: order.order.title.clone(),
            channel: Channel::Alipay,
            expires_at: order.order.expires_at,
            agreement_no: Some(a.agreement_no.clone()),
        };
        match self.shop().provider.deduct(&a.agreement_no, &req, now).await {
            Ok(()) => {
                tracing::info!(agreement_no, order_no = %order.order.order_no, "auto-renewal charged");
                Ok(())
            }
            Err(reason) => {
                tracing::info!(agreement_no, %reason, "auto-renewal refused by the provider: agreement ended");
                let no = order.order.order_no.clone();
                self.ctx.db(move |s| s.commerce.cancel(&no, now)).await?;
                self.desk(DeskMsg::Disarm(order.order.order_no.clone()));
                self.shop().changed(&order.order.order_no);
                self.end_agreement(&a, &reason).await
            }
        }
    }

    async fn end_agreement(&self, a: &Agreement, why: &str) -> DomainResult<()> {
        let (no, uid, now) = (a.agreement_no.clone(), a.uid, self.ctx.clock.now_ms());
        self.ctx.db(move |s| s.agreements.cancel(&no, uid, now)).await?;
        self.desk(DeskMsg::DisarmRenewal(a.agreement_no.clone()));
        tracing::info!(agreement_no = %a.agreement_no, why, "auto-renewal agreement ended");
        Ok(())
    }

    /// Whether the player's auto-renewal of this goods runs.
    pub(crate) async fn renewing(&self, uid: i64, goods_code: &str) -> DomainResult<bool> {
        Ok(self
            .agreements(uid)
            .await?
            .iter()
            .any(|a| a.state == AGREEMENT_ACTIVE && a.goods_code == goods_code))
    }

    /// The player's auto-renewals, newest first.
    pub async fn agreements(&self, uid: i64) -> DomainResult<Vec<Agreement>> {
        self.ctx.db(move |s| s.agreements.of_user(uid)).await
    }

    /// The player cancels an auto-renewal: the provider charges it no more, nothing is renewed.
    /// UnknownAgreement when it is not theirs.
    pub async fn cancel_agreement(&self, uid: i64, agreement_no: &str) -> DomainResult<Agreement> {
        let (no, now) = (agreement_no.to_owned(), self.ctx.clock.now_ms());
        match self.ctx.db_raw(move |s| s.agreements.cancel(&no, uid, now)).await? {
            Ok(_) => {}
            Err(storage::Error::NotFound) => return Err(DomainError::UnknownAgreement),
            Err(e) => return Err(e.into()),
        }
        self.shop().provider.unsign(agreement_no);
        self.desk(DeskMsg::DisarmRenewal(agreement_no.to_owned()));
        let no = agreement_no.to_owned();
        self.ctx
            .db(move |s| s.agreements.get(&no))
            .await?
            .ok_or(DomainError::UnknownAgreement)
    }
}
