//! Account states (core-platform.md §2.6, §4.10, §6) and third-party logins (§2.4): normal, frozen or banned, set by an
//! operator, and the login sessions they end. A session ended by force (kicked by a login
//! elsewhere, or its account frozen or banned) is kept, marked with why, until it expires, so a
//! call still carrying its cookie is told that its session was ended rather than that it never
//! logged in.

use crate::Result;

/// Normal: the account may log in.
pub const ACCOUNT_NORMAL: i32 = 0;
/// Frozen: every login ended; no login until unfrozen.
pub const ACCOUNT_FROZEN: i32 = 1;
/// Banned: every login ended; no login until `until` (0: until lifted).
pub const ACCOUNT_BANNED: i32 = 2;

/// Why a login session was ended by force (the socket's authorization status).
pub const REVOKED_KICK_OUT: &str = "KICK_OUT";
pub const REVOKED_FROZEN: &str = "FROZEN";
pub const REVOKED_BAN: &str = "BAN";

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AccountState {
    pub state: i32,
    /// What the operator gave as the reason (shown to the player in the forbidden alert).
    pub reason: String,
    /// A ban's end in ms (0: until lifted); 0 for the other states.
    pub until: i64,
}

impl AccountState {
    /// Whether the account may log in at `now` (a ban that has run out no longer counts).
    pub fn may_log_in(&self, now: i64) -> bool {
        match self.state {
            ACCOUNT_FROZEN => false,
            ACCOUNT_BANNED => self.until > 0 && now >= self.until,
            _ => true,
        }
    }
}

/// A real-name certification: the name and ID number sealed by the domain (storage cannot read
/// them), and when the person turns 18 (ms; 0 for an adult), which the rules for minors read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certification {
    pub uid: i64,
    pub name_sealed: Vec<u8>,
    pub id_sealed: Vec<u8>,
    pub adult_at: i64,
    pub certified_at: i64,
    /// Recertifications left (one per account).
    pub recerts_left: i32,
}

/// Where a login came from (core-platform.md §7.1): the browser's device id, the channel, and
/// the internet café's system info when the café's client sent it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LoginDevice {
    pub uuid: String,
    pub channel: String,
    pub cafe_gid: String,
    pub cafe_mac: String,
    pub cafe_pc_name: String,
    pub cafe_boot_id: String,
}

pub trait AccountRepo: Send + Sync {
    /// The account's state (normal for an unknown uid).
    fn state(&self, uid: i64) -> Result<AccountState>;
    /// Sets the state; for frozen and banned, in the same transaction, marks every live login
    /// session of the account ended (`REVOKED_FROZEN` / `REVOKED_BAN`) and returns their token
    /// hashes. `Error::NotFound` for an unknown uid.
    fn set_state(&self, uid: i64, state: &AccountState, now: i64) -> Result<Vec<String>>;
    /// Why a session that is not expired was ended by force (None: live, logged out or unknown).
    fn revoked(&self, token_hash: &str, now: i64) -> Result<Option<String>> {
        Ok(self.revoked_login(token_hash, now)?.map(|(why, _)| why))
    }
    /// [`AccountRepo::revoked`] with the account whose session it was.
    fn revoked_login(&self, token_hash: &str, now: i64) -> Result<Option<(String, i64)>>;
    /// The account a third-party identity logs in as, if bound.
    fn third_party_uid(&self, open_type: i32, openid: &str) -> Result<Option<i64>>;
    /// Binds a third-party identity to an account; an identity already bound stays with its
    /// account, which is returned.
    fn bind_third_party(&self, open_type: i32, openid: &str, uid: i64, now: i64) -> Result<i64>;
    /// Records where a login came from (once, with the login).
    fn record_device(&self, token_hash: &str, uid: i64, device: &LoginDevice, now: i64) -> Result<()>;
    /// Where the account's live logins came from, newest first.
    fn devices(&self, uid: i64, now: i64) -> Result<Vec<(i64, LoginDevice)>>;
    /// What the account paid (fen) in orders paid at or after `since` (ms): minors' monthly sum.
    fn paid_since(&self, uid: i64, since: i64) -> Result<i64>;
    /// The account's certification, if any.
    fn certification(&self, uid: i64) -> Result<Option<Certification>>;
    /// Records a certification: the first, or a recertification while one is left (which it
    /// uses). `Error::Conflict` when none is left.
    fn certify(&self, c: &Certification) -> Result<Certification>;
    /// Ends (`REVOKED_KICK_OUT`) the account's live sessions beyond its `keep` newest; returns
    /// their token hashes, oldest first.
    fn keep_newest(&self, uid: i64, keep: usize, now: i64) -> Result<Vec<String>>;
}
