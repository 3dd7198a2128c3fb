//! The load-test harness: virtual players drive a running `yoo-server` through its real REST
//! and WebSocket interfaces (API.md), the way the browser does, and the run reports how long
//! each step took, how long a freed machine took to reach the next queued player, and what
//! failed. It never reaches into the server: the only shared artefact is `facade/proto/yoo.proto`,
//! from which `build.rs` generates its own protocol types.
//!
//! Layout:
//!
//! - `cli`: the command line (clap); each workload's parameters, shared with scenario files.
//! - `config`: each workload's settings, their defaults and checks, the loopback-only URL
//!   check, the phone numbers.
//! - `scenario_file`: `loadtest run FILE.toml`: workload, parameters, thresholds, outputs.
//! - `thresholds`: k6-style thresholds, parsed and judged against a run's named metrics.
//! - `workload`: the four workloads behind one face (table, JSON, exit status, metrics).
//! - `timeline`: what happened when, and the server's CPU and memory sampled over the run.
//! - `html`: the self-contained HTML report (verdicts, inline SVG plots).
//! - `progress`: a live progress line per phase on stderr (terminals only).
//! - `client`: one virtual browser: cookies, CSRF header, the envelope, the protobuf WebSocket.
//! - `scenario`: the player journey, step by step.
//! - `queue_scale`: the queue-scale scenario (issue 3): a queue of 100,000, machines freeing at
//!   1,000/s, rank staleness and hand-off measured over sockets spread on child processes.
//! - `room_scale`: the room-scale scenario (issue 9): one room, up to 19,000 viewer sockets over
//!   child processes, chat at a set rate, churn, every message counted at every viewer.
//! - `purchases`: the purchases scenario (issue 10): orders at a set rate paid through the
//!   sandbox provider, creation and payment → fulfilment latency, the ledger check after.
//! - `logins`: logging many users in, the cookies a later call needs, per-call latencies.
//! - `probe`: the server process seen from outside (`/proc/<pid>`, `/metrics`).
//! - `stats`: latency samples, nearest-rank percentiles, the run's shared recorder.
//! - `report`: outcomes, the printed table and the JSON report.
//! - `proto`: types generated from `facade/proto/yoo.proto`.
//!
//! **Architecture Invariant:** traffic only goes to this machine (127.0.0.0/8, `localhost`,
//! `[::1]`); [`config::loopback_base`] refuses every other target before a socket is opened.

pub mod children;
pub mod cli;
pub mod client;
pub mod command;
pub mod config;
pub mod html;
pub mod logins;
pub mod probe;
pub mod progress;
pub mod purchases;
pub mod queue_scale;
pub mod report;
pub mod room_scale;
pub mod scenario;
pub mod scenario_file;
pub mod stats;
pub mod thresholds;
pub mod timeline;
pub mod workload;

pub mod proto {
    //! The WebSocket protocol, generated from `facade/proto/yoo.proto`.
    include!(concat!(env!("OUT_DIR"), "/yoo.v1.rs"));
}

use std::cell::Cell;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use tokio::sync::Semaphore;
use tokio::time::timeout_at;

pub use config::Config;
pub use report::{Outcome, Report};
use scenario::{Journey, Step};
use stats::Recorder;

/// Runs `config.players` journeys, `config.concurrency` at a time, until all are done or the
/// deadline (`config.timeout` from now) passes. Must run inside an actix-rt `System` (the
/// HTTP client is single-threaded): see [`run_blocking`].
pub async fn run(config: &Config) -> Result<Report, String> {
    Ok(run_detailed(config).await?.0)
}

/// What a journey run keeps beside its report: every sample, for thresholds and plots.
#[derive(Debug, Default)]
pub struct JourneyDetail {
    /// Per step name, every latency (µs, ascending); and the hand-off's.
    pub steps: Vec<(&'static str, Vec<u64>)>,
    pub handoff: Vec<u64>,
    pub timeline: timeline::Timeline,
}

/// [`run`], and every sample with when it was taken.
pub async fn run_detailed(config: &Config) -> Result<(Report, JourneyDetail), String> {
    let base = config.validate()?;
    let began = Instant::now();
    let deadline = tokio::time::Instant::from_std(began + config.timeout);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let journey = Arc::new(Journey {
        base: base.clone(),
        game_id: config.game_id,
        node_id: config.node_id,
        play: config.play,
        think: config.think,
        until: config.until,
        run_tag: format!("{}-{:x}", std::process::id(), nanos % (1 << 40)),
        recorder: Arc::new(Mutex::new(Recorder::default())),
    });
    let bar = progress::phase("players", config.players as u64);
    let (players, not_started) = start_players(config, &journey, began, deadline, &bar).await;
    let mut ended = Vec::with_capacity(config.players);
    let mut outcomes = Vec::with_capacity(config.players);
    for p in players {
        let (at, outcome) = p.await.unwrap_or_else(|e| {
            let f = client::Failure::Unexpected(format!("player task: {e}"));
            (Instant::now(), Outcome::Failed(Step::NotStarted, f))
        });
        ended.push(at);
        outcomes.push(outcome);
    }
    bar.finish();
    outcomes.extend(std::iter::repeat_n(Outcome::TimedOut(Step::NotStarted), not_started));
    let recorder = journey.recorder.lock();
    let elapsed = began.elapsed();
    let report = Report::build(config, &base, &recorder, &outcomes, elapsed);
    let detail = journey_detail(&recorder, &ended, &outcomes, began, elapsed);
    Ok((report, detail))
}

/// A player's task: when it ended, and how.
type PlayerTask = actix_rt::task::JoinHandle<(Instant, Outcome)>;

/// Starts the players, at most `config.concurrency` in flight and, with an arrival rate, no
/// sooner than their turn; the tasks, and how many never started before the deadline.
async fn start_players(
    config: &Config,
    journey: &Arc<Journey>,
    began: Instant,
    deadline: tokio::time::Instant,
    bar: &progress::Phase,
) -> (Vec<PlayerTask>, usize) {
    // One permit per player in flight: the bound on concurrency.
    let slots = Arc::new(Semaphore::new(config.concurrency));
    let mut players = Vec::with_capacity(config.players);
    for index in 0..config.players {
        // An open arrival rate: player `index` starts no sooner than index / rate after the start.
        if let Some(rate) = config.arrival_rate {
            let due = deadline.min(tokio::time::Instant::from_std(began + Duration::from_secs_f64(index as f64 / rate)));
            tokio::time::sleep_until(due).await;
        }
        let Ok(Ok(permit)) = timeout_at(deadline, slots.clone().acquire_owned()).await else {
            return (players, config.players - index);
        };
        let (journey, phone, bar) = (journey.clone(), config.phone(index), bar.clone());
        players.push(actix_rt::spawn(async move {
            // Holds the slot until this player is done.
            let _permit = permit;
            let at = Cell::new(Step::NotStarted);
            let outcome = match timeout_at(deadline, scenario::play(&journey, index, &phone, &at)).await {
                Ok(Ok(())) => Outcome::Completed,
                Ok(Err((step, failure))) => Outcome::Failed(step, failure),
                Err(_) => Outcome::TimedOut(at.get()),
            };
            bar.done(outcome == Outcome::Completed);
            (Instant::now(), outcome)
        }));
    }
    (players, 0)
}

/// Every sample by step, and the timeline: the calls (not the waits for pushes: a queue of
/// 30 s is not a slow answer; they have their own rows), completed journeys, and failed or
/// timed-out players, by when they ended.
fn journey_detail(recorder: &Recorder, ended: &[Instant], outcomes: &[Outcome], began: Instant, elapsed: Duration) -> JourneyDetail {
    let since = |t: Instant| t.saturating_duration_since(began).as_secs_f64();
    let ends = |completed: bool| -> Vec<f64> {
        ended
            .iter()
            .zip(outcomes)
            .filter(|(_, o)| (**o == Outcome::Completed) == completed)
            .map(|(t, _)| since(*t))
            .collect()
    };
    let timeline = timeline::Timeline {
        latencies: recorder
            .calls()
            .iter()
            .filter(|(_, step, _)| !step.is_wait())
            .map(|&(t, _, us)| (since(t), us as f64 / 1000.0))
            .collect(),
        done: ends(true),
        done_per_s: None,
        errors: ends(false),
        span_s: elapsed.as_secs_f64(),
        unit: "journeys".into(),
        errors_untimed: None,
    };
    JourneyDetail {
        steps: Step::ALL
            .iter()
            .filter_map(|s| Some((s.name(), recorder.steps().get(s)?.sorted_micros())))
            .collect(),
        handoff: recorder.handoff().sorted_micros(),
        timeline,
    }
}

/// [`run`] on a fresh actix-rt `System` on this thread.
pub fn run_blocking(config: &Config) -> Result<Report, String> {
    actix_rt::System::new().block_on(run(config))
}
