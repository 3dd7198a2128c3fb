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
    pub fn build(
        config: &Config,
        base: &str,
        recorder: &Recorder,
        outcomes: &[Outcome],
        elapsed: Duration,
    ) -> Report {
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
        let steps = Step::ALL
            .iter()
            .filter_map(|s| {
                Some(StepRow {
                    step: s.name(),
                    summary: recorder.steps().get(s)?.summary()?,
                })
            })
            .collect();
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
                .map(|(step, count)| TimeoutRow {
                    step: step.name(),
                    count,
                })
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
        let _ = writeln!(
            out,
            "{:<16} {:>7} {:>10} {:>10} {:>10}",
            "step", "count", "p50 ms", "p99 ms", "max ms"
        );
        let row = |out: &mut String, name: &str, s: &Summary| {
            let _ = writeln!(
                out,
                "{:<16} {:>7} {:>10.2} {:>10.2} {:>10.2}",
                name, s.count, s.p50_ms, s.p99_ms, s.max_ms
            );
        };
        for r in &self.steps {
            row(&mut out, r.step, &r.summary);
        }
        match &self.handoff {
            Some(h) => row(&mut out, "handoff", h),
            None => {
                let _ = writeln!(
                    out,
                    "{:<16} {:>7} {:>10} {:>10} {:>10}",
                    "handoff", 0, "-", "-", "-"
                );
            }
        }
        let _ = writeln!(
            out,
            "ready at start: {} (start answered READY, no wait)",
            self.ready_at_start
        );
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
        let r = Report::build(
            &cfg,
            "http://127.0.0.1:1",
            &rec,
            &outcomes,
            Duration::from_secs(2),
        );
        assert_eq!(
            (r.completed, r.failed, r.timed_out, r.exit_code()),
            (1, 2, 2, 1)
        );
        assert_eq!(
            (
                r.errors.len(),
                r.errors[0].step,
                r.errors[0].error.as_str(),
                r.errors[0].count
            ),
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
