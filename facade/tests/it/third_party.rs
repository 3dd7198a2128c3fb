//! Third-party login over real HTTP (core-platform.md §2.3, §2.4): the sandbox provider's
//! authorize page (framable by this site only) issues a token; a token whose identity is bound
//! to no account gets 20108; the phone bind (its code) logs in and binds; the next token of the
//! same identity logs straight in as that account; a spent or made-up token gets 20109.

use crate::common;
use common::{code, config, post_form_text, temp_dir, Client};
use serde_json::json;

/// Agrees on the sandbox's authorize page as `openid`: the token the callback page carries.
pub(crate) async fn authorize(base: &str, open_type: i32, openid: &str) -> String {
    let page = awc::Client::default()
        .get(format!("{base}/api/dev/oauth/authorize?open_type={open_type}&state=s"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.headers().get("x-frame-options").unwrap(), "SAMEORIGIN");
    let html = post_form_text(
        &format!("{base}/api/dev/oauth/authorize"),
        &[
            ("open_type", open_type.to_string().as_str()),
            ("openid", openid),
            ("nickname", "小明"),
        ],
    )
    .await;
    let at = html.find("data-token=\"").expect("a token") + 12;
    html[at..at + html[at..].find('"').unwrap()].to_string()
}

#[actix_rt::test]
async fn token_login_phone_bind_and_the_bound_identity() {
    let dir = temp_dir("third-party");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let base = format!("http://{}", srv.addr);
    let mut c = Client::new(srv.addr, "web");

    let (_, url) = c.get("/api/passport/authorize/url?open_type=3").await;
    assert_eq!(code(&url), 0, "{url}");
    assert!(url["data"]["url"]
        .as_str()
        .unwrap()
        .starts_with("/api/dev/oauth/authorize?open_type=3&state="));
    assert_eq!(code(&c.get("/api/passport/authorize/url?open_type=9").await.1), 40000);
    // the site's own pages are never framed
    let home = awc::Client::default().get(format!("{base}/api/user/profile")).send().await.unwrap();
    assert_eq!(home.headers().get("x-frame-options").unwrap(), "DENY");

    // an identity bound to nobody: 20108, then the phone bind logs in (a new account, its gift)
    let token = authorize(&base, 3, "wx-1").await;
    let (_, first) = c
        .post("/api/auth/authorize/token/login", json!({"token": token, "device_no": "web"}))
        .await;
    assert_eq!(
        (code(&first), first["message"].as_str().unwrap()),
        (20108, "为保障您的账户安全，请绑定手机号")
    );
    let (_, sent) = c
        .post(
            "/api/passport/authorize/bind-phone/sendcode",
            json!({"phone": "13700000041", "token": token, "open_type": 3}),
        )
        .await;
    assert_eq!(code(&sent), 0, "{sent}");
    let sms = c.get("/api/dev/sms/outbox?phone=13700000041").await.1["data"][0]["code"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, wrong) = c
        .post(
            "/api/passport/authorize/token/bind-phone/login",
            json!({"token": token, "cellphone": "13700000041", "code": "000000x"}),
        )
        .await;
    assert_eq!(code(&wrong), 20113);
    let (_, bound) = c
        .post(
            "/api/passport/authorize/token/bind-phone/login",
            json!({"token": token, "cellphone": "13700000041", "code": sms, "device_no": "web"}),
        )
        .await;
    assert_eq!(code(&bound), 0, "{bound}");
    assert_eq!(bound["data"]["is_new_user"], true);
    let uid = bound["data"]["uid"].as_i64().unwrap();
    assert_eq!(c.get("/api/user/profile").await.1["data"]["uid"], uid);

    // spent; a made-up token; a bind code for a dead token is not sent
    let mut other = Client::new(srv.addr, "other");
    for t in [token.as_str(), "made-up"] {
        let (status, r) = other.post("/api/auth/authorize/token/login", json!({"token": t})).await;
        assert_eq!((status, code(&r)), (401, 20109), "{r}");
    }
    let (_, dead) = other
        .post(
            "/api/passport/authorize/bind-phone/sendcode",
            json!({"phone": "13700000042", "token": "made-up", "open_type": 3}),
        )
        .await;
    assert_eq!(code(&dead), 20109);

    // the same identity again: straight in as the bound account; another provider's is not
    let again = authorize(&base, 3, "wx-1").await;
    let (_, r) = other
        .post("/api/auth/authorize/token/login", json!({"token": again, "device_no": "other"}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(
        (r["data"]["uid"].as_i64(), r["data"]["is_new_user"].as_bool()),
        (Some(uid), Some(false))
    );
    let qq = authorize(&base, 1, "wx-1").await;
    assert_eq!(
        code(
            &Client::new(srv.addr, "qq")
                .post("/api/auth/authorize/token/login", json!({"token": qq}))
                .await
                .1
        ),
        20108
    );
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
