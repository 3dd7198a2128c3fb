//! The external account centre over real HTTP against a real server and SQLite (core-platform.md
//! §2.6, §7.2, §8.1; commerce.md §4.11): `uc/login` signs an agent login the shared secret
//! verifies; the sandbox's agent-login page refuses forged, expired and replayed logins; a
//! nickname or avatar saved there reaches the platform as a signed notice that updates the
//! profile, pushes USER_INFO and makes the upNickname / upAvatar task claimable (claimed once);
//! a notice with a bad signature, stale or replayed changes nothing; guests and bad input get the
//! envelope, never a 500.

use crate::common;

use std::time::{SystemTime, UNIX_EPOCH};

use actors::accounts::account_centre::{
    payload_text, AccountCentre, AgentLogin, ProfileChange, ProfileNotice, SandboxUc, Target, SIGNATURE_HEADER,
};
use actors::commerce::payment::verify_signature;
use actors::config::AccountCentreConfig;
use common::{code, config, ledger_holds, profile, temp_dir, uid, Client};
use facade::proto::MessageType;
use serde_json::{json, Value};

fn secret() -> String {
    AccountCentreConfig::default().secret
}

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as i64
}

/// The dev server's sandbox, as an outsider holding the secret would sign.
fn signer(key: &str) -> SandboxUc {
    SandboxUc::new(key.as_bytes(), "/api/dev/uc/agent-login")
}

/// A GET that does not follow redirects: (status, Location, body).
async fn get_page(base: &str, path: &str) -> (u16, String, String) {
    let mut resp = awc::Client::builder()
        .disable_redirects()
        .finish()
        .get(format!("{base}{path}"))
        .send()
        .await
        .unwrap();
    let location = resp
        .headers()
        .get("location")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let body = String::from_utf8(resp.body().await.unwrap().to_vec()).unwrap();
    (resp.status().as_u16(), location, body)
}

/// A form POST: (status, body).
async fn post_form(base: &str, path: &str, form: &[(&str, &str)]) -> (u16, String) {
    let mut resp = awc::Client::default().post(format!("{base}{path}")).send_form(&form).await.unwrap();
    let body = String::from_utf8(resp.body().await.unwrap().to_vec()).unwrap();
    (resp.status().as_u16(), body)
}

/// A notice posted to the callback route as an account centre would: (status, envelope).
async fn notify(base: &str, body: &str, signature: Option<&str>) -> (u16, Value) {
    let mut req = awc::Client::default()
        .post(format!("{base}/api/user/v1/uc/notify"))
        .insert_header(("content-type", "text/plain"));
    if let Some(s) = signature {
        req = req.insert_header((SIGNATURE_HEADER, s.to_owned()));
    }
    let mut resp = req.send_body(body.to_owned()).await.unwrap();
    let v = serde_json::from_slice(&resp.body().await.unwrap()).unwrap_or(Value::Null);
    (resp.status().as_u16(), v)
}

/// The account-centre session a signed login opens: its page's path.
async fn open_session(c: &mut Client, target: &str) -> String {
    let (_, r) = c
        .post("/api/user/v1/uc/login", json!({"redirect_url": "/user/detail", "target": target}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let (status, location, _) = get_page(&c.base, r["data"]["url"].as_str().unwrap()).await;
    assert_eq!(status, 303, "a good login leads to the session's page");
    assert!(location.starts_with("/api/dev/uc/s/"), "{location}");
    assert!(location.ends_with(&format!("?view={target}")), "{location}");
    location.split('?').next().unwrap().to_owned()
}

async fn task(c: &mut Client, task_code: &str) -> Value {
    let (_, r) = c.post("/api/japi/social/tsk/unfinished", json!({})).await;
    assert_eq!(code(&r), 0, "{r}");
    r["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["taskCode"] == task_code)
        .unwrap()
        .clone()
}

async fn claim(c: &mut Client, task_code: &str) -> Value {
    c.post("/api/japi/social/tsk/receive", json!({"taskCode": task_code, "taskClass": 2}))
        .await
        .1
}

// uc/login signs an agent login (uid, target, expiry, nonce, redirect) that verifies under the
// shared secret and under no other; AVATAR by default; guests and bad input get the envelope.
#[actix_rt::test]
async fn the_agent_login_is_signed_and_checked() {
    let dir = temp_dir("uc-login");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (status, r) = guest.post("/api/user/v1/uc/login", json!({"redirect_url": "/user/detail"})).await;
    assert_eq!((status, code(&r)), (401, 20119), "a guest must log in: {r}");

    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000301").await;
    let me = uid(&mut a).await;
    let before = now_ms();
    let (_, r) = a
        .post(
            "/api/user/v1/uc/login",
            json!({"redirect_url": "/user/detail?from=task", "target": "INFO"}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let d = &r["data"];
    let (payload, sign) = (d["payload"].as_str().unwrap(), d["sign"].as_str().unwrap());
    assert_eq!(d["target"], "INFO");
    assert_eq!(d["url"], format!("/api/dev/uc/agent-login?payload={payload}&sign={sign}"));
    let text = payload_text(payload).unwrap();
    assert!(verify_signature(secret().as_bytes(), &text, sign), "the shared secret verifies it");
    assert!(!verify_signature(b"another secret", &text, sign));
    let login = AgentLogin::decode(&text).unwrap();
    assert_eq!(
        (login.uid, login.target, login.redirect_url.as_str()),
        (me, Target::Info, "/user/detail?from=task")
    );
    assert!(
        login.issued_at >= before - 1000 && login.expires_at == login.issued_at + 300_000,
        "{login:?}"
    );
    assert_eq!(d["expires_at"], login.expires_at);
    let (_, again) = a.post("/api/user/v1/uc/login", json!({"redirect_url": "/user"})).await;
    assert_eq!(again["data"]["target"], "AVATAR", "AVATAR by default");
    let nonce2 = AgentLogin::decode(&payload_text(again["data"]["payload"].as_str().unwrap()).unwrap())
        .unwrap()
        .nonce;
    assert_ne!(nonce2, login.nonce, "every login has its own nonce");

    // A redirect off this site, an unknown page, a malformed body: refused with the envelope.
    for bad in ["https://evil.example.com/", "//evil.example.com/x", "", "user", "/a b", "/\\evil"] {
        let (status, r) = a.post("/api/user/v1/uc/login", json!({"redirect_url": bad})).await;
        assert_eq!((status, code(&r)), (400, 20270), "{bad}: {r}");
        assert_eq!(r["message"], "跳转地址不正确");
    }
    let (status, r) = a
        .post("/api/user/v1/uc/login", json!({"redirect_url": "/user", "target": "ADMIN"}))
        .await;
    assert_eq!((status, code(&r)), (400, 20271), "{r}");
    for body in [json!({}), json!({"redirect_url": 5}), json!([1])] {
        let (status, r) = a.post("/api/user/v1/uc/login", body.clone()).await;
        assert_eq!((status, code(&r)), (400, 40000), "{body}: {r}");
    }
    let (status, r) = a.post_raw("/api/user/v1/uc/login", "{not json").await;
    assert_eq!((status, code(&r)), (400, 40000), "{r}");
}

// The agent-login page opens a good login once; a replayed, forged (altered, another key's) or
// expired one is refused on the page and opens nothing.
#[actix_rt::test]
async fn forged_expired_and_replayed_logins_are_refused() {
    let dir = temp_dir("uc-agent");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000302").await;
    let me = uid(&mut a).await;
    let base = a.base.clone();
    let (_, r) = a.post("/api/user/v1/uc/login", json!({"redirect_url": "/user/detail"})).await;
    let url = r["data"]["url"].as_str().unwrap().to_owned();

    let (status, location, _) = get_page(&base, &url).await;
    assert_eq!(status, 303);
    let (status, _, page) = get_page(&base, &location).await;
    assert_eq!(status, 200);
    assert!(page.contains("修改头像") && page.contains(&format!("ID：{me}")), "{page}");
    assert!(page.contains("href=\"/user/detail\""), "leads back to the site: {page}");

    let (status, _, page) = get_page(&base, &url).await;
    assert_eq!(status, 403, "a login opens once");
    assert!(page.contains("该登录链接已使用"), "{page}");

    // Altered: another user's id under the same signature.
    let login = AgentLogin {
        uid: me + 1,
        target: Target::Info,
        issued_at: now_ms(),
        expires_at: now_ms() + 60_000,
        nonce: "forged-1".into(),
        redirect_url: "/user".into(),
    };
    let genuine = signer(&secret()).sign_login(&AgentLogin { uid: me, ..login.clone() });
    let altered = signer(&secret()).sign_login(&login);
    let (status, _, page) = get_page(
        &base,
        &format!("/api/dev/uc/agent-login?payload={}&sign={}", altered.payload, genuine.sign),
    )
    .await;
    assert_eq!(status, 403);
    assert!(page.contains("登录校验失败"), "{page}");
    // Signed with another key.
    let other = signer("not the shared secret").sign_login(&login);
    let (status, _, page) = get_page(&base, &other.url).await;
    assert_eq!(status, 403);
    assert!(page.contains("登录校验失败"), "{page}");
    // Garbage and nothing.
    for q in ["payload=abc&sign=zz", "", "payload=abc"] {
        let (status, _, page) = get_page(&base, &format!("/api/dev/uc/agent-login?{q}")).await;
        assert_eq!(status, 403, "{q}");
        assert!(page.contains("登录校验失败"), "{q}: {page}");
    }
    // Expired: genuinely signed, its time over.
    let expired = signer(&secret()).sign_login(&AgentLogin {
        uid: me,
        issued_at: now_ms() - 600_000,
        expires_at: now_ms() - 300_000,
        nonce: "old-1".into(),
        ..login.clone()
    });
    let (status, _, page) = get_page(&base, &expired.url).await;
    assert_eq!(status, 403);
    assert!(page.contains("登录已过期"), "{page}");
    // The genuine one still opens (refusals spent nothing).
    let (status, _, _) = get_page(&base, &genuine.url).await;
    assert_eq!(status, 303);
    // No session, no page, no change.
    let (status, _, _) = get_page(&base, "/api/dev/uc/s/nosuchsession?view=INFO").await;
    assert_eq!(status, 403);
    let (status, page) = post_form(&base, "/api/dev/uc/s/nosuchsession/nickname", &[("nickname", "某某某")]).await;
    assert_eq!(status, 403, "{page}");
    assert_ne!(profile(&mut a).await["nickname"], "某某某");
}

// A nickname saved on the sandbox's INFO page: the profile shows it, the socket is told
// (USER_INFO), upNickname becomes claimable and is claimed once with its minutes; a nickname
// that breaks a rule is refused on the page and changes nothing. Then an avatar on AVATAR.
#[actix_rt::test]
async fn a_nickname_and_an_avatar_changed_at_the_account_centre() {
    let dir = temp_dir("uc-change");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000303").await;
    let me = uid(&mut a).await;
    let base = a.base.clone();
    let mut socket = a.socket().await;
    let t = task(&mut a, "once_up_nickname").await;
    assert_eq!((t["taskType"].as_str(), t["status"].as_i64()), (Some("upNickname"), Some(0)));
    assert_eq!(code(&claim(&mut a, "once_up_nickname").await), 140202, "not finished yet");
    let old = profile(&mut a).await["nickname"].as_str().unwrap().to_owned();

    let session = open_session(&mut a, "INFO").await;
    let (_, _, page) = get_page(&base, &format!("{session}?view=INFO")).await;
    assert!(page.contains(&format!("value=\"{old}\"")), "the form shows the nickname: {page}");
    let long = "长".repeat(17);
    for (bad, message) in [
        ("   ", "昵称不能为空"),
        ("a", "昵称需为2-16个字符"),
        (long.as_str(), "昵称需为2-16个字符"),
    ] {
        let (status, page) = post_form(&base, &format!("{session}/nickname"), &[("nickname", bad)]).await;
        assert_eq!(status, 400, "{bad:?}");
        assert!(page.contains(message), "{bad:?}: {page}");
    }
    assert_eq!(profile(&mut a).await["nickname"], old.as_str(), "refused changes change nothing");
    assert_eq!(task(&mut a, "once_up_nickname").await["status"], 0);

    let (status, page) = post_form(&base, &format!("{session}/nickname"), &[("nickname", "  小明同学 ")]).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("昵称修改成功"), "{page}");
    let p = profile(&mut a).await;
    assert_eq!(
        (p["nickname"].as_str(), p["display_name"].as_str()),
        (Some("小明同学"), Some("小明同学"))
    );
    let told = loop {
        let env = socket.next(5).await;
        if env.r#type == MessageType::UserInfo as i32 {
            break env;
        }
    };
    assert!(told.content.is_empty());

    let t = task(&mut a, "once_up_nickname").await;
    assert_eq!((t["status"].as_i64(), t["progress"].as_i64()), (Some(1), Some(1)), "{t}");
    let free = profile(&mut a).await["play_time_free"].as_i64().unwrap();
    let r = claim(&mut a, "once_up_nickname").await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(profile(&mut a).await["play_time_free"].as_i64().unwrap(), free + 10);
    assert_eq!(code(&claim(&mut a, "once_up_nickname").await), 140202, "claimed once");
    // Another change finishes nothing again: the task is done.
    let (status, _) = post_form(&base, &format!("{session}/nickname"), &[("nickname", "小明二号")]).await;
    assert_eq!(status, 200);
    assert_eq!(task(&mut a, "once_up_nickname").await["status"], 2);
    assert_eq!(profile(&mut a).await["play_time_free"].as_i64().unwrap(), free + 10);

    // The avatar: a preset, not anything else.
    assert_eq!(profile(&mut a).await["avatar"], format!("/covers/avatar/{me}.svg"), "the default");
    let session = open_session(&mut a, "AVATAR").await;
    for bad in ["0", "7", "x", ""] {
        let (status, _) = post_form(&base, &format!("{session}/avatar"), &[("avatar", bad)]).await;
        assert_eq!(status, 400, "{bad:?}");
    }
    let (status, page) = post_form(&base, &format!("{session}/avatar"), &[("avatar", "3")]).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(profile(&mut a).await["avatar"], "/api/dev/uc/avatar/3.svg");
    let (status, _, svg) = get_page(&base, "/api/dev/uc/avatar/3.svg").await;
    assert_eq!(status, 200);
    assert!(svg.starts_with("<svg"));
    assert_eq!(get_page(&base, "/api/dev/uc/avatar/9.svg").await.0, 404);
    assert_eq!(task(&mut a, "once_up_avatar").await["status"], 1);
    assert_eq!(code(&claim(&mut a, "once_up_avatar").await), 0);
    ledger_holds(&srv, me);
}

// Notices on the callback route: a bad signature, none, a malformed, stale or unknown user's
// notice is refused (20272) and changes nothing; a notice delivered again is acknowledged and
// changes nothing (it does not undo a later change); a rule-breaking nickname is refused.
#[actix_rt::test]
async fn notices_are_verified_and_taken_once() {
    let dir = temp_dir("uc-notice");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000304").await;
    let me = uid(&mut a).await;
    let base = a.base.clone();
    let old = profile(&mut a).await["nickname"].as_str().unwrap().to_owned();
    let notice = |nickname: &str, id: &str, at: i64| ProfileNotice {
        uid: me,
        change: ProfileChange::Nickname(nickname.into()),
        id: id.into(),
        at,
    };
    let genuine = signer(&secret());

    let (body, _) = genuine.signed_notice(&notice("坏人改的", "n-1", now_ms()));
    let (_, forged_sig) = signer("wrong key").signed_notice(&notice("坏人改的", "n-1", now_ms()));
    for sig in [Some(forged_sig.as_str()), None, Some("zz"), Some("")] {
        let (status, r) = notify(&base, &body, sig).await;
        assert_eq!((status, code(&r)), (400, 20272), "{sig:?}: {r}");
        assert_eq!(r["message"], "账号中心通知校验失败");
    }
    // A genuine signature over another body.
    let (_, sig_of_other) = genuine.signed_notice(&notice("别的昵称", "n-1", now_ms()));
    assert_eq!(code(&notify(&base, &body, Some(&sig_of_other)).await.1), 20272);
    // Malformed but signed; stale; an unknown user.
    for text in ["uid=1", "", "garbage&&&"] {
        let sig_text = actors::commerce::payment::sign(secret().as_bytes(), text);
        assert_eq!(code(&notify(&base, text, Some(&sig_text)).await.1), 20272, "{text:?}");
    }
    let (stale, stale_sig) = genuine.signed_notice(&notice("旧的昵称", "n-2", now_ms() - 11 * 60 * 1000));
    assert_eq!(code(&notify(&base, &stale, Some(&stale_sig)).await.1), 20272);
    let (nobody, nobody_sig) = genuine.signed_notice(&ProfileNotice {
        uid: me + 1000,
        ..notice("无名氏", "n-3", now_ms())
    });
    assert_eq!(code(&notify(&base, &nobody, Some(&nobody_sig)).await.1), 20272);
    let (blank, blank_sig) = genuine.signed_notice(&notice("  ", "n-4", now_ms()));
    let (status, r) = notify(&base, &blank, Some(&blank_sig)).await;
    assert_eq!((status, code(&r)), (400, 20273), "{r}");
    assert_eq!(profile(&mut a).await["nickname"], old.as_str(), "nothing changed");
    assert_eq!(task(&mut a, "once_up_nickname").await["status"], 0, "no task moved");

    // Taken once: A, then B, then A again changes nothing.
    let (first, first_sig) = genuine.signed_notice(&notice("第一个名字", "n-5", now_ms()));
    let (status, r) = notify(&base, &first, Some(&first_sig)).await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    assert_eq!(profile(&mut a).await["nickname"], "第一个名字");
    let (second, second_sig) = genuine.signed_notice(&notice("第二个名字", "n-6", now_ms()));
    assert_eq!(code(&notify(&base, &second, Some(&second_sig)).await.1), 0);
    let (status, r) = notify(&base, &first, Some(&first_sig)).await;
    assert_eq!((status, code(&r)), (200, 0), "a repeated notice is acknowledged");
    assert_eq!(profile(&mut a).await["nickname"], "第二个名字", "and changes nothing");
    assert_eq!(task(&mut a, "once_up_nickname").await["status"], 1);
}
