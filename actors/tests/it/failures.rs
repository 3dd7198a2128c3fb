//! A call that fails inside an actor's handler answers its caller with an error, and the actor
//! goes on serving (it is not failed and restarted).

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use actors::play::service::Grant;
use actors::{DomainConfig, DomainError, Platform};
use common::{node, online, settle, temp_dir, user};
use storage::{GameSessionRecord, GameSessionRepo, NewGameSession};

/// The SQLite sessions, whose inserts fail while `fail_insert` is set and whose place writes
/// fail while `fail_place` is, counting the reads a starting player actor makes (`list_by_user`).
struct Flaky {
    inner: Arc<dyn GameSessionRepo>,
    fail_insert: AtomicBool,
    fail_place: AtomicBool,
    player_loads: AtomicUsize,
}

fn check(flag: &AtomicBool) -> storage::Result<()> {
    if flag.load(Ordering::SeqCst) {
        Err(storage::Error::Backend("disk I/O error".into()))
    } else {
        Ok(())
    }
}

impl GameSessionRepo for Flaky {
    fn insert(&self, s: &NewGameSession) -> storage::Result<GameSessionRecord> {
        check(&self.fail_insert)?;
        self.inner.insert(s)
    }
    fn insert_if_none_open(&self, s: &NewGameSession) -> storage::Result<Option<GameSessionRecord>> {
        check(&self.fail_insert)?;
        self.inner.insert_if_none_open(s)
    }
    fn update(&self, r: &GameSessionRecord) -> storage::Result<()> {
        self.inner.update(r)
    }
    fn get(&self, id: i64) -> storage::Result<Option<GameSessionRecord>> {
        self.inner.get(id)
    }
    fn list_by_user(&self, uid: i64, limit: u32) -> storage::Result<Vec<GameSessionRecord>> {
        self.player_loads.fetch_add(1, Ordering::SeqCst);
        self.inner.list_by_user(uid, limit)
    }
    fn list_open(&self) -> storage::Result<Vec<GameSessionRecord>> {
        self.inner.list_open()
    }
    fn set_place(&self, id: i64, lane: i32, tag: i64, seq: i64) -> storage::Result<()> {
        check(&self.fail_place)?;
        self.inner.set_place(id, lane, tag, seq)
    }
    fn max_admitted_tag(&self, node_id: i64) -> storage::Result<Option<i64>> {
        self.inner.max_admitted_tag(node_id)
    }
    fn add_quality(&self, q: &storage::QualityReport) -> storage::Result<()> {
        self.inner.add_quality(q)
    }
    fn quality(&self, session_id: i64) -> storage::Result<Option<storage::QualityReport>> {
        self.inner.quality(session_id)
    }
    fn played(&self, uid: i64, offset: u64, limit: u32) -> storage::Result<(Vec<storage::Played>, u64)> {
        self.inner.played(uid, offset, limit)
    }
}

/// A storage failure inside the player's and the queue's handlers answers the caller with an
/// internal error; the player actor is not restarted (it does not reload its state) and the
/// next call succeeds.
#[tokio::test(start_paused = true)]
async fn a_failed_storage_call_answers_and_the_actor_keeps_serving() {
    let dir = temp_dir("failures");
    let mut store = storage::Store::open_sqlite(&dir).unwrap();
    let flaky = Arc::new(Flaky {
        inner: store.sessions.clone(),
        fail_insert: AtomicBool::new(false),
        fail_place: AtomicBool::new(false),
        player_loads: AtomicUsize::new(0),
    });
    store.sessions = flaky.clone();
    let config = DomainConfig {
        sms_fail_numbers: vec![],
        nodes: vec![node(0)],
        ..DomainConfig::default()
    };
    let p = Platform::start(store, config).await.unwrap();
    let a = user(&p, "16000000001").await;
    p.play.grant(a, Grant::PlayTime { free: 30, paid: 0 }).await.unwrap();
    let loads = flaky.player_loads.load(Ordering::SeqCst);
    assert!(loads >= 1, "the player actor loaded its session once");

    flaky.fail_insert.store(true, Ordering::SeqCst);
    let refused = p.play.start_game(a, "d", 1, Some(1), &[]).await;
    assert!(matches!(refused, Err(DomainError::Internal(_))), "{refused:?}");
    settle().await;

    flaky.fail_insert.store(false, Ordering::SeqCst);
    let v = p.play.start_game(a, "d", 1, Some(1), &[]).await.unwrap();
    assert_eq!(online(&p, a).await.id, v.id, "the same player actor serves the next calls");
    assert_eq!(
        flaky.player_loads.load(Ordering::SeqCst),
        loads,
        "the player actor was not restarted (a restart reloads the session)"
    );

    // A failure in the queue's handler (the place cannot be stored) answers the player's call,
    // which answers the caller; the queue keeps its order and serves the next join.
    let b = user(&p, "16000000002").await;
    p.play.grant(b, Grant::PlayTime { free: 30, paid: 0 }).await.unwrap();
    let loads = flaky.player_loads.load(Ordering::SeqCst);
    flaky.fail_place.store(true, Ordering::SeqCst);
    let refused = p.play.start_game(b, "d", 2, Some(1), &[]).await;
    assert!(matches!(refused, Err(DomainError::Internal(_))), "{refused:?}");
    flaky.fail_place.store(false, Ordering::SeqCst);
    assert_eq!(
        p.play.game_state(b).await.unwrap(),
        actors::view::GameState::None,
        "the refused start left nothing behind"
    );
    let vb = p.play.start_game(b, "d", 2, Some(1), &[]).await.unwrap();
    assert_eq!(
        vb.sort, 2,
        "the node queue serves the next join, behind the player of another game already waiting"
    );
    assert_eq!(online(&p, a).await.sort, 1);
    assert_eq!(flaky.player_loads.load(Ordering::SeqCst), loads, "neither player actor restarted");
    let _ = std::fs::remove_dir_all(dir);
}
