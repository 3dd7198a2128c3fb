//! Third-party login (core-platform.md §2.3, §2.4, §7.2): the provider's authorize page, which
//! hands the site a token, and the identity behind a token. The sandbox provider serves its own
//! authorize page on the same server in dev mode (`facade/src/routes/dev_oauth.rs`): a person
//! (or a test) names the provider account and agrees; the page posts the token to the login
//! dialog. A token lives ten minutes and logs in once.

use std::collections::HashMap;

use parking_lot::Mutex;

/// The messaging app (WeChat) and the second provider (QQ), as `open_type` numbers them.
pub const OPEN_TYPE_WECHAT: i32 = 3;
pub const OPEN_TYPE_QQ: i32 = 1;

/// How long a token can log in.
pub const TOKEN_TTL_MS: i64 = 10 * 60 * 1000;
/// Tokens kept at most.
const TOKENS_MAX: usize = 100_000;

/// Who the provider says the person is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThirdPartyIdentity {
    pub open_type: i32,
    /// The person's id at the provider.
    pub openid: String,
    pub nickname: String,
}

pub trait AuthProvider: Send + Sync + 'static {
    /// The provider's authorize page for `open_type`, or None for a provider it does not serve.
    fn authorize_url(&self, open_type: i32, state: &str) -> Option<String>;
    /// The identity behind a token (not spent), or None for an unknown or expired one.
    fn identity(&self, token: &str, now_ms: i64) -> Option<ThirdPartyIdentity>;
    /// Spends a token (it logged in).
    fn spend(&self, token: &str);
}

/// The dev sandbox: its authorize page is on this server; tokens are issued when a person
/// agrees there.
#[derive(Default)]
pub struct SandboxAuth {
    tokens: Mutex<HashMap<String, (ThirdPartyIdentity, i64)>>,
}

impl SandboxAuth {
    /// The person agreed on the sandbox's page: a new token for this identity.
    pub fn issue(&self, identity: ThirdPartyIdentity, now_ms: i64) -> Option<String> {
        let mut tokens = self.tokens.lock();
        tokens.retain(|_, (_, expires)| *expires > now_ms);
        if tokens.len() >= TOKENS_MAX {
            return None;
        }
        let token = crate::secrets::random_hex(24);
        tokens.insert(token.clone(), (identity, now_ms + TOKEN_TTL_MS));
        Some(token)
    }
}

impl AuthProvider for SandboxAuth {
    fn authorize_url(&self, open_type: i32, state: &str) -> Option<String> {
        matches!(open_type, OPEN_TYPE_WECHAT | OPEN_TYPE_QQ)
            .then(|| format!("/api/dev/oauth/authorize?open_type={open_type}&state={state}"))
    }

    fn identity(&self, token: &str, now_ms: i64) -> Option<ThirdPartyIdentity> {
        self.tokens.lock().get(token).filter(|(_, e)| *e > now_ms).map(|(i, _)| i.clone())
    }

    fn spend(&self, token: &str) {
        self.tokens.lock().remove(token);
    }
}
