//! The queue-scale scenario (issue 3): a large queue for one game, machines freeing steadily,
//! and the players at the front watching their rank over a WebSocket.
//!
//! 1. **Machines held.** `machines` extra players log in and start: each gets a machine at once
//!    (READY just after the `start` answer; they ask `floatBall`, having no socket), confirms and
//!    plays, so every machine is out while the queue fills.
//! 2. **Queue.** The `sockets` socket players log in and start first (ranks 1..S, exact in the
//!    `start` answer, since nobody is admitted while the machines are held), then the other
//!    `players - sockets`. Every step is a real REST call (`sendcode`, the dev SMS outbox,
//!    `login`, `start`), `concurrency` players at a time through one bounded connection pool,
//!    which is dropped afterwards: no keep-alive connection per player stays open.
//! 3. **Sockets.** `procs` child processes (this executable, `queue-scale-child`) each take an
//!    interleaved share of the socket players (rank `r0` goes to child `r0 % procs`), bind their
//!    sockets to 127.0.0.2, 127.0.0.3, ... and open `/echo` for each.
//! 4. **Window.** The machine holders end (`over`) spread evenly over one hold, and from then on
//!    each admitted socket player answers its READY with `cancelConfirm` after the hold (±
//!    jitter): `machines / hold` frees per second. The window ends after `window`, or earlier
//!    when admissions reach the guard rank (then the machines still out could reach players
//!    without a socket, whose admissions the harness would not see).
//! 5. **Figures.** The children report every READY and rank push with its wall-clock receipt
//!    time, and every free; `analysis` turns them into staleness, hand-off and correctness
//!    figures. With `server_pid`, the server's CPU (`/proc/<pid>/stat`, per thread as well) and
//!    the rank walks' wall and CPU time (`yoo_rank_refresh_seconds`, `yoo_rank_refresh_cpu_seconds` of
//!    `/metrics`) over the window, and its
//!    resident memory after each phase (after `settle`, so idle player actors have stopped).

pub mod analysis;
pub mod child;
pub mod passwords;
pub mod wire;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::net::Ipv4Addr;
use std::path::PathBuf;
use std::process::{Child as Process, Command as Spawn, Stdio};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::LocalBoxFuture;
use parking_lot::Mutex;
use serde_json::{json, Value};
use tokio::sync::{mpsc, Semaphore};

use crate::client::{http_client, Browser, Failure};
use crate::config::QueueConfig;
use crate::probe::{self, wall_us, Memory};
use crate::report::{MemoryRow, PhaseRow, QueueReport};
use crate::scenario::Step;
use crate::stats::Recorder;
use analysis::Observed;
use wire::{Command, Event, Seat};

/// GameState `status` values.
const QUEUE: i64 = 1;
const READY: i64 = 3;

/// Runs the scenario; must run inside an actix-rt `System` (see [`run_blocking`]).
pub async fn run(cfg: &QueueConfig) -> Result<QueueReport, String> {
    let base = cfg.validate()?;
    let phase = Rc::new(RefCell::new("start".to_string()));
    match tokio::time::timeout(cfg.timeout, scenario(cfg, &base, phase.clone())).await {
        Ok(r) => r,
        Err(_) => Err(format!(
            "queue-scale: the {} s deadline passed during {}",
            cfg.timeout.as_secs(),
            phase.borrow()
        )),
    }
}

/// [`run`] on a fresh actix-rt `System` on this thread.
pub fn run_blocking(cfg: &QueueConfig) -> Result<QueueReport, String> {
    actix_rt::System::new().block_on(run(cfg))
}

/// What the setup shares among the players it enrolls.
struct Setup {
    base: String,
    http: awc::Client,
    game_id: i64,
    node_id: i64,
    run_tag: String,
    recorder: Arc<Mutex<Recorder>>,
}

/// A player enrolled: logged in and started.
struct Enrolled {
    browser: Browser,
    session_id: i64,
    status: i64,
    sort: u64,
}

fn note(msg: &str) {
    crate::progress::println(&format!("queue-scale: {msg}"));
}

/// One run's shared state: the settings, the phase under way, the server's control client,
/// the memory readings and errors so far, the report.
struct Run<'a> {
    cfg: &'a QueueConfig,
    began: Instant,
    /// `began` on the wall clock (µs), which the children's records use.
    began_us: i64,
    /// The setup's calls: when each was answered and its latency, ms (the timeline).
    setup_calls: Vec<(f64, f64)>,
    /// The phase under way, named in the deadline's error.
    phase: Rc<RefCell<String>>,
    /// The live line of the phase under way (stderr, terminals only).
    line: Option<crate::progress::Phase>,
    /// A small pool for /metrics and the machine holders' `over`.
    control: Browser,
    memory: Vec<MemoryRow>,
    errors: BTreeMap<(Step, String), usize>,
    child_errors: BTreeMap<(String, String), usize>,
    /// The password side load's accounts, prepared before the queue fills (issue 11).
    pw_accounts: Vec<passwords::Account>,
    report: QueueReport,
}

/// What the window measured: wall clock (µs) at its start and end, how it ended, the frees
/// and failed `over`s, and the server's and the harness's CPU and metrics at both ends.
struct Window {
    w0: i64,
    w1: i64,
    ended_by: &'static str,
    frees: Vec<(i64, i64)>,
    over_errors: BTreeMap<String, usize>,
    cpu: (Option<u64>, Option<u64>),
    threads: (probe::ThreadTicks, probe::ThreadTicks),
    own: (u64, u64),
    metrics: (BTreeMap<String, f64>, BTreeMap<String, f64>),
}

async fn scenario(cfg: &QueueConfig, base: &str, phase: Rc<RefCell<String>>) -> Result<QueueReport, String> {
    let mut run = Run {
        cfg,
        began: Instant::now(),
        began_us: wall_us(),
        setup_calls: Vec::new(),
        phase,
        line: None,
        control: Browser::with_client(base, "queue-scale-control", http_client(64, None)),
        memory: Vec::new(),
        errors: BTreeMap::new(),
        child_errors: BTreeMap::new(),
        pw_accounts: Vec::new(),
        report: QueueReport::new(cfg, base),
    };
    run.fresh().await?;
    // The children first: a child that cannot start fails the run before any setup.
    run.set_phase("starting children");
    let mut kids = Children::spawn(cfg, base)?;
    let setup = Rc::new(Setup {
        base: base.to_string(),
        http: http_client(cfg.concurrency, None),
        game_id: cfg.game_id,
        node_id: cfg.node_id,
        run_tag: format!("{:x}", (wall_us() as u64) % (1 << 36)),
        recorder: Arc::new(Mutex::new(Recorder::default())),
    });
    run.password_accounts(&setup.run_tag).await?;
    let holders = run.holders(&setup).await?;
    let seats = run.front(&setup).await?;
    run.rest(setup, seats.len()).await?;
    run.sockets(&mut kids, &seats).await?;
    let window = run.window(&mut kids, holders).await?;
    let (o, child_cpu, closed) = run.records(kids, &seats, &window).await?;
    Ok(run.figures(&o, window, child_cpu, closed))
}

impl Run<'_> {
    fn set_phase(&mut self, p: &str) {
        *self.phase.borrow_mut() = p.to_string();
        note(&format!("{p} ({:.0} s)", self.began.elapsed().as_secs_f64()));
        if let Some(done) = self.line.replace(crate::progress::spinner(p)) {
            done.finish();
        }
    }

    async fn read_memory(&mut self, label: &str, waiting: usize, sockets: usize) {
        let row = read_memory(self.cfg.server_pid, &mut self.control, label, waiting, sockets).await;
        self.memory.extend(row);
    }

    /// Phase 0: The server is fresh: nobody waiting, exactly the machines asked for, all free.
    async fn fresh(&mut self) -> Result<(), String> {
        self.read_memory("empty (after start)", 0, 0).await;
        if let Some(m) = probe::scrape(&mut self.control).await {
            let waiting = probe::sum_series(&m, "yoo_players_waiting");
            if waiting > 0.0 {
                return Err(format!(
                    "the server already has {waiting} players waiting: start it on a fresh data_dir"
                ));
            }
            let free = probe::sum_series(&m, "yoo_machines_free");
            if free != self.cfg.machines as f64 {
                return Err(format!(
                    "the server has {free} free machines, not --machines {}: start it fresh with that many",
                    self.cfg.machines
                ));
            }
        }
        Ok(())
    }

    /// Phase 0b (with the password side load): its accounts, each logged in with a code once
    /// and given a password.
    async fn password_accounts(&mut self, run_tag: &str) -> Result<(), String> {
        let cfg = self.cfg;
        let k = cfg.password_pool();
        if k == 0 {
            return Ok(());
        }
        self.set_phase(&format!("password accounts: {k} log in and set a password"));
        let calls: Rc<RefCell<crate::logins::Calls>> = Rc::default();
        let base = self.report.url.clone();
        let (accounts, row) = passwords::prepare(cfg, &base, run_tag, &calls).await;
        note(&format!(
            "  password accounts: {} ready, {} failed in {:.1} s",
            row.ok, row.failed, row.seconds
        ));
        self.report.setup.push(row);
        for ((call, cause), n) in &calls.borrow().errors {
            *self
                .child_errors
                .entry((format!("password setup: {call}"), cause.clone()))
                .or_default() += n;
        }
        if accounts.is_empty() {
            return Err(calls.borrow().with_errors(
                "no password account could be prepared (the server must allow a second code within a minute: [sms] resend_secs = 0)".into(),
            ));
        }
        self.pw_accounts = accounts;
        Ok(())
    }

    /// Phase 1: Machine holders: READY at once, confirm, play.
    async fn holders(&mut self, setup: &Rc<Setup>) -> Result<Vec<Enrolled>, String> {
        let cfg = self.cfg;
        self.set_phase(&format!("machine holders: {} players take every machine", cfg.machines));
        let holders = enroll_phase(
            cfg,
            setup,
            "machine holders",
            0..cfg.machines,
            true,
            &mut self.report.setup,
            &mut self.errors,
        )
        .await;
        let free = gauge(&mut self.control, "yoo_machines_free").await;
        if holders.len() < cfg.machines || free.is_some_and(|f| f != 0.0) {
            return Err(format!(
                "{} of {} machine holders got a machine, {} machines still free: the node must have exactly --machines {} machines, all free",
                holders.len(),
                cfg.machines,
                free.map_or("?".into(), |f| f.to_string()),
                cfg.machines
            ));
        }
        self.read_memory("machines held", 0, 0).await;
        Ok(holders)
    }

    /// Phase 2: The socket players, at the front of the queue: their seats, by start rank.
    async fn front(&mut self, setup: &Rc<Setup>) -> Result<Vec<Seat>, String> {
        let cfg = self.cfg;
        self.set_phase(&format!("queue: {} socket players", cfg.sockets));
        let m = cfg.machines;
        let front = enroll_phase(
            cfg,
            setup,
            "socket players",
            m..m + cfg.sockets,
            false,
            &mut self.report.setup,
            &mut self.errors,
        )
        .await;
        if front.iter().any(|e| e.status != QUEUE) {
            return Err("a socket player got a machine at start: the node has more machines than --machines".into());
        }
        let mut seats: Vec<Seat> = front
            .iter()
            .map(|e| Seat {
                session_id: e.session_id,
                r0: e.sort,
                device: e.browser.device().to_string(),
                sid: e.browser.cookie("yoo_sid").unwrap_or_default().to_string(),
                csrf: e.browser.cookie("_csrfToken").unwrap_or_default().to_string(),
            })
            .collect();
        drop(front);
        seats.sort_by_key(|s| s.r0);
        self.report.r0_exact = seats.iter().enumerate().all(|(i, s)| s.r0 == i as u64 + 1);
        settle(cfg).await;
        self.read_memory("socket players waiting, no sockets", seats.len(), 0).await;
        Ok(seats)
    }

    /// Phase 3: Everyone else, behind them; the setup's call latencies; its pool released.
    async fn rest(&mut self, setup: Rc<Setup>, queued_front: usize) -> Result<(), String> {
        let cfg = self.cfg;
        self.set_phase(&format!("queue: {} players without a socket", cfg.players - cfg.sockets));
        let m = cfg.machines;
        let rest = enroll_phase(
            cfg,
            &setup,
            "players without a socket",
            m + cfg.sockets..m + cfg.players,
            false,
            &mut self.report.setup,
            &mut self.errors,
        )
        .await;
        let queued_rest = rest.iter().filter(|e| e.status == QUEUE).count();
        drop(rest);
        {
            let recorder = setup.recorder.lock();
            self.report.steps = crate::report::step_rows(&recorder);
            let began = self.began;
            self.setup_calls = recorder
                .calls()
                .iter()
                .map(|&(t, _, us)| (t.saturating_duration_since(began).as_secs_f64(), us as f64 / 1000.0))
                .collect();
        }
        // Release the setup pool: its connections close with it.
        drop(setup);
        let waiting = queued_front + queued_rest;
        self.report.waiting = waiting;
        if let Some(w) = gauge(&mut self.control, "yoo_players_waiting").await {
            if w != waiting as f64 {
                return Err(format!(
                    "the server counts {w} players waiting, the harness queued {waiting}: is another client using it?"
                ));
            }
        }
        settle(cfg).await;
        self.read_memory("all waiting, no sockets", waiting, 0).await;
        Ok(())
    }

    /// Phase 4: The sockets, seated over the children and connected.
    async fn sockets(&mut self, kids: &mut Children, seats: &[Seat]) -> Result<(), String> {
        let cfg = self.cfg;
        self.set_phase(&format!("sockets: {} over {} processes", seats.len(), cfg.procs));
        for s in seats {
            kids.send(s.r0 as usize % cfg.procs, Command::Seat(s.clone()));
        }
        let per_child = cfg.socket_concurrency.div_ceil(cfg.procs);
        kids.broadcast(Command::Connect(per_child));
        let (report, child_errors) = (&mut self.report, &mut self.child_errors);
        kids.collect(|_, e| match e {
            Event::Connected {
                ok,
                failed,
                initial_exact,
                initial_other,
                fds,
            } => {
                report.connected += ok;
                report.connect_failed += failed;
                report.initial_exact += initial_exact;
                report.initial_other += initial_other;
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
        settle(cfg).await;
        let (waiting, connected) = (self.report.waiting, self.report.connected);
        self.read_memory("all waiting, sockets open", waiting, connected).await;
        Ok(())
    }

    /// Phase 5: The window: the holders end over one hold, admitted socket players hold and free
    /// their machines in the children, until the time is up or admissions near the last socket.
    async fn window(&mut self, kids: &mut Children, holders: Vec<Enrolled>) -> Result<Window, String> {
        let (cfg, pid) = (self.cfg, self.cfg.server_pid);
        self.set_phase(&format!("window: up to {} s", cfg.window.as_secs()));
        let threads0 = pid.map(probe::thread_ticks).unwrap_or_default();
        let cpu0 = pid.and_then(probe::cpu_ticks);
        let own0 = probe::own_cpu_ticks().unwrap_or(0);
        let metrics0 = probe::scrape(&mut self.control).await.unwrap_or_default();
        kids.broadcast(Command::Window { guard: cfg.guard_rank() });
        kids.collect(|_, e| matches!(e, Event::WindowOpen)).await?;
        let perf = cfg.perf_out.as_ref().and_then(|out| start_perf(pid?, out, cfg.window));
        let w0 = wall_us();
        let t0 = tokio::time::Instant::now();
        let stopped = Rc::new(Cell::new(false));
        let frees: Rc<RefCell<Vec<(i64, i64)>>> = Rc::default();
        let over_errors: Rc<RefCell<BTreeMap<String, usize>>> = Rc::default();
        let n = holders.len() as u32;
        let mut overs = Vec::new();
        for (i, h) in holders.into_iter().enumerate() {
            let at = t0 + cfg.hold * i as u32 / n;
            let (stopped, frees, over_errors) = (stopped.clone(), frees.clone(), over_errors.clone());
            let mut b = h.browser;
            let id = h.session_id;
            overs.push(actix_rt::spawn(async move {
                tokio::time::sleep_until(at).await;
                if stopped.get() {
                    return;
                }
                let sent = wall_us();
                match b.post("/api/japi/yoo/game/over", &json!({ "id": id })).await {
                    Ok(_) => frees.borrow_mut().push((sent, wall_us())),
                    Err(f) => *over_errors.borrow_mut().entry(f.to_string()).or_default() += 1,
                }
            }));
        }
        let pw_stop = Rc::new(Cell::new(false));
        let pw = (cfg.password_logins_per_sec > 0.0).then(|| {
            let accounts = std::mem::take(&mut self.pw_accounts);
            let (base, stop) = (self.report.url.clone(), pw_stop.clone());
            actix_rt::spawn(passwords::side_load(
                base,
                accounts,
                cfg.password_logins_per_sec,
                stop,
                cfg.password_accounts,
            ))
        });
        let ended_by = tokio::select! {
            _ = tokio::time::sleep_until(t0 + cfg.window) => "time",
            g = kids.next_guard() => g?,
        };
        let cpu1 = pid.and_then(probe::cpu_ticks);
        let threads1 = pid.map(probe::thread_ticks).unwrap_or_default();
        let own1 = probe::own_cpu_ticks().unwrap_or(0);
        let w1 = wall_us();
        let metrics1 = probe::scrape(&mut self.control).await.unwrap_or_default();
        stopped.set(true);
        pw_stop.set(true);
        kids.broadcast(Command::Stop);
        kids.collect(|_, e| matches!(e, Event::Stopped)).await?;
        for o in overs {
            let _ = o.await;
        }
        if let Some(pw) = pw {
            self.report.password_logins = pw.await.ok();
        }
        // Pushes for admissions just before the end are still on their way.
        tokio::time::sleep(Duration::from_secs(1)).await;
        if let Some(mut p) = perf {
            let _ = p.wait();
        }
        let frees = frees.borrow().clone();
        let over_errors = over_errors.borrow().clone();
        Ok(Window {
            w0,
            w1,
            ended_by,
            frees,
            over_errors,
            cpu: (cpu0, cpu1),
            threads: (threads0, threads1),
            own: (own0, own1),
            metrics: (metrics0, metrics1),
        })
    }

    /// Phase 6: The records of the children: READY and rank pushes, frees; their CPU and closed sockets.
    async fn records(&mut self, mut kids: Children, seats: &[Seat], w: &Window) -> Result<(Observed, u64, usize), String> {
        self.set_phase("collecting the records");
        let mut o = Observed {
            players: seats.iter().map(|s| s.r0).collect(),
            ..Default::default()
        };
        o.frees = w.frees.clone();
        let mut child_cpu = 0;
        let mut closed = 0;
        let child_errors = &mut self.child_errors;
        kids.broadcast(Command::Report);
        kids.collect(|_, e| match e {
            Event::Ready(r0, at_us, ready_ms, sent_ms) => {
                o.ready.push(analysis::ReadyRec {
                    r0,
                    at_us,
                    ready_ms,
                    sent_ms,
                });
                false
            }
            Event::Rank(r0, at_us, sort, sent_ms) => {
                o.ranks.push(analysis::RankRec { r0, at_us, sort, sent_ms });
                false
            }
            Event::Freed(s, a) => {
                o.frees.push((s, a));
                false
            }
            Event::Error { step, count, cause } => {
                *child_errors.entry((step, cause)).or_default() += count;
                false
            }
            Event::Usage { cpu_ticks, closed: c } => {
                child_cpu += cpu_ticks;
                closed += c;
                false
            }
            Event::End => true,
            _ => false,
        })
        .await?;
        drop(kids);
        Ok((o, child_cpu, closed))
    }

    /// Phase 7: The figures: hand-off and ranks from the records, the server's CPU and metrics over
    /// the window, the harness's CPU, the memory rows, the errors, the targets.
    fn figures(self, o: &Observed, w: Window, child_cpu: u64, closed: usize) -> QueueReport {
        let (cfg, mut report, mut errors) = (self.cfg, self.report, self.errors);
        for (cause, count) in &w.over_errors {
            *errors.entry((Step::Over, cause.clone())).or_default() += count;
        }
        let window_s = (w.w1 - w.w0) as f64 / 1e6;
        report.window_s = window_s;
        report.ended_by = w.ended_by.to_string();
        report.handoff = analysis::handoff(o, w.w0, w.w1);
        report.ranks = analysis::ranks(o, w.w0, w.w1, cfg.lie_slack);
        report.admission_rate = report.ranks.admissions as f64 / window_s.max(1e-9);
        report.sockets_closed = closed;
        let (metrics0, metrics1) = &w.metrics;
        // A metric absent from a scrape that succeeded has not been recorded yet: 0.
        let scraped = !metrics0.is_empty() && !metrics1.is_empty();
        let delta = |k: &str| scraped.then(|| metrics1.get(k).copied().unwrap_or(0.0) - metrics0.get(k).copied().unwrap_or(0.0));
        // Labelled by node and lane: the sum of its series.
        let admissions = "yoo_queue_admissions_total";
        report.server_admissions = scraped.then(|| probe::sum_series(metrics1, admissions) - probe::sum_series(metrics0, admissions));
        report.cpu = crate::report::CpuFigures::build(
            w.cpu.0.zip(w.cpu.1).map(|(a, b)| b.saturating_sub(a)),
            delta("yoo_rank_refresh_seconds_sum"),
            delta("yoo_rank_refresh_cpu_seconds_sum"),
            delta("yoo_rank_refresh_seconds_count"),
            metrics1
                .iter()
                .filter(|(k, _)| k.starts_with("yoo_rank_refresh_seconds{"))
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
            probe::thread_deltas(&w.threads.0, &w.threads.1),
            window_s,
        );
        report.harness_cpu_pct = (w.own.1.saturating_sub(w.own.0) + child_cpu) as f64 / probe::TICKS_PER_SEC / window_s.max(1e-9) * 100.0;
        report.memory = self.memory;
        report.errors = errors.into_iter().map(|((s, c), n)| (s.name().to_string(), c, n)).collect();
        report.errors.extend(self.child_errors.into_iter().map(|((s, c), n)| (s, c, n)));
        report.elapsed_s = self.began.elapsed().as_secs_f64();
        let secs = |us: i64| (us - self.began_us) as f64 / 1e6;
        report.timeline = Some(crate::timeline::Timeline {
            latencies: self.setup_calls,
            done: o.ready.iter().map(|r| secs(r.at_us)).collect(),
            done_per_s: None,
            errors: Vec::new(),
            span_s: report.elapsed_s,
            unit: "admissions".into(),
            errors_untimed: Some("queue-scale counts its errors by step and cause, not by time: see the errors in the text report".into()),
        });
        report.finish(cfg);
        report
    }
}

async fn read_memory(pid: Option<u32>, control: &mut Browser, label: &str, waiting: usize, sockets: usize) -> Option<MemoryRow> {
    let m: Memory = probe::memory(pid?)?;
    let metrics = probe::scrape(control).await;
    Some(MemoryRow {
        label: label.to_string(),
        waiting,
        sockets,
        rss_kib: m.rss_kib,
        anon_kib: m.anon_kib,
        server_fds: probe::open_fds(pid?).unwrap_or(0),
        actors_alive: metrics.as_ref().map(|m| {
            m.iter()
                .filter(|(k, _)| k.starts_with("yoo_actors_alive"))
                .map(|(k, v)| (k.trim_start_matches("yoo_actors_alive").to_string(), *v))
                .collect()
        }),
        heap_kib: metrics
            .as_ref()
            .and_then(|m| m.get("yoo_heap_in_use_bytes"))
            .map(|b| (*b / 1024.0) as u64),
    })
}

/// One gauge of `/metrics`.
/// A gauge summed over its series (by node, lane...); None when the scrape failed.
async fn gauge(control: &mut Browser, name: &str) -> Option<f64> {
    Some(probe::sum_series(&probe::scrape(control).await?, name))
}

async fn settle(cfg: &QueueConfig) {
    if cfg.server_pid.is_some() && !cfg.settle.is_zero() {
        note(&format!("settling {} s before reading memory", cfg.settle.as_secs()));
        tokio::time::sleep(cfg.settle).await;
    }
}

/// `perf record` of the server's CPU for the window (software clock: this VM has no hardware
/// counters; DWARF call graphs: the release build keeps no frame pointers); it stops by itself
/// after the window.
fn start_perf(pid: u32, out: &PathBuf, window: Duration) -> Option<Process> {
    Spawn::new("perf")
        .args([
            "record",
            "-e",
            "cpu-clock",
            "-F",
            "199",
            "--call-graph",
            "dwarf,16384",
            "-p",
            &pid.to_string(),
            "-o",
        ])
        .arg(out)
        .args(["--", "sleep", &window.as_secs().to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| note(&format!("perf could not start: {e}")))
        .ok()
}

/// Enrolls the players numbered `range` (`concurrency` at a time): sendcode, the code from the
/// outbox, login, start; with `confirm`, also confirmConnect (the machine holders). Returns those
/// enrolled, in no particular order; failures go to `errors`.
async fn enroll_phase(
    cfg: &QueueConfig,
    setup: &Rc<Setup>,
    label: &str,
    range: std::ops::Range<usize>,
    confirm: bool,
    rows: &mut Vec<PhaseRow>,
    errors: &mut BTreeMap<(Step, String), usize>,
) -> Vec<Enrolled> {
    let started = Instant::now();
    let total = range.len();
    let slots = Arc::new(Semaphore::new(cfg.concurrency));
    let done = Rc::new(Cell::new(0usize));
    let mut tasks = Vec::with_capacity(total);
    let mut last_note = Instant::now();
    let bar = crate::progress::phase("enrolled", total as u64);
    for index in range {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            break;
        };
        let (setup, phone, finished, bar) = (setup.clone(), cfg.phone(index), done.clone(), bar.clone());
        let fut: LocalBoxFuture<'static, Result<Enrolled, (Step, Failure)>> = Box::pin(async move {
            let _permit = permit;
            let r = enroll(&setup, index, &phone, confirm).await;
            finished.set(finished.get() + 1);
            bar.done(r.is_ok());
            r
        });
        tasks.push(actix_rt::spawn(fut));
        if last_note.elapsed() >= Duration::from_secs(10) {
            last_note = Instant::now();
            let d = done.get();
            note(&format!(
                "  {label}: {d}/{total} ({:.0}/s)",
                d as f64 / started.elapsed().as_secs_f64()
            ));
        }
    }
    let mut out = Vec::with_capacity(total);
    let mut failed = 0;
    for t in tasks {
        match t.await {
            Ok(Ok(e)) => out.push(e),
            Ok(Err((step, f))) => {
                failed += 1;
                *errors.entry((step, f.to_string())).or_default() += 1;
            }
            Err(e) => {
                failed += 1;
                *errors.entry((Step::NotStarted, format!("task: {e}"))).or_default() += 1;
            }
        }
    }
    bar.finish();
    let secs = started.elapsed().as_secs_f64();
    note(&format!("  {label}: {} enrolled, {failed} failed in {secs:.1} s", out.len()));
    rows.push(PhaseRow {
        phase: label.to_string(),
        ok: out.len(),
        failed,
        seconds: secs,
        per_sec: out.len() as f64 / secs.max(1e-9),
    });
    out
}

/// One player: sendcode → the code from the outbox → login → start (→ confirmConnect).
async fn enroll(s: &Setup, index: usize, phone: &str, confirm: bool) -> Result<Enrolled, (Step, Failure)> {
    let mut b = Browser::with_client(&s.base, &format!("qs-{}-{index}", s.run_tag), s.http.clone());
    let rec = &s.recorder;
    timed(
        rec,
        Step::SendCode,
        b.post("/api/passport/login/sendcode", &json!({ "phone": phone })),
    )
    .await?;
    let outbox = timed(rec, Step::SmsOutbox, b.get(&format!("/api/dev/sms/outbox?phone={phone}"))).await?;
    let code = crate::scenario::outbox_code(&outbox)?;
    let login = json!({ "cellphone": phone, "code": code, "device_no": b.device() });
    timed(rec, Step::Login, b.post("/api/passport/login", &login)).await?;
    let start = json!({ "gameId": s.game_id, "nodeDelay": "[]", "afterAuthCheck": 1, "nodeId": s.node_id });
    let state = timed(rec, Step::Start, b.post("/api/japi/yoo/game/start", &start)).await?;
    let session_id = state["id"]
        .as_i64()
        .ok_or((Step::Start, Failure::Unexpected("no session id".into())))?;
    let mut status = state["status"].as_i64().unwrap_or(0);
    let sort = state["sort"].as_u64().unwrap_or(0);
    if confirm {
        // A free machine is handed over just after the `start` answer (QUEUE, rank 1): the
        // holder asks `floatBall` until it is READY (it has no socket), for at most 10 s.
        let deadline = Instant::now() + Duration::from_secs(10);
        while status == QUEUE && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let st = b
                .post("/api/japi/yoo/game/floatBall", &json!({}))
                .await
                .map_err(|f| (Step::WaitReady, f))?;
            status = st["status"].as_i64().unwrap_or(0);
        }
        if status != READY {
            return Err((
                Step::WaitReady,
                Failure::Unexpected(format!("no machine within 10 s (status {status})")),
            ));
        }
        let c = timed(
            rec,
            Step::ConfirmConnect,
            b.post("/api/japi/yoo/game/confirmConnect", &json!({ "id": session_id })),
        )
        .await?;
        if c["status"].as_i64().is_none_or(|st| st != 4 && st != 5) {
            return Err((
                Step::ConfirmConnect,
                Failure::Unexpected(format!("confirm answered status {}", c["status"])),
            ));
        }
    }
    Ok(Enrolled {
        browser: b,
        session_id,
        status,
        sort,
    })
}

async fn timed(
    rec: &Mutex<Recorder>,
    step: Step,
    fut: impl std::future::Future<Output = Result<Value, Failure>>,
) -> Result<Value, (Step, Failure)> {
    let sent = Instant::now();
    let v = fut.await.map_err(|f| (step, f))?;
    rec.lock().record(step, sent.elapsed());
    Ok(v)
}

/// The socket-holding child processes; killed when dropped.
struct Children {
    procs: Vec<Process>,
    /// Lines to each child's stdin, written by a thread per child.
    inputs: Vec<std::sync::mpsc::Sender<String>>,
    /// Reports of every child: (child, event), or (child, None) when its stdout closed.
    events: mpsc::UnboundedReceiver<(usize, Option<Event>)>,
    /// Guard events seen while collecting something else.
    guards: Vec<i64>,
}

impl Children {
    fn spawn(cfg: &QueueConfig, base: &str) -> Result<Children, String> {
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
            guards: Vec::new(),
        };
        for i in 0..cfg.procs {
            let mut cmd = Spawn::new(&exe);
            cmd.arg("queue-scale-child")
                .args(["--url", base])
                .args(["--hold-ms", &cfg.hold.as_millis().to_string()])
                .args(["--hold-jitter-ms", &cfg.hold_jitter.as_millis().to_string()]);
            if spread {
                cmd.args(["--bind", &Ipv4Addr::new(127, 0, 0, 2 + (i % 250) as u8).to_string()]);
            }
            let (p, line_tx) = crate::children::spawn(cmd, i, "queue-scale", Event::parse, tx.clone())?;
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
                Some((i, Some(Event::Guard(t)))) => {
                    let _ = i;
                    self.guards.push(t);
                }
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

    /// Waits for the first guard event: "guard".
    async fn next_guard(&mut self) -> Result<&'static str, String> {
        if !self.guards.is_empty() {
            return Ok("guard");
        }
        loop {
            match self.events.recv().await {
                Some((_, Some(Event::Guard(t)))) => {
                    self.guards.push(t);
                    return Ok("guard");
                }
                Some((i, None)) => return Err(format!("socket child {i} ended early (see its messages above)")),
                None => return Err("every socket child ended".into()),
                Some(_) => {}
            }
        }
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
