//! Dev mode only: the sandbox third-party provider's authorize page (what the login dialog
//! frames for the messaging app, or opens in a popup for the second provider). A person names
//! the provider account and agrees; the page then hands the token to the login dialog with a
//! `postMessage` (`done.js`, a file: the CSP allows no inline script), as a real provider's
//! callback page would.

use actix_web::{get, post, web, HttpResponse};
use actors::accounts::oauth::{ThirdPartyIdentity, OPEN_TYPE_QQ, OPEN_TYPE_WECHAT};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::envelope::refusals;
use crate::sandbox::esc;
use crate::state::AppState;

refusals!(FormRefusals: common::input());

/// These paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(authorize_page).service(authorize).service(done_js);
}

/// The page, framable by this site only.
fn framed(title: &str, body: &str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header(("X-Frame-Options", "SAMEORIGIN"))
        .insert_header((
            "Content-Security-Policy",
            "default-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
        ))
        .body(format!(
            "<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\"><title>{}</title></head>\
             <body style=\"font-family:sans-serif;font-size:12px;margin:8px\">{}</body></html>",
            esc(title),
            body
        ))
}

fn provider_name(open_type: i32) -> Option<&'static str> {
    match open_type {
        OPEN_TYPE_WECHAT => Some("微信"),
        OPEN_TYPE_QQ => Some("QQ"),
        _ => None,
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuthorizeQuery {
    open_type: i32,
    #[serde(default)]
    #[allow(dead_code)]
    state: String,
}

/// The authorize page: the provider account, '同意授权'.
#[utoipa::path(params(AuthorizeQuery), responses((status = 200, description = "the authorize page (HTML)", content_type = "text/html", body = String), FormRefusals))]
#[get("/api/dev/oauth/authorize")]
pub async fn authorize_page(q: web::Query<AuthorizeQuery>) -> HttpResponse {
    let Some(name) = provider_name(q.open_type) else {
        return framed("授权失败", "<p>不支持的登录方式</p>");
    };
    framed(
        &format!("{name}授权登录"),
        &format!(
            "<form method=\"post\" action=\"/api/dev/oauth/authorize\"><input type=\"hidden\" name=\"open_type\" value=\"{}\">\
             <p>{name}授权登录（沙箱）</p><p><label>{name}账号 <input name=\"openid\" maxlength=\"64\" size=\"10\"></label></p>\
             <p><label>昵称 <input name=\"nickname\" maxlength=\"20\" size=\"10\"></label></p>\
             <button type=\"submit\">同意授权</button></form>",
            q.open_type
        ),
    )
}

#[derive(Deserialize, ToSchema)]
pub struct AuthorizeForm {
    open_type: i32,
    #[serde(default)]
    openid: String,
    #[serde(default)]
    nickname: String,
}

/// The person agreed: a token for the account, handed to the dialog by `done.js`.
#[utoipa::path(request_body(content = AuthorizeForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "the callback page (HTML)", content_type = "text/html", body = String), FormRefusals))]
#[post("/api/dev/oauth/authorize")]
pub async fn authorize(state: web::Data<AppState>, form: web::Form<AuthorizeForm>) -> HttpResponse {
    let openid = form.openid.trim();
    let (Some(_), false, true) = (provider_name(form.open_type), openid.is_empty(), openid.len() <= 64) else {
        return framed("授权失败", "<p>授权失败：请填写账号</p>");
    };
    let Some(sandbox) = state.platform.passport().oauth_sandbox() else {
        return framed("授权失败", "<p>授权失败</p>");
    };
    let identity = ThirdPartyIdentity {
        open_type: form.open_type,
        openid: openid.to_string(),
        nickname: form.nickname.trim().chars().take(20).collect(),
    };
    match sandbox.issue(identity, state.platform.clock().now_ms()) {
        Some(token) => framed(
            "授权成功",
            &format!(
                "<p id=\"oauth-token\" data-token=\"{}\">授权成功，正在登录…</p><script src=\"/api/dev/oauth/done.js\"></script>",
                esc(&token)
            ),
        ),
        None => framed("授权失败", "<p>授权失败，请稍后再试</p>"),
    }
}

/// Hands the token to the page that framed or opened this one (same origin only), then a popup
/// closes itself.
#[utoipa::path(responses((status = 200, description = "the callback script", content_type = "text/javascript", body = String)))]
#[get("/api/dev/oauth/done.js")]
pub async fn done_js() -> HttpResponse {
    HttpResponse::Ok().content_type("text/javascript; charset=utf-8").body(
        "(function () {\n  var el = document.getElementById('oauth-token');\n  var target = window.opener || window.parent;\n  \
         if (!el || !target || target === window) return;\n  \
         target.postMessage({ type: 'yoo-oauth', token: el.getAttribute('data-token') }, location.origin);\n  \
         if (window.opener) window.close();\n})();\n",
    )
}
