//! Several `yoo-server` processes as one cluster (`[cluster]`): each on the shared PostgreSQL
//! store and a Redis of the test's own, each showing in `/metrics` which processes are live; a
//! process killed with `-9` drops out once its heartbeat's TTL has passed, one stopped cleanly
//! at once.

use crate::common;
use crate::crash::{on_postgres, spawn, write_config_with, Proc};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cluster::testing::RedisServer;
use common::{get_text, temp_dir};
use storage::testing::{Fresh, FreshPostgres};

/// The heartbeat's TTL in these tests (renewed every 200 ms).
const TTL_MS: u64 = 600;

fn cluster_config(dir: &Path, pg: &str, redis: &RedisServer, process: &str) -> PathBuf {
    let config = on_postgres(&write_config_with(dir, r#"machines = ["m1"]"#), pg);
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        format!(
            "{text}[cluster]\nredis_url = \"{}\"\nprocess_id = \"{process}\"\nlease_ttl_ms = {TTL_MS}\n",
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
