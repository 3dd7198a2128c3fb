//! The identity check behind real-name certification (core-platform.md §2.15, §4.9): whether a
//! name and an ID number belong together. The sandbox behaves like the public-security check it
//! stands for: a number that fails GB 11643 (length, check character, date) never matches, nor
//! does one it is told to reject; otherwise the pair matches.

use futures_util::future::BoxFuture;

use crate::identity::idcard;

pub trait IdentityCheck: Send + Sync + 'static {
    /// Whether the name and the ID number belong together; an error is the provider failing.
    fn verify(&self, name: &str, id_no: &str) -> BoxFuture<'static, Result<bool, String>>;
}

pub struct SandboxIdentity {
    mismatch: Vec<String>,
}

impl SandboxIdentity {
    pub fn new(mismatch: Vec<String>) -> SandboxIdentity {
        SandboxIdentity { mismatch }
    }
}

impl IdentityCheck for SandboxIdentity {
    fn verify(&self, _name: &str, id_no: &str) -> BoxFuture<'static, Result<bool, String>> {
        let id = id_no.trim().to_ascii_uppercase();
        let matches = idcard::birth_date(&id).is_some() && !self.mismatch.iter().any(|m| m.eq_ignore_ascii_case(&id));
        Box::pin(async move { Ok(matches) })
    }
}
