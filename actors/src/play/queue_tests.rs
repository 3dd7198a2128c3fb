//! The node queue through its real actor, a real SQLite store and real session actors, on
//! paused tokio time: several games share one node's machines and one order.

use crate::play::PlayCtx;
use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use storage::NewGameSession;

use super::*;
use crate::config::{DomainConfig, NodeConfig};
use crate::platform::Platform;
use crate::play::connection::ConnectionSink;
use crate::play::game_session::SessionMsg;
use crate::play::lanes::{total_weight, ALL_LANES, STEP};

/// The last rank pushed to one user.
#[derive(Default)]
struct LastRank(Mutex<Option<u64>>);

impl ConnectionSink for LastRank {
    fn push(&self, push: &Push) -> bool {
        if let Push::GameStatus(GameState::Online(v)) = push {
            *self.0.lock() = (v.status == Status::Queue).then_some(v.sort);
        }
        true
    }
}

async fn settle() {
    for _ in 0..8 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!("yoo-queue-{name}-{}-{nanos}", std::process::id()))
}

async fn platform(name: &str, machines: usize) -> (Platform, std::path::PathBuf) {
    let dir = temp_dir(name);
    let store = storage::Store::open_sqlite(&dir).unwrap();
    let config = DomainConfig {
        connect_countdown_secs: 3600,
        rank_refresh_ms: 100,
        sms_fail_numbers: vec![],
        nodes: vec![NodeConfig {
            id: 1,
            name: "测试一区".into(),
            status: 1,
            machines: (0..machines).map(|i| format!("m{i}")).collect(),
            host_secret: None,
        }],
        ..DomainConfig::default()
    };
    (Platform::start(store, config).await.unwrap(), dir)
}

/// A waiting player the test keeps track of.
struct Joined {
    /// The rank the join answered (what the player sees until a push).
    rank: u64,
    /// Admissions so far when they joined, and their no-starvation bound (`lanes.rs`).
    at_join: u64,
    bound: u64,
}

/// Several games on one node, every lane, random joins, cancels and frees: whoever is shown
/// rank 1 is the next admitted, whatever their game; the ranks shown (asked and pushed) are
/// exactly the admission order; and every player is admitted within the no-starvation bound
/// of `lanes.rs`, counted in admissions of every game.
#[tokio::test(start_paused = true)]
async fn admission_order_is_the_shown_ranks() {
    let (p, dir) = platform("order", 2).await;
    let ctx = p.ctx.clone();
    let q = ctx.queue(1).unwrap();
    let games: Vec<(i64, GameMeta)> = [1i64, 2, 3, 4, 5]
        .into_iter()
        .map(|id| {
            (
                id,
                GameMeta {
                    name: format!("g{id}").into(),
                    logo: "".into(),
                    host_game: "".into(),
                },
            )
        })
        .collect();
    let mut rng = StdRng::seed_from_u64(7);
    let mut waiting: HashMap<i64, Joined> = HashMap::new();
    let mut playing: Vec<i64> = vec![];
    let mut sinks: HashMap<i64, Arc<LastRank>> = HashMap::new();
    let mut admitted = 0u64;
    let mut by_game = [0u64; 6];
    let now = ctx.clock.now_ms();
    for step in 0..400u64 {
        let roll = rng.random_range(0..100);
        if roll < 50 {
            // A join: a new user, a random game and lane; a third of them with a socket.
            let phone = format!("170{step:08}");
            let uid = ctx.store.users.get_or_create_by_phone(&phone, "p", now).unwrap().0.uid;
            let (game_id, meta) = games[rng.random_range(0..games.len())].clone();
            let lane = ALL_LANES[rng.random_range(0..ALL_LANES.len())];
            let record = ctx
                .store
                .sessions
                .insert(&NewGameSession {
                    uid,
                    game_id,
                    node_id: 1,
                    device_no: "d".into(),
                    created_at: now,
                    lane: lane.code(),
                    cutoff_at: None,
                })
                .unwrap();
            if rng.random_range(0..3) == 0 {
                let sink = Arc::new(LastRank::default());
                p.play.connect(uid, sink.clone()).await.unwrap();
                sinks.insert(record.id, sink);
            }
            let w = Waiting {
                session_id: record.id,
                uid,
                game_id,
                device_no: "d".into(),
                since_ms: now,
                ..Waiting::default()
            };
            let ahead_of_joiner = ractor::call!(q, QueueMsg::Preview, lane, None).unwrap().ahead;
            let v = ractor::call!(q, QueueMsg::Enqueue, w, lane, meta).unwrap().unwrap();
            assert_eq!((v.sort, v.game_id, v.is_fast), (ahead_of_joiner + 1, game_id, lane.code()));
            settle().await;
            if let Some((_, place, v0)) = located(&q, record.id).await {
                // Still waiting: the bound, from the place it was given (a join does not move
                // the virtual time).
                let bound = (v.sort - 1)
                    + ALL_LANES
                        .iter()
                        .map(|k| ((place.tag - v0) * k.weight()).div_ceil(STEP))
                        .sum::<u64>();
                waiting.insert(
                    record.id,
                    Joined {
                        rank: v.sort,
                        at_join: admitted,
                        bound,
                    },
                );
            } else {
                // A machine was free: admitted on joining, so nobody waited.
                assert!(waiting.is_empty(), "a free machine while others waited");
                admitted += 1;
                by_game[game_id as usize] += 1;
                playing.push(record.id);
            }
        } else if roll < 62 && !waiting.is_empty() {
            // A cancel.
            let ids: Vec<i64> = waiting.keys().copied().collect();
            let id = ids[rng.random_range(0..ids.len())];
            assert!(ractor::call!(q, QueueMsg::Remove, id).unwrap());
            waiting.remove(&id);
        } else if !playing.is_empty() {
            // A free: who is shown rank 1 now must get the machine.
            let ranks = shown_ranks(&q, &waiting).await;
            let first = ranks.iter().find(|(_, r)| **r == 1).map(|(id, _)| *id);
            let at = rng.random_range(0..playing.len());
            let leaving = playing.swap_remove(at);
            let s = ctx
                .sessions()
                .get(&SessionKey::lookup(leaving))
                .expect("a session holds its machine");
            ractor::call!(s, SessionMsg::Over).unwrap().unwrap();
            settle().await;
            if let Some(first) = first {
                let s = ctx.sessions().get(&SessionKey::lookup(first)).expect("rank 1 was admitted");
                assert_eq!(ractor::call!(s, SessionMsg::Get).unwrap().status, Status::Ready);
                let j = waiting.remove(&first).unwrap();
                assert!(
                    admitted - j.at_join <= j.bound,
                    "step {step}: waited {} admissions, bound {}",
                    admitted - j.at_join,
                    j.bound
                );
                admitted += 1;
                let game = ractor::call!(s, SessionMsg::Get).unwrap().game_id;
                by_game[game as usize] += 1;
                playing.push(first);
            }
        }
        // The ranks shown are exactly 1..=n, and the pushed ones catch up within a period.
        if step % 10 == 0 {
            let ranks = shown_ranks(&q, &waiting).await;
            let mut sorted: Vec<u64> = ranks.values().copied().collect();
            sorted.sort_unstable();
            assert_eq!(sorted, (1..=waiting.len() as u64).collect::<Vec<_>>(), "step {step}");
            for _ in 0..12 {
                tokio::time::advance(Duration::from_millis(10)).await;
                settle().await;
            }
            for (id, sink) in &sinks {
                if let (Some(rank), Some(j)) = (ranks.get(id), waiting.get(id)) {
                    let seen = sink.0.lock().unwrap_or(j.rank);
                    assert_eq!(seen, *rank, "step {step}: the rank {id} sees");
                }
            }
        }
    }
    assert!(admitted > 50, "{admitted}");
    assert!(by_game[1..].iter().all(|n| *n > 0), "every game was admitted: {by_game:?}");
    assert!(total_weight() > 0);
    let _ = std::fs::remove_dir_all(dir);
}

/// Every waiting player's rank as the queue shows it.
async fn shown_ranks(q: &ActorRef<QueueMsg>, waiting: &HashMap<i64, Joined>) -> HashMap<i64, u64> {
    let mut ranks = HashMap::new();
    for id in waiting.keys() {
        let v = ractor::call!(q, QueueMsg::Get, *id).unwrap().expect("waiting");
        ranks.insert(*id, v.sort);
    }
    ranks
}

/// A waiting session's rank, place and the virtual time of the queue.
async fn located(q: &ActorRef<QueueMsg>, id: i64) -> Option<(u64, Place, u64)> {
    ractor::call!(q, QueueMsg::Inspect, id).unwrap()
}

/// A node queue that fails is restarted by its supervisor and rebuilds itself from storage: the
/// same players in the same order, the machine a live session holds still out (never handed out
/// twice), and the next freed machine goes to rank 1.
#[tokio::test(start_paused = true)]
async fn a_failed_queue_rebuilds_itself_from_storage() {
    let (p, dir) = platform("recover", 1).await;
    let ctx = p.ctx.clone();
    let q = ctx.queue(1).unwrap();
    let now = ctx.clock.now_ms();
    let mut ids = vec![];
    for (i, lane) in [Lane::Normal, Lane::Normal, Lane::Vip, Lane::Normal, Lane::Daily]
        .into_iter()
        .enumerate()
    {
        let uid = ctx
            .store
            .users
            .get_or_create_by_phone(&format!("1710000000{i}"), "p", now)
            .unwrap()
            .0
            .uid;
        let game_id = 1 + (i as i64 % 3);
        let record = ctx
            .store
            .sessions
            .insert(&NewGameSession {
                uid,
                game_id,
                node_id: 1,
                device_no: "d".into(),
                created_at: now,
                lane: lane.code(),
                cutoff_at: None,
            })
            .unwrap();
        let w = Waiting {
            session_id: record.id,
            uid,
            game_id,
            device_no: "d".into(),
            since_ms: now,
            ..Waiting::default()
        };
        let meta = GameMeta {
            name: format!("g{game_id}").into(),
            logo: "".into(),
            host_game: "".into(),
        };
        ractor::call!(q, QueueMsg::Enqueue, w, lane, meta).unwrap().unwrap();
        settle().await;
        ids.push(record.id);
    }
    let holder = ids[0];
    let waiting: HashMap<i64, Joined> = ids[1..]
        .iter()
        .map(|id| {
            (
                *id,
                Joined {
                    rank: 0,
                    at_join: 0,
                    bound: 0,
                },
            )
        })
        .collect();
    let before = shown_ranks(&q, &waiting).await;
    assert_eq!(ractor::call!(q, QueueMsg::Stats).unwrap(), (0, 1));

    let _ = q.send_message(QueueMsg::Fail);
    settle().await;
    let q2 = ctx.queue(1).unwrap();
    assert_ne!(q2.get_id(), q.get_id(), "a new actor");
    assert_eq!(shown_ranks(&q2, &waiting).await, before, "the same order");
    assert_eq!(ractor::call!(q2, QueueMsg::Stats).unwrap(), (0, 1), "the held machine is still out");

    let s = ctx.sessions().get(&SessionKey::lookup(holder)).unwrap();
    ractor::call!(s, SessionMsg::Over).unwrap().unwrap();
    settle().await;
    let first = before.iter().find(|(_, r)| **r == 1).map(|(id, _)| *id).unwrap();
    let s = ctx.sessions().get(&SessionKey::lookup(first)).expect("rank 1 got the machine");
    assert_eq!(ractor::call!(s, SessionMsg::Get).unwrap().status, Status::Ready);
    assert_eq!(ractor::call!(q2, QueueMsg::Len).unwrap(), 3);
    let _ = std::fs::remove_dir_all(dir);
}

/// The value of an unlabelled gauge (or of `name{labels}`) in the recorder's rendering.
fn gauge(recorder: &metrics_exporter_prometheus::PrometheusRecorder, series: &str) -> f64 {
    let text = recorder.handle().render();
    text.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|rest| rest.strip_prefix(' ')))
        .map(|v| v.trim().parse().unwrap())
        .unwrap_or(0.0)
}

/// A queue restarted after a failure corrects the gauges to the state it rebuilt, not the
/// counts of the actor that failed: here a waiting player whose leaving was stored before the
/// failure is not rebuilt, and no longer counted.
#[tokio::test(start_paused = true)]
async fn a_restarted_queue_counts_what_it_rebuilt() {
    let recorder = metrics_exporter_prometheus::PrometheusBuilder::new().build_recorder();
    let _local = metrics::set_default_local_recorder(&recorder);
    let (p, dir) = platform("gauges", 1).await;
    let ctx = p.ctx.clone();
    let now = ctx.clock.now_ms();
    let q = ctx.queue(1).unwrap();
    assert_eq!(gauge(&recorder, "yoo_machines_free{node=\"1\"}"), 1.0);
    let mut ids = vec![];
    for i in 0..4 {
        let uid = ctx
            .store
            .users
            .get_or_create_by_phone(&format!("1720000000{i}"), "p", now)
            .unwrap()
            .0
            .uid;
        ctx.store.assets.add_play_time(uid, 60, 0, 0).unwrap();
        let v = p.play.start_game(uid, "d", 1, Some(1), &[]).await.unwrap();
        ids.push(v.id);
        settle().await;
    }
    let check = |waiting: f64, free: f64, why: &str| {
        let lane = "yoo_players_waiting{node=\"1\",lane=\"normal\"}";
        assert_eq!(gauge(&recorder, lane), waiting, "waiting: {why}");
        assert_eq!(gauge(&recorder, "yoo_sessions{state=\"queue\"}"), waiting, "queue state: {why}");
        assert_eq!(gauge(&recorder, "yoo_machines_free{node=\"1\"}"), free, "free: {why}");
    };
    check(3.0, 0.0, "one player holds the machine, three wait");

    // The last waiting player's end is stored, then the queue fails before it hears of it.
    let gone = ids[3];
    let mut r = ctx.store.sessions.get(gone).unwrap().unwrap();
    r.status = 0;
    r.ended_at = Some(now);
    ctx.store.sessions.update(&r).unwrap();
    let _ = q.send_message(QueueMsg::Fail);
    settle().await;
    let q2 = ctx.queue(1).unwrap();
    assert_ne!(q2.get_id(), q.get_id());
    assert_eq!(ractor::call!(q2, QueueMsg::Len).unwrap(), 2);
    check(2.0, 0.0, "as rebuilt");

    // And they keep following the queue.
    let s = ctx.sessions().get(&SessionKey::lookup(ids[0])).unwrap();
    ractor::call!(s, SessionMsg::Over).unwrap().unwrap();
    settle().await;
    check(1.0, 0.0, "the machine went to the next player");
    // Two admissions in the normal lane (the first player on joining, the next on the release),
    // and one hand-off measured: the release's.
    assert_eq!(gauge(&recorder, "yoo_queue_admissions_total{node=\"1\",lane=\"normal\"}"), 2.0);
    assert_eq!(gauge(&recorder, "yoo_handoff_seconds_count{node=\"1\"}"), 1.0);
    let _ = std::fs::remove_dir_all(dir);
}

/// A machine released while its queue is failing and being restarted comes back to the pool
/// (and goes to the head), whatever the moment of the release: the release is acknowledged
/// and sent again, and the restarted queue takes it whether or not it found the session ended.
#[tokio::test(start_paused = true)]
async fn a_machine_released_during_a_restart_comes_back() {
    for delay in 0..6 {
        let (p, dir) = platform(&format!("release-{delay}"), 1).await;
        let ctx = p.ctx.clone();
        let now = ctx.clock.now_ms();
        let mut players = vec![];
        for i in 0..2 {
            let uid = ctx
                .store
                .users
                .get_or_create_by_phone(&format!("1730000000{i}"), "p", now)
                .unwrap()
                .0
                .uid;
            ctx.store.assets.add_play_time(uid, 60, 0, 0).unwrap();
            let v = p.play.start_game(uid, "d", 1, Some(1), &[]).await.unwrap();
            players.push((uid, v.id));
            settle().await;
        }
        let q = ctx.queue(1).unwrap();
        let holder = ctx.sessions().get(&SessionKey::lookup(players[0].1)).expect("A holds the machine");
        let _ = q.send_message(QueueMsg::Fail);
        for _ in 0..delay {
            tokio::task::yield_now().await;
        }
        ractor::call!(holder, SessionMsg::Over).unwrap().unwrap();
        for _ in 0..20 {
            settle().await;
        }
        let (b, _) = players[1];
        let vb = match p.play.game_state(b).await.unwrap() {
            GameState::Online(v) => v,
            other => panic!("delay {delay}: B has no session: {other:?}"),
        };
        assert_eq!(vb.status, Status::Ready, "delay {delay}: the released machine went to B");
        let q2 = ctx.queue(1).unwrap();
        assert_ne!(q2.get_id(), q.get_id());
        assert_eq!(
            ractor::call!(q2, QueueMsg::Stats).unwrap(),
            (0, 1),
            "delay {delay}: one machine, out once"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
