//! Hanging ("挂机", core-platform.md §3.3 "Game duration", §4.11 GAME_HANG_END): a PLAYING
//! session whose game has taken no input from its controller for `hang_after_secs`. The game
//! host reports input as it comes (`hostlink::INPUT_REPORT_MS` apart at most, see
//! [`crate::play::hosts::HostEvent::Input`]), the session remembers the last report
//! (`SessionView::last_input_ms`), and `gameDuration` answers from it. A static machine of the
//! configuration has no host to report input: its sessions count from the start of play.

use crate::error::{DomainError, DomainResult};
use crate::play::service::Play;
use crate::view::{GameState, SessionView, Status};

/// What `gameDuration` answers for a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameDuration {
    /// The session is hanging: PLAYING, and no input for the configured time.
    pub hook: bool,
    /// Whole minutes without input so far, while hanging; 0 otherwise.
    pub on_hook_minutes: i64,
    /// ms; the server's time of the answer.
    pub response_time: i64,
}

/// Whether `view` hangs at `now_ms` (all ms): idle since its last input, or since play began.
pub fn duration_of(view: &SessionView, now_ms: i64, hang_after_ms: i64) -> GameDuration {
    let idle_ms = match (view.status, view.playing_at_ms) {
        (Status::Playing, Some(playing_at)) => now_ms - view.last_input_ms.map_or(playing_at, |at| at.max(playing_at)),
        _ => 0,
    };
    let hook = idle_ms >= hang_after_ms.max(1);
    GameDuration {
        hook,
        on_hook_minutes: if hook { idle_ms / 60_000 } else { 0 },
        response_time: now_ms,
    }
}

impl Play {
    /// `gameDuration` of the caller's own live session `session_id`; any other id (another
    /// player's, an ended or unknown session) is UnknownSession, whatever it is.
    pub async fn game_duration(&self, uid: i64, session_id: i64) -> DomainResult<GameDuration> {
        let GameState::Online(view) = self.game_state(uid).await? else {
            return Err(DomainError::UnknownSession);
        };
        if view.id != session_id {
            return Err(DomainError::UnknownSession);
        }
        let hang_after_ms = i64::try_from(self.ctx.config.hang_after_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
        Ok(duration_of(&view, self.ctx.clock.now_ms(), hang_after_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(status: Status, playing_at: Option<i64>, last_input: Option<i64>) -> SessionView {
        SessionView {
            id: 1,
            game_id: 1,
            game_name: "g".into(),
            game_logo: "".into(),
            status,
            device_no: "d".into(),
            node_id: 1,
            node_name: "n".into(),
            connect_countdown_secs: 60,
            queued_at_ms: 0,
            ready_at_ms: None,
            playing_at_ms: playing_at,
            last_input_ms: last_input,
            is_fast: 0,
            sort: 0,
            requeues: 0,
            stream: None,
        }
    }

    // (status, playing since, last input, now) → (hook, minutes); hanging after 10 minutes.
    #[test]
    fn hanging_is_no_input_for_the_configured_time() {
        const MIN: i64 = 60_000;
        let check = |v: SessionView, now: i64, want: (bool, i64)| {
            let d = duration_of(&v, now, 10 * MIN);
            assert_eq!(
                (d.hook, d.on_hook_minutes),
                want,
                "{:?} {:?} {:?} at {now}",
                v.status,
                v.playing_at_ms,
                v.last_input_ms
            );
            assert_eq!(d.response_time, now);
        };
        // no input since play began
        check(view(Status::Playing, Some(0), None), 10 * MIN - 1, (false, 0));
        check(view(Status::Playing, Some(0), None), 10 * MIN, (true, 10));
        check(view(Status::Playing, Some(0), None), 75 * MIN + 59_999, (true, 75));
        // input restarts the wait
        check(view(Status::Playing, Some(0), Some(5 * MIN)), 14 * MIN, (false, 0));
        check(view(Status::Playing, Some(0), Some(5 * MIN)), 16 * MIN, (true, 11));
        // input before play (a launch's) counts from play
        check(view(Status::Playing, Some(10 * MIN), Some(MIN)), 19 * MIN, (false, 0));
        // only a PLAYING session hangs
        for status in [Status::Queue, Status::Ready, Status::Connecting] {
            check(view(status, None, None), 100 * MIN, (false, 0));
        }
    }
}
