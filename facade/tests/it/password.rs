//! Password sign-in over real HTTP (core-platform.md §2.3, §2.5, §4.13, §5.2, §7.2, §8.1): a
//! logged-in player without a password sets one with the SMS code's ticket and stays logged
//! in; the password logs in (cookies, the login result) and a wrong one, an unknown phone and
//! an account without a password get the same 20120; the forgot-password flow through the
//! sandbox outbox replaces it and ends every login; the new-password rules answer with the
//! spec's texts; a ticket is single-use and its own phone's; after three failures the login
//! asks for the security check (20125), refuses a bad result (20128) and takes one solved on
//! the sandbox's challenge page, once; frozen accounts are refused as with the code login.

use crate::common;
use common::{code, config, get_text, post_form_text, temp_dir, Client};
use serde_json::{json, Value};

/// The password as the client sends it: base64 of its UTF-8.
fn b64(s: &str) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in s.as_bytes().chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

async fn password_login(c: &mut Client, phone: &str, password: &str, extra: Value) -> Value {
    let mut body = json!({"user_name": phone, "password": b64(password), "device_no": "pw"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    c.post("/api/passport/password/login", body).await.1
}

async fn outbox(c: &mut Client, phone: &str) -> Vec<Value> {
    let (_, o) = c.get(&format!("/api/dev/sms/outbox?phone={phone}")).await;
    o["data"].as_array().cloned().unwrap_or_default()
}

/// The forgot-password code through the sandbox outbox (it is delivered in the background:
/// the answer does not wait for the gateway), and its ticket.
async fn ticket(c: &mut Client, phone: &str) -> String {
    let before = outbox(c, phone).await.len();
    let (_, sent) = c.post("/api/passport/passwordForget/sendcode", json!({"phone": phone})).await;
    assert_eq!(code(&sent), 0, "{sent}");
    let mut sms = String::new();
    for _ in 0..500 {
        let o = outbox(c, phone).await;
        if o.len() > before {
            sms = o[0]["code"].as_str().unwrap().to_string();
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(!sms.is_empty(), "the code reached the outbox");
    let (_, verified) = c
        .post("/api/password/forget/verify", json!({"cellphone": phone, "code": sms}))
        .await;
    assert_eq!(code(&verified), 0, "{verified}");
    verified["data"]["ticket"].as_str().unwrap().to_string()
}

async fn update(c: &mut Client, phone: &str, password: &str, ticket: &str) -> Value {
    c.post(
        "/api/password/forget/update",
        json!({"cellphone": phone, "password": b64(password), "ticket": ticket}),
    )
    .await
    .1
}

fn refused(v: &Value) -> (i64, &str) {
    (code(v), v["message"].as_str().unwrap_or(""))
}

#[actix_rt::test]
async fn set_login_forget_and_the_same_answer_for_everyone() {
    let dir = temp_dir("password");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let phone = "13700000501";
    let mut a = Client::new(srv.addr, "pc-a");
    a.login(phone).await;
    let (_, state) = a.get("/api/v3/user/binding/state").await;
    assert_eq!(state["data"], json!({"phone": true, "password": false}), "{state}");

    // set mode: the logged-in player's first password, with the rules of §5.2 on the server
    let t = ticket(&mut a, phone).await;
    assert_eq!(refused(&update(&mut a, phone, "", &t).await), (20121, "登录密码不能为空"));
    for weak in ["abcd1234", "abc!1", "abcdefgh!", "abc123!@abc123!@x", "abc 123!@"] {
        assert_eq!(
            refused(&update(&mut a, phone, weak, &t).await),
            (20122, "密码8-16位，需包含数字、字母和特殊字符"),
            "{weak}"
        );
    }
    // another phone's ticket does not set this one's (and is not spent by trying)
    let other = "13700000502";
    let mut b = Client::new(srv.addr, "pc-b");
    b.login(other).await;
    let t_other = ticket(&mut b, other).await;
    assert_eq!(refused(&update(&mut a, phone, "abc123!@", &t_other).await).0, 20123);
    let set = update(&mut a, phone, "abc123!@", &t).await;
    assert_eq!(
        (code(&set), &set["data"]),
        (0, &json!({"first": true, "message": "设置成功"})),
        "{set}"
    );
    assert_eq!(refused(&update(&mut a, phone, "abc123!@", &t).await).0, 20123, "single use");
    assert_eq!(code(&a.get("/api/user/profile").await.1), 0, "set mode keeps the caller's login");
    let (_, state) = a.get("/api/v3/user/binding/state").await;
    assert_eq!(state["data"], json!({"phone": true, "password": true}));

    // the password logs in: the login result and the cookies
    let mut c = Client::new(srv.addr, "pc-c");
    let ok = password_login(&mut c, phone, "abc123!@", json!({})).await;
    assert_eq!(code(&ok), 0, "{ok}");
    assert_eq!(
        (ok["data"]["is_new_user"].as_bool(), ok["data"]["uid"].as_i64().is_some()),
        (Some(false), true)
    );
    assert_eq!(code(&c.get("/api/user/profile").await.1), 0);

    // one answer for a wrong password, an unknown phone and an account without a password
    let mut g = Client::new(srv.addr, "guest");
    let wrong = password_login(&mut g, phone, "abc123!#", json!({})).await;
    let unknown = password_login(&mut g, "13700000599", "abc123!@", json!({})).await;
    let no_password = password_login(&mut g, other, "abc123!@", json!({})).await;
    for v in [&wrong, &unknown, &no_password] {
        assert_eq!(refused(v), (20120, "账号或密码错误"), "{v}");
        assert_eq!(v["data"], Value::Null);
    }
    assert_eq!(
        refused(&password_login(&mut g, phone, "", json!({})).await),
        (20118, "密码不能为空")
    );
    assert_eq!(refused(&password_login(&mut g, "", "abc123!@", json!({})).await).0, 20116);
    // the forgot code of a phone without an account: the same answer, no message
    let (_, sent) = g
        .post("/api/passport/passwordForget/sendcode", json!({"phone": "13700000598"}))
        .await;
    assert_eq!(code(&sent), 0);
    let (_, outbox) = g.get("/api/dev/sms/outbox?phone=13700000598").await;
    assert_eq!(outbox["data"], json!([]));

    // forgot password as a guest: the new one works, the old one not, every login ended
    let t = ticket(&mut g, phone).await;
    let changed = update(&mut g, phone, "New_pass9", &t).await;
    assert_eq!(
        changed["data"],
        json!({"first": false, "message": "密码修改成功，请重新登录"}),
        "{changed}"
    );
    for cl in [&mut a, &mut c] {
        assert_eq!(code(&cl.get("/api/user/profile").await.1), 40001, "logins ended");
    }
    assert_eq!(code(&b.get("/api/user/profile").await.1), 0, "another account untouched");
    assert_eq!(refused(&password_login(&mut g, phone, "abc123!@", json!({})).await).0, 20120);
    let mut d = Client::new(srv.addr, "pc-d");
    assert_eq!(code(&password_login(&mut d, phone, "New_pass9", json!({})).await), 0);

    // a frozen account is refused as the code login refuses it (after the right password only)
    let mut operator = Client::new(srv.addr, "operator");
    let (_, frozen) = operator
        .post(
            "/api/dev/account",
            json!({"cellphone": phone, "action": "freeze", "reason": "风险"}),
        )
        .await;
    assert_eq!(code(&frozen), 0, "{frozen}");
    let mut e = Client::new(srv.addr, "pc-e");
    assert_eq!(code(&password_login(&mut e, phone, "New_pass9", json!({})).await), 20101);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The code the sandbox's challenge page draws, one letter per `<text>`.
fn drawn_code(html: &str) -> String {
    html.split("<text ")
        .skip(1)
        .map(|t| {
            let at = t.find('>').unwrap() + 1;
            t[at..at + t[at..].find('<').unwrap()].to_string()
        })
        .collect()
}

fn attr(html: &str, name: &str) -> String {
    let key = format!("{name}=\"");
    let at = html.find(&key).unwrap_or_else(|| panic!("{name} in {html}")) + key.len();
    html[at..at + html[at..].find('"').unwrap()].to_string()
}

/// Registers a challenge and solves it on the sandbox's page (one wrong answer first): the
/// fields the login retry carries.
pub(crate) async fn solve(c: &mut Client, base: &str) -> Value {
    let (_, reg) = c.get("/api/passport/captcha/senseboot/register").await;
    let data = &reg["data"];
    assert_eq!(
        (code(&reg), data["success"].as_i64(), data["new_captcha"].as_bool()),
        (0, Some(1), Some(true)),
        "{reg}"
    );
    assert_eq!(data["status"], "success");
    assert!(!data["gt"].as_str().unwrap().is_empty());
    let challenge = data["challenge"].as_str().unwrap().to_string();
    let page = get_text(&format!("{base}{}", data["page_url"].as_str().unwrap())).await;
    let drawn = drawn_code(&page);
    assert_eq!(drawn.len(), 4, "{page}");
    let again = post_form_text(
        &format!("{base}/api/dev/captcha/solve"),
        &[("challenge", &challenge), ("answer", "????")],
    )
    .await;
    assert!(again.contains("验证码错误，还可以尝试2次"), "{again}");
    let done = post_form_text(
        &format!("{base}/api/dev/captcha/solve"),
        &[("challenge", &challenge), ("answer", &drawn.to_lowercase())],
    )
    .await;
    assert!(done.contains("/api/dev/captcha/done.js"), "{done}");
    json!({
        "geetest_challenge": attr(&done, "data-challenge"),
        "geetest_validate": attr(&done, "data-validate"),
        "geetest_seccode": attr(&done, "data-seccode"),
    })
}

#[actix_rt::test]
async fn the_security_check_after_failures_through_the_sandbox() {
    let dir = temp_dir("password-captcha");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let base = format!("http://{}", srv.addr);
    let phone = "13700000511";
    let mut a = Client::new(srv.addr, "pc-a");
    a.login(phone).await;
    let t = ticket(&mut a, phone).await;
    assert_eq!(code(&update(&mut a, phone, "abc123!@", &t).await), 0);

    let mut g = Client::new(srv.addr, "guest");
    for _ in 0..3 {
        assert_eq!(code(&password_login(&mut g, phone, "wrong!123", json!({})).await), 20120);
    }
    // now even the right password needs the check; an unknown phone's failures count alike
    let need = password_login(&mut g, phone, "abc123!@", json!({})).await;
    assert_eq!(refused(&need), (20125, "本次访问需要进行安全验证"), "{need}");
    for _ in 0..3 {
        password_login(&mut g, "13700000519", "wrong!123", json!({})).await;
    }
    assert_eq!(code(&password_login(&mut g, "13700000519", "abc123!@", json!({})).await), 20125);
    let bogus = json!({"geetest_challenge": "x", "geetest_validate": "y", "geetest_seccode": "y|jordan"});
    assert_eq!(
        refused(&password_login(&mut g, phone, "abc123!@", bogus).await),
        (20128, "安全验证失败，请重新验证")
    );
    // a wrong password with a solved check: still wrong, the check spent
    let solved = solve(&mut g, &base).await;
    assert_eq!(code(&password_login(&mut g, phone, "wrong!123", solved.clone()).await), 20120);
    assert_eq!(code(&password_login(&mut g, phone, "abc123!@", solved).await), 20128, "spent");
    let solved = solve(&mut g, &base).await;
    let ok = password_login(&mut g, phone, "abc123!@", solved.clone()).await;
    assert_eq!(code(&ok), 0, "{ok}");
    assert_eq!(code(&g.get("/api/user/profile").await.1), 0);
    // the right password cleared the phone's count: no check for the next login
    let mut h = Client::new(srv.addr, "pc-h");
    assert_eq!(code(&password_login(&mut h, phone, "abc123!@", json!({})).await), 0);

    // the client's report of a failed check is taken
    let (_, reported) = h
        .post("/api/v3/senseboot/report", json!({"third_status": 1, "type": 1, "phone": phone}))
        .await;
    assert_eq!(code(&reported), 0);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(dir);
}

// The address counts too: ten failures from one address across phones ask the next login of
// any phone from there for the check.
#[actix_rt::test]
async fn ten_failures_from_one_address_ask_for_the_check() {
    let dir = temp_dir("password-address");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut g = Client::new(srv.addr, "guest");
    for i in 0..10 {
        let v = password_login(&mut g, &format!("1370000060{i}"), "wrong!123", json!({})).await;
        assert_eq!(code(&v), 20120, "{i}: {v}");
    }
    assert_eq!(code(&password_login(&mut g, "13700000619", "wrong!123", json!({})).await), 20125);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(dir);
}

// Production mode has no sandbox security check to fall back on: it refuses to start, as it
// does without real SMS and payment providers, and says so.
#[actix_rt::test]
async fn production_mode_refuses_without_a_real_captcha_provider() {
    let dir = temp_dir("password-prod");
    // a production configuration that passes every other check
    let cfg = facade::config::ServerConfig::parse(&format!(
        "mode = \"production\"\nbind = \"127.0.0.1:0\"\ndata_dir = \"{}\"\nfrontend_dir = \"/nonexistent\"\n\
         [identity]\nkey_hex = \"{}\"\n[account_centre]\nsecret = \"a-production-secret\"\n[[nodes]]\nid = 1\nname = \"一区\"\nstatus = 1\nmachines = [\"m0\"]\n",
        dir.display(),
        "7e".repeat(32)
    ))
    .unwrap();
    assert_eq!(cfg.check(), Ok(()));
    let Err(why) = facade::start(cfg).await else {
        panic!("production mode started with the sandbox providers")
    };
    assert!(why.contains("captcha"), "{why}");
    let _ = std::fs::remove_dir_all(dir);
}
