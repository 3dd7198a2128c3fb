//! What follows every login (by code, password, app QR or a third party), in one call the login
//! routes make after the passport let the user in: the login's device is recorded, a user this
//! login created is bound to the inviter whose code the landing page carried (the registration
//! stands whatever the code), and the first login from the product's app grants its play time
//! once (commerce.md §3). None of these can undo the login: a failure is logged, not answered.

use storage::accounts::LoginDevice;

use crate::accounts::passport::NewLogin;
use crate::accounts::service::Accounts;

/// What the login's request said about where it came from.
#[derive(Debug, Clone, Default)]
pub struct LoginOrigin {
    /// The device and cafe headers of the request.
    pub device: LoginDevice,
    /// The request's user agent (the product's app names itself there).
    pub user_agent: String,
    /// The inviter's code a landing page carried ("" when none).
    pub invite_code: String,
}

/// What the after-login work did (tests, logs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AfterLogin {
    pub device_recorded: bool,
    pub invite_bound: bool,
    pub app_gift_granted: bool,
}

impl Accounts {
    /// The work every login does once the user is in; `created`: this login registered them.
    pub async fn logged_in(&self, login: &NewLogin, created: bool, origin: LoginOrigin) -> AfterLogin {
        let uid = login.session.uid;
        let mut done = AfterLogin::default();
        match self.passport().record_device(login, origin.device).await {
            Ok(()) => done.device_recorded = true,
            Err(e) => tracing::warn!(uid, error = %e, "login device not recorded"),
        }
        // Only the login that created the user binds an invite: an existing user's code, a
        // malformed or unknown one, their own, or a second invite binds nothing.
        if created && !origin.invite_code.trim().is_empty() {
            match self.activity().bind_invite(uid, origin.invite_code.trim()).await {
                Ok(outcome) => done.invite_bound = matches!(outcome, crate::activity::service::InviteBinding::Bound(_)),
                Err(e) => tracing::warn!(invitee = uid, error = %e, "invite not bound"),
            }
        }
        match self.activity().app_login(uid, &origin.user_agent).await {
            Ok(granted) => done.app_gift_granted = granted,
            Err(e) => tracing::warn!(uid, error = %e, "first app login not granted"),
        }
        done
    }
}
