//! The room-scale scenario in small against a real `target/debug/yoo-server` (built beforehand
//! by `make test`): one room, 24 viewers over two child processes (this crate's `loadtest`
//! binary) on 127.0.0.2 and 127.0.0.3, 4 of them chatting 10 messages a second in all, 4 others
//! leaving and coming back 2 a second, a 2 s window.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::start_server;
use loadtest::config::RoomConfig;

#[actix_rt::test]
async fn small_room_every_message_reaches_every_viewer() {
    let server = start_server("room-scale", 1, "");
    let mut cfg = RoomConfig::new(&server.url, 24, 10.0);
    cfg.chatters = 4;
    cfg.churn = 2.0;
    cfg.churners = 4;
    cfg.window = Duration::from_secs(2);
    // Generous: a message late on a busy test machine would count as missed.
    cfg.drain = Duration::from_secs(3);
    cfg.procs = 2;
    cfg.concurrency = 25;
    cfg.socket_concurrency = 12;
    cfg.server_pid = Some(server.child.id());
    cfg.settle = Duration::ZERO;
    cfg.timeout = Duration::from_secs(60);
    cfg.exe = Some(PathBuf::from(env!("CARGO_BIN_EXE_loadtest")));
    // A prefix of its own per run, so that a rerun within a minute gets fresh phones.
    cfg.phone_prefix = format!("17{}", std::process::id() % 1_000_000).chars().take(7).collect();
    let report = loadtest::room_scale::run(&cfg).await.unwrap();
    print!("{}", report.table());

    assert!(report.dd_rid > 0 && report.room_serial > 0, "the room was created");
    assert_eq!((report.watching, report.connect_failed), (24, 0), "{:?}", report.errors);
    assert_eq!((report.sent, report.send_failed), (20, 0), "{:?}", report.errors);
    // Everyone present throughout got every message, in offset order without a gap.
    assert_eq!(report.steady, 20);
    assert_eq!((report.complete, report.missing, report.unreceived_messages), (20, 0, 0));
    assert_eq!(report.sums.offset_gaps, 0);
    assert_eq!((report.sums.chat_dups, report.sums.resets, report.sums.closed), (0, 0, 0));
    assert!(report.deliveries >= 20 * 20, "{}", report.deliveries);
    assert_eq!(report.latency_last.count, 20);
    assert!(report.latency_last.p99_ms.is_some() && report.latency_each.count == report.deliveries);
    // The churners left and came back.
    assert!(
        report.churn_exits >= 2 && report.churn_enters >= 1,
        "{} {}",
        report.churn_exits,
        report.churn_enters
    );
    // The server's side was read.
    let s = report.server.as_ref().expect("server figures");
    assert!(s.cpu_s_per_million_deliveries.is_some() && s.bytes_per_viewer.is_some(), "{s:?}");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.exit_code(), 0);
}
