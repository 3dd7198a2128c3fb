//! Accounts: SMS codes (core-platform.md §5.1), login sessions, and the short-lived tokens that
//! open a WebSocket.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use rand::Rng;
use storage::{LoginSession, Store, User};

use crate::clock::Clock;
use crate::error::{DomainError, DomainResult};
use crate::providers::sms::SmsProvider;

/// A code can be requested again for the same phone after this long.
pub const RESEND_MS: i64 = 60_000;
/// A code is valid this long.
pub const CODE_TTL_MS: i64 = 5 * 60_000;
/// Wrong tries before a code is burnt.
pub const CODE_TRIES: u32 = 5;
/// Login sessions last this long.
pub const SESSION_TTL_MS: i64 = 30 * 24 * 3600 * 1000;
/// A socket token lasts this long and opens one socket.
pub const SOCKET_TOKEN_TTL_MS: i64 = 60_000;

struct PendingCode {
    code: String,
    sent_at: i64,
    tries: u32,
}

struct SocketToken {
    uid: i64,
    login_token: String,
    expires_at: i64,
}

pub struct Passport {
    store: Store,
    /// Free minutes a new player receives.
    gift_minutes: i64,
    sms: Arc<dyn SmsProvider>,
    clock: Clock,
    /// The live code of each phone (one at a time; a resend replaces it).
    codes: Mutex<HashMap<String, PendingCode>>,
    /// Unredeemed socket tokens.
    socket_tokens: Mutex<HashMap<String, SocketToken>>,
}

/// Phone rule of core-platform.md §5.1: required; 11 digits starting with 1.
pub fn validate_phone(phone: &str) -> DomainResult<()> {
    if phone.is_empty() {
        return Err(DomainError::PhoneEmpty);
    }
    if phone.len() != 11 || !phone.starts_with('1') || !phone.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DomainError::PhoneMalformed);
    }
    Ok(())
}

/// Code rule: required, at most 6 characters.
pub fn validate_code(code: &str) -> DomainResult<()> {
    if code.is_empty() {
        return Err(DomainError::CodeEmpty);
    }
    if code.chars().count() > 6 {
        return Err(DomainError::CodeWrong);
    }
    Ok(())
}

/// `bytes` random bytes as lowercase hex.
pub fn random_hex(bytes: usize) -> String {
    let mut rng = rand::rng();
    (0..bytes).map(|_| format!("{:02x}", rng.random::<u8>())).collect()
}

impl Passport {
    pub fn new(store: Store, sms: Arc<dyn SmsProvider>, clock: Clock, gift_minutes: i64) -> Self {
        Passport {
            store,
            gift_minutes,
            sms,
            clock,
            codes: Mutex::new(HashMap::new()),
            socket_tokens: Mutex::new(HashMap::new()),
        }
    }

    /// The registration gift a new player receives, as the login answer's `give_goods` lists it.
    pub fn gift_minutes(&self) -> i64 {
        self.gift_minutes
    }

    pub fn sms(&self) -> &Arc<dyn SmsProvider> {
        &self.sms
    }

    /// Sends a login code, at most once per phone per minute.
    pub async fn send_code(&self, phone: &str) -> DomainResult<()> {
        validate_phone(phone)?;
        let now = self.clock.now_ms();
        let code = format!("{:06}", rand::rng().random_range(0..1_000_000));
        {
            let mut codes = self.codes.lock();
            if let Some(p) = codes.get(phone) {
                let since = now - p.sent_at;
                if since < RESEND_MS {
                    let retry_after_secs = ((RESEND_MS - since + 999) / 1000) as u64;
                    return Err(DomainError::CodeTooSoon { retry_after_secs });
                }
            }
            // Reserve the slot before the slow send so two racing requests send one code.
            codes.insert(
                phone.to_string(),
                PendingCode {
                    code: code.clone(),
                    sent_at: now,
                    tries: 0,
                },
            );
        }
        if let Err(e) = self.sms.send_code(phone, &code, now).await {
            self.codes.lock().remove(phone);
            return Err(DomainError::SmsFailed(e));
        }
        Ok(())
    }

    /// Checks the code and opens a login session; creates the user on first login.
    pub async fn login(&self, cellphone: &str, code: &str, device_no: &str) -> DomainResult<(User, bool, LoginSession)> {
        validate_phone(cellphone)?;
        validate_code(code)?;
        let now = self.clock.now_ms();
        {
            let mut codes = self.codes.lock();
            let Some(p) = codes.get_mut(cellphone) else {
                return Err(DomainError::CodeWrong);
            };
            if now - p.sent_at > CODE_TTL_MS || p.tries >= CODE_TRIES {
                codes.remove(cellphone);
                return Err(DomainError::CodeWrong);
            }
            if p.code != code {
                p.tries += 1;
                return Err(DomainError::CodeWrong);
            }
            codes.remove(cellphone);
        }
        let session = LoginSession {
            token: random_hex(32),
            uid: 0,
            csrf_token: random_hex(16),
            device_no: device_no.to_string(),
            created_at: now,
            expires_at: now + SESSION_TTL_MS,
        };
        let store = self.store.clone();
        let phone = cellphone.to_string();
        let nickname = format!("玩家{}", &cellphone[7..]);
        let gift = self.gift_minutes;
        let r = tokio::task::spawn_blocking(move || -> storage::Result<(User, bool, LoginSession)> {
            let (mut user, created) = store.users.get_or_create_by_phone(&phone, &nickname, now)?;
            if created && gift > 0 {
                // The registration gift (commerce.md §2.9), given once with the account.
                user = store.assets.add_play_time(user.uid, gift, 0)?;
            }
            let session = LoginSession { uid: user.uid, ..session };
            store.logins.insert(&session)?;
            Ok((user, created, session))
        })
        .await
        .map_err(|e| DomainError::Internal(e.to_string()))??;
        Ok(r)
    }

    /// The live login session of a cookie token.
    pub async fn authenticate(&self, token: &str) -> DomainResult<LoginSession> {
        if token.is_empty() || token.len() > 128 {
            return Err(DomainError::NotLoggedIn);
        }
        let store = self.store.clone();
        let token = token.to_string();
        let now = self.clock.now_ms();
        tokio::task::spawn_blocking(move || store.logins.get(&token, now))
            .await
            .map_err(|e| DomainError::Internal(e.to_string()))??
            .ok_or(DomainError::NotLoggedIn)
    }

    pub async fn logout(&self, token: &str) -> DomainResult<()> {
        let store = self.store.clone();
        let t = token.to_string();
        tokio::task::spawn_blocking(move || store.logins.delete(&t))
            .await
            .map_err(|e| DomainError::Internal(e.to_string()))??;
        self.socket_tokens.lock().retain(|_, s| s.login_token != token);
        Ok(())
    }

    pub async fn user(&self, uid: i64) -> DomainResult<User> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || store.users.get(uid))
            .await
            .map_err(|e| DomainError::Internal(e.to_string()))??
            .ok_or(DomainError::NotLoggedIn)
    }

    /// The user with this phone (the dev operator grant names players by phone).
    pub async fn user_by_phone(&self, cellphone: &str) -> DomainResult<User> {
        validate_phone(cellphone)?;
        let store = self.store.clone();
        let phone = cellphone.to_string();
        // get_or_create with the current time would create; look up through a login-free path.
        tokio::task::spawn_blocking(move || store.users.find_by_phone(&phone))
            .await
            .map_err(|e| DomainError::Internal(e.to_string()))??
            .ok_or(DomainError::NotLoggedIn)
    }

    /// A single-use token that opens one WebSocket within a minute.
    pub fn issue_socket_token(&self, session: &LoginSession) -> String {
        let now = self.clock.now_ms();
        let token = random_hex(24);
        let mut tokens = self.socket_tokens.lock();
        tokens.retain(|_, t| t.expires_at > now);
        tokens.insert(
            token.clone(),
            SocketToken {
                uid: session.uid,
                login_token: session.token.clone(),
                expires_at: now + SOCKET_TOKEN_TTL_MS,
            },
        );
        token
    }

    /// Redeems a socket token: the uid and the login session token it was issued for.
    pub fn redeem_socket_token(&self, token: &str) -> DomainResult<(i64, String)> {
        let now = self.clock.now_ms();
        match self.socket_tokens.lock().remove(token) {
            Some(t) if t.expires_at > now => Ok((t.uid, t.login_token)),
            _ => Err(DomainError::NotLoggedIn),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phone_rules() {
        let check = |p: &str, want: DomainResult<()>| assert_eq!(validate_phone(p), want, "{p:?}");
        check("", Err(DomainError::PhoneEmpty));
        check("1380013800", Err(DomainError::PhoneMalformed));
        check("138001380001", Err(DomainError::PhoneMalformed));
        check("23800138000", Err(DomainError::PhoneMalformed));
        check("1380013800a", Err(DomainError::PhoneMalformed));
        check("13800138000", Ok(()));
        assert_eq!(validate_code(""), Err(DomainError::CodeEmpty));
        assert_eq!(validate_code("1234567"), Err(DomainError::CodeWrong));
        assert_eq!(validate_code("123456"), Ok(()));
    }
}
