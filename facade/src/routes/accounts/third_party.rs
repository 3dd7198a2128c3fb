//! Third-party login (core-platform.md §2.3, §2.4, §7.2): the provider's authorize page, the
//! token login (20108 when the identity is bound to no account), and the phone bind that logs in.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::passport::{client_ip, logged_in, LoginResult};
use crate::auth::{GuestWrite, MaybeCaller};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

/// These paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(authorize_url)
        .service(token_login)
        .service(bind_phone_send_code)
        .service(bind_phone_login);
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OpenType {
    /// 3 the messaging app (WeChat), 1 the second provider (QQ).
    #[param(example = 3, minimum = 1, maximum = 3)]
    open_type: i32,
}

#[derive(Serialize, ToSchema)]
pub struct AuthorizeUrl {
    pub url: String,
}

refusals!(UrlRefusals: common::input(), common::maybe_logged_in());

/// The provider's authorize page (the dialog frames it, or opens it in a popup).
#[utoipa::path(params(OpenType), responses((status = 200, body = Envelope<AuthorizeUrl>), UrlRefusals))]
#[get("/api/passport/authorize/url")]
pub async fn authorize_url(state: web::Data<AppState>, _caller: MaybeCaller, q: web::Query<OpenType>) -> ApiResult<AuthorizeUrl> {
    let url = state
        .platform
        .passport()
        .third_party_url(q.open_type)
        .ok_or_else(ApiError::bad_request)?;
    Ok(ok(AuthorizeUrl { url }))
}

#[derive(Deserialize, ToSchema)]
pub struct TokenLogin {
    #[serde(default)]
    token: String,
    #[serde(default)]
    device_no: String,
}

refusals!(TokenLoginRefusals: common::input(), common::guest_write(), common::internal(), DomainError::PhoneBindRequired,
    DomainError::ThirdPartyTokenInvalid, DomainError::AccountForbidden { frozen: false, reason: String::new(), until: 0 });

/// Logs in with the provider's token; 20108: bind a phone first (the token stays good).
#[utoipa::path(request_body = TokenLogin, responses((status = 200, body = Envelope<LoginResult>), TokenLoginRefusals))]
#[post("/api/auth/authorize/token/login")]
pub async fn token_login(
    req: HttpRequest,
    state: web::Data<AppState>,
    _caller: GuestWrite,
    body: web::Json<TokenLogin>,
) -> Result<HttpResponse, ApiError> {
    let device: String = body.device_no.chars().take(64).collect();
    let (user, login) = state.platform.passport().token_login(body.token.trim(), &device).await?;
    Ok(logged_in(&req, &state, user, false, &login, "").await)
}

#[derive(Deserialize, ToSchema)]
pub struct BindSendCode {
    #[serde(default)]
    #[schema(example = "13900000042")]
    phone: String,
    #[serde(default)]
    token: String,
    #[serde(default)]
    #[allow(dead_code)]
    open_type: i32,
    /// The security check's result (on a resend after 20125).
    #[serde(default)]
    geetest_challenge: String,
    #[serde(default)]
    geetest_validate: String,
    #[serde(default)]
    geetest_seccode: String,
}

refusals!(BindSendRefusals: common::input(), common::guest_write(), common::internal(), DomainError::ThirdPartyTokenInvalid,
    DomainError::PhoneEmpty, DomainError::PhoneMalformed, DomainError::CaptchaRequired, DomainError::CaptchaFailed,
    DomainError::CodeTooSoon { retry_after_secs: 0 }, DomainError::LoginLocked { retry_after_secs: 0 }, DomainError::SmsFailed(String::new()));

/// The phone-bind dialog's code (only for a live token), past the login code's security check
/// and under its limits.
#[utoipa::path(request_body = BindSendCode, responses((status = 200, body = Envelope<Null>), BindSendRefusals))]
#[post("/api/passport/authorize/bind-phone/sendcode")]
pub async fn bind_phone_send_code(
    req: HttpRequest,
    state: web::Data<AppState>,
    _caller: GuestWrite,
    body: web::Json<BindSendCode>,
) -> ApiResult<Null> {
    let passport = state.platform.passport();
    passport.third_party_token_live(body.token.trim())?;
    let captcha = super::passport::captcha_answer(&body.geetest_challenge, &body.geetest_validate, &body.geetest_seccode);
    passport
        .send_code_from(body.phone.trim(), Some(&client_ip(&req, &state)), &captcha)
        .await?;
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
pub struct BindLogin {
    #[serde(default)]
    token: String,
    #[serde(default)]
    #[schema(example = "13900000042")]
    cellphone: String,
    #[serde(default)]
    code: String,
    #[serde(default)]
    device_no: String,
}

refusals!(BindLoginRefusals: common::input(), common::guest_write(), common::internal(), DomainError::ThirdPartyTokenInvalid,
    DomainError::PhoneEmpty, DomainError::PhoneMalformed, DomainError::CodeEmpty, DomainError::CodeWrong,
    DomainError::LoginLocked { retry_after_secs: 0 }, DomainError::AccountForbidden { frozen: false, reason: String::new(), until: 0 });

/// Binds the token's identity to the phone's account (the code checked; created if new) and
/// logs in as it.
#[utoipa::path(request_body = BindLogin, responses((status = 200, body = Envelope<LoginResult>), BindLoginRefusals))]
#[post("/api/passport/authorize/token/bind-phone/login")]
pub async fn bind_phone_login(
    req: HttpRequest,
    state: web::Data<AppState>,
    _caller: GuestWrite,
    body: web::Json<BindLogin>,
) -> Result<HttpResponse, ApiError> {
    let device: String = body.device_no.chars().take(64).collect();
    let (user, created, login) = state
        .platform
        .passport()
        .bind_phone_login(body.token.trim(), body.cellphone.trim(), body.code.trim(), &device)
        .await?;
    Ok(logged_in(&req, &state, user, created, &login, "").await)
}
