//! The platform's account calls (core-platform.md §4.10, §6): an operator freezes, bans or
//! restores an account. The passport ends its logins (each socket told why, then closed); a
//! game it is running, queued for or about to confirm ends too, as the player ending it would.

use storage::User;

use crate::error::DomainResult;
use crate::passport::AccountAction;
use crate::platform::Platform;
use crate::player::SessionOp;
use crate::view::{GameState, Status};

/// What an operator's action did.
#[derive(Debug, Clone, PartialEq)]
pub struct AccountActed {
    pub user: User,
    /// Logins ended.
    pub logins_ended: usize,
    /// The game session ended, if one was live.
    pub game_ended: Option<i64>,
}

impl Platform {
    /// Freezes, bans or restores the account with this phone.
    pub async fn act_on_account(&self, cellphone: &str, action: AccountAction) -> DomainResult<AccountActed> {
        let user = self.passport().user_by_phone(cellphone).await?;
        let ends_play = !matches!(action, AccountAction::Restore);
        let logins_ended = self.passport().set_account(user.uid, action).await?;
        let game_ended = if ends_play { self.end_running_game(user.uid).await? } else { None };
        Ok(AccountActed {
            user,
            logins_ended,
            game_ended,
        })
    }

    /// Ends the user's live session whatever its status (queued, ready, connecting, playing).
    pub(crate) async fn end_running_game(&self, uid: i64) -> DomainResult<Option<i64>> {
        let GameState::Online(s) = self.game_state(uid).await? else {
            return Ok(None);
        };
        let op = match s.status {
            Status::Queue => SessionOp::CancelQueue,
            Status::Ready | Status::Connecting => SessionOp::CancelConfirm,
            Status::Playing => SessionOp::Over,
        };
        self.session_op(uid, op, s.id).await?;
        Ok(Some(s.id))
    }
}
