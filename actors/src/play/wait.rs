//! The expected wait of a place in a node's queue, as a range measured from the node's recent
//! admission rate — never a constant guess.
//!
//! The queue of a node records each admission of a player who waited (a machine came back
//! while someone waited; a player admitted on joining waited for nothing) and how long someone
//! was waiting ("busy" time). Time is cut into buckets of [`BUCKET_MS`]; the last [`BUCKETS`]
//! are kept (ten minutes). Each bucket with at least [`MIN_BUSY_MS`] of busy time is one
//! measurement of the admission rate: its admissions over its busy seconds. For `rank` (the
//! players to be admitted up to and including this one):
//!
//! - the short end of the range is `rank / r50`, with `r50` the median rate of the buckets;
//! - the long end is `rank / r10`, with `r10` the 10th percentile (a slow stretch: nine in ten
//!   recent buckets admitted at least that fast).
//!
//! Without a measurement (nobody waited lately) there is no range (`None`): the browser says
//! the wait is being measured. A percentile rate of zero (busy buckets without admissions)
//! leaves that end open (`max_secs: None`: "more than the short end"), or gives no range when
//! even the median is zero.

use std::collections::VecDeque;

/// Length of one measurement bucket.
pub const BUCKET_MS: i64 = 30_000;
/// Buckets kept: ten minutes.
pub const BUCKETS: i64 = 20;
/// Busy time a bucket needs to count as a measurement.
pub const MIN_BUSY_MS: i64 = 5_000;

/// An expected wait in seconds: `min_secs` to `max_secs` (None: no upper end measured).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitRange {
    pub min_secs: u64,
    pub max_secs: Option<u64>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    /// `start / BUCKET_MS`.
    index: i64,
    admissions: u32,
    busy_ms: i64,
}

/// Admissions and busy time of a node's queue over the last [`BUCKETS`] buckets.
#[derive(Debug, Default)]
pub struct AdmissionRate {
    buckets: VecDeque<Bucket>,
    /// Since when someone has been waiting (busy time up to then is counted).
    busy_since: Option<i64>,
}

impl AdmissionRate {
    /// Whether someone waits now; called after every change of the queue (cheap when nothing
    /// changed).
    pub fn set_busy(&mut self, now: i64, busy: bool) {
        self.account(now);
        match (busy, self.busy_since) {
            (true, None) => self.busy_since = Some(now),
            (false, Some(_)) => self.busy_since = None,
            _ => {}
        }
    }

    /// A player who waited was admitted.
    pub fn admitted(&mut self, now: i64) {
        self.account(now);
        self.bucket(now.div_euclid(BUCKET_MS)).admissions += 1;
    }

    /// The expected wait of the player `rank` (1 = next admitted).
    pub fn range(&mut self, rank: u64, now: i64) -> Option<WaitRange> {
        self.account(now);
        let mut rates: Vec<f64> = self
            .buckets
            .iter()
            .filter(|b| b.busy_ms >= MIN_BUSY_MS)
            .map(|b| f64::from(b.admissions) * 1000.0 / b.busy_ms as f64)
            .collect();
        if rates.is_empty() {
            return None;
        }
        rates.sort_by(f64::total_cmp);
        let percentile = |q: f64| rates[((q * rates.len() as f64).ceil() as usize).clamp(1, rates.len()) - 1];
        let secs = |rate: f64| (rate > 0.0).then(|| (rank.max(1) as f64 / rate).ceil() as u64);
        let min_secs = secs(percentile(0.5))?;
        Some(WaitRange {
            min_secs,
            max_secs: secs(percentile(0.1)).map(|s| s.max(min_secs)),
        })
    }

    /// Counts the busy time up to `now` into its buckets and forgets buckets out of the window.
    fn account(&mut self, now: i64) {
        if let Some(mut t) = self.busy_since {
            while t < now {
                let index = t.div_euclid(BUCKET_MS);
                let end = ((index + 1) * BUCKET_MS).min(now);
                self.bucket(index).busy_ms += end - t;
                t = end;
            }
            self.busy_since = Some(now.max(t));
        }
        let oldest = now.div_euclid(BUCKET_MS) - BUCKETS + 1;
        while self.buckets.front().is_some_and(|b| b.index < oldest) {
            self.buckets.pop_front();
        }
    }

    fn bucket(&mut self, index: i64) -> &mut Bucket {
        if self.buckets.back().is_none_or(|b| b.index < index) {
            self.buckets.push_back(Bucket {
                index,
                admissions: 0,
                busy_ms: 0,
            });
        }
        let at = self
            .buckets
            .iter()
            .rposition(|b| b.index == index)
            .unwrap_or(self.buckets.len() - 1);
        &mut self.buckets[at]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Milliseconds of paused tokio time since `t0` (bucket-aligned, so the phases below fill
    /// whole buckets).
    struct Clock(tokio::time::Instant);

    impl Clock {
        fn new() -> Clock {
            Clock(tokio::time::Instant::now())
        }
        fn now_ms(&self) -> i64 {
            self.0.elapsed().as_millis() as i64
        }
    }

    async fn pass(ms: u64) {
        tokio::time::advance(Duration::from_millis(ms)).await;
    }

    /// The range follows the measured admission rate on paused time: none before a
    /// measurement, the median and slow buckets after, only busy time counts, and old buckets
    /// fall out of the window.
    #[tokio::test(start_paused = true)]
    async fn range_follows_the_measured_rate() {
        let clock = Clock::new();
        let mut r = AdmissionRate::default();
        assert_eq!(r.range(5, clock.now_ms()), None, "no measurement: no range, not a guess");
        // Nobody waits for a minute: still nothing measured.
        pass(60_000).await;
        assert_eq!(r.range(5, clock.now_ms()), None);

        // Someone waits from here on: 2 admissions a second for 4 buckets...
        r.set_busy(clock.now_ms(), true);
        for _ in 0..4 * 30 {
            pass(500).await;
            r.admitted(clock.now_ms());
            pass(500).await;
            r.admitted(clock.now_ms());
        }
        let fast = r.range(10, clock.now_ms()).unwrap();
        assert!((5..=6).contains(&fast.min_secs), "{fast:?}");
        // ... then 1 a second for 4 buckets, then 0.5 a second for 2.
        for _ in 0..4 * 30 {
            pass(1000).await;
            r.admitted(clock.now_ms());
        }
        for _ in 0..30 {
            pass(2000).await;
            r.admitted(clock.now_ms());
        }
        let mixed = r.range(10, clock.now_ms()).unwrap();
        assert!((10..=11).contains(&mixed.min_secs), "median rate 1/s: {mixed:?}");
        assert_eq!(mixed.max_secs, Some(20), "the slow tenth, 0.5/s: {mixed:?}");
        assert_eq!(r.range(1, clock.now_ms()).unwrap().max_secs, Some(2), "rank 1: one admission away");

        // Idle time (nobody waiting) does not dilute the rate.
        r.set_busy(clock.now_ms(), false);
        pass(90_000).await;
        assert_eq!(r.range(10, clock.now_ms()).unwrap().max_secs, Some(20));

        // Busy without admissions: the slow end opens, then no range at all.
        r.set_busy(clock.now_ms(), true);
        pass(3 * 30_000).await;
        let stalled = r.range(10, clock.now_ms()).unwrap();
        assert_eq!(stalled.max_secs, None, "{stalled:?}");
        pass(6 * 30_000).await;
        assert_eq!(r.range(10, clock.now_ms()), None, "the node admits nobody: no estimate");

        // Ten minutes later the old buckets are gone; a fresh measurement alone decides.
        r.set_busy(clock.now_ms(), false);
        pass(11 * 60_000).await;
        assert_eq!(r.range(3, clock.now_ms()), None);
        r.set_busy(clock.now_ms(), true);
        for _ in 0..60 {
            pass(100).await;
            r.admitted(clock.now_ms());
        }
        let quick = r.range(30, clock.now_ms()).unwrap();
        assert_eq!((quick.min_secs, quick.max_secs), (3, Some(3)), "{quick:?}");
    }
}
