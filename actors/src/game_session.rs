//! One game session: QUEUE(1) → READY(3) → CONNECTING(4) → PLAYING(5), and its end.
//!
//! [`SessionMachine`] is the pure state machine: it takes an event and returns the effects the
//! actor must carry out (timers, queue and machine hand-offs, persistence, notifying the player).
//! [`GameSessionActor`] carries them out. The session holds its machine from READY until it
//! ends, and always gives it back: to the pool when it ends, including when a grant arrives
//! after the player already left the queue.

use std::sync::Arc;

use engine::Timers;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use storage::GameSessionRecord;

use crate::error::{DomainError, DomainResult};
use crate::platform::Ctx;
use crate::queue::ChannelMsg;
use crate::view::{EndReason, SessionView, Status};

/// A machine's id, as declared for its node.
pub type MachineId = String;

#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    Queue,
    /// Left the queue while a grant was already on its way: end as soon as it arrives.
    Leaving(EndReason),
    Ready { machine: MachineId },
    Connecting { machine: MachineId },
    Playing { machine: MachineId },
    Ended(EndReason),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The queue handed this session a machine.
    Granted(MachineId),
    /// The ready countdown ran out.
    CountdownLapsed,
    /// The player confirmed (confirmConnect).
    Confirm,
    /// The machine attached the stream.
    Connected,
    /// The player gave up READY, or cancelled CONNECTING (cancelConfirm).
    CancelConfirm,
    /// The player left the queue (cancelQue, or over while queued); `still_queued` is what the
    /// queue answered: false means a grant is already on its way to this session.
    LeftQueue { still_queued: bool, reason: EndReason },
    /// The player ended the game (over), from any state.
    Over,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    StartCountdown,
    CancelCountdown,
    StartConnect,
    /// Give the machine back to the node's pool.
    FreeMachine(MachineId),
    /// Write the record and tell the player.
    Changed,
    /// The session is over: write, tell, stop.
    End(EndReason),
}

#[derive(Debug, Clone, PartialEq)]
pub struct SessionMachine {
    pub phase: Phase,
}

impl Default for SessionMachine {
    fn default() -> Self {
        SessionMachine { phase: Phase::Queue }
    }
}

impl SessionMachine {
    /// Applies `event`; an event that does not apply is refused and changes nothing.
    pub fn on(&mut self, event: Event) -> DomainResult<Vec<Effect>> {
        use Effect::*;
        use Phase::*;
        let (next, effects) = match (&self.phase, event) {
            (Queue, Event::Granted(m)) => (Ready { machine: m }, vec![StartCountdown, Changed]),
            (Leaving(r), Event::Granted(m)) => (Ended(*r), vec![FreeMachine(m), End(*r)]),
            (Ended(_), Event::Granted(m)) => (self.phase.clone(), vec![FreeMachine(m)]),
            (Ready { machine }, Event::CountdownLapsed) => {
                (Ended(EndReason::Missed), vec![FreeMachine(machine.clone()), End(EndReason::Missed)])
            }
            (Ready { machine }, Event::Confirm) => {
                (Connecting { machine: machine.clone() }, vec![CancelCountdown, StartConnect, Changed])
            }
            (Connecting { machine }, Event::Connected) => (Playing { machine: machine.clone() }, vec![Changed]),
            (Ready { machine } | Connecting { machine }, Event::CancelConfirm) => (
                Ended(EndReason::GaveUp),
                vec![CancelCountdown, FreeMachine(machine.clone()), End(EndReason::GaveUp)],
            ),
            (Queue, Event::LeftQueue { still_queued: true, reason }) => (Ended(reason), vec![End(reason)]),
            (Queue, Event::LeftQueue { still_queued: false, reason }) => (Leaving(reason), vec![End(reason)]),
            (Ready { machine } | Connecting { machine } | Playing { machine }, Event::Over) => (
                Ended(EndReason::Over),
                vec![CancelCountdown, FreeMachine(machine.clone()), End(EndReason::Over)],
            ),
            (Ended(_) | Leaving(_), _) => return Err(DomainError::UnknownSession),
            _ => return Err(DomainError::WrongState),
        };
        self.phase = next;
        Ok(effects)
    }

    pub fn status(&self) -> Option<Status> {
        match self.phase {
            Phase::Queue => Some(Status::Queue),
            Phase::Ready { .. } => Some(Status::Ready),
            Phase::Connecting { .. } => Some(Status::Connecting),
            Phase::Playing { .. } => Some(Status::Playing),
            Phase::Leaving(_) | Phase::Ended(_) => None,
        }
    }
}

/// Keeps `yoo_sessions{state}` (sessions by state) in step with a transition.
fn count_state(before: Option<Status>, after: Option<Status>) {
    if before == after {
        return;
    }
    let name = |s: Status| match s {
        Status::Queue => "queue",
        Status::Ready => "ready",
        Status::Connecting => "connecting",
        Status::Playing => "playing",
    };
    if let Some(b) = before {
        metrics::gauge!("yoo_sessions", "state" => name(b)).decrement(1.0);
    }
    if let Some(a) = after {
        metrics::gauge!("yoo_sessions", "state" => name(a)).increment(1.0);
    }
}

/// What a session starts with.
#[derive(Debug, Clone)]
pub struct SessionInit {
    pub record: GameSessionRecord,
    pub view: SessionView,
}

pub enum SessionMsg {
    /// Join the queue; replies with the rank.
    Begin(RpcReplyPort<DomainResult<SessionView>>),
    Granted(MachineId),
    CountdownLapsed,
    Connected,
    Confirm(RpcReplyPort<DomainResult<SessionView>>),
    CancelConfirm(RpcReplyPort<DomainResult<()>>),
    CancelQueue(RpcReplyPort<DomainResult<()>>),
    Over(RpcReplyPort<DomainResult<()>>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SessionTimer {
    Countdown,
    Connect,
}

pub struct GameSessionActor {
    pub ctx: Arc<Ctx>,
}

pub struct SessionActorState {
    machine: SessionMachine,
    record: GameSessionRecord,
    view: SessionView,
    timers: Timers<SessionTimer>,
}

impl Actor for GameSessionActor {
    type Msg = SessionMsg;
    type State = SessionActorState;
    type Arguments = SessionInit;

    async fn pre_start(&self, _me: ActorRef<SessionMsg>, init: SessionInit) -> Result<Self::State, ActorProcessingErr> {
        Ok(SessionActorState { machine: SessionMachine::default(), record: init.record, view: init.view, timers: Timers::default() })
    }

    async fn handle(&self, me: ActorRef<SessionMsg>, msg: SessionMsg, st: &mut Self::State) -> Result<(), ActorProcessingErr> {
        match msg {
            SessionMsg::Begin(reply) => {
                let channel = self.ctx.channel(st.view.game_id, st.view.node_id).await;
                let rank = match channel {
                    Ok(ch) => ractor::call!(ch, ChannelMsg::Enqueue, crate::queue::Waiting {
                        session_id: st.view.id,
                        uid: st.record.uid,
                        lane: crate::lanes::Lane::from_code(st.view.is_fast).unwrap_or(crate::lanes::Lane::Normal),
                        since_ms: st.view.queued_at_ms,
                        session: me.clone(),
                    })
                    .map_err(|e| DomainError::Internal(e.to_string())),
                    Err(e) => Err(e),
                };
                match rank {
                    Ok(rank) => {
                        count_state(None, Some(Status::Queue));
                        st.view.sort = rank;
                        let _ = reply.send(Ok(st.view.clone()));
                    }
                    Err(e) => {
                        let _ = reply.send(Err(e));
                        me.stop(None);
                    }
                }
            }
            SessionMsg::Granted(m) => self.apply(&me, st, Event::Granted(m)).await.map(|_| ()).unwrap_or(()),
            SessionMsg::CountdownLapsed => self.apply(&me, st, Event::CountdownLapsed).await.map(|_| ()).unwrap_or(()),
            SessionMsg::Connected => self.apply(&me, st, Event::Connected).await.map(|_| ()).unwrap_or(()),
            SessionMsg::Confirm(reply) => {
                let r = self.apply(&me, st, Event::Confirm).await.map(|_| st.view.clone());
                let _ = reply.send(r);
            }
            SessionMsg::CancelConfirm(reply) => {
                let _ = reply.send(self.apply(&me, st, Event::CancelConfirm).await);
            }
            SessionMsg::CancelQueue(reply) => {
                let r = self.leave_queue(&me, st, EndReason::Cancelled).await;
                let _ = reply.send(r);
            }
            SessionMsg::Over(reply) => {
                let r = if st.machine.phase == Phase::Queue {
                    self.leave_queue(&me, st, EndReason::Over).await
                } else {
                    self.apply(&me, st, Event::Over).await
                };
                let _ = reply.send(r);
            }
        }
        Ok(())
    }
}

impl GameSessionActor {
    /// Asks the queue to drop this session, then applies the answer.
    async fn leave_queue(&self, me: &ActorRef<SessionMsg>, st: &mut SessionActorState, reason: EndReason) -> DomainResult<()> {
        if st.machine.phase != Phase::Queue {
            return Err(DomainError::WrongState);
        }
        let ch = self.ctx.channel(st.view.game_id, st.view.node_id).await?;
        let still_queued = ractor::call!(ch, ChannelMsg::Remove, st.view.id).map_err(|e| DomainError::Internal(e.to_string()))?;
        self.apply(me, st, Event::LeftQueue { still_queued, reason }).await
    }

    async fn apply(&self, me: &ActorRef<SessionMsg>, st: &mut SessionActorState, event: Event) -> DomainResult<()> {
        let before = st.machine.status();
        let effects = st.machine.on(event)?;
        count_state(before, st.machine.status());
        let now = self.ctx.clock.now_ms();
        for effect in effects {
            match effect {
                Effect::StartCountdown => {
                    st.timers.set(SessionTimer::Countdown, self.ctx.config.connect_countdown(), me, SessionMsg::CountdownLapsed)
                }
                Effect::CancelCountdown => st.timers.cancel(&SessionTimer::Countdown),
                Effect::StartConnect => st.timers.set(SessionTimer::Connect, self.ctx.config.connect_delay(), me, SessionMsg::Connected),
                Effect::FreeMachine(m) => self.ctx.free_machine(st.view.node_id, m).await,
                Effect::Changed => {
                    self.sync_view(st, now);
                    self.persist(st).await;
                    self.ctx.tell_player(st.record.uid, crate::player::PlayerMsg::SessionChanged(st.view.clone())).await;
                }
                Effect::End(reason) => {
                    let keep_alive = matches!(st.machine.phase, Phase::Leaving(_));
                    self.finish(me, st, reason, now, keep_alive).await;
                }
            }
        }
        Ok(())
    }

    /// Updates the record and view to the machine's phase.
    fn sync_view(&self, st: &mut SessionActorState, now: i64) {
        let Some(status) = st.machine.status() else { return };
        st.view.status = status;
        st.record.status = status as i32;
        match &st.machine.phase {
            Phase::Ready { machine } => {
                st.view.sort = 0;
                st.view.ready_at_ms = Some(now);
                st.record.ready_at = Some(now);
                st.record.machine_id = Some(machine.clone());
            }
            Phase::Playing { .. } => {
                st.view.playing_at_ms = Some(now);
                st.record.playing_at = Some(now);
            }
            _ => {}
        }
    }

    /// Records the end and tells the player; stops unless a grant is still on its way.
    async fn finish(&self, me: &ActorRef<SessionMsg>, st: &mut SessionActorState, reason: EndReason, now: i64, keep_alive: bool) {
        st.timers.cancel(&SessionTimer::Countdown);
        st.timers.cancel(&SessionTimer::Connect);
        if st.record.ended_at.is_none() {
            st.record.status = 0;
            st.record.ended_at = Some(now);
            st.record.end_reason = Some(reason.as_str().to_string());
            self.persist(st).await;
            metrics::counter!("yoo_sessions_ended_total", "reason" => reason.as_str()).increment(1);
            self.ctx
                .tell_player(st.record.uid, crate::player::PlayerMsg::SessionEnded { id: st.view.id, game_id: st.view.game_id, reason })
                .await;
        }
        if !keep_alive {
            me.stop(None);
        } else {
            // The grant is in this mailbox already (the queue sent it before answering).
            tracing::debug!(session_id = st.view.id, "left queue with a grant in flight");
        }
    }

    async fn persist(&self, st: &SessionActorState) {
        let repo = self.ctx.store.sessions.clone();
        let record = st.record.clone();
        let r = tokio::task::spawn_blocking(move || repo.update(&record)).await;
        if !matches!(r, Ok(Ok(()))) {
            tracing::error!(session_id = st.record.id, "session record write failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use EndReason::*;

    fn m(s: &str) -> MachineId {
        s.to_string()
    }

    /// Runs `events` from QUEUE and checks the final phase and the effects of the last event.
    fn check(events: &[Event], phase: Phase, last_effects: Result<Vec<Effect>, DomainError>) {
        let mut sm = SessionMachine::default();
        let mut last = Ok(vec![]);
        for e in events {
            last = sm.on(e.clone());
        }
        assert_eq!(sm.phase, phase, "after {events:?}");
        assert_eq!(last, last_effects, "after {events:?}");
    }

    #[test]
    fn transitions() {
        use Effect::*;
        use Event::*;
        let g = || Granted(m("a"));
        check(&[g()], Phase::Ready { machine: m("a") }, Ok(vec![StartCountdown, Changed]));
        check(&[g(), Confirm], Phase::Connecting { machine: m("a") }, Ok(vec![CancelCountdown, StartConnect, Changed]));
        check(&[g(), Confirm, Connected], Phase::Playing { machine: m("a") }, Ok(vec![Changed]));
        check(&[g(), CountdownLapsed], Phase::Ended(Missed), Ok(vec![FreeMachine(m("a")), End(Missed)]));
        check(&[g(), CancelConfirm], Phase::Ended(GaveUp), Ok(vec![CancelCountdown, FreeMachine(m("a")), End(GaveUp)]));
        check(
            &[g(), Confirm, CancelConfirm],
            Phase::Ended(GaveUp),
            Ok(vec![CancelCountdown, FreeMachine(m("a")), End(GaveUp)]),
        );
        check(
            &[g(), Confirm, Connected, Over],
            Phase::Ended(EndReason::Over),
            Ok(vec![CancelCountdown, FreeMachine(m("a")), End(EndReason::Over)]),
        );
        check(&[LeftQueue { still_queued: true, reason: Cancelled }], Phase::Ended(Cancelled), Ok(vec![End(Cancelled)]));
        // Left the queue while a grant was on its way: the machine goes straight back.
        check(
            &[LeftQueue { still_queued: false, reason: Cancelled }, g()],
            Phase::Ended(Cancelled),
            Ok(vec![FreeMachine(m("a")), End(Cancelled)]),
        );
        // A late grant after the end is returned too.
        check(&[g(), CountdownLapsed, Granted(m("b"))], Phase::Ended(Missed), Ok(vec![FreeMachine(m("b"))]));
    }

    #[test]
    fn refused_events_change_nothing() {
        use Event::*;
        check(&[Confirm], Phase::Queue, Err(DomainError::WrongState));
        check(&[CancelConfirm], Phase::Queue, Err(DomainError::WrongState));
        check(&[CountdownLapsed], Phase::Queue, Err(DomainError::WrongState));
        check(&[Granted(m("a")), Connected], Phase::Ready { machine: m("a") }, Err(DomainError::WrongState));
        check(&[Granted(m("a")), Confirm, Confirm], Phase::Connecting { machine: m("a") }, Err(DomainError::WrongState));
        // The countdown lapsing after a confirm is a stale timer: refused.
        check(&[Granted(m("a")), Confirm, CountdownLapsed], Phase::Connecting { machine: m("a") }, Err(DomainError::WrongState));
        check(&[Granted(m("a")), CountdownLapsed, Confirm], Phase::Ended(Missed), Err(DomainError::UnknownSession));
    }
}
