//! The player journey through the real actors and a real SQLite store, on paused tokio time.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use actors::play::player::SessionOp;
use actors::view::{EndReason, GameState, Status};
use actors::{DomainConfig, DomainError, NodeConfig, Platform};
use common::{node, online, pass, settle, temp_dir, user, Recorder};

async fn platform(name: &str, machines: usize) -> (Platform, std::path::PathBuf) {
    let dir = temp_dir(name);
    let store = storage::Store::open_sqlite(&dir).unwrap();
    let config = DomainConfig {
        connect_countdown_secs: 10,
        connect_delay_ms: 500,
        rank_refresh_ms: 250,
        sms_fail_numbers: vec![],
        register_gift_minutes: 600,
        nodes: vec![
            node(machines),
            NodeConfig {
                id: 2,
                name: "维护区".into(),
                status: 2,
                machines: vec![],
                host_secret: None,
            },
        ],
        ..DomainConfig::default()
    };
    (Platform::start(store, config).await.unwrap(), dir)
}

/// Two players, one machine: ready, confirm, play, hand-over on exit, and a missed countdown.
#[tokio::test(start_paused = true)]
async fn two_players_one_machine() {
    let (p, dir) = platform("two", 1).await;
    let a = user(&p, "13800000001").await;
    let b = user(&p, "13800000002").await;
    let (rec_a, rec_b) = (Arc::new(Recorder::default()), Arc::new(Recorder::default()));
    p.play.connect(a, rec_a.clone()).await.unwrap();
    p.play.connect(b, rec_b.clone()).await.unwrap();

    let va = p.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    assert_eq!((va.status, va.sort), (Status::Queue, 1));
    settle().await;
    let va = online(&p, a).await;
    assert_eq!(va.status, Status::Ready);
    assert!(matches!(rec_a.last_state(), Some(GameState::Online(v)) if v.status == Status::Ready));

    let vb = p.play.start_game(b, "dev-b", 1, Some(1), &[]).await.unwrap();
    assert_eq!((vb.status, vb.sort), (Status::Queue, 1));

    let confirmed = p.play.session_op(a, SessionOp::Confirm, va.id).await.unwrap();
    assert!(matches!(confirmed, GameState::Online(v) if v.status == Status::Connecting));
    tokio::time::advance(Duration::from_millis(600)).await;
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Playing);
    // The ready countdown was cancelled by the confirm: long after it, A still plays.
    tokio::time::advance(Duration::from_secs(30)).await;
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Playing);

    p.play.session_op(a, SessionOp::Over, va.id).await.unwrap();
    settle().await;
    assert!(matches!(
        rec_a.last_state(),
        Some(GameState::Ended {
            reason: EndReason::Over,
            ..
        })
    ));
    assert_eq!(p.play.game_state(a).await.unwrap(), GameState::None);
    let vb = online(&p, b).await;
    assert_eq!(vb.status, Status::Ready, "B gets the machine A freed");
    assert!(matches!(rec_b.last_state(), Some(GameState::Online(v)) if v.status == Status::Ready));

    tokio::time::advance(Duration::from_secs(11)).await;
    settle().await;
    assert!(matches!(
        rec_b.last_state(),
        Some(GameState::Ended {
            reason: EndReason::Missed,
            ..
        })
    ));
    assert_eq!(p.play.game_state(b).await.unwrap(), GameState::None);
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (1, 0), "the machine is free again");

    let history = p.store().sessions.list_by_user(b, 10).unwrap();
    assert_eq!(history[0].end_reason.as_deref(), Some("missed"));
    let _ = std::fs::remove_dir_all(dir);
}

/// Ranks move up as players ahead leave, and each move is pushed.
#[tokio::test(start_paused = true)]
async fn ranks_follow_the_queue() {
    let (p, dir) = platform("ranks", 0).await;
    let mut uids = vec![];
    for i in 0..4 {
        uids.push(user(&p, &format!("1390000000{i}")).await);
    }
    let rec = Arc::new(Recorder::default());
    p.play.connect(uids[3], rec.clone()).await.unwrap();
    let mut ids = vec![];
    for (i, u) in uids.iter().enumerate() {
        let v = p.play.start_game(*u, "d", 2, Some(1), &[]).await.unwrap();
        assert_eq!(v.sort, i as u64 + 1);
        ids.push(v.id);
    }
    p.play.session_op(uids[1], SessionOp::CancelQueue, ids[1]).await.unwrap();
    pass(300).await;
    assert_eq!(online(&p, uids[3]).await.sort, 3);
    assert!(
        matches!(rec.last_state(), Some(GameState::Online(v)) if v.sort == 3),
        "a refresh period pushes the move: {:?}",
        rec.last_state()
    );
    p.play.session_op(uids[0], SessionOp::Over, ids[0]).await.unwrap();
    settle().await;
    assert_eq!(online(&p, uids[3]).await.sort, 2, "asking gives the exact rank at once");
    pass(300).await;
    assert_eq!(online(&p, uids[3]).await.sort, 2);
    assert_eq!(online(&p, uids[2]).await.sort, 1);
    assert!(matches!(rec.last_state(), Some(GameState::Online(v)) if v.sort == 2));
    let _ = std::fs::remove_dir_all(dir);
}

/// The start checks of core-platform.md §8.2 and the catalogue and node rules.
#[tokio::test(start_paused = true)]
async fn start_is_refused_with_the_right_reason() {
    let (p, dir) = platform("refuse", 1).await;
    let a = user(&p, "13700000001").await;
    let check = |r: Result<actors::view::SessionView, DomainError>, want: DomainError| {
        assert_eq!(r.map(|v| v.id).unwrap_err(), want);
    };
    check(p.play.start_game(a, "d1", 9999, None, &[]).await, DomainError::UnknownGame);
    check(p.play.start_game(a, "d1", 28, None, &[]).await, DomainError::UnknownGame);
    check(p.play.start_game(a, "d1", 22, None, &[]).await, DomainError::GameNotOpen);
    check(p.play.start_game(a, "d1", 25, None, &[]).await, DomainError::GameNotOpen);
    check(p.play.start_game(a, "d1", 26, None, &[]).await, DomainError::GameUnsupportedClient);
    check(p.play.start_game(a, "d1", 1, Some(2), &[]).await, DomainError::NodeMaintenance);
    check(p.play.start_game(a, "d1", 1, Some(77), &[]).await, DomainError::UnknownNode);
    let v = p.play.start_game(a, "d1", 1, None, &[(2, 5), (1, 30)]).await.unwrap();
    assert_eq!(v.node_id, 1, "the node under maintenance is never picked");
    check(
        p.play.start_game(a, "d1", 1, None, &[]).await,
        DomainError::GameAlreadyActive {
            session_id: v.id,
            game_id: 1,
        },
    );
    check(
        p.play.start_game(a, "d2", 1, None, &[]).await,
        DomainError::GameOnOtherClient {
            session_id: v.id,
            game_id: 1,
        },
    );
    check(
        p.play.start_game(a, "d1", 3, None, &[]).await,
        DomainError::OtherGameActive {
            session_id: v.id,
            game_id: 1,
            game_name: v.game_name.to_string(),
        },
    );
    assert_eq!(
        p.play.session_op(a, SessionOp::Confirm, v.id + 100).await.unwrap_err(),
        DomainError::UnknownSession
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Rank pushes of one refresh period are spread over its ticks, one slice of the players per
/// tick, and every connected player whose rank moved gets it within the period.
#[tokio::test(start_paused = true)]
async fn rank_pushes_are_paced_over_the_period() {
    let (p, dir) = platform("paced", 0).await;
    let mut players = vec![];
    for i in 0..15 {
        let u = user(&p, &format!("1391000{i:04}")).await;
        let rec = Arc::new(Recorder::default());
        p.play.connect(u, rec.clone()).await.unwrap();
        let v = p.play.start_game(u, "d", 2, Some(1), &[]).await.unwrap();
        players.push((u, v.id, rec));
    }
    pass(300).await;
    let pushed = |rec: &Recorder| rec.0.lock().len();
    let before: Vec<usize> = players.iter().map(|(_, _, r)| pushed(r)).collect();
    p.play.session_op(players[0].0, SessionOp::CancelQueue, players[0].1).await.unwrap();
    // Step through one period (250 ms, ticks every 50 ms) and a tick more, 15 ms a step, and
    // see who was pushed when.
    let mut slices_per_step = vec![];
    let mut seen = vec![false; players.len()];
    for _ in 0..20 {
        tokio::time::advance(Duration::from_millis(10)).await;
        settle().await;
        let mut slices = std::collections::BTreeSet::new();
        for (i, (_, id, rec)) in players.iter().enumerate().skip(1) {
            if !seen[i] && pushed(rec) > before[i] {
                seen[i] = true;
                slices.insert(id % 5);
                let Some(GameState::Online(v)) = rec.last_state() else {
                    panic!("a rank push")
                };
                assert_eq!(v.sort, i as u64, "the new rank, exact");
            }
        }
        if !slices.is_empty() {
            slices_per_step.push(slices);
        }
    }
    assert!(seen[1..].iter().all(|s| *s), "every connected player was pushed within the period");
    assert!(
        slices_per_step.iter().all(|s| s.len() == 1),
        "one slice per tick: {slices_per_step:?}"
    );
    assert_eq!(slices_per_step.len(), 5, "the period's pushes are spread over its five ticks");
    let _ = std::fs::remove_dir_all(dir);
}

/// One queue per node: players of different games share the node's machines and one order, so
/// "第 1 位" means the next machine freed on the node, whatever the game.
#[tokio::test(start_paused = true)]
async fn ranks_are_node_wide() {
    let (p, dir) = platform("nodewide", 1).await;
    let holder = user(&p, "13920000000").await;
    let a = user(&p, "13920000001").await;
    let b = user(&p, "13920000002").await;
    let c = user(&p, "13920000003").await;
    let held = p.play.start_game(holder, "d", 3, Some(1), &[]).await.unwrap();
    settle().await;
    assert_eq!(online(&p, holder).await.status, Status::Ready);
    assert_eq!(p.play.start_game(a, "d", 1, Some(1), &[]).await.unwrap().sort, 1);
    assert_eq!(
        p.play.start_game(b, "d", 2, Some(1), &[]).await.unwrap().sort,
        2,
        "another game, same node: behind"
    );
    assert_eq!(p.play.start_game(c, "d", 1, Some(1), &[]).await.unwrap().sort, 3);
    let rec_b = Arc::new(Recorder::default());
    p.play.connect(b, rec_b.clone()).await.unwrap();
    p.play.session_op(holder, SessionOp::Over, held.id).await.unwrap();
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Ready, "rank 1 got the machine");
    let vb = online(&p, b).await;
    assert_eq!((vb.status, vb.sort, vb.game_id), (Status::Queue, 1, 2));
    assert_eq!(online(&p, c).await.sort, 2);
    pass(300).await;
    assert!(
        matches!(rec_b.last_state(), Some(GameState::Online(v)) if v.sort == 1),
        "the move was pushed"
    );
    let _ = std::fs::remove_dir_all(dir);
}
