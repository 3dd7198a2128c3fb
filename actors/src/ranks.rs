//! Keeping the ranks that connected waiting players see fresh, at a cost that grows with the
//! connected players and not with the length of the queue.
//!
//! A node's queue (`queue.rs`) keeps, beside its [`LaneQueue`](crate::lanes::LaneQueue), a list
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
//! walk is cut in chunks of [`RANK_CHUNK`] players so that the queue handles a machine coming
//! back between two chunks (`queue_refresh_cost` in `actors/tests/rank_cost.rs` prints both
//! costs). The entry itself stays compact: two flags in [`Waiting`](crate::queue::Waiting), no
//! allocation of its own.

use std::time::{Duration, Instant};

/// Rank refresh ticks per `rank_refresh` period; each serves one slice of the players.
pub const RANK_SLICES: u64 = 5;

/// Players a refresh visits before it lets the queue handle its other messages.
pub const RANK_CHUNK: usize = 128;

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
    /// A tick came while a walk was still going: the next walk starts when it ends.
    behind: bool,
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

    /// Whether a walk is in progress (its chunks wait in the queue's mailbox).
    pub fn walking(&self) -> bool {
        self.walk.is_some()
    }

    /// A tick: the next slice's walk starts, or, when the last one is still going, starts as
    /// soon as it ends.
    pub fn tick(&mut self) {
        if self.walk.is_some() {
            self.behind = true;
        } else {
            self.start();
        }
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
    /// more to do (the caller sends itself a message for the next chunk). At the end of a walk
    /// its wall and CPU time and its pushes are recorded.
    pub fn chunk(&mut self, mut visit: impl FnMut(i64) -> Seen) -> bool {
        if self.walk.is_none() {
            if !self.behind {
                return false;
            }
            self.behind = false;
            self.start();
        }
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
        self.walk = None;
        self.behind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walk visits its slice in chunks, drops who is gone, and a tick during a walk starts
    /// the next slice right after it.
    #[test]
    fn walks_go_in_chunks_and_drop_the_gone() {
        let mut w = Watchers::default();
        for id in 0..(RANK_CHUNK as i64 * 2 * RANK_SLICES as i64) {
            w.add(id);
        }
        assert_eq!(w.len(), RANK_CHUNK * 2 * RANK_SLICES as usize);
        w.tick();
        let (mut seen, mut gone) = (vec![], 0);
        assert!(w.chunk(|id| {
            seen.push(id);
            if id % 10 == 0 {
                gone += 1;
                Seen::Gone
            } else {
                Seen::Unchanged
            }
        }));
        assert_eq!(seen.len(), RANK_CHUNK, "one chunk at a time");
        assert!(gone > 0);
        assert!(seen.iter().all(|id| slice_of(*id) == 0));
        w.tick();
        // The rest of slice 0, then slice 1 at once (a tick came during the walk).
        let mut rest = vec![];
        while w.chunk(|id| {
            rest.push(id);
            Seen::Unchanged
        }) {}
        let slice0 = RANK_CHUNK * 2 - gone;
        assert_eq!(rest.len(), slice0 - (RANK_CHUNK - gone) + RANK_CHUNK * 2, "{rest:?}");
        assert!(rest[rest.len() - RANK_CHUNK * 2..].iter().all(|id| slice_of(*id) == 1));
        assert!(!w.chunk(|_| Seen::Unchanged), "no walk, no tick: nothing to do");
        assert_eq!(w.len(), RANK_CHUNK * 2 * RANK_SLICES as usize - gone);
    }
}
