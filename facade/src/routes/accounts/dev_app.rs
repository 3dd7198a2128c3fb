//! Dev mode only: the sandbox app, standing in for the product's phone app that scans a login
//! QR code (core-platform.md §4.12). The QR code opens its page; the person names the app's
//! signed-in account (a phone), scans, then confirms ('确认登录') or cancels. Plain HTML forms,
//! like the sandbox pay page.

use actix_web::{get, post, web, HttpResponse};
use actors::accounts::passport::QrLoginState;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::envelope::refusals;
use crate::envelope::ApiError;
use crate::sandbox::{esc, page};
use crate::state::AppState;

refusals!(FormRefusals: common::input());

/// These paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(app_page).service(app_scan).service(app_confirm).service(app_cancel);
}

fn failed(message: &str) -> HttpResponse {
    page("登录失败", &format!("<h1>登录失败</h1><p>{}</p>", esc(message)))
}

fn confirm_form(ticket: &str, phone: &str) -> String {
    let action = format!("/api/dev/app/qr-login/{}", esc(ticket));
    format!(
        "<h1>确认登录</h1><p>账号 {phone} 将登录网页版</p>\
         <form method=\"post\" action=\"{action}/confirm\"><input type=\"hidden\" name=\"cellphone\" value=\"{phone}\">\
         <button type=\"submit\" style=\"width:100%;padding:12px;font-size:18px\">确认登录</button></form>\
         <form method=\"post\" action=\"{action}/cancel\" style=\"margin-top:12px\"><button type=\"submit\" style=\"width:100%;padding:12px\">取消</button></form>",
        phone = esc(phone)
    )
}

/// The app's page for a login QR code: who is signed in on the app, then '扫码登录'.
#[utoipa::path(params(("ticket" = String, Path, description = "the QR code's ticket")),
    responses((status = 200, description = "the app's page (HTML)", content_type = "text/html", body = String)))]
#[get("/api/dev/app/qr-login/{ticket}")]
pub async fn app_page(state: web::Data<AppState>, ticket: web::Path<String>) -> HttpResponse {
    match state.platform.passport().qr_login_state(&ticket) {
        Ok(QrLoginState::Waiting) => page(
            "云游App",
            &format!(
                "<h1>云游App 扫码登录</h1><form method=\"post\" action=\"/api/dev/app/qr-login/{}/scan\">\
                 <p><label>App 已登录的手机号 <input name=\"cellphone\" inputmode=\"numeric\" maxlength=\"11\"></label></p>\
                 <button type=\"submit\" style=\"width:100%;padding:12px;font-size:18px\">扫码登录</button></form>",
                esc(&ticket)
            ),
        ),
        Ok(_) => failed("二维码已被扫描"),
        Err(e) => failed(ApiError::from(e).message),
    }
}

#[derive(Deserialize, ToSchema)]
pub struct AppForm {
    #[serde(default)]
    #[schema(example = "13900000042")]
    cellphone: String,
}

/// The app scans as the account with this phone: the browser hears 20143.
#[utoipa::path(params(("ticket" = String, Path, description = "the QR code's ticket")), request_body(content = AppForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "the confirm page (HTML)", content_type = "text/html", body = String), FormRefusals))]
#[post("/api/dev/app/qr-login/{ticket}/scan")]
pub async fn app_scan(state: web::Data<AppState>, ticket: web::Path<String>, form: web::Form<AppForm>) -> HttpResponse {
    let phone = form.cellphone.trim();
    let user = match state.platform.passport().user_by_phone(phone).await {
        Ok(u) => u,
        Err(e) => return failed(ApiError::from(e).message),
    };
    match state.platform.passport().qr_login_scan(&ticket, user.uid) {
        Ok(()) => page("确认登录", &confirm_form(&ticket, phone)),
        Err(e) => failed(ApiError::from(e).message),
    }
}

/// The app's user confirms: the browser's poll logs in.
#[utoipa::path(params(("ticket" = String, Path, description = "the QR code's ticket")), request_body(content = AppForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "the result page (HTML)", content_type = "text/html", body = String), FormRefusals))]
#[post("/api/dev/app/qr-login/{ticket}/confirm")]
pub async fn app_confirm(state: web::Data<AppState>, ticket: web::Path<String>, form: web::Form<AppForm>) -> HttpResponse {
    let user = match state.platform.passport().user_by_phone(form.cellphone.trim()).await {
        Ok(u) => u,
        Err(e) => return failed(ApiError::from(e).message),
    };
    match state.platform.passport().qr_login_confirm(&ticket, user.uid) {
        Ok(()) => page("登录成功", "<h1>登录成功</h1><p>网页已登录</p>"),
        Err(e) => failed(ApiError::from(e).message),
    }
}

/// The app's user cancels: the browser hears 20141.
#[utoipa::path(params(("ticket" = String, Path, description = "the QR code's ticket")),
    responses((status = 200, description = "the result page (HTML)", content_type = "text/html", body = String)))]
#[post("/api/dev/app/qr-login/{ticket}/cancel")]
pub async fn app_cancel(state: web::Data<AppState>, ticket: web::Path<String>) -> HttpResponse {
    match state.platform.passport().qr_login_cancel(&ticket) {
        Ok(()) => page("已取消登录", "<h1>已取消登录</h1>"),
        Err(e) => failed(ApiError::from(e).message),
    }
}
