//! The security check in front of SMS codes over real HTTP (core-platform.md §8.1: "20125 on
//! sending an SMS code also opens the captcha"): beyond `[sms] captcha_phone_per_hour` requests
//! of one phone, or `captcha_ip_per_hour` of one address, within an hour, the login code, the
//! phone bind's code and the forgot-password code answer 20125 (HTTP 403) and send nothing;
//! a bad or spent result gets 20128; a result solved on the sandbox's challenge page sends the
//! code once; the SMS limits still hold after it; a used code clears the phone's count.

use crate::common;
use crate::password::solve;
use crate::third_party::authorize;
use common::{code, config, temp_dir, Client};
use facade::config::ServerConfig;
use serde_json::{json, Value};

const LOGIN: &str = "/api/passport/login/sendcode";
const FORGET: &str = "/api/passport/passwordForget/sendcode";
const BIND: &str = "/api/passport/authorize/bind-phone/sendcode";

/// The shared test config with the check's thresholds set (the shared one turns it off).
fn with_check(dir: &std::path::Path, phone: u32, address: u32) -> ServerConfig {
    let mut c = config(dir, 1, 60);
    c.sms.captcha_phone_per_hour = phone;
    c.sms.captcha_ip_per_hour = address;
    c
}

/// A code request on `path` with `extra` fields merged in: (HTTP status, code, message).
async fn send(c: &mut Client, path: &str, body: Value, extra: &Value) -> (u16, i64, String) {
    let mut body = body;
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    let (status, v) = c.post(path, body).await;
    (status, code(&v), v["message"].as_str().unwrap_or_default().to_string())
}

async fn outbox(c: &mut Client, phone: &str) -> Vec<Value> {
    let (_, o) = c.get(&format!("/api/dev/sms/outbox?phone={phone}")).await;
    o["data"].as_array().cloned().unwrap_or_default()
}

fn bogus() -> Value {
    json!({"geetest_challenge": "x", "geetest_validate": "y", "geetest_seccode": "y|jordan"})
}

fn required() -> (u16, i64, String) {
    (403, 20125, "本次访问需要进行安全验证".into())
}

// The login code: the phone's third request within the hour asks for the check and sends
// nothing; a bad result is refused; a solved one sends the code, once; the code used, the
// phone asks freely again.
#[actix_rt::test]
async fn the_login_code_asks_for_the_check_beyond_the_phone_threshold() {
    let dir = temp_dir("sms-check-phone");
    let srv = facade::start(with_check(&dir, 2, 0)).await.unwrap();
    let base = format!("http://{}", srv.addr);
    let mut g = Client::new(srv.addr, "guest");
    let phone = "13700000801";
    let body = || json!({"phone": phone});
    for _ in 0..2 {
        assert_eq!(send(&mut g, LOGIN, body(), &json!({})).await.1, 0);
    }
    assert_eq!(send(&mut g, LOGIN, body(), &json!({})).await, required());
    assert_eq!(
        send(&mut g, LOGIN, body(), &bogus()).await,
        (403, 20128, "安全验证失败，请重新验证".into())
    );
    assert_eq!(outbox(&mut g, phone).await.len(), 2, "nothing sent without a solved check");
    // another phone from the same address is not asked (the address threshold is off here)
    assert_eq!(send(&mut g, LOGIN, json!({"phone": "13700000802"}), &json!({})).await.1, 0);

    let solved = solve(&mut g, &base).await;
    assert_eq!(send(&mut g, LOGIN, body(), &solved).await.1, 0);
    let sent = outbox(&mut g, phone).await;
    assert_eq!(sent.len(), 3, "the solved request sent the code");
    assert_eq!(send(&mut g, LOGIN, body(), &solved).await.1, 20128, "a result is good once");

    // the code logs in: the phone's owner has it, its requests start again
    let sms = sent[0]["code"].as_str().unwrap().to_string();
    let (_, login) = g
        .post("/api/passport/login", json!({"cellphone": phone, "code": sms, "device_no": "g"}))
        .await;
    assert_eq!(code(&login), 0, "{login}");
    assert_eq!(send(&mut g, LOGIN, body(), &json!({})).await.1, 0);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(dir);
}

// The address counts across phones and the three code routes: its fourth request asks for the
// check whichever route and phone; a malformed phone is refused before the check (and not
// counted); a solved check does not lift the SMS limits (the resend interval answers 20114).
#[actix_rt::test]
async fn the_address_threshold_spans_phones_and_the_three_routes() {
    let dir = temp_dir("sms-check-address");
    let mut cfg = with_check(&dir, 0, 3);
    cfg.sms.resend_secs = 60;
    let srv = facade::start(cfg).await.unwrap();
    let base = format!("http://{}", srv.addr);
    let mut g = Client::new(srv.addr, "guest");
    let token = authorize(&base, 3, "wx-sms-check").await;
    let bind = |phone: &str| json!({"phone": phone, "token": token, "open_type": 3});

    assert_eq!(send(&mut g, LOGIN, json!({"phone": "13700000811"}), &json!({})).await.1, 0);
    assert_eq!(send(&mut g, LOGIN, json!({"phone": "1370000081"}), &json!({})).await.1, 20111);
    assert_eq!(send(&mut g, FORGET, json!({"phone": "13700000812"}), &json!({})).await.1, 0);
    assert_eq!(send(&mut g, BIND, bind("13700000813"), &json!({})).await.1, 0);

    assert_eq!(send(&mut g, LOGIN, json!({"phone": "13700000814"}), &json!({})).await, required());
    assert_eq!(send(&mut g, FORGET, json!({"phone": "13700000815"}), &json!({})).await, required());
    assert_eq!(send(&mut g, FORGET, json!({"phone": "13700000815"}), &bogus()).await.1, 20128);
    assert_eq!(send(&mut g, BIND, bind("13700000816"), &json!({})).await, required());
    assert!(outbox(&mut g, "13700000816").await.is_empty());

    let solved = solve(&mut g, &base).await;
    assert_eq!(send(&mut g, BIND, bind("13700000816"), &solved).await.1, 0);
    assert_eq!(outbox(&mut g, "13700000816").await.len(), 1, "the bind's code sent");
    let solved = solve(&mut g, &base).await;
    assert_eq!(send(&mut g, FORGET, json!({"phone": "13700000815"}), &solved).await.1, 0);
    // past the check, the limits hold as before: the phone's resend interval
    let solved = solve(&mut g, &base).await;
    let (status, again, _) = send(&mut g, LOGIN, json!({"phone": "13700000811"}), &solved).await;
    assert_eq!((status, again), (429, 20114));
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(dir);
}
