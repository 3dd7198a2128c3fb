//! A real `target/debug/yoo-server` process for the integration tests (built beforehand by
//! `make test` / `ops/test.sh`; the tests build nothing).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running server process and its data directory; killed and removed on drop.
pub struct Server {
    pub child: Child,
    pub dir: PathBuf,
    pub url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A server on a fresh data directory with `machines` machines on node 1 (m01, m02, ...) and
/// `game` extra lines in its `[game]` section.
pub fn start_server(name: &str, machines: usize, game: &str) -> Server {
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
    let dir = std::env::temp_dir().join(format!("yoo-loadtest-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let machines: Vec<String> = (1..=machines).map(|i| format!("\"m{i:02}\"")).collect();
    let config = format!(
        r#"mode = "dev"
bind = "127.0.0.1:0"
data_dir = "{data}"
frontend_dir = "/nonexistent"
workers = 1
# Every virtual player logs in from 127.0.0.1: the address and global SMS ceilings are raised.
[sms]
# every virtual player asks for its code from 127.0.0.1: no security check in front of codes
captcha_phone_per_hour = 0
captcha_ip_per_hour = 0
ip_per_hour = 1000000
global_per_minute = 1000000
# A second code to one phone within a minute: the password accounts' forgot-password code.
resend_secs = 0
[game]
connect_countdown_secs = 60
connect_delay_ms = 50
{game}
[[nodes]]
id = 1
name = "压测一区"
status = 1
machines = [{machines}]
"#,
        data = dir.join("data").display(),
        game = game,
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
