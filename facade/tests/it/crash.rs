//! `kill -9` of the real server process loses nobody's place: the same players in the same
//! order and lanes, READY countdowns less the downtime, PLAYING sessions on their machines, and
//! a game a game host still runs goes on when the host links to the restarted server.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use common::{temp_dir, Client};
use serde_json::{json, Value};
use storage::testing::{Fresh, FreshPostgres};

/// A server process; SIGKILLed on drop.
pub(crate) struct Proc(pub(crate) Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) fn spawn(config: &Path) -> (Proc, std::net::SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yoo-server"))
        .arg("--config")
        .arg(config)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // the log's warnings come first on the same output
    let mut line = String::new();
    while !line.contains("listening on") {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "the server stopped before listening");
    }
    let addr = line.trim().rsplit("http://").next().unwrap().parse().expect("listening line");
    (Proc(child), addr)
}

fn write_config(dir: &Path) -> PathBuf {
    write_config_with(dir, r#"machines = ["m1", "m2"]"#)
}

/// The server's configuration with node 1's machines line (`machines = [..]` or a host secret).
pub(crate) fn write_config_with(dir: &Path, node_machines: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("server.toml");
    std::fs::write(
        &path,
        format!(
            r#"mode = "dev"
bind = "127.0.0.1:0"
data_dir = "{}"
frontend_dir = "/nonexistent"
workers = 1
# every client is 127.0.0.1: no security check in front of codes (tests/sms_check.rs)
[sms]
captcha_phone_per_hour = 0
captcha_ip_per_hour = 0
[game]
connect_countdown_secs = 60
connect_delay_ms = 50
rank_refresh_ms = 100
[[nodes]]
id = 1
name = "测试一区"
status = 1
{node_machines}
"#,
            dir.join("data").display()
        ),
    )
    .unwrap();
    path
}

async fn state(c: &mut Client) -> Value {
    let (_, r) = c.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(r["code"], 0, "{r}");
    r["data"].clone()
}

/// The remaining ready countdown the browser would compute, in seconds.
pub(crate) fn remaining(s: &Value) -> f64 {
    s["connectCountdown"].as_f64().unwrap() - (s["serverTime"].as_f64().unwrap() - s["responseTime"].as_f64().unwrap()) / 1000.0
}

#[actix_rt::test]
async fn kill_9_loses_no_place() {
    let dir = temp_dir("crash");
    loses_no_place(&write_config(&dir)).await;
    let _ = std::fs::remove_dir_all(dir);
}

// The same on PostgreSQL: the store several processes share keeps what SQLite keeps.
#[actix_rt::test]
async fn kill_9_loses_no_place_on_postgres() {
    let dir = temp_dir("crash-pg");
    let db = FreshPostgres::new("crash");
    loses_no_place(&on_postgres(&write_config(&dir), db.url())).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The configuration at `config` with the store moved to the PostgreSQL database at `url`.
pub(crate) fn on_postgres(config: &Path, url: &str) -> PathBuf {
    let text = std::fs::read_to_string(config).unwrap();
    let path = config.with_file_name("server-pg.toml");
    std::fs::write(
        &path,
        format!("{text}\n[storage]\nkind = \"postgres\"\nurl = \"{url}\"\npool_size = 4\n"),
    )
    .unwrap();
    path
}

async fn loses_no_place(config: &Path) {
    let (server, addr) = spawn(config);
    let mut players: Vec<Client> = (0..6).map(|i| Client::new(addr, &format!("dev-{i}"))).collect();
    for (i, p) in players.iter_mut().enumerate() {
        p.login(&format!("1360000000{i}")).await;
        if i == 5 {
            // The last to join is a VIP: the VIP lane puts them first among those waiting.
            let mut op = Client::new(addr, "operator");
            let (_, g) = op
                .post("/api/dev/grant", json!({"cellphone": "13600000005", "kind": "vip", "days": 30}))
                .await;
            assert_eq!(g["code"], 0, "{g}");
        }
        // Three games on one node: one queue, one order (player 3 plays game 2, 4 and 5 game 3).
        let game = match i {
            3 => 2,
            4 | 5 => 3,
            _ => 1,
        };
        let (_, r) = p
            .post("/api/japi/yoo/game/start", json!({"gameId": game, "nodeId": 1, "nodeDelay": "[]"}))
            .await;
        assert_eq!(r["code"], 0, "{r}");
    }
    // Player 0 plays on one machine, player 1 is READY on the other, 5 (VIP) then 2..4 wait,
    // ranked across their games.
    let s0 = state(&mut players[0]).await;
    let (_, r) = players[0].post("/api/japi/yoo/game/confirmConnect", json!({"id": s0["id"]})).await;
    assert_eq!(r["code"], 0);
    let mut before = vec![];
    for _ in 0..50 {
        before.clear();
        for p in players.iter_mut() {
            before.push(state(p).await);
        }
        if before[0]["status"] == 5 {
            break;
        }
        actix_rt::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(before[0]["status"], 5);
    assert_eq!(before[1]["status"], 3);
    let expected_rank = |i: usize| if i == 5 { 1 } else { i as i64 };
    for (i, s) in before.iter().enumerate().skip(2) {
        assert_eq!((s["status"].as_i64(), s["sort"].as_i64()), (Some(1), Some(expected_rank(i))), "{s}");
    }
    assert_eq!(before[5]["isFast"], 4);
    // Minute 0 is charged as play begins, just after the PLAYING push.
    let mut balance_before = Value::Null;
    for _ in 0..100 {
        let (_, p0) = players[0].get("/api/user/profile").await;
        balance_before = p0["data"]["play_time_total"].clone();
        if balance_before == 59 {
            break;
        }
        actix_rt::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(balance_before, 59, "minute 0 charged as play began");

    drop(server); // SIGKILL: no shutdown code runs
    let (_server, addr) = spawn(config);
    for (i, p) in players.iter_mut().enumerate() {
        p.base = format!("http://{addr}");
        let after = state(p).await;
        let b = &before[i];
        for field in ["id", "gameId", "status", "sort", "isFast", "nodeId", "clientType"] {
            assert_eq!(after[field], b[field], "player {i} field {field}: before {b} after {after}");
        }
        if i == 0 {
            let (_, p0) = p.get("/api/user/profile").await;
            assert_eq!(
                p0["data"]["play_time_total"], balance_before,
                "the same play-time balance to the minute"
            );
        }
        if i == 1 {
            assert_eq!(after["responseTime"], b["responseTime"], "the ready moment is kept");
            let (rb, ra) = (remaining(b), remaining(&after));
            assert!(ra <= rb && ra > rb - 10.0, "countdown less the downtime: {rb} then {ra}");
        }
    }
    // The order still holds: player 0 leaves, the VIP gets the machine, 2..4 move up.
    let (_, r) = players[0].post("/api/japi/yoo/game/over", json!({"id": before[0]["id"]})).await;
    assert_eq!(r["code"], 0);
    let mut s5 = Value::Null;
    for _ in 0..100 {
        s5 = state(&mut players[5]).await;
        if s5["status"] == 3 {
            break;
        }
        actix_rt::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(s5["status"], 3, "the next in line gets the freed machine");
    for (i, p) in players.iter_mut().enumerate().take(5).skip(2) {
        assert_eq!(state(p).await["sort"].as_i64(), Some(i as i64 - 1));
    }
}

// `kill -9` keeps the money path whole: a paid order stays fulfilled, granted once; an unpaid
// order still expires on time after the restart (its timer is re-armed from storage); the
// ledger replays to the balances.
#[actix_rt::test]
async fn kill_9_keeps_orders_and_their_expiry() {
    let dir = temp_dir("crash-orders");
    let config = write_config(&dir);
    let mut text = std::fs::read_to_string(&config).unwrap();
    text = text.replace("[game]", "[payment]\norder_ttl_secs = 3\n[game]");
    std::fs::write(&config, text).unwrap();
    let (server, addr) = spawn(&config);
    let mut c = Client::new(addr, "dev-a");
    c.login("13600000101").await;
    let buy = json!({"goods_id": 0, "goods_code": "coin_600", "goods_num": 1, "pay_method": "wechat"});
    let (_, paid) = c.post("/api/payment/goods", buy.clone()).await;
    let paid_no = paid["data"]["order_no"].as_str().unwrap().to_owned();
    let params: String = json!({"order_no": paid_no})
        .to_string()
        .bytes()
        .map(|b| format!("%{b:02X}"))
        .collect();
    let (_, qr) = c.get(&format!("/api/v3/qrcode/generate?action=scan_payment&params={params}")).await;
    let url = qr["data"]["qrcode"].as_str().unwrap().to_owned();
    awc::Client::default().post(format!("{url}/confirm")).send().await.unwrap();
    let ticket = qr["data"]["ticket"].as_str().unwrap();
    let (_, poll) = c
        .post("/api/v3/payment/order/polling", json!({"order_no": paid_no, "ticket": ticket}))
        .await;
    assert_eq!(poll["data"]["state"], "fulfilled", "{poll}");
    // A second order (a new submit, ten seconds apart by its key) stays unpaid.
    let mut resp = awc::Client::default()
        .post(format!("{}/api/payment/goods", c.base))
        .insert_header((
            "cookie",
            c.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; "),
        ))
        .insert_header(("x-csrf-token", c.cookies["_csrfToken"].clone()))
        .insert_header(("Idempotency-Key", "second"))
        .send_json(&buy)
        .await
        .unwrap();
    let open: Value = serde_json::from_slice(&resp.body().await.unwrap()).unwrap();
    let open_no = open["data"]["order_no"].as_str().unwrap().to_owned();
    assert_ne!(open_no, paid_no);

    drop(server); // SIGKILL: no shutdown code runs
    let (server, addr) = spawn(&config);
    let mut c2 = Client::new(addr, "dev-a");
    c2.cookies = c.cookies.clone();
    // The real process keeps real time: wait (at most 10 s) for the order's 3 s to run out.
    let mut states: Vec<(String, String)> = vec![];
    for _ in 0..100 {
        let (_, bills) = c2.get("/api/v3/user/order").await;
        states = bills["data"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| (o["order_no"].as_str().unwrap().to_owned(), o["state"].as_str().unwrap().to_owned()))
            .collect();
        if states.iter().any(|(no, state)| *no == open_no && state != "created") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(states.contains(&(paid_no.clone(), "fulfilled".into())), "{states:?}");
    assert!(
        states.contains(&(open_no.clone(), "expired".into())),
        "expired after the restart: {states:?}"
    );
    let (_, b) = c2.get("/api/v3/user/balance").await;
    assert_eq!(b["data"]["balance"], 600, "granted once");
    drop(server);
    let store = storage::Store::open_sqlite(&dir.join("data")).unwrap();
    let uid = store.users.find_by_phone("13600000101").unwrap().unwrap().uid;
    assert_eq!(store.commerce.ledger_mismatches(uid).unwrap(), vec![]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The server SIGKILLed while a game host runs a player's game and another player is READY on
/// its other slot; started again, the host links to it (reporting its slots as they stand, as
/// `yoo-gamehost` does within the host timeout) and both keep their games: the player is still
/// PLAYING in the same session and gets a fresh stream ticket, the READY one keeps the slot and
/// their confirm launches the game there; the host is told to end nothing.
#[actix_rt::test]
async fn kill_9_ends_no_game_its_host_still_runs() {
    use crate::hosts::{connect, hello, now_ms, slot, SECRET};
    use hostlink::{PlatformMsg, SlotPhase};
    let dir = temp_dir("crash-host");
    let config = write_config_with(&dir, &format!("host_secret = \"{SECRET}\""));
    let (server, addr) = spawn(&config);
    let free = |n| slot(n, SlotPhase::Free, None);
    let (mut host, welcome) = connect(addr, hello("h", 1, SECRET, now_ms(), vec![free(0), free(1)])).await;
    assert!(matches!(welcome, Some(PlatformMsg::Welcome { .. })), "{welcome:?}");
    let mut a = Client::new(addr, "dev-a");
    let mut b = Client::new(addr, "dev-b");
    a.login("13600000101").await;
    b.login("13600000102").await;
    let start = json!({"gameId": 1, "nodeId": 1, "nodeDelay": "[]"});
    let (_, r) = a.post("/api/japi/yoo/game/start", start.clone()).await;
    assert_eq!(r["code"], 0, "{r}");
    let id = state(&mut a).await["id"].clone();
    let (_, r) = a.post("/api/japi/yoo/game/confirmConnect", json!({"id": id})).await;
    assert_eq!(r["code"], 0, "{r}");
    let launched = host.next().await;
    assert!(matches!(launched, Some(PlatformMsg::Launch { slot: 0, .. })), "{launched:?}");
    let session = id.as_i64().unwrap();
    host.report(slot(0, SlotPhase::Playing, Some(session))).await;
    host.say(&hostlink::HostMsg::FirstFrame {
        slot: 0,
        session_id: session,
    })
    .await;
    for _ in 0..100 {
        if state(&mut a).await["status"] == 5 {
            break;
        }
        actix_rt::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(state(&mut a).await["status"], 5, "playing");
    let (_, r) = b.post("/api/japi/yoo/game/start", start).await;
    assert_eq!(r["code"], 0, "{r}");
    assert_eq!(state(&mut b).await["status"], 3, "ready on the other slot");
    let b_id = state(&mut b).await["id"].clone();

    drop(server); // SIGKILL
    let (_server, addr) = spawn(&config);
    let (mut host, welcome) = connect(
        addr,
        hello("h", 1, SECRET, now_ms(), vec![slot(0, SlotPhase::Playing, Some(session)), free(1)]),
    )
    .await;
    assert!(matches!(welcome, Some(PlatformMsg::Welcome { .. })), "{welcome:?}");
    // The players' logins outlive the process; their browsers call the new address.
    for c in [&mut a, &mut b] {
        c.base = format!("http://{addr}");
    }
    let s = state(&mut a).await;
    assert_eq!(
        (s["id"].clone(), s["status"].as_i64()),
        (id.clone(), Some(5)),
        "the same game, playing: {s}"
    );
    let (_, t) = a.post("/api/japi/yoo/game/streamTicket", json!({"id": id})).await;
    assert_eq!(t["code"], 0, "a fresh ticket for the player's stream: {t}");
    assert_eq!(t["data"]["streamUrl"], "ws://127.0.0.1:1/h");
    let s = state(&mut b).await;
    assert_eq!((s["id"].clone(), s["status"].as_i64()), (b_id.clone(), Some(3)), "still ready: {s}");
    let (_, r) = b.post("/api/japi/yoo/game/confirmConnect", json!({"id": b_id})).await;
    assert_eq!(r["code"], 0, "{r}");
    let next = host.next().await;
    assert!(
        matches!(next, Some(PlatformMsg::Launch { slot: 1, session_id, .. }) if session_id == b_id.as_i64().unwrap()),
        "the first word to the host launches the ready player's game on their slot, nothing was ended: {next:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
