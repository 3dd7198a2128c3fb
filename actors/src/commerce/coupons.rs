//! The platform's coupon calls (commerce.md §7 "Coupons", the backpack's coupons, the
//! limited-time coupon activity of §2.16 / §4.13), `uid` first, typed answers. The rules are
//! `commerce::coupon`'s; an order holds, uses and lets go of its coupon in storage's order
//! transactions (`submit` passes the coupon it priced).

use crate::commerce::service::Commerce;
use storage::{Coupon, Goods};

use crate::commerce::coupon::{self, USABLE};
use crate::commerce::pricing::{self, Price};
use crate::commerce::service::GoodsItem;
use crate::error::{DomainError, DomainResult};

/// A coupon as offered for one purchase: with its `usable` (1, or 0 / -1 / -2: why not).
#[derive(Debug, Clone, PartialEq)]
pub struct Offered {
    pub coupon: Coupon,
    pub usable: i64,
}

/// A purchase priced with its coupons (§4.5, §4.6).
#[derive(Debug, Clone, PartialEq)]
pub struct CouponQuote {
    /// The price charged: the coupon price when a coupon applies.
    pub price: Price,
    /// The price before coupons, fen.
    pub before: i64,
    /// The coupon applied.
    pub applied: Option<Coupon>,
    /// Every unused coupon of the buyer with its `usable`, usable ones first (largest face).
    pub offered: Vec<Offered>,
}

/// A limited-time coupon activity as a user sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ActivityView {
    pub activity: storage::seed_coupons::CouponActivity,
    /// 0 not started, 1 running, 2 over.
    pub status: i32,
    /// Its coupon kinds.
    pub coupons: Vec<storage::CouponSpec>,
    /// The first 2 goods of its section.
    pub skus: Vec<GoodsItem>,
    /// The caller received its coupons.
    pub received: bool,
}

impl Commerce {
    /// The code of a duration option's parent goods (coupons naming the parent apply to it).
    async fn parent_code(&self, goods: &Goods) -> DomainResult<Option<String>> {
        let Some(pid) = goods.parent_id else { return Ok(None) };
        Ok(self.ctx.db(move |s| s.commerce.goods(pid)).await?.map(|g| g.code))
    }

    /// Prices `count` of a goods for a buyer with the coupon `coupon_id` (None or 0: none),
    /// and lists the buyer's coupons for it. A coupon that is not the buyer's, or cannot be used
    /// (used, expired, held by an open order) is 20184; below its threshold 20260; not for this
    /// goods 20261.
    pub async fn coupon_quote(&self, uid: Option<i64>, goods: &Goods, count: i64, coupon_id: Option<i64>) -> DomainResult<CouponQuote> {
        let base = self.quote(uid, goods, count).await?;
        let coupon_id = coupon_id.filter(|c| *c != 0);
        let Some(uid) = uid else {
            if coupon_id.is_some() {
                return Err(DomainError::CouponUnusable);
            }
            return Ok(CouponQuote {
                price: base,
                before: base.pay,
                applied: None,
                offered: vec![],
            });
        };
        let now = self.ctx.clock.now_ms();
        let parent = self.parent_code(goods).await?;
        let mine = self.ctx.db(move |s| s.coupons.coupons(uid)).await?;
        let mut offered: Vec<Offered> = mine
            .into_iter()
            .filter(|c| coupon::status_at(c, now) == 0)
            .map(|c| Offered {
                usable: coupon::usable(&c, goods, parent.as_deref(), base.pay, now),
                coupon: c,
            })
            .collect();
        offered.sort_by_key(|o| (o.usable != USABLE, -o.coupon.spec.face_value, o.coupon.expires_at, o.coupon.id));
        let Some(id) = coupon_id else {
            return Ok(CouponQuote {
                price: base,
                before: base.pay,
                applied: None,
                offered,
            });
        };
        let Some(chosen) = offered.iter().find(|o| o.coupon.id == id) else {
            // Not the caller's, unknown, used or expired.
            return Err(DomainError::CouponUnusable);
        };
        match chosen.usable {
            USABLE => {}
            coupon::BELOW_THRESHOLD => return Err(DomainError::CouponThreshold),
            coupon::NOT_APPLICABLE => return Err(DomainError::CouponNotApplicable),
            _ => return Err(DomainError::CouponUnusable),
        }
        let pay = coupon::coupon_price(base.pay, chosen.coupon.spec.face_value);
        let price = pricing::price(&pricing::PriceInput {
            retail: goods.retail_price,
            count,
            coupon_price: Some(pay),
            ..Default::default()
        })
        .map(|p| Price { unit: base.unit, ..p })
        .ok_or(DomainError::BadQuantity)?;
        Ok(CouponQuote {
            price,
            before: base.pay,
            applied: Some(chosen.coupon.clone()),
            offered,
        })
    }

    /// The caller's coupons, every status, newest first.
    pub async fn my_coupons(&self, uid: i64) -> DomainResult<(Vec<Coupon>, i64)> {
        let mut all = self.ctx.db(move |s| s.coupons.coupons(uid)).await?;
        all.reverse();
        Ok((all, self.ctx.clock.now_ms()))
    }

    /// The card notice of the popup chain (commerce.md §2.8): the reception time of the newest
    /// holding the player was told of (0: never).
    pub async fn card_notice_told(&self, uid: i64) -> DomainResult<i64> {
        // marking 0 moves nothing (the mark only grows) and answers the mark
        self.ctx.db(move |s| s.users.mark_card_notice(uid, 0)).await
    }

    /// The player was told of the holdings received up to `received_at` (the newest told):
    /// the next notice tells only what came after it.
    pub async fn mark_card_notice(&self, uid: i64, received_at: i64) -> DomainResult<()> {
        self.ctx.db(move |s| s.users.mark_card_notice(uid, received_at)).await.map(|_| ())
    }

    /// Gives a player coupons of the kind `sid` (an operator's grant, dev mode).
    pub async fn grant_coupons(&self, uid: i64, sid: &str, count: i64) -> DomainResult<Vec<Coupon>> {
        let spec = storage::seed_coupons::coupon_spec(sid).ok_or(DomainError::UnknownGoods)?;
        let now = self.ctx.clock.now_ms();
        let all: Vec<_> = (0..count.clamp(0, 100)).map(|_| coupon::granted(spec.clone(), now)).collect();
        let got = self.ctx.db(move |s| s.coupons.grant_coupons(uid, &all, "grant", now)).await?;
        if !got.is_empty() {
            self.messages().tell(uid, crate::messages::coupons_received(got.len(), now)).await;
        }
        Ok(got)
    }

    /// A limited-time coupon activity (`shop/activity/item`).
    pub async fn coupon_activity(&self, uid: Option<i64>, activity_id: i64) -> DomainResult<ActivityView> {
        let activity = storage::seed_coupons::activities()
            .into_iter()
            .find(|a| a.id == activity_id)
            .ok_or(DomainError::UnknownActivity)?;
        let now = self.ctx.clock.now_ms();
        let status = coupon::activity_status(&activity.start_time, &activity.end_time, now).ok_or(DomainError::UnknownActivity)?;
        let coupons = activity
            .coupons
            .iter()
            .filter_map(|sid| storage::seed_coupons::coupon_spec(sid))
            .collect();
        let mut skus = self.section(&activity.sku_section_key).await?;
        skus.truncate(2);
        let source = format!("activity:{activity_id}");
        let received = match uid {
            None => false,
            Some(uid) => self
                .ctx
                .db(move |s| s.coupons.coupons(uid))
                .await?
                .iter()
                .any(|c| c.source == source),
        };
        Ok(ActivityView {
            activity,
            status,
            coupons,
            skus,
            received,
        })
    }

    /// The caller receives an activity's coupons (`shop/activity/goods/get`): once, while it runs.
    pub async fn receive_activity(&self, uid: i64, activity_id: i64) -> DomainResult<Vec<Coupon>> {
        let view = self.coupon_activity(Some(uid), activity_id).await?;
        match view.status {
            0 => return Err(DomainError::ActivityNotStarted),
            2 => return Err(DomainError::ActivityEnded),
            _ => {}
        }
        let now = self.ctx.clock.now_ms();
        let all: Vec<_> = view.coupons.into_iter().map(|s| coupon::granted(s, now)).collect();
        self.ctx
            .db(move |s| s.coupons.receive_activity(uid, activity_id, &all, now))
            .await?
            .ok_or(DomainError::ActivityReceived)
    }

    /// The caller's unused, unexpired coupons of each kind (`user/card/goods/total`: the
    /// activity's coupon statistics, `remain`).
    pub async fn coupon_remains(&self, uid: i64, sids: &[String]) -> DomainResult<Vec<(String, i64)>> {
        let (mine, now) = self.my_coupons(uid).await?;
        Ok(sids
            .iter()
            .map(|sid| {
                let n = mine.iter().filter(|c| &c.spec.sid == sid && coupon::status_at(c, now) == 0).count();
                (sid.clone(), i64::try_from(n).unwrap_or(i64::MAX))
            })
            .collect())
    }
}
