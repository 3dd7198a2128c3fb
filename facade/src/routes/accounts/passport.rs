//! Accounts: SMS code, login, logout, profile, socket token (core-platform.md §7.2, §7.3).

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use actors::accounts::captcha::CaptchaAnswer;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::dto::{self, Profile};
use crate::auth::{clear_login_cookies, login_origin, set_login_cookies, Caller, GuestWrite};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
pub struct SendCode {
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

/// The security check's result as a request carries it (GeeTest's three fields), trimmed.
pub(crate) fn captcha_answer(challenge: &str, validate: &str, seccode: &str) -> CaptchaAnswer {
    CaptchaAnswer {
        challenge: challenge.trim().to_string(),
        validate: validate.trim().to_string(),
        seccode: seccode.trim().to_string(),
    }
}

refusals!(SendCodeRefusals: common::input(), common::guest_write(), DomainError::PhoneEmpty, DomainError::PhoneMalformed,
    DomainError::CaptchaRequired, DomainError::CaptchaFailed,
    DomainError::CodeTooSoon { retry_after_secs: 0 }, DomainError::LoginLocked { retry_after_secs: 0 }, DomainError::SmsFailed(String::new()));

/// Sends a login code by SMS past the security check (beyond `[sms] captcha_phone_per_hour`
/// requests of the phone or `captcha_ip_per_hour` of the address within an hour: 20125 without
/// a solved one, 20128 with a bad one) and within the SMS limits; the address is the client's
/// (the peer, or what a trusted proxy forwarded: `Policy::client_ip`).
#[utoipa::path(request_body = SendCode, responses((status = 200, body = Envelope<Null>), SendCodeRefusals))]
#[post("/api/passport/login/sendcode")]
pub async fn send_code(req: HttpRequest, state: web::Data<AppState>, _caller: GuestWrite, body: web::Json<SendCode>) -> ApiResult<Null> {
    let captcha = captcha_answer(&body.geetest_challenge, &body.geetest_validate, &body.geetest_seccode);
    state
        .platform
        .passport()
        .send_code_from(body.phone.trim(), Some(&client_ip(&req, &state)), &captcha)
        .await?;
    Ok(ok(Null))
}

/// The address an SMS send is counted against (the security policy's reading of the peer and
/// `X-Forwarded-For`).
pub(crate) fn client_ip(req: &HttpRequest, state: &AppState) -> String {
    let forwarded: Vec<&str> = req.headers().get_all("x-forwarded-for").filter_map(|v| v.to_str().ok()).collect();
    state
        .security
        .client_ip(req.peer_addr().map(|a| a.ip()), &forwarded)
        .map_or_else(|| "unknown".into(), |ip| ip.to_string())
}

#[derive(Deserialize, ToSchema)]
pub struct Login {
    #[serde(default)]
    #[schema(example = "13800138000")]
    cellphone: String,
    #[serde(default)]
    #[schema(example = "123456")]
    code: String,
    #[serde(default)]
    device_no: String,
    /// The inviter's code a landing page carried (bound only when this login creates the user).
    #[serde(default)]
    invite_code: String,
}

/// One item of the registration gift (commerce.md §2.9).
#[derive(Serialize, ToSchema)]
pub struct GiftGoods {
    pub name: &'static str,
    pub face_value_txt: String,
}

#[derive(Serialize, ToSchema)]
pub struct LoginResult {
    pub uid: i64,
    pub nickname: String,
    pub is_new_user: bool,
    pub give_goods: Vec<GiftGoods>,
}

refusals!(LoginRefusals: common::input(), common::guest_write(), DomainError::PhoneEmpty, DomainError::PhoneMalformed,
    DomainError::CodeEmpty, DomainError::CodeWrong, DomainError::LoginLocked { retry_after_secs: 0 },
    DomainError::AccountForbidden { frozen: false, reason: String::new(), until: 0 });

/// Logs in with an SMS code; sets the `yoo_sid` and `_csrfToken` cookies.
#[utoipa::path(request_body = Login, responses((status = 200, body = Envelope<LoginResult>), LoginRefusals))]
#[post("/api/passport/login")]
pub async fn login(
    req: HttpRequest,
    state: web::Data<AppState>,
    _caller: GuestWrite,
    body: web::Json<Login>,
) -> Result<HttpResponse, ApiError> {
    let device: String = body.device_no.chars().take(64).collect();
    let (user, created, session) = state
        .platform
        .passport()
        .login(body.cellphone.trim(), body.code.trim(), &device)
        .await?;
    Ok(logged_in(&req, &state, user, created, &session, &body.invite_code).await)
}

/// The answer of every login (code, password, app QR, third party): what follows a login
/// (`Accounts::logged_in`: the device recorded, a new user's invite bound, the first app
/// login's gift), its cookies set, the user and a new user's registration gift.
pub(crate) async fn logged_in(
    req: &HttpRequest,
    state: &AppState,
    user: storage::User,
    created: bool,
    session: &actors::accounts::passport::NewLogin,
    invite_code: &str,
) -> HttpResponse {
    state
        .platform
        .accounts
        .logged_in(session, created, login_origin(req, invite_code))
        .await;
    let mut resp = HttpResponse::Ok();
    set_login_cookies(&mut resp, session, state.security.secure_cookies);
    resp.json(ok(LoginResult {
        uid: user.uid,
        nickname: user.nickname,
        is_new_user: created,
        give_goods: give_goods(created, state.platform.passport().gift_minutes()),
    }))
}

/// The registration gift of a new player (commerce.md §2.9), as the login answer lists it.
pub(crate) fn give_goods(created: bool, minutes: i64) -> Vec<GiftGoods> {
    if created && minutes > 0 {
        vec![GiftGoods {
            name: "新人礼包·免费游戏时长",
            face_value_txt: format!("{minutes}分钟"),
        }]
    } else {
        vec![]
    }
}

/// The body of logout: anything (the spec's client sends `{r}`, a random number).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct Logout {
    pub r: Option<f64>,
}

refusals!(LogoutRefusals: common::logged_in());

/// Ends the caller's login; clears the cookies.
#[utoipa::path(request_body(content = Option<Logout>), responses((status = 200, body = Envelope<Null>), LogoutRefusals))]
#[post("/api/user/logout")]
pub async fn logout(state: web::Data<AppState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    state.platform.passport().logout(&caller.0).await?;
    let mut resp = HttpResponse::Ok();
    clear_login_cookies(&mut resp, state.security.secure_cookies);
    Ok(resp.json(ok(Null)))
}

refusals!(ProfileRefusals: common::logged_in(), common::internal());

/// The caller's profile.
#[utoipa::path(responses((status = 200, body = Envelope<Profile>), ProfileRefusals))]
#[get("/api/user/profile")]
pub async fn profile(state: web::Data<AppState>, caller: Caller) -> ApiResult<Profile> {
    Ok(ok(profile_of(&state, caller.0.uid).await?))
}

/// A user's profile as it is now (the profile call's, the dev grant's answer).
pub(crate) async fn profile_of(state: &AppState, uid: i64) -> Result<Profile, ApiError> {
    Ok(dto::profile(&state.platform.accounts.profile(uid).await?))
}

/// A single-use token for the WebSocket.
#[derive(Serialize, ToSchema)]
pub struct SocketToken {
    pub access_token: String,
    /// Seconds.
    pub expires_in: i64,
}

refusals!(FetchTokenRefusals: common::logged_in());

/// A token to open the WebSocket with (`/echo?access_token=`).
#[utoipa::path(responses((status = 200, body = Envelope<SocketToken>), FetchTokenRefusals))]
#[get("/api/fetchToken")]
pub async fn fetch_token(state: web::Data<AppState>, caller: Caller) -> ApiResult<SocketToken> {
    let token = state.platform.passport().issue_socket_token(&caller.0).await?;
    Ok(ok(SocketToken {
        access_token: token,
        expires_in: actors::accounts::passport::SOCKET_TOKEN_TTL_MS / 1000,
    }))
}
