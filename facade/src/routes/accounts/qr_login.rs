//! App-QR login (core-platform.md §4.12, §7.2): the QR code's ticket, and the browser's long
//! poll that logs in once the app confirms. The code encodes the address the app opens; in dev
//! mode that is the sandbox app's page (`dev_app.rs`).

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use actors::accounts::passport::QrPoll;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::passport::LoginResult;
use crate::auth::{GuestWrite, MaybeCaller};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::state::AppState;

/// These paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(login_qrcode).service(login_qrcode_poll);
}

#[derive(Serialize, ToSchema)]
pub struct LoginQr {
    /// What the QR code carries: the address the app opens (a path on this site in dev mode).
    pub qrcode: String,
    /// The one-time ticket the browser polls with.
    pub ticket: String,
}

refusals!(QrRefusals: common::maybe_logged_in(), common::internal());

/// A new login QR code (valid two minutes).
#[utoipa::path(responses((status = 200, body = Envelope<LoginQr>), QrRefusals))]
#[get("/api/user/v1/auth/login/qrcode")]
pub async fn login_qrcode(state: web::Data<AppState>, _caller: MaybeCaller) -> ApiResult<LoginQr> {
    let ticket = state.platform.passport().qr_login_new()?;
    Ok(ok(LoginQr {
        qrcode: format!("/api/dev/app/qr-login/{ticket}"),
        ticket,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct QrPollBody {
    #[serde(default)]
    device_no: String,
    #[serde(default)]
    ticket: String,
}

refusals!(QrPollRefusals: common::input(), common::guest_write(), common::internal(), DomainError::LoginQrTimeout,
    DomainError::LoginQrCancelled, DomainError::LoginQrWaiting, DomainError::LoginQrScanned,
    DomainError::AccountForbidden { frozen: false, reason: String::new(), until: 0 });

/// The long poll (up to 25 s): logs in once the app confirmed (sets the cookies); else 20143
/// scanned, 20142 waiting (poll again), 20141 cancelled, 20140 expired or spent.
#[utoipa::path(request_body = QrPollBody, responses((status = 200, body = Envelope<LoginResult>), QrPollRefusals))]
#[post("/api/user/v1/auth/login/qrcode")]
pub async fn login_qrcode_poll(
    req: HttpRequest,
    state: web::Data<AppState>,
    _caller: GuestWrite,
    body: web::Json<QrPollBody>,
) -> Result<HttpResponse, ApiError> {
    let device: String = body.device_no.chars().take(64).collect();
    let QrPoll::LoggedIn(user, login) = state.platform.passport().qr_login_poll(body.ticket.trim(), &device).await?;
    Ok(super::passport::logged_in(&req, &state, user, false, &login, "").await)
}
