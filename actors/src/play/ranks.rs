//! Keeping the ranks that connected waiting players see fresh, at a cost that grows with the
//! connected players and not with the length of the queue.
//!
//! A node's queue (`queue.rs`) keeps, beside its [`LaneQueue`](crate::play::lanes::LaneQueue), a list
//! per slice (session id modulo [`RANK_SLICES`]) of the waiting players who have a socket:
//! [`Watchers`]. A player joins the list when they join the queue with a socket or a socket of
//! theirs opens while they wait (the connection tells the node's queue), and leaves it lazily:
//! when the refresh meets an entry that left the queue or whose sockets went, it drops it
//! (`swap_remove`, O(1)). So the list holds the connected waiting players and few others.
//!
//! Each tick works through one slice: for each listed player, the exact rank is one hash
//! lookup and a binary search in each of the seven lanes (`LaneQueue::rank_entry_mut`,
//! O(log n)), and a push leaves only when the rank moved. A period costs
//! O(connected × log queue), against O(queue) for the walk in admission order it replaced; the
//! walk is cut in steps of at most [`RANK_STEP_BUDGET`] (chunks of [`RANK_CHUNK`] players) so
//! that the queue handles a machine coming back between two steps (`queue_refresh_cost` in
//! `actors/tests/rank_cost.rs` prints both costs). A step is a time budget rather than a count
//! because every step waits its turn behind the queue's other messages: with 128 players a
//! step a slice of 4,000 took 30 turns, and behind a busy mailbox the walk (and so the
//! staleness of the last players in it) stretched by hundreds of milliseconds. A tick finishes
//! a walk still going before it starts the next, so no slice ever waits a round. The entry itself stays compact: two flags in [`Waiting`](crate::play::queue::Waiting), no
//! allocation of its own.

use std::time::{Duration, Instant};

/// Rank refresh ticks per `rank_refresh` period; each serves one slice of the players.
pub const RANK_SLICES: u64 = 5;

/// Players a refresh visits between two looks at the clock.
pub const RANK_CHUNK: usize = 128;

/// The longest a step of the walk keeps the queue from its other messages (a machine coming
/// back waits at most this, against the hand-off target of 50 ms at the 99th percentile).
pub const RANK_STEP_BUDGET: Duration = Duration::from_millis(2);

/// What the refresh found for one listed player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// Still waiting and connected; rank unchanged, nothing pushed.
    Unchanged,
    /// Still waiting and connected; the new rank was pushed.
    Pushed,
    /// Left the queue or has no socket any more: off the list.
    Gone,
}

/// The slice a session belongs to.
pub fn slice_of(session_id: i64) -> usize {
    session_id.rem_euclid(RANK_SLICES as i64) as usize
}

/// The connected waiting players, by slice, and the walk in progress.
#[derive(Debug, Default)]
pub struct Watchers {
    slices: [Vec<i64>; RANK_SLICES as usize],
    /// Walks started so far: the slice of the next one is `walks % RANK_SLICES`.
    walks: u64,
    walk: Option<Walk>,
    /// When each slice's last walk ended, while the slice had players: the next walk's end
    /// minus it is the oldest a rank of the slice got (`yoo_rank_staleness_seconds`).
    done: [Option<Instant>; RANK_SLICES as usize],
}

#[derive(Debug)]
struct Walk {
    slice: usize,
    at: usize,
    pushed: u64,
    wall: Duration,
    cpu: f64,
}

impl Watchers {
    /// Lists a session (the caller keeps it from being listed twice).
    pub fn add(&mut self, session_id: i64) {
        self.slices[slice_of(session_id)].push(session_id);
    }

    /// Listed sessions (some may have left since; they go when next visited).
    pub fn len(&self) -> usize {
        self.slices.iter().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A tick: a walk still going (its steps waited behind other messages) is finished first,
    /// then the next slice's walk starts. So a tick never finds the last walk running and no
    /// slice waits a whole round for its turn.
    pub fn tick(&mut self, mut visit: impl FnMut(i64) -> Seen) {
        while self.chunk(&mut visit) {}
        self.start();
    }

    /// One step of the walk in progress: chunks until [`RANK_STEP_BUDGET`] has passed or the
    /// walk ends; returns whether there is more to do (the caller sends itself a message for
    /// the next step, so what arrived meanwhile is handled first).
    pub fn step(&mut self, mut visit: impl FnMut(i64) -> Seen) -> bool {
        let started = Instant::now();
        while self.chunk(&mut visit) {
            if started.elapsed() >= RANK_STEP_BUDGET {
                return true;
            }
        }
        false
    }

    fn start(&mut self) {
        self.walk = Some(Walk {
            slice: (self.walks % RANK_SLICES) as usize,
            at: 0,
            pushed: 0,
            wall: Duration::ZERO,
            cpu: 0.0,
        });
        self.walks += 1;
    }

    /// Visits up to [`RANK_CHUNK`] players of the walk in progress; returns whether there is
    /// more to do. At the end of a walk its wall and CPU time and its pushes are recorded.
    fn chunk(&mut self, visit: &mut impl FnMut(i64) -> Seen) -> bool {
        let started = Instant::now();
        let cpu = crate::clock::thread_cpu_time();
        let Some(walk) = self.walk.as_mut() else { return false };
        let list = &mut self.slices[walk.slice];
        let mut visited = 0;
        while walk.at < list.len() && visited < RANK_CHUNK {
            visited += 1;
            match visit(list[walk.at]) {
                Seen::Unchanged => walk.at += 1,
                Seen::Pushed => {
                    walk.at += 1;
                    walk.pushed += 1;
                }
                Seen::Gone => {
                    list.swap_remove(walk.at);
                }
            }
        }
        walk.wall += started.elapsed();
        walk.cpu += crate::clock::thread_cpu_time() - cpu;
        if walk.at < list.len() {
            return true;
        }
        metrics::counter!("yoo_rank_pushes_total").increment(walk.pushed);
        metrics::histogram!("yoo_rank_refresh_cpu_seconds").record(walk.cpu);
        metrics::histogram!("yoo_rank_refresh_seconds").record(walk.wall.as_secs_f64());
        let now = Instant::now();
        let slice = walk.slice;
        if let Some(before) = self.done[slice] {
            metrics::histogram!("yoo_rank_staleness_seconds").record(now.duration_since(before).as_secs_f64());
        }
        self.done[slice] = (!self.slices[slice].is_empty()).then_some(now);
        self.walk = None;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walk visits its slice in steps, drops who is gone, and a tick that comes while a walk
    /// is still going finishes it before it starts the next slice (so no slice waits a round).
    #[test]
    fn walks_go_in_steps_and_a_late_walk_is_finished_at_the_next_tick() {
        let per_slice = RANK_CHUNK as i64 * 4;
        let mut w = Watchers::default();
        for id in 0..(per_slice * RANK_SLICES as i64) {
            w.add(id);
        }
        let (mut seen, mut gone) = (vec![], 0usize);
        w.tick(|id| {
            seen.push(id);
            Seen::Unchanged
        });
        assert!(seen.is_empty(), "the first tick only starts a walk");
        // One step, slowed so that the budget is spent after the first chunk.
        assert!(w.step(|id| {
            seen.push(id);
            if seen.len() == 1 {
                std::thread::sleep(RANK_STEP_BUDGET);
            }
            if id % 10 == 0 {
                gone += 1;
                Seen::Gone
            } else {
                Seen::Unchanged
            }
        }));
        assert_eq!(seen.len(), RANK_CHUNK, "a step ends at the first chunk past its budget");
        assert!(gone > 0);
        assert!(seen.iter().all(|id| slice_of(*id) == 0));
        // The next tick comes while slice 0 is still being walked: its rest is walked first,
        // then slice 1 starts (and its first step follows as the tick's own).
        let mut at_tick = vec![];
        w.tick(|id| {
            at_tick.push(id);
            Seen::Unchanged
        });
        assert_eq!(
            at_tick.len(),
            per_slice as usize - gone - (RANK_CHUNK - gone),
            "the rest of slice 0"
        );
        assert!(at_tick.iter().all(|id| slice_of(*id) == 0));
        let mut next = vec![];
        while w.step(|id| {
            next.push(id);
            Seen::Pushed
        }) {}
        assert_eq!(next.len(), per_slice as usize);
        assert!(next.iter().all(|id| slice_of(*id) == 1), "then slice 1, whole");
        assert!(!w.step(|_| Seen::Unchanged), "no walk, no tick: nothing to do");
        assert_eq!(w.len(), per_slice as usize * RANK_SLICES as usize - gone);
    }
}
