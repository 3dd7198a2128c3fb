//! What the actor tests share: a recording socket, logging a player in, letting actors run.

#![allow(dead_code)]

use std::time::Duration;

use actors::connection::ConnectionSink;
use actors::view::{GameState, Push, SessionView};
use actors::Platform;
use parking_lot::Mutex;

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
    match p.game_state(uid).await.unwrap() {
        GameState::Online(v) => v,
        other => panic!("expected a session, got {other:?}"),
    }
}
