//! The harness against a real `target/debug/yoo-server` process (built beforehand by
//! `make test` / `ops/test.sh`; this test builds nothing).

mod common;

use std::time::Duration;

use common::start_server;
use loadtest::Config;

// 20 players, all at once, share 2 machines: every journey completes, most after queuing,
// and each READY handed over after an `over` yields a handoff sample.
#[actix_rt::test]
async fn twenty_players_share_two_machines() {
    let server = start_server("twenty", 2, "");
    let mut config = Config::new(&server.url, 20);
    config.concurrency = 20;
    config.play = Duration::from_millis(50);
    config.timeout = Duration::from_secs(60);
    // A prefix of its own per run, so that a rerun within a minute gets fresh phones.
    config.phone_prefix = format!("13{}", std::process::id() % 100_000_000).chars().take(9).collect();
    let report = loadtest::run(&config).await.unwrap();
    print!("{}", report.table());
    assert_eq!(
        (report.completed, report.failed, report.timed_out),
        (20, 0, 0),
        "{:?} {:?}",
        report.errors,
        report.timeouts
    );
    assert_eq!(report.exit_code(), 0);
    let handoff = report.handoff.expect("handoff latency measured");
    // All but the first two got a machine freed by an `over`; only the very first handoff's push
    // can arrive before any `over` answer has.
    assert!(handoff.count >= 17, "one sample per handed-over machine: {handoff:?}");
    assert!(handoff.max_ms < 10_000.0, "{handoff:?}");
    let counted = |name: &str| report.steps.iter().find(|r| r.step == name).map_or(0, |r| r.summary.count);
    for step in [
        "sendcode",
        "login",
        "fetchToken",
        "ws connect",
        "start",
        "confirmConnect",
        "wait PLAYING",
        "over",
        "wait end",
    ] {
        assert_eq!(counted(step), 20, "{step}");
    }
    assert_eq!(counted("wait READY") + report.ready_at_start, 20);

    // After 20 users: every series has HELP text and bounded labels (no user, session or
    // room id: a label's values are kinds, routes, node ids and lanes).
    let text = loadtest::client::Browser::new(&server.url, "metrics")
        .get_text("/metrics")
        .await
        .unwrap();
    assert_bounded_metrics(&text);
}

/// Every `# TYPE` has its `# HELP`; every label is one of the bounded ones; numbers only where
/// the label is a status, a node or a bucket; and few series in all.
fn assert_bounded_metrics(text: &str) {
    const LABELS: &[&str] = &[
        "route", "method", "status", "state", "reason", "kind", "node", "lane", "outcome", "provider", "quantile", "le",
    ];
    const NUMERIC: &[&str] = &["status", "node", "quantile", "le"];
    for line in text.lines().filter(|l| l.starts_with("# TYPE ")) {
        let name = line.split_whitespace().nth(2).unwrap();
        assert!(text.contains(&format!("# HELP {name} ")), "{name} has no HELP text");
    }
    let samples: Vec<&str> = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    assert!(samples.len() < 600, "{} series", samples.len());
    for sample in samples {
        let Some((_, labels)) = sample.split_once('{') else { continue };
        let labels = labels.rsplit_once('}').unwrap().0;
        for pair in labels.split("\",").filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once("=\"").unwrap();
            let value = value.trim_end_matches('"');
            assert!(LABELS.contains(&name), "label {name} in {sample}");
            if !NUMERIC.contains(&name) {
                assert!(value.parse::<f64>().is_err(), "a number as {name} in {sample}");
            }
        }
    }
}
