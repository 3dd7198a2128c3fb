//! Several `yoo-server` processes as one cluster (`[cluster]`): each on the shared PostgreSQL
//! store and a Redis of the test's own, each showing in `/metrics` which processes are live; a
//! process killed with `-9` drops out once its heartbeat's TTL has passed, one stopped cleanly
//! at once.

use crate::common;
use crate::crash::{on_postgres, spawn, write_config_with, Proc};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cluster::testing::RedisServer;
use common::{code, get_text, temp_dir, Client};
use serde_json::json;
use storage::testing::{Fresh, FreshPostgres};

/// The heartbeat's TTL in these tests (renewed every 200 ms).
const TTL_MS: u64 = 600;

/// The operator token of these tests' servers.
const OPERATOR_TOKEN: &str = "a-cluster-operator-token";

fn cluster_config(dir: &Path, pg: &str, redis: &RedisServer, process: &str) -> PathBuf {
    let config = on_postgres(&write_config_with(dir, r#"machines = ["m1"]"#), pg);
    let text = std::fs::read_to_string(&config).unwrap();
    // top-level keys go before the first table
    let token = format!(
        "operator_token_sha256 = \"{}\"\n",
        actors::accounts::passport::secret_hash(OPERATOR_TOKEN)
    );
    std::fs::write(
        &config,
        format!(
            "{token}{text}[cluster]\nredis_url = \"{}\"\nprocess_id = \"{process}\"\nlease_ttl_ms = {TTL_MS}\n",
            redis.url()
        ),
    )
    .unwrap();
    config
}

/// A gauge's value in a `/metrics` text (the line `name value`, labels included in `name`).
fn gauge(metrics: &str, name: &str) -> Option<f64> {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
        .and_then(|v| v.trim().parse().ok())
}

/// Waits (bounded) until `addr`'s `/metrics` satisfies `want`; answers the last text.
async fn metrics_until(addr: std::net::SocketAddr, within: Duration, want: impl Fn(&str) -> bool) -> String {
    let started = Instant::now();
    loop {
        let text = get_text(&format!("http://{addr}/metrics")).await;
        if want(&text) {
            return text;
        }
        assert!(
            started.elapsed() < within,
            "not within {within:?}; /metrics of {addr}:\n{}",
            cluster_lines(&text)
        );
        actix_rt::time::sleep(Duration::from_millis(50)).await;
    }
}

fn cluster_lines(text: &str) -> String {
    text.lines().filter(|l| l.starts_with("yoo_cluster")).collect::<Vec<_>>().join("\n")
}

#[actix_rt::test]
async fn every_process_shows_the_live_processes_and_a_killed_one_drops_out() {
    let redis = RedisServer::start();
    let db = FreshPostgres::new("cluster_members");
    let dir = temp_dir("cluster-members");
    let mut procs: Vec<(Proc, std::net::SocketAddr)> = ["p1", "p2", "p3"]
        .iter()
        .map(|p| spawn(&cluster_config(&dir.join(p), db.url(), &redis, p)))
        .collect();
    let within = Duration::from_millis(TTL_MS * 5);
    for (_, addr) in &procs {
        let text = metrics_until(*addr, within, |t| gauge(t, "yoo_cluster_processes") == Some(3.0)).await;
        for p in ["p1", "p2", "p3"] {
            assert_eq!(
                gauge(&text, &format!("yoo_cluster_process_up{{process=\"{p}\"}}")),
                Some(1.0),
                "{p} up"
            );
        }
    }
    let p1 = procs[0].1;

    // kill -9: no goodbye; gone from the others' view once its heartbeat expires
    let (killed, _) = procs.pop().unwrap();
    let at = Instant::now();
    drop(killed);
    let text = metrics_until(p1, within, |t| gauge(t, "yoo_cluster_processes") == Some(2.0)).await;
    assert!(at.elapsed() >= Duration::from_millis(TTL_MS / 2), "not before its key could expire");
    assert_eq!(gauge(&text, "yoo_cluster_process_up{process=\"p3\"}"), Some(0.0));

    // a clean stop (SIGTERM) leaves at once
    let (stopped, _) = procs.pop().unwrap();
    let ok = std::process::Command::new("kill")
        .arg(stopped.0.id().to_string())
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let text = metrics_until(p1, within, |t| gauge(t, "yoo_cluster_processes") == Some(1.0)).await;
    assert_eq!(gauge(&text, "yoo_cluster_process_up{process=\"p2\"}"), Some(0.0));
    assert_eq!(gauge(&text, "yoo_cluster_process_up{process=\"p1\"}"), Some(1.0));
    drop(stopped);
    let _ = std::fs::remove_dir_all(dir);
}

/// A login that ends on one process ends on every other at once, though they remembered it
/// (each trusts a session it read for 10 s): a logout on p1 refuses the same cookie on p2 at
/// its next call; an operator's ban on p2 ends the login p1 remembered, saying why.
#[actix_rt::test]
async fn a_logout_or_a_ban_on_one_process_reaches_every_other_at_once() {
    let redis = RedisServer::start();
    let db = FreshPostgres::new("cluster_logins");
    let dir = temp_dir("cluster-logins");
    let (_p1, a1) = spawn(&cluster_config(&dir.join("p1"), db.url(), &redis, "p1"));
    let (_p2, a2) = spawn(&cluster_config(&dir.join("p2"), db.url(), &redis, "p2"));
    for addr in [a1, a2] {
        metrics_until(addr, Duration::from_secs(5), |t| gauge(t, "yoo_cluster_processes") == Some(2.0)).await;
    }

    // logged in on p1; p2 serves the same cookie (and now remembers the session)
    let mut on_p1 = Client::new(a1, "dev-a");
    on_p1.login("13700000001").await;
    let mut on_p2 = Client::new(a2, "dev-a");
    on_p2.cookies = on_p1.cookies.clone();
    for c in [&mut on_p1, &mut on_p2] {
        let (_, me) = c.get("/api/user/profile").await;
        assert_eq!(code(&me), 0, "{me}");
    }
    let (_, out) = on_p1.post("/api/user/logout", json!({})).await;
    assert_eq!(code(&out), 0, "{out}");
    // the announcement crosses Redis while the answer comes back: bounded, not slept (p2
    // would serve the session from its memory for 10 s without it)
    let started = Instant::now();
    while code(&on_p2.get("/api/user/profile").await.1) == 0 {
        assert!(started.elapsed() < Duration::from_secs(2), "p2 still serves the login p1 ended");
        actix_rt::time::sleep(Duration::from_millis(20)).await;
    }

    // logged in again on p2, remembered by p1; banned through p2's operator route
    let mut b2 = Client::new(a2, "dev-b");
    b2.login("13700000002").await;
    let mut b1 = Client::new(a1, "dev-b");
    b1.cookies = b2.cookies.clone();
    let (_, me) = b1.get("/api/user/profile").await;
    assert_eq!(code(&me), 0, "{me}");
    let mut resp = awc::Client::default()
        .post(format!("http://{a2}/api/ops/account"))
        .insert_header(("x-skip-csrf", "true"))
        .insert_header(("x-operator-token", OPERATOR_TOKEN))
        .send_json(&json!({"cellphone": "13700000002", "action": "ban", "reason": "使用外挂"}))
        .await
        .unwrap();
    let banned: serde_json::Value = serde_json::from_slice(&resp.body().await.unwrap()).unwrap();
    assert_eq!(code(&banned), 0, "{banned}");
    let started = Instant::now();
    loop {
        let (_, me) = b1.get("/api/user/profile").await;
        if code(&me) == 20101 {
            assert_eq!(me["data"]["values"]["reason"], "使用外挂", "{me}");
            break;
        }
        assert_eq!(code(&me), 0, "{me}");
        assert!(started.elapsed() < Duration::from_secs(2), "p1 still serves the banned login");
        actix_rt::time::sleep(Duration::from_millis(20)).await;
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A socket token fetched from one process opens a socket on another (the front door spreads a
/// client's calls without sticky sessions), once: the same token is refused after, on either.
#[actix_rt::test]
async fn a_socket_token_from_one_process_opens_a_socket_on_another_once() {
    let redis = RedisServer::start();
    let db = FreshPostgres::new("cluster_tokens");
    let dir = temp_dir("cluster-tokens");
    let (_p1, a1) = spawn(&cluster_config(&dir.join("p1"), db.url(), &redis, "p1"));
    let (_p2, a2) = spawn(&cluster_config(&dir.join("p2"), db.url(), &redis, "p2"));
    let mut c = Client::new(a1, "dev-a");
    c.login("13700000003").await;
    let token = c.socket_token().await;
    let mut socket = Client::socket_at(&format!("http://{a2}"), &token)
        .await
        .expect("p2 redeems p1's token");
    // a live socket of the protocol: the player's state first, then it answers a ping
    assert_eq!(socket.next_state(5).await["hasGameOnline"], false);
    socket.ping().await;
    let pong = socket.next(5).await;
    assert_eq!(pong.r#type, facade::proto::MessageType::Pong as i32);
    for base in [format!("http://{a2}"), format!("http://{a1}")] {
        assert!(Client::socket_at(&base, &token).await.is_none(), "a token opens one socket");
    }
    assert!(Client::socket_at(&format!("http://{a2}"), "not-a-token").await.is_none());
    let _ = std::fs::remove_dir_all(dir);
}

/// The security checks count across processes: three wrong passwords of one phone, one on each
/// of three processes, open the check on all of them (three processes alone would each allow
/// three); as do three code requests from one address when its threshold is two.
#[actix_rt::test]
async fn three_processes_do_not_triple_a_security_threshold() {
    let redis = RedisServer::start();
    let db = FreshPostgres::new("cluster_limits");
    let dir = temp_dir("cluster-limits");
    let procs: Vec<(Proc, std::net::SocketAddr)> = ["p1", "p2", "p3"]
        .iter()
        .map(|p| {
            let config = cluster_config(&dir.join(p), db.url(), &redis, p);
            // the code requests' threshold on (the shared test configuration turns it off)
            let text = std::fs::read_to_string(&config)
                .unwrap()
                .replace("captcha_ip_per_hour = 0", "captcha_ip_per_hour = 2");
            std::fs::write(&config, text).unwrap();
            spawn(&config)
        })
        .collect();
    let wrong = json!({"user_name": "13700000004", "password": "d3Jvbmch", "device_no": "pw"});
    for (_, addr) in &procs {
        let (_, r) = Client::new(*addr, "guest")
            .post("/api/passport/password/login", wrong.clone())
            .await;
        assert_eq!(code(&r), 20120, "a wrong password, counted: {r}");
    }
    for (_, addr) in &procs {
        let (_, r) = Client::new(*addr, "guest")
            .post("/api/passport/password/login", wrong.clone())
            .await;
        assert_eq!(code(&r), 20125, "the check is open on every process: {r}");
    }
    // SMS codes from one address (127.0.0.1): two requests pass (on two processes), the third
    // needs the check, on the third process
    for (i, (_, addr)) in procs[..2].iter().enumerate() {
        let (_, r) = Client::new(*addr, "guest")
            .post("/api/passport/login/sendcode", json!({"phone": format!("1370000001{i}")}))
            .await;
        assert_eq!(code(&r), 0, "{r}");
    }
    let (_, r) = Client::new(procs[2].1, "guest")
        .post("/api/passport/login/sendcode", json!({"phone": "13700000012"}))
        .await;
    assert_eq!(code(&r), 20125, "the third request, on the third process: {r}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The cluster's store, read by the test (the synchronous client runs off the test's runtime;
/// drop it there too).
async fn open_store(url: &str) -> storage::Store {
    let url = url.to_owned();
    tokio::task::spawn_blocking(move || storage::Store::open_postgres(&url, 2).unwrap())
        .await
        .unwrap()
}

/// Players of these phones logged in on `addr`, each starting game 1 on node 1 there, in order.
async fn started_on(addr: std::net::SocketAddr, phones: &[&str]) -> Vec<Client> {
    started_on_node(addr, phones, 1).await
}

/// Players of these phones logged in on `addr`, each starting game 1 on `node` there, in order.
async fn started_on_node(addr: std::net::SocketAddr, phones: &[&str], node: i64) -> Vec<Client> {
    let mut players = vec![];
    for (i, phone) in phones.iter().enumerate() {
        let mut c = Client::new(addr, &format!("dev-{i}"));
        c.login(phone).await;
        let (_, r) = c
            .post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": node, "nodeDelay": "[]"}))
            .await;
        assert_eq!(code(&r), 0, "started (forwarded to the owner when not owned here): {r}");
        players.push(c);
    }
    players
}

/// The player's game state as floatBall answers it (through `c`'s process).
async fn float_ball(c: &mut Client) -> serde_json::Value {
    let (_, r) = c.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(code(&r), 0, "{r}");
    r["data"].clone()
}

/// The process that owns node 1's queue now, as the store's latest claim says, and its epoch.
async fn queue_owner(store: &storage::Store) -> Option<(String, i64)> {
    let store = store.clone();
    tokio::task::spawn_blocking(move || store.ownership.get("queue:1").unwrap().map(|o| (o.owner, o.epoch)))
        .await
        .unwrap()
}

/// Waits (bounded) until node 1's queue is owned by one of `among`, and that process says so.
async fn owned_by_one_of(
    store: &storage::Store,
    procs: &[(&str, std::net::SocketAddr)],
    within: Duration,
) -> (String, i64, std::net::SocketAddr) {
    let started = Instant::now();
    loop {
        if let Some((owner, epoch)) = queue_owner(store).await {
            if let Some((_, addr)) = procs.iter().find(|(p, _)| *p == owner) {
                let text = get_text(&format!("http://{addr}/metrics")).await;
                if gauge(&text, "yoo_cluster_leases_held") == Some(1.0) {
                    return (owner, epoch, *addr);
                }
            }
        }
        assert!(
            started.elapsed() < within,
            "node 1's queue not owned by one of {procs:?} within {within:?}"
        );
        actix_rt::time::sleep(Duration::from_millis(25)).await;
    }
}

/// One process owns node 1's queue; the other forwards the players' calls to it and carries
/// its pushes to the sockets it holds. Killed with `-9`, the owner is replaced within 5 s by
/// the survivor, which restores the queue from the store: the READY player keeps their machine
/// and its countdown less the gap, the waiting ones their order, and the calls go on (answered
/// by the new owner, under the next epoch).
#[actix_rt::test]
async fn a_node_queue_has_one_owner_and_a_killed_owner_is_replaced_within_5_s() {
    let redis = RedisServer::start();
    let db = FreshPostgres::new("cluster_queue");
    let dir = temp_dir("cluster-queue");
    let store = open_store(db.url()).await;
    let mut p1 = Some(spawn(&cluster_config(&dir.join("p1"), db.url(), &redis, "p1")));
    let mut p2 = Some(spawn(&cluster_config(&dir.join("p2"), db.url(), &redis, "p2")));
    let (a1, a2) = (p1.as_ref().unwrap().1, p2.as_ref().unwrap().1);
    let procs = [("p1", a1), ("p2", a2)];
    let (owner, epoch, owner_addr) = owned_by_one_of(&store, &procs, Duration::from_secs(5)).await;
    let other = if owner_addr == a1 { a2 } else { a1 };
    // the other process holds no queue
    let text = get_text(&format!("http://{other}/metrics")).await;
    assert_ne!(gauge(&text, "yoo_cluster_leases_held"), Some(1.0), "one owner");

    // three players, every call through the process that does not own the queue
    let mut players = started_on(other, &["13700000011", "13700000012", "13700000013"]).await;
    // a call right after a forwarded start, by the actor of this process that knew no session
    // (its state was read before the start): it reads the store again and is forwarded
    let mut late = Client::new(other, "dev-late");
    late.login("13700000019").await;
    assert_eq!(float_ball(&mut late).await["hasGameOnline"], false);
    let (_, r) = late
        .post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1, "nodeDelay": "[]"}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let (_, r) = late.post("/api/japi/yoo/game/cancelQue", json!({"id": r["data"]["id"]})).await;
    assert_eq!(code(&r), 0, "a cancel through the process that did not start it: {r}");
    let first = float_ball(&mut players[0]).await;
    assert_eq!(first["status"], 3, "the one machine is the first player's: {first}");
    let (s1, s2) = (float_ball(&mut players[1]).await, float_ball(&mut players[2]).await);
    assert_eq!((s1["status"].clone(), s1["sort"].clone()), (json!(1), json!(1)), "{s1}");
    assert_eq!((s2["status"].clone(), s2["sort"].clone()), (json!(1), json!(2)), "{s2}");
    // the second player's socket is on the process that does not own the queue: the owner's
    // push reaches it when the first player gives the machine up
    let token = players[1].socket_token().await;
    let mut socket = Client::socket_at(&format!("http://{other}"), &token).await.expect("socket");
    assert_eq!(socket.next_state(5).await["status"], 1);
    let (_, r) = players[0]
        .post("/api/japi/yoo/game/cancelConfirm", json!({"id": first["id"]}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let ready = socket.wait_state(5, |s| s["status"] == 3).await;
    assert_eq!(ready["id"], s1["id"], "READY pushed across processes: {ready}");
    let s2 = float_ball(&mut players[2]).await;
    assert_eq!(s2["sort"], 1, "{s2}");
    let before = float_ball(&mut players[1]).await;

    // kill -9 the owner: the survivor takes the queue within 5 s (TTL included)
    let killed_at = Instant::now();
    if owner == "p1" {
        drop(p1.take());
    } else {
        drop(p2.take());
    }
    let survivor = [("p1", a1), ("p2", a2)]
        .into_iter()
        .filter(|(p, _)| *p != owner)
        .collect::<Vec<_>>();
    let (new_owner, new_epoch, _) = owned_by_one_of(&store, &survivor, Duration::from_secs(5)).await;
    assert_ne!(new_owner, owner);
    assert!(new_epoch > epoch, "a new epoch: {new_epoch} after {epoch}");
    // and it serves: the READY player keeps the machine and the countdown less the gap
    let again;
    loop {
        let (_, r) = players[1].post("/api/japi/yoo/game/floatBall", json!({})).await;
        if code(&r) == 0 {
            again = r["data"].clone();
            break;
        }
        assert_eq!(code(&r), 50000, "a refusal with the retry code while no one owns it: {r}");
        assert!(killed_at.elapsed() < Duration::from_secs(5), "not served again within 5 s: {r}");
        actix_rt::time::sleep(Duration::from_millis(50)).await;
    }
    let failover = killed_at.elapsed();
    assert!(failover < Duration::from_secs(5), "served again after {failover:?}");
    assert_eq!(
        (again["id"].clone(), again["status"].clone()),
        (before["id"].clone(), json!(3)),
        "{again}"
    );
    let (was, left) = (crate::crash::remaining(&before), crate::crash::remaining(&again));
    assert!(
        left < was && left > was - 10.0,
        "the countdown went on through the gap: {left} after {was}"
    );
    let s2 = float_ball(&mut players[2]).await;
    assert_eq!(
        (s2["status"].clone(), s2["sort"].clone()),
        (json!(1), json!(1)),
        "kept its place: {s2}"
    );
    // the READY player confirms through the new owner
    let (_, r) = players[1]
        .post("/api/japi/yoo/game/confirmConnect", json!({"id": again["id"]}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    tokio::task::spawn_blocking(move || drop(store)).await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

/// Sends `signal` (`STOP`, `CONT`) to a process.
fn signal(proc: &Proc, signal: &str) {
    let ok = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &proc.0.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{signal}");
}

/// The owner of node 1's queue paused with SIGSTOP past its lease: the other process takes
/// the queue under the next epoch, and the READY player confirms there and plays. Resumed
/// after the READY countdown would have lapsed, the old owner's session actor wakes to that
/// lapse and would end the game as missed; its write carries the old epoch and is refused, and
/// the old owner stops its queue (its lease is gone). The game plays on.
#[actix_rt::test]
async fn an_owner_paused_past_its_lease_writes_nothing_when_it_wakes() {
    let redis = RedisServer::start();
    let db = FreshPostgres::new("cluster_paused");
    let dir = temp_dir("cluster-paused");
    let store = open_store(db.url()).await;
    const COUNTDOWN_SECS: u64 = 2;
    let config = |p: &str| {
        let path = cluster_config(&dir.join(p), db.url(), &redis, p);
        let text = std::fs::read_to_string(&path).unwrap();
        let text = text.replace("connect_countdown_secs = 60", &format!("connect_countdown_secs = {COUNTDOWN_SECS}"));
        std::fs::write(&path, text).unwrap();
        path
    };
    let procs = [spawn(&config("p1")), spawn(&config("p2"))];
    let named = [("p1", procs[0].1), ("p2", procs[1].1)];
    let (owner, epoch, owner_addr) = owned_by_one_of(&store, &named, Duration::from_secs(5)).await;
    let (paused, other) = if owner == "p1" {
        (&procs[0].0, procs[1].1)
    } else {
        (&procs[1].0, procs[0].1)
    };
    let survivor: Vec<_> = named.iter().copied().filter(|(p, _)| *p != owner).collect();

    let mut a = Client::new(other, "dev-a");
    a.login("13700000021").await;
    let (_, r) = a
        .post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1, "nodeDelay": "[]"}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let ready_at = Instant::now();
    let ready = float_ball(&mut a).await;
    assert_eq!(ready["status"], 3, "{ready}");

    signal(paused, "STOP");
    let (new_owner, new_epoch, _) = owned_by_one_of(&store, &survivor, Duration::from_secs(5)).await;
    assert!(new_owner != owner && new_epoch > epoch, "taken under a new epoch");
    // confirmed on the new owner, and playing
    let mut confirmed = false;
    let started = Instant::now();
    while !confirmed {
        let (_, r) = a.post("/api/japi/yoo/game/confirmConnect", json!({"id": ready["id"]})).await;
        confirmed = code(&r) == 0;
        assert!(confirmed || code(&r) == 50000, "{r}");
        assert!(started.elapsed() < Duration::from_secs(5), "{r}");
    }
    let started = Instant::now();
    loop {
        let s = float_ball(&mut a).await;
        assert_eq!(s["id"], ready["id"], "{s}");
        if s["status"] == 5 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "not playing: {s}");
        actix_rt::time::sleep(Duration::from_millis(50)).await;
    }

    // resumed once its own READY countdown is overdue
    let overdue = Duration::from_secs(COUNTDOWN_SECS) + Duration::from_millis(500);
    if let Some(rest) = overdue.checked_sub(ready_at.elapsed()) {
        actix_rt::time::sleep(rest).await;
    }
    signal(paused, "CONT");
    // it finds its lease gone and stops its queue (bounded)
    metrics_until(owner_addr, Duration::from_secs(3), |t| {
        gauge(t, "yoo_cluster_leases_held") == Some(0.0)
    })
    .await;
    actix_rt::time::sleep(Duration::from_millis(300)).await;
    // (whether its session actor tried before it was stopped is a race; when it did, the
    // store refused it: `yoo_store_fenced_total`)
    let text = get_text(&format!("http://{owner_addr}/metrics")).await;
    eprintln!("the woken owner's refused writes: {:?}", gauge(&text, "yoo_store_fenced_total"));
    // the game plays on: the store, the new owner and the old one (which forwards) all say so
    let id = ready["id"].as_i64().unwrap();
    let s = store.clone();
    let row = tokio::task::spawn_blocking(move || s.sessions.get(id).unwrap().unwrap())
        .await
        .unwrap();
    assert_eq!((row.status, row.ended_at, row.end_reason.clone()), (5, None, None), "{row:?}");
    for addr in [other, owner_addr] {
        let mut c = Client::new(addr, "dev-a");
        c.cookies = a.cookies.clone();
        let s = float_ball(&mut c).await;
        assert_eq!(
            (s["id"].clone(), s["status"].clone()),
            (ready["id"].clone(), json!(5)),
            "via {addr}: {s}"
        );
    }
    tokio::task::spawn_blocking(move || drop(store)).await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Redis restarted (it keeps nothing): every lease is gone, the owner stops its queue at its
/// next renewal, and a process takes the queue again under the next epoch, restored from the
/// store: the waiting players keep their order, and the pushes cross the processes again (the
/// bus subscribes again and the processes tell each other their sockets anew).
#[actix_rt::test]
async fn a_redis_restart_loses_no_place_and_the_queue_is_owned_again() {
    let mut redis = RedisServer::start();
    let db = FreshPostgres::new("cluster_redis_restart");
    let dir = temp_dir("cluster-redis-restart");
    let store = open_store(db.url()).await;
    let procs = [
        spawn(&cluster_config(&dir.join("p1"), db.url(), &redis, "p1")),
        spawn(&cluster_config(&dir.join("p2"), db.url(), &redis, "p2")),
    ];
    let named = [("p1", procs[0].1), ("p2", procs[1].1)];
    let (_, epoch, owner_addr) = owned_by_one_of(&store, &named, Duration::from_secs(5)).await;
    let other = if owner_addr == named[0].1 { named[1].1 } else { named[0].1 };
    let mut players = started_on(other, &["13700000031", "13700000032", "13700000033"]).await;
    let before: Vec<serde_json::Value> = {
        let mut v = vec![];
        for p in &mut players {
            v.push(float_ball(p).await);
        }
        v
    };

    redis.restart();
    let started = Instant::now();
    let (_, new_epoch, _) = loop {
        let owned = owned_by_one_of(&store, &named, Duration::from_secs(10)).await;
        if owned.1 > epoch {
            break owned;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "not claimed again");
        actix_rt::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(new_epoch > epoch);
    // every player as before, through either process, once the owner serves
    for (p, was) in players.iter_mut().zip(&before) {
        let now = loop {
            let (_, r) = p.post("/api/japi/yoo/game/floatBall", json!({})).await;
            if code(&r) == 0 {
                break r["data"].clone();
            }
            assert_eq!(code(&r), 50000, "{r}");
            assert!(started.elapsed() < Duration::from_secs(10), "{r}");
            actix_rt::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(
            (now["id"].clone(), now["status"].clone(), now["sort"].clone()),
            (was["id"].clone(), was["status"].clone(), was["sort"].clone()),
            "{now} after {was}"
        );
    }
    // a push crosses the processes again: the second player's socket on the process that does
    // not own the queue (whichever that is now) hears READY when the first gives the machine up
    let owner_now = owned_by_one_of(&store, &named, Duration::from_secs(1)).await.2;
    let not_owner = if owner_now == named[0].1 { named[1].1 } else { named[0].1 };
    let token = players[1].socket_token().await;
    let mut socket = Client::socket_at(&format!("http://{not_owner}"), &token).await.expect("socket");
    assert_eq!(socket.next_state(5).await["status"], 1);
    let (_, r) = players[0]
        .post("/api/japi/yoo/game/cancelConfirm", json!({"id": before[0]["id"]}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let ready = socket.wait_state(5, |s| s["status"] == 3).await;
    assert_eq!(ready["id"], before[1]["id"]);
    tokio::task::spawn_blocking(move || drop(store)).await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A code one process sent logs in on another (the front door spreads a player's calls): the
/// code's stored hash is keyed by the site's key, the same in every process, and the sandbox's
/// outbox, the tester's phone, shows the message on every process.
#[actix_rt::test]
async fn a_code_sent_by_one_process_logs_in_on_another() {
    let redis = RedisServer::start();
    let db = FreshPostgres::new("cluster_codes");
    let dir = temp_dir("cluster-codes");
    let (_p1, a1) = spawn(&cluster_config(&dir.join("p1"), db.url(), &redis, "p1"));
    let (_p2, a2) = spawn(&cluster_config(&dir.join("p2"), db.url(), &redis, "p2"));
    let phone = "13700000041";
    let mut on_p1 = Client::new(a1, "dev-a");
    let (_, r) = on_p1.post("/api/passport/login/sendcode", json!({"phone": phone})).await;
    assert_eq!(code(&r), 0, "{r}");
    let mut on_p2 = Client::new(a2, "dev-a");
    on_p2.cookies = on_p1.cookies.clone();
    let started = Instant::now();
    let sent = loop {
        let (_, outbox) = on_p2.get(&format!("/api/dev/sms/outbox?phone={phone}")).await;
        if let Some(c) = outbox["data"][0]["code"].as_str() {
            break c.to_owned();
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "p2's outbox never showed p1's message: {outbox}"
        );
        actix_rt::time::sleep(Duration::from_millis(10)).await;
    };
    let (_, r) = on_p2
        .post(
            "/api/passport/login",
            json!({"cellphone": phone, "code": sent, "device_no": "dev-a"}),
        )
        .await;
    assert_eq!(code(&r), 0, "p2 checks the code p1 sent: {r}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The first process up takes every node queue; once a second joins, the first gives back what
/// is over its share (the nodes over the live processes) and the second takes it: each owns one
/// of the two nodes, and a player waiting on the moved node keeps their place.
#[actix_rt::test]
async fn the_node_queues_are_shared_out_when_a_process_joins() {
    let redis = RedisServer::start();
    let db = FreshPostgres::new("cluster_share");
    let dir = temp_dir("cluster-share");
    let store = open_store(db.url()).await;
    let config = |p: &str| {
        let path = cluster_config(&dir.join(p), db.url(), &redis, p);
        let text = std::fs::read_to_string(&path).unwrap();
        let second = "[[nodes]]\nid = 2\nname = \"测试二区\"\nstatus = 1\nmachines = [\"n2\"]\n";
        // the second node goes with the first, before [storage]
        let text = text.replacen("[storage]", &format!("{second}[storage]"), 1);
        std::fs::write(&path, text).unwrap();
        path
    };
    let held = |text: &str| gauge(text, "yoo_cluster_leases_held").unwrap_or(0.0);
    let (_p1, a1) = spawn(&config("p1"));
    metrics_until(a1, Duration::from_secs(5), |t| held(t) == 2.0).await;
    // two players on node 2: one plays on its machine, one waits
    let mut players = started_on_node(a1, &["13700000051", "13700000052"], 2).await;
    let before = float_ball(&mut players[1]).await;
    assert_eq!((before["status"].clone(), before["sort"].clone()), (json!(1), json!(1)), "{before}");

    let (_p2, a2) = spawn(&config("p2"));
    let text = metrics_until(a2, Duration::from_secs(10), |t| held(t) == 1.0).await;
    assert_eq!(held(&text), 1.0);
    let text = metrics_until(a1, Duration::from_secs(2), |t| held(t) == 1.0).await;
    assert_eq!(gauge(&text, "yoo_cluster_leases_shed_total"), Some(1.0), "one given back");
    let s = store.clone();
    let owners = tokio::task::spawn_blocking(move || ["queue:1", "queue:2"].map(|n| s.ownership.get(n).unwrap().unwrap().owner))
        .await
        .unwrap();
    assert_ne!(owners[0], owners[1], "one node each: {owners:?}");
    let mut again = None;
    let started = Instant::now();
    while again.is_none() {
        let (_, r) = players[1].post("/api/japi/yoo/game/floatBall", json!({})).await;
        if code(&r) == 0 {
            again = Some(r["data"].clone());
        }
        assert!(started.elapsed() < Duration::from_secs(5), "{r}");
    }
    let again = again.unwrap();
    assert_eq!(
        (again["id"].clone(), again["sort"].clone()),
        (before["id"].clone(), json!(1)),
        "{again}"
    );

    // one player's first start on node 1 through p1 and on node 2 through p2 at the same moment
    // (each node owned by another process): one starts, the other is refused as a conflict
    let mut via1 = Client::new(a1, "dev-x");
    via1.login("13700000059").await;
    let mut via2 = Client::new(a2, "dev-x");
    via2.cookies = via1.cookies.clone();
    let (r1, r2) = futures_util::join!(
        via1.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1, "nodeDelay": "[]"})),
        via2.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 2, "nodeDelay": "[]"})),
    );
    let codes = [code(&r1.1), code(&r2.1)];
    assert!(
        codes.contains(&0) && codes.iter().any(|c| ![0, 50000].contains(c)),
        "{:?}",
        (r1.1, r2.1)
    );
    let s = store.clone();
    let uid = tokio::task::spawn_blocking(move || s.users.find_by_phone("13700000059").unwrap().unwrap().uid)
        .await
        .unwrap();
    let s = store.clone();
    let open = tokio::task::spawn_blocking(move || s.sessions.list_by_user(uid, 10).unwrap())
        .await
        .unwrap();
    assert_eq!(open.iter().filter(|r| r.ended_at.is_none()).count(), 1, "{open:?}");
    tokio::task::spawn_blocking(move || drop(store)).await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
