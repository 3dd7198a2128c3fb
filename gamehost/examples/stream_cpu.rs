//! Measures streams on one host: CPU of the host process, the games and their Xvfbs, and per
//! stream the frames received per second and the bitrate, for one game of a host configuration.
//!
//! `cargo run -p gamehost --example stream_cpu -- ops/gamehost-dev-1.toml neverball 30 [STREAMS]`
//!
//! It starts `target/debug/yoo-gamehost` as a child with the configuration (STREAMS slots, 1 by
//! default, bound to 127.0.0.1:0, linked to a platform stand-in inside this program), launches
//! the game on every slot, waits for the first frames and 3 s more, opens each stream as its
//! session's player (from the first key frame on), and counts for the given seconds while
//! sampling `/proc`. Nothing decodes here: the browser's side is the load-test harness's.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use futures_util::StreamExt as _;
use gamehost::proto::{host_frame, HostFrame};
use hostlink::{HostMsg, PlatformMsg, Role, Ticket, HEARTBEAT_MS};
use prost::Message as _;
use tokio::sync::mpsc;

struct Link {
    hello: mpsc::UnboundedSender<(hostlink::Hello, mpsc::UnboundedSender<PlatformMsg>)>,
    msgs: mpsc::UnboundedSender<HostMsg>,
}

async fn link(req: HttpRequest, body: web::Payload, state: web::Data<Link>) -> actix_web::Result<HttpResponse> {
    let (resp, mut session, mut stream) = actix_ws::handle(&req, body)?;
    actix_rt::spawn(async move {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut welcomed = false;
        loop {
            tokio::select! {
                m = stream.next() => match m {
                    Some(Ok(actix_ws::Message::Text(t))) => match serde_json::from_str::<HostMsg>(&t) {
                        Ok(HostMsg::Hello(h)) if !welcomed => {
                            welcomed = true;
                            let _ = session.text(PlatformMsg::Welcome { heartbeat_ms: HEARTBEAT_MS }.to_json()).await;
                            let _ = state.hello.send((h, tx.clone()));
                        }
                        Ok(m) => { let _ = state.msgs.send(m); }
                        Err(_) => {}
                    },
                    Some(Ok(_)) => {}
                    _ => return,
                },
                Some(cmd) = rx.recv() => { let _ = session.text(cmd.to_json()).await; }
            }
        }
    });
    Ok(resp)
}

/// utime + stime of a process, in clock ticks.
fn ticks(pid: i32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    Some(f[11].parse::<u64>().ok()? + f[12].parse::<u64>().ok()?)
}

/// Every descendant of `pid`, with its command name.
fn descendants(pid: i32) -> Vec<(i32, String)> {
    let mut parent: HashMap<i32, i32> = HashMap::new();
    let mut names = HashMap::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else {
            continue;
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let ppid = stat[close + 2..].split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        parent.insert(p, ppid);
        names.insert(p, stat[open + 1..close].to_string());
    }
    let mut out = Vec::new();
    for (&p, _) in parent.iter() {
        let mut q = p;
        while let Some(&pp) = parent.get(&q) {
            if pp == pid {
                out.push((p, names[&p].clone()));
                break;
            }
            q = pp;
        }
    }
    out
}

/// What one stream received.
#[derive(Default)]
struct Count {
    frames: u64,
    bytes: u64,
    keys: u64,
    /// Sequence numbers skipped (frames the host dropped for this viewer).
    gaps: u64,
}

async fn count(url: String, end: Instant) -> Count {
    let (_, mut conn) = awc::Client::new().ws(url).max_frame_size(8 << 20).connect().await.unwrap();
    // Up to the first key frame, then count.
    let mut last_seq = loop {
        if let Some(Ok(awc::ws::Frame::Binary(b))) = conn.next().await {
            if let Some(host_frame::Body::Video(v)) = HostFrame::decode(b).unwrap().body {
                if v.key {
                    break v.seq;
                }
            }
        }
    };
    let mut c = Count::default();
    while Instant::now() < end {
        let Ok(Some(Ok(awc::ws::Frame::Binary(b)))) = tokio::time::timeout_at(end.into(), conn.next()).await else {
            continue;
        };
        if let Some(host_frame::Body::Video(v)) = HostFrame::decode(b).unwrap().body {
            c.frames += 1;
            c.bytes += v.data.len() as u64;
            c.keys += u64::from(v.key);
            c.gaps += v.seq.saturating_sub(last_seq + 1);
            last_seq = v.seq;
        }
    }
    c
}

#[actix_rt::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (config_path, game, secs, streams) = match &args[..] {
        [c, g, s] => (c, g, s, 1u32),
        [c, g, s, n] => (c, g, s, n.parse().expect("streams")),
        _ => {
            eprintln!("usage: stream_cpu CONFIG GAME SECONDS [STREAMS]");
            std::process::exit(2);
        }
    };
    let secs: u64 = secs.parse().expect("seconds");
    let (hello_tx, mut hello_rx) = mpsc::unbounded_channel();
    let (msgs_tx, mut msgs) = mpsc::unbounded_channel();
    let data = web::Data::new(Link {
        hello: hello_tx,
        msgs: msgs_tx,
    });
    let server = HttpServer::new(move || App::new().app_data(data.clone()).route("/link", web::get().to(link)))
        .workers(1)
        .bind("127.0.0.1:0")
        .unwrap();
    let addr = server.addrs()[0];
    actix_rt::spawn(server.run());

    // The top-level keys this run overrides, replaced line by line (the file's tables stay).
    let state_dir = std::env::temp_dir().join("yoo-stream-cpu");
    let overrides = [
        ("platform_url", format!("\"ws://{addr}/link\"")),
        ("bind", "\"127.0.0.1:0\"".to_string()),
        ("slots", streams.to_string()),
        ("state_dir", format!("{:?}", state_dir.to_string_lossy())),
    ];
    let text = std::fs::read_to_string(config_path).unwrap();
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with("display_base"))
        .map(
            |l| match overrides.iter().find(|(k, _)| l.split('=').next().map(str::trim) == Some(*k)) {
                Some((k, v)) => format!("{k} = {v}"),
                None => l.to_string(),
            },
        )
        .collect();
    lines.push(String::new());
    let config = gamehost::HostConfig::parse(&lines.join("\n")).expect("a valid configuration");
    let secret = config.secret.clone();
    let path = std::env::temp_dir().join("yoo-stream-cpu.toml");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let exe = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("yoo-gamehost");
    let mut child = tokio::process::Command::new(&exe)
        .arg("--config")
        .arg(&path)
        .env("RUST_LOG", "warn")
        .kill_on_drop(true)
        .spawn()
        .expect("yoo-gamehost runs");
    let host_pid = child.id().unwrap() as i32;

    let (hello, cmd) = tokio::time::timeout(Duration::from_secs(20), hello_rx.recv())
        .await
        .unwrap()
        .unwrap();
    let launched = Instant::now();
    for slot in 0..streams {
        let launch = PlatformMsg::Launch {
            slot,
            session_id: i64::from(slot) + 1,
            uid: 1,
            game: game.clone(),
        };
        cmd.send(launch).unwrap();
    }
    let mut first = 0;
    while first < streams {
        match tokio::time::timeout(Duration::from_secs(60), msgs.recv()).await.unwrap().unwrap() {
            HostMsg::FirstFrame { .. } => first += 1,
            HostMsg::GameExited { reason, .. } => panic!("{game} exited: {reason}"),
            _ => {}
        }
    }
    println!("{streams} first frames {:.1} s after launch", launched.elapsed().as_secs_f64());
    tokio::time::sleep(Duration::from_secs(3)).await;

    let procs = descendants(host_pid);
    let sample = || {
        let host = ticks(host_pid).unwrap_or(0);
        let (mut xvfb, mut game_t) = (0, 0);
        for (p, name) in &procs {
            let t = ticks(*p).unwrap_or(0);
            if name == "Xvfb" {
                xvfb += t;
            } else {
                game_t += t;
            }
        }
        (host, game_t, xvfb, Instant::now())
    };
    let before = sample();
    let end = Instant::now() + Duration::from_secs(secs);
    let counts = futures_util::future::join_all((0..streams).map(|slot| {
        let ticket = Ticket {
            node_id: hello.node_id,
            host: hello.host.clone(),
            slot,
            session_id: i64::from(slot) + 1,
            uid: 1,
            role: Role::Player,
            exp_ms: gamehost::now_ms() + 60_000,
        }
        .sign(secret.as_bytes());
        count(format!("{}/stream?ticket={ticket}", hello.stream_url), end)
    }))
    .await;
    let after = sample();
    let wall = after.3.duration_since(before.3).as_secs_f64();
    let hz = 100.0;
    let pct = |a: u64, b: u64| (b - a) as f64 / hz / wall * 100.0;
    for (i, c) in counts.iter().enumerate() {
        println!(
            "stream {i} ({game}, {wall:.1} s): received {:.1} fps ({} frames, {} key, {} skipped), {:.2} Mbit/s",
            c.frames as f64 / wall,
            c.frames,
            c.keys,
            c.gaps,
            c.bytes as f64 * 8.0 / wall / 1e6
        );
    }
    println!(
        "cpu (% of one core): host {:.1}, games {:.1}, xvfb {:.1}, total {:.1}",
        pct(before.0, after.0),
        pct(before.1, after.1),
        pct(before.2, after.2),
        pct(before.0 + before.1 + before.2, after.0 + after.1 + after.2)
    );
    let _ = child.start_kill();
    let _ = child.wait().await;
}
