//! The `command` workload: a benchmark that is not the harness's own traffic (the stream
//! benchmark in Chromium, the first-load script sizes, contract fuzzing) run as a program. The
//! program writes its figures to the file named by `$LOADTEST_FIGURES` in the shape of
//! [`FiguresFile`]; the harness then reads them like any workload's metrics: the text table, the
//! JSON report, the thresholds' verdicts and the HTML report (the figures' timeline and the
//! process named by `pid_file` or `server_pid`, sampled while the program runs).
//!
//! ```toml
//! workload = "command"
//! thresholds = ["decoded fps >= 29", "capture → decoded p50 <= 35ms"]
//! [command]
//! run = ["bash", "loadtest/bench/stream.sh", "/tmp/yoo-stream-bench"]   # from the current directory
//! env = { MAX_STREAMS = "4" }        # besides the harness's own environment
//! pid_file = "/tmp/yoo-stream-bench/host.pid"   # the process whose CPU and memory are plotted
//! timeout_secs = 1200                # then the program's process group is stopped
//! ```

use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::stats::{percentile, Summary};
use crate::thresholds::{Metric, Metrics, Unit};
use crate::timeline::{ServerSample, ServerSampler, Timeline};

/// The environment variable that names the figures file to the program.
pub const FIGURES_ENV: &str = "LOADTEST_FIGURES";
/// The environment variable that gives the program the run's start (unix ms): its timeline's
/// times count from there, as the sampled process's do.
pub const STARTED_ENV: &str = "LOADTEST_STARTED_MS";

/// A `[command]` table.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandArgs {
    /// The program and its arguments, run from the current directory.
    pub run: Vec<String>,
    /// Variables set for the program besides the harness's own environment.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// A file the program writes its measured process's pid to (read once it appears).
    pub pid_file: Option<PathBuf>,
    /// The most the program may run; then its process group is stopped (default 1,800 s).
    pub timeout_secs: Option<u64>,
}

/// A `[command]` table checked.
#[derive(Debug, Clone)]
pub struct CommandConfig {
    pub run: Vec<String>,
    pub env: BTreeMap<String, String>,
    pub pid_file: Option<PathBuf>,
    pub server_pid: Option<u32>,
    pub timeout: Duration,
}

/// The longest a command may be given.
const MAX_TIMEOUT_SECS: u64 = 4 * 3600;

impl CommandArgs {
    pub fn into_config(self, server_pid: Option<u32>) -> Result<CommandConfig, String> {
        if self.run.first().is_none_or(|p| p.trim().is_empty()) {
            return Err("[command] run: the program and its arguments, e.g. run = [\"bash\", \"script.sh\"]".into());
        }
        let secs = self.timeout_secs.unwrap_or(1800);
        if secs == 0 || secs > MAX_TIMEOUT_SECS {
            return Err(format!("[command] timeout_secs: 1 to {MAX_TIMEOUT_SECS}"));
        }
        if let Some(k) = self
            .env
            .keys()
            .find(|k| k.is_empty() || k.contains('=') || *k == FIGURES_ENV || *k == STARTED_ENV)
        {
            return Err(format!("[command] env: {k:?} cannot be set"));
        }
        Ok(CommandConfig {
            run: self.run,
            env: self.env,
            pid_file: self.pid_file,
            server_pid,
            timeout: Duration::from_secs(secs),
        })
    }
}

/// What the program writes to `$LOADTEST_FIGURES` (JSON).
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FiguresFile {
    /// Single figures: `{"name": "decoded fps", "value": 29.9}`, with a unit where it has one.
    #[serde(default)]
    pub figures: Vec<Figure>,
    /// Latency samples in ms, by name: thresholds read any percentile of them.
    #[serde(default)]
    pub samples: BTreeMap<String, Vec<f64>>,
    /// What happened when, for the plots.
    #[serde(default)]
    pub timeline: Option<TimelineFile>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    pub name: String,
    pub value: f64,
    /// `ms`, `s`, `%` (the value in percent), `/s`, or none (a plain number).
    #[serde(default)]
    pub unit: Option<String>,
}

/// A [`Timeline`] as the program writes it (seconds since `$LOADTEST_STARTED_MS`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimelineFile {
    /// What `done` counts, e.g. "pictures".
    pub unit: String,
    pub span_s: f64,
    /// (when, latency ms) of each timed event.
    #[serde(default)]
    pub latencies: Vec<(f64, f64)>,
    #[serde(default)]
    pub done: Vec<f64>,
    #[serde(default)]
    pub errors: Vec<f64>,
    /// Why there are no error times, where the program counts errors without them.
    #[serde(default)]
    pub errors_untimed: Option<String>,
}

impl Figure {
    /// The figure as a metric: its value in the unit's base (ms, a fraction, per second).
    fn metric(&self) -> Result<Metric, String> {
        let (scale, unit) = match self.unit.as_deref().unwrap_or("") {
            "" => (1.0, Unit::Plain),
            "ms" => (1.0, Unit::Millis),
            "s" => (1000.0, Unit::Millis),
            "%" => (0.01, Unit::Ratio),
            "/s" => (1.0, Unit::PerSec),
            other => return Err(format!("figure {:?}: unit {other:?} is not ms, s, %, /s or none", self.name)),
        };
        if !self.value.is_finite() {
            return Err(format!("figure {:?}: not a finite number", self.name));
        }
        Ok(Metric::Figure(self.value * scale, unit))
    }
}

impl FiguresFile {
    /// Every figure and sample list by name (a name given twice is refused).
    pub fn metrics(&self) -> Result<Metrics, String> {
        let mut m = Metrics::new();
        for f in &self.figures {
            if m.insert(f.name.clone(), f.metric()?).is_some() {
                return Err(format!("figure {:?} given twice", f.name));
            }
        }
        for (name, ms) in &self.samples {
            if ms.iter().any(|v| !v.is_finite() || *v < 0.0) {
                return Err(format!("samples {name:?}: every sample a duration in ms, 0 or more"));
            }
            let mut us: Vec<u64> = ms.iter().map(|v| (v * 1000.0).round() as u64).collect();
            us.sort_unstable();
            if m.insert(name.clone(), Metric::Samples(us)).is_some() {
                return Err(format!("{name:?} is both a figure and samples"));
            }
        }
        Ok(m)
    }

    /// Count, p50, p99 and max of each sample list.
    pub fn summaries(&self) -> Vec<(String, Summary)> {
        self.samples
            .iter()
            .filter_map(|(name, ms)| {
                let mut us: Vec<u64> = ms.iter().map(|v| (v * 1000.0).round() as u64).collect();
                us.sort_unstable();
                let ms = |p: f64| percentile(&us, p).map(|v| v as f64 / 1000.0);
                Some((
                    name.clone(),
                    Summary {
                        count: us.len(),
                        p50_ms: ms(50.0)?,
                        p99_ms: ms(99.0)?,
                        max_ms: ms(100.0)?,
                    },
                ))
            })
            .collect()
    }

    pub fn timeline(&self) -> Option<Timeline> {
        self.timeline.as_ref().map(|t| Timeline {
            latencies: t.latencies.clone(),
            done: t.done.clone(),
            done_per_s: None,
            errors: t.errors.clone(),
            span_s: t.span_s,
            unit: t.unit.clone(),
            errors_untimed: t.errors_untimed.clone(),
        })
    }
}

/// The JSON report of a command run.
#[derive(Debug, Serialize)]
pub struct CommandReport {
    pub run: Vec<String>,
    /// The program's exit status; none when it was stopped (timeout) or killed by a signal.
    pub exit_status: Option<i32>,
    pub timed_out: bool,
    pub elapsed_s: f64,
    pub figures: FiguresFile,
}

impl CommandReport {
    /// The text table: the outcome, each figure, each sample list's summary.
    pub fn table(&self) -> String {
        let mut out = format!("command: {}\n", self.run.join(" "));
        let status = match (self.timed_out, self.exit_status) {
            (true, _) => "stopped at its timeout".to_string(),
            (false, Some(c)) => format!("exit status {c}"),
            (false, None) => "ended by a signal".to_string(),
        };
        out.push_str(&format!("  {status}, {:.1} s\n", self.elapsed_s));
        if !self.figures.figures.is_empty() {
            out.push_str("figures:\n");
            for f in &self.figures.figures {
                let unit = f.unit.as_deref().unwrap_or("");
                out.push_str(&format!("  {:<48} {}{unit}\n", f.name, f.value));
            }
        }
        let sums = self.figures.summaries();
        if !sums.is_empty() {
            out.push_str(&format!(
                "{:<50} {:>7} {:>10} {:>10} {:>10}\n",
                "samples (ms)", "count", "p50", "p99", "max"
            ));
            for (name, s) in sums {
                out.push_str(&format!(
                    "  {name:<48} {:>7} {:>10.1} {:>10.1} {:>10.1}\n",
                    s.count, s.p50_ms, s.p99_ms, s.max_ms
                ));
            }
        }
        out
    }

    /// 0 when the program succeeded, 1 when it failed or was stopped.
    pub fn exit_code(&self) -> i32 {
        i32::from(self.timed_out || self.exit_status != Some(0))
    }
}

/// A finished command run: its report and the process readings.
pub struct CommandRun {
    pub report: CommandReport,
    pub samples: Option<Vec<ServerSample>>,
}

/// Runs the program to its end (or its timeout), sampling the measured process meanwhile.
pub fn run_blocking(c: &CommandConfig, began: Instant) -> Result<CommandRun, String> {
    let dir = std::env::temp_dir().join(format!("loadtest-figures-{}-{}", std::process::id(), nanos()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let figures_path = dir.join("figures.json");
    let result = run_in(c, began, &figures_path);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// `began` as unix milliseconds.
fn started_ms(began: Instant) -> u128 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    now.saturating_sub(began.elapsed().as_millis())
}

fn nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

fn run_in(c: &CommandConfig, began: Instant, figures_path: &Path) -> Result<CommandRun, String> {
    crate::progress::println(&format!("loadtest: running {}", c.run.join(" ")));
    let mut child = std::process::Command::new(&c.run[0])
        .args(&c.run[1..])
        .envs(&c.env)
        .env(FIGURES_ENV, figures_path)
        .env(STARTED_ENV, started_ms(began).to_string())
        // its own process group: a timeout stops the program and everything it started
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run {:?}: {e}", c.run[0]))?;
    let spinner = crate::progress::spinner("command");
    let mut sampler = c.server_pid.map(|pid| ServerSampler::start(pid, began, SAMPLE_EVERY));
    let deadline = Instant::now() + c.timeout;
    let started = std::time::SystemTime::now();
    let (status, timed_out) = loop {
        match child.try_wait() {
            Ok(Some(status)) => break (Some(status), false),
            Ok(None) => {}
            Err(e) => return Err(format!("waiting for {:?}: {e}", c.run[0])),
        }
        if Instant::now() >= deadline {
            stop_group(&mut child);
            break (None, true);
        }
        if sampler.is_none() {
            if let Some(pid) = c.pid_file.as_deref().and_then(|p| read_pid(p, started)) {
                sampler = Some(ServerSampler::start(pid, began, SAMPLE_EVERY));
            }
        }
        std::thread::sleep(POLL_EVERY);
    };
    spinner.finish();
    let samples = sampler.map(ServerSampler::finish);
    let elapsed_s = began.elapsed().as_secs_f64();
    let figures = match std::fs::read_to_string(figures_path) {
        Ok(text) => serde_json::from_str::<FiguresFile>(&text).map_err(|e| format!("the figures {:?} wrote: {e}", c.run[0]))?,
        // a program that failed before measuring anything is reported as failed, without figures
        Err(_) if timed_out || status.is_some_and(|s| !s.success()) => FiguresFile::default(),
        Err(e) => return Err(format!("{:?} ended without writing its figures to ${FIGURES_ENV}: {e}", c.run[0])),
    };
    figures.metrics()?;
    Ok(CommandRun {
        report: CommandReport {
            run: c.run.clone(),
            exit_status: status.and_then(|s: ExitStatus| s.code()),
            timed_out,
            elapsed_s,
            figures,
        },
        samples,
    })
}

const SAMPLE_EVERY: Duration = Duration::from_millis(500);
const POLL_EVERY: Duration = Duration::from_millis(100);

/// A pid written to `path` (digits, maybe a newline) since `since`: a file a previous run left
/// is not read.
fn read_pid(path: &Path, since: std::time::SystemTime) -> Option<u32> {
    let written = std::fs::metadata(path).ok()?.modified().ok()?;
    // file times may be coarser than the clock: a second's slack
    if written + Duration::from_secs(1) < since {
        return None;
    }
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Stops the program's process group: TERM, then KILL after 5 s.
fn stop_group(child: &mut Child) {
    let group = format!("-{}", child.id());
    let _ = std::process::Command::new("kill").args(["-TERM", "--", &group]).status();
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(POLL_EVERY);
    }
    let _ = std::process::Command::new("kill").args(["-KILL", "--", &group]).status();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(script: &str) -> CommandConfig {
        CommandArgs {
            run: vec!["sh".into(), "-c".into(), script.into()],
            timeout_secs: Some(20),
            ..Default::default()
        }
        .into_config(None)
        .unwrap()
    }

    // A program's figures, samples and timeline come back as metrics, summaries and plots.
    #[test]
    fn reads_what_the_program_wrote() {
        let c = config(
            r#"cat > "$LOADTEST_FIGURES" <<'EOF'
{"figures": [{"name": "decoded fps", "value": 29.5}, {"name": "wall", "value": 2, "unit": "s"},
             {"name": "loss", "value": 0.5, "unit": "%"}],
 "samples": {"capture → decoded": [10, 20, 30, 40]},
 "timeline": {"unit": "pictures", "span_s": 2, "latencies": [[0.5, 10], [1.5, 20]], "done": [0.5, 1.5]}}
EOF"#,
        );
        let run = run_blocking(&c, Instant::now()).unwrap();
        assert_eq!((run.report.exit_status, run.report.exit_code()), (Some(0), 0));
        let m = run.report.figures.metrics().unwrap();
        let t = |s: &str| s.parse::<crate::thresholds::Threshold>().unwrap().judge(&m);
        assert!(t("decoded fps >= 29").pass);
        assert!(t("wall == 2000ms").pass);
        assert!(t("loss < 1%").pass && !t("loss < 0.4%").pass);
        assert_eq!(t("capture → decoded p50 <= 20ms").value, Some(20.0));
        assert_eq!(t("capture → decoded max < 1s").value, Some(40.0));
        let timeline = run.report.figures.timeline().unwrap();
        assert_eq!((timeline.latencies.len(), timeline.unit.as_str()), (2, "pictures"));
        let table = run.report.table();
        assert!(
            table.contains("exit status 0") && table.contains("decoded fps") && table.contains("capture → decoded"),
            "{table}"
        );
    }

    // A failing program is a failed run; one that says nothing while succeeding is an error;
    // malformed figures are refused with the reason.
    #[test]
    fn failures_and_malformed_figures() {
        let run = run_blocking(&config("exit 3"), Instant::now()).unwrap();
        assert_eq!((run.report.exit_status, run.report.exit_code()), (Some(3), 1));
        let e = run_blocking(&config("true"), Instant::now()).err().unwrap();
        assert!(e.contains("without writing its figures"), "{e}");
        for (body, why) in [
            ("{\"figures\": [{\"name\": \"a\", \"value\": 1, \"unit\": \"kg\"}]}", "unit"),
            (
                "{\"figures\": [{\"name\": \"a\", \"value\": 1}, {\"name\": \"a\", \"value\": 2}]}",
                "twice",
            ),
            ("{\"samples\": {\"a\": [-1]}}", "0 or more"),
            ("{\"figure\": []}", "unknown field"),
        ] {
            let e = run_blocking(&config(&format!("echo '{body}' > \"$LOADTEST_FIGURES\"")), Instant::now())
                .err()
                .unwrap();
            assert!(e.contains(why), "{body}: {e}");
        }
    }

    // A program past its timeout is stopped with everything it started; the run says so.
    #[test]
    fn a_timeout_stops_the_process_group() {
        let mut c = config("sleep 30 & sleep 30; wait");
        c.timeout = Duration::from_millis(300);
        let began = Instant::now();
        let run = run_blocking(&c, began).unwrap();
        assert!(run.report.timed_out && run.report.exit_code() == 1);
        assert!(began.elapsed() < Duration::from_secs(10), "{:?}", began.elapsed());
        assert!(run.report.table().contains("stopped at its timeout"));
    }

    // The process named in the pid file is sampled once the file appears.
    #[test]
    fn samples_the_process_of_the_pid_file() {
        let dir = std::env::temp_dir().join(format!("loadtest-pidfile-{}", nanos()));
        std::fs::create_dir_all(&dir).unwrap();
        let pid_file = dir.join("pid");
        let mut c = config(&format!(
            "sleep 0.3; echo $$ > {p}; sleep 1.5; echo '{{}}' > \"$LOADTEST_FIGURES\"",
            p = pid_file.display()
        ));
        c.pid_file = Some(pid_file);
        let run = run_blocking(&c, Instant::now()).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let samples = run.samples.expect("the pid file's process was sampled");
        assert!(samples.iter().all(|s| s.rss_mib > 0.0), "{samples:?}");
    }

    // The program hears the run's start, the clock of its timeline.
    #[test]
    fn the_program_hears_the_runs_start() {
        let c = config(r#"echo "{\"figures\": [{\"name\": \"started\", \"value\": $LOADTEST_STARTED_MS}]}" > "$LOADTEST_FIGURES""#);
        let began = Instant::now();
        let run = run_blocking(&c, began).unwrap();
        let Some(Metric::Figure(started, _)) = run.report.figures.metrics().unwrap().remove("started") else {
            panic!("{:?}", run.report.figures)
        };
        assert!((started - started_ms(began) as f64).abs() <= 5.0, "{started}");
    }

    #[test]
    fn refusals() {
        let bad = |a: CommandArgs| a.into_config(None).unwrap_err();
        assert!(bad(CommandArgs::default()).contains("run"));
        let run = vec!["true".to_string()];
        assert!(bad(CommandArgs {
            run: run.clone(),
            timeout_secs: Some(0),
            ..Default::default()
        })
        .contains("timeout_secs"));
        assert!(bad(CommandArgs {
            run,
            env: BTreeMap::from([(FIGURES_ENV.to_string(), "x".to_string())]),
            ..Default::default()
        })
        .contains("env"));
    }
}
