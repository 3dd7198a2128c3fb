//! What the host's tests share: a test platform (a WebSocket endpoint speaking the host link,
//! the host's counterpart), a host started on 127.0.0.1:0 with its own Xvfb displays, and
//! stream clients.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use futures_util::{SinkExt as _, StreamExt as _};
use gamehost::config::{GameConfig, HostConfig};
use gamehost::proto::{host_frame, ClientFrame, HostFrame};
use hostlink::{Hello, HostMsg, LinkRefusal, PlatformMsg, Role, SlotPhase, Ticket, HEARTBEAT_MS};
use parking_lot::Mutex;
use prost::Message as _;
use tokio::sync::mpsc;

pub const SECRET: &str = "test-node-secret";
pub const NODE: i64 = 7;
pub const HOST: &str = "th1";

/// What the test platform saw.
#[derive(Debug)]
pub enum Seen {
    /// A hello, and whether it verified with the platform's secret.
    Hello(Hello, Result<(), LinkRefusal>),
    Msg(HostMsg),
    /// The link closed.
    Closed,
}

struct PlatformState {
    secret: String,
    seen: mpsc::UnboundedSender<Seen>,
    /// The open link's command channel.
    link: Mutex<Option<mpsc::UnboundedSender<Option<PlatformMsg>>>>,
}

/// The platform side of the host link, for the host's tests.
pub struct TestPlatform {
    pub url: String,
    pub seen: mpsc::UnboundedReceiver<Seen>,
    state: web::Data<PlatformState>,
    server: actix_web::dev::ServerHandle,
}

async fn link(req: HttpRequest, body: web::Payload, state: web::Data<PlatformState>) -> actix_web::Result<HttpResponse> {
    let (resp, mut session, mut stream) = actix_ws::handle(&req, body)?;
    actix_rt::spawn(async move {
        let hello = loop {
            match stream.next().await {
                Some(Ok(actix_ws::Message::Text(t))) => break serde_json::from_str::<HostMsg>(&t).ok(),
                Some(Ok(_)) => continue,
                _ => return,
            }
        };
        let Some(HostMsg::Hello(hello)) = hello else {
            return;
        };
        let verdict = hello.verify(state.secret.as_bytes(), gamehost::now_ms());
        if let Err(reason) = verdict {
            let _ = state.seen.send(Seen::Hello(hello, verdict));
            let _ = session.text(PlatformMsg::Refused { reason }.to_json()).await;
            let _ = session.close(None).await;
            return;
        }
        let _ = session
            .text(
                PlatformMsg::Welcome {
                    heartbeat_ms: HEARTBEAT_MS,
                }
                .to_json(),
            )
            .await;
        let (tx, mut rx) = mpsc::unbounded_channel();
        // Commands can be sent once the test has seen the hello.
        *state.link.lock() = Some(tx);
        let _ = state.seen.send(Seen::Hello(hello, verdict));
        loop {
            tokio::select! {
                m = stream.next() => match m {
                    Some(Ok(actix_ws::Message::Text(t))) => {
                        let msg: HostMsg = serde_json::from_str(&t).expect("the host speaks hostlink");
                        let _ = state.seen.send(Seen::Msg(msg));
                    }
                    Some(Ok(actix_ws::Message::Ping(p))) => { let _ = session.pong(&p).await; }
                    Some(Ok(actix_ws::Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => {}
                },
                c = rx.recv() => match c {
                    Some(Some(msg)) => { let _ = session.text(msg.to_json()).await; }
                    _ => { let _ = session.close(None).await; break; }
                },
            }
        }
        let _ = state.seen.send(Seen::Closed);
    });
    Ok(resp)
}

impl TestPlatform {
    pub async fn start(secret: &str) -> TestPlatform {
        let (seen_tx, seen) = mpsc::unbounded_channel();
        let state = web::Data::new(PlatformState {
            secret: secret.into(),
            seen: seen_tx,
            link: Mutex::new(None),
        });
        let data = state.clone();
        let server = HttpServer::new(move || App::new().app_data(data.clone()).route("/api/host/link", web::get().to(link)))
            .workers(1)
            .disable_signals()
            .bind("127.0.0.1:0")
            .unwrap();
        let addr = server.addrs()[0];
        let server = server.run();
        let handle = server.handle();
        actix_rt::spawn(server);
        TestPlatform {
            url: format!("ws://{addr}/api/host/link"),
            seen,
            state,
            server: handle,
        }
    }

    /// Sends a command on the open link.
    pub fn send(&self, msg: PlatformMsg) {
        self.state.link.lock().as_ref().expect("a host is linked").send(Some(msg)).unwrap();
    }

    /// Closes the open link (the platform keeps accepting new ones).
    pub fn drop_link(&self) {
        if let Some(l) = self.state.link.lock().take() {
            let _ = l.send(None);
        }
    }

    /// The platform goes away: the link drops and nothing accepts a new one.
    pub async fn stop(&self) {
        self.drop_link();
        self.server.stop(false).await;
    }

    /// The next thing seen that `pick` keeps, within `within`.
    pub async fn expect<T>(&mut self, within: Duration, what: &str, mut pick: impl FnMut(&Seen) -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            match tokio::time::timeout_at(deadline, self.seen.recv()).await {
                Ok(Some(s)) => {
                    if let Some(t) = pick(&s) {
                        return t;
                    }
                }
                Ok(None) => panic!("the test platform stopped while waiting for {what}"),
                Err(_) => panic!("no {what} within {within:?}"),
            }
        }
    }

    /// Waits for a slot's report of `phase` (from a Slot message or a heartbeat).
    pub async fn expect_phase(&mut self, slot: u32, phase: SlotPhase, within: Duration) {
        self.expect(within, &format!("slot {slot} {phase:?}"), |s| match s {
            Seen::Msg(HostMsg::Slot(r)) if r.slot == slot && r.phase == phase => Some(()),
            Seen::Msg(HostMsg::Heartbeat { slots }) if slots.iter().any(|r| r.slot == slot && r.phase == phase) => Some(()),
            _ => None,
        })
        .await
    }

    /// Waits until the host is linked (its hello verified).
    pub async fn expect_hello(&mut self) -> Hello {
        self.expect(Duration::from_secs(10), "hello", |s| match s {
            Seen::Hello(h, Ok(())) => Some(h.clone()),
            _ => None,
        })
        .await
    }
}

/// The test pattern as a game, small (cheap to encode on a shared machine).
pub fn pattern_game(extra: &[&str]) -> GameConfig {
    let mut args = vec!["--pattern".to_string(), "--size".into(), "320x240".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    GameConfig {
        program: env!("CARGO_BIN_EXE_yoo-gamehost").into(),
        args,
        env: BTreeMap::new(),
        window: [320, 240],
        nice: 0,
        home_files: BTreeMap::from([("settings/pattern.cfg".to_string(), "size 320x240\n".to_string())]),
    }
}

/// A host configuration for the tests: `slots` slots, the pattern games, its own state dir.
pub fn config(platform_url: &str, slots: u32) -> HostConfig {
    let state = std::env::temp_dir().join(format!("yoo-gamehost-test-{}-{}", std::process::id(), rand_suffix()));
    HostConfig {
        node_id: NODE,
        host: HOST.into(),
        secret: SECRET.into(),
        platform_url: platform_url.into(),
        bind: "127.0.0.1:0".into(),
        public_url: None,
        slots,
        display_base: None,
        screen: [640, 480],
        fps: 30,
        bitrate_kbps: 800,
        // Long: a key frame that comes quickly after a new viewer came because it asked.
        key_interval_secs: 20,
        state_dir: state,
        launch_timeout_secs: 10,
        games: BTreeMap::from([
            ("pattern".to_string(), pattern_game(&[])),
            ("short".to_string(), pattern_game(&["--exit-after", "1500"])),
            ("busy".to_string(), pattern_game(&["--busy"])),
        ]),
    }
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::SeqCst) * 1000 + (gamehost::now_ms() as u64 % 1000)
}

pub fn self_exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_yoo-gamehost"))
}

/// A ticket for this test host: a Player ticket names the session's player (the uid
/// [`Rig::launch`] launches for, `100 + session_id`), a Viewer ticket another user
/// ([`viewer_uid`]).
pub fn ticket(slot: u32, session_id: i64, role: Role) -> Ticket {
    let uid = match role {
        Role::Player => player_uid(session_id),
        Role::Viewer => viewer_uid(session_id),
    };
    Ticket {
        node_id: NODE,
        host: HOST.into(),
        slot,
        session_id,
        uid,
        role,
        exp_ms: gamehost::now_ms() + 60_000,
    }
}

/// The player [`Rig::launch`] launches a session for.
pub fn player_uid(session_id: i64) -> i64 {
    100 + session_id
}

/// The user of the session's Viewer tickets in these tests (a room's guest).
pub fn viewer_uid(session_id: i64) -> i64 {
    900 + session_id
}

type Conn = actix_codec::Framed<awc::BoxedSocket, awc::ws::Codec>;

/// A stream client.
pub struct Viewer {
    conn: Conn,
}

/// What opening a stream gave: the HTTP status and body of a refusal.
pub async fn open_stream(addr: std::net::SocketAddr, token: &str) -> Result<Viewer, (u16, serde_json::Value)> {
    let url = format!("ws://{addr}/stream?ticket={token}");
    match awc::Client::new().ws(url).max_frame_size(4 << 20).connect().await {
        Ok((_, conn)) => Ok(Viewer { conn }),
        Err(awc::error::WsClientError::InvalidResponseStatus(status)) => {
            // The body is not readable through the WebSocket client: ask again over HTTP.
            let mut res = awc::Client::new()
                .get(format!("http://{addr}/stream?ticket={token}"))
                .send()
                .await
                .unwrap();
            assert_eq!(res.status().as_u16(), status.as_u16());
            let body: serde_json::Value = res.json().await.unwrap();
            Err((status.as_u16(), body))
        }
        Err(e) => panic!("stream connect failed: {e}"),
    }
}

impl Viewer {
    /// The next host frame within `within` (None when the host closed).
    pub async fn next(&mut self, within: Duration) -> Option<host_frame::Body> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let f = tokio::time::timeout_at(deadline, self.conn.next()).await.expect("a frame in time");
            match f {
                Some(Ok(awc::ws::Frame::Binary(b))) => return HostFrame::decode(b).unwrap().body,
                Some(Ok(awc::ws::Frame::Close(_))) | None => return None,
                Some(Ok(_)) => continue,
                Some(Err(e)) => panic!("stream error: {e}"),
            }
        }
    }

    pub async fn send(&mut self, body: gamehost::proto::client_frame::Body) {
        let bytes = ClientFrame { body: Some(body) }.encode_to_vec();
        self.conn.send(awc::ws::Message::Binary(bytes.into())).await.unwrap();
    }
}

/// The NAL unit types in an Annex B access unit.
pub fn nal_types(data: &[u8]) -> Vec<u8> {
    gamehost::fanout::nal_units(data)
        .filter_map(|n| n.first().map(|b| b & 0x1f))
        .collect()
}

/// Polls `f` every 20 ms until it gives Some, within `within`.
pub async fn eventually<T>(within: Duration, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if let Some(t) = f() {
            return t;
        }
        if tokio::time::Instant::now() >= deadline {
            panic!("not within {within:?}: {what}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A launched host with its test platform, for the tests that need one.
pub struct Rig {
    pub platform: TestPlatform,
    pub host: gamehost::Running,
}

impl Rig {
    pub async fn start(slots: u32) -> Rig {
        Rig::start_with(slots, |_| {}).await
    }

    /// A rig whose host configuration `tune` changes first.
    pub async fn start_with(slots: u32, tune: impl FnOnce(&mut HostConfig)) -> Rig {
        let mut platform = TestPlatform::start(SECRET).await;
        let mut c = config(&platform.url, slots);
        tune(&mut c);
        let host = gamehost::start(c, self_exe()).await.unwrap();
        platform.expect_hello().await;
        Rig { platform, host }
    }

    /// Launches `game` for the session and waits until it plays.
    pub async fn launch(&mut self, slot: u32, session_id: i64, game: &str) {
        self.platform.send(PlatformMsg::Launch {
            slot,
            session_id,
            uid: player_uid(session_id),
            game: game.into(),
        });
        self.platform
            .expect(Duration::from_secs(12), "first frame", |s| match s {
                Seen::Msg(HostMsg::FirstFrame { slot: s, session_id: id }) if *s == slot && *id == session_id => Some(()),
                Seen::Msg(HostMsg::GameExited { reason, .. }) => panic!("the game exited: {reason}"),
                _ => None,
            })
            .await;
    }

    pub fn addr(&self) -> std::net::SocketAddr {
        self.host.addr
    }

    pub fn slot(&self, i: u32) -> Arc<gamehost::slot::Slot> {
        self.host.host.slot(i).unwrap().clone()
    }

    pub async fn stop(self) {
        let dir = self.host.host.config.state_dir.clone();
        self.host.stop().await;
        self.platform.stop().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A stream client on a plain TCP socket with a small receive buffer, which can stop reading
/// altogether (a browser tab that stalls): the host then meets a real socket that takes
/// nothing, not a client-side queue that hides it.
pub struct RawViewer {
    conn: actix_codec::Framed<tokio::net::TcpStream, actix_http::ws::Codec>,
}

/// Opens `/stream?ticket=` by hand (the upgrade request written, the answer read byte by byte
/// so no frame after it is consumed), with a receive buffer of `rcvbuf` bytes.
pub async fn open_raw(addr: std::net::SocketAddr, token: &str, rcvbuf: u32) -> RawViewer {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(rcvbuf).unwrap();
    let mut tcp = socket.connect(addr).await.unwrap();
    let request = format!(
        "GET /stream?ticket={token} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut b = [0u8];
        tcp.read_exact(&mut b).await.unwrap();
        head.push(b[0]);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "upgrade refused: {head}");
    let codec = actix_http::ws::Codec::new().client_mode().max_size(4 << 20);
    RawViewer {
        conn: actix_codec::Framed::new(tcp, codec),
    }
}

impl RawViewer {
    /// The next host frame within `within` (None when the host closed).
    pub async fn next(&mut self, within: Duration) -> Option<host_frame::Body> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            match tokio::time::timeout_at(deadline, self.conn.next()).await.expect("a frame in time") {
                Some(Ok(actix_http::ws::Frame::Binary(b))) => return HostFrame::decode(b).unwrap().body,
                Some(Ok(actix_http::ws::Frame::Close(_))) | None => return None,
                Some(Ok(_)) => continue,
                Some(Err(e)) => panic!("stream error: {e}"),
            }
        }
    }
}
