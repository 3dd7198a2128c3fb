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
}

/// The result of every storage call.
pub type Result<T> = std::result::Result<T, Error>;
