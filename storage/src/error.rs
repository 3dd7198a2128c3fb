//! The one error type every backend reports, so that callers never see a driver's types.

/// Why a storage call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The record the call must change does not exist.
    #[error("record not found")]
    NotFound,
    /// The write breaks a uniqueness or reference rule (a duplicate key, a reference to a missing
    /// row); retrying the same write will fail again. The text is for logs.
    #[error("conflict: {0}")]
    Conflict(String),
    /// The backend itself failed (I/O, a corrupt or newer schema, a lock held beyond the busy
    /// timeout); the call may succeed later. The text is for logs.
    #[error("storage backend: {0}")]
    Backend(String),
    /// A rule the write checks in the same transaction refused it; nothing was written. The
    /// domain answers each with its own code (typed, never by matching a text).
    #[error("refused: {0:?}")]
    Refused(Refusal),
    /// A write fenced by an owner's epoch that is no longer the thing's current one: another
    /// process has claimed it since (`ownership`). Nothing was written; the writer is no longer
    /// the owner and must stop. The text is the thing's name (`queue:1`).
    #[error("fenced: {0}")]
    Fenced(String),
}

/// Why a write was refused by a rule it checks atomically with the write itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A coin payment beyond the user's coins.
    InsufficientCoins,
    /// A coupon an order cannot hold (another user's, used, expired, or held by another open
    /// order).
    CouponUnusable,
    /// A purchase beyond the ad's pay-times limit.
    AdPayTimesUsed,
    /// A merchant key redeemed before.
    KeyRedeemed,
}

/// The result of every storage call.
pub type Result<T> = std::result::Result<T, Error>;
