//! The operator's account actions (core-platform.md §4.10, §6): freeze, ban, restore. In dev mode
//! a route (`POST /api/dev/account`); in every mode `POST /api/ops/account` with the operator
//! token (`x-operator-token`, its SHA-256 in the configuration), which the `yoo-server account`
//! command calls. The platform ends the account's logins (each socket gets its AUTHORIZATION
//! frame, FROZEN or BAN, then closes) and its running game.

use actix_web::{post, web};
use actors::accounts::passport::AccountAction;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::Operator;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
pub struct AccountBody {
    /// The account's phone (the example names a player other than the fuzzing caller).
    #[schema(example = "13900000044")]
    cellphone: String,
    /// freeze, ban or restore (unfreeze, lift a ban).
    #[schema(example = "restore")]
    action: String,
    /// Shown to the player in the forbidden alert (at most 100 characters).
    #[serde(default)]
    reason: String,
    /// A ban's end in ms (0 or absent: until lifted).
    #[serde(default)]
    until: i64,
}

#[derive(Serialize, ToSchema)]
pub struct AccountActedDto {
    pub uid: i64,
    /// Logins ended.
    pub logins_ended: usize,
    /// The game session ended, if one was live.
    pub game_ended: Option<i64>,
}

refusals!(AccountRefusals: common::input(), common::internal(), DomainError::NotLoggedIn, DomainError::PhoneEmpty,
    DomainError::PhoneMalformed);

/// Freezes, bans or restores an account found by phone (dev mode).
#[utoipa::path(request_body = AccountBody, responses((status = 200, body = Envelope<AccountActedDto>), AccountRefusals))]
#[post("/api/dev/account")]
pub async fn dev_account(state: web::Data<AppState>, body: web::Json<AccountBody>) -> ApiResult<AccountActedDto> {
    act(&state, &body).await
}

refusals!(OpsAccountRefusals: common::input(), common::internal(), DomainError::NotLoggedIn, DomainError::PhoneEmpty,
    DomainError::PhoneMalformed, ApiError::operator());

/// Freezes, bans or restores an account found by phone: the operator's route of every mode,
/// with the operator token (`yoo-server account`).
#[utoipa::path(request_body = AccountBody, responses((status = 200, body = Envelope<AccountActedDto>), OpsAccountRefusals))]
#[post("/api/ops/account")]
pub async fn ops_account(_operator: Operator, state: web::Data<AppState>, body: web::Json<AccountBody>) -> ApiResult<AccountActedDto> {
    let acted = act(&state, &body).await?;
    tracing::info!(uid = acted.data.uid, action = %body.action, "operator acted on an account");
    Ok(acted)
}

async fn act(state: &AppState, body: &AccountBody) -> ApiResult<AccountActedDto> {
    let reason = body.reason.trim().to_string();
    if reason.chars().count() > 100 || body.until < 0 {
        return Err(ApiError::bad_request());
    }
    let action = match body.action.as_str() {
        "freeze" => AccountAction::Freeze { reason },
        "ban" => AccountAction::Ban { reason, until: body.until },
        "restore" => AccountAction::Restore,
        _ => return Err(ApiError::bad_request()),
    };
    let acted = state.platform.accounts.act_on_account(body.cellphone.trim(), action).await?;
    Ok(ok(AccountActedDto {
        uid: acted.user.uid,
        logins_ended: acted.logins_ended,
        game_ended: acted.game_ended,
    }))
}
