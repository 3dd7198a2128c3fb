//! Third-party login (core-platform.md §2.3, §2.4, §4.13, §7.2): a provider's token logs in as
//! the account its identity is bound to; an identity bound to none gets 20108, and the player
//! binds a phone (its SMS code) in the same step that logs in: the phone's account (created if
//! new) is bound to the identity, and the token is spent.

use std::sync::Arc;

use storage::User;

use super::{random_hex, NewLogin, Passport};
use crate::accounts::oauth::{AuthProvider, SandboxAuth, ThirdPartyIdentity};
use crate::ctx::blocking;
use crate::error::{DomainError, DomainResult};

/// The provider behind third-party logins, and the sandbox when it is the one.
pub struct ThirdParty {
    pub provider: Arc<dyn AuthProvider>,
    pub sandbox: Option<Arc<SandboxAuth>>,
}

impl Default for ThirdParty {
    fn default() -> Self {
        let sandbox = Arc::new(SandboxAuth::default());
        ThirdParty {
            provider: sandbox.clone(),
            sandbox: Some(sandbox),
        }
    }
}

impl Passport {
    /// The dev sandbox provider (None with a real one).
    pub fn oauth_sandbox(&self) -> Option<&Arc<SandboxAuth>> {
        self.third_party.sandbox.as_ref()
    }

    /// The provider's authorize page for `open_type` (None: no such provider).
    pub fn third_party_url(&self, open_type: i32) -> Option<String> {
        self.third_party.provider.authorize_url(open_type, &random_hex(8))
    }

    fn identity(&self, token: &str) -> DomainResult<ThirdPartyIdentity> {
        if token.is_empty() || token.len() > 128 {
            return Err(DomainError::ThirdPartyTokenInvalid);
        }
        self.third_party
            .provider
            .identity(token, self.clock.now_ms())
            .ok_or(DomainError::ThirdPartyTokenInvalid)
    }

    /// Whether a token is live (the bind dialog's code is sent only for one).
    pub fn third_party_token_live(&self, token: &str) -> DomainResult<()> {
        self.identity(token).map(|_| ())
    }

    /// Logs in with a provider's token: 20108 when its identity is bound to no account.
    pub async fn token_login(&self, token: &str, device_no: &str) -> DomainResult<(User, NewLogin)> {
        let id = self.identity(token)?;
        let store = self.store.clone();
        let (open_type, openid) = (id.open_type, id.openid.clone());
        let uid = blocking(move || store.accounts.third_party_uid(open_type, &openid))
            .await?
            .ok_or(DomainError::PhoneBindRequired)?;
        let login = self.login_uid(uid, device_no).await?;
        self.third_party.provider.spend(token);
        Ok(login)
    }

    /// Binds the token's identity to the account of a phone (its SMS code checked, the account
    /// created if new) and logs in as it. The identity already bound elsewhere logs in there.
    pub async fn bind_phone_login(
        &self,
        token: &str,
        cellphone: &str,
        code: &str,
        device_no: &str,
    ) -> DomainResult<(User, bool, NewLogin)> {
        let id = self.identity(token)?;
        let (user, created, login) = self.login(cellphone, code, device_no).await?;
        let store = self.store.clone();
        let now = self.clock.now_ms();
        let bound = blocking(move || store.accounts.bind_third_party(id.open_type, &id.openid, user.uid, now)).await?;
        self.third_party.provider.spend(token);
        if bound != user.uid {
            // bound by another login meanwhile: that account is the identity's
            self.logout(&login.session).await?;
            let (user, login) = self.login_uid(bound, device_no).await?;
            return Ok((user, false, login));
        }
        Ok((user, created, login))
    }
}
