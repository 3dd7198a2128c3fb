//! Who may stay signed in (core-platform.md §2.6, §4.10, §6), over real HTTP and WebSocket: an
//! operator's freeze ends every login of the account at once (each socket gets AUTHORIZATION
//! FROZEN, then closes; the cookies answer 40001) and refuses its logins with 20101 and the
//! forbidden template until restored; a ban does the same with BAN and its ban data, ends the
//! running game, and runs out at its end; a login beyond the account's newest five kicks the
//! oldest out (KICK_OUT). Other accounts are untouched.

use crate::common;
use common::{code, config, temp_dir, Client};
use serde_json::{json, Value};

async fn act(srv: &facade::Running, phone: &str, action: &str, extra: Value) -> Value {
    let mut operator = Client::new(srv.addr, "operator");
    let mut body = json!({"cellphone": phone, "action": action});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    operator.post("/api/dev/account", body).await.1
}

/// A login attempt that is refused: the answer's envelope.
async fn login_answer(srv: &facade::Running, phone: &str) -> Value {
    let mut c = Client::new(srv.addr, "retry");
    let (_, sent) = c.post("/api/passport/login/sendcode", json!({"phone": phone})).await;
    assert_eq!(code(&sent), 0, "{sent}");
    let outbox = c.get(&format!("/api/dev/sms/outbox?phone={phone}")).await.1;
    let sms = outbox["data"][0]["code"].as_str().unwrap().to_string();
    c.post(
        "/api/passport/login",
        json!({"cellphone": phone, "code": sms, "device_no": "retry"}),
    )
    .await
    .1
}

#[actix_rt::test]
async fn a_freeze_ends_every_login_and_refuses_new_ones_until_restored() {
    let dir = temp_dir("accounts-freeze");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut a1 = Client::new(srv.addr, "dev-a1");
    let mut a2 = Client::new(srv.addr, "dev-a2");
    let mut b = Client::new(srv.addr, "dev-b");
    a1.login("13700000001").await;
    a2.login("13700000001").await;
    b.login("13700000002").await;
    let mut s1 = a1.socket().await;
    let mut s2 = a2.socket().await;
    let mut sb = b.socket().await;

    let acted = act(&srv, "13700000001", "freeze", json!({"reason": "账号存在风险"})).await;
    assert_eq!(code(&acted), 0, "{acted}");
    assert_eq!(acted["data"]["logins_ended"], 2);
    for s in [&mut s1, &mut s2] {
        assert_eq!(s.authorization_then_close(5).await, ("FROZEN".to_string(), String::new()));
    }
    // an ended login's calls say why while the freeze holds (a page that had no socket then
    // hears it this way); a page open to guests sees a guest
    for c in [&mut a1, &mut a2] {
        let (status, r) = c.get("/api/user/profile").await;
        assert_eq!((status, code(&r)), (403, 20101), "{r}");
        assert_eq!(r["message"], "账号已被冻结");
        assert_eq!(r["data"]["values"]["reason"], "账号存在风险");
    }
    assert_eq!(code(&a1.post("/api/japi/yoo/game/selectNode", json!({"gameId": 1})).await.1), 0);
    // the other account goes on: its socket has its state and nothing else
    sb.next_state(5).await;
    assert!(sb.next_within(300).await.is_none());
    assert_eq!(code(&b.get("/api/user/profile").await.1), 0);

    let refused = login_answer(&srv, "13700000001").await;
    assert_eq!(code(&refused), 20101, "{refused}");
    assert_eq!(refused["message"], "账号已被冻结");
    assert_eq!(refused["data"]["template"], "您的账号因${reason}已被冻结，如有疑问请联系客服");
    assert_eq!(refused["data"]["values"]["reason"], "账号存在风险");

    assert_eq!(code(&act(&srv, "13700000001", "restore", json!({})).await), 0);
    // restored: the ended logins stay ended, now a plain 40001
    assert_eq!(code(&a1.get("/api/user/profile").await.1), 40001);
    assert_eq!(code(&login_answer(&srv, "13700000001").await), 0);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[actix_rt::test]
async fn a_ban_ends_the_running_game_and_carries_its_data() {
    let dir = temp_dir("accounts-ban");
    // no machine: the game waits in the queue
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("13700000011").await;
    let mut sa = a.socket().await;
    let (_, started) = a
        .post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1, "nodeDelay": "[]"}))
        .await;
    assert_eq!(code(&started), 0, "{started}");
    let session = started["data"]["id"].as_i64().unwrap();

    let until = srv.platform.clock().now_ms() + 86_400_000;
    let acted = act(&srv, "13700000011", "ban", json!({"reason": "使用外挂", "until": until})).await;
    assert_eq!(code(&acted), 0, "{acted}");
    assert_eq!(acted["data"]["game_ended"], session);
    let (status, value) = sa.authorization_then_close(5).await;
    assert_eq!(status, "BAN");
    let ban: Value = serde_json::from_str(&value).unwrap();
    assert_eq!(ban["status"], 0);
    assert_eq!(ban["template"], "您的账号因${reason}已被封禁，解封时间：${until}");
    assert_eq!(ban["values"]["reason"], "使用外挂");
    assert_eq!(ban["values"]["until"].as_str().unwrap().len(), 16, "{ban}");
    let uid = acted["data"]["uid"].as_i64().unwrap();
    assert!(matches!(
        srv.platform.play.game_state(uid).await.unwrap(),
        actors::view::GameState::None | actors::view::GameState::Ended { .. }
    ));

    let refused = login_answer(&srv, "13700000011").await;
    assert_eq!(code(&refused), 20101, "{refused}");
    assert_eq!(refused["data"]["template"], "您的账号因${reason}已被封禁，解封时间：${until}");
    assert!(refused["data"]["values"]["until"].as_str().unwrap().len() == 16, "{refused}");

    // bad operator input is refused in the envelope, and changes nothing
    for bad in [
        json!({"action": "smite"}),
        json!({"action": "ban", "until": -1}),
        json!({"action": "freeze", "reason": "长".repeat(101)}),
    ] {
        let r = act(&srv, "13700000012", bad["action"].as_str().unwrap(), bad.clone()).await;
        assert_eq!(code(&r), 40000, "{r}");
    }
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[actix_rt::test]
async fn a_sixth_login_kicks_the_oldest_out() {
    let dir = temp_dir("accounts-kick");
    let mut cfg = config(&dir, 1, 60);
    cfg.sms.phone_per_hour = 20;
    cfg.sms.phone_per_day = 20;
    let srv = facade::start(cfg).await.unwrap();
    let mut first = Client::new(srv.addr, "dev-0");
    first.login("13700000021").await;
    let mut s0 = first.socket().await;
    let mut others = Vec::new();
    for i in 1..actors::accounts::passport::MAX_LOGINS {
        let mut c = Client::new(srv.addr, &format!("dev-{i}"));
        c.login("13700000021").await;
        others.push(c);
    }
    // five logins: all live
    assert_eq!(code(&first.get("/api/user/profile").await.1), 0);
    assert!(s0.next_within(200).await.map(|e| e.r#type) != Some(facade::proto::MessageType::Authorization as i32));

    let mut newest = Client::new(srv.addr, "dev-new");
    newest.login("13700000021").await;
    assert_eq!(s0.authorization_then_close(5).await.0, "KICK_OUT");
    let (status, r) = first.get("/api/user/profile").await;
    assert_eq!((status, code(&r)), (401, 40001), "{r}");
    for c in others.iter_mut().chain([&mut newest]) {
        assert_eq!(code(&c.get("/api/user/profile").await.1), 0);
    }
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// core-platform.md §7.1: a login records the device id, the channel and the café's info it
/// was sent with (long or control-laden values cut and cleaned); a logged-out login is gone
/// from the list.
#[actix_rt::test]
async fn a_login_records_its_device_channel_and_cafe() {
    let dir = temp_dir("accounts-devices");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let base = format!("http://{}", srv.addr);
    let mut c = Client::new(srv.addr, "uuid-1");
    let (_, sent) = c.post("/api/passport/login/sendcode", json!({"phone": "13700000061"})).await;
    assert_eq!(code(&sent), 0);
    let sms = c.get("/api/dev/sms/outbox?phone=13700000061").await.1["data"][0]["code"]
        .as_str()
        .unwrap()
        .to_string();
    let mut resp = awc::Client::default()
        .post(format!("{base}/api/passport/login"))
        .insert_header(("x-skip-csrf", "true"))
        .insert_header(("Yoo-Uuid", "uuid-1"))
        .insert_header(("x-org-channel", "ad1|pos2|land3"))
        .insert_header(("Yoo-Gid", "cafe-88"))
        .insert_header(("Yoo-Mac", "00:11:22:33:44:55"))
        .insert_header(("Yoo-Pc-Name", "PC-07\t"))
        .insert_header(("Yoo-Boot-Id", "b".repeat(100)))
        .send_json(&json!({"cellphone": "13700000061", "code": sms, "device_no": "uuid-1"}))
        .await
        .unwrap();
    let body: Value = resp.json().await.unwrap();
    assert_eq!(code(&body), 0, "{body}");
    let uid = body["data"]["uid"].as_i64().unwrap();
    let devices = srv.platform.passport().devices(uid).await.unwrap();
    assert_eq!(devices.len(), 1);
    let d = &devices[0].1;
    assert_eq!((d.uuid.as_str(), d.channel.as_str()), ("uuid-1", "ad1|pos2|land3"));
    assert_eq!(
        (d.cafe_gid.as_str(), d.cafe_mac.as_str(), d.cafe_pc_name.as_str()),
        ("cafe-88", "00:11:22:33:44:55", "PC-07")
    );
    assert_eq!(d.cafe_boot_id.len(), 64);

    // a second login (no café) is listed first; the frozen account's logins are gone
    let mut other = Client::new(srv.addr, "uuid-2");
    other.login("13700000061").await;
    let devices = srv.platform.passport().devices(uid).await.unwrap();
    assert_eq!(
        devices.iter().map(|(_, d)| d.uuid.as_str()).collect::<Vec<_>>(),
        ["uuid-2", "uuid-1"]
    );
    assert_eq!(code(&act(&srv, "13700000061", "freeze", json!({})).await), 0);
    assert!(srv.platform.passport().devices(uid).await.unwrap().is_empty());
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The operator's route of every mode and the `yoo-server account` command that calls it: no
/// token or a wrong one is refused (40006) and changes nothing; the right one bans (the
/// player's session ends), and restores; the command exits 0 done, 1 refused, 2 without a token.
#[actix_rt::test]
async fn the_operator_command_acts_through_the_token_route() {
    const TOKEN: &str = "an-operator-token-of-some-length";
    let dir = temp_dir("ops-account");
    let mut cfg = config(&dir, 0, 60);
    cfg.operator_token_sha256 = Some(actors::accounts::passport::secret_hash(TOKEN));
    let srv = facade::start(cfg).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15900000101").await;
    let base = format!("http://{}", srv.addr);
    let ops = async |token: Option<&str>, body: Value| {
        let mut req = awc::Client::default()
            .post(format!("{base}/api/ops/account"))
            .insert_header(("x-skip-csrf", "true"));
        if let Some(t) = token {
            req = req.insert_header(("x-operator-token", t));
        }
        let mut resp = req.send_json(&body).await.unwrap();
        let status = resp.status().as_u16();
        (status, serde_json::from_slice::<Value>(&resp.body().await.unwrap()).unwrap())
    };
    let ban = json!({"cellphone": "15900000101", "action": "ban", "reason": "使用外挂"});
    // the token is asked before the body is read: a caller without it learns nothing of the shape
    for token in [None, Some(""), Some("wrong"), Some(&TOKEN[1..])] {
        let (status, r) = ops(token, json!({"nonsense": 1})).await;
        assert_eq!((status, code(&r)), (403, 40006), "{token:?}: {r}");
        let (status, r) = ops(token, ban.clone()).await;
        assert_eq!(
            (status, code(&r), r["message"].as_str()),
            (403, 40006, Some("操作员凭证无效")),
            "{token:?}"
        );
    }
    let (_, me) = a.get("/api/user/profile").await;
    assert_eq!(code(&me), 0, "nothing changed: {me}");

    let run = |args: &[&str], token: Option<&str>| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_yoo-server"));
        cmd.arg("account")
            .args(args)
            .args(["--url", &base])
            .env_remove("YOO_OPERATOR_TOKEN");
        if let Some(t) = token {
            cmd.env("YOO_OPERATOR_TOKEN", t);
        }
        tokio::task::spawn_blocking(move || cmd.output().unwrap())
    };
    let out = run(
        &["ban", "--phone", "15900000101", "--reason", "使用外挂", "--days", "3"],
        Some(TOKEN),
    )
    .await
    .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(0), "{printed} {}", String::from_utf8_lossy(&out.stderr));
    assert!(printed.contains("\"logins_ended\":1"), "{printed}");
    let (_, me) = a.get("/api/user/profile").await;
    assert_eq!(code(&me), 20101, "the banned login ended, and says why: {me}");
    assert_eq!(me["data"]["values"]["reason"], "使用外挂");
    let refused = login_answer(&srv, "15900000101").await;
    assert_eq!(code(&refused), 20101, "{refused}");

    let wrong = run(&["restore", "--phone", "15900000101"], Some("wrong")).await.unwrap();
    assert_eq!(wrong.status.code(), Some(1), "refused by the server");
    assert!(String::from_utf8_lossy(&wrong.stdout).contains("40006"));
    let none = run(&["restore", "--phone", "15900000101"], None).await.unwrap();
    assert_eq!(none.status.code(), Some(2), "no token");
    let bad = run(&["explode", "--phone", "15900000101"], Some(TOKEN)).await.unwrap();
    assert_eq!(bad.status.code(), Some(2), "bad usage");
    let restored = run(&["restore", "--phone", "15900000101"], Some(TOKEN)).await.unwrap();
    assert_eq!(restored.status.code(), Some(0));
    let back = login_answer(&srv, "15900000101").await;
    assert_eq!(code(&back), 0, "restored: {back}");
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
