//! The load-test harness: virtual players drive a running `yoo-server` through its real REST
//! and WebSocket interfaces (API.md), the way the browser does, and the run reports how long
//! each step took, how long a freed machine took to reach the next queued player, and what
//! failed. It never reaches into the server: the only shared artefact is `facade/proto/yoo.proto`,
//! from which `build.rs` generates its own protocol types.
//!
//! Layout:
//!
//! - `config`: the command line, its defaults, the loopback-only URL check, the phone numbers.
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
pub mod client;
pub mod config;
pub mod logins;
pub mod probe;
pub mod purchases;
pub mod queue_scale;
pub mod report;
pub mod room_scale;
pub mod scenario;
pub mod stats;

pub mod proto {
    //! The WebSocket protocol, generated from `facade/proto/yoo.proto`.
    include!(concat!(env!("OUT_DIR"), "/yoo.v1.rs"));
}

use std::cell::Cell;
use std::sync::Arc;
use std::time::Instant;

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
        run_tag: format!("{}-{:x}", std::process::id(), nanos % (1 << 40)),
        recorder: Arc::new(Mutex::new(Recorder::default())),
    });
    // One permit per player in flight: the bound on concurrency.
    let slots = Arc::new(Semaphore::new(config.concurrency));
    let mut players = Vec::with_capacity(config.players);
    let mut not_started = 0;
    for index in 0..config.players {
        let Ok(Ok(permit)) = timeout_at(deadline, slots.clone().acquire_owned()).await else {
            not_started = config.players - index;
            break;
        };
        let (journey, phone) = (journey.clone(), config.phone(index));
        players.push(actix_rt::spawn(async move {
            // Holds the slot until this player is done.
            let _permit = permit;
            let at = Cell::new(Step::NotStarted);
            match timeout_at(deadline, scenario::play(&journey, index, &phone, &at)).await {
                Ok(Ok(())) => Outcome::Completed,
                Ok(Err((step, failure))) => Outcome::Failed(step, failure),
                Err(_) => Outcome::TimedOut(at.get()),
            }
        }));
    }
    let mut outcomes = Vec::with_capacity(config.players);
    for p in players {
        outcomes.push(
            p.await
                .unwrap_or_else(|e| Outcome::Failed(Step::NotStarted, client::Failure::Unexpected(format!("player task: {e}")))),
        );
    }
    outcomes.extend(std::iter::repeat_n(Outcome::TimedOut(Step::NotStarted), not_started));
    let recorder = journey.recorder.lock();
    Ok(Report::build(config, &base, &recorder, &outcomes, began.elapsed()))
}

/// [`run`] on a fresh actix-rt `System` on this thread.
pub fn run_blocking(config: &Config) -> Result<Report, String> {
    actix_rt::System::new().block_on(run(config))
}
