//! Dev mode only: the sandbox security check's challenge page (what the login dialog's captcha
//! frames). It shows a short code, drawn as a picture; a person (or a test) types it; solved,
//! the page hands `{challenge, validate, seccode}` to the dialog with a `postMessage`
//! (`done.js`, a file: the CSP allows no inline script), as a real provider's widget would.

use actix_web::{get, post, web, HttpResponse};
use actors::accounts::captcha::Solve;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::envelope::refusals;
use crate::sandbox::esc;
use crate::state::AppState;

refusals!(PageRefusals: common::input());

/// These paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(captcha_page).service(captcha_solve).service(captcha_done_js);
}

/// The page, framable by this site only.
fn framed(body: &str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header(("X-Frame-Options", "SAMEORIGIN"))
        .insert_header((
            "Content-Security-Policy",
            "default-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
        ))
        .body(format!(
            "<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\"><title>安全验证</title></head>\
             <body style=\"font-family:sans-serif;font-size:13px;margin:8px\">{body}</body></html>"
        ))
}

/// The code as a picture: each letter turned and shifted a little, over a few lines.
fn picture(code: &str) -> String {
    let mut svg = String::from(
        "<svg id=\"captcha-code\" xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"40\" role=\"img\" aria-label=\"验证码\">\
         <rect width=\"120\" height=\"40\" fill=\"#eef2f7\"/>\
         <path d=\"M4 30 C30 5, 60 38, 116 10\" stroke=\"#9ab\" fill=\"none\"/><path d=\"M2 12 C40 30, 80 2, 118 28\" stroke=\"#bca\" fill=\"none\"/>",
    );
    for (i, c) in code.chars().enumerate() {
        let angle = [-14, 9, -6, 12][i % 4];
        let y = [28, 31, 26, 30][i % 4];
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{y}\" font-size=\"22\" font-family=\"monospace\" fill=\"#234\" transform=\"rotate({angle} {} {y})\">{}</text>",
            12 + i * 26,
            20 + i * 26,
            esc(&c.to_string())
        ));
    }
    svg.push_str("</svg>");
    svg
}

fn form(challenge: &str, code: &str, note: &str) -> HttpResponse {
    framed(&format!(
        "<form method=\"post\" action=\"/api/dev/captcha/solve\"><input type=\"hidden\" name=\"challenge\" value=\"{}\">\
         <p>请输入图中字符完成安全验证（沙箱）</p>{}<p class=\"note\">{}</p>\
         <p><label>验证码 <input name=\"answer\" maxlength=\"8\" size=\"8\" autocomplete=\"off\"></label> \
         <button type=\"submit\">验证</button></p></form>",
        esc(challenge),
        picture(code),
        esc(note)
    ))
}

const GONE: &str = "<p id=\"captcha-gone\">验证已失效，请关闭后重试</p>";

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    #[serde(default)]
    challenge: String,
    #[serde(default)]
    #[allow(dead_code)]
    gt: String,
}

/// The challenge page: the code's picture, an input, '验证'.
#[utoipa::path(params(PageQuery), responses((status = 200, description = "the challenge page (HTML)", content_type = "text/html", body = String), PageRefusals))]
#[get("/api/dev/captcha/page")]
pub async fn captcha_page(state: web::Data<AppState>, q: web::Query<PageQuery>) -> HttpResponse {
    let now = state.platform.clock().now_ms();
    match state.platform.passport().captcha_sandbox().and_then(|s| s.shown(&q.challenge, now)) {
        Some(code) => form(&q.challenge, &code, ""),
        None => framed(GONE),
    }
}

#[derive(Deserialize, ToSchema)]
pub struct SolveForm {
    #[serde(default)]
    challenge: String,
    #[serde(default)]
    answer: String,
}

/// The person's answer: solved, the token for the dialog (`done.js`); wrong, the page again
/// with the tries left.
#[utoipa::path(request_body(content = SolveForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "the result page (HTML)", content_type = "text/html", body = String), PageRefusals))]
#[post("/api/dev/captcha/solve")]
pub async fn captcha_solve(state: web::Data<AppState>, form_body: web::Form<SolveForm>) -> HttpResponse {
    let Some(sandbox) = state.platform.passport().captcha_sandbox() else {
        return framed(GONE);
    };
    let now = state.platform.clock().now_ms();
    match sandbox.solve(&form_body.challenge, &form_body.answer, now) {
        Solve::Solved { validate, seccode } => framed(&format!(
            "<p id=\"captcha-result\" data-challenge=\"{}\" data-validate=\"{}\" data-seccode=\"{}\">验证通过</p>\
             <script src=\"/api/dev/captcha/done.js\"></script>",
            esc(&form_body.challenge),
            esc(&validate),
            esc(&seccode)
        )),
        Solve::Wrong { tries_left } if tries_left > 0 => match sandbox.shown(&form_body.challenge, now) {
            Some(code) => form(&form_body.challenge, &code, &format!("验证码错误，还可以尝试{tries_left}次")),
            None => framed(GONE),
        },
        _ => framed(GONE),
    }
}

/// Hands the result to the page that framed this one (same origin only).
#[utoipa::path(responses((status = 200, description = "the callback script", content_type = "text/javascript", body = String)))]
#[get("/api/dev/captcha/done.js")]
pub async fn captcha_done_js() -> HttpResponse {
    HttpResponse::Ok().content_type("text/javascript; charset=utf-8").body(
        "(function () {\n  var el = document.getElementById('captcha-result');\n  var target = window.opener || window.parent;\n  \
         if (!el || !target || target === window) return;\n  \
         target.postMessage({ type: 'yoo-captcha', challenge: el.getAttribute('data-challenge'), \
         validate: el.getAttribute('data-validate'), seccode: el.getAttribute('data-seccode') }, location.origin);\n})();\n",
    )
}
