//! Auto-renewals (commerce.md §1, §2.5 renewal info): the player's agreements and cancelling
//! one ('可随时取消'). The spec shows no call for them; these are ours (`Platform::agreements`).

use actix_web::{get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use actors::DomainError;
use storage::agreements::Agreement;

use crate::auth::Caller;
use crate::envelope::{ok, refusals, ApiResult, Envelope};
use crate::state::AppState;

/// Routes these paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(agreement_list).service(agreement_cancel);
}

/// An auto-renewal as the player sees it.
#[derive(Serialize, ToSchema)]
pub struct AgreementDto {
    pub agreement_no: String,
    pub goods_code: String,
    /// What renews ('VIP连续包月').
    pub title: String,
    /// fen charged each renewal.
    pub amount_fen: i64,
    /// 0 waiting for its first payment, 1 renewing, 2 cancelled.
    pub state: i32,
    /// ms: the next charge (0 unless renewing).
    pub next_at: i64,
    /// Periods paid, the first included.
    pub periods: i64,
    /// ms
    pub created_at: i64,
    /// ms
    pub cancelled_at: Option<i64>,
}

fn dto(a: Agreement) -> AgreementDto {
    AgreementDto {
        agreement_no: a.agreement_no,
        goods_code: a.goods_code,
        title: a.title,
        amount_fen: a.amount_fen,
        state: a.state,
        next_at: a.next_at,
        periods: a.periods,
        created_at: a.created_at,
        cancelled_at: a.cancelled_at,
    }
}

refusals!(ListRefusals: common::logged_in(), common::internal());

/// The caller's auto-renewals, newest first.
#[utoipa::path(responses((status = 200, body = Envelope<Vec<AgreementDto>>), ListRefusals))]
#[get("/api/v3/user/agreement/list")]
pub async fn agreement_list(state: web::Data<AppState>, caller: Caller) -> ApiResult<Vec<AgreementDto>> {
    let list = state.platform.commerce.agreements(caller.0.uid).await?;
    Ok(ok(list.into_iter().map(dto).collect()))
}

#[derive(Deserialize, ToSchema)]
pub struct CancelBody {
    agreement_no: String,
}

refusals!(CancelRefusals: common::input(), common::logged_in(), common::internal(), DomainError::UnknownAgreement);

/// Cancels one of the caller's auto-renewals: the provider charges it no more; what was paid
/// stays. Cancelling again changes nothing.
#[utoipa::path(request_body = CancelBody, responses((status = 200, body = Envelope<AgreementDto>), CancelRefusals))]
#[post("/api/v3/user/agreement/cancel")]
pub async fn agreement_cancel(state: web::Data<AppState>, caller: Caller, body: web::Json<CancelBody>) -> ApiResult<AgreementDto> {
    let no = body.agreement_no.trim();
    if no.is_empty() || no.len() > 64 {
        return Err(DomainError::UnknownAgreement.into());
    }
    Ok(ok(dto(state.platform.commerce.cancel_agreement(caller.0.uid, no).await?)))
}
