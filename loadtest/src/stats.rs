//! Latency recording and percentiles, and the run's shared recorder: one sample list per step,
//! the handoff clock, and the error tally.
//!
//! Percentiles use the nearest-rank method on the exact samples (no histogram buckets): the
//! p-th percentile of n sorted samples is the sample at rank ceil(p/100 * n). A run holds at
//! most a few hundred thousand samples, so keeping them all is cheap and exact.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::scenario::Step;

/// Durations of one kind, kept exactly (microseconds).
#[derive(Debug, Default, Clone)]
pub struct Samples {
    micros: Vec<u64>,
}

/// What the report shows of one sample list.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
    pub count: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Samples {
    pub fn record(&mut self, d: Duration) {
        self.micros.push(d.as_micros().min(u64::MAX as u128) as u64);
    }

    pub fn len(&self) -> usize {
        self.micros.len()
    }

    pub fn is_empty(&self) -> bool {
        self.micros.is_empty()
    }

    /// Every sample, µs, ascending (for any percentile a threshold asks).
    pub fn sorted_micros(&self) -> Vec<u64> {
        let mut sorted = self.micros.clone();
        sorted.sort_unstable();
        sorted
    }

    /// Count, p50, p99 and max in milliseconds; `None` without samples.
    pub fn summary(&self) -> Option<Summary> {
        let mut sorted = self.micros.clone();
        sorted.sort_unstable();
        let ms = |us: u64| us as f64 / 1000.0;
        Some(Summary {
            count: sorted.len(),
            p50_ms: ms(percentile(&sorted, 50.0)?),
            p99_ms: ms(percentile(&sorted, 99.0)?),
            max_ms: ms(*sorted.last()?),
        })
    }
}

/// The nearest-rank percentile `p` (0 < p <= 100) of ascending `sorted`; `None` when empty.
pub fn percentile(sorted: &[u64], p: f64) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    // p * n first: exact for whole p, so a whole rank is not pushed up by rounding.
    let rank = (p * sorted.len() as f64 / 100.0).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Everything the players of one run record, behind one lock (the harness is one process, so
/// every timestamp is taken on the same monotonic clock, `Instant`).
#[derive(Debug, Default)]
pub struct Recorder {
    /// Successful calls and waits, per step.
    steps: BTreeMap<Step, Samples>,
    /// READY push arrival minus the latest `over` answer received before it.
    handoff: Samples,
    /// When the latest `over` of any player was sent.
    last_over: Option<Instant>,
    /// Players whose start answer was already READY (a machine was free).
    ready_at_start: usize,
    /// When each successful call or wait was recorded, its step and its latency (µs): the timeline.
    calls: Vec<(Instant, Step, u64)>,
}

impl Recorder {
    pub fn record(&mut self, step: Step, d: Duration) {
        self.steps.entry(step).or_default().record(d);
        self.calls.push((Instant::now(), step, d.as_micros().min(u64::MAX as u128) as u64));
    }

    /// When each successful call or wait was recorded, its step and its latency (µs).
    pub fn calls(&self) -> &[(Instant, Step, u64)] {
        &self.calls
    }

    /// An `over` was sent at `at`.
    pub fn over_sent(&mut self, at: Instant) {
        if self.last_over.is_none_or(|t| t < at) {
            self.last_over = Some(at);
        }
    }

    /// A READY push arrived at `at`: one handoff sample, if some `over` was sent before it.
    pub fn ready_pushed(&mut self, at: Instant) {
        if let Some(over) = self.last_over.filter(|&t| t <= at) {
            self.handoff.record(at - over);
        }
    }

    pub fn ready_at_start(&mut self) {
        self.ready_at_start += 1;
    }

    pub fn steps(&self) -> &BTreeMap<Step, Samples> {
        &self.steps
    }

    pub fn handoff(&self) -> &Samples {
        &self.handoff
    }

    pub fn ready_at_start_count(&self) -> usize {
        self.ready_at_start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nearest-rank percentiles of known data, in whole milliseconds.
    fn check(data_ms: &[u64], expected: Option<(usize, f64, f64, f64)>) {
        let mut s = Samples::default();
        for &ms in data_ms {
            s.record(Duration::from_millis(ms));
        }
        let got = s.summary().map(|x| (x.count, x.p50_ms, x.p99_ms, x.max_ms));
        assert_eq!(got, expected, "data {data_ms:?}");
    }

    // Empty, single, small odd/even, unsorted input, 1..=100 and 1..=1000 (where p99 is not max).
    #[test]
    fn percentiles_on_known_data() {
        check(&[], None);
        check(&[7], Some((1, 7.0, 7.0, 7.0)));
        check(&[1, 2, 3], Some((3, 2.0, 3.0, 3.0)));
        check(&[4, 1, 3, 2], Some((4, 2.0, 4.0, 4.0)));
        check(&[10, 10, 10, 500], Some((4, 10.0, 500.0, 500.0)));
        let hundred: Vec<u64> = (1..=100).rev().collect();
        check(&hundred, Some((100, 50.0, 99.0, 100.0)));
        let thousand: Vec<u64> = (1..=1000).collect();
        check(&thousand, Some((1000, 500.0, 990.0, 1000.0)));
    }

    // Sub-millisecond samples keep their microseconds.
    #[test]
    fn microsecond_resolution() {
        let mut s = Samples::default();
        s.record(Duration::from_micros(1500));
        s.record(Duration::from_micros(250));
        let x = s.summary().unwrap();
        assert_eq!((x.p50_ms, x.max_ms), (0.25, 1.5));
    }

    // A READY push is measured against the latest over sent before it; none before, none counted.
    #[test]
    fn handoff_uses_the_latest_over_sent_before_the_push() {
        let t0 = Instant::now();
        let ms = |n| t0 + Duration::from_millis(n);
        let mut r = Recorder::default();
        r.ready_pushed(ms(5));
        assert!(r.handoff().is_empty(), "no over yet: nothing to measure");
        r.over_sent(ms(10));
        r.over_sent(ms(30));
        r.ready_pushed(ms(34));
        r.over_sent(ms(20)); // arrives late on the shared clock: does not move the mark back
        r.ready_pushed(ms(40));
        let x = r.handoff().summary().unwrap();
        assert_eq!((x.count, x.p50_ms, x.max_ms), (2, 4.0, 10.0));
    }
}
