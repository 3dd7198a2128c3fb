//! One actor per user: it owns the player's game state and pushes every change of it.
//!
//! Calls about a user's game go through their player actor, one at a time, so the checks of
//! core-platform.md §8.2 (a game already running here, elsewhere, or another game) cannot race.

use std::sync::Arc;

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use storage::{Game, NewGameSession, Node};

use crate::error::{DomainError, DomainResult};
use crate::game_session::{SessionInit, SessionMsg};
use crate::platform::{Ctx, SessionKey};
use crate::view::{EndReason, GameState, Push, SessionView, Status};

/// A call about the current session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionOp {
    Confirm,
    CancelConfirm,
    CancelQueue,
    Over,
}

pub enum PlayerMsg {
    Start { game: Game, node: Node, device_no: String, reply: RpcReplyPort<DomainResult<SessionView>> },
    Op { op: SessionOp, session_id: i64, reply: RpcReplyPort<DomainResult<GameState>> },
    Get(RpcReplyPort<GameState>),
    /// From the session: its state changed.
    SessionChanged(SessionView),
    /// From the session: it ended.
    SessionEnded { id: i64, game_id: i64, reason: EndReason },
    /// From the queue: the session's rank moved.
    Rank { session_id: i64, sort: u64 },
}

pub struct PlayerActor {
    pub ctx: Arc<Ctx>,
}

pub struct PlayerState {
    uid: i64,
    current: Option<Current>,
}

struct Current {
    view: SessionView,
    session: ActorRef<SessionMsg>,
}

impl Actor for PlayerActor {
    type Msg = PlayerMsg;
    type State = PlayerState;
    type Arguments = i64;

    async fn pre_start(&self, _me: ActorRef<PlayerMsg>, uid: i64) -> Result<PlayerState, ActorProcessingErr> {
        Ok(PlayerState { uid, current: None })
    }

    async fn handle(&self, _me: ActorRef<PlayerMsg>, msg: PlayerMsg, st: &mut PlayerState) -> Result<(), ActorProcessingErr> {
        match msg {
            PlayerMsg::Start { game, node, device_no, reply } => {
                let r = self.start(st, game, node, device_no).await;
                let _ = reply.send(r);
            }
            PlayerMsg::Op { op, session_id, reply } => {
                let r = self.op(st, op, session_id).await;
                let _ = reply.send(r);
            }
            PlayerMsg::Get(reply) => {
                let state = match &st.current {
                    Some(c) => GameState::Online(self.with_exact_rank(c.view.clone()).await),
                    None => GameState::None,
                };
                let _ = reply.send(state);
            }
            PlayerMsg::SessionChanged(view) => {
                if let Some(c) = st.current.as_mut().filter(|c| c.view.id == view.id) {
                    let sort = if view.status == Status::Queue { c.view.sort } else { 0 };
                    c.view = SessionView { sort, ..view };
                    self.push(st.uid, GameState::Online(c.view.clone()));
                }
            }
            PlayerMsg::SessionEnded { id, game_id, reason } => {
                if st.current.as_ref().is_some_and(|c| c.view.id == id) {
                    st.current = None;
                    self.push(st.uid, GameState::Ended { id, game_id, reason });
                }
            }
            PlayerMsg::Rank { session_id, sort } => {
                if let Some(c) = st.current.as_mut().filter(|c| c.view.id == session_id && c.view.status == Status::Queue) {
                    if c.view.sort != sort {
                        c.view.sort = sort;
                        self.push(st.uid, GameState::Online(c.view.clone()));
                    }
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
        DomainError::OtherGameActive { session_id, game_id: current_game, game_name: c.game_name.clone() }
    } else if c.device_no == device_no {
        DomainError::GameAlreadyActive { session_id, game_id }
    } else {
        DomainError::GameOnOtherClient { session_id, game_id }
    })
}

impl PlayerActor {
    /// While queued, the view with the exact rank read from the queue (the pushed rank may trail
    /// by one refresh). The stored view keeps what the browser was last told.
    async fn with_exact_rank(&self, mut view: SessionView) -> SessionView {
        if view.status == Status::Queue {
            if let Ok(ch) = self.ctx.channel(view.game_id, view.node_id).await {
                if let Ok(Some(rank)) = ractor::call!(ch, crate::queue::ChannelMsg::Rank, view.id) {
                    view.sort = rank;
                }
            }
        }
        view
    }

    fn push(&self, uid: i64, state: GameState) {
        self.ctx.bus.publish(&crate::view::user_topic(uid), &Push::GameStatus(state));
    }

    async fn start(&self, st: &mut PlayerState, game: Game, node: Node, device_no: String) -> DomainResult<SessionView> {
        if let Some(refusal) = start_conflict(st.current.as_ref().map(|c| &c.view), game.id, &device_no) {
            return Err(refusal);
        }
        let now = self.ctx.clock.now_ms();
        let repo = self.ctx.store.sessions.clone();
        let new = NewGameSession { uid: st.uid, game_id: game.id, node_id: node.id, device_no: device_no.clone(), created_at: now };
        let record = tokio::task::spawn_blocking(move || repo.insert(&new))
            .await
            .map_err(|e| DomainError::Internal(e.to_string()))??;
        let view = SessionView {
            id: record.id,
            game_id: game.id,
            game_name: game.name.clone(),
            game_logo: crate::platform::game_logo(&game),
            status: Status::Queue,
            device_no,
            node_id: node.id,
            node_name: node.name.clone(),
            connect_countdown_secs: self.ctx.config.connect_countdown_secs,
            queued_at_ms: now,
            ready_at_ms: None,
            playing_at_ms: None,
            is_fast: 0,
            sort: 0,
        };
        let key = SessionKey::new(record.id, SessionInit { record, view });
        let session = self.ctx.sessions().get_or_start(&key).await.map_err(DomainError::Internal)?;
        let view = ractor::call!(session, SessionMsg::Begin).map_err(|e| DomainError::Internal(e.to_string()))??;
        metrics::counter!("yoo_sessions_started_total").increment(1);
        st.current = Some(Current { view: view.clone(), session });
        Ok(view)
    }

    async fn op(&self, st: &mut PlayerState, op: SessionOp, session_id: i64) -> DomainResult<GameState> {
        let Some(c) = st.current.as_ref().filter(|c| c.view.id == session_id) else {
            return Err(DomainError::UnknownSession);
        };
        let session = c.session.clone();
        let call = |e: ractor::RactorErr<SessionMsg>| DomainError::Internal(e.to_string());
        match op {
            SessionOp::Confirm => {
                let view = ractor::call!(session, SessionMsg::Confirm).map_err(call)??;
                Ok(GameState::Online(view))
            }
            SessionOp::CancelConfirm => ractor::call!(session, SessionMsg::CancelConfirm).map_err(call)?.map(|_| GameState::None),
            SessionOp::CancelQueue => ractor::call!(session, SessionMsg::CancelQueue).map_err(call)?.map(|_| GameState::None),
            SessionOp::Over => ractor::call!(session, SessionMsg::Over).map_err(call)?.map(|_| GameState::None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn live(game_id: i64, device: &str) -> SessionView {
        SessionView {
            id: 7,
            game_id,
            game_name: "星海远征".into(),
            game_logo: String::new(),
            status: Status::Queue,
            device_no: device.into(),
            node_id: 1,
            node_name: String::new(),
            connect_countdown_secs: 60,
            queued_at_ms: 0,
            ready_at_ms: None,
            playing_at_ms: None,
            is_fast: 0,
            sort: 1,
        }
    }

    #[test]
    fn start_conflicts() {
        let check = |cur: Option<SessionView>, game: i64, dev: &str, want: Option<DomainError>| {
            assert_eq!(start_conflict(cur.as_ref(), game, dev), want);
        };
        check(None, 1, "a", None);
        check(Some(live(1, "a")), 1, "a", Some(DomainError::GameAlreadyActive { session_id: 7, game_id: 1 }));
        check(Some(live(1, "a")), 1, "b", Some(DomainError::GameOnOtherClient { session_id: 7, game_id: 1 }));
        check(
            Some(live(1, "a")),
            2,
            "a",
            Some(DomainError::OtherGameActive { session_id: 7, game_id: 1, game_name: "星海远征".into() }),
        );
    }
}
