//! A session's cut (`cutoff_at`, kept with its record): at that time the game ends whatever its
//! state, and the player is told a lead before ([`StartGate::cut_notice`]: a minor's play
//! window closes at 21:00, the notice goes at 20:59).
//!
//! The cut is kept by whoever owns the session's state at the time, on its own timers: the
//! node queue while the session waits, its session actor from READY on. Both restore it from
//! the record after a restart, and a cut whose time passed while the platform was down acts at
//! once. No detached task holds it, so a restart cannot lose it.
//!
//! [`StartGate::cut_notice`]: crate::play::ports::StartGate::cut_notice

use std::collections::BTreeSet;
use std::time::Duration;

/// What a cut does at one of its times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// The player is told the game will be cut.
    Notice,
    /// The game ends.
    End,
}

/// The cuts of the sessions one queue holds, by due time.
#[derive(Debug, Default)]
pub struct Cuts(BTreeSet<(i64, Stage, i64)>);

impl Cuts {
    /// Adds the stages of a cut at `at` for `session_id`: the notice `lead_ms` before (none
    /// without a lead, or when the end is as soon), then the end.
    pub fn add(&mut self, session_id: i64, at: i64, lead_ms: Option<i64>) {
        if let Some(lead) = lead_ms.filter(|l| *l > 0) {
            self.0.insert((at - lead, Stage::Notice, session_id));
        }
        self.0.insert((at, Stage::End, session_id));
    }

    /// Takes the stages due at `now`, earliest first.
    pub fn due(&mut self, now: i64) -> Vec<(Stage, i64)> {
        let mut out = vec![];
        while let Some(first) = self.0.first().copied() {
            if first.0 > now {
                break;
            }
            self.0.pop_first();
            out.push((first.1, first.2));
        }
        out
    }

    /// How long until the next stage is due (None: no cut held).
    pub fn next_in(&self, now: i64) -> Option<Duration> {
        self.0.first().map(|(at, _, _)| Duration::from_millis((at - now).max(0) as u64))
    }
}

/// When each stage of a cut at `at` is due from `now` (a session actor's two timers): the
/// notice, unless its time has passed, and the end.
pub fn timers(at: i64, lead_ms: Option<i64>, now: i64) -> (Option<Duration>, Duration) {
    let left = |t: i64| Duration::from_millis((t - now).max(0) as u64);
    let notice = lead_ms.filter(|l| *l > 0).map(|l| at - l).filter(|t| *t >= now).map(left);
    (notice, left(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Stages come out in time order, once, and a restored cut already past is due at once.
    #[test]
    fn stages_are_due_in_time_order() {
        let mut c = Cuts::default();
        c.add(1, 10_000, Some(1_000));
        c.add(2, 5_000, None);
        assert_eq!(c.next_in(0), Some(Duration::from_millis(5_000)));
        assert_eq!(c.due(4_999), vec![]);
        assert_eq!(c.due(9_000), vec![(Stage::End, 2), (Stage::Notice, 1)]);
        assert_eq!(c.due(9_500), vec![]);
        assert_eq!(c.due(20_000), vec![(Stage::End, 1)]);
        assert_eq!(c.next_in(20_000), None);
    }

    #[test]
    fn a_session_actors_timers() {
        assert_eq!(
            timers(10_000, Some(1_000), 0),
            (Some(Duration::from_millis(9_000)), Duration::from_millis(10_000))
        );
        assert_eq!(timers(10_000, Some(1_000), 9_500), (None, Duration::from_millis(500)));
        assert_eq!(timers(10_000, None, 11_000), (None, Duration::ZERO));
    }
}
