//! Password sign-in (core-platform.md §2.3, §2.5, §4.13, §5.2, §7.2, §8.1): the password
//! login (20125 / 20128 ask for the security check after repeated failures), the security
//! check's challenge and failure report, the forgot-password code, verify and update, and which
//! ways into the account are set. Passwords travel base64-encoded (UTF-8 inside).

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::passport::{captcha_answer, client_ip, LoginResult};
use crate::auth::{Caller, GuestWrite, MaybeCaller};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

/// These paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(password_login)
        .service(captcha_register)
        .service(captcha_report)
        .service(forget_send_code)
        .service(forget_verify)
        .service(forget_update)
        .service(binding_state);
}

#[derive(Deserialize, ToSchema)]
pub struct PasswordLoginBody {
    /// The phone.
    #[serde(default)]
    #[schema(example = "13800138000")]
    user_name: String,
    /// The password, base64 of its UTF-8.
    #[serde(default)]
    #[schema(example = "YWJjMTIzIUA=")]
    password: String,
    #[serde(default)]
    device_no: String,
    /// The security check's result (on a retry after 20125 / 20128).
    #[serde(default)]
    geetest_challenge: String,
    #[serde(default)]
    geetest_validate: String,
    #[serde(default)]
    geetest_seccode: String,
}

refusals!(PasswordLoginRefusals: common::input(), common::guest_write(), common::internal(), DomainError::PhoneEmpty,
    DomainError::PhoneMalformed, DomainError::PasswordEmpty, DomainError::PasswordWrong, DomainError::CaptchaRequired,
    DomainError::CaptchaFailed, DomainError::AccountForbidden { frozen: false, reason: String::new(), until: 0 });

/// Logs in with the phone and password; sets the `yoo_sid` and `_csrfToken` cookies. An unknown
/// phone and a wrong password get the same 20120; after repeated failures 20125 asks for the
/// security check, whose result the retry carries (20128: not taken).
#[utoipa::path(request_body = PasswordLoginBody, responses((status = 200, body = Envelope<LoginResult>), PasswordLoginRefusals))]
#[post("/api/passport/password/login")]
pub async fn password_login(
    req: HttpRequest,
    state: web::Data<AppState>,
    _caller: GuestWrite,
    body: web::Json<PasswordLoginBody>,
) -> Result<HttpResponse, ApiError> {
    let login = actors::accounts::passport::PasswordLogin {
        user_name: body.user_name.trim().to_string(),
        password: body.password.clone(),
        device_no: body.device_no.chars().take(64).collect(),
        ip: client_ip(&req, &state),
        captcha: captcha_answer(&body.geetest_challenge, &body.geetest_validate, &body.geetest_seccode),
    };
    let (user, session) = state.platform.passport().password_login(&login).await?;
    Ok(super::passport::logged_in(&req, &state, user, false, &session, "").await)
}

/// The security check's widget parameters (GeeTest-like).
#[derive(Serialize, ToSchema)]
pub struct CaptchaRegister {
    pub gt: String,
    pub challenge: String,
    pub new_captcha: bool,
    /// 1: the provider is up.
    pub success: i32,
    /// "success" when a challenge was registered.
    pub status: &'static str,
    /// The sandbox's challenge page (dev mode; a real provider's widget is its script).
    pub page_url: Option<String>,
}

refusals!(CaptchaRegisterRefusals: common::maybe_logged_in(), DomainError::CaptchaFailed);

/// A new security-check challenge.
#[utoipa::path(responses((status = 200, body = Envelope<CaptchaRegister>), CaptchaRegisterRefusals))]
#[get("/api/passport/captcha/senseboot/register")]
pub async fn captcha_register(state: web::Data<AppState>, _caller: MaybeCaller) -> ApiResult<CaptchaRegister> {
    let c = state.platform.passport().captcha_register()?;
    Ok(ok(CaptchaRegister {
        gt: c.gt,
        challenge: c.challenge,
        new_captcha: c.new_captcha,
        success: c.success,
        status: "success",
        page_url: c.page_url,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct CaptchaReport {
    /// 1: the check failed on the client.
    #[serde(default)]
    third_status: i32,
    #[serde(default, rename = "type")]
    kind: i32,
    #[serde(default)]
    #[schema(example = "13900000042")]
    phone: Option<String>,
}

refusals!(CaptchaReportRefusals: common::input(), common::guest_write());

/// The client's report of a failed security check (counted, nothing else).
#[utoipa::path(request_body = CaptchaReport, responses((status = 200, body = Envelope<Null>), CaptchaReportRefusals))]
#[post("/api/v3/senseboot/report")]
pub async fn captcha_report(_caller: GuestWrite, body: web::Json<CaptchaReport>) -> ApiResult<Null> {
    let _ = &body.phone;
    metrics::counter!("yoo_captcha_reports_total", "third_status" => body.third_status.to_string(), "type" => body.kind.to_string())
        .increment(1);
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
pub struct ForgetSendCode {
    #[serde(default)]
    #[schema(example = "13800138000")]
    phone: String,
    /// The security check's result (on a resend after 20125).
    #[serde(default)]
    geetest_challenge: String,
    #[serde(default)]
    geetest_validate: String,
    #[serde(default)]
    geetest_seccode: String,
}

refusals!(ForgetSendRefusals: common::input(), common::guest_write(), common::internal(), DomainError::PhoneEmpty,
    DomainError::PhoneMalformed, DomainError::CaptchaRequired, DomainError::CaptchaFailed,
    DomainError::CodeTooSoon { retry_after_secs: 0 }, DomainError::LoginLocked { retry_after_secs: 0 },
    DomainError::SmsFailed(String::new()));

/// The forgot-password code, past the login code's security check and under its limits; the
/// same answer for a phone without an account (which gets no message).
#[utoipa::path(request_body = ForgetSendCode, responses((status = 200, body = Envelope<Null>), ForgetSendRefusals))]
#[post("/api/passport/passwordForget/sendcode")]
pub async fn forget_send_code(
    req: HttpRequest,
    state: web::Data<AppState>,
    _caller: GuestWrite,
    body: web::Json<ForgetSendCode>,
) -> ApiResult<Null> {
    let captcha = captcha_answer(&body.geetest_challenge, &body.geetest_validate, &body.geetest_seccode);
    state
        .platform
        .passport()
        .forget_send_code(body.phone.trim(), Some(&client_ip(&req, &state)), &captcha)
        .await?;
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
pub struct ForgetVerify {
    #[serde(default)]
    #[schema(example = "13800138000")]
    cellphone: String,
    #[serde(default)]
    #[schema(example = "123456")]
    code: String,
}

/// A ticket that sets the phone's password once within ten minutes.
#[derive(Serialize, ToSchema)]
pub struct ForgetTicket {
    pub ticket: String,
}

refusals!(ForgetVerifyRefusals: common::input(), common::guest_write(), common::internal(), DomainError::PhoneEmpty,
    DomainError::PhoneMalformed, DomainError::CodeEmpty, DomainError::CodeWrong, DomainError::LoginLocked { retry_after_secs: 0 });

/// Checks the phone's code (spent) and gives the ticket.
#[utoipa::path(request_body = ForgetVerify, responses((status = 200, body = Envelope<ForgetTicket>), ForgetVerifyRefusals))]
#[post("/api/password/forget/verify")]
pub async fn forget_verify(state: web::Data<AppState>, _caller: GuestWrite, body: web::Json<ForgetVerify>) -> ApiResult<ForgetTicket> {
    let ticket = state
        .platform
        .passport()
        .forget_verify(body.cellphone.trim(), body.code.trim())
        .await?;
    Ok(ok(ForgetTicket { ticket }))
}

#[derive(Deserialize, ToSchema)]
pub struct ForgetUpdate {
    #[serde(default)]
    #[schema(example = "13800138000")]
    cellphone: String,
    /// The new password, base64 of its UTF-8 (8–16 of letters, digits and ~!@#$%^&*_?., one of
    /// each).
    #[serde(default)]
    password: String,
    #[serde(default)]
    ticket: String,
}

/// What the update did.
#[derive(Serialize, ToSchema)]
pub struct PasswordUpdated {
    /// A first password (set mode): '设置成功', the caller stays logged in; otherwise
    /// '密码修改成功，请重新登录' and every login of the account ended.
    pub first: bool,
    pub message: &'static str,
}

refusals!(ForgetUpdateRefusals: common::input(), common::guest_write(), common::internal(), DomainError::PhoneEmpty,
    DomainError::PhoneMalformed, DomainError::NewPasswordEmpty, DomainError::NewPasswordWeak, DomainError::PasswordTicketInvalid);

/// Sets the phone's password with its ticket (spent). Ends the account's other logins.
#[utoipa::path(request_body = ForgetUpdate, responses((status = 200, body = Envelope<PasswordUpdated>), ForgetUpdateRefusals))]
#[post("/api/password/forget/update")]
pub async fn forget_update(state: web::Data<AppState>, caller: GuestWrite, body: web::Json<ForgetUpdate>) -> ApiResult<PasswordUpdated> {
    let set = state
        .platform
        .passport()
        .forget_update(body.cellphone.trim(), &body.password, body.ticket.trim(), caller.0.as_ref())
        .await?;
    Ok(ok(PasswordUpdated {
        first: set.first,
        message: if set.first {
            "设置成功"
        } else {
            "密码修改成功，请重新登录"
        },
    }))
}

/// Which ways into the account are set.
#[derive(Serialize, ToSchema)]
pub struct BindingStateView {
    pub phone: bool,
    pub password: bool,
}

refusals!(BindingStateRefusals: common::logged_in(), common::internal());

/// Whether the caller's account has a phone and a password.
#[utoipa::path(responses((status = 200, body = Envelope<BindingStateView>), BindingStateRefusals))]
#[get("/api/v3/user/binding/state")]
pub async fn binding_state(state: web::Data<AppState>, caller: Caller) -> ApiResult<BindingStateView> {
    let b = state.platform.passport().binding_state(caller.0.uid).await?;
    Ok(ok(BindingStateView {
        phone: b.phone,
        password: b.password,
    }))
}
