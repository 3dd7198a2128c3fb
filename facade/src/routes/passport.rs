//! Accounts: SMS code, login, logout, profile, socket token (core-platform.md §7.2, §7.3).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use crate::auth::{clear_login_cookies, set_login_cookies, Caller, GuestWrite};
use crate::dto;
use crate::envelope::{ok, ts, ApiResult};
use crate::AppState;

#[derive(Deserialize)]
pub struct SendCode {
    #[serde(default)]
    phone: String,
}

/// Sends a code within the SMS limits; the address limit counts the connection's peer.
pub async fn send_code(req: HttpRequest, state: web::Data<AppState>, _caller: GuestWrite, body: web::Json<SendCode>) -> ApiResult {
    let ip = req.peer_addr().map(|a| a.ip().to_string()).unwrap_or_else(|| "unknown".into());
    state.platform.passport().send_code_from(body.phone.trim(), Some(&ip)).await?;
    Ok(ok(()))
}

#[derive(Deserialize)]
pub struct Login {
    #[serde(default)]
    cellphone: String,
    #[serde(default)]
    code: String,
    #[serde(default)]
    device_no: String,
}

pub async fn login(state: web::Data<AppState>, _caller: GuestWrite, body: web::Json<Login>) -> ApiResult {
    let device: String = body.device_no.chars().take(64).collect();
    let (user, created, login) = state
        .platform
        .passport()
        .login(body.cellphone.trim(), body.code.trim(), &device)
        .await?;
    let mut resp = HttpResponse::Ok();
    set_login_cookies(&mut resp, &login, state.security.secure_cookies);
    Ok(resp.json(json!({
        "code": 0,
        "message": "ok",
        "data": {"uid": user.uid, "nickname": user.nickname, "is_new_user": created, "give_goods": give_goods(created, state.platform.passport().gift_minutes())},
        "ts": ts(),
    })))
}

/// The registration gift of a new player (commerce.md §2.9), as the login answer lists it.
fn give_goods(created: bool, minutes: i64) -> serde_json::Value {
    if created && minutes > 0 {
        json!([{"name": "新人礼包·免费游戏时长", "face_value_txt": format!("{minutes}分钟")}])
    } else {
        json!([])
    }
}

pub async fn logout(state: web::Data<AppState>, caller: Caller) -> ApiResult {
    state.platform.passport().logout(&caller.0).await?;
    let mut resp = HttpResponse::Ok();
    clear_login_cookies(&mut resp, state.security.secure_cookies);
    Ok(resp.json(json!({"code": 0, "message": "ok", "data": null, "ts": ts()})))
}

pub async fn profile(state: web::Data<AppState>, caller: Caller) -> ApiResult {
    let user = state.platform.passport().user(caller.0.uid).await?;
    let holdings = state.platform.holdings(caller.0.uid).await?;
    Ok(ok(dto::profile(&user, &holdings, state.platform.clock().now_ms())))
}

pub async fn fetch_token(state: web::Data<AppState>, caller: Caller) -> ApiResult {
    let token = state.platform.passport().issue_socket_token(&caller.0);
    Ok(ok(
        json!({"access_token": token, "expires_in": actors::passport::SOCKET_TOKEN_TTL_MS / 1000}),
    ))
}
