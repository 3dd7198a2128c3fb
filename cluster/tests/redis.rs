//! Leases and membership against a real `redis-server` of each test's own. Redis keeps real
//! time (its keys expire by its own clock), so these tests run on real time with a short TTL,
//! each wait bounded; the protocol on simulated time is the cluster's deterministic tests.

use std::time::Duration;

use cluster::testing::RedisServer;
use cluster::{ClusterConfig, Leases, Members};
use tokio::time::{timeout, Instant};

const TTL: Duration = Duration::from_millis(600);

fn config(redis: &RedisServer, process: &str) -> ClusterConfig {
    ClusterConfig {
        ttl: TTL,
        ..ClusterConfig::new(&redis.url(), process, &format!("127.0.0.1:80{}", &process[1..]))
    }
}

async fn redis_cmd(redis: &RedisServer, args: &[&str]) -> Option<String> {
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let mut cmd = redis::cmd(args[0]);
    for a in &args[1..] {
        cmd.arg(*a);
    }
    cmd.query_async(&mut conn).await.unwrap()
}

#[tokio::test]
async fn a_lease_has_one_holder_at_a_time_and_is_kept_past_its_ttl() {
    let redis = RedisServer::start();
    let (p1, p2) = (
        Leases::start(&config(&redis, "p1")).unwrap(),
        Leases::start(&config(&redis, "p2")).unwrap(),
    );
    let lease = p1.try_acquire("queue:1").await.unwrap().expect("free");
    assert!(lease.is_valid());
    assert!(p2.try_acquire("queue:1").await.unwrap().is_none(), "held by p1");
    assert!(p1.try_acquire("queue:1").await.unwrap().is_none(), "p1 holds it already");
    assert_eq!(p2.holder("queue:1").await.unwrap().as_deref(), Some("p1"));
    assert_eq!(p2.holder("queue:2").await.unwrap(), None);
    // renewed: three TTLs later it is still p1's
    tokio::time::sleep(TTL * 3).await;
    assert!(lease.is_valid());
    assert_eq!(p1.held(), vec!["queue:1".to_owned()]);
    assert!(p2.try_acquire("queue:1").await.unwrap().is_none());
    p1.release(lease).await.unwrap();
    assert!(p1.held().is_empty());
    let taken = p2.try_acquire("queue:1").await.unwrap().expect("released");
    assert_eq!(p1.holder("queue:1").await.unwrap().as_deref(), Some("p2"));
    assert!(taken.is_valid());
}

#[tokio::test]
async fn a_lease_given_away_in_redis_is_lost_at_the_next_renewal() {
    let redis = RedisServer::start();
    let p1 = Leases::start(&config(&redis, "p1")).unwrap();
    let mut lease = p1.try_acquire("room:9").await.unwrap().expect("free");
    redis_cmd(&redis, &["SET", "yoo:lease:room:9", "p2:0"]).await;
    timeout(TTL, lease.lost()).await.expect("lost within a renewal period");
    assert!(!lease.is_valid());
    assert!(p1.held().is_empty());
    // the other value is untouched (no compare-and-delete of someone else's lease)
    p1.release(lease).await.unwrap();
    assert_eq!(redis_cmd(&redis, &["GET", "yoo:lease:room:9"]).await.as_deref(), Some("p2:0"));
}

/// Fail closed: a holder whose renewals do not get through (Redis paused) stops counting its
/// lease valid before Redis expires the key, so the next holder never overlaps it.
#[tokio::test]
async fn a_holder_that_cannot_renew_stops_before_another_can_take_over() {
    let mut redis = RedisServer::start();
    let (p1, p2) = (
        Leases::start(&config(&redis, "p1")).unwrap(),
        Leases::start(&config(&redis, "p2")).unwrap(),
    );
    let mut lease = p1.try_acquire("queue:1").await.unwrap().expect("free");
    let pid = redis.pid().expect("running");
    let paused = Instant::now();
    signal(pid, "STOP");
    timeout(TTL * 2, lease.lost()).await.expect("lost while Redis is paused");
    let lost_after = paused.elapsed();
    assert!(!lease.is_valid());
    // at the last renewal's send time + TTL - margin (so within the TTL of the pause), give or
    // take a busy machine's late timer
    assert!(
        lost_after <= TTL + Duration::from_millis(300),
        "lost {lost_after:?} after the pause"
    );
    signal(pid, "CONT");
    let taken = loop {
        if let Some(l) = p2.try_acquire("queue:1").await.unwrap_or(None) {
            break l;
        }
        assert!(paused.elapsed() < TTL * 10, "p2 never took the lease");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(taken.is_valid());
    assert!(paused.elapsed() >= lost_after, "p2 took it after p1 had stopped");
    redis.kill();
}

/// A Redis restart forgets every lease: a holder learns it at its next renewal.
#[tokio::test]
async fn a_redis_restart_loses_the_leases_and_they_can_be_taken_again() {
    let mut redis = RedisServer::start();
    let p1 = Leases::start(&config(&redis, "p1")).unwrap();
    let mut lease = p1.try_acquire("queue:1").await.unwrap().expect("free");
    redis.restart();
    timeout(TTL * 2, lease.lost()).await.expect("lost after the restart");
    let again = loop {
        if let Ok(Some(l)) = p1.try_acquire("queue:1").await {
            break l;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(again.is_valid());
}

#[tokio::test]
async fn members_see_each_other_and_a_process_gone() {
    let mut redis = RedisServer::start();
    let p1 = Members::start(&config(&redis, "p1")).await.unwrap();
    let p2 = Members::start(&config(&redis, "p2")).await.unwrap();
    let p3 = Members::start(&config(&redis, "p3")).await.unwrap();
    let names = |m: &[cluster::Member]| m.iter().map(|m| m.process.clone()).collect::<Vec<_>>();
    assert_eq!(names(&p1.refresh().await.unwrap()), ["p1", "p2", "p3"]);
    assert_eq!(p1.live()[1].advertise, "127.0.0.1:802");
    // a clean stop: gone at the next beat
    p3.leave().await.unwrap();
    drop(p3);
    assert_eq!(names(&p1.refresh().await.unwrap()), ["p1", "p2"]);
    // a process that stops beating (killed): gone once its TTL has passed
    drop(p2);
    let started = Instant::now();
    while names(&p1.refresh().await.unwrap()) != ["p1"] {
        assert!(started.elapsed() < TTL * 3, "p2 still listed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // after a Redis restart everyone is back at their next beat
    redis.restart();
    let started = Instant::now();
    while names(&p1.live()) != ["p1"] || p1.refresh().await.is_err() {
        assert!(started.elapsed() < TTL * 3, "p1 never beat again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn signal(pid: u32, sig: &str) {
    let ok = std::process::Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{sig} {pid}");
}

#[tokio::test]
async fn a_broadcast_reaches_every_process_and_a_resubscription_is_a_gap() {
    use cluster::broadcast::{OnGap, OnMessage};
    use std::sync::{Arc, Mutex};

    let mut redis = RedisServer::start();
    let got: Vec<Arc<Mutex<Vec<String>>>> = (0..3).map(|_| Arc::default()).collect();
    let gaps: Vec<Arc<std::sync::atomic::AtomicUsize>> = (0..3).map(|_| Arc::default()).collect();
    let procs: Vec<cluster::Broadcast> = (0..3)
        .map(|i| {
            let (g, n) = (got[i].clone(), gaps[i].clone());
            let on_message: OnMessage = Arc::new(move |m| g.lock().unwrap().push(String::from_utf8_lossy(m).into_owned()));
            let on_gap: OnGap = Arc::new(move || {
                n.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            });
            cluster::Broadcast::start(&config(&redis, &format!("p{i}")), "logins", on_message, on_gap).unwrap()
        })
        .collect();
    let all_subscribed = |want: usize| gaps.iter().all(|n| n.load(std::sync::atomic::Ordering::SeqCst) >= want);
    let started = Instant::now();
    while !all_subscribed(1) {
        assert!(started.elapsed() < Duration::from_secs(5), "not all subscribed");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(procs[0].publish(b"logout abc").await.unwrap(), 3);
    let started = Instant::now();
    while got.iter().any(|g| g.lock().unwrap().is_empty()) {
        assert!(started.elapsed() < Duration::from_secs(5), "not delivered everywhere");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    for g in &got {
        assert_eq!(*g.lock().unwrap(), ["logout abc"]);
    }
    // Redis restarts: every process subscribes again and is told it may have missed messages
    redis.restart();
    let started = Instant::now();
    while !all_subscribed(2) {
        assert!(started.elapsed() < Duration::from_secs(5), "not all subscribed again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let reached = loop {
        if let Ok(n) = procs[2].publish(b"ban 7").await {
            break n;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(reached, 3);
}
