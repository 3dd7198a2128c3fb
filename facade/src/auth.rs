//! Who is calling: the session cookie, the CSRF rule, the cookies login sets, and the operator
//! token of the `/api/ops/` routes ([`Operator`]).
//!
//! CSRF rule (API.md): every call made with a valid session cookie to a route that acts as the
//! caller (every extractor below) must carry `x-csrf-token` matching that session's token,
//! whatever its method (a cross-site `GET` can be made by any page; the spec's client sends the
//! header on every request); `x-skip-csrf` never stands in for it. A guest's state-changing call
//! that is open to guests (sendcode, login: [`GuestWrite`]) must carry `x-skip-csrf: true` (or a
//! token), which a cross-site form cannot send (login CSRF). Routes that do not look at the
//! caller (the catalogue, node pings, covers) act for no one and need nothing.

use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest, HttpResponseBuilder};
use actors::accounts::after_login::LoginOrigin;
use actors::accounts::passport::{NewLogin, Passport};
use futures_util::future::LocalBoxFuture;
use storage::LoginSession;

use crate::envelope::ApiError;
use crate::state::AppState;

pub const SESSION_COOKIE: &str = "yoo_sid";
pub const CSRF_COOKIE: &str = "_csrfToken";

/// A logged-in caller (the CSRF token checked).
pub struct Caller(pub LoginSession);

/// A caller who may be a guest, on a call that changes nothing for a guest (the CSRF token
/// checked when logged in).
pub struct MaybeCaller(pub Option<LoginSession>);

/// A caller who may be a guest, on a state-changing call open to guests (sendcode, login): a
/// logged-in caller's CSRF token is checked, a guest must send `x-skip-csrf: true`.
pub struct GuestWrite(pub Option<LoginSession>);

fn header<'a>(req: &'a HttpRequest, name: &str) -> &'a str {
    req.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

async fn resolve(req: HttpRequest, guest_write: bool, required: bool) -> Result<Option<LoginSession>, ApiError> {
    let session = match req.cookie(SESSION_COOKIE) {
        None => None,
        Some(cookie) => {
            let state = req.app_data::<web::Data<AppState>>().ok_or_else(ApiError::not_logged_in)?.clone();
            match state.platform.passport().authenticate(cookie.value()).await {
                Ok(s) => Some(s),
                Err(actors::DomainError::NotLoggedIn) => None,
                // a login ended by force: 40001 (20101 while the freeze or ban holds) where a
                // login is needed, a guest elsewhere
                Err(e @ (actors::DomainError::SessionEnded | actors::DomainError::AccountForbidden { .. })) if required => {
                    return Err(e.into())
                }
                Err(actors::DomainError::SessionEnded | actors::DomainError::AccountForbidden { .. }) => None,
                Err(e) => return Err(e.into()),
            }
        }
    };
    match session {
        Some(s) if !Passport::csrf_matches(&s, header(&req, "x-csrf-token")) => Err(ApiError::csrf()),
        None if guest_write && header(&req, "x-skip-csrf") != "true" && header(&req, "x-csrf-token").is_empty() => Err(ApiError::csrf()),
        s => Ok(s),
    }
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { resolve(req, false, true).await?.map(Caller).ok_or_else(ApiError::not_logged_in) })
    }
}

impl FromRequest for MaybeCaller {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { resolve(req, false, false).await.map(MaybeCaller) })
    }
}

impl FromRequest for GuestWrite {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { resolve(req, true, false).await.map(GuestWrite) })
    }
}

/// A request header's value, trimmed, with control characters dropped, at most `max` chars.
fn header_value(req: &HttpRequest, name: &str, max: usize) -> String {
    header(req, name).trim().chars().filter(|c| !c.is_control()).take(max).collect()
}

/// Where a login's request came from (core-platform.md §7.1), for `Accounts::logged_in`:
/// `Yoo-Uuid`, `x-org-channel` and the internet café's `Yoo-Gid`, `Yoo-Mac`, `Yoo-Pc-Name`,
/// `Yoo-Boot-Id`; the user agent (the product's app names itself there); the invite code the
/// landing page carried.
pub fn login_origin(req: &HttpRequest, invite_code: &str) -> LoginOrigin {
    LoginOrigin {
        device: storage::accounts::LoginDevice {
            uuid: header_value(req, "yoo-uuid", 64),
            channel: header_value(req, "x-org-channel", 128),
            cafe_gid: header_value(req, "yoo-gid", 64),
            cafe_mac: header_value(req, "yoo-mac", 64),
            cafe_pc_name: header_value(req, "yoo-pc-name", 64),
            cafe_boot_id: header_value(req, "yoo-boot-id", 64),
        },
        user_agent: header(req, "user-agent").to_string(),
        invite_code: invite_code.chars().take(64).collect(),
    }
}

/// Sets the session and CSRF cookies of a new login (`Secure` when the site is HTTPS).
pub fn set_login_cookies(resp: &mut HttpResponseBuilder, login: &NewLogin, secure: bool) {
    let max_age = CookieDuration::milliseconds(login.session.expires_at - login.session.created_at);
    resp.cookie(
        Cookie::build(SESSION_COOKIE, login.token.clone())
            .path("/")
            .http_only(true)
            .secure(secure)
            .same_site(SameSite::Lax)
            .max_age(max_age)
            .finish(),
    );
    resp.cookie(
        Cookie::build(CSRF_COOKIE, login.csrf_token.clone())
            .path("/")
            .secure(secure)
            .same_site(SameSite::Lax)
            .max_age(max_age)
            .finish(),
    );
}

/// Ends both cookies.
pub fn clear_login_cookies(resp: &mut HttpResponseBuilder, secure: bool) {
    for name in [SESSION_COOKIE, CSRF_COOKIE] {
        let mut c = Cookie::build(name, "").path("/").secure(secure).finish();
        c.make_removal();
        resp.cookie(c);
    }
}

/// The header of the operator token.
pub const OPERATOR_TOKEN_HEADER: &str = "x-operator-token";

/// An operator's call: the configured operator token (`x-operator-token`) is there. The guard
/// of every `/api/ops/` route, taken before the body: without the token the answer is 40006
/// whatever the body holds.
pub struct Operator;

impl actix_web::FromRequest for Operator {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Operator, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let checked = match req.app_data::<web::Data<AppState>>() {
            Some(state) => check_operator(state, req).map(|()| Operator),
            None => Err(ApiError::operator()),
        };
        std::future::ready(checked)
    }
}

/// Refuses (40006) a call without the configured operator token (`x-operator-token`).
fn check_operator(state: &AppState, req: &HttpRequest) -> Result<(), ApiError> {
    let token = req.headers().get(OPERATOR_TOKEN_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("");
    let allowed = match &state.operator_token_sha256 {
        // the hashes compared: equal length, no early exit on the token's own bytes
        Some(want) => !token.is_empty() && actors::accounts::passport::secret_hash(token) == *want,
        None => false,
    };
    if !allowed {
        tracing::warn!("operator call refused: no or wrong operator token");
        return Err(ApiError::operator());
    }
    Ok(())
}
