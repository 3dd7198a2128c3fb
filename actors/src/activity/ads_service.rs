//! The platform's ad calls (commerce.md §2.2, §2.8, §2.9, §2.15; core-platform.md §9): the
//! items of the slots a page shows, with the caller's pay times of each section ad; the
//! operator's replacement of a slot's items; the ad a purchase names (`platform_commerce`
//! checks it and storage enforces its limit with the order); the app's first-login gift.

use crate::activity::service::Activities;
use storage::ads::{Ad, AdSpec};

use crate::activity::ads;
use crate::error::{DomainError, DomainResult};

/// An ad as a user sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct AdView {
    pub ad: Ad,
    /// The caller's orders through it that count against its limit (0 for a guest).
    pub paid_times: i64,
    /// The caller reached its limit.
    pub out_of_pay_times: bool,
}

/// Why an operator's slot was refused (the facade answers 400).
#[derive(Debug, Clone, PartialEq)]
pub enum SlotRefusal {
    /// The slot key, the number of items, or an item's field (named).
    Invalid(&'static str),
    /// An item names an id that is not one of the slot's ads.
    UnknownAd,
    Domain(DomainError),
}

impl Activities {
    /// The running items of each slot asked for, in the order asked, each with the caller's
    /// pay times. A slot key that is not well formed is refused (`None`).
    pub async fn ad_slots(&self, uid: Option<i64>, keys: Vec<String>) -> DomainResult<Option<Vec<(String, Vec<AdView>)>>> {
        if keys.is_empty() || keys.len() > ads::MAX_SLOTS || !keys.iter().all(|k| ads::slot_key_ok(k)) {
            return Ok(None);
        }
        let now = self.ctx.clock.now_ms();
        let wanted = keys.clone();
        let live = self.ctx.db(move |s| s.ads.live(&wanted, now)).await?;
        let limited: Vec<i64> = live.iter().filter(|a| a.spec.pay_times > 0).map(|a| a.id).collect();
        let used = match uid {
            Some(uid) if !limited.is_empty() => self.ctx.db(move |s| s.ads.pay_times(uid, &limited, now)).await?,
            _ => vec![],
        };
        let mut out: Vec<(String, Vec<AdView>)> = Vec::with_capacity(keys.len());
        for key in keys {
            if out.iter().any(|(k, _)| *k == key) {
                continue;
            }
            let items = live
                .iter()
                .filter(|a| a.slot == key)
                .map(|a| {
                    let paid_times = used.iter().find(|(id, _)| *id == a.id).map_or(0, |(_, n)| *n);
                    AdView {
                        ad: a.clone(),
                        paid_times,
                        out_of_pay_times: ads::out_of_pay_times(a.spec.pay_times, paid_times),
                    }
                })
                .collect();
            out.push((key, items));
        }
        Ok(Some(out))
    }

    /// Replaces a slot's items (the operator's call): each item is checked, an item with an id
    /// updates that ad of the slot, one without is a new ad, the slot's other ads are retired.
    pub async fn set_ad_slot(&self, key: String, items: Vec<AdSpec>) -> Result<Vec<Ad>, SlotRefusal> {
        if !ads::slot_key_ok(&key) {
            return Err(SlotRefusal::Invalid("key"));
        }
        if items.len() > ads::MAX_ITEMS {
            return Err(SlotRefusal::Invalid("items"));
        }
        if let Some(field) = items.iter().find_map(ads::spec_fault) {
            return Err(SlotRefusal::Invalid(field));
        }
        match self.ctx.db_raw(move |s| s.ads.set_slot(&key, &items)).await {
            Ok(Ok(stored)) => Ok(stored),
            Ok(Err(storage::Error::NotFound)) => Err(SlotRefusal::UnknownAd),
            Ok(Err(e)) => Err(SlotRefusal::Domain(e.into())),
            Err(e) => Err(SlotRefusal::Domain(e)),
        }
    }

    /// The ad a purchase of `goods_code` names: a running section ad of that goods (70110
    /// otherwise). Its limit is enforced by storage with the order.
    pub(crate) async fn ad_of_purchase(&self, ad_id: i64, goods_code: &str) -> DomainResult<Ad> {
        let now = self.ctx.clock.now_ms();
        let ad = self.ctx.db(move |s| s.ads.ad(ad_id)).await?.ok_or(DomainError::AdUnavailable)?;
        if !ads::buys(&ad, goods_code, now) {
            return Err(DomainError::AdUnavailable);
        }
        Ok(ad)
    }

    /// `first_login_app_playtime` of the user's profile: the configured minutes while they have
    /// never logged in from the product's app; 0 after, or when none are configured.
    pub async fn app_playtime(&self, uid: i64) -> DomainResult<i64> {
        let configured = self.ctx.config.first_app_login_minutes;
        if configured <= 0 {
            return Ok(0);
        }
        let logged_in = self.ctx.db(move |s| s.ads.app_logged_in(uid)).await?;
        Ok(ads::app_playtime(configured, logged_in))
    }

    /// A login of `uid` with this user agent: the first from the product's app grants the
    /// configured play time once, with its ledger entry (and tells the user's sockets). True
    /// when it granted.
    pub async fn app_login(&self, uid: i64, user_agent: &str) -> DomainResult<bool> {
        if !ads::is_own_app(user_agent) {
            return Ok(false);
        }
        let minutes = self.ctx.config.first_app_login_minutes.max(0);
        let now = self.ctx.clock.now_ms();
        let granted = self.ctx.db(move |s| s.ads.first_app_login(uid, minutes, now)).await?;
        if granted {
            tracing::info!(uid, minutes, "first app login granted play time");
            self.play().granted(uid, &[storage::GoodsGrant::PlayTime { minutes }]).await?;
        }
        Ok(granted)
    }
}
