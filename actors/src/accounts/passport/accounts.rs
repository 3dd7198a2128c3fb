//! Who may stay signed in (core-platform.md §2.6, §4.10, §6): an operator freezes, bans and
//! restores accounts; a frozen or banned account's logins end at once (each socket told why
//! with an AUTHORIZATION frame, then closed) and it may not log in again (20101); an account
//! keeps its [`MAX_LOGINS`] newest logins, and a login beyond them ends the oldest (KICK_OUT).
//! A call still carrying an ended login's cookie gets 40001.

use storage::accounts::{AccountState, ACCOUNT_BANNED, ACCOUNT_FROZEN, ACCOUNT_NORMAL, REVOKED_BAN, REVOKED_FROZEN, REVOKED_KICK_OUT};

use storage::{LoginSession, User};

use super::{random_hex, secret_hash, NewLogin, Passport, SESSION_TTL_MS};
use crate::ctx::blocking;
use crate::error::{DomainError, DomainResult};

/// Logins one account keeps at once (browsers, phones, head units); a new login beyond them
/// ends the oldest. The spec names no number; five covers a player's own devices.
pub const MAX_LOGINS: usize = 5;

/// Why a login was ended by force: each of its sockets is told (an AUTHORIZATION frame whose
/// status is [`LoginEnd::status`]; a ban's frame carries the ban data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginEnd {
    /// A newer login of the account took its place.
    KickOut,
    Frozen,
    /// `until`: the ban's end in ms (0: until lifted).
    Ban {
        reason: String,
        until: i64,
    },
}

impl LoginEnd {
    pub fn status(&self) -> &'static str {
        match self {
            LoginEnd::KickOut => REVOKED_KICK_OUT,
            LoginEnd::Frozen => REVOKED_FROZEN,
            LoginEnd::Ban { .. } => REVOKED_BAN,
        }
    }
}

/// Whether an account in `state` may log in at `now`; the refusal says why.
pub(super) fn admits(state: &AccountState, now: i64) -> Result<(), DomainError> {
    if state.may_log_in(now) {
        return Ok(());
    }
    Err(DomainError::AccountForbidden {
        frozen: state.state == ACCOUNT_FROZEN,
        reason: state.reason.clone(),
        until: state.until,
    })
}

/// What an operator does to an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountAction {
    Freeze {
        reason: String,
    },
    /// `until`: the ban's end in ms (0: until lifted).
    Ban {
        reason: String,
        until: i64,
    },
    /// Unfreeze or lift a ban.
    Restore,
}

impl Passport {
    /// Why a session cookie no longer logs in: 20101 with the account's state when its login
    /// was ended by a freeze or a ban that still holds (so a page that was not connected when
    /// it happened hears why, as the socket's frame would have told it), 40001 when it was
    /// otherwise ended by force, otherwise not logged in (logged out, expired or unknown).
    pub(super) async fn gone_why(&self, token_hash: &str) -> DomainError {
        let store = self.store.clone();
        let hash = token_hash.to_string();
        let now = self.clock.now_ms();
        let found = blocking(move || -> storage::Result<Option<(String, AccountState)>> {
            let Some((why, uid)) = store.accounts.revoked_login(&hash, now)? else {
                return Ok(None);
            };
            let state = store.accounts.state(uid)?;
            Ok(Some((why, state)))
        })
        .await;
        match found {
            Ok(Some((why, state))) => match admits(&state, now) {
                Err(forbidden) if why == REVOKED_FROZEN || why == REVOKED_BAN => forbidden,
                _ => DomainError::SessionEnded,
            },
            Ok(None) => DomainError::NotLoggedIn,
            Err(e) => e,
        }
    }

    /// A new login of an existing account (after an app-QR confirm or a third-party token):
    /// refused with 20101 for a frozen or banned account; the oldest login beyond
    /// [`MAX_LOGINS`] ends.
    pub(crate) async fn login_uid(&self, uid: i64, device_no: &str) -> DomainResult<(User, NewLogin)> {
        let now = self.clock.now_ms();
        let (token, csrf_token) = (random_hex(32), random_hex(32));
        let session = LoginSession {
            token_hash: secret_hash(&token),
            uid,
            csrf_hash: secret_hash(&csrf_token),
            device_no: device_no.chars().take(64).collect(),
            created_at: now,
            expires_at: now + SESSION_TTL_MS,
        };
        let store = self.store.clone();
        let s = session.clone();
        let user = blocking(move || -> storage::Result<Result<User, DomainError>> {
            let Some(user) = store.users.get(uid)? else {
                return Ok(Err(DomainError::NotLoggedIn));
            };
            if let Err(refused) = admits(&store.accounts.state(uid)?, now) {
                return Ok(Err(refused));
            }
            store.logins.insert(&s)?;
            Ok(Ok(user))
        })
        .await??;
        self.kick_beyond_newest(uid).await?;
        Ok((
            user,
            NewLogin {
                session,
                token,
                csrf_token,
            },
        ))
    }

    /// Ends the logins beyond the account's newest [`MAX_LOGINS`] (after a new login).
    pub(super) async fn kick_beyond_newest(&self, uid: i64) -> DomainResult<()> {
        let store = self.store.clone();
        let now = self.clock.now_ms();
        let kicked = blocking(move || store.accounts.keep_newest(uid, MAX_LOGINS, now)).await?;
        self.end_logins(&kicked, &LoginEnd::KickOut);
        Ok(())
    }

    /// Ends logins by force, here and now and in every process of a cluster: no cached
    /// session survives, their socket tokens are void, and every open socket gets the
    /// AUTHORIZATION frame, then closes.
    fn end_logins(&self, token_hashes: &[String], why: &LoginEnd) {
        if token_hashes.is_empty() {
            return;
        }
        self.logins_ended(token_hashes, &super::Ended::By(why.clone()));
        metrics::counter!("yoo_logins_ended_total", "reason" => why.status()).increment(token_hashes.len() as u64);
    }

    /// An operator's action on an account. Freezing and banning end its logins at once; the
    /// number ended is returned. The running game is the platform's to end.
    pub async fn set_account(&self, uid: i64, action: AccountAction) -> DomainResult<usize> {
        let (state, why) = match &action {
            AccountAction::Freeze { reason } => (
                AccountState {
                    state: ACCOUNT_FROZEN,
                    reason: reason.clone(),
                    until: 0,
                },
                Some(LoginEnd::Frozen),
            ),
            AccountAction::Ban { reason, until } => (
                AccountState {
                    state: ACCOUNT_BANNED,
                    reason: reason.clone(),
                    until: *until,
                },
                Some(LoginEnd::Ban {
                    reason: reason.clone(),
                    until: *until,
                }),
            ),
            AccountAction::Restore => (
                AccountState {
                    state: ACCOUNT_NORMAL,
                    ..Default::default()
                },
                None,
            ),
        };
        let store = self.store.clone();
        let now = self.clock.now_ms();
        let ended = blocking(move || store.accounts.set_state(uid, &state, now)).await?;
        if let Some(why) = why {
            self.end_logins(&ended, &why);
        }
        Ok(ended.len())
    }

    /// Records where a login came from (§7.1: the device id, the channel, the café's info).
    pub async fn record_device(&self, login: &NewLogin, device: storage::accounts::LoginDevice) -> DomainResult<()> {
        let store = self.store.clone();
        let (hash, uid, now) = (login.session.token_hash.clone(), login.session.uid, self.clock.now_ms());
        blocking(move || store.accounts.record_device(&hash, uid, &device, now)).await
    }

    /// Where the account's live logins came from, newest first (ms of the login, the device).
    pub async fn devices(&self, uid: i64) -> DomainResult<Vec<(i64, storage::accounts::LoginDevice)>> {
        let store = self.store.clone();
        let now = self.clock.now_ms();
        blocking(move || store.accounts.devices(uid, now)).await
    }

    /// The account's state now.
    pub async fn account(&self, uid: i64) -> DomainResult<AccountState> {
        let store = self.store.clone();
        blocking(move || store.accounts.state(uid)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ban_runs_out_and_a_freeze_does_not() {
        let frozen = AccountState {
            state: ACCOUNT_FROZEN,
            reason: "r".into(),
            until: 0,
        };
        assert!(matches!(
            admits(&frozen, 10),
            Err(DomainError::AccountForbidden { frozen: true, .. })
        ));
        let ban = AccountState {
            state: ACCOUNT_BANNED,
            reason: "r".into(),
            until: 100,
        };
        assert!(matches!(
            admits(&ban, 99),
            Err(DomainError::AccountForbidden {
                frozen: false,
                until: 100,
                ..
            })
        ));
        assert!(admits(&ban, 100).is_ok());
        let forever = AccountState {
            state: ACCOUNT_BANNED,
            reason: "r".into(),
            until: 0,
        };
        assert!(admits(&forever, i64::MAX).is_err());
        assert!(admits(&AccountState::default(), 0).is_ok());
    }
}
