//! The queue-scale scenario in small against a real `target/debug/yoo-server` (built beforehand
//! by `make test`): 300 players waiting, the first 100 with a socket spread over two child
//! processes (this crate's `loadtest` binary) on 127.0.0.2 and 127.0.0.3, 10 machines taken
//! back every 400 ms, a 3 s window.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::start_server;
use loadtest::config::QueueConfig;

#[actix_rt::test]
async fn small_queue_ranks_never_lie() {
    let server = start_server("queue-scale", 10, "rank_refresh_ms = 100");
    let mut cfg = QueueConfig::new(&server.url, 300, 100, 10);
    cfg.hold = Duration::from_millis(400);
    cfg.hold_jitter = Duration::from_millis(50);
    cfg.window = Duration::from_secs(3);
    cfg.procs = 2;
    cfg.concurrency = 100;
    cfg.socket_concurrency = 50;
    cfg.server_pid = Some(server.child.id());
    cfg.settle = Duration::ZERO;
    cfg.timeout = Duration::from_secs(25);
    // By receipt, a READY delayed behind a rank push on a busy test machine is delivery order,
    // not a lie; the server-clock check below has no slack.
    cfg.lie_slack = Duration::from_millis(500);
    cfg.exe = Some(PathBuf::from(env!("CARGO_BIN_EXE_loadtest")));
    // A prefix of its own per run, so that a rerun within a minute gets fresh phones.
    cfg.phone_prefix = format!("14{}", std::process::id() % 1_000_000).chars().take(6).collect();
    let report = loadtest::queue_scale::run(&cfg).await.unwrap();
    print!("{}", report.table());

    assert_eq!(report.waiting, 300, "{:?}", report.errors);
    assert!(report.r0_exact, "the socket players hold ranks 1..100");
    assert_eq!((report.connected, report.connect_failed), (100, 0));
    assert_eq!(report.initial_exact, 100, "each socket first shows the rank at start");
    assert!(report.errors.is_empty(), "{:?}", report.errors);

    // Machines freed and were handed over; the harness saw what the server counted.
    let r = &report.ranks;
    assert!(r.admissions >= 20, "{r:?}");
    // The server counts admissions up to the end of the window; a READY can arrive just after it.
    let counted = report.server_admissions.expect("admissions counted") as usize;
    assert!(
        (r.admissions..=r.admissions + 3).contains(&counted),
        "every admission reached a socket player: server {counted}, harness {}",
        r.admissions
    );
    let h = &report.handoff;
    assert!(h.frees >= 20, "{h:?}");
    assert!(
        h.since_latest_free_answer.is_some() && h.free_answer_to_next_ready.is_some(),
        "{h:?}"
    );

    // Ranks were pushed, measured, and never lied or went up.
    assert!(r.rank_pushes > 100, "{r:?}");
    assert_eq!(r.non_monotone, 0, "{r:?}");
    for t in [&r.by_receipt, &r.by_server_clock] {
        assert!(t.staleness_at_receipt.is_some() && t.displayed_staleness.is_some(), "{r:?}");
        assert_eq!((t.lies, t.imputed_admissions), (0, 0), "{r:?}");
    }
    assert_eq!(r.by_server_clock.fifo_inversions, 0, "admissions follow the start ranks: {r:?}");
    assert!(
        r.push_gaps.is_some() && r.rank_delivery.is_some() && r.admission_to_ready_receipt.is_some(),
        "{r:?}"
    );
    assert_eq!(report.exit_code(), 0);

    // The server's side was read: CPU over the window, memory after each phase.
    let cpu = report.cpu.as_ref().expect("CPU measured");
    assert!(
        cpu.server_pct.is_some_and(|p| p > 0.0) && cpu.walks.is_some_and(|w| w > 0.0),
        "{cpu:?}"
    );
    assert_eq!(report.memory.len(), 5);
    assert!(report.bytes_per_waiting_without_socket.is_some() && report.bytes_per_socket.is_some());
}

/// The password-login side load (issue 11) in small: 4 accounts prepared before the queue fills
/// (a code login, then the forgot-password calls), 3 password logins a second over a 3 s
/// window, each with the right password: all answered, none refused, their latency reported.
#[actix_rt::test]
async fn password_side_load_logs_in_during_the_window() {
    let server = start_server("queue-scale-pw", 10, "rank_refresh_ms = 100");
    let mut cfg = QueueConfig::new(&server.url, 120, 60, 10);
    cfg.hold = Duration::from_millis(400);
    cfg.hold_jitter = Duration::from_millis(50);
    cfg.window = Duration::from_secs(3);
    cfg.procs = 1;
    cfg.concurrency = 60;
    cfg.socket_concurrency = 30;
    cfg.settle = Duration::ZERO;
    cfg.timeout = Duration::from_secs(40);
    cfg.lie_slack = Duration::from_millis(500);
    cfg.exe = Some(PathBuf::from(env!("CARGO_BIN_EXE_loadtest")));
    cfg.phone_prefix = format!("13{}", std::process::id() % 1_000_000).chars().take(6).collect();
    cfg.password_logins_per_sec = 3.0;
    cfg.password_accounts = 4;
    let report = loadtest::queue_scale::run(&cfg).await.unwrap();
    let table = report.table();
    print!("{table}");

    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let prepared = report.setup.iter().find(|p| p.phase == "password accounts").expect("the setup row");
    assert_eq!((prepared.ok, prepared.failed), (4, 0));
    let p = report.password_logins.as_ref().expect("the side load's figures");
    assert_eq!((p.accounts, p.accounts_asked), (4, 4));
    // 3 a second over the window (it may end early at the guard rank): about 9 due.
    assert!((2..=11).contains(&p.due), "{p:?}");
    assert_eq!(
        (p.sent, p.ok, p.errors, p.refused_busy, p.not_sent),
        (p.due, p.due, 0, 0, 0),
        "{p:?}"
    );
    let lat = p.latency.expect("latency measured");
    assert_eq!(lat.count, p.ok);
    assert!(lat.p50_ms > 0.0 && lat.p99_ms >= lat.p50_ms, "{lat:?}");
    assert!(table.contains("password login (side load)") && table.contains("password logins (side load, 4 accounts of 4)"));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["password_logins"]["ok"], p.ok);
    assert_eq!(report.ranks.by_server_clock.lies, 0);
}
