//! Dev mode only: the sandbox account centre's pages (core-platform.md §2.6, §7.2). Its
//! agent-login page checks the signed login (signature, expiry, one use) and opens a session of
//! its own; the session's pages are HOME (the profile), INFO (the nickname) and AVATAR (a preset
//! avatar), plain HTML forms (the CSP allows no inline script). A saved change goes to the
//! platform as the account centre's signed notice, posted over HTTP to the platform's own
//! callback route by [`LoopbackUc`], and the page says whether the platform took it.

use std::net::SocketAddr;
use std::sync::Arc;

use actix_web::http::{header, StatusCode};
use actix_web::{get, post, web, HttpResponse};
use actors::accounts::account_centre::{
    sandbox_avatar, ProfileChange, Target, UcRefusal, UcSession, UcTransport, SANDBOX_AVATARS, SIGNATURE_HEADER,
};
use futures_util::future::BoxFuture;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::envelope::{refusals, ApiError};
use crate::sandbox::esc;
use crate::state::AppState;

/// These paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(agent_login)
        .service(session_page)
        .service(save_nickname)
        .service(save_avatar)
        .service(avatar_svg);
}

const TITLE: &str = "云游账号中心";

fn html(status: StatusCode, title: &str, body: &str) -> HttpResponse {
    HttpResponse::build(status).content_type("text/html; charset=utf-8").body(format!(
        "<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title></head>\
         <body style=\"font-family:sans-serif;max-width:520px;margin:32px auto;padding:0 16px\">\
         <h1 style=\"font-size:20px\">{TITLE}（沙箱）</h1>{}</body></html>",
        esc(title),
        body
    ))
}

/// What a refusal says on the page, and its status.
fn refused(r: &UcRefusal) -> HttpResponse {
    let (status, text) = match r {
        UcRefusal::Forged => (StatusCode::FORBIDDEN, "登录校验失败，请从云游重新打开账号中心".to_owned()),
        UcRefusal::Expired => (StatusCode::FORBIDDEN, "登录已过期，请从云游重新打开账号中心".to_owned()),
        UcRefusal::Replayed => (StatusCode::FORBIDDEN, "该登录链接已使用，请从云游重新打开账号中心".to_owned()),
        UcRefusal::NoSession => (StatusCode::FORBIDDEN, "会话已失效，请从云游重新打开账号中心".to_owned()),
        UcRefusal::Form(f) => (
            StatusCode::BAD_REQUEST,
            ApiError::from(actors::DomainError::ProfileForm(*f)).message.to_owned(),
        ),
        UcRefusal::NotTaken(m) => (StatusCode::BAD_GATEWAY, format!("保存失败：{m}")),
    };
    html(status, "操作失败", &format!("<p id=\"uc-refused\">{}</p>", esc(&text)))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AgentLoginQuery {
    /// base64url of the signed agent login.
    #[serde(default)]
    payload: String,
    /// Its signature, hex.
    #[serde(default)]
    sign: String,
}

refusals!(PageRefusals: common::input());

/// The agent-login page: a good login opens a session and leads to its target's page; a forged,
/// expired or used one is refused on the page.
#[utoipa::path(operation_id = "dev_uc_agent_login", params(AgentLoginQuery), responses(
    (status = 303, description = "to the session's page at the login's target (Location)"),
    (status = 403, description = "the login refused (HTML)", content_type = "text/html", body = String),
    PageRefusals))]
#[get("/api/dev/uc/agent-login")]
pub async fn agent_login(state: web::Data<AppState>, q: web::Query<AgentLoginQuery>) -> HttpResponse {
    let Some(uc) = state.platform.accounts.uc_sandbox() else {
        return refused(&UcRefusal::NoSession);
    };
    match uc.agent_login(&q.payload, &q.sign, state.platform.clock().now_ms()) {
        Ok((id, s)) => HttpResponse::SeeOther()
            .insert_header((header::LOCATION, format!("/api/dev/uc/s/{id}?view={}", s.target.as_str())))
            .finish(),
        Err(r) => refused(&r),
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ViewQuery {
    /// HOME, INFO or AVATAR (the session's target when absent).
    #[serde(default)]
    view: String,
}

/// The live session of the path.
fn session_of(state: &AppState, id: &str) -> Result<UcSession, UcRefusal> {
    let uc = state.platform.accounts.uc_sandbox().ok_or(UcRefusal::NoSession)?;
    uc.session(id, state.platform.clock().now_ms()).ok_or(UcRefusal::NoSession)
}

/// A session's page: HOME, INFO or AVATAR, with the profile as it is now.
#[utoipa::path(operation_id = "dev_uc_page", params(("id" = String, Path, description = "the session"), ViewQuery), responses(
    (status = 200, description = "the page (HTML)", content_type = "text/html", body = String),
    (status = 403, description = "no such session (HTML)", content_type = "text/html", body = String),
    PageRefusals))]
#[get("/api/dev/uc/s/{id}")]
pub async fn session_page(state: web::Data<AppState>, id: web::Path<String>, q: web::Query<ViewQuery>) -> HttpResponse {
    let s = match session_of(&state, &id) {
        Ok(s) => s,
        Err(r) => return refused(&r),
    };
    let view = Target::parse(&q.view).unwrap_or(s.target);
    let (nickname, avatar) = match state.platform.accounts.uc_profile(s.uid).await {
        Ok(p) => p,
        Err(_) => return refused(&UcRefusal::NoSession),
    };
    let avatar = if avatar.is_empty() {
        format!("/covers/avatar/{}.svg", s.uid)
    } else {
        avatar
    };
    let base = format!("/api/dev/uc/s/{}", esc(&id));
    let tab = |t: Target, label: &str| {
        let weight = if t == view { "font-weight:700" } else { "" };
        format!(
            "<a href=\"{base}?view={}\" data-view=\"{}\" style=\"margin-right:16px;{weight}\">{label}</a>",
            t.as_str(),
            t.as_str()
        )
    };
    let nav = format!(
        "<nav style=\"margin-bottom:16px\">{}{}{}</nav>",
        tab(Target::Home, "账号首页"),
        tab(Target::Info, "基本资料"),
        tab(Target::Avatar, "修改头像")
    );
    let head = format!(
        "<p><img id=\"uc-avatar\" src=\"{}\" alt=\"头像\" width=\"64\" height=\"64\" style=\"border-radius:50%;vertical-align:middle\"> \
         <span id=\"uc-nickname\">{}</span> <span style=\"color:#888\">ID：{}</span></p>",
        esc(&avatar),
        esc(&nickname),
        s.uid
    );
    let body = match view {
        Target::Home => "<p>在这里管理你的云游账号：修改昵称等基本资料，或更换头像。</p>".to_owned(),
        Target::Info => format!(
            "<form method=\"post\" action=\"{base}/nickname\"><p><label>昵称 <input id=\"uc-nickname-input\" name=\"nickname\" value=\"{}\" maxlength=\"32\"></label></p>\
             <p style=\"color:#888\">2-16个字符</p><button id=\"uc-save\" type=\"submit\">保存</button></form>",
            esc(&nickname)
        ),
        Target::Avatar => {
            let choices: String = (1..=SANDBOX_AVATARS)
                .map(|n| {
                    format!(
                        "<label style=\"display:inline-block;margin:6px;text-align:center\"><img src=\"/api/dev/uc/avatar/{n}.svg\" alt=\"头像{n}\" width=\"56\" height=\"56\"><br>\
                         <input type=\"radio\" name=\"avatar\" value=\"{n}\" data-avatar=\"{n}\"{}></label>",
                        if n == 1 { " checked" } else { "" }
                    )
                })
                .collect();
            format!("<form method=\"post\" action=\"{base}/avatar\"><div>{choices}</div><button id=\"uc-save\" type=\"submit\">保存</button></form>")
        }
    };
    let back = format!(
        "<p style=\"margin-top:24px\"><a id=\"uc-back\" href=\"{}\">返回云游</a></p>",
        esc(&s.redirect_url)
    );
    html(StatusCode::OK, TITLE, &format!("{nav}{head}{body}{back}"))
}

/// What a saved change shows.
async fn save(state: &AppState, id: &str, change: ProfileChange, done: &str) -> HttpResponse {
    let Some(uc) = state.platform.accounts.uc_sandbox() else {
        return refused(&UcRefusal::NoSession);
    };
    let back = session_of(state, id).map(|s| s.redirect_url).unwrap_or_else(|_| "/".into());
    match uc.submit(id, change, state.platform.clock().now_ms()).await {
        Ok(()) => html(
            StatusCode::OK,
            done,
            &format!(
                "<p id=\"uc-result\">{}</p><p><a href=\"/api/dev/uc/s/{}?view=HOME\">账号首页</a> · <a id=\"uc-back\" href=\"{}\">返回云游</a></p>",
                esc(done),
                esc(id),
                esc(&back)
            ),
        ),
        Err(r) => refused(&r),
    }
}

#[derive(Deserialize, ToSchema)]
pub struct NicknameForm {
    #[serde(default)]
    nickname: String,
}

/// INFO's form: the new nickname goes to the platform.
#[utoipa::path(operation_id = "dev_uc_nickname", params(("id" = String, Path, description = "the session")),
    request_body(content = NicknameForm, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 200, description = "saved (HTML)", content_type = "text/html", body = String),
        (status = 400, description = "the nickname breaks a rule (HTML)", content_type = "text/html", body = String),
        (status = 403, description = "no such session (HTML)", content_type = "text/html", body = String),
        (status = 502, description = "the platform did not take it (HTML)", content_type = "text/html", body = String),
    ))]
#[post("/api/dev/uc/s/{id}/nickname")]
pub async fn save_nickname(state: web::Data<AppState>, id: web::Path<String>, form: Option<web::Form<NicknameForm>>) -> HttpResponse {
    // a form that does not read is an empty one: the page answers, never the JSON envelope
    let nickname = form.map(|f| f.into_inner().nickname).unwrap_or_default();
    save(&state, &id, ProfileChange::Nickname(nickname), "昵称修改成功").await
}

#[derive(Deserialize, ToSchema)]
pub struct AvatarForm {
    /// The preset's number (1–6).
    #[serde(default)]
    avatar: String,
}

/// AVATAR's form: the picked preset goes to the platform.
#[utoipa::path(operation_id = "dev_uc_avatar", params(("id" = String, Path, description = "the session")),
    request_body(content = AvatarForm, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 200, description = "saved (HTML)", content_type = "text/html", body = String),
        (status = 400, description = "no such preset (HTML)", content_type = "text/html", body = String),
        (status = 403, description = "no such session (HTML)", content_type = "text/html", body = String),
        (status = 502, description = "the platform did not take it (HTML)", content_type = "text/html", body = String),
    ))]
#[post("/api/dev/uc/s/{id}/avatar")]
pub async fn save_avatar(state: web::Data<AppState>, id: web::Path<String>, form: Option<web::Form<AvatarForm>>) -> HttpResponse {
    let picked = form.map(|f| f.into_inner().avatar).unwrap_or_default();
    let Some(url) = picked.trim().parse().ok().and_then(sandbox_avatar) else {
        return refused(&UcRefusal::Form(actors::error::ProfileFault::AvatarInvalid));
    };
    save(&state, &id, ProfileChange::Avatar(url), "头像修改成功").await
}

refusals!(AvatarRefusals: ApiError::not_found());

/// A preset avatar of the sandbox: `{1..6}.svg`.
#[utoipa::path(operation_id = "dev_uc_avatar_svg", params(("file" = String, Path)), responses((status = 200, description = "SVG", body = String, content_type = "image/svg+xml"), AvatarRefusals))]
#[get("/api/dev/uc/avatar/{file}")]
pub async fn avatar_svg(file: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let n: u32 = file
        .strip_suffix(".svg")
        .and_then(|n| n.parse().ok())
        .filter(|n| sandbox_avatar(*n).is_some())
        .ok_or_else(ApiError::not_found)?;
    let hue = (n * 57) % 360;
    let shapes = [
        "<circle cx=\"48\" cy=\"40\" r=\"20\"/>",
        "<rect x=\"28\" y=\"22\" width=\"40\" height=\"40\" rx=\"8\"/>",
        "<polygon points=\"48,18 72,62 24,62\"/>",
    ];
    let shape = shapes[(n as usize - 1) % shapes.len()];
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"96\" height=\"96\" viewBox=\"0 0 96 96\"><rect width=\"96\" height=\"96\" rx=\"48\" fill=\"hsl({hue},65%,50%)\"/>\
             <g fill=\"white\" opacity=\".9\">{shape}<path d=\"M18 86c6-14 18-20 30-20s24 6 30 20\"/></g></svg>"
        )))
}

/// The sandbox's notices, posted over HTTP to this server's own callback route.
pub struct LoopbackUc {
    pub addr: SocketAddr,
}

impl LoopbackUc {
    pub fn new(bound: SocketAddr) -> Arc<LoopbackUc> {
        let mut addr = bound;
        if addr.ip().is_unspecified() {
            addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        }
        Arc::new(LoopbackUc { addr })
    }
}

impl UcTransport for LoopbackUc {
    fn post(&self, body: String, signature: String) -> BoxFuture<'static, Result<(), String>> {
        let addr = self.addr;
        Box::pin(async move {
            let answer = crate::sandbox::post_loopback(addr, "/api/user/v1/uc/notify", SIGNATURE_HEADER, &signature, &body).await?;
            let (head, text) = answer.split_once("\r\n\r\n").unwrap_or((answer.as_str(), ""));
            if head.starts_with("HTTP/1.1 200") {
                return Ok(());
            }
            let message = serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .and_then(|v| v["message"].as_str().map(str::to_owned))
                .unwrap_or_else(|| head.lines().next().unwrap_or("").to_owned());
            Err(message)
        })
    }
}
