//! From what the socket players saw to the figures: rank staleness, whether ranks ever lied,
//! push gaps, push delivery and hand-off latency. Pure functions over wall-clock microseconds, so
//! that every process's records (and the server's clock, which is the same machine's) can be
//! merged.
//!
//! The truth. Every socket player joined the normal lane before anyone else queued, and nobody
//! leaves the queue except by admission, so admission is FIFO in the rank each got at `start`
//! (`r0`) and the true rank of player `p` (its `r0`) at time `t` is `p - admitted(t)`. Two clocks
//! say when each admission happened:
//!
//! - **receipt**: when its READY push reached the harness (the method of the brief). Under load
//!   a READY push can arrive well after the admission, so this truth lags: staleness comes out
//!   too small and a rank computed after the admission can look "below the truth".
//! - **server clock**: the READY push's `responseTime`, the server's clock (ms) when the session
//!   became READY, stamped inside the admission. Exact to the millisecond.
//!
//! For each clock:
//! - A pushed rank `r` stops being true at the `(p - r + 1)`-th admission; its **staleness at
//!   receipt** is how long before the push arrived that happened (0 if it had not).
//! - A displayed rank stays on screen until the next push (or the player's READY, or the end of
//!   the window); its **displayed staleness** is how stale it had become when it was replaced:
//!   the worst a player saw.
//! - A rank below the truth (`r < p - admitted(t)`) claims an admission that had not happened.
//!   By receipt, when the claimed admission's READY arrives within `slack` after the push it is
//!   the two sockets' delivery order (`below_truth`); later or never, a **lie**. By the server
//!   clock, a lie is a rank whose claimed admission's `responseTime` is after the push's own
//!   `serverTime` (when the rank was computed): no slack, that is exact.
//!
//! Pushed ranks of one player must never increase (**non-monotone** counts those that do).

use std::collections::HashMap;
use std::time::Duration;

use serde::Serialize;

use crate::stats::{Samples, Summary};

/// A READY push a socket player received.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadyRec {
    /// The rank the admitted player had at start.
    pub r0: u64,
    /// Receipt, µs.
    pub at_us: i64,
    /// `responseTime`: the server's clock when READY began (the admission), ms.
    pub ready_ms: i64,
    /// `serverTime`: the server's clock when the push was written, ms.
    pub sent_ms: i64,
}

/// A QUEUE push (a rank) a socket player received.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankRec {
    pub r0: u64,
    pub at_us: i64,
    pub sort: u64,
    /// `serverTime`: when the server computed and wrote the rank, ms.
    pub sent_ms: i64,
}

/// What the socket players recorded, merged across processes.
#[derive(Debug, Default, Clone)]
pub struct Observed {
    /// `r0` of every socket player whose socket was open for the window.
    pub players: Vec<u64>,
    pub ready: Vec<ReadyRec>,
    pub ranks: Vec<RankRec>,
    /// Machines freed: (request sent, answer received), µs; failed calls left out.
    pub frees: Vec<(i64, i64)>,
}

/// The rank figures against one clock of admissions.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Truth {
    pub staleness_at_receipt: Option<Summary>,
    pub displayed_staleness: Option<Summary>,
    /// Pushes whose rank was exact when they arrived.
    pub exact_at_receipt: usize,
    /// Pushes below the truth by delivery order only (receipt clock: the claimed admission's
    /// READY arrived within the slack).
    pub below_truth: usize,
    /// The most places and the longest lead (ms) of those.
    pub below_truth_max_places: u64,
    pub below_truth_max_lead_ms: f64,
    /// Pushes that claimed an admission that had not happened: the server told a player they
    /// were further ahead than they were.
    pub lies: usize,
    /// Admissions whose READY never arrived, placed at the earliest later admission (FIFO).
    pub imputed_admissions: usize,
    /// Consecutive ranks admitted out of order (beyond the slack by receipt; at all by the
    /// server clock, where a FIFO queue has none).
    pub fifo_inversions: usize,
}

/// The rank figures.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RankFigures {
    /// READY pushes received in the window.
    pub admissions: usize,
    /// QUEUE pushes received in the window.
    pub rank_pushes: usize,
    /// Per player, time between successive rank pushes in the window.
    pub push_gaps: Option<Summary>,
    /// Pushes whose rank was above the player's previous one.
    pub non_monotone: usize,
    /// Socket players admitted in the window without a rank push before their READY although
    /// they were not first (information: a refresh may not have come round yet).
    pub players_without_push: usize,
    /// Admissions by READY receipt (the brief's method).
    pub by_receipt: Truth,
    /// Admissions by the server's clock (`responseTime`).
    pub by_server_clock: Truth,
    /// Rank pushes in the window: receipt minus `serverTime` (±1 ms: the server stamps ms).
    pub rank_delivery: Option<Summary>,
    /// READY pushes in the window: receipt minus `serverTime`.
    pub ready_delivery: Option<Summary>,
    /// READY pushes in the window: receipt minus `responseTime` (the admission).
    pub admission_to_ready_receipt: Option<Summary>,
}

/// Admission times in admission order (index `k` = the `(k+1)`-th admitted), from times keyed
/// by `r0`. A missing `r0` below the highest one seen was admitted before every later one: it
/// gets the earliest later time. Returns (times sorted, imputed, inversions beyond `slack_us`).
fn admission_times(times_by_r0: &[(u64, i64)], slack_us: i64) -> (Vec<i64>, usize, usize) {
    let by_rank: HashMap<u64, i64> = times_by_r0.iter().copied().collect();
    let top = by_rank.keys().copied().max().unwrap_or(0);
    let mut times = vec![0i64; top as usize];
    let mut imputed = 0;
    let mut later = i64::MAX;
    for r in (1..=top).rev() {
        let t = match by_rank.get(&r) {
            Some(&t) => t,
            None => {
                imputed += 1;
                later
            }
        };
        times[r as usize - 1] = t;
        later = later.min(t);
    }
    let inversions = times.windows(2).filter(|w| w[1] < w[0] - slack_us).count();
    times.sort_unstable();
    (times, imputed, inversions)
}

fn us(d: i64) -> Duration {
    Duration::from_micros(d.max(0) as u64)
}

/// Each player's timeline: its rank pushes and its READY (`None`), in arrival order.
fn timelines(o: &Observed) -> HashMap<u64, Vec<(i64, Option<RankRec>)>> {
    let mut t: HashMap<u64, Vec<(i64, Option<RankRec>)>> = o.players.iter().map(|&p| (p, Vec::new())).collect();
    for r in &o.ranks {
        t.entry(r.r0).or_default().push((r.at_us, Some(*r)));
    }
    for r in &o.ready {
        t.entry(r.r0).or_default().push((r.at_us, None));
    }
    for events in t.values_mut() {
        events.sort_by_key(|&(at, r)| (at, r.is_none()));
    }
    t
}

/// The figures against admissions at `adm` (sorted, µs). A push claiming the admission at `a` is
/// a lie when `a > reference(push) + slack_us`.
fn truth(
    timelines: &HashMap<u64, Vec<(i64, Option<RankRec>)>>,
    adm: &[i64],
    from: i64,
    to: i64,
    slack_us: i64,
    reference: impl Fn(&RankRec) -> i64,
) -> Truth {
    let admitted = |t: i64| adm.partition_point(|&a| a <= t) as u64;
    let mut f = Truth::default();
    let (mut at_receipt, mut displayed) = (Samples::default(), Samples::default());
    for (&p, events) in timelines {
        // The displayed rank `shown` is replaced at `end`: how stale had it become?
        let replaced = |shown: u64, end: i64, displayed: &mut Samples| {
            let end = end.min(to);
            if end < from {
                return;
            }
            let stale_since = adm.get((p - shown.min(p)) as usize).copied().unwrap_or(i64::MAX);
            displayed.record(us(if stale_since < end { end - stale_since } else { 0 }));
        };
        // Shown since the start answer: the rank at start.
        let mut shown = p;
        let mut admitted_seen = false;
        for &(t, rec) in events {
            let Some(rec) = rec else {
                replaced(shown, t, &mut displayed);
                admitted_seen = true;
                break;
            };
            let r = rec.sort;
            if t >= from && t <= to {
                let truth = p.saturating_sub(admitted(t));
                // The (p - r)-th admission is the one this rank claims (none when r >= p).
                let claimed = if r < p {
                    adm.get((p - r - 1) as usize).copied().unwrap_or(i64::MAX)
                } else {
                    i64::MIN
                };
                if r < p && claimed > reference(&rec).saturating_add(slack_us) {
                    f.lies += 1;
                } else if r < truth {
                    f.below_truth += 1;
                    f.below_truth_max_places = f.below_truth_max_places.max(truth - r);
                    f.below_truth_max_lead_ms = f.below_truth_max_lead_ms.max((claimed - t) as f64 / 1000.0);
                }
                if r < truth {
                    at_receipt.record(Duration::ZERO);
                } else {
                    if r == truth {
                        f.exact_at_receipt += 1;
                    }
                    let stopped = adm.get((p - r.min(p)) as usize).copied().unwrap_or(i64::MAX);
                    at_receipt.record(us(if stopped < t { t - stopped } else { 0 }));
                }
                replaced(shown, t, &mut displayed);
            }
            shown = r;
        }
        if !admitted_seen {
            replaced(shown, to, &mut displayed);
        }
    }
    f.staleness_at_receipt = at_receipt.summary();
    f.displayed_staleness = displayed.summary();
    f
}

/// The rank figures over the window `[from, to]` (µs); `slack` for the receipt clock.
pub fn ranks(o: &Observed, from: i64, to: i64, slack: Duration) -> RankFigures {
    let slack_us = slack.as_micros() as i64;
    let inside = |t: i64| t >= from && t <= to;
    let mut f = RankFigures {
        admissions: o.ready.iter().filter(|r| inside(r.at_us)).count(),
        ..Default::default()
    };
    let lines = timelines(o);

    let received: Vec<(u64, i64)> = o.ready.iter().map(|r| (r.r0, r.at_us)).collect();
    let (adm, imputed, inversions) = admission_times(&received, slack_us);
    f.by_receipt = truth(&lines, &adm, from, to, slack_us, |r| r.at_us);
    (f.by_receipt.imputed_admissions, f.by_receipt.fifo_inversions) = (imputed, inversions);

    let served: Vec<(u64, i64)> = o.ready.iter().map(|r| (r.r0, r.ready_ms * 1000)).collect();
    let (adm, imputed, inversions) = admission_times(&served, 0);
    f.by_server_clock = truth(&lines, &adm, from, to, 0, |r| r.sent_ms * 1000);
    (f.by_server_clock.imputed_admissions, f.by_server_clock.fifo_inversions) = (imputed, inversions);

    // Clock-free figures: gaps, order, delivery.
    let (mut gaps, mut rank_delivery) = (Samples::default(), Samples::default());
    for (&p, events) in &lines {
        let (mut shown, mut last_push, mut pushed) = (p, None, false);
        for &(t, rec) in events {
            let Some(rec) = rec else {
                if inside(t) && !pushed && p > 1 {
                    f.players_without_push += 1;
                }
                break;
            };
            if rec.sort > shown {
                f.non_monotone += 1;
            }
            shown = rec.sort;
            if inside(t) {
                f.rank_pushes += 1;
                pushed = true;
                rank_delivery.record(us(t - rec.sent_ms * 1000));
                if let Some(prev) = last_push {
                    gaps.record(us(t - prev));
                }
                last_push = Some(t);
            }
        }
    }
    let (mut ready_delivery, mut to_receipt) = (Samples::default(), Samples::default());
    for r in o.ready.iter().filter(|r| inside(r.at_us)) {
        ready_delivery.record(us(r.at_us - r.sent_ms * 1000));
        to_receipt.record(us(r.at_us - r.ready_ms * 1000));
    }
    f.push_gaps = gaps.summary();
    f.rank_delivery = rank_delivery.summary();
    f.ready_delivery = ready_delivery.summary();
    f.admission_to_ready_receipt = to_receipt.summary();
    f
}

/// Hand-off figures: how fast a freed machine reaches the next queued player.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HandoffFigures {
    /// Per READY push in the window: since the latest free answer received before it (the rule of
    /// the journey's `handoff`).
    pub since_latest_free_answer: Option<Summary>,
    /// The same against the latest free request sent before it.
    pub since_latest_free_sent: Option<Summary>,
    /// Per free answer in the window: until the next READY push received anywhere.
    pub free_answer_to_next_ready: Option<Summary>,
    /// Per free request sent in the window: until the next READY push received anywhere (the
    /// READY this free causes cannot come earlier than that, so at low rates this is the causal
    /// latency; at high rates another free's READY may come first).
    pub free_sent_to_next_ready: Option<Summary>,
    pub frees: usize,
}

pub fn handoff(o: &Observed, from: i64, to: i64) -> HandoffFigures {
    let mut sent: Vec<i64> = o.frees.iter().map(|f| f.0).collect();
    let mut answered: Vec<i64> = o.frees.iter().map(|f| f.1).collect();
    let mut ready: Vec<i64> = o.ready.iter().map(|r| r.at_us).collect();
    sent.sort_unstable();
    answered.sort_unstable();
    ready.sort_unstable();
    let latest_before = |list: &[i64], t: i64| list[..list.partition_point(|&x| x <= t)].last().copied();
    let (mut a, mut s) = (Samples::default(), Samples::default());
    for &t in ready.iter().filter(|&&t| t >= from && t <= to) {
        if let Some(f) = latest_before(&answered, t) {
            a.record(us(t - f));
        }
        if let Some(f) = latest_before(&sent, t) {
            s.record(us(t - f));
        }
    }
    let next_ready = |list: &[i64], samples: &mut Samples| {
        let mut n = 0;
        for &f in list.iter().filter(|&&f| f >= from && f <= to) {
            n += 1;
            if let Some(&r) = ready.get(ready.partition_point(|&r| r < f)) {
                samples.record(us(r - f));
            }
        }
        n
    };
    let (mut b, mut c) = (Samples::default(), Samples::default());
    let frees = next_ready(&answered, &mut b);
    next_ready(&sent, &mut c);
    HandoffFigures {
        since_latest_free_answer: a.summary(),
        since_latest_free_sent: s.summary(),
        free_answer_to_next_ready: b.summary(),
        free_sent_to_next_ready: c.summary(),
        frees,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: i64 = 1000;

    fn ready(r0: u64, at_ms: i64) -> ReadyRec {
        // Admitted 1 ms before the receipt, written at once.
        ReadyRec {
            r0,
            at_us: at_ms * MS,
            ready_ms: at_ms - 1,
            sent_ms: at_ms - 1,
        }
    }

    /// A rank push received at `at_ms`, computed 1 ms earlier.
    fn rank(r0: u64, at_ms: i64, sort: u64) -> RankRec {
        RankRec {
            r0,
            at_us: at_ms * MS,
            sort,
            sent_ms: at_ms - 1,
        }
    }

    /// Three players at ranks 1..3; READYs received at 100, 200, 300 ms (admitted 1 ms earlier).
    fn three() -> Observed {
        Observed {
            players: vec![1, 2, 3],
            ready: vec![ready(1, 100), ready(2, 200), ready(3, 300)],
            ranks: vec![],
            frees: vec![],
        }
    }

    // A push that is exact when it arrives is 0 stale; one that arrives after the next
    // admission is stale by the time since that admission.
    #[test]
    fn staleness_from_admissions() {
        let mut o = three();
        // Player 3: rank 2 at 110 ms (exact), rank 1 at 250 ms (true since 200). Player 2: rank 1
        // at 180 ms (exact).
        o.ranks = vec![rank(3, 110, 2), rank(3, 250, 1), rank(2, 180, 1)];
        let f = ranks(&o, 0, 400 * MS, Duration::from_millis(5));
        assert_eq!((f.rank_pushes, f.non_monotone, f.admissions), (3, 0, 3));
        let r = &f.by_receipt;
        assert_eq!((r.exact_at_receipt, r.lies, r.below_truth), (3, 0, 0));
        assert_eq!(r.staleness_at_receipt.unwrap().max_ms, 0.0);
        // Displayed: player 3 showed 3 until 110 (stale since 100: 10 ms), 2 until 250 (stale
        // since 200: 50 ms), 1 until its READY at 300 (0). Player 2 showed 2 until 180 (80 ms),
        // 1 until 200 (0). Player 1 showed 1 until 100 (0).
        let d = r.displayed_staleness.unwrap();
        assert_eq!((d.count, d.max_ms), (6, 80.0));
        // By the server clock every admission is 1 ms earlier: 1 ms more stale.
        let s = &f.by_server_clock;
        assert_eq!((s.lies, s.fifo_inversions, s.imputed_admissions), (0, 0, 0));
        assert_eq!(s.displayed_staleness.unwrap().max_ms, 81.0);
        let g = f.push_gaps.unwrap();
        assert_eq!((g.count, g.max_ms), (1, 140.0));
        assert_eq!(f.rank_delivery.unwrap().max_ms, 1.0);
        assert_eq!(f.admission_to_ready_receipt.unwrap().max_ms, 1.0);
    }

    #[test]
    fn a_rank_arriving_late_is_stale_at_receipt() {
        let mut o = three();
        // Rank 2 for player 3 arrives at 260 ms: it stopped being true at 200 ms (199 by the server).
        o.ranks = vec![rank(3, 260, 2)];
        let f = ranks(&o, 0, 400 * MS, Duration::from_millis(5));
        assert_eq!(f.by_receipt.staleness_at_receipt.unwrap().max_ms, 60.0);
        assert_eq!(f.by_server_clock.staleness_at_receipt.unwrap().max_ms, 61.0);
        assert_eq!(f.by_receipt.exact_at_receipt, 0);
    }

    // By receipt, a rank below the truth is delivery order when the claimed admission's READY
    // follows within the slack, a lie otherwise; by the server clock a rank is a lie only when the
    // claimed admission came after the rank was computed. A rank going up is non-monotone.
    #[test]
    fn lies_and_order() {
        let mut o = three();
        // Player 3: rank 2 at 99 ms, computed at 98 — after the admission at 99 by the server?
        // No: admitted at 99, computed at 98: a lie by the server clock; by receipt the READY
        // came 1 ms later (delivery order).
        o.ranks = vec![rank(3, 99, 2)];
        let f = ranks(&o, 0, 400 * MS, Duration::from_millis(5));
        assert_eq!((f.by_receipt.below_truth, f.by_receipt.lies), (1, 0));
        assert_eq!(
            (f.by_receipt.below_truth_max_places, f.by_receipt.below_truth_max_lead_ms),
            (1, 1.0)
        );
        assert_eq!(f.by_server_clock.lies, 1);
        // Computed after the admission (server) but received before its READY (receipt): no lie.
        o.ranks = vec![RankRec {
            r0: 3,
            at_us: 99_500,
            sort: 2,
            sent_ms: 99,
        }];
        let f = ranks(&o, 0, 400 * MS, Duration::from_millis(5));
        assert_eq!((f.by_receipt.below_truth, f.by_receipt.lies, f.by_server_clock.lies), (1, 0, 0));
        // Rank 1 at 150 ms claims the admission of 200: a lie on both clocks; then 2 goes up.
        o.ranks = vec![rank(3, 150, 1), rank(3, 160, 2)];
        let f = ranks(&o, 0, 400 * MS, Duration::from_millis(5));
        assert_eq!((f.by_receipt.lies, f.by_server_clock.lies, f.non_monotone), (1, 1, 1));
    }

    // A READY that never arrived is placed at the earliest later admission.
    #[test]
    fn missing_admissions_are_imputed() {
        let (t, imputed, inv) = admission_times(&[(1, 10), (3, 30), (4, 25)], 0);
        assert_eq!((t, imputed, inv), (vec![10, 25, 25, 30], 1, 1));
    }

    // Only pushes inside the window count; displayed ranks are cut at its end.
    #[test]
    fn window_bounds() {
        let mut o = three();
        o.ranks = vec![rank(3, 110, 2)];
        let f = ranks(&o, 0, 150 * MS, Duration::from_millis(5));
        assert_eq!(f.admissions, 1);
        let d = f.by_receipt.displayed_staleness.unwrap();
        // Player 3: 3 until 110 (10 ms), 2 until the end at 150 (0); player 2: 2 until 150 (50 ms);
        // player 1: 1 until 100 (0).
        assert_eq!((d.count, d.max_ms), (4, 50.0));
    }

    #[test]
    fn handoff_rules() {
        let o = Observed {
            players: vec![],
            ready: vec![ready(1, 12), ready(2, 30)],
            ranks: vec![],
            frees: vec![(9 * MS, 10 * MS), (20 * MS, 29 * MS)],
        };
        let h = handoff(&o, 0, 100 * MS);
        assert_eq!(h.frees, 2);
        let a = h.since_latest_free_answer.unwrap();
        assert_eq!((a.count, a.p50_ms, a.max_ms), (2, 1.0, 2.0));
        let s = h.since_latest_free_sent.unwrap();
        assert_eq!((s.p50_ms, s.max_ms), (3.0, 10.0));
        let b = h.free_answer_to_next_ready.unwrap();
        assert_eq!((b.count, b.p50_ms, b.max_ms), (2, 1.0, 2.0));
        // Sent at 9 ms: next READY at 12; sent at 20: next READY at 30.
        let c = h.free_sent_to_next_ready.unwrap();
        assert_eq!((c.count, c.p50_ms, c.max_ms), (2, 3.0, 10.0));
    }
}
