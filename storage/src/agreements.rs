//! Auto-renewal agreements (commerce.md §1 "Membership may auto-renew monthly, quarterly or
//! yearly", §2.5 renewal info, §4.2, §5): the player's consent, signed with the payment provider
//! when the first period of an auto-renew goods is paid, to be charged the goods' price each
//! period until either side cancels it. Its orders are ordinary orders; the agreement keeps
//! which goods it renews, its state and when the next period is charged.

use crate::Result;

/// Its first order is not paid yet.
pub const AGREEMENT_PENDING: i32 = 0;
/// Signed: each period is charged at `next_at`.
pub const AGREEMENT_ACTIVE: i32 = 1;
/// Cancelled by the player, or refused by the provider: nothing more is charged.
pub const AGREEMENT_CANCELLED: i32 = 2;
/// The next period is charged this long before the membership ends.
pub const RENEW_AHEAD_MS: i64 = 24 * 3600 * 1000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreement {
    pub agreement_no: String,
    pub uid: i64,
    pub goods_id: i64,
    pub goods_code: String,
    pub title: String,
    /// fen charged each renewal (the goods' retail price; the first period may cost less).
    pub amount_fen: i64,
    pub state: i32,
    /// The order that paid the first period and signed it.
    pub first_order: String,
    /// The latest order made under it.
    pub last_order: String,
    /// ms: when the next period is charged (0 unless active).
    pub next_at: i64,
    /// Periods paid, the first included.
    pub periods: i64,
    pub created_at: i64,
    pub cancelled_at: Option<i64>,
}

pub trait AgreementRepo: Send + Sync {
    /// Records a pending agreement for its first order; the one of that order when it exists.
    fn create(&self, a: &Agreement) -> Result<Agreement>;
    fn get(&self, agreement_no: &str) -> Result<Option<Agreement>>;
    /// The agreement an order was made under (its first or its latest), if any.
    fn by_order(&self, order_no: &str) -> Result<Option<Agreement>>;
    /// The user's agreements, newest first.
    fn of_user(&self, uid: i64) -> Result<Vec<Agreement>>;
    /// Every active agreement (to arm their renewals after a restart).
    fn active(&self) -> Result<Vec<Agreement>>;
    /// An order of the agreement was paid: pending or active → active, one more period, the
    /// next charge at `next_at`. None (nothing written) when it was cancelled meanwhile.
    /// Settling an order ([`crate::CommerceRepo::settle`]) does this itself, in its transaction.
    fn paid(&self, agreement_no: &str, order_no: &str, next_at: i64) -> Result<Option<Agreement>>;
    /// A renewal order was made under the active agreement (its latest order).
    fn renewing(&self, agreement_no: &str, order_no: &str) -> Result<()>;
    /// Cancels the user's agreement (pending or active); whether this call changed it.
    /// NotFound when the user has no such agreement.
    fn cancel(&self, agreement_no: &str, uid: i64, now: i64) -> Result<bool>;
}
