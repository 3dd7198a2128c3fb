//! What happened when, for the HTML report's plots: each successful call's latency, each
//! completed unit of work (a journey, an order), each error, all as seconds since the run's
//! start; and the server's CPU and memory, sampled from `/proc/<pid>/stat` and `statm` on a
//! thread of its own while the run goes on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::Serialize;

/// The run's events over time. Times are seconds since `began`.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    /// (when it was answered, latency ms) of each successful call.
    pub latencies: Vec<(f64, f64)>,
    /// When each unit of work completed.
    pub done: Vec<f64>,
    /// Completions already counted per second (second's start, count), where there are too
    /// many to list one by one; when given, it is plotted instead of `done`.
    pub done_per_s: Option<Vec<(f64, f64)>>,
    /// When each error happened.
    pub errors: Vec<f64>,
    /// The run's length, s.
    pub span_s: f64,
    /// What `done` counts, e.g. "journeys".
    pub unit: String,
    /// Why `errors` is empty whatever happened (the workload counts its errors without their
    /// times); none: the errors are timed.
    pub errors_untimed: Option<String>,
}

/// One reading of the server process.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ServerSample {
    /// Seconds since the run's start.
    pub t: f64,
    /// CPU since the previous reading, % of one core.
    pub cpu_pct: f64,
    /// Resident memory, MiB.
    pub rss_mib: f64,
}

/// The server's readings over the run, or why there are none.
pub type ServerSeries = Result<Vec<ServerSample>, String>;

/// utime + stime (clock ticks) from the text of `/proc/<pid>/stat`.
pub fn stat_ticks(stat: &str) -> Option<u64> {
    crate::probe::stat_ticks(stat)
}

/// Resident pages (the second field) from the text of `/proc/<pid>/statm`.
pub fn statm_resident_pages(statm: &str) -> Option<u64> {
    statm.split_whitespace().nth(1)?.parse().ok()
}

/// The page size of this machine's kernel (x86-64 and most arm64 kernels: 4 KiB).
const PAGE_BYTES: f64 = 4096.0;
/// At most this many readings: a bounded thread whatever the run's length.
const MAX_SAMPLES: usize = 100_000;

/// Samples a process every `every` until stopped (or until the process is gone).
pub struct ServerSampler {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Vec<ServerSample>>,
}

impl ServerSampler {
    pub fn start(pid: u32, began: Instant, every: Duration) -> ServerSampler {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let read = || {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
                // no resident page: a process that has exited and not yet been reaped
                let pages = statm_resident_pages(&statm).filter(|&p| p > 0)?;
                Some((Instant::now(), stat_ticks(&stat)?, pages))
            };
            let mut out = Vec::new();
            let Some(mut last) = read() else { return out };
            while !flag.load(Ordering::Relaxed) && out.len() < MAX_SAMPLES {
                std::thread::sleep(every);
                let Some(now) = read() else { break };
                let secs = now.0.duration_since(last.0).as_secs_f64().max(1e-9);
                out.push(ServerSample {
                    t: now.0.duration_since(began).as_secs_f64(),
                    cpu_pct: now.1.saturating_sub(last.1) as f64 / crate::probe::TICKS_PER_SEC / secs * 100.0,
                    rss_mib: now.2 as f64 * PAGE_BYTES / (1024.0 * 1024.0),
                });
                last = now;
            }
            out
        });
        ServerSampler { stop, thread }
    }

    /// Stops the thread; its readings.
    pub fn finish(self) -> Vec<ServerSample> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap_or_default()
    }
}

impl Timeline {
    /// Completions per second: `done_per_s`, or `done` counted.
    pub fn throughput(&self) -> Vec<(f64, f64)> {
        self.done_per_s.clone().unwrap_or_else(|| per_second(&self.done, self.span_s))
    }
}

/// Counts of `times` per whole second from 0 to `span_s`: (second's start, count).
pub fn per_second(times: &[f64], span_s: f64) -> Vec<(f64, f64)> {
    let seconds = span_s.max(0.0).ceil() as usize + 1;
    let mut counts = vec![0u64; seconds.min(1_000_000)];
    for &t in times {
        if let Some(c) = counts.get_mut(t.max(0.0) as usize) {
            *c += 1;
        }
    }
    counts.into_iter().enumerate().map(|(s, n)| (s as f64, n as f64)).collect()
}

/// Latency percentiles per time bucket: (bucket's middle, [p50, p90, p99]) in ms, for buckets of
/// `bucket_s` that hold samples.
pub fn percentiles_over_time(latencies: &[(f64, f64)], bucket_s: f64) -> Vec<(f64, [f64; 3])> {
    let bucket_s = bucket_s.max(1e-3);
    let mut buckets: std::collections::BTreeMap<u64, Vec<f64>> = Default::default();
    for &(t, ms) in latencies {
        buckets.entry((t.max(0.0) / bucket_s) as u64).or_default().push(ms);
    }
    buckets
        .into_iter()
        .map(|(b, mut v)| {
            v.sort_by(f64::total_cmp);
            let p = |q: f64| v[((q * v.len() as f64 / 100.0).ceil() as usize).clamp(1, v.len()) - 1];
            ((b as f64 + 0.5) * bucket_s, [p(50.0), p(90.0), p(99.0)])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_fields() {
        assert_eq!(statm_resident_pages("2000 512 100 1 0 300 0\n"), Some(512));
        assert_eq!(statm_resident_pages(""), None);
    }

    #[test]
    fn buckets() {
        assert_eq!(
            per_second(&[0.1, 0.9, 2.5], 2.6),
            vec![(0.0, 2.0), (1.0, 0.0), (2.0, 1.0), (3.0, 0.0)]
        );
        let lat: Vec<(f64, f64)> = (1..=100).map(|i| (0.5, i as f64)).chain([(1.5, 7.0)]).collect();
        assert_eq!(
            percentiles_over_time(&lat, 1.0),
            vec![(0.5, [50.0, 90.0, 99.0]), (1.5, [7.0, 7.0, 7.0])]
        );
    }

    // The sampler reads this very process, then stops when told.
    #[test]
    fn samples_a_live_process() {
        let began = Instant::now();
        let s = ServerSampler::start(std::process::id(), began, Duration::from_millis(10));
        std::thread::sleep(Duration::from_millis(60));
        let v = s.finish();
        assert!(!v.is_empty() && v.iter().all(|x| x.rss_mib > 0.0 && x.cpu_pct >= 0.0), "{v:?}");
        let gone = ServerSampler::start(u32::MAX, began, Duration::from_millis(10)).finish();
        assert!(gone.is_empty());
    }
}
