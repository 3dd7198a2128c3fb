//! The user's profile (core-platform.md §4.10 "personal information"): one call that reads
//! what the profile shows from the features that own it. Reading the holdings first is the
//! call's side effect and belongs here, not in the facade: it takes back the user's expired
//! member grants, so the profile then shows what is left.

use storage::{User, Wallet};

use crate::accounts::service::Accounts;
use crate::error::DomainResult;
use crate::play::holdings::Holdings;

/// What the profile shows, read at `now_ms`; the facade turns it into its DTO.
#[derive(Debug, Clone)]
pub struct ProfileView {
    pub user: User,
    pub holdings: Holdings,
    pub wallet: Wallet,
    /// `first_login_app_playtime`: minutes the first login from the app would grant.
    pub app_playtime: i64,
    /// Favourites.
    pub collects: u64,
    pub now_ms: i64,
}

impl Accounts {
    /// The profile of `uid`, its expired member grants taken back first.
    pub async fn profile(&self, uid: i64) -> DomainResult<ProfileView> {
        // holdings first: reading them takes back expired member grants the user then shows
        let holdings = self.play().holdings(uid).await?;
        let user = self.passport().user(uid).await?;
        let wallet = self.commerce().wallet(uid).await?;
        let app_playtime = self.activity().app_playtime(uid).await?;
        let collects = self.catalogue().collect_count(uid).await?;
        Ok(ProfileView {
            user,
            holdings,
            wallet,
            app_playtime,
            collects,
            now_ms: self.ctx.clock.now_ms(),
        })
    }
}
