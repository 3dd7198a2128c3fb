//! The run's result: per-step latencies, the handoff latency, errors by step and code, the
//! players' outcomes; printed as a table and optionally written as JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use crate::client::Failure;
use crate::config::Config;
use crate::scenario::Step;
use crate::stats::{Recorder, Summary};

/// How one player's journey ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every step done, the session ended with `over`.
    Completed,
    /// A call or a wait failed at this step.
    Failed(Step, Failure),
    /// The run's deadline came while the player was at this step.
    TimedOut(Step),
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub url: String,
    pub players: usize,
    pub concurrency: usize,
    pub play_ms: u64,
    pub completed: usize,
    pub failed: usize,
    pub timed_out: usize,
    pub elapsed_s: f64,
    /// Players whose start answer was already READY (a machine was free).
    pub ready_at_start: usize,
    /// Successful calls and waits; only steps that have samples.
    pub steps: Vec<StepRow>,
    /// READY push arrival minus the latest `over` answer before it (any player).
    pub handoff: Option<Summary>,
    pub errors: Vec<ErrorRow>,
    pub timeouts: Vec<TimeoutRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct StepRow {
    pub step: &'static str,
    #[serde(flatten)]
    pub summary: Summary,
}

#[derive(Debug, Clone, Serialize)]
pub struct ErrorRow {
    pub step: &'static str,
    pub error: String,
    pub count: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct TimeoutRow {
    pub step: &'static str,
    pub count: usize,
}

impl Report {
    pub fn build(config: &Config, base: &str, recorder: &Recorder, outcomes: &[Outcome], elapsed: Duration) -> Report {
        let mut errors: BTreeMap<(Step, String), usize> = BTreeMap::new();
        let mut timeouts: BTreeMap<Step, usize> = BTreeMap::new();
        let mut completed = 0;
        for o in outcomes {
            match o {
                Outcome::Completed => completed += 1,
                Outcome::Failed(step, f) => *errors.entry((*step, f.to_string())).or_default() += 1,
                Outcome::TimedOut(step) => *timeouts.entry(*step).or_default() += 1,
            }
        }
        let steps = step_rows(recorder);
        Report {
            url: base.to_string(),
            players: config.players,
            concurrency: config.concurrency,
            play_ms: config.play.as_millis() as u64,
            completed,
            failed: errors.values().sum(),
            timed_out: timeouts.values().sum(),
            elapsed_s: elapsed.as_secs_f64(),
            ready_at_start: recorder.ready_at_start_count(),
            steps,
            handoff: recorder.handoff().summary(),
            errors: errors
                .into_iter()
                .map(|((step, error), count)| ErrorRow {
                    step: step.name(),
                    error,
                    count,
                })
                .collect(),
            timeouts: timeouts
                .into_iter()
                .map(|(step, count)| TimeoutRow { step: step.name(), count })
                .collect(),
        }
    }

    /// 0 when every player completed, 1 when any failed, 3 when none failed but some timed out.
    pub fn exit_code(&self) -> i32 {
        if self.failed > 0 {
            1
        } else if self.timed_out > 0 {
            3
        } else {
            0
        }
    }

    pub fn final_line(&self) -> String {
        format!(
            "loadtest: {} players, {} completed, {} failed, {} timed out in {:.1} s",
            self.players, self.completed, self.failed, self.timed_out, self.elapsed_s
        )
    }

    /// The human table, ending with the final line.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "target {}, {} players, concurrency {}, play {} ms",
            self.url, self.players, self.concurrency, self.play_ms
        );
        let steps = self.steps.iter().map(|r| (r.step, Some(&r.summary)));
        LatencyTable {
            indent: "",
            width: 16,
            decimals: 2,
            header: "step",
            rows: steps.chain([("handoff", self.handoff.as_ref())]).collect(),
        }
        .render(&mut out);
        let _ = writeln!(out, "ready at start: {} (start answered READY, no wait)", self.ready_at_start);
        if self.elapsed_s > 0.0 {
            let _ = writeln!(
                out,
                "throughput: {:.1} completed journeys/s",
                self.completed as f64 / self.elapsed_s
            );
        }
        if self.errors.is_empty() {
            let _ = writeln!(out, "errors: none");
        } else {
            let _ = writeln!(out, "errors:");
            for e in &self.errors {
                let _ = writeln!(out, "  {:<16} {:>7}  {}", e.step, e.count, e.error);
            }
        }
        if !self.timeouts.is_empty() {
            let _ = writeln!(out, "timed out at:");
            for t in &self.timeouts {
                let _ = writeln!(out, "  {:<16} {:>7}", t.step, t.count);
            }
        }
        out.push_str(&self.final_line());
        out.push('\n');
        out
    }
}

/// The recorded steps that have samples, in journey order.
pub fn step_rows(recorder: &Recorder) -> Vec<StepRow> {
    Step::ALL
        .iter()
        .filter_map(|s| {
            Some(StepRow {
                step: s.name(),
                summary: recorder.steps().get(s)?.summary()?,
            })
        })
        .collect()
}

/// A latency table as data: a header and rows of (name, summary or none), drawn by one format.
pub struct LatencyTable<'a> {
    /// Before every line.
    pub indent: &'a str,
    /// The name column's width.
    pub width: usize,
    /// Decimals of the milliseconds.
    pub decimals: usize,
    /// The name column's header.
    pub header: &'a str,
    pub rows: Vec<(&'a str, Option<&'a Summary>)>,
}

impl LatencyTable<'_> {
    pub fn render(&self, out: &mut String) {
        let (indent, width) = (self.indent, self.width);
        let mut line = |cells: [&str; 5]| {
            let [name, count, p50, p99, max] = cells;
            let _ = writeln!(out, "{indent}{name:<width$} {count:>7} {p50:>10} {p99:>10} {max:>10}");
        };
        line([self.header, "count", "p50 ms", "p99 ms", "max ms"]);
        for (name, s) in &self.rows {
            match s {
                Some(s) => {
                    let ms = |v: f64| format!("{v:.*}", self.decimals);
                    line([name, &s.count.to_string(), &ms(s.p50_ms), &ms(s.p99_ms), &ms(s.max_ms)]);
                }
                None => line([name, "0", "-", "-", "-"]),
            }
        }
    }
}

/// The queue-scale report's latency tables: two-space indent, 44 wide, two decimals.
const FIGURES: LatencyTable<'static> = LatencyTable {
    indent: "  ",
    width: 44,
    decimals: 2,
    header: "",
    rows: Vec::new(),
};

/// Rows of cells, each column padded to its width (negative: left-aligned), the first row after
/// `prefix[0]`, the others after `prefix[1]`.
pub fn columns(out: &mut String, prefix: [&str; 2], widths: &[isize], rows: &[Vec<String>]) {
    for (i, row) in rows.iter().enumerate() {
        out.push_str(prefix[(i > 0) as usize]);
        for (j, (cell, &w)) in row.iter().zip(widths).enumerate() {
            if j > 0 {
                out.push(' ');
            }
            let n = w.unsigned_abs();
            let _ = if w < 0 {
                write!(out, "{cell:<n$}")
            } else {
                write!(out, "{cell:>n$}")
            };
        }
        out.push('\n');
    }
}

/// The setup phases, one line each.
pub fn setup_rows(out: &mut String, rows: &[PhaseRow]) {
    for p in rows {
        let _ = writeln!(
            out,
            "  {:<28} {:>7} ok {:>5} failed {:>8.1} s {:>8.0}/s",
            p.phase, p.ok, p.failed, p.seconds, p.per_sec
        );
    }
}

/// One setup phase of the queue-scale run.
#[derive(Debug, Clone, Serialize)]
pub struct PhaseRow {
    pub phase: String,
    pub ok: usize,
    pub failed: usize,
    pub seconds: f64,
    pub per_sec: f64,
}

/// The server's resident memory after a phase.
#[derive(Debug, Clone, Serialize)]
pub struct MemoryRow {
    pub label: String,
    pub waiting: usize,
    pub sockets: usize,
    pub rss_kib: u64,
    pub anon_kib: u64,
    pub server_fds: usize,
    /// The server's `yoo_actors_alive` by kind (`{kind="..."}`).
    pub actors_alive: Option<Vec<(String, f64)>>,
    /// The server's `yoo_heap_in_use_bytes` (what its allocator has handed out, refreshed every
    /// 10 s), KiB.
    pub heap_kib: Option<u64>,
}

/// The server's CPU over the window.
#[derive(Debug, Clone, Serialize)]
pub struct CpuFigures {
    /// The whole server process, % of one core.
    pub server_pct: Option<f64>,
    /// The rank walks' wall time (`yoo_rank_refresh_seconds`: the walk and the pushes it
    /// publishes, not the sockets' writes, including time the walk's thread was descheduled),
    /// % of one core.
    pub rank_walk_pct: Option<f64>,
    /// The rank walks' CPU time (`yoo_rank_refresh_cpu_seconds`, the walking thread's CPU clock:
    /// computing the ranks and encoding and queueing their pushes), % of one core.
    pub rank_walk_cpu_pct: Option<f64>,
    pub walks: Option<f64>,
    pub walk_mean_ms: Option<f64>,
    /// The server's own quantiles of the walk time after the window (its summary's recent window).
    pub walk_quantiles: Vec<(String, f64)>,
    /// Per thread name: threads, % of one core.
    pub threads: Vec<(String, usize, f64)>,
}

impl CpuFigures {
    pub fn build(
        server_ticks: Option<u64>,
        walk_sum_s: Option<f64>,
        walk_cpu_s: Option<f64>,
        walks: Option<f64>,
        walk_quantiles: Vec<(String, f64)>,
        threads: Vec<(String, usize, u64)>,
        window_s: f64,
    ) -> Option<CpuFigures> {
        let w = window_s.max(1e-9);
        let pct = |ticks: u64| ticks as f64 / crate::probe::TICKS_PER_SEC / w * 100.0;
        if server_ticks.is_none() && walk_sum_s.is_none() {
            return None;
        }
        Some(CpuFigures {
            server_pct: server_ticks.map(pct),
            rank_walk_pct: walk_sum_s.map(|s| s / w * 100.0),
            rank_walk_cpu_pct: walk_cpu_s.map(|s| s / w * 100.0),
            walks,
            walk_mean_ms: walk_sum_s.zip(walks).filter(|(_, n)| *n > 0.0).map(|(s, n)| s / n * 1000.0),
            walk_quantiles,
            threads: threads
                .into_iter()
                .filter(|t| t.2 > 0)
                .map(|(name, n, t)| (name, n, pct(t)))
                .collect(),
        })
    }
}

/// A figure against its target.
#[derive(Debug, Clone, Serialize)]
pub struct TargetRow {
    pub figure: String,
    pub value: Option<f64>,
    pub target: f64,
    pub unit: &'static str,
    pub met: Option<bool>,
}

/// The queue-scale run's result.
#[derive(Debug, Clone, Serialize)]
pub struct QueueReport {
    pub url: String,
    pub players: usize,
    pub sockets: usize,
    pub machines: usize,
    pub procs: usize,
    pub hold_ms: u64,
    pub hold_jitter_ms: u64,
    pub window_planned_s: u64,
    pub setup: Vec<PhaseRow>,
    /// Setup call latencies.
    pub steps: Vec<StepRow>,
    /// (step, cause, count), setup and window.
    pub errors: Vec<(String, String, usize)>,
    /// Players waiting after setup (socket players included).
    pub waiting: usize,
    /// The socket players' start ranks were exactly 1..S.
    pub r0_exact: bool,
    pub connected: usize,
    pub connect_failed: usize,
    /// First push on each socket: the rank at start / anything else.
    pub initial_exact: usize,
    pub initial_other: usize,
    pub child_fds_max: usize,
    pub memory: Vec<MemoryRow>,
    /// Bytes per player, from the memory rows.
    pub bytes_per_waiting_without_socket: Option<f64>,
    pub bytes_per_waiting_overall: Option<f64>,
    pub bytes_per_socket: Option<f64>,
    pub bytes_per_connected_waiting: Option<f64>,
    /// The same differences of heap in use instead of RSS: live data, whatever the allocator
    /// keeps resident.
    pub heap_per_waiting_without_socket: Option<f64>,
    pub heap_per_socket: Option<f64>,
    pub window_s: f64,
    /// "time" or "guard" (admissions reached the last socket players).
    pub ended_by: String,
    pub admission_rate: f64,
    /// The server's `yoo_queue_admissions_total` over the window.
    pub server_admissions: Option<f64>,
    pub handoff: crate::queue_scale::analysis::HandoffFigures,
    pub ranks: crate::queue_scale::analysis::RankFigures,
    pub cpu: Option<CpuFigures>,
    /// Parent and children together, % of one core over the window.
    pub harness_cpu_pct: f64,
    /// Sockets the server closed during the run.
    pub sockets_closed: usize,
    /// The password-login side load over the window (issue 11), when asked for.
    pub password_logins: Option<crate::queue_scale::passwords::PasswordFigures>,
    pub targets: Vec<TargetRow>,
    pub elapsed_s: f64,
    /// The setup calls and the admissions (READY receipts) over time, for the HTML report
    /// (not in the JSON).
    #[serde(skip)]
    pub timeline: Option<crate::timeline::Timeline>,
}

impl QueueReport {
    pub fn new(cfg: &crate::config::QueueConfig, base: &str) -> QueueReport {
        QueueReport {
            url: base.to_string(),
            players: cfg.players,
            sockets: cfg.sockets,
            machines: cfg.machines,
            procs: cfg.procs,
            hold_ms: cfg.hold.as_millis() as u64,
            hold_jitter_ms: cfg.hold_jitter.as_millis() as u64,
            window_planned_s: cfg.window.as_secs(),
            setup: Vec::new(),
            steps: Vec::new(),
            errors: Vec::new(),
            waiting: 0,
            r0_exact: false,
            connected: 0,
            connect_failed: 0,
            initial_exact: 0,
            initial_other: 0,
            child_fds_max: 0,
            memory: Vec::new(),
            bytes_per_waiting_without_socket: None,
            bytes_per_waiting_overall: None,
            bytes_per_socket: None,
            bytes_per_connected_waiting: None,
            heap_per_waiting_without_socket: None,
            heap_per_socket: None,
            window_s: 0.0,
            ended_by: String::new(),
            admission_rate: 0.0,
            server_admissions: None,
            handoff: Default::default(),
            ranks: Default::default(),
            cpu: None,
            harness_cpu_pct: 0.0,
            sockets_closed: 0,
            password_logins: None,
            targets: Vec::new(),
            elapsed_s: 0.0,
            timeline: None,
        }
    }

    /// Derives the per-player memory and the target rows.
    pub fn finish(&mut self, cfg: &crate::config::QueueConfig) {
        let row = |prefix: &str| self.memory.iter().find(|m| m.label.starts_with(prefix)).cloned();
        let (held, front, all, socks) = (
            row("machines held"),
            row("socket players waiting"),
            row("all waiting, no"),
            row("all waiting, sockets"),
        );
        let per = |a: &Option<MemoryRow>, b: &Option<MemoryRow>, n: usize| {
            let (a, b) = (a.as_ref()?, b.as_ref()?);
            (n > 0).then(|| (b.rss_kib as f64 - a.rss_kib as f64) * 1024.0 / n as f64)
        };
        self.bytes_per_waiting_without_socket = per(
            &front,
            &all,
            all.as_ref().map_or(0, |a| a.waiting) - front.as_ref().map_or(0, |f| f.waiting),
        );
        self.bytes_per_waiting_overall = per(&held, &all, self.waiting);
        let heap = |a: &Option<MemoryRow>, b: &Option<MemoryRow>, n: usize| {
            let (a, b) = (a.as_ref()?.heap_kib?, b.as_ref()?.heap_kib?);
            (n > 0).then(|| (b as f64 - a as f64) * 1024.0 / n as f64)
        };
        self.heap_per_waiting_without_socket = heap(
            &front,
            &all,
            all.as_ref().map_or(0, |a| a.waiting) - front.as_ref().map_or(0, |f| f.waiting),
        );
        self.heap_per_socket = heap(&all, &socks, self.connected);
        self.bytes_per_socket = per(&all, &socks, self.connected);
        self.bytes_per_connected_waiting = self.bytes_per_socket.zip(self.bytes_per_waiting_overall).map(|(s, w)| s + w);
        let _ = cfg;
        let target = |figure: &str, value: Option<f64>, target: f64, unit: &'static str| TargetRow {
            figure: figure.to_string(),
            value,
            target,
            unit,
            met: value.map(|v| v <= target),
        };
        self.targets = vec![
            target(
                "displayed rank staleness max (by receipt)",
                self.ranks.by_receipt.displayed_staleness.map(|s| s.max_ms),
                1000.0,
                "ms",
            ),
            target(
                "displayed rank staleness max (server clock)",
                self.ranks.by_server_clock.displayed_staleness.map(|s| s.max_ms),
                1000.0,
                "ms",
            ),
            target(
                "hand-off p99 (READY since the latest free)",
                self.handoff.since_latest_free_answer.map(|s| s.p99_ms),
                50.0,
                "ms",
            ),
            target(
                "hand-off p99 (free to the next READY)",
                self.handoff.free_answer_to_next_ready.map(|s| s.p99_ms),
                50.0,
                "ms",
            ),
            target(
                "memory per connected waiting player",
                self.bytes_per_connected_waiting,
                10_000.0,
                "B",
            ),
            target(
                "memory per waiting player without socket",
                self.bytes_per_waiting_without_socket,
                1_000.0,
                "B",
            ),
            target(
                "rank walks CPU, % of one core",
                self.cpu.as_ref().and_then(|c| c.rank_walk_cpu_pct),
                15.0,
                "%",
            ),
            target(
                "rank walks wall time, % of one core",
                self.cpu.as_ref().and_then(|c| c.rank_walk_pct),
                15.0,
                "%",
            ),
        ];
    }

    /// 0 when the scenario ran and no rank lied (by the server's clock, which is exact) or went
    /// up; 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        let r = &self.ranks;
        if r.by_server_clock.lies > 0 || r.non_monotone > 0 || r.admissions == 0 {
            1
        } else {
            0
        }
    }

    pub fn table(&self) -> String {
        let mut out = String::new();
        let w = |out: &mut String, s: String| {
            out.push_str(&s);
            out.push('\n');
        };
        w(
            &mut out,
            format!(
                "queue-scale against {}: {} players waiting ({} with a socket over {} processes), {} machines held {} ms ± {} ms",
                self.url, self.players, self.sockets, self.procs, self.machines, self.hold_ms, self.hold_jitter_ms
            ),
        );
        w(&mut out, "setup:".into());
        setup_rows(&mut out, &self.setup);
        LatencyTable {
            header: "setup call",
            rows: self.steps.iter().map(|r| (r.step, Some(&r.summary))).collect(),
            ..FIGURES
        }
        .render(&mut out);
        w(
            &mut out,
            format!(
                "waiting after setup: {} (socket players' start ranks 1..{}: {})",
                self.waiting,
                self.sockets,
                if self.r0_exact { "exact" } else { "NOT exact" }
            ),
        );
        w(
            &mut out,
            format!(
                "sockets: {} open, {} failed; first push = rank at start: {}, other: {}; child open files max {}; closed by the server: {}",
                self.connected, self.connect_failed, self.initial_exact, self.initial_other, self.child_fds_max, self.sockets_closed
            ),
        );
        if !self.memory.is_empty() {
            let header = ["after", "waiting", "sockets", "RSS KiB", "anon KiB", "heap KiB", "fds", "actors"].map(String::from);
            let rows = self.memory.iter().map(|m| {
                vec![
                    m.label.clone(),
                    m.waiting.to_string(),
                    m.sockets.to_string(),
                    m.rss_kib.to_string(),
                    m.anon_kib.to_string(),
                    m.heap_kib.map_or("-".into(), |h| h.to_string()),
                    m.server_fds.to_string(),
                    m.actors_alive
                        .as_ref()
                        .map_or("-".into(), |a| format!("{:.0}", a.iter().map(|(_, n)| n).sum::<f64>())),
                ]
            });
            let rows: Vec<Vec<String>> = std::iter::once(header.to_vec()).chain(rows).collect();
            columns(
                &mut out,
                ["server memory:  ", "                "],
                &[-40, 8, 8, 10, 10, 10, 6, 7],
                &rows,
            );
            let b = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0} B"));
            w(
                &mut out,
                format!(
                "  per waiting player without a socket {}, per waiting player overall {}, per socket {}, per connected waiting player {}",
                b(self.bytes_per_waiting_without_socket),
                b(self.bytes_per_waiting_overall),
                b(self.bytes_per_socket),
                b(self.bytes_per_connected_waiting)
            ),
            );
            w(
                &mut out,
                format!(
                    "  heap in use (live data): per waiting player without a socket {}, per socket {}",
                    b(self.heap_per_waiting_without_socket),
                    b(self.heap_per_socket)
                ),
            );
        }
        w(
            &mut out,
            format!(
                "window: {:.1} s (ended by {}), {} admissions seen ({:.0}/s), server counted {}, {} frees",
                self.window_s,
                self.ended_by,
                self.ranks.admissions,
                self.admission_rate,
                self.server_admissions.map_or("-".into(), |a| format!("{a:.0}")),
                self.handoff.frees
            ),
        );
        let (h, r) = (&self.handoff, &self.ranks);
        let (rc, sc) = (&r.by_receipt, &r.by_server_clock);
        LatencyTable {
            header: "figure",
            rows: vec![
                ("hand-off: READY since the latest free answer", h.since_latest_free_answer.as_ref()),
                ("hand-off: READY since the latest free sent", h.since_latest_free_sent.as_ref()),
                ("hand-off: free answer to the next READY", h.free_answer_to_next_ready.as_ref()),
                ("hand-off: free sent to the next READY", h.free_sent_to_next_ready.as_ref()),
                ("rank staleness at receipt (by receipt)", rc.staleness_at_receipt.as_ref()),
                ("displayed rank staleness (by receipt)", rc.displayed_staleness.as_ref()),
                ("rank staleness at receipt (server clock)", sc.staleness_at_receipt.as_ref()),
                ("displayed rank staleness (server clock)", sc.displayed_staleness.as_ref()),
                ("gap between a player's rank pushes", r.push_gaps.as_ref()),
                ("rank push delivery (receipt - serverTime)", r.rank_delivery.as_ref()),
                ("READY push delivery (receipt - serverTime)", r.ready_delivery.as_ref()),
                ("admission to READY receipt", r.admission_to_ready_receipt.as_ref()),
            ]
            .into_iter()
            .chain(
                self.password_logins
                    .as_ref()
                    .map(|p| ("password login (side load)", p.latency.as_ref())),
            )
            .collect(),
            ..FIGURES
        }
        .render(&mut out);
        if let Some(p) = &self.password_logins {
            let causes: Vec<String> = p.causes.iter().map(|(c, n)| format!("{c} x{n}")).collect();
            w(
                &mut out,
                format!(
                    "password logins (side load, {} accounts of {}): {}/s asked, {} due, {} sent, {} ok ({:.1}/s), {} refused busy, {} errors, {} not sent{}",
                    p.accounts,
                    p.accounts_asked,
                    p.per_sec,
                    p.due,
                    p.sent,
                    p.ok,
                    p.ok_per_sec,
                    p.refused_busy,
                    p.errors,
                    p.not_sent,
                    if causes.is_empty() { String::new() } else { format!(" [{}]", causes.join("; ")) }
                ),
            );
        }
        w(
            &mut out,
            format!(
                "ranks: {} pushes, non-monotone {}, admitted without a rank push {}",
                r.rank_pushes, r.non_monotone, r.players_without_push
            ),
        );
        for (clock, t) in [("by receipt", &r.by_receipt), ("server clock", &r.by_server_clock)] {
            w(
                &mut out,
                format!(
                    "  {clock}: {} exact at receipt, lies {}, below the truth by delivery order {} (max {} places, {:.1} ms), \
                 admissions imputed {}, out of rank order {}",
                    t.exact_at_receipt,
                    t.lies,
                    t.below_truth,
                    t.below_truth_max_places,
                    t.below_truth_max_lead_ms,
                    t.imputed_admissions,
                    t.fifo_inversions
                ),
            );
        }
        if let Some(c) = &self.cpu {
            let f = |v: Option<f64>, unit: &str| v.map_or("-".into(), |v| format!("{v:.1}{unit}"));
            w(
                &mut out,
                format!(
                    "server CPU over the window: {} of one core; rank walks {} CPU, {} wall ({} walks, mean {})",
                    f(c.server_pct, "%"),
                    f(c.rank_walk_cpu_pct, "%"),
                    f(c.rank_walk_pct, "%"),
                    f(c.walks, ""),
                    f(c.walk_mean_ms, " ms")
                ),
            );
            if !c.walk_quantiles.is_empty() {
                let q: Vec<String> = c
                    .walk_quantiles
                    .iter()
                    .map(|(k, v)| format!("{} {:.2} ms", k.trim_start_matches("yoo_rank_refresh_seconds"), v * 1000.0))
                    .collect();
                w(&mut out, format!("  walk time (server summary): {}", q.join(", ")));
            }
            let t: Vec<String> = c.threads.iter().take(8).map(|(n, k, p)| format!("{n}×{k} {p:.1}%")).collect();
            w(&mut out, format!("  by thread: {}", t.join(", ")));
        }
        w(
            &mut out,
            format!(
                "harness CPU over the window: {:.1}% of one core (parent and children)",
                self.harness_cpu_pct
            ),
        );
        w(&mut out, "targets:".into());
        for t in &self.targets {
            let verdict = match (t.met, t.value) {
                (Some(true), _) => "met".to_string(),
                (Some(false), Some(v)) => format!("MISSED by {:.1} {} ({:.0}%)", v - t.target, t.unit, (v / t.target - 1.0) * 100.0),
                _ => "not measured".to_string(),
            };
            w(
                &mut out,
                format!(
                    "  {:<44} {:>12} (target ≤ {} {}) {}",
                    t.figure,
                    t.value.map_or("-".into(), |v| format!("{v:.1} {}", t.unit)),
                    t.target,
                    t.unit,
                    verdict
                ),
            );
        }
        if self.errors.is_empty() {
            w(&mut out, "errors: none".into());
        } else {
            w(&mut out, "errors:".into());
            for (step, cause, n) in &self.errors {
                w(&mut out, format!("  {step:<16} {n:>7}  {cause}"));
            }
        }
        w(
            &mut out,
            format!(
                "loadtest queue-scale: {} waiting, {} sockets, {} admissions in {:.1} s, {} lies, done in {:.0} s",
                self.waiting, self.connected, self.ranks.admissions, self.window_s, self.ranks.by_server_clock.lies, self.elapsed_s
            ),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Outcomes are tallied into completed, failed by (step, code), timed out by step.
    #[test]
    fn outcomes_are_tallied() {
        let cfg = Config::new("http://127.0.0.1:1", 5);
        let mut rec = Recorder::default();
        rec.record(Step::Login, Duration::from_millis(3));
        let outcomes = [
            Outcome::Completed,
            Outcome::Failed(Step::SendCode, Failure::Api(20114)),
            Outcome::Failed(Step::SendCode, Failure::Api(20114)),
            Outcome::TimedOut(Step::WaitReady),
            Outcome::TimedOut(Step::NotStarted),
        ];
        let r = Report::build(&cfg, "http://127.0.0.1:1", &rec, &outcomes, Duration::from_secs(2));
        assert_eq!((r.completed, r.failed, r.timed_out, r.exit_code()), (1, 2, 2, 1));
        assert_eq!(
            (r.errors.len(), r.errors[0].step, r.errors[0].error.as_str(), r.errors[0].count),
            (1, "sendcode", "code 20114", 2)
        );
        assert_eq!(r.steps.len(), 1);
        let table = r.table();
        assert!(
            table.ends_with("loadtest: 5 players, 1 completed, 2 failed, 2 timed out in 2.0 s\n"),
            "{table}"
        );
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["steps"][0]["p50_ms"], 3.0);
        assert!(json["handoff"].is_null());
    }
}
