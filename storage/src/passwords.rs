//! Login passwords (core-platform.md §2.5, §5.2): one argon2id hash (a PHC string) per account,
//! written by the domain, which alone hashes and verifies. Setting a password ends the account's
//! other live logins in the same transaction.

use crate::Result;

/// Why a login was ended by a password change (the session's mark; a call still carrying it
/// gets 40001).
pub const REVOKED_PASSWORD: &str = "PASSWORD";

pub trait PasswordRepo: Send + Sync {
    /// The account's password hash, if it has set one.
    fn hash(&self, uid: i64) -> Result<Option<String>>;
    /// Sets the account's password hash and, in the same transaction, marks every live login
    /// session of the account but `keep` (a token hash) ended ([`REVOKED_PASSWORD`]); returns
    /// their token hashes. `Error::NotFound` for an unknown uid.
    fn set(&self, uid: i64, hash: &str, keep: Option<&str>, now: i64) -> Result<Vec<String>>;
}
