//! The purchases scenario in small against a real `target/debug/yoo-server` (built beforehand
//! by `make test`): 10 buyers, 20 QR orders a second for 2 s, each paid on the sandbox's pay
//! page, then the whole ledger replayed.

mod common;

use std::time::Duration;

use common::start_server;
use loadtest::config::PurchaseConfig;

#[actix_rt::test]
async fn small_purchases_are_all_fulfilled_and_the_ledger_matches() {
    let server = start_server("purchases", 1, "");
    let mut cfg = PurchaseConfig::new(&server.url, 10, 20.0);
    cfg.window = Duration::from_secs(2);
    cfg.concurrency = 10;
    cfg.server_pid = Some(server.child.id());
    cfg.timeout = Duration::from_secs(60);
    // A prefix of its own per run, so that a rerun within a minute gets fresh phones.
    cfg.phone_prefix = format!("152{}", std::process::id() % 1_000_000).chars().take(7).collect();
    let report = loadtest::purchases::run(&cfg).await.unwrap();
    print!("{}", report.table());

    assert_eq!(report.setup[0].ok, 10, "{:?}", report.errors);
    assert_eq!((report.due, report.not_sent), (40, 0));
    assert_eq!(
        (report.created, report.fulfilled, report.unfulfilled),
        (40, 40, 0),
        "{:?}",
        report.errors
    );
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let (create, fulfil) = (
        report.create.expect("creation latencies"),
        report.fulfil.expect("fulfilment latencies"),
    );
    assert_eq!((create.count, fulfil.count), (40, 40));
    // Every buyer's play time and ledger were written, and the replay matches.
    assert!(report.ledger_checked && report.ledger_users >= 10, "{}", report.ledger_users);
    assert_eq!(report.ledger_mismatches, vec![]);
    assert!(report.server_cpu_pct.is_some());
    assert_eq!(report.targets.len(), 2);
    assert_eq!(report.exit_code(), 0);
}
