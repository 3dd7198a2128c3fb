//! The game hosts' link over a real WebSocket against a real server: a test host written here
//! speaks `hostlink` (hello, heartbeats, slot reports, first frames, exits) as `yoo-gamehost`
//! does, and players drive the REST calls and their socket as the browser does.

use crate::common;

use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use actix_web::web::Bytes;
use awc::ws::{Frame, Message};
use common::{code, temp_dir, Client, Socket};
use facade::config::ServerConfig;
use facade::proto::{MessageType, Notification};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use hostlink::{Hello, HostMsg, LinkRefusal, PlatformMsg, Role, SlotPhase, SlotReport, Ticket, LINK_VERSION};
use parking_lot::Mutex;
use prost::Message as _;
use serde_json::{json, Value};

pub(crate) const SECRET: &str = "test-host-secret-node-1";

fn config(dir: &std::path::Path) -> ServerConfig {
    ServerConfig::parse(&format!(
        r#"
mode = "dev"
bind = "127.0.0.1:0"
data_dir = "{}"
frontend_dir = "/nonexistent"
workers = 1
[sms]
resend_secs = 0
captcha_phone_per_hour = 0
captcha_ip_per_hour = 0
[game]
connect_countdown_secs = 60
connect_delay_ms = 50
sms_fail_numbers = []
[[nodes]]
id = 1
name = "测试一区"
status = 1
host_secret = "{SECRET}"
[[nodes]]
id = 2
name = "无主机区"
status = 1
machines = ["s-01"]
"#,
        dir.display()
    ))
    .unwrap()
}

async fn server(name: &str) -> (facade::Running, std::path::PathBuf) {
    let dir = temp_dir(name);
    (facade::start(config(&dir)).await.unwrap(), dir)
}

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

type Framed = actix_codec::Framed<awc::BoxedSocket, awc::ws::Codec>;

/// The host's side of a link, as `yoo-gamehost` would run it: it reports its slots, heartbeats
/// every `HEARTBEAT_MS` with their states while `beating`, and keeps what the platform says.
pub(crate) struct TestHost {
    /// The link's writing half, shared with the heartbeat task (both on the test's thread).
    out: Rc<tokio::sync::Mutex<SplitSink<Framed, Message>>>,
    input: SplitStream<Framed>,
    slots: Arc<Mutex<Vec<SlotReport>>>,
    beating: Arc<std::sync::atomic::AtomicBool>,
}

/// Waits until the platform has taken in the host's report of `slot` (its host table says
/// `state`): what a test observes before asserting that something did not happen.
async fn taken_in(srv: &facade::Running, host: &str, slot: u32, state: actors::play::hosts::SlotState) {
    for _ in 0..1000 {
        if srv.platform.play.host_slot(1, host, slot).map(|(s, _)| s) == Some(state) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the platform never took in {host}/{slot} as {state:?}");
}

pub(crate) fn slot(slot: u32, phase: SlotPhase, session_id: Option<i64>) -> SlotReport {
    SlotReport { slot, phase, session_id }
}

pub(crate) fn hello(name: &str, node_id: i64, secret: &str, ts_ms: i64, slots: Vec<SlotReport>) -> Hello {
    Hello {
        version: LINK_VERSION,
        node_id,
        host: name.into(),
        ts_ms,
        mac: String::new(),
        stream_url: format!("ws://127.0.0.1:1/{name}"),
        ping_url: format!("http://127.0.0.1:1/{name}/ping"),
        games: ["neverball", "supertux", "ltris", "pattern"].map(String::from).to_vec(),
        slots,
    }
    .sign(secret.as_bytes())
}

/// Opens a link and sends `hello`; returns the host and the platform's first answer.
pub(crate) async fn connect(addr: std::net::SocketAddr, hello: Hello) -> (TestHost, Option<PlatformMsg>) {
    let (_, framed) = awc::Client::default()
        .ws(format!("http://{addr}/api/host/link"))
        .connect()
        .await
        .expect("the link opens");
    let (out, input) = framed.split();
    let slots = Arc::new(Mutex::new(hello.slots.clone()));
    let mut host = TestHost {
        out: Rc::new(tokio::sync::Mutex::new(out)),
        input,
        slots,
        beating: Arc::new(std::sync::atomic::AtomicBool::new(true)),
    };
    host.say(&HostMsg::Hello(hello)).await;
    let answer = host.next().await;
    if matches!(answer, Some(PlatformMsg::Welcome { .. })) {
        host.heartbeats();
    }
    (host, answer)
}

impl TestHost {
    pub(crate) async fn say(&self, msg: &HostMsg) {
        self.out
            .lock()
            .await
            .send(Message::Text(msg.to_json().into()))
            .await
            .expect("the link is open");
    }

    /// Heartbeats every HEARTBEAT_MS while `beating` and the link is open.
    fn heartbeats(&self) {
        let (out, slots, beating) = (self.out.clone(), self.slots.clone(), self.beating.clone());
        actix_rt::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(hostlink::HEARTBEAT_MS)).await;
                if !beating.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                let beat = HostMsg::Heartbeat {
                    slots: slots.lock().clone(),
                }
                .to_json();
                if out.lock().await.send(Message::Text(beat.into())).await.is_err() {
                    return;
                }
            }
        });
    }

    /// Reports a slot's new state (and heartbeats it from now on).
    pub(crate) async fn report(&self, r: SlotReport) {
        if let Some(s) = self.slots.lock().iter_mut().find(|s| s.slot == r.slot) {
            *s = r.clone();
        }
        self.say(&HostMsg::Slot(r)).await;
    }

    /// The platform's next message; None when the link closed.
    pub(crate) async fn next(&mut self) -> Option<PlatformMsg> {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.input.next())
                .await
                .expect("a frame in time");
            match frame {
                Some(Ok(Frame::Text(t))) => return Some(serde_json::from_slice(&t).expect("a platform message")),
                Some(Ok(Frame::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Whether the platform closes the link within `secs`.
    async fn closed_within(&mut self, secs: u64) -> bool {
        tokio::time::timeout(Duration::from_secs(secs), async {
            loop {
                match self.input.next().await {
                    Some(Ok(Frame::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => continue,
                }
            }
        })
        .await
        .is_ok()
    }
}

async fn player(addr: std::net::SocketAddr, phone: &str, device: &str) -> (Client, Socket) {
    let mut c = Client::new(addr, device);
    c.login(phone).await;
    let s = c.socket().await;
    (c, s)
}

/// The next notification with `code` on a player's socket.
async fn notice(s: &mut Socket, code: i32) -> Value {
    loop {
        let env = s.next(10).await;
        if env.r#type == MessageType::Notification as i32 {
            let n = Notification::decode(Bytes::from(env.content)).unwrap();
            if n.code == code {
                return serde_json::from_str(&n.data).unwrap();
            }
        }
    }
}

/// A host links (its probe becomes the node's pingUrl); its free slot goes to a player, whose
/// confirm launches the catalogue entry's host game on it and answers the stream's URL and a
/// ticket the host can check; PLAYING comes with the host's first frame, not a timer; a
/// reconnect gets a fresh ticket; the end tells the host, and the slot goes to the next player
/// only when the host reports it reset; a game that exits ends its session with 130124; the
/// quality report is stored once and shows in the history.
#[actix_rt::test]
async fn a_host_links_and_serves_sessions() {
    let (srv, dir) = server("hosts-serve").await;
    let (mut host, welcome) = connect(srv.addr, hello("h1", 1, SECRET, now_ms(), vec![slot(0, SlotPhase::Free, None)])).await;
    assert_eq!(
        welcome,
        Some(PlatformMsg::Welcome {
            heartbeat_ms: hostlink::HEARTBEAT_MS
        })
    );

    let (mut a, mut sa) = player(srv.addr, "13800000001", "dev-a").await;
    let (_, nodes) = a.post("/api/japi/yoo/game/selectNode", json!({"gameId": 1})).await;
    let node1 = nodes["data"].as_array().unwrap().iter().find(|n| n["id"] == 1).unwrap().clone();
    assert_eq!(node1["pingUrl"], "http://127.0.0.1:1/h1/ping", "the host's probe");
    let node2 = nodes["data"].as_array().unwrap().iter().find(|n| n["id"] == 2).unwrap().clone();
    assert_eq!(node2["pingUrl"], "/api/node/2/ping", "no host: the platform's probe");

    let (_, r) = a.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1})).await;
    assert_eq!(code(&r), 0, "{r}");
    let id = r["data"]["id"].as_i64().unwrap();
    sa.wait_state(5, |s| s["status"] == 3).await;

    let (_, r) = a.post("/api/japi/yoo/game/confirmConnect", json!({"id": id})).await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(r["data"]["status"], 4);
    assert_eq!(r["data"]["streamUrl"], "ws://127.0.0.1:1/h1");
    let ticket = Ticket::verify(r["data"]["ticket"].as_str().unwrap(), SECRET.as_bytes(), now_ms()).expect("the host accepts it");
    let uid = ticket.uid;
    assert_eq!(
        (ticket.node_id, ticket.host.as_str(), ticket.slot, ticket.session_id, ticket.role),
        (1, "h1", 0, id, Role::Player)
    );
    assert!(ticket.exp_ms <= now_ms() + hostlink::TICKET_TTL_MS);
    assert_eq!(
        host.next().await,
        Some(PlatformMsg::Launch {
            slot: 0,
            session_id: id,
            uid,
            game: "neverball".into()
        })
    );
    host.report(slot(0, SlotPhase::Launching, Some(id))).await;
    taken_in(&srv, "h1", 0, actors::play::hosts::SlotState::Launching).await;
    let (_, r) = a.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(
        r["data"]["status"], 4,
        "CONNECTING until the first frame (the static delay is 50 ms)"
    );

    // A reconnect's fresh ticket; nobody else's session gets one.
    let (_, r) = a.post("/api/japi/yoo/game/streamTicket", json!({"id": id})).await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(r["data"]["streamUrl"], "ws://127.0.0.1:1/h1");
    assert!(Ticket::verify(r["data"]["ticket"].as_str().unwrap(), SECRET.as_bytes(), now_ms()).is_ok());
    let (mut b, mut sb) = player(srv.addr, "13800000002", "dev-b").await;
    let (status, r) = b.post("/api/japi/yoo/game/streamTicket", json!({"id": id})).await;
    assert_eq!((status, code(&r)), (404, 130118), "someone else's session: {r}");

    host.say(&HostMsg::FirstFrame { slot: 0, session_id: id }).await;
    host.report(slot(0, SlotPhase::Playing, Some(id))).await;
    sa.wait_state(5, |s| s["status"] == 5).await;

    // B waits: a QUEUE session has no stream.
    let (_, r) = b.post("/api/japi/yoo/game/start", json!({"gameId": 2, "nodeId": 1})).await;
    assert_eq!((code(&r), r["data"]["sort"].as_i64()), (0, Some(1)), "{r}");
    let bid = r["data"]["id"].as_i64().unwrap();
    let (status, r) = b.post("/api/japi/yoo/game/streamTicket", json!({"id": bid})).await;
    assert_eq!((status, code(&r)), (409, 130119), "a queued session: {r}");

    // A ends: the host is told; B gets the slot only after the reset.
    let (_, r) = a.post("/api/japi/yoo/game/over", json!({"id": id})).await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(host.next().await, Some(PlatformMsg::End { slot: 0, session_id: id }));
    host.report(slot(0, SlotPhase::Resetting, Some(id))).await;
    taken_in(&srv, "h1", 0, actors::play::hosts::SlotState::Resetting).await;
    let (_, r) = b.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(r["data"]["status"], 1, "still queued while the slot resets");
    host.report(slot(0, SlotPhase::Free, None)).await;
    sb.wait_state(5, |s| s["status"] == 3).await;

    // B's game exits on its own: 130124, and the slot is ended and reset.
    let (_, r) = b.post("/api/japi/yoo/game/confirmConnect", json!({"id": bid})).await;
    assert_eq!(code(&r), 0, "{r}");
    assert!(matches!(host.next().await, Some(PlatformMsg::Launch { game, .. }) if game == "supertux"));
    host.say(&HostMsg::FirstFrame { slot: 0, session_id: bid }).await;
    sb.wait_state(5, |s| s["status"] == 5).await;
    host.say(&HostMsg::GameExited {
        slot: 0,
        session_id: bid,
        reason: "exit status 1".into(),
    })
    .await;
    let n = notice(&mut sb, 130124).await;
    assert_eq!(n, json!({"gameId": 2, "reason": "game_exited"}));
    assert_eq!(host.next().await, Some(PlatformMsg::End { slot: 0, session_id: bid }));

    // A's quality report: stored once, in A's history.
    let report = json!({"id": id, "playedSecs": 12, "latencyP50Ms": 21.5, "latencyP95Ms": 48.0, "fps": 29.7, "drops": 2, "reconnects": 1});
    let (_, r) = a.post("/api/japi/yoo/game/qualityReport", report.clone()).await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!((r["data"]["id"].as_i64(), r["data"]["fps"].as_f64()), (Some(id), Some(29.7)));
    let (status, r) = a.post("/api/japi/yoo/game/qualityReport", report.clone()).await;
    assert_eq!((status, code(&r)), (409, 130130), "once: {r}");
    let (status, r) = b.post("/api/japi/yoo/game/qualityReport", report.clone()).await;
    assert_eq!((status, code(&r)), (404, 130118), "not B's session: {r}");
    let mut bad = report.clone();
    bad["latencyP50Ms"] = json!(-1);
    let (status, r) = a.post("/api/japi/yoo/game/qualityReport", bad).await;
    assert_eq!((status, code(&r)), (400, 40000), "{r}");
    let (_, h) = a.get("/api/japi/yoo/game/history").await;
    assert_eq!(code(&h), 0, "{h}");
    assert_eq!(h["data"]["total"], 1);
    let item = &h["data"]["data"][0];
    assert_eq!((item["id"].as_i64(), item["gameName"].as_str()), (Some(id), Some("星海远征")));
    assert_eq!(item["endReason"], "over");
    assert_eq!(item["quality"]["latencyP95Ms"], 48.0);
    let (_, h) = b.get("/api/japi/yoo/game/history").await;
    assert_eq!(h["data"]["data"][0]["endReason"], "game_exited");
    assert_eq!(h["data"]["data"][0]["quality"], Value::Null);

    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Hellos that prove nothing are refused and their links closed: a wrong secret, a node that is
/// unknown or has no secret, a hello from long ago, a second live host of one name, and a first
/// frame that is not a hello. A plain GET is not a link.
#[actix_rt::test]
async fn hellos_are_checked() {
    let (srv, dir) = server("hosts-refusals").await;
    let free = || vec![slot(0, SlotPhase::Free, None)];
    for (h, want) in [
        (hello("h", 1, "wrong-secret", now_ms(), free()), LinkRefusal::BadMac),
        (hello("h", 9, SECRET, now_ms(), free()), LinkRefusal::UnknownNode),
        (hello("h", 2, SECRET, now_ms(), free()), LinkRefusal::UnknownNode),
        (
            hello("h", 1, SECRET, now_ms() - 2 * hostlink::HELLO_SKEW_MS, free()),
            LinkRefusal::Stale,
        ),
    ] {
        let (mut host, answer) = connect(srv.addr, h).await;
        assert_eq!(answer, Some(PlatformMsg::Refused { reason: want }));
        assert!(host.closed_within(5).await, "{want:?}: closed");
    }
    let mut c = Client::new(srv.addr, "d");
    let (_, r) = c.post("/api/japi/yoo/game/selectNode", json!({"gameId": 1})).await;
    assert_eq!(r["data"][0]["pingUrl"], "/api/node/1/ping", "nothing linked");

    let (_live, answer) = connect(srv.addr, hello("h", 1, SECRET, now_ms(), free())).await;
    assert!(matches!(answer, Some(PlatformMsg::Welcome { .. })));
    let (mut dup, answer) = connect(srv.addr, hello("h", 1, SECRET, now_ms(), free())).await;
    assert_eq!(
        answer,
        Some(PlatformMsg::Refused {
            reason: LinkRefusal::Duplicate
        })
    );
    assert!(dup.closed_within(5).await);

    let (_, framed) = awc::Client::default()
        .ws(format!("http://{}/api/host/link", srv.addr))
        .connect()
        .await
        .unwrap();
    let (out, input) = framed.split();
    let mut odd = TestHost {
        out: Rc::new(tokio::sync::Mutex::new(out)),
        input,
        slots: Arc::default(),
        beating: Arc::default(),
    };
    odd.say(&HostMsg::FirstFrame { slot: 0, session_id: 1 }).await;
    assert!(odd.closed_within(5).await, "a first frame that is not a hello");

    let (status, r) = c.get("/api/host/link").await;
    assert_eq!((status, code(&r)), (400, 40000), "not a WebSocket: {r}");
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A host that stops heartbeating loses its machines within HOST_TIMEOUT_MS: the player is told
/// (130124, host_lost), the machine leaves the pool, the link is closed, and the host links
/// again under its name. A host whose link closes loses them at once.
#[actix_rt::test]
async fn a_silent_or_gone_host_loses_its_machines() {
    let (srv, dir) = server("hosts-silent").await;
    let (mut host, _) = connect(srv.addr, hello("h1", 1, SECRET, now_ms(), vec![slot(0, SlotPhase::Free, None)])).await;
    let (mut a, mut sa) = player(srv.addr, "13800000001", "dev-a").await;
    let (_, r) = a.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1})).await;
    let id = r["data"]["id"].as_i64().unwrap();
    sa.wait_state(5, |s| s["status"] == 3).await;
    a.post("/api/japi/yoo/game/confirmConnect", json!({"id": id})).await;
    assert!(matches!(host.next().await, Some(PlatformMsg::Launch { .. })));
    host.say(&HostMsg::FirstFrame { slot: 0, session_id: id }).await;
    host.report(slot(0, SlotPhase::Playing, Some(id))).await;
    sa.wait_state(5, |s| s["status"] == 5).await;
    tokio::time::sleep(Duration::from_millis(2 * hostlink::HEARTBEAT_MS + 500)).await;
    let (_, r) = a.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(r["data"]["status"], 5, "heartbeats keep it");

    host.beating.store(false, std::sync::atomic::Ordering::SeqCst);
    let silent_from = std::time::Instant::now();
    let n = notice(&mut sa, 130124).await;
    let waited = silent_from.elapsed();
    assert_eq!(n, json!({"gameId": 1, "reason": "host_lost"}));
    assert!(
        waited <= Duration::from_millis(hostlink::HOST_TIMEOUT_MS + hostlink::HEARTBEAT_MS + 500),
        "lost within the timeout: {waited:?}"
    );
    assert!(host.closed_within(5).await, "the link is closed");
    assert_eq!(
        srv.platform.play.machine_stats(1).await.unwrap(),
        (0, 0),
        "the machine left the pool"
    );
    let (_, r) = a.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(r["data"]["hasGameOnline"], false);
    let record = srv.platform.store().sessions.get(id).unwrap().unwrap();
    assert_eq!(record.end_reason.as_deref(), Some("host_lost"));

    // It links again under its name; its link closing takes the machine at once.
    let (again, answer) = connect(srv.addr, hello("h1", 1, SECRET, now_ms(), vec![slot(0, SlotPhase::Free, None)])).await;
    assert!(matches!(answer, Some(PlatformMsg::Welcome { .. })), "{answer:?}");
    let mut back = false;
    for _ in 0..1000 {
        if srv.platform.play.machine_stats(1).await.unwrap() == (1, 0) {
            back = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(back, "the relinked host's free slot is back in the pool");
    again.out.lock().await.send(Message::Close(None)).await.unwrap();
    drop(again);
    let mut gone = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if srv.platform.play.machine_stats(1).await.unwrap() == (0, 0) {
            gone = true;
            break;
        }
    }
    assert!(gone, "a closed link takes its machine at once");
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A live room's control over the real link: `set_stream_controller` has the host sent a
/// Control frame (named while READY: at once, and again right after the Launch, so the host
/// launches with it), each change another frame; a viewer's ticket for the streaming session
/// names its host, slot and session, the viewer and `Role::Viewer`, and verifies with the
/// node's secret.
#[actix_rt::test]
async fn control_reaches_the_host_as_a_frame() {
    let (srv, dir) = server("hosts-control").await;
    let (mut host, _) = connect(srv.addr, hello("h1", 1, SECRET, now_ms(), vec![slot(0, SlotPhase::Free, None)])).await;
    let (mut a, mut sa) = player(srv.addr, "13800000001", "dev-a").await;
    let (_, r) = a.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1})).await;
    let id = r["data"]["id"].as_i64().unwrap();
    sa.wait_state(5, |s| s["status"] == 3).await;
    let guest = 777;
    let control = |controller| PlatformMsg::Control {
        slot: 0,
        session_id: id,
        controller,
    };

    srv.platform.play.set_stream_controller(id, guest).await.unwrap();
    assert_eq!(host.next().await, Some(control(guest)));
    let (_, r) = a.post("/api/japi/yoo/game/confirmConnect", json!({"id": id})).await;
    assert_eq!(code(&r), 0, "{r}");
    let player_uid = Ticket::verify(r["data"]["ticket"].as_str().unwrap(), SECRET.as_bytes(), now_ms())
        .unwrap()
        .uid;
    assert!(matches!(host.next().await, Some(PlatformMsg::Launch { session_id, .. }) if session_id == id));
    assert_eq!(host.next().await, Some(control(guest)), "the launch is followed by its controller");
    host.say(&HostMsg::FirstFrame { slot: 0, session_id: id }).await;
    sa.wait_state(5, |s| s["status"] == 5).await;

    let target = srv.platform.play.viewer_stream(guest, id).await.unwrap();
    let (url, token, exp_ms) = facade::routes::play::game::sign_viewer_ticket(&srv.platform, &target, id, guest, now_ms()).unwrap();
    assert_eq!(url, "ws://127.0.0.1:1/h1");
    let t = Ticket::verify(&token, SECRET.as_bytes(), now_ms()).expect("the host accepts it");
    assert_eq!(
        (t.node_id, t.host.as_str(), t.slot, t.session_id, t.uid, t.role, t.exp_ms),
        (1, "h1", 0, id, guest, Role::Viewer, exp_ms)
    );

    srv.platform.play.set_stream_controller(id, player_uid).await.unwrap();
    assert_eq!(host.next().await, Some(control(player_uid)), "revoked: back to the player");
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

// A live room's relay streams from a game host: a member's `room/connection` answers the
// stream and a ticket of their own with the viewer role (the host takes their input only while
// they control); before the relay streams there is none.
#[actix_rt::test]
async fn a_room_s_viewer_gets_a_viewer_ticket() {
    let (srv, _dir) = server("hosts-room").await;
    let (mut host, _) = connect(srv.addr, hello("h1", 1, SECRET, now_ms(), vec![slot(0, SlotPhase::Free, None)])).await;
    let (mut h, mut sh) = player(srv.addr, "13800000031", "dev-h").await;
    let (mut v, _sv) = player(srv.addr, "13800000032", "dev-v").await;
    let (_, room) = h
        .post(
            "/api/japi/yoo/v2/room/relay",
            json!({"roomName": "一起", "gameId": 1, "mode": 2, "isShow": 1, "authType": 2}),
        )
        .await;
    assert_eq!(code(&room), 0, "{room}");
    let dd_rid = room["data"]["ddRid"].as_i64().unwrap();
    let (_, e) = v.post("/api/japi/yoo/v2/room/loginRelayRoom", json!({"ddRid": dd_rid})).await;
    assert_eq!(code(&e), 0, "{e}");
    let (_, c) = v.post("/api/japi/yoo/v2/room/connection", json!({"ddRid": dd_rid})).await;
    assert_eq!((code(&c), &c["data"]["ticket"]), (0, &Value::Null), "no stream yet: {c}");

    let (_, r) = h
        .post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1, "isApplyRelay": 2}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let id = r["data"]["id"].as_i64().unwrap();
    sh.wait_state(5, |s| s["status"] == 3).await;
    let (_, r) = h.post("/api/japi/yoo/game/confirmConnect", json!({"id": id})).await;
    assert_eq!(code(&r), 0, "{r}");
    // the room names its controller (the host) as soon as the relay holds a machine: a Control
    // may come before the Launch, and again right after it
    loop {
        match host.next().await {
            Some(PlatformMsg::Launch { session_id, .. }) if session_id == id => break,
            Some(PlatformMsg::Control { session_id, .. }) if session_id == id => continue,
            other => panic!("expected the relay's Launch, got {other:?}"),
        }
    }
    host.say(&HostMsg::FirstFrame { slot: 0, session_id: id }).await;
    host.report(slot(0, SlotPhase::Playing, Some(id))).await;
    sh.wait_state(5, |s| s["status"] == 5).await;

    let (_, p) = v.get("/api/user/profile").await;
    let v_uid = p["data"]["uid"].as_i64().unwrap();
    let (_, c) = v.post("/api/japi/yoo/v2/room/connection", json!({"ddRid": dd_rid})).await;
    assert_eq!(
        (code(&c), c["data"]["status"].as_i64(), c["data"]["sessionId"].as_i64()),
        (0, Some(5), Some(id)),
        "{c}"
    );
    assert_eq!(c["data"]["streamUrl"], "ws://127.0.0.1:1/h1");
    assert_eq!(c["data"]["controller"], false);
    let ticket = Ticket::verify(c["data"]["ticket"].as_str().unwrap(), SECRET.as_bytes(), now_ms()).expect("the host accepts it");
    assert_eq!(
        (ticket.session_id, ticket.uid, ticket.role, ticket.slot),
        (id, v_uid, Role::Viewer, 0)
    );
    srv.handle.stop(false).await;
}
