//! Who is calling: the session cookie, the CSRF rule, and the cookies login sets.
//!
//! CSRF rule (API.md): a POST made with a valid session cookie must carry `x-csrf-token` equal to
//! that session's token; `x-skip-csrf` never stands in for it. Guests' calls need no token.

use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::http::Method;
use actix_web::{web, FromRequest, HttpRequest, HttpResponseBuilder};
use futures_util::future::LocalBoxFuture;
use storage::LoginSession;

use crate::envelope::ApiError;
use crate::AppState;

pub const SESSION_COOKIE: &str = "yoo_sid";
pub const CSRF_COOKIE: &str = "_csrfToken";

/// A logged-in caller (CSRF already checked for POST).
pub struct Caller(pub LoginSession);

/// A caller who may be a guest (CSRF checked when logged in).
pub struct MaybeCaller(pub Option<LoginSession>);

async fn resolve(req: HttpRequest) -> Result<Option<LoginSession>, ApiError> {
    let Some(cookie) = req.cookie(SESSION_COOKIE) else {
        return Ok(None);
    };
    let state = req.app_data::<web::Data<AppState>>().ok_or_else(ApiError::not_logged_in)?.clone();
    let session = match state.platform.passport().authenticate(cookie.value()).await {
        Ok(s) => s,
        Err(actors::DomainError::NotLoggedIn) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let header = req.headers().get("x-csrf-token").and_then(|v| v.to_str().ok()).unwrap_or("");
        if header.is_empty() || header != session.csrf_token {
            return Err(ApiError::csrf());
        }
    }
    Ok(Some(session))
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { resolve(req).await?.map(Caller).ok_or_else(ApiError::not_logged_in) })
    }
}

impl FromRequest for MaybeCaller {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { resolve(req).await.map(MaybeCaller) })
    }
}

/// Sets the session and CSRF cookies of a new login.
pub fn set_login_cookies(resp: &mut HttpResponseBuilder, session: &LoginSession) {
    let max_age = CookieDuration::milliseconds(session.expires_at - session.created_at);
    resp.cookie(
        Cookie::build(SESSION_COOKIE, session.token.clone())
            .path("/")
            .http_only(true)
            .same_site(SameSite::Lax)
            .max_age(max_age)
            .finish(),
    );
    resp.cookie(
        Cookie::build(CSRF_COOKIE, session.csrf_token.clone())
            .path("/")
            .same_site(SameSite::Lax)
            .max_age(max_age)
            .finish(),
    );
}

/// Ends both cookies.
pub fn clear_login_cookies(resp: &mut HttpResponseBuilder) {
    for name in [SESSION_COOKIE, CSRF_COOKIE] {
        let mut c = Cookie::build(name, "").path("/").finish();
        c.make_removal();
        resp.cookie(c);
    }
}
