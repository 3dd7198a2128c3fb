//! The harness against a real `target/debug/yoo-server` process (built beforehand by
//! `make test` / `ops/test.sh`; this test builds nothing).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use loadtest::Config;

/// A running server process and its data directory; killed and removed on drop.
struct Server {
    child: Child,
    dir: PathBuf,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start_server(name: &str, machines: usize) -> Server {
    let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/debug/yoo-server");
    assert!(
        bin.is_file(),
        "{} is missing: build the server first with `cargo build -p facade` (make test does)",
        bin.display()
    );
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!(
        "yoo-loadtest-{name}-{}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let machines: Vec<String> = (1..=machines).map(|i| format!("\"m{i:02}\"")).collect();
    let config = format!(
        r#"mode = "dev"
bind = "127.0.0.1:0"
data_dir = "{data}"
frontend_dir = "/nonexistent"
workers = 1
[game]
connect_countdown_secs = 60
connect_delay_ms = 50
[[nodes]]
id = 1
name = "压测一区"
status = 1
machines = [{machines}]
"#,
        data = dir.join("data").display(),
        machines = machines.join(", ")
    );
    let config_path = dir.join("server.toml");
    std::fs::write(&config_path, config).unwrap();
    let mut child = Command::new(&bin)
        .arg("--config")
        .arg(&config_path)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
    // Read stdout on a thread, for ever: the listening line, then whatever is logged (an
    // unread pipe would block the server once full).
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(url) = line.strip_prefix("yoo-server listening on ") {
                let _ = tx.send(url.trim().to_string());
            }
        }
    });
    let mut server = Server {
        child,
        dir,
        url: String::new(),
    };
    server.url = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("yoo-server prints its address within 30 s");
    server
}

// 20 players, all at once, share 2 machines: every journey completes, most after queuing,
// and each READY handed over after an `over` yields a handoff sample.
#[actix_rt::test]
async fn twenty_players_share_two_machines() {
    let server = start_server("twenty", 2);
    let mut config = Config::new(&server.url, 20);
    config.concurrency = 20;
    config.play = Duration::from_millis(50);
    config.timeout = Duration::from_secs(60);
    // A prefix of its own per run, so that a rerun within a minute gets fresh phones.
    config.phone_prefix = format!("13{}", std::process::id() % 100_000_000)
        .chars()
        .take(9)
        .collect();
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
    assert!(
        handoff.count >= 17,
        "one sample per handed-over machine: {handoff:?}"
    );
    assert!(handoff.max_ms < 10_000.0, "{handoff:?}");
    let counted = |name: &str| {
        report
            .steps
            .iter()
            .find(|r| r.step == name)
            .map_or(0, |r| r.summary.count)
    };
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
}
