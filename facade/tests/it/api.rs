//! Black-box tests: a real server on 127.0.0.1:0 with a real SQLite file, spoken to over HTTP and
//! the WebSocket the way the browser does.

use crate::common;

use std::time::Duration;

use common::{code, config, temp_dir, Client};
use facade::proto::MessageType;
use serde_json::{json, Value};

async fn server(name: &str, machines: usize, countdown: u64) -> (facade::Running, std::path::PathBuf) {
    let dir = temp_dir(name);
    (facade::start(config(&dir, machines, countdown)).await.unwrap(), dir)
}

/// The phone and code rules of core-platform.md §5.1, with their Chinese messages; none is a 500.
#[actix_rt::test]
async fn login_validation_and_session_cookie() {
    let (srv, dir) = server("login", 1, 60).await;
    let mut c = Client::new(srv.addr, "dev-1");
    let check = |(status, body): (u16, Value), want_status: u16, want_code: i64, want_msg: &str| {
        assert_eq!((status, code(&body)), (want_status, want_code), "{body}");
        if !want_msg.is_empty() {
            assert_eq!(body["message"], want_msg);
        }
        assert!(body["ts"].as_i64().unwrap() > 0);
    };
    check(
        c.post("/api/passport/login/sendcode", json!({"phone": ""})).await,
        400,
        20116,
        "手机号不能为空",
    );
    check(
        c.post("/api/passport/login/sendcode", json!({})).await,
        400,
        20116,
        "手机号不能为空",
    );
    check(
        c.post("/api/passport/login/sendcode", json!({"phone": "2380013800"})).await,
        400,
        20111,
        "手机号格式不正确",
    );
    check(
        c.post_raw("/api/passport/login/sendcode", "{not json").await,
        400,
        40000,
        "请求参数错误",
    );
    check(
        c.post("/api/passport/login/sendcode", json!({"phone": 13800138000u64})).await,
        400,
        40000,
        "请求参数错误",
    );
    check(
        c.post("/api/passport/login/sendcode", json!({"phone": "19900000000"})).await,
        502,
        20115,
        "短信发送失败，请稍后再试",
    );
    check(
        c.post("/api/passport/login/sendcode", json!({"phone": "13800138000"})).await,
        200,
        0,
        "",
    );
    check(
        c.post("/api/passport/login", json!({"cellphone": "13800138000", "code": ""})).await,
        400,
        20112,
        "验证码不能为空",
    );
    check(
        c.post("/api/passport/login", json!({"cellphone": "13800138000", "code": "000000x"}))
            .await,
        400,
        20113,
        "验证码错误或已过期",
    );
    check(c.get("/api/user/profile").await, 401, 20119, "登录已失效，请重新登录");

    let r = c.login("13800138001").await;
    assert_eq!(r["data"]["is_new_user"], true);
    let sid = c.cookies.get("yoo_sid").cloned().unwrap();
    let csrf = c.cookies.get("_csrfToken").cloned().unwrap();
    assert!(sid.len() >= 32, "at least 128 random bits");
    let (_, p) = c.get("/api/user/profile").await;
    assert_eq!(p["data"]["cellphone"], "138****8001");
    assert_eq!(p["data"]["uid"], r["data"]["uid"]);

    // A second login gives a new session id, and the user is not new any more.
    let r2 = c.login("13800138001").await;
    assert_eq!(r2["data"]["is_new_user"], false);
    assert_ne!(c.cookies.get("yoo_sid").unwrap(), &sid);
    let old_session_still_valid = {
        let mut old = Client::new(srv.addr, "dev-1");
        old.cookies.insert("yoo_sid".into(), sid.clone());
        old.cookies.insert("_csrfToken".into(), csrf);
        old.get("/api/user/profile").await.1["code"] == 0
    };
    assert!(old_session_still_valid, "each login is its own session");

    check(c.post("/api/user/logout", json!({"r": 0.5})).await, 200, 0, "");
    assert!(!c.cookies.contains_key("yoo_sid"));
    check(c.get("/api/user/profile").await, 401, 20119, "");
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A logged-in state change without the matching token is refused; x-skip-csrf never passes.
#[actix_rt::test]
async fn csrf_is_enforced_for_logged_in_calls() {
    let (srv, dir) = server("csrf", 1, 60).await;
    let mut c = Client::new(srv.addr, "dev-1");
    c.login("13800138002").await;
    let token = c.cookies.remove("_csrfToken").unwrap();
    let (s, r) = c.post("/api/japi/yoo/game/start", json!({"gameId": 1})).await; // sends x-skip-csrf
    assert_eq!((s, code(&r)), (403, 40003));
    c.cookies.insert("_csrfToken".into(), "0".repeat(32));
    let (s, r) = c.post("/api/japi/yoo/game/start", json!({"gameId": 1})).await;
    assert_eq!((s, code(&r)), (403, 40003));
    let (_, fb) = c.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(code(&fb), 40003);
    c.cookies.insert("_csrfToken".into(), token);
    let (_, fb) = c.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(fb["data"]["hasGameOnline"], false, "nothing was started by the refused calls");
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A platform set to another time (`[game] clock_start_ms`, a day and an hour behind): every
/// envelope's `ts`, a success's and a refusal's, is on that clock like the times in the data
/// (`serverTime`, `responseTime`), so the browser's skew from `ts` is its skew from them (a ready
/// countdown measured against `ts` does not lapse at once).
#[actix_rt::test]
async fn envelope_time_is_the_platform_s_clock() {
    let dir = temp_dir("clock");
    let system = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let set = (system - 90_000) * 1000;
    let srv = facade::start(common::config_with(&dir, 1, 60, &format!("clock_start_ms = {set}")))
        .await
        .unwrap();
    let mut c = Client::new(srv.addr, "dev-1");
    let (_, nodes) = c.get("/api/japi/yoo/game/selectNode?gameId=1").await;
    let near = |ts: &Value| (ts.as_i64().unwrap() - set / 1000).abs() <= 30;
    assert!(near(&nodes["ts"]), "a success on the platform's clock: {nodes}");
    let (_, refused) = c.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(code(&refused), 20119, "{refused}");
    assert!(near(&refused["ts"]), "a refusal too: {refused}");
    c.login("13800138009").await;
    let (_, started) = c.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1})).await;
    let server_time = started["data"]["serverTime"].as_i64().unwrap_or_else(|| panic!("{started}"));
    assert!((started["ts"].as_i64().unwrap() - server_time / 1000).abs() <= 2, "{started}");
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Catalogue paging and search, game info, nodes and their probe, config groups, unknown paths.
#[actix_rt::test]
async fn catalogue_nodes_and_config() {
    let (srv, dir) = server("catalogue", 1, 60).await;
    let mut c = Client::new(srv.addr, "dev-1");
    let (_, page1) = c.get("/api/web/v1/game/list?page=1&page_size=10").await;
    let total = page1["data"]["total"].as_u64().unwrap();
    assert!(total >= 24, "at least 24 games");
    assert_eq!(page1["data"]["data"].as_array().unwrap().len(), 10);
    let (_, last) = c
        .get(&format!("/api/web/v1/game/list?page={}&page_size=10", total.div_ceil(10)))
        .await;
    assert_eq!(
        last["data"]["data"].as_array().unwrap().len() as u64,
        total - 10 * (total.div_ceil(10) - 1)
    );
    let (_, found) = c.get("/api/web/v1/game/list?keyword=%E6%98%9F%E6%B5%B7").await; // 星海
    assert!(found["data"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["name"].as_str().unwrap().contains("星海")));
    assert!(found["data"]["total"].as_u64().unwrap() >= 1);
    for bad in ["page=0", "page=abc", "page_size=1000"] {
        let (s, r) = c.get(&format!("/api/web/v1/game/list?{bad}")).await;
        assert_eq!((s, code(&r)), (400, 40000), "{bad}");
    }
    let statuses: Vec<i64> = {
        let (_, all) = c.get("/api/web/v1/game/list?page_size=100").await;
        all["data"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["status"].as_i64().unwrap())
            .collect()
    };
    for s in [0, 2, 10] {
        assert!(statuses.contains(&s), "card state {s} is seeded");
    }

    let (_, info) = c
        .post(
            "/api/japi/yoo/game/info",
            json!({"gameId": 1, "bannerWidth": 1920, "bannerHeight": 1080}),
        )
        .await;
    assert_eq!(info["data"]["associatedType"], 1);
    assert_eq!(info["data"]["startMode"], 0);
    let (s, r) = c.post("/api/japi/yoo/game/info", json!({"gameId": 99999})).await;
    assert_eq!((s, code(&r)), (404, 130100));
    let (s, r) = c.post("/api/japi/yoo/game/info", json!({"gameId": [1]})).await;
    assert_eq!((s, code(&r)), (400, 40000));

    let (_, nodes) = c.post("/api/japi/yoo/game/selectNode", json!({"gameId": 1})).await;
    let nodes = nodes["data"].as_array().unwrap().clone();
    assert_eq!(nodes.len(), 2);
    let ping_url = nodes[0]["pingUrl"].as_str().unwrap().to_string();
    let (s, r) = c.get(&format!("{ping_url}?t=123")).await;
    assert_eq!((s, r["data"]["t"].as_str()), (200, Some("123")));
    let (_, r) = c.get(&format!("{}?t=1", nodes[1]["pingUrl"].as_str().unwrap())).await;
    assert_eq!(code(&r), 130150, "a node under maintenance does not answer its probe");

    let (_, cfg) = c
        .post("/api/japi/yoo/common/config/list", json!({"groupCode": "common_config"}))
        .await;
    assert!(cfg["data"]["sys_time"].as_str().unwrap().parse::<i64>().unwrap() > 0);
    let (_, cfg) = c
        .post("/api/japi/yoo/common/config/list", json!({"groupCode": "wx_sort_entry"}))
        .await;
    assert_eq!(cfg["data"]["web"], "0");

    let (s, r) = c.get("/api/nowhere").await;
    assert_eq!((s, code(&r)), (404, 40004));
    let mut raw = awc::Client::default()
        .get(format!("http://{}/covers/1/cover.svg", srv.addr))
        .send()
        .await
        .unwrap();
    assert_eq!(raw.headers().get("content-type").unwrap(), "image/svg+xml");
    assert!(std::str::from_utf8(&raw.body().await.unwrap()).unwrap().contains("<svg"));

    let metrics = String::from_utf8(
        awc::Client::default()
            .get(format!("http://{}/metrics", srv.addr))
            .send()
            .await
            .unwrap()
            .body()
            .await
            .unwrap()
            .to_vec(),
    )
    .unwrap();
    for name in [
        "yoo_http_requests_total",
        "yoo_http_request_duration_seconds_bucket",
        "yoo_actors_alive",
    ] {
        assert!(metrics.contains(name), "{name} in /metrics");
    }
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Two players and one machine over REST and the WebSocket: ready, play, hand-over pushed
/// without polling, the start refusals, and a missed countdown; then a restart keeps the logins.
#[actix_rt::test]
async fn journey_over_rest_and_websocket() {
    let dir = temp_dir("journey");
    let srv = facade::start(config(&dir, 1, 2)).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    let mut b = Client::new(srv.addr, "dev-b");
    a.login("13900000001").await;
    b.login("13900000002").await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    // Every new socket first gets the state as it is now.
    assert_eq!(sa.next_state(5).await["hasGameOnline"], false);
    assert_eq!(sb.next_state(5).await["hasGameOnline"], false);
    sa.ping().await;
    let pong = sa.next(5).await;
    assert_eq!(pong.r#type, MessageType::Pong as i32);
    assert_eq!(pong.offset, 2);

    let (_, r) = a
        .post(
            "/api/japi/yoo/game/start",
            json!({"gameId": 1, "nodeDelay": "[{\"id\":1,\"ping\":12}]", "afterAuthCheck": 1, "nodeId": 1}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let id_a = r["data"]["id"].as_i64().unwrap();
    let ready = sa.wait_state(5, |s| s["status"] == 3).await;
    assert_eq!(ready["id"], id_a);
    assert_eq!(ready["clientType"], "web");
    assert!(ready["responseTime"].as_i64().unwrap() > 0);

    let (_, r) = b
        .post(
            "/api/japi/yoo/game/start",
            json!({"gameId": 1, "nodeDelay": "[]", "afterAuthCheck": 1, "nodeId": 1}),
        )
        .await;
    assert_eq!(
        (r["data"]["status"].as_i64(), r["data"]["sort"].as_i64()),
        (Some(1), Some(1)),
        "{r}"
    );
    let id_b = r["data"]["id"].as_i64().unwrap();

    // Refusals: same game again, another game, a game elsewhere, unknown ids, malformed bodies.
    let (s, r) = a.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1})).await;
    assert_eq!((s, code(&r), r["data"]["id"].as_i64()), (409, 130117, Some(id_a)));
    let (_, r) = a.post("/api/japi/yoo/game/start", json!({"gameId": 2, "nodeId": 1})).await;
    assert_eq!((code(&r), r["data"]["hasGameOnline"].as_bool()), (130116, Some(true)));
    let mut a2 = Client::new(srv.addr, "dev-a2");
    a2.login("13900000001").await;
    let (_, r) = a2.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1})).await;
    assert_eq!((code(&r), r["data"]["id"].as_i64()), (130115, Some(id_a)));
    let (_, fb2) = a2.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(fb2["data"]["clientType"], "other", "the session runs on another client");
    let (_, r) = a.post("/api/japi/yoo/game/start", json!({"gameId": 424242})).await;
    assert_eq!(code(&r), 130100);
    let (_, r) = a
        .post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeDelay": "not json"}))
        .await;
    assert_eq!(code(&r), 40000);
    let (_, r) = a.post("/api/japi/yoo/game/start", json!({"nodeId": 1})).await;
    assert_eq!(code(&r), 40000);
    let (_, r) = a.post("/api/japi/yoo/game/confirmConnect", json!({"id": id_b})).await;
    assert_eq!(code(&r), 130118, "another player's session is not yours");
    let (_, r) = b.post("/api/japi/yoo/game/confirmConnect", json!({"id": id_b})).await;
    assert_eq!(code(&r), 130119, "no confirm while still queued");
    let (_, fb) = b.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(
        (fb["data"]["status"].as_i64(), fb["data"]["sort"].as_i64()),
        (Some(1), Some(1)),
        "refusals changed nothing"
    );

    let (_, r) = a.post("/api/japi/yoo/game/confirmConnect", json!({"id": id_a})).await;
    assert_eq!(r["data"]["status"], 4);
    sa.wait_state(5, |s| s["status"] == 5).await;
    drop(sb);
    let (_, r) = a.post("/api/japi/yoo/game/over", json!({"id": id_a})).await;
    assert_eq!(code(&r), 0);
    assert!(r["data"]["roomSerial"].is_null());
    let ended = sa.wait_state(5, |s| s["hasGameOnline"] == false).await;
    assert_eq!(ended["endReason"], "over");

    // B's socket dropped while B was queued: B kept the place, and the new socket gets what it
    // missed (B became READY meanwhile).
    let mut sb = b.socket().await;
    let ready_b = sb.wait_state(5, |s| s["status"] == 3).await;
    assert_eq!(ready_b["id"], id_b);
    // The 2 s countdown lapses: the place is missed.
    let missed = sb.wait_state(5, |s| s["hasGameOnline"] == false).await;
    assert_eq!(missed["endReason"], "missed");

    // Stop, start again on the same data: both still logged in, history intact.
    srv.handle.stop(true).await;
    let srv2 = facade::start(config(&dir, 1, 2)).await.unwrap();
    for cl in [&mut a, &mut b] {
        cl.base = format!("http://{}", srv2.addr);
        let (_, p) = cl.get("/api/user/profile").await;
        assert_eq!(code(&p), 0, "still logged in after a restart: {p}");
    }
    let history = srv2
        .platform
        .store()
        .sessions
        .list_by_user(a.get("/api/user/profile").await.1["data"]["uid"].as_i64().unwrap(), 10)
        .unwrap();
    assert_eq!(history[0].end_reason.as_deref(), Some("over"));
    srv2.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Production mode has no sandbox providers, so it refuses to start.
/// Each socket of a user gets the user's pushes; a closed or dropped socket stops being a
/// connection at once, and WebSocket pings get their pong.
#[actix_rt::test]
async fn sockets_connect_and_go() {
    let dir = temp_dir("sockets");
    let srv = facade::start(config(&dir, 1, 2)).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    let uid = a.login("13900000011").await["data"]["uid"].as_i64().unwrap();
    let mut s1 = a.socket().await;
    let mut s2 = a.socket().await;
    assert_eq!(s1.next_state(5).await["hasGameOnline"], false);
    assert_eq!(s2.next_state(5).await["hasGameOnline"], false);
    assert_eq!(srv.platform.play.connections(uid), 2);
    assert_eq!(&s1.control_ping(b"hi").await[..], b"hi");

    let (_, r) = a
        .post(
            "/api/japi/yoo/game/start",
            json!({"gameId": 1, "nodeDelay": "[]", "afterAuthCheck": 1, "nodeId": 1}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(s1.wait_state(5, |s| s["status"] == 3).await["id"], r["data"]["id"]);
    assert_eq!(s2.wait_state(5, |s| s["status"] == 3).await["id"], r["data"]["id"]);

    s1.close().await;
    wait_until(|| srv.platform.play.connections(uid) == 1).await;
    drop(s2);
    wait_until(|| srv.platform.play.connections(uid) == 0).await;
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Polls `cond` for up to 5 s (the server acts on a socket's end on its own task).
async fn wait_until(cond: impl Fn() -> bool) {
    for _ in 0..500 {
        if cond() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("condition not met in 5 s");
}

#[actix_rt::test]
async fn production_mode_refuses_without_real_providers() {
    let dir = temp_dir("prod");
    let mut cfg = config(&dir, 1, 60);
    cfg.mode = facade::config::Mode::Production;
    assert!(facade::start(cfg).await.is_err());
}

/// core-platform.md §7.6: `social/kf` answers the configured customer service address, to guests
/// too.
#[actix_rt::test]
async fn the_customer_service_address_is_the_configured_one() {
    let dir = temp_dir("kf");
    let mut cfg = config(&dir, 1, 60);
    cfg.service_url = "https://kefu.example.com/chat".into();
    let srv = facade::start(cfg).await.unwrap();
    let (_, r) = Client::new(srv.addr, "guest")
        .post("/api/japi/social/kf", serde_json::json!({}))
        .await;
    assert_eq!(
        (code(&r), r["data"]["kfUrl"].as_str()),
        (0, Some("https://kefu.example.com/chat")),
        "{r}"
    );
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
