//! The room-scale scenario (issue 9): one live room, thousands of viewers watching it over
//! WebSockets, some chatting, some leaving and coming back, and every chat message counted at
//! every viewer.
//!
//! 1. **Logins.** The host and the viewers log in through the real calls (`sendcode`, the dev
//!    SMS outbox, `login`), `concurrency` at a time through one bounded pool, dropped afterwards.
//! 2. **Room.** The host creates the room: `room/relayCheck`, `room/params`, `room/relay` (the
//!    create call, authType 2). The relay game is not started: the room is open from creation
//!    and its chat does not depend on the game.
//! 3. **Viewers.** `procs` child processes (`room-scale-child`) each take an interleaved share of
//!    the viewers (viewer `i` to child `i % procs`), bind their sockets to 127.0.0.2, .3, ...,
//!    and for each open `/echo`, enter (`room/loginRelayRoom`) and watch (ROOM_WATCH from the
//!    entry answer's position). The first `chatters` viewers chat; the last `churners` churn.
//! 4. **Window.** The parent sends chat (`room/chat/send`, text `rs#<seq>@<send µs>`) at `rate`
//!    messages a second in all, round-robin over the chatters; the children's churners leave
//!    (ROOM_UNWATCH, `room/exit`) and come back (enter, watch) at `churn` a second in all. Then
//!    `drain` for the last messages.
//! 5. **Figures.** The children count every event of every frame and every chat receipt
//!    (`count`), and report per message its receipts and last receipt, every receipt's latency,
//!    and per viewer present throughout whether it missed a message or an offset. With
//!    `server_pid`, the server's CPU from the window's start to the drain's end (`/proc`) gives
//!    CPU-seconds per million deliveries, and its RSS before and after the viewers connect
//!    bytes per viewer.
//!
//! Loopback only (`config::loopback_base`), bounded in count, and under one deadline
//! (`timeout`): the run stops by itself, and the children end with the parent's stdin.

pub mod child;
pub mod count;
pub mod frames;
pub mod report;
pub mod wire;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::net::Ipv4Addr;
use std::process::{Child as Process, Command as Spawn};
use std::rc::Rc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::mpsc;

use crate::client::http_client;
use crate::config::RoomConfig;
use crate::logins::{login_all, Calls, Login};
use crate::probe::{self, wall_us};
use crate::report::PhaseRow;
use count::Tally;
use report::{RoomReport, ServerFigures};
use wire::{Command, Event, ViewerSeat};

pub const CHAT: &str = "/api/japi/yoo/room/chat/send";

/// Runs the scenario; must run inside an actix-rt `System` (see [`run_blocking`]).
pub async fn run(cfg: &RoomConfig) -> Result<RoomReport, String> {
    let base = cfg.validate()?;
    let phase = Rc::new(RefCell::new("start".to_string()));
    match tokio::time::timeout(cfg.timeout, scenario(cfg, &base, phase.clone())).await {
        Ok(r) => r,
        Err(_) => Err(format!(
            "room-scale: the {} s deadline passed during {}",
            cfg.timeout.as_secs(),
            phase.borrow()
        )),
    }
}

/// [`run`] on a fresh actix-rt `System` on this thread.
pub fn run_blocking(cfg: &RoomConfig) -> Result<RoomReport, String> {
    actix_rt::System::new().block_on(run(cfg))
}

fn note(msg: &str) {
    crate::progress::println(&format!("room-scale: {msg}"));
}

/// One run's shared state: the settings, the phase under way, the tallies, the report.
struct Run<'a> {
    cfg: &'a RoomConfig,
    base: &'a str,
    began: Instant,
    /// `began` on the wall clock (µs), which the children's records use.
    began_us: i64,
    /// The phase under way, named in the deadline's error.
    phase: Rc<RefCell<String>>,
    /// The live line of the phase under way (stderr, terminals only).
    line: Option<crate::progress::Phase>,
    calls: Rc<RefCell<Calls>>,
    child_errors: BTreeMap<(String, String), usize>,
    /// The server's memory after the room was made, with the viewers watching, at the end.
    memory: [Option<probe::Memory>; 3],
    report: RoomReport,
}

/// What the window measured: wall clock (µs) at its start, its end and the drain's end; the
/// server's and the harness's CPU at the start and the end.
struct Window {
    w0: i64,
    w1: i64,
    w2: i64,
    cpu: (Option<u64>, Option<u64>),
    threads: (probe::ThreadTicks, probe::ThreadTicks),
    own: (u64, u64),
}

async fn scenario(cfg: &RoomConfig, base: &str, phase: Rc<RefCell<String>>) -> Result<RoomReport, String> {
    let mut run = Run {
        cfg,
        base,
        began: Instant::now(),
        began_us: wall_us(),
        phase,
        line: None,
        calls: Rc::new(RefCell::new(Calls::default())),
        child_errors: BTreeMap::new(),
        memory: [None, None, None],
        report: RoomReport {
            url: base.to_string(),
            viewers: cfg.viewers,
            chatters: cfg.chatters,
            rate: cfg.rate,
            churn: cfg.churn,
            churners: cfg.churners,
            procs: cfg.procs,
            ideal_per_s: cfg.viewers as f64 * cfg.rate,
            ..Default::default()
        },
    };
    let logins = run.logins().await?;
    run.room(&logins).await?;
    let (mut kids, churners_of, chatters) = run.viewers(logins).await?;
    let window = run.window(&mut kids, &churners_of, &chatters).await?;
    let (tally, child_cpu) = run.records(kids, window.w0).await?;
    Ok(run.figures(&tally, &window, child_cpu))
}

impl Run<'_> {
    fn set_phase(&mut self, p: &str) {
        *self.phase.borrow_mut() = p.to_string();
        note(&format!("{p} ({:.0} s)", self.began.elapsed().as_secs_f64()));
        if let Some(done) = self.line.replace(crate::progress::spinner(p)) {
            done.finish();
        }
    }

    /// Phase 1: Logins: the host (0) and the viewers (1..=N).
    async fn logins(&mut self) -> Result<Vec<Option<Login>>, String> {
        let cfg = self.cfg;
        self.set_phase(&format!("logins: the host and {} viewers", cfg.viewers));
        let http = http_client(cfg.concurrency, None);
        let tag = format!("rs-{:x}", (wall_us() as u64) % (1 << 36));
        let (logins, row) = login_all(
            self.base,
            &http,
            cfg.viewers + 1,
            cfg.concurrency,
            |i| cfg.phone(i),
            &tag,
            &self.calls,
        )
        .await;
        note(&format!("  {} logged in, {} failed in {:.1} s", row.ok, row.failed, row.seconds));
        self.report.setup.push(row);
        if logins.first().is_none_or(Option::is_none) {
            return Err(self.calls.borrow().with_errors("the host could not log in (see the errors)".into()));
        }
        Ok(logins)
    }

    /// Phase 2: The host creates the room; the server's memory before the viewers.
    async fn room(&mut self, logins: &[Option<Login>]) -> Result<(), String> {
        let cfg = self.cfg;
        self.set_phase("the host creates the room");
        let host = logins[0].as_ref().expect("the host logged in");
        let mut hb = host.browser(self.base, http_client(4, None));
        let c = &self.calls;
        let form = json!({ "roomName": "压测房间", "mode": cfg.mode, "gameId": cfg.game_id, "isShow": 1, "authType": 2 });
        let created = async {
            Calls::timed(c, "room/relayCheck", hb.post("/api/japi/yoo/v2/room/relayCheck", &json!({}))).await?;
            Calls::timed(c, "room/params", hb.post("/api/japi/yoo/v2/room/params", &json!({}))).await?;
            Calls::timed(c, "room/relay", hb.post("/api/japi/yoo/v2/room/relay", &form)).await
        }
        .await
        .map_err(|f| c.borrow().with_errors(format!("the host could not create the room: {f}")))?;
        self.report.dd_rid = created["ddRid"].as_i64().ok_or("the create answer has no ddRid")?;
        self.report.room_serial = created["roomSerial"].as_i64().unwrap_or(0);
        drop(hb);
        settle(cfg).await;
        self.memory[0] = cfg.server_pid.and_then(probe::memory);
        Ok(())
    }

    /// Phase 3: The viewers, over the children: seated, connected, watching. The churners per child
    /// and the chatters.
    async fn viewers(&mut self, logins: Vec<Option<Login>>) -> Result<(Children, Vec<usize>, Vec<Login>), String> {
        let cfg = self.cfg;
        self.set_phase(&format!("viewers: {} over {} processes", cfg.viewers, cfg.procs));
        let mut kids = Children::spawn(cfg, self.base, self.report.dd_rid)?;
        let first_churner = cfg.viewers - cfg.churners;
        let mut churners_of = vec![0usize; cfg.procs];
        let mut chatters: Vec<Login> = Vec::new();
        for (i, login) in logins.iter().skip(1).enumerate() {
            let Some(l) = login else { continue };
            let churner = i >= first_churner;
            if churner {
                churners_of[i % cfg.procs] += 1;
            }
            if i < cfg.chatters {
                chatters.push(l.clone());
            }
            kids.send(
                i % cfg.procs,
                Command::Viewer(ViewerSeat {
                    index: i,
                    device: l.device.clone(),
                    sid: l.sid.clone(),
                    csrf: l.csrf.clone(),
                    churner,
                }),
            );
        }
        drop(logins);
        let connecting = Instant::now();
        kids.broadcast(Command::Connect(cfg.socket_concurrency.div_ceil(cfg.procs)));
        let (report, child_errors) = (&mut self.report, &mut self.child_errors);
        kids.collect(|_, e| match e {
            Event::Connected { ok, failed, fds } => {
                report.watching += ok;
                report.connect_failed += failed;
                report.child_fds_max = report.child_fds_max.max(fds);
                true
            }
            Event::Error { step, count, cause } => {
                *child_errors.entry((step, cause)).or_default() += count;
                false
            }
            _ => false,
        })
        .await?;
        let secs = connecting.elapsed().as_secs_f64();
        report.setup.push(PhaseRow {
            phase: "viewers watching".into(),
            ok: report.watching,
            failed: report.connect_failed,
            seconds: secs,
            per_sec: report.watching as f64 / secs.max(1e-9),
        });
        if report.watching == 0 || chatters.is_empty() {
            return Err(format!("no viewer is watching or no chatter logged in: {child_errors:?}"));
        }
        settle(cfg).await;
        self.memory[1] = cfg.server_pid.and_then(probe::memory);
        Ok((kids, churners_of, chatters))
    }

    /// Phase 4: The window: chat at the rate, churn in the children; then the drain.
    async fn window(&mut self, kids: &mut Children, churners_of: &[usize], chatters: &[Login]) -> Result<Window, String> {
        let (cfg, pid) = (self.cfg, self.cfg.server_pid);
        self.set_phase(&format!("window: {} s of chat at {} msg/s", cfg.window.as_secs(), cfg.rate));
        let threads0 = pid.map(probe::thread_ticks).unwrap_or_default();
        let cpu0 = pid.and_then(probe::cpu_ticks);
        let own0 = probe::own_cpu_ticks().unwrap_or(0);
        let w0 = wall_us();
        for (i, n) in churners_of.iter().enumerate() {
            let milli = if cfg.churners == 0 {
                0
            } else {
                (cfg.churn * 1000.0 * *n as f64 / cfg.churners as f64).round() as u64
            };
            kids.send(
                i,
                Command::Window {
                    origin_us: w0,
                    churn_milli: milli,
                },
            );
        }
        kids.collect(|_, e| matches!(e, Event::WindowOpen)).await?;
        let sent = chat(cfg, self.base, self.report.dd_rid, chatters, &self.calls).await;
        let w1 = wall_us();
        kids.broadcast(Command::Stop);
        kids.collect(|_, e| matches!(e, Event::Stopped)).await?;
        self.report.sent = sent.0;
        self.report.send_failed = sent.1;
        self.set_phase(&format!("drain: {} s", cfg.drain.as_secs()));
        tokio::time::sleep(cfg.drain).await;
        let cpu1 = pid.and_then(probe::cpu_ticks);
        let threads1 = pid.map(probe::thread_ticks).unwrap_or_default();
        let own1 = probe::own_cpu_ticks().unwrap_or(0);
        let w2 = wall_us();
        self.report.window_s = (w1 - w0) as f64 / 1e6;
        self.report.drain_s = (w2 - w1) as f64 / 1e6;
        Ok(Window {
            w0,
            w1,
            w2,
            cpu: (cpu0, cpu1),
            threads: (threads0, threads1),
            own: (own0, own1),
        })
    }

    /// Phase 5: The children's records: every message's receipts, the viewers' sums, churn, usage.
    async fn records(&mut self, mut kids: Children, w0: i64) -> Result<(Tally, u64), String> {
        self.set_phase("collecting the figures");
        let mut tally = Tally::new(w0);
        let mut child_cpu = 0;
        kids.broadcast(Command::Report {
            lo: 1,
            hi: self.report.sent,
        });
        let (report, child_errors) = (&mut self.report, &mut self.child_errors);
        kids.collect(|_, e| match e {
            Event::Seq {
                seq,
                receipts,
                send_us,
                last_us,
            } => {
                tally.add_seq(
                    seq,
                    count::SeqRec {
                        receipts,
                        send_us,
                        last_us,
                    },
                );
                false
            }
            Event::Latency { ms, count } => {
                tally.latency.add(ms, count);
                false
            }
            Event::Bin { bin, count } => {
                tally.add_bin(bin, count);
                false
            }
            Event::Viewers(v) => {
                let s = &mut report.sums;
                s.steady += v.steady;
                s.complete += v.complete;
                s.missing += v.missing;
                s.events += v.events;
                s.events_window += v.events_window;
                s.offset_gaps += v.offset_gaps;
                s.offset_dups += v.offset_dups;
                s.chat_dups += v.chat_dups;
                s.resets += v.resets;
                s.closed += v.closed;
                false
            }
            Event::Churn { exits, enters } => {
                report.churn_exits += exits;
                report.churn_enters += enters;
                false
            }
            Event::Usage {
                cpu_ticks,
                decoded,
                reused,
            } => {
                child_cpu += cpu_ticks;
                report.frames_decoded += decoded;
                report.frames_reused += reused;
                false
            }
            Event::Error { step, count, cause } => {
                *child_errors.entry((step, cause)).or_default() += count;
                false
            }
            Event::End => true,
            _ => false,
        })
        .await?;
        drop(kids);
        self.memory[2] = self.cfg.server_pid.and_then(probe::memory);
        Ok((tally, child_cpu))
    }

    /// Phase 6: The figures: deliveries and latencies from the tally, the server's CPU and memory,
    /// the harness's CPU, the calls and the errors, the targets.
    fn figures(self, tally: &Tally, w: &Window, child_cpu: u64) -> RoomReport {
        let mut report = self.report;
        report.count(tally, w.w0, w.w1);
        let span = (w.w2 - w.w0) as f64 / 1e6;
        let [before, watching, end] = self.memory;
        if let ((Some(a), Some(b)), Some(before), Some(watching)) = (w.cpu, before, watching) {
            let cpu_s = b.saturating_sub(a) as f64 / probe::TICKS_PER_SEC;
            let added = watching.rss_kib as f64 - before.rss_kib as f64;
            report.server = Some(ServerFigures {
                cpu_s,
                cpu_pct: cpu_s / span.max(1e-9) * 100.0,
                cpu_s_per_million_deliveries: (report.deliveries > 0).then(|| cpu_s / report.deliveries as f64 * 1e6),
                cpu_s_per_million_events: (report.sums.events_window > 0).then(|| cpu_s / report.sums.events_window as f64 * 1e6),
                threads: probe::thread_deltas(&w.threads.0, &w.threads.1)
                    .into_iter()
                    .filter(|t| t.2 > 0)
                    .map(|(name, n, t)| (name, n, t as f64 / probe::TICKS_PER_SEC))
                    .collect(),
                rss_before_kib: before.rss_kib,
                rss_watching_kib: watching.rss_kib,
                rss_end_kib: end.map_or(0, |m| m.rss_kib),
                bytes_per_viewer: (report.watching > 0).then(|| added * 1024.0 / report.watching as f64),
            });
        }
        report.harness_cpu_pct = (w.own.1.saturating_sub(w.own.0) + child_cpu) as f64 / probe::TICKS_PER_SEC / span.max(1e-9) * 100.0;
        let c = self.calls.borrow();
        report.calls = c.samples.iter().filter_map(|(k, s)| Some((k.to_string(), s.summary()?))).collect();
        report.errors = c.errors.iter().map(|((s, e), n)| (s.clone(), e.clone(), *n)).collect();
        report.errors.extend(self.child_errors.into_iter().map(|((s, e), n)| (s, e, n)));
        report.elapsed_s = self.began.elapsed().as_secs_f64();
        let since = |t: &Instant| t.saturating_duration_since(self.began).as_secs_f64();
        // The receipts' 10 ms bins, counted per second of the run.
        let mut per_s = crate::timeline::per_second(&[], report.elapsed_s);
        let origin_s = (tally.origin_us - self.began_us) as f64 / 1e6;
        for (b, &n) in tally.bins.iter().enumerate() {
            let t = origin_s + (b as i64 * count::BIN_US) as f64 / 1e6;
            if let Some(slot) = per_s.get_mut(t.max(0.0) as usize) {
                slot.1 += n as f64;
            }
        }
        report.timeline = Some(crate::timeline::Timeline {
            latencies: c
                .events
                .iter()
                .filter_map(|(t, us)| Some((since(t), (*us)? as f64 / 1000.0)))
                .collect(),
            done: Vec::new(),
            done_per_s: Some(per_s),
            errors: c.events.iter().filter(|e| e.1.is_none()).map(|(t, _)| since(t)).collect(),
            span_s: report.elapsed_s,
            unit: "deliveries".into(),
            errors_untimed: None,
        });
        report.finish();
        report
    }
}

async fn settle(cfg: &RoomConfig) {
    if cfg.server_pid.is_some() && !cfg.settle.is_zero() {
        note(&format!("settling {} s before reading memory", cfg.settle.as_secs()));
        tokio::time::sleep(cfg.settle).await;
    }
}

/// Sends `rate` messages a second for the window, round-robin over the chatters, each on a task
/// of its own (a slow answer does not delay the next message); waits for the answers. Returns
/// (messages sent, sends that failed).
async fn chat(cfg: &RoomConfig, base: &str, dd_rid: i64, chatters: &[Login], calls: &Rc<RefCell<Calls>>) -> (u32, u32) {
    // Enough connections that sends at the rate never queue behind each other.
    let http = http_client(256, None);
    let failed = Rc::new(std::cell::Cell::new(0u32));
    let t0 = tokio::time::Instant::now();
    let count = (cfg.rate * cfg.window.as_secs_f64()).floor() as u32;
    let mut tasks = Vec::with_capacity(count as usize);
    for k in 0..count {
        tokio::time::sleep_until(t0 + Duration::from_secs_f64(k as f64 / cfg.rate)).await;
        let seq = k + 1;
        let mut b = chatters[k as usize % chatters.len()].browser(base, http.clone());
        let (calls, failed) = (calls.clone(), failed.clone());
        let body = json!({ "ddRid": dd_rid, "text": count::marker(seq, wall_us()) });
        tasks.push(actix_rt::spawn(async move {
            if Calls::timed(&calls, "room/chat/send", b.post(CHAT, &body)).await.is_err() {
                failed.set(failed.get() + 1);
            }
        }));
    }
    // Close the window at its end even when the last message went out earlier.
    tokio::time::sleep_until(t0 + cfg.window).await;
    for t in tasks {
        let _ = t.await;
    }
    (count, failed.get())
}

/// The socket-holding child processes; killed when dropped.
struct Children {
    procs: Vec<Process>,
    /// Lines to each child's stdin, written by a thread per child.
    inputs: Vec<std::sync::mpsc::Sender<String>>,
    /// Reports of every child: (child, event), or (child, None) when its stdout closed.
    events: mpsc::UnboundedReceiver<(usize, Option<Event>)>,
}

impl Children {
    fn spawn(cfg: &RoomConfig, base: &str, dd_rid: i64) -> Result<Children, String> {
        let exe = match &cfg.exe {
            Some(p) => p.clone(),
            None => std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?,
        };
        // Source addresses 127.0.0.2, .3, ... when the server is reached over IPv4 loopback.
        let spread = cfg.spread_addresses
            && base
                .strip_prefix("http://")
                .and_then(|h| h.split(':').next())
                .is_some_and(|h| h.parse::<Ipv4Addr>().is_ok());
        let (tx, events) = mpsc::unbounded_channel();
        let mut kids = Children {
            procs: Vec::new(),
            inputs: Vec::new(),
            events,
        };
        for i in 0..cfg.procs {
            let mut cmd = Spawn::new(&exe);
            cmd.arg("room-scale-child")
                .args(["--url", base])
                .args(["--dd-rid", &dd_rid.to_string()])
                .args(["--mode", &cfg.mode.to_string()]);
            if spread {
                cmd.args(["--bind", &Ipv4Addr::new(127, 0, 0, 2 + (i % 250) as u8).to_string()]);
            }
            let (p, line_tx) = crate::children::spawn(cmd, i, "room-scale", Event::parse, tx.clone())?;
            kids.procs.push(p);
            kids.inputs.push(line_tx);
        }
        Ok(kids)
    }

    fn send(&self, child: usize, c: Command) {
        let _ = self.inputs[child].send(c.line());
    }

    fn broadcast(&self, c: Command) {
        for i in 0..self.inputs.len() {
            self.send(i, c.clone());
        }
    }

    /// Hands every event to `f` until `f` has answered true once for each child.
    async fn collect(&mut self, mut f: impl FnMut(usize, Event) -> bool) -> Result<(), String> {
        let mut pending = vec![true; self.procs.len()];
        while pending.iter().any(|&p| p) {
            match self.events.recv().await {
                Some((i, Some(e))) => {
                    if f(i, e) {
                        pending[i] = false;
                    }
                }
                Some((i, None)) => return Err(format!("socket child {i} ended early (see its messages above)")),
                None => return Err("every socket child ended".into()),
            }
        }
        Ok(())
    }
}

impl Drop for Children {
    fn drop(&mut self) {
        // Closing stdin ends a child; kill any that lingers.
        self.inputs.clear();
        let deadline = Instant::now() + Duration::from_secs(3);
        for p in &mut self.procs {
            while Instant::now() < deadline {
                if let Ok(Some(_)) = p.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = p.kill();
            let _ = p.wait();
        }
    }
}
