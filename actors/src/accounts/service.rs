//! The platform's account calls (core-platform.md §4.10, §6): an operator freezes, bans or
//! restores an account. The passport ends its logins (each socket told why, then closed); a
//! game it is running, queued for or about to confirm ends too, as the player ending it would.

use storage::User;

use crate::accounts::passport::AccountAction;
use crate::error::DomainResult;

/// What an operator's action did.
#[derive(Debug, Clone, PartialEq)]
pub struct AccountActed {
    pub user: User,
    /// Logins ended.
    pub logins_ended: usize,
    /// The game session ended, if one was live.
    pub game_ended: Option<i64>,
}

impl Accounts {
    /// Freezes, bans or restores the account with this phone.
    pub async fn act_on_account(&self, cellphone: &str, action: AccountAction) -> DomainResult<AccountActed> {
        let user = self.passport().user_by_phone(cellphone).await?;
        let ends_play = !matches!(action, AccountAction::Restore);
        let logins_ended = self.passport().set_account(user.uid, action).await?;
        let game_ended = if ends_play {
            self.play().end_running_game(user.uid).await?
        } else {
            None
        };
        Ok(AccountActed {
            user,
            logins_ended,
            game_ended,
        })
    }
}

/// The calls of the accounts feature: freezes, bans and restores, the account centre.
#[derive(Clone)]
pub struct Accounts {
    pub(crate) ctx: std::sync::Arc<crate::ctx::Ctx>,
    pub(crate) passport: std::sync::Arc<crate::accounts::passport::Passport>,
}

/// The features accounts calls (ARCHITECTURE.md lists the arrows).
impl Accounts {
    pub(crate) fn play(&self) -> crate::play::service::Play {
        crate::play::service::Play { ctx: self.ctx.clone() }
    }

    pub(crate) fn commerce(&self) -> crate::commerce::service::Commerce {
        crate::commerce::service::Commerce { ctx: self.ctx.clone() }
    }

    pub(crate) fn activity(&self) -> crate::activity::service::Activities {
        crate::activity::service::Activities { ctx: self.ctx.clone() }
    }

    /// The profile's favourites count.
    pub(crate) fn catalogue(&self) -> crate::catalogue::Catalogue {
        crate::catalogue::Catalogue { ctx: self.ctx.clone() }
    }

    pub fn passport(&self) -> &crate::accounts::passport::Passport {
        &self.passport
    }
}
