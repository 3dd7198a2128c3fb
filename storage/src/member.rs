//! Membership records beyond the entitlements themselves: the member play-time grants
//! (commerce.md §6: vip 1 h daily; vvip 2 h daily plus 20 h monthly valid 31 days) and the
//! memberships that have lapsed (the profile's `previous_info`).

use crate::model::Entitlement;
use crate::Result;

/// One member play-time grant a player received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberGrant {
    pub uid: i64,
    /// `daily` or `monthly`.
    pub kind: String,
    /// The period it belongs to: the UTC+8 day (`YYYY-MM-DD`) or month (`YYYY-MM`).
    pub period: String,
    /// Free play minutes it added.
    pub minutes: i64,
    /// ms: what is left of it is taken back then.
    pub expires_at: i64,
    pub claimed_at: i64,
}

/// The member grants (one per player, kind and period) and lapsed memberships.
pub trait MemberRepo: Send + Sync {
    /// Receives a grant once per (uid, kind, period): adds `minutes` (> 0) of free play time
    /// with its ledger entry (reason `member_grant`) in the same transaction. Returns the grant,
    /// and `false` when it had already been received (nothing written). NotFound if no such user.
    fn claim_grant(&self, uid: i64, kind: &str, period: &str, minutes: i64, expires_at: i64, now: i64) -> Result<(MemberGrant, bool)>;
    /// Takes back what is left of every grant expired at `now` (`expires_at <= now`), once each:
    /// free time is spent first, so what is left is at most the free balance. Returns the
    /// minutes taken.
    fn expire_grants(&self, uid: i64, now: i64) -> Result<i64>;
    /// The grants the player received, oldest first.
    fn grants(&self, uid: i64) -> Result<Vec<MemberGrant>>;
    /// Memberships (of `kinds`) that have run out (`expires_at <= now`), latest expiry first.
    fn lapsed(&self, uid: i64, kinds: &[&str], now: i64) -> Result<Vec<Entitlement>>;
}
