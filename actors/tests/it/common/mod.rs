//! What the actor tests share: a recording socket, logging a player in, letting actors run.

#![allow(dead_code)]

use std::time::Duration;

use actors::commerce::payment::NoticeTransport;
use actors::config::PaymentConfig;
use actors::play::connection::ConnectionSink;
use actors::view::{GameState, Push, SessionView};
use actors::{DomainConfig, NodeConfig, Platform};
use futures_util::future::BoxFuture;
use parking_lot::Mutex;
use std::sync::{Arc, OnceLock};

/// Collects what would be pushed to one socket.
#[derive(Default)]
pub struct Recorder(pub Mutex<Vec<Push>>);

impl ConnectionSink for Recorder {
    fn push(&self, push: &Push) -> bool {
        self.0.lock().push(push.clone());
        true
    }
}

impl Recorder {
    pub fn last_state(&self) -> Option<GameState> {
        self.0
            .lock()
            .iter()
            .rev()
            .find_map(|p| if let Push::GameStatus(s) = p { Some(s.clone()) } else { None })
    }

    pub fn notice_list(&self) -> Vec<actors::view::Notice> {
        self.0
            .lock()
            .iter()
            .filter_map(|p| if let Push::Notice(n) = p { Some(n.clone()) } else { None })
            .collect()
    }

    pub fn notices(&self) -> Vec<i32> {
        self.0
            .lock()
            .iter()
            .filter_map(|p| if let Push::Notice(n) = p { Some(n.code()) } else { None })
            .collect()
    }
}

/// A fresh SQLite directory under the system temp dir.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!("yoo-actors-{name}-{}-{nanos}", std::process::id()))
}

/// Logs a player in with the code from the sandbox outbox; returns the uid.
pub async fn user(p: &Platform, phone: &str) -> i64 {
    p.passport().send_code(phone).await.unwrap();
    let code = p.passport().sms().outbox(phone).unwrap()[0].code.clone();
    p.passport().login(phone, &code, "dev").await.unwrap().0.uid
}

/// Lets every actor handle what is in its mailbox.
pub async fn settle() {
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

/// Lets `ms` of paused time pass in small steps, so that periodic timers fire at each period
/// (a single `advance` fires each due timer once).
pub async fn pass(ms: u64) {
    for _ in 0..ms / 10 {
        tokio::time::advance(Duration::from_millis(10)).await;
        tokio::task::yield_now().await;
    }
    settle().await;
}

pub async fn online(p: &Platform, uid: i64) -> SessionView {
    match p.play.game_state(uid).await.unwrap() {
        GameState::Online(v) => v,
        other => panic!("expected a session, got {other:?}"),
    }
}

/// The sandbox's notices handed straight to the platform's notice call (the facade posts them
/// over HTTP; here the HTTP hop is left out).
struct Direct(OnceLock<Platform>);

impl NoticeTransport for Direct {
    fn post(&self, provider: &'static str, body: String, signature: String) -> BoxFuture<'static, Result<(), String>> {
        let p = self.0.get().cloned();
        Box::pin(async move {
            let p = p.ok_or("no platform")?;
            p.commerce
                .payment_notice(provider, &body, &signature)
                .await
                .map_err(|e| e.to_string())
        })
    }
}

pub const ORDER_TTL: u64 = 900;
pub const QR_TTL: u64 = 300;
pub const POLL_WAIT: u64 = 25;

/// A platform on SQLite whose payment sandbox hands its notices straight to it, with one node of
/// `machines` static machines and the order, QR and poll lifetimes above.
pub async fn commerce_platform(name: &str, machines: usize) -> Platform {
    let dir = temp_dir(name);
    let store = storage::Store::open_sqlite(&dir).unwrap();
    let config = DomainConfig {
        connect_countdown_secs: 30,
        connect_delay_ms: 100,
        rank_refresh_ms: 100,
        sms_fail_numbers: vec![],
        nodes: vec![node(machines)],
        payment: PaymentConfig {
            order_ttl_secs: ORDER_TTL,
            qr_ttl_secs: QR_TTL,
            poll_wait_secs: POLL_WAIT,
            ..PaymentConfig::default()
        },
        ..DomainConfig::default()
    };
    let p = Platform::start(store, config).await.unwrap();
    let direct = Arc::new(Direct(OnceLock::new()));
    let _ = direct.0.set(p.clone());
    p.commerce.sandbox_pay().expect("dev platform").set_transport(direct);
    p
}

/// Node 1, 测试一区, open, with `machines` static machines (m0, m1, …) and no game hosts.
pub fn node(machines: usize) -> NodeConfig {
    NodeConfig {
        id: 1,
        name: "测试一区".into(),
        status: 1,
        machines: (0..machines).map(|i| format!("m{i}")).collect(),
        host_secret: None,
    }
}
