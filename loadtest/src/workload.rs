//! The workloads behind one face: run one (sampling the server's CPU and memory when its
//! pid is known), and get back what every front end needs: the table, the JSON report, the exit
//! status, the named metrics that thresholds read, and the timeline the HTML report plots.

use std::time::{Duration, Instant};

use crate::command::{CommandConfig, CommandRun};
use crate::config::{Config, PurchaseConfig, QueueConfig, RoomConfig};
use crate::purchases::PurchaseReport;
use crate::report::{QueueReport, Report, TargetRow};
use crate::room_scale::report::RoomReport;
use crate::stats::Summary;
use crate::thresholds::{Metric, Metrics, Unit};
use crate::timeline::{ServerSampler, ServerSeries, Timeline};
use crate::JourneyDetail;

/// One run of one workload, fully configured and checked.
#[derive(Debug, Clone)]
pub enum Workload {
    Journey(Config),
    QueueScale(QueueConfig),
    Purchases(PurchaseConfig),
    RoomScale(RoomConfig),
    /// A benchmark run as a program that writes its figures (`command`).
    Command(CommandConfig),
}

/// A finished run.
#[derive(Debug)]
pub struct Finished {
    pub workload: &'static str,
    /// The text table, as printed.
    pub table: String,
    /// The JSON report, pretty-printed, fields in the report's order.
    pub json: String,
    /// The workload's own exit status (thresholds aside).
    pub exit_code: i32,
    pub metrics: Metrics,
    /// Latency summaries by name, for the HTML report's table.
    pub latencies: Vec<(String, Summary)>,
    /// Per-call events over time; none where the workload keeps only summaries.
    pub timeline: Option<Timeline>,
    pub server: ServerSeries,
}

/// How often the server is read.
const SAMPLE_EVERY: Duration = Duration::from_millis(500);

impl Workload {
    pub fn name(&self) -> &'static str {
        match self {
            Workload::Journey(_) => "journey",
            Workload::QueueScale(_) => "queue-scale",
            Workload::Purchases(_) => "purchases",
            Workload::RoomScale(_) => "room-scale",
            Workload::Command(_) => "command",
        }
    }

    pub fn server_pid(&self) -> Option<u32> {
        match self {
            Workload::Journey(c) => c.server_pid,
            Workload::QueueScale(c) => c.server_pid,
            Workload::Purchases(c) => c.server_pid,
            Workload::RoomScale(c) => c.server_pid,
            Workload::Command(c) => c.server_pid,
        }
    }

    /// Runs it on this thread (each workload makes its own actix-rt `System`).
    pub fn run_blocking(&self) -> Result<Finished, String> {
        let began = Instant::now();
        if let Workload::Command(c) = self {
            // it samples its process itself: the pid may come from a file the program writes
            let run = crate::command::run_blocking(c, began)?;
            let why = "the process's CPU and memory are plotted when its pid is known (pid_file or server_pid in the scenario file)";
            let server = match run.samples.clone() {
                Some(s) if s.is_empty() => Err("no reading of the process: it was gone or the run too short".into()),
                Some(s) => Ok(s),
                None => Err(why.into()),
            };
            let mut f = command(run)?;
            f.server = server;
            return Ok(f);
        }
        let sampler = self.server_pid().map(|pid| ServerSampler::start(pid, began, SAMPLE_EVERY));
        let finished = self.run_inner();
        let samples = sampler.map(ServerSampler::finish);
        let mut finished = finished?;
        finished.server = match (self.server_pid(), samples) {
            (Some(pid), Some(s)) if s.is_empty() => Err(format!("no reading of /proc/{pid}: the process was gone or the run too short")),
            (_, Some(s)) => Ok(s),
            _ => Err(
                "the server's CPU and memory are plotted when its pid is known (--server-pid, or server_pid in the scenario file)".into(),
            ),
        };
        Ok(finished)
    }

    fn run_inner(&self) -> Result<Finished, String> {
        match self {
            Workload::Journey(c) => {
                let (report, detail) = actix_rt::System::new().block_on(crate::run_detailed(c))?;
                Ok(journey(&report, detail))
            }
            Workload::QueueScale(c) => Ok(queue(&crate::queue_scale::run_blocking(c)?)),
            Workload::Purchases(c) => Ok(purchases(&crate::purchases::run_blocking(c)?)),
            Workload::RoomScale(c) => Ok(room(&crate::room_scale::run_blocking(c)?)),
            Workload::Command(_) => Err("a command is run by run_blocking".into()),
        }
    }
}

fn finished(workload: &'static str, table: String, json: &impl serde::Serialize, exit_code: i32) -> Finished {
    Finished {
        workload,
        table,
        json: serde_json::to_string_pretty(json).expect("the report serializes"),
        exit_code,
        metrics: Metrics::new(),
        latencies: Vec::new(),
        timeline: None,
        server: Err(String::new()),
    }
}

fn ratio(bad: impl Into<f64>, total: impl Into<f64>) -> Metric {
    Metric::Ratio {
        bad: bad.into(),
        total: total.into(),
    }
}

/// Each target row as a figure of its name (durations in ms, everything else plain).
fn targets(m: &mut Metrics, rows: &[TargetRow]) {
    for t in rows {
        if let Some(v) = t.value {
            let unit = if t.unit == "ms" { Unit::Millis } else { Unit::Plain };
            m.insert(t.figure.clone(), Metric::Figure(v, unit));
        }
    }
}

fn summaries(m: &mut Metrics, latencies: &mut Vec<(String, Summary)>, rows: impl IntoIterator<Item = (String, Option<Summary>)>) {
    for (name, s) in rows {
        if let Some(s) = s {
            m.insert(name.clone(), Metric::Summary(s));
            latencies.push((name, s));
        }
    }
}

fn error_count(errors: &[(String, String, usize)]) -> f64 {
    errors.iter().map(|e| e.2 as f64).sum()
}

fn journey(r: &Report, detail: JourneyDetail) -> Finished {
    let mut f = finished("journey", r.table(), r, r.exit_code());
    let m = &mut f.metrics;
    for (name, samples) in detail.steps {
        m.insert(name.to_string(), Metric::Samples(samples));
    }
    m.insert("handoff".into(), Metric::Samples(detail.handoff));
    m.insert("errors".into(), ratio(r.failed as f64, r.players as f64));
    m.insert("timeouts".into(), ratio(r.timed_out as f64, r.players as f64));
    m.insert("completed".into(), ratio(r.completed as f64, r.players as f64));
    m.insert(
        "throughput".into(),
        Metric::Figure(r.completed as f64 / r.elapsed_s.max(1e-9), Unit::PerSec),
    );
    m.insert("duration".into(), Metric::Figure(r.elapsed_s * 1000.0, Unit::Millis));
    f.latencies = r.steps.iter().map(|s| (s.step.to_string(), s.summary)).collect();
    if let Some(h) = r.handoff {
        f.latencies.push(("handoff".into(), h));
    }
    f.timeline = Some(detail.timeline);
    f
}

fn queue(r: &QueueReport) -> Finished {
    let mut f = finished("queue-scale", r.table(), r, r.exit_code());
    let (h, k) = (&r.handoff, &r.ranks);
    let rows = [
        ("hand-off: READY since the latest free answer", h.since_latest_free_answer),
        ("hand-off: READY since the latest free sent", h.since_latest_free_sent),
        ("hand-off: free answer to the next READY", h.free_answer_to_next_ready),
        ("hand-off: free sent to the next READY", h.free_sent_to_next_ready),
        ("rank staleness at receipt (by receipt)", k.by_receipt.staleness_at_receipt),
        ("displayed rank staleness (by receipt)", k.by_receipt.displayed_staleness),
        ("rank staleness at receipt (server clock)", k.by_server_clock.staleness_at_receipt),
        ("displayed rank staleness (server clock)", k.by_server_clock.displayed_staleness),
        ("gap between a player's rank pushes", k.push_gaps),
        ("rank push delivery", k.rank_delivery),
        ("READY push delivery", k.ready_delivery),
        ("admission to READY receipt", k.admission_to_ready_receipt),
    ];
    let steps = r.steps.iter().map(|s| (s.step.to_string(), Some(s.summary)));
    let pw = r.password_logins.as_ref().map(|p| ("password login".to_string(), p.latency));
    summaries(
        &mut f.metrics,
        &mut f.latencies,
        steps.chain(rows.into_iter().map(|(n, s)| (n.to_string(), s))).chain(pw),
    );
    let m = &mut f.metrics;
    if let Some(p) = &r.password_logins {
        m.insert("password login errors".into(), ratio((p.errors + p.not_sent) as f64, p.due as f64));
        m.insert("password login refused busy".into(), ratio(p.refused_busy as f64, p.due as f64));
        m.insert("password login throughput".into(), Metric::Figure(p.ok_per_sec, Unit::PerSec));
    }
    targets(m, &r.targets);
    if let Some(b) = r.bytes_per_socket {
        m.insert("bytes per socket".into(), Metric::Figure(b, Unit::Plain));
    }
    if let Some(b) = r.heap_per_socket {
        m.insert("heap per socket".into(), Metric::Figure(b, Unit::Plain));
    }
    m.insert("lies".into(), Metric::Figure(k.by_server_clock.lies as f64, Unit::Plain));
    m.insert("lies by receipt".into(), Metric::Figure(k.by_receipt.lies as f64, Unit::Plain));
    m.insert("non-monotone".into(), Metric::Figure(k.non_monotone as f64, Unit::Plain));
    m.insert("errors".into(), ratio(error_count(&r.errors), (r.players + r.machines) as f64));
    m.insert("connect failures".into(), ratio(r.connect_failed as f64, r.sockets as f64));
    m.insert("throughput".into(), Metric::Figure(r.admission_rate, Unit::PerSec));
    if let Some(cpu) = r.cpu.as_ref().and_then(|c| c.server_pct) {
        m.insert("server cpu".into(), Metric::Figure(cpu / 100.0, Unit::Ratio));
    }
    f.timeline = r.timeline.clone();
    f
}

fn purchases(r: &PurchaseReport) -> Finished {
    let mut f = finished("purchases", r.table(), r, r.exit_code());
    let rows = [("create".to_string(), r.create), ("fulfil".to_string(), r.fulfil)];
    let calls = r.calls.iter().map(|(n, s)| (n.clone(), Some(*s)));
    summaries(&mut f.metrics, &mut f.latencies, rows.into_iter().chain(calls));
    let m = &mut f.metrics;
    targets(m, &r.targets);
    m.insert("errors".into(), ratio(error_count(&r.errors), r.due as f64));
    m.insert("unfulfilled".into(), ratio(r.unfulfilled as f64, r.created as f64));
    m.insert("not sent".into(), ratio(r.not_sent as f64, r.due as f64));
    m.insert("throughput".into(), Metric::Figure(r.created_per_s, Unit::PerSec));
    m.insert(
        "ledger mismatches".into(),
        Metric::Figure(r.ledger_mismatches.len() as f64, Unit::Plain),
    );
    if let Some(cpu) = r.server_cpu_pct {
        m.insert("server cpu".into(), Metric::Figure(cpu / 100.0, Unit::Ratio));
    }
    f.timeline = r.timeline.clone();
    f
}

fn room(r: &RoomReport) -> Finished {
    let mut f = finished("room-scale", r.table(), r, r.exit_code());
    let latency = |l: &crate::room_scale::report::Latency| {
        Some(Summary {
            count: l.count as usize,
            p50_ms: l.p50_ms?,
            p99_ms: l.p99_ms?,
            max_ms: l.max_ms?,
        })
    };
    let rows = [
        ("send → last viewer".to_string(), latency(&r.latency_last)),
        ("send → each viewer".to_string(), latency(&r.latency_each)),
    ];
    let calls = r.calls.iter().map(|(n, s)| (n.clone(), Some(*s)));
    summaries(&mut f.metrics, &mut f.latencies, rows.into_iter().chain(calls));
    let m = &mut f.metrics;
    targets(m, &r.targets);
    m.insert("errors".into(), ratio(error_count(&r.errors), (r.viewers + 1) as f64));
    m.insert("missing".into(), ratio(r.missing as f64, (r.deliveries + r.missing) as f64));
    m.insert("offset gaps".into(), Metric::Figure(r.sums.offset_gaps as f64, Unit::Plain));
    m.insert("connect failures".into(), ratio(r.connect_failed as f64, r.viewers as f64));
    m.insert("throughput".into(), Metric::Figure(r.delivered_per_s, Unit::PerSec));
    if let Some(s) = &r.server {
        m.insert("server cpu".into(), Metric::Figure(s.cpu_pct / 100.0, Unit::Ratio));
    }
    f.timeline = r.timeline.clone();
    f
}

fn command(run: CommandRun) -> Result<Finished, String> {
    let r = &run.report;
    let mut f = finished("command", r.table(), r, r.exit_code());
    f.metrics = r.figures.metrics()?;
    f.metrics.insert(
        "exit status".into(),
        Metric::Figure(r.exit_status.map_or(-1.0, f64::from), Unit::Plain),
    );
    f.latencies = r.figures.summaries();
    f.timeline = r.figures.timeline();
    Ok(f)
}

/// The metric names a workload always or usually has (its latencies besides), for checking a
/// scenario file's thresholds before a run: a name outside these is most likely a typo.
pub fn known_metrics(workload: &str) -> Vec<String> {
    let mut names: Vec<String> = match workload {
        "journey" => crate::scenario::Step::ALL[1..]
            .iter()
            .map(|s| s.name())
            .chain(["handoff", "errors", "timeouts", "completed", "throughput", "duration"])
            .map(String::from)
            .collect(),
        "queue-scale" => [
            "hand-off: READY since the latest free answer",
            "hand-off: READY since the latest free sent",
            "hand-off: free answer to the next READY",
            "hand-off: free sent to the next READY",
            "rank staleness at receipt (by receipt)",
            "displayed rank staleness (by receipt)",
            "rank staleness at receipt (server clock)",
            "displayed rank staleness (server clock)",
            "gap between a player's rank pushes",
            "rank push delivery",
            "READY push delivery",
            "admission to READY receipt",
            "password login",
            "password login errors",
            "password login refused busy",
            "password login throughput",
            "lies",
            "lies by receipt",
            "non-monotone",
            "errors",
            "connect failures",
            "throughput",
            "server cpu",
        ]
        .map(String::from)
        .to_vec(),
        "purchases" => [
            "create",
            "fulfil",
            "errors",
            "unfulfilled",
            "not sent",
            "throughput",
            "ledger mismatches",
            "server cpu",
        ]
        .map(String::from)
        .to_vec(),
        "room-scale" => [
            "send → last viewer",
            "send → each viewer",
            "errors",
            "missing",
            "offset gaps",
            "connect failures",
            "throughput",
            "server cpu",
        ]
        .map(String::from)
        .to_vec(),
        _ => Vec::new(),
    };
    // The targets each report checks itself, by their figures' names.
    let rows = match workload {
        "queue-scale" => {
            let cfg = QueueConfig::new("http://127.0.0.1:1", 2, 1, 1);
            let mut r = QueueReport::new(&cfg, "");
            r.finish(&cfg);
            r.targets
        }
        "purchases" => {
            let mut r = PurchaseReport::default();
            r.finish();
            r.targets
        }
        "room-scale" => {
            let mut r = RoomReport::default();
            r.finish();
            r.targets
        }
        _ => Vec::new(),
    };
    names.extend(rows.into_iter().map(|t| t.figure));
    // The calls each workload times by name (the setup's and the window's).
    let calls: &[&str] = match workload {
        "queue-scale" => &["sendcode", "sms outbox", "login", "start", "confirmConnect"],
        "purchases" => &["sendcode", "sms outbox", "login", "qrcode", "sandbox confirm", "ledger check"],
        "room-scale" => &[
            "sendcode",
            "sms outbox",
            "login",
            "room/relayCheck",
            "room/params",
            "room/relay",
            "room/chat/send",
        ],
        _ => &[],
    };
    names.extend(calls.iter().map(|c| c.to_string()));
    names.extend(
        ["bytes per socket", "heap per socket"]
            .map(String::from)
            .into_iter()
            .filter(|_| workload == "queue-scale"),
    );
    names.sort();
    names
}
