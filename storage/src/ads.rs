//! Ad slots (commerce.md §2.2, §2.8, §2.9, §2.15; core-platform.md §9) and the product app's
//! first-login gift (commerce.md §3 `first_login_app_playtime`).
//!
//! An ad is an item of a slot (`header_user_pannel`, `gift_playtime_useup`, ...): what it shows
//! (title, image), what a click does (`target_type`, `target_value`, `need_login`) and when it
//! runs. A *section ad* buys a goods (target_type 5, a goods code) and may limit how many times
//! one user buys through it (`pay_times`): an order made through an ad is linked to it
//! (`ad_orders`) in the transaction that creates the order, after counting the user's orders of
//! that ad that are paid or still payable, so the limit holds whatever the concurrency
//! (`Refused(AdPayTimesUsed)` otherwise, and nothing is written).
//!
//! An operator replaces a slot's items: an item that names the id of one of the slot's ads
//! updates it (its users' counts stay), one without an id is a new ad, and the slot's ads not
//! named are retired (kept, for the orders that name them, never shown again).

use crate::model::{NewOrder, Order, Settled};
use crate::Result;

/// An ad as the operator sets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdSpec {
    /// An ad of the slot to update; None: a new ad.
    pub id: Option<i64>,
    pub title: String,
    /// The text a game tip shows for it (core-platform.md `tipExt`'s `target_title`).
    pub target_title: String,
    /// A site path or an https address; empty: the title is shown.
    pub image: String,
    /// 0 a URL, 1 a news item, 2 a game, 3 an action, 4 a JSON value, 5 a goods code.
    pub target_type: i32,
    pub target_value: String,
    pub need_login: bool,
    /// Ascending within the slot.
    pub sort_order: i32,
    /// ms; shown from (inclusive) ...
    pub start_at: i64,
    /// ... until (exclusive); 0: no end.
    pub end_at: i64,
    /// The most orders one user makes through it (paid or payable); 0: no limit.
    pub pay_times: i64,
}

/// A stored ad.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ad {
    pub id: i64,
    pub slot: String,
    pub spec: AdSpec,
    /// Retired by an operator's replacement of its slot.
    pub retired: bool,
}

impl Ad {
    /// Whether it runs at `now` (ms).
    pub fn live(&self, now: i64) -> bool {
        !self.retired && self.spec.start_at <= now && (self.spec.end_at == 0 || now < self.spec.end_at)
    }
}

pub trait AdRepo: Send + Sync {
    /// The live ads of these slots at `now`, each slot's in order (sort, then id).
    fn live(&self, slots: &[String], now: i64) -> Result<Vec<Ad>>;
    /// One ad, retired or not.
    fn ad(&self, id: i64) -> Result<Option<Ad>>;
    /// Replaces a slot's items (see the module doc) in one transaction; the slot's ads after it.
    /// An id that is not one of the slot's ads is `Error::NotFound`, and nothing changes.
    fn set_slot(&self, slot: &str, items: &[AdSpec]) -> Result<Vec<Ad>>;
    /// How many orders the user made through each of these ads that are paid, fulfilled or
    /// still payable at `now`.
    fn pay_times(&self, uid: i64, ads: &[i64], now: i64) -> Result<Vec<(i64, i64)>>;
    /// Creates an order made through an ad (`CommerceRepo::create_order`), linked to it, unless
    /// the user's orders of the ad reached its limit (`Refused(AdPayTimesUsed)`). The same
    /// idempotency key again answers its order, whatever the count.
    fn create_order(&self, order: &NewOrder, ad_id: i64) -> Result<(Order, bool)>;
    /// The same for an order paid with coins (`CommerceRepo::pay_with_coins`).
    fn pay_with_coins(&self, order: &NewOrder, ad_id: i64, now: i64, rules: &dyn crate::activity::OrderRules) -> Result<Settled>;
    /// Whether the user ever logged in from the product's app.
    fn app_logged_in(&self, uid: i64) -> Result<bool>;
    /// The user's first login from the app: marks it and, the first time only, adds `minutes`
    /// of free play time with its ledger entry in the same transaction. True when it granted.
    fn first_app_login(&self, uid: i64, minutes: i64, now: i64) -> Result<bool>;
}
