//! The external account centre's calls (core-platform.md §2.6, §7.2; commerce.md §4.11's
//! upAvatar and upNickname tasks): signing the agent login that opens it, and taking its signed
//! notices of profile changes.
//!
//! A notice is taken once: it must verify under the shared secret, be at most
//! [`NOTICE_WINDOW_MS`] old (or ahead), and carry an id not taken before (ids are remembered in
//! memory for the window; a notice delivered again is acknowledged and changes nothing). Its
//! change is checked by the same rules the account centre applies, stored on the user, moves the
//! user's upNickname or upAvatar task and tells the user's sockets to re-read the user
//! (USER_INFO).

use crate::accounts::service::Accounts;
use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::accounts::account_centre::{
    check_avatar, check_nickname, check_redirect, AccountCentre, AgentLogin, ProfileChange, SandboxUc, SignedLogin, Target,
};
use crate::activity::mission::{task_event, TaskEvent};
use crate::config::AccountCentreConfig;
use crate::error::{DomainError, DomainResult};
use crate::view::{Changed, Push};

/// How far a notice's time may be from the platform's clock.
pub const NOTICE_WINDOW_MS: i64 = 10 * 60 * 1000;
/// Notice ids remembered at most.
const SEEN_MAX: usize = 100_000;

/// The account centre as the platform holds it (in the actors' context).
pub struct Uc {
    pub provider: Arc<dyn AccountCentre>,
    pub config: AccountCentreConfig,
    /// Ids of the notices taken, until they leave the window.
    seen: Mutex<HashMap<String, i64>>,
}

impl Uc {
    /// From the configuration, with the sandbox account centre (the only provider this build
    /// has; production refuses to start without real providers).
    pub fn from_config(config: &AccountCentreConfig) -> Uc {
        Uc {
            provider: Arc::new(SandboxUc::new(config.secret.as_bytes(), &config.agent_login_url)),
            config: config.clone(),
            seen: Mutex::default(),
        }
    }
}

/// The page an agent login opens: `target` as asked (HOME, INFO, AVATAR), AVATAR without one.
pub fn target_of(asked: Option<&str>) -> DomainResult<Target> {
    match asked.map(str::trim) {
        None | Some("") => Ok(Target::default()),
        Some(t) => Target::parse(t).ok_or(DomainError::UcTarget),
    }
}

impl Accounts {
    /// Signs the agent login that opens the account centre at `target` for the caller, leading
    /// back to `redirect_url` (a path of this site).
    pub fn uc_login(&self, uid: i64, redirect_url: &str, target: Option<&str>) -> DomainResult<SignedLogin> {
        let redirect_url = check_redirect(redirect_url).ok_or(DomainError::UcRedirect)?;
        let target = target_of(target)?;
        let uc = &self.ctx.slot::<crate::accounts::uc::Uc>();
        let now = self.ctx.clock.now_ms();
        let ttl = i64::try_from(uc.config.login_ttl_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
        Ok(uc.provider.sign_login(&AgentLogin {
            uid,
            target,
            issued_at: now,
            expires_at: now.saturating_add(ttl),
            nonce: crate::secrets::random_hex(16),
            redirect_url,
        }))
    }

    /// The account centre's notice of a profile change (the callback route's body and
    /// signature). A bad signature, a malformed or stale notice, or an unknown user is refused
    /// and changes nothing (20272); a change that breaks a rule is refused with its fault.
    pub async fn uc_notice(&self, body: &str, signature: &str) -> DomainResult<()> {
        let uc = &self.ctx.slot::<crate::accounts::uc::Uc>();
        let refuse = |reason: String| {
            tracing::warn!(provider = uc.provider.name(), %reason, "account centre notice refused");
            DomainError::UcNoticeRefused(reason)
        };
        let n = uc.provider.verify_notice(body, signature).map_err(refuse)?;
        let now = self.ctx.clock.now_ms();
        if (now - n.at).abs() > NOTICE_WINDOW_MS {
            return Err(refuse("stale notice".into()));
        }
        {
            let mut seen = uc.seen.lock();
            seen.retain(|_, until| *until > now);
            if seen.contains_key(&n.id) {
                return Ok(());
            }
        }
        let (nickname, avatar, event) = match &n.change {
            ProfileChange::Nickname(v) => (
                Some(check_nickname(v).map_err(DomainError::ProfileForm)?),
                None,
                TaskEvent::UpNickname,
            ),
            ProfileChange::Avatar(v) => (None, Some(check_avatar(v).map_err(DomainError::ProfileForm)?), TaskEvent::UpAvatar),
        };
        let uid = n.uid;
        match self
            .ctx
            .db_raw(move |s| s.users.set_profile(uid, nickname.as_deref(), avatar.as_deref()))
            .await?
        {
            Ok(_) => {}
            Err(storage::Error::NotFound) => return Err(refuse(format!("unknown user {uid}"))),
            Err(e) => return Err(e.into()),
        }
        {
            let mut seen = uc.seen.lock();
            if seen.len() < SEEN_MAX {
                seen.insert(n.id.clone(), n.at + NOTICE_WINDOW_MS);
            }
        }
        task_event(&self.ctx, uid, event).await;
        self.ctx.bus.publish(&uid, &Push::Changed(Changed::UserInfo));
        Ok(())
    }

    /// The sandbox account centre (dev mode).
    pub fn uc_sandbox(&self) -> Option<&SandboxUc> {
        self.ctx.slot::<crate::accounts::uc::Uc>().provider.sandbox()
    }

    /// The nickname and avatar (empty: the default one) the user has now (the sandbox's pages
    /// show them, as the account centre that holds the profile would).
    pub async fn uc_profile(&self, uid: i64) -> DomainResult<(String, String)> {
        let u = self.passport().user(uid).await?;
        Ok((u.nickname, u.avatar))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_default_to_avatar() {
        assert_eq!(target_of(None), Ok(Target::Avatar));
        assert_eq!(target_of(Some("")), Ok(Target::Avatar));
        assert_eq!(target_of(Some("INFO")), Ok(Target::Info));
        assert_eq!(target_of(Some("HOME")), Ok(Target::Home));
        assert_eq!(target_of(Some("home")), Err(DomainError::UcTarget));
    }
}
