//! One actor per user, for the calls about their game: it serializes them, so the checks of
//! core-platform.md §8.2 (a game already running here, elsewhere, or another game) cannot race.
//!
//! The player's game state itself lives where the session is: in its node's queue while
//! QUEUE, in its game-session actor from READY on. The player actor remembers which session is
//! current and asks that owner; it loads the current session from storage when it starts and
//! stops itself after ten seconds without calls, so a hundred thousand waiting players do not each
//! keep an actor (the pushes go from the owners straight to the bus).

use crate::play::PlayCtx;
use std::sync::Arc;
use std::time::Duration;

use engine::Timers;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use storage::{Game, NewGameSession, Node};

use crate::ctx::Ctx;
use crate::error::{DomainError, DomainResult};
use crate::play::game_session::{SessionKey, SessionMsg};
use crate::play::lanes::Lane;
use crate::play::queue::{GameMeta, QueueMsg, Waiting};
use crate::view::{EndReason, GameState, SessionView};

/// The fast-entry time a used fast-entry card gives: one hour.
pub const CARD_FAST_ENTER_MS: i64 = 3600 * 1000;

/// A player actor with no calls for this long stops (it is started again on the next call).
pub const IDLE: Duration = Duration::from_secs(10);

/// A call about the current session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionOp {
    Confirm,
    CancelConfirm,
    CancelQueue,
    Over,
}

pub enum PlayerMsg {
    /// Start a game; with `replace` (changeGame) a live session is ended first.
    Start {
        /// Boxed: a catalogue entry is large next to the other messages.
        game: Box<Game>,
        node: Node,
        device_no: String,
        lane: Lane,
        replace: bool,
        /// When the game is cut whatever its state (a minor's window closes; `play::cuts`).
        cutoff: Option<i64>,
        reply: RpcReplyPort<DomainResult<SessionView>>,
    },
    Op {
        op: SessionOp,
        session_id: i64,
        reply: RpcReplyPort<DomainResult<GameState>>,
    },
    Get(RpcReplyPort<DomainResult<GameState>>),
    /// Move the queued session to a better lane (fast-entry card, purchase).
    ChangeLane {
        session_id: i64,
        lane: Lane,
        reply: RpcReplyPort<DomainResult<SessionView>>,
    },
    /// Use a fast-entry card on the queued session: it moves to the member fast-entry lane.
    UseCard {
        card_id: i64,
        reply: RpcReplyPort<DomainResult<(storage::FastEnterCard, SessionView)>>,
    },
    /// Move the current session to `device_no` (cross-screen).
    Move {
        device_no: String,
        reply: RpcReplyPort<DomainResult<SessionView>>,
    },
    /// The current session ended elsewhere (countdown, time up).
    SessionEnded {
        id: i64,
    },
    /// Timer: stop if idle.
    Idle,
}

pub struct PlayerActor {
    pub ctx: Arc<Ctx>,
}

/// The current session, and where to find it.
#[derive(Debug, Clone)]
struct Current {
    id: i64,
    game_id: i64,
    node_id: i64,
}

/// Where the current session is now.
enum Located {
    Queued(SessionView, ActorRef<QueueMsg>),
    Active(SessionView, ActorRef<SessionMsg>),
}

pub struct PlayerState {
    uid: i64,
    current: Option<Current>,
    /// Calls since the idle timer was set.
    busy: bool,
    timers: Timers<()>,
}

impl Actor for PlayerActor {
    type Msg = PlayerMsg;
    type State = PlayerState;
    type Arguments = i64;

    async fn pre_start(&self, me: ActorRef<PlayerMsg>, uid: i64) -> Result<PlayerState, ActorProcessingErr> {
        let current = self.ctx.open_session_of(uid).await?.map(|r| Current {
            id: r.id,
            game_id: r.game_id,
            node_id: r.node_id,
        });
        let mut timers = Timers::default();
        timers.set((), IDLE, &me, PlayerMsg::Idle);
        Ok(PlayerState {
            uid,
            current,
            busy: false,
            timers,
        })
    }

    async fn handle(&self, me: ActorRef<PlayerMsg>, msg: PlayerMsg, st: &mut PlayerState) -> Result<(), ActorProcessingErr> {
        // In a cluster the writes about a session carry the epoch of its node's owner.
        let node = match &msg {
            PlayerMsg::Start { node, .. } => Some(node.id),
            _ => st.current.as_ref().map(|c| c.node_id),
        };
        let fence = node.and_then(|n| self.ctx.node_fence(n));
        crate::ctx::as_owner(fence, self.handle_msg(me, msg, st)).await
    }
}

impl PlayerActor {
    async fn handle_msg(&self, me: ActorRef<PlayerMsg>, msg: PlayerMsg, st: &mut PlayerState) -> Result<(), ActorProcessingErr> {
        if !matches!(msg, PlayerMsg::Idle) {
            st.busy = true;
        }
        if !matches!(msg, PlayerMsg::Idle | PlayerMsg::SessionEnded { .. }) {
            if let Err(e) = self.refresh(st).await {
                tracing::warn!(uid = st.uid, error = %e, "the player's session not read again");
            }
        }
        match msg {
            PlayerMsg::Start {
                game,
                node,
                device_no,
                lane,
                replace,
                cutoff,
                reply,
            } => {
                if replace {
                    if let Some(c) = st.current.as_ref().map(|c| c.id) {
                        match self.op(st, SessionOp::Over, c).await {
                            // the old session runs in another process: the switch is made there
                            Err(e @ DomainError::NotOwner(_)) => {
                                let _ = reply.send(Err(e));
                                return Ok(());
                            }
                            Err(e) => tracing::debug!(error = %e, "switching game: the old session was already gone"),
                            Ok(_) => {}
                        }
                    }
                }
                let r = self.start(st, *game, node, device_no, lane, cutoff).await;
                let _ = reply.send(r);
            }
            PlayerMsg::Op { op, session_id, reply } => {
                let r = self.op(st, op, session_id).await;
                let _ = reply.send(r);
            }
            PlayerMsg::Get(reply) => {
                let state = self.locate(st).await.map(|found| match found {
                    Some(Located::Queued(v, _) | Located::Active(v, _)) => GameState::Online(v),
                    None => GameState::None,
                });
                let _ = reply.send(state);
            }
            PlayerMsg::ChangeLane { session_id, lane, reply } => {
                let _ = reply.send(self.change_lane(st, session_id, lane).await);
            }
            PlayerMsg::UseCard { card_id, reply } => {
                let r = self.use_card(st, card_id).await;
                let _ = reply.send(r);
            }
            PlayerMsg::Move { device_no, reply } => {
                let _ = reply.send(self.move_to(st, device_no).await);
            }
            PlayerMsg::SessionEnded { id } => {
                if st.current.as_ref().is_some_and(|c| c.id == id) {
                    st.current = None;
                }
            }
            PlayerMsg::Idle => {
                if st.busy {
                    st.busy = false;
                    st.timers.set((), IDLE, &me, PlayerMsg::Idle);
                } else {
                    me.stop(None);
                }
            }
        }
        Ok(())
    }
}

/// Why a player with `current` live may not start `game_id` on `device_no` (core-platform.md
/// §8.2): the same game here (130117), the same game on another device (130115), or another
/// game (130116). `None` means the start may go on.
pub fn start_conflict(current: Option<&SessionView>, game_id: i64, device_no: &str) -> Option<DomainError> {
    let c = current?;
    let (session_id, current_game) = (c.id, c.game_id);
    Some(if current_game != game_id {
        DomainError::OtherGameActive {
            session_id,
            game_id: current_game,
            game_name: c.game_name.to_string(),
        }
    } else if *c.device_no == *device_no {
        DomainError::GameAlreadyActive { session_id, game_id }
    } else {
        DomainError::GameOnOtherClient { session_id, game_id }
    })
}

impl PlayerActor {
    async fn change_lane(&self, st: &mut PlayerState, session_id: i64, lane: Lane) -> DomainResult<SessionView> {
        match self.locate(st).await? {
            Some(Located::Queued(v, ch)) if v.id == session_id => {
                ractor::call!(ch, QueueMsg::ChangeLane, session_id, lane)?.ok_or(DomainError::WrongState)
            }
            Some(Located::Active(v, _)) if v.id == session_id => Err(DomainError::WrongState),
            _ => Err(DomainError::UnknownSession),
        }
    }

    async fn move_to(&self, st: &mut PlayerState, device_no: String) -> DomainResult<SessionView> {
        match self.locate(st).await? {
            Some(Located::Queued(v, ch)) => ractor::call!(ch, QueueMsg::Move, v.id, device_no)?.ok_or(DomainError::UnknownSession),
            Some(Located::Active(_, s)) => Ok(ractor::call!(s, SessionMsg::Move, device_no)?),
            None => Err(DomainError::UnknownSession),
        }
    }

    async fn use_card(&self, st: &mut PlayerState, card_id: i64) -> DomainResult<(storage::FastEnterCard, SessionView)> {
        let Some(Located::Queued(v, ch)) = self.locate(st).await? else {
            return Err(DomainError::CardNotQueued);
        };
        let (uid, now) = (st.uid, self.ctx.clock.now_ms());
        let card = match self.ctx.db_raw(move |s| s.assets.use_card(uid, card_id, v.id, now)).await? {
            Ok(c) => c,
            Err(storage::Error::NotFound) => return Err(DomainError::UnknownCard),
            Err(storage::Error::Conflict(_)) => return Err(DomainError::CardUnusable),
            Err(e) => return Err(e.into()),
        };
        let view = ractor::call!(ch, QueueMsg::ChangeLane, v.id, Lane::Member)?.ok_or(DomainError::CardNotQueued)?;
        // A fast-entry card is one hour of fast entry (commerce.md §6 "one-hour cards"): the
        // queued session moved at once, and a start within the hour joins the fast lane too.
        if let Err(e) = self
            .ctx
            .db(move |s| s.assets.grant_entitlement(uid, "fast_enter", CARD_FAST_ENTER_MS, now))
            .await
        {
            tracing::error!(uid, card_id, error = %e, "fast-entry hour of a used card not granted");
        }
        Ok((card, view))
    }

    /// In a cluster: what this actor knows of the player's session may be stale when the
    /// session's node is not owned here (another process started, ended or replaced it since):
    /// the store says (the node's owner then answers the call, `NotOwner` here). The owner's own
    /// actor sees every change of its sessions and is not read again.
    async fn refresh(&self, st: &mut PlayerState) -> DomainResult<()> {
        if !self.ctx.config.leased || st.current.as_ref().is_some_and(|c| self.ctx.owns_node(c.node_id)) {
            return Ok(());
        }
        st.current = self.ctx.open_session_of(st.uid).await?.map(|r| Current {
            id: r.id,
            game_id: r.game_id,
            node_id: r.node_id,
        });
        Ok(())
    }

    /// Finds the current session: in its queue, else in its session actor; else it has ended.
    /// A queue that cannot be asked is an error (the session may well still wait there); a
    /// session actor that stops while asked has ended.
    async fn locate(&self, st: &mut PlayerState) -> DomainResult<Option<Located>> {
        let Some(c) = st.current.clone() else { return Ok(None) };
        // The queue first: a grant starts the session actor before the queue answers anything
        // else, so "not in the queue" means "in a session actor, or ended".
        let ch = self.ctx.queue(c.node_id)?;
        if let Some(v) = ractor::call!(ch, QueueMsg::Get, c.id)? {
            return Ok(Some(Located::Queued(v, ch)));
        }
        if let Some(s) = self.ctx.sessions().get(&SessionKey::lookup(c.id)) {
            if let Ok(v) = ractor::call!(s, SessionMsg::Get) {
                return Ok(Some(Located::Active(v, s)));
            }
        }
        st.current = None;
        Ok(None)
    }

    async fn start(
        &self,
        st: &mut PlayerState,
        game: Game,
        node: Node,
        device_no: String,
        lane: Lane,
        cutoff: Option<i64>,
    ) -> DomainResult<SessionView> {
        let live = match self.locate(st).await? {
            Some(Located::Queued(v, _) | Located::Active(v, _)) => Some(v),
            None => None,
        };
        if let Some(refusal) = start_conflict(live.as_ref(), game.id, &device_no) {
            return Err(refusal);
        }
        let now = self.ctx.clock.now_ms();
        let new = NewGameSession {
            uid: st.uid,
            game_id: game.id,
            node_id: node.id,
            device_no: device_no.clone(),
            created_at: now,
            lane: lane.code(),
            cutoff_at: cutoff,
        };
        // the node's queue first: in a cluster another process may own it (nothing is written)
        let ch = self.ctx.queue(node.id)?;
        let record = if self.ctx.config.leased {
            // two first starts at once on two processes: one inserts; the other finds the
            // player's session, whose node's owner answers the start as a conflict
            match self.ctx.db(move |s| s.sessions.insert_if_none_open(&new)).await? {
                Some(r) => r,
                None => {
                    self.refresh(st).await?;
                    return match self.locate(st).await? {
                        Some(Located::Queued(v, _) | Located::Active(v, _)) => {
                            Err(start_conflict(Some(&v), game.id, &device_no).unwrap_or(DomainError::WrongState))
                        }
                        None => Err(DomainError::WrongState),
                    };
                }
            }
        } else {
            self.ctx.db(move |s| s.sessions.insert(&new)).await?
        };
        let waiting = Waiting {
            session_id: record.id,
            uid: st.uid,
            game_id: game.id,
            device_no: device_no.as_str().into(),
            since_ms: now,
            cutoff,
            ..Waiting::default()
        };
        let meta = GameMeta::of(&game);
        let enqueued = ractor::call!(ch, QueueMsg::Enqueue, waiting, lane, meta).map_err(DomainError::from);
        let view = match enqueued.and_then(|r| r) {
            Ok(v) => v,
            Err(e) => {
                self.ctx
                    .end_session(st.uid, record.id, game.id, EndReason::ServerRestart, now)
                    .await;
                return Err(e);
            }
        };
        metrics::counter!("yoo_sessions_started_total").increment(1);
        self.ctx.play_event(crate::play::ports::PlayEvent::GameStart { uid: st.uid }).await;
        st.current = Some(Current {
            id: record.id,
            game_id: game.id,
            node_id: node.id,
        });
        Ok(view)
    }

    async fn op(&self, st: &mut PlayerState, op: SessionOp, session_id: i64) -> DomainResult<GameState> {
        if st.current.as_ref().is_none_or(|c| c.id != session_id) {
            return Err(DomainError::UnknownSession);
        }
        match (op, self.locate(st).await?) {
            (_, None) => Err(DomainError::UnknownSession),
            (SessionOp::CancelQueue | SessionOp::Over, Some(Located::Queued(_, ch))) => {
                let reason = if op == SessionOp::Over {
                    EndReason::Over
                } else {
                    EndReason::Cancelled
                };
                let removed = ractor::call!(ch, QueueMsg::Remove, session_id)?;
                if removed {
                    let now = self.ctx.clock.now_ms();
                    self.ctx
                        .end_session(st.uid, session_id, st.current.as_ref().map_or(0, |c| c.game_id), reason, now)
                        .await;
                    st.current = None;
                    return Ok(GameState::None);
                }
                // A machine arrived meanwhile: leave it too.
                match self.locate(st).await? {
                    Some(Located::Active(_, s)) => self.end_active(st, s, op, reason).await,
                    _ => Ok(GameState::None),
                }
            }
            (SessionOp::Confirm | SessionOp::CancelConfirm, Some(Located::Queued(..))) => Err(DomainError::WrongState),
            (SessionOp::Confirm, Some(Located::Active(_, s))) => {
                let view = ractor::call!(s, SessionMsg::Confirm)??;
                // Watch while you wait: entering one's own game leaves the room one watches.
                self.ctx
                    .play_event(crate::play::ports::PlayEvent::OwnGameConfirmed { uid: st.uid })
                    .await;
                Ok(GameState::Online(view))
            }
            (_, Some(Located::Active(_, s))) => {
                let reason = if op == SessionOp::CancelQueue {
                    EndReason::Cancelled
                } else {
                    EndReason::GaveUp
                };
                self.end_active(st, s, op, reason).await
            }
        }
    }

    /// Ends a session that holds a machine: `over` ends it from any state; a give-up only from
    /// READY or CONNECTING.
    async fn end_active(&self, st: &mut PlayerState, s: ActorRef<SessionMsg>, op: SessionOp, reason: EndReason) -> DomainResult<GameState> {
        match op {
            SessionOp::Over => ractor::call!(s, SessionMsg::Over)??,
            _ => ractor::call!(s, |r| SessionMsg::GiveUp(reason, r))??,
        }
        st.current = None;
        Ok(GameState::None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::Status;

    fn live(game_id: i64, device: &str) -> SessionView {
        SessionView {
            id: 7,
            game_id,
            game_name: "星海远征".into(),
            game_logo: "".into(),
            status: Status::Queue,
            device_no: device.into(),
            node_id: 1,
            node_name: "".into(),
            connect_countdown_secs: 60,
            queued_at_ms: 0,
            ready_at_ms: None,
            playing_at_ms: None,
            last_input_ms: None,
            is_fast: 0,
            sort: 1,
            requeues: 0,
            stream: None,
        }
    }

    #[test]
    fn start_conflicts() {
        let check = |cur: Option<SessionView>, game: i64, dev: &str, want: Option<DomainError>| {
            assert_eq!(start_conflict(cur.as_ref(), game, dev), want);
        };
        check(None, 1, "a", None);
        check(
            Some(live(1, "a")),
            1,
            "a",
            Some(DomainError::GameAlreadyActive { session_id: 7, game_id: 1 }),
        );
        check(
            Some(live(1, "a")),
            1,
            "b",
            Some(DomainError::GameOnOtherClient { session_id: 7, game_id: 1 }),
        );
        check(
            Some(live(1, "a")),
            2,
            "a",
            Some(DomainError::OtherGameActive {
                session_id: 7,
                game_id: 1,
                game_name: "星海远征".into(),
            }),
        );
    }
}
