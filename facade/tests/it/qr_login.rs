//! App-QR login over real HTTP (core-platform.md §4.12): the QR code's ticket, the browser's
//! long poll hearing 20143 when the sandbox app scans, the login (cookies, the app's account)
//! when it confirms, the ticket spent after; a cancel answers 20141; a frozen account's confirm
//! is refused with 20101. The states on paused time are `actors::accounts::passport::qr_login::tests`.

use crate::common;
use common::{code, config, get_text, post_form_text, temp_dir, Client};
use serde_json::{json, Value};

/// A form post of the sandbox app's page; the page's HTML.
async fn app(base: &str, path: &str, form: &[(&str, &str)]) -> String {
    post_form_text(&format!("{base}{path}"), form).await
}

async fn poll(c: &mut Client, ticket: &str) -> Value {
    c.post("/api/user/v1/auth/login/qrcode", json!({"device_no": "qr-web", "ticket": ticket}))
        .await
        .1
}

#[actix_rt::test]
async fn scan_confirm_logs_the_browser_in_as_the_apps_account() {
    let dir = temp_dir("qr-login");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let base = format!("http://{}", srv.addr);
    let mut phone = Client::new(srv.addr, "phone");
    phone.login("13700000031").await;
    let uid = phone.get("/api/user/profile").await.1["data"]["uid"].as_i64().unwrap();

    let mut web = Client::new(srv.addr, "qr-web");
    let (_, qr) = web.get("/api/user/v1/auth/login/qrcode").await;
    assert_eq!(code(&qr), 0, "{qr}");
    let ticket = qr["data"]["ticket"].as_str().unwrap().to_string();
    let page = qr["data"]["qrcode"].as_str().unwrap().to_string();
    assert!(page.ends_with(&ticket));

    // the app opens the code's page and scans: the waiting poll answers 20143
    let opened = get_text(&format!("{base}{page}")).await;
    assert!(opened.contains("扫码登录"));
    let waiting = {
        let mut w = Client::new(srv.addr, "qr-web");
        let t = ticket.clone();
        actix_rt::spawn(async move { poll(&mut w, &t).await })
    };
    let confirm_page = app(&base, &format!("{page}/scan"), &[("cellphone", "13700000031")]).await;
    assert!(confirm_page.contains("确认登录"), "{confirm_page}");
    let scanned = waiting.await.unwrap();
    assert_eq!(code(&scanned), 20143, "{scanned}");
    assert_eq!(scanned["message"], "扫描成功，请在手机端确认登录");

    // confirmed: the next poll logs in (cookies) as the app's account
    let done = app(&base, &format!("{page}/confirm"), &[("cellphone", "13700000031")]).await;
    assert!(done.contains("登录成功"), "{done}");
    let logged = poll(&mut web, &ticket).await;
    assert_eq!(code(&logged), 0, "{logged}");
    assert_eq!(logged["data"]["uid"], uid);
    assert_eq!(web.get("/api/user/profile").await.1["data"]["uid"], uid);
    // spent
    assert_eq!(code(&poll(&mut Client::new(srv.addr, "other"), &ticket).await), 20140);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[actix_rt::test]
async fn cancelled_codes_and_a_frozen_account() {
    let dir = temp_dir("qr-login-refusals");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let base = format!("http://{}", srv.addr);
    let mut phone = Client::new(srv.addr, "phone");
    phone.login("13700000032").await;
    let mut web = Client::new(srv.addr, "qr-web");

    let ticket = web.get("/api/user/v1/auth/login/qrcode").await.1["data"]["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    let page = format!("/api/dev/app/qr-login/{ticket}");
    app(&base, &format!("{page}/scan"), &[("cellphone", "13700000032")]).await;
    assert!(app(&base, &format!("{page}/cancel"), &[]).await.contains("已取消登录"));
    let cancelled = poll(&mut web, &ticket).await;
    assert_eq!((code(&cancelled), cancelled["message"].as_str().unwrap()), (20141, "二维码已取消"));
    // an unknown phone cannot scan; a malformed ticket is an expired one
    let ticket = web.get("/api/user/v1/auth/login/qrcode").await.1["data"]["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    let page = format!("/api/dev/app/qr-login/{ticket}");
    assert!(app(&base, &format!("{page}/scan"), &[("cellphone", "12")])
        .await
        .contains("登录失败"));
    assert_eq!(code(&poll(&mut web, "../../etc").await), 20140);

    // the account is frozen between the scan and the confirm: the poll is refused with 20101
    app(&base, &format!("{page}/scan"), &[("cellphone", "13700000032")]).await;
    let mut operator = Client::new(srv.addr, "operator");
    let frozen = operator
        .post("/api/dev/account", json!({"cellphone": "13700000032", "action": "freeze"}))
        .await
        .1;
    assert_eq!(code(&frozen), 0, "{frozen}");
    app(&base, &format!("{page}/confirm"), &[("cellphone", "13700000032")]).await;
    let refused = poll(&mut web, &ticket).await;
    assert_eq!(code(&refused), 20101, "{refused}");
    assert_eq!(code(&web.get("/api/user/profile").await.1), 20119);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
