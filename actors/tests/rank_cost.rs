//! The cost of keeping ranks fresh, printed (not asserted: timings depend on the machine):
//! the refresh over the connected waiting players (`ranks::Watchers`, a binary search per lane
//! for each) against the walk of the whole queue in admission order it replaced
//! (`LaneQueue::visit_in_order`), for several queue lengths and numbers of connected players.
//! Both compute the same ranks; the test checks that. Run with
//! `cargo test -p actors --test rank_cost -- --nocapture` (add `--release` for optimised code).

use std::time::Instant;

use actors::play::lanes::{LaneQueue, ALL_LANES};
use actors::play::queue::Waiting;
use actors::play::ranks::{slice_of, Seen, Watchers, RANK_SLICES};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A queue of `n` players over every lane (mostly normal), `connected` of them listed.
fn queue(n: usize, connected: usize, rng: &mut StdRng) -> (LaneQueue<Waiting>, Watchers) {
    let mut q = LaneQueue::default();
    for id in 0..n as i64 {
        let lane = if rng.random_range(0..10) < 7 {
            ALL_LANES[0]
        } else {
            ALL_LANES[rng.random_range(0..ALL_LANES.len())]
        };
        q.push(
            id,
            lane,
            Waiting {
                session_id: id,
                uid: id,
                ..Waiting::default()
            },
        );
    }
    let mut w = Watchers::default();
    let step = (n / connected.max(1)).max(1);
    for id in (0..n as i64).step_by(step).take(connected) {
        w.add(id);
        if let Some(e) = q.get_mut(id) {
            e.connected = true;
            e.listed = true;
        }
    }
    (q, w)
}

/// The rank refresh of one period (every slice once), both ways: the ranks each way finds for
/// the connected players agree, and the time per period of each is printed.
#[test]
fn queue_refresh_cost() {
    let mut rng = StdRng::seed_from_u64(3);
    println!(
        "entry sizes: Waiting {} B, lane slot {} B (the index adds a slot of about {} B)",
        std::mem::size_of::<Waiting>(),
        std::mem::size_of::<(actors::play::lanes::Place, i64)>(),
        std::mem::size_of::<(i64, (actors::play::lanes::Lane, u64, Waiting))>()
    );
    println!("rank refresh, one period (5 slices), this build's optimisation level:");
    println!(
        "{:>9} {:>10} {:>16} {:>16} {:>8}",
        "queue", "connected", "walk (old) µs", "watchers µs", "ratio"
    );
    for (n, connected) in [
        (10_000, 1_000),
        (100_000, 1_000),
        (100_000, 10_000),
        (100_000, 19_000),
        (100_000, 100_000),
        (200_000, 1_000),
    ] {
        let (mut q, mut w) = queue(n, connected, &mut rng);
        // Admissions move every rank between two periods, as under load.
        for _ in 0..50 {
            q.pop_front();
        }
        let started = Instant::now();
        let mut walked = Vec::with_capacity(connected);
        for slice in 0..RANK_SLICES {
            q.visit_in_order(
                |id| slice_of(id) as u64 == slice,
                |rank, id, _, e| {
                    if e.connected && e.told != rank {
                        walked.push((id, rank));
                    }
                },
            );
        }
        let old = started.elapsed();
        let started = Instant::now();
        let mut seen = Vec::with_capacity(connected);
        let mut visit = |id| match q.rank_entry_mut(id) {
            Some((rank, _, e)) if e.connected => {
                if e.told != rank {
                    seen.push((id, rank));
                }
                Seen::Unchanged
            }
            _ => Seen::Gone,
        };
        for _ in 0..RANK_SLICES {
            w.tick(&mut visit);
            while w.step(&mut visit) {}
        }
        let new = started.elapsed();
        walked.sort_unstable();
        seen.sort_unstable();
        assert_eq!(walked, seen, "both ways find the same ranks");
        assert!(seen.len() + 50 >= connected.min(n));
        println!(
            "{n:>9} {connected:>10} {:>16.0} {:>16.0} {:>8.1}",
            old.as_secs_f64() * 1e6,
            new.as_secs_f64() * 1e6,
            old.as_secs_f64() / new.as_secs_f64().max(1e-9)
        );
    }
}
