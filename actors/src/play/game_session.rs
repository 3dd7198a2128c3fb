//! One game session from the moment it holds a machine: READY(3) → CONNECTING(4) → PLAYING(5),
//! and its end. While a session waits in QUEUE(1) it is a compact entry in its node's queue
//! (`queue.rs`), not an actor: a hundred thousand waiting players cost a queue entry each.
//!
//! [`SessionMachine`] is the pure state machine: it takes an event and returns the effects the
//! actor must carry out (timers, giving the machine back, persistence, pushes).
//! [`GameSessionActor`] carries them out. The session holds its machine until it ends, and always
//! gives it back to its node's queue, which hands it to the next player at once.

use crate::play::PlayCtx;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Duration;

use engine::Timers;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use storage::GameSessionRecord;

use crate::ctx::Ctx;
use crate::error::{DomainError, DomainResult};
use crate::view::{EndReason, GameState, Notice, Push, SessionView, Status};

/// A machine's id, as declared for its node.
pub type MachineId = String;

#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    Ready {
        machine: MachineId,
    },
    Connecting {
        machine: MachineId,
    },
    Playing {
        machine: MachineId,
    },
    Ended(EndReason),
    /// Back in the queue at its place: its machine was lost before the player could use it.
    Requeued,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The ready countdown ran out.
    CountdownLapsed,
    /// The player confirmed (confirmConnect).
    Confirm,
    /// The machine attached the stream.
    Connected,
    /// The player gave up READY or cancelled CONNECTING (cancelConfirm); `reason` is `GaveUp`,
    /// or `Cancelled` for a cancelQue that arrived just after the machine did.
    GiveUp(EndReason),
    /// The player ended the game (over), from any state.
    Over,
    /// The player's play time ran out.
    TimeUp,
    /// The server ends the session: its game exited, its host was lost.
    Stopped(EndReason),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    StartCountdown,
    CancelCountdown,
    /// Attach the stream: launch the game on a host's slot (PLAYING when its first frame is
    /// encoded), or, on a static machine, the connect delay.
    StartConnect,
    /// Give the machine back to the node's queue.
    FreeMachine(MachineId),
    /// Write the record and push the new state.
    Changed,
    /// The session is over: write, push, stop.
    End(EndReason),
    /// The session goes back to its node's queue at the place it had, and the actor stops.
    Requeue,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SessionMachine {
    pub phase: Phase,
}

impl SessionMachine {
    /// A session that has just been handed `machine`.
    pub fn ready(machine: MachineId) -> Self {
        SessionMachine {
            phase: Phase::Ready { machine },
        }
    }

    /// Applies `event`; an event that does not apply is refused and changes nothing.
    pub fn on(&mut self, event: Event) -> DomainResult<Vec<Effect>> {
        use Effect::*;
        use Phase::*;
        let (next, effects) = match (&self.phase, event) {
            (Ended(_) | Requeued, _) => return Err(DomainError::UnknownSession),
            (Ready { machine }, Event::CountdownLapsed) => {
                (Ended(EndReason::Missed), vec![FreeMachine(machine.clone()), End(EndReason::Missed)])
            }
            (Ready { machine }, Event::Confirm) => (
                Connecting { machine: machine.clone() },
                vec![CancelCountdown, StartConnect, Changed],
            ),
            (Connecting { machine }, Event::Connected) => (Playing { machine: machine.clone() }, vec![Changed]),
            (Ready { machine } | Connecting { machine }, Event::GiveUp(reason)) => {
                (Ended(reason), vec![CancelCountdown, FreeMachine(machine.clone()), End(reason)])
            }
            (Ready { machine } | Connecting { machine } | Playing { machine }, Event::Over) => (
                Ended(EndReason::Over),
                vec![CancelCountdown, FreeMachine(machine.clone()), End(EndReason::Over)],
            ),
            (Playing { machine }, Event::TimeUp) => (Ended(EndReason::TimeUp), vec![FreeMachine(machine.clone()), End(EndReason::TimeUp)]),
            // A machine lost before the player could use it: no fault of theirs, so they wait
            // again at the head of their lane rather than lose their turn.
            (Ready { machine }, Event::Stopped(EndReason::HostLost)) => {
                (Requeued, vec![CancelCountdown, FreeMachine(machine.clone()), Requeue])
            }
            (Ready { machine } | Connecting { machine } | Playing { machine }, Event::Stopped(reason)) => {
                (Ended(reason), vec![CancelCountdown, FreeMachine(machine.clone()), End(reason)])
            }
            _ => return Err(DomainError::WrongState),
        };
        self.phase = next;
        Ok(effects)
    }

    pub fn status(&self) -> Option<Status> {
        match self.phase {
            Phase::Ready { .. } => Some(Status::Ready),
            Phase::Connecting { .. } => Some(Status::Connecting),
            Phase::Playing { .. } => Some(Status::Playing),
            Phase::Ended(_) | Phase::Requeued => None,
        }
    }
}

/// Registry key of a session: its id, carrying what it starts with.
#[derive(Clone)]
pub struct SessionKey {
    pub id: i64,
    /// What the session starts with; a key made only to look a session up has none.
    pub(crate) init: Option<Arc<SessionInit>>,
}

impl SessionKey {
    pub fn new(id: i64, init: SessionInit) -> Self {
        SessionKey {
            id,
            init: Some(Arc::new(init)),
        }
    }

    /// A key to find a running session with (never to start one).
    pub fn lookup(id: i64) -> Self {
        SessionKey { id, init: None }
    }
}

impl PartialEq for SessionKey {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for SessionKey {}
impl Hash for SessionKey {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.id.hash(h)
    }
}
impl std::fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "session {}", self.id)
    }
}

/// What a session actor starts with: the view as the queue left it, the machine, and (after a
/// restart) the phase and the time left on the ready countdown.
#[derive(Debug, Clone)]
pub struct SessionInit {
    pub view: SessionView,
    pub uid: i64,
    pub phase: Phase,
    /// The ready countdown still to run (a restored READY session has less than the full one).
    pub countdown: Duration,
    /// Whether the record must be written as READY now (a fresh hand-off) or is already stored.
    pub fresh: bool,
    /// Minutes of play already charged (a restored PLAYING session goes on from there).
    pub play_minutes: i64,
    /// The host game to launch, when the machine is a game host's slot (`view.stream` says
    /// where it streams).
    pub host_game: Option<Arc<str>>,
    /// When the game is cut whatever its state (`play::cuts`): the actor keeps the cut from
    /// the hand-over (or the restore) on.
    pub cutoff: Option<i64>,
    /// The queue place the session was admitted from (to go back to if its machine is lost
    /// while READY).
    pub place: Option<crate::play::lanes::Place>,
}

pub enum SessionMsg {
    CountdownLapsed,
    /// The stream is attached: the connect delay of a static machine ran out, or the game
    /// host encoded the game's first frame.
    Connected,
    /// The server ends the session (its game exited, its host was lost).
    Stopped(EndReason),
    /// Timer: the game launched on a host's slot showed no frame within `launch_timeout_secs`.
    LaunchLapsed,
    /// Timer: charge the next minute of play.
    ChargeMinute,
    /// Play time was added to the player: a session in its time-up countdown charges again.
    TimeAdded,
    /// Timer: the time-up countdown ran out.
    TimeUpLapsed,
    /// Timer: the session's cut is a lead away: the player is told.
    CutNotice,
    /// Timer: the session's cut is due: the game ends.
    Cut,
    /// The game took its controller's input (its game host said so): not hanging.
    Input,
    /// Restored after a restart on a game host's slot, the session holds it again (its host
    /// linked): where its stream is served.
    Adopted(Arc<crate::view::StreamTarget>),
    /// Move the session to another device (cross-screen).
    Move(String, RpcReplyPort<SessionView>),
    Get(RpcReplyPort<SessionView>),
    Confirm(RpcReplyPort<DomainResult<SessionView>>),
    GiveUp(EndReason, RpcReplyPort<DomainResult<()>>),
    Over(RpcReplyPort<DomainResult<()>>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SessionTimer {
    Countdown,
    /// The connect delay of a static machine, or the launch timeout on a host's slot.
    Connect,
    PlayMinute,
    /// The time-up countdown (`scienceDuration`).
    TimeUp,
    /// The cut's notice and its end (`play::cuts`).
    CutNotice,
    Cut,
}

pub struct GameSessionActor {
    pub ctx: Arc<Ctx>,
}

pub struct SessionActorState {
    machine: SessionMachine,
    uid: i64,
    view: SessionView,
    timers: Timers<SessionTimer>,
    /// The next minute of play to charge.
    minute: i64,
    /// Whether the under-10-minutes notice went out.
    warned: bool,
    /// Play time ran out and the time-up countdown runs: the game lives on until it ends, and
    /// ends then unless play time was added.
    out_of_time: bool,
    /// Started by a hand-over at this time, not restored: `post_start` writes the record.
    fresh: Option<i64>,
    /// The host game launched on confirm (a game host's slot); None on a static machine.
    host_game: Option<Arc<str>>,
    /// The queue place it was admitted from.
    place: Option<crate::play::lanes::Place>,
    /// When its game is cut (kept for a return to the queue).
    cutoff: Option<i64>,
}

impl Actor for GameSessionActor {
    type Msg = SessionMsg;
    type State = SessionActorState;
    type Arguments = SessionInit;

    async fn pre_start(&self, me: ActorRef<SessionMsg>, init: SessionInit) -> Result<Self::State, ActorProcessingErr> {
        let mut st = SessionActorState {
            machine: SessionMachine { phase: init.phase.clone() },
            uid: init.uid,
            view: init.view,
            timers: Timers::default(),
            minute: init.play_minutes,
            warned: false,
            out_of_time: false,
            fresh: None,
            host_game: init.host_game.clone(),
            place: init.place,
            cutoff: init.cutoff,
        };
        count_state(None, st.machine.status());
        match &init.phase {
            Phase::Ready { .. } => st
                .timers
                .set(SessionTimer::Countdown, init.countdown, &me, SessionMsg::CountdownLapsed),
            Phase::Connecting { .. } if st.host_game.is_none() => {
                st.timers
                    .set(SessionTimer::Connect, self.ctx.config.connect_delay(), &me, SessionMsg::Connected)
            }
            // restored on a game host's slot: its first frame makes it PLAYING, within the
            // launch timeout as after a launch
            Phase::Connecting { .. } => st.timers.set(
                SessionTimer::Connect,
                self.ctx.config.launch_timeout(),
                &me,
                SessionMsg::LaunchLapsed,
            ),
            Phase::Playing { .. } => self.schedule_minute(&me, &mut st),
            Phase::Ended(_) | Phase::Requeued => {}
        }
        if let Some(at) = init.cutoff {
            let lead = self.ctx.play_state().ports.gate.cut_notice().map(|n| n.lead_ms);
            let (notice, end) = crate::play::cuts::timers(at, lead, self.ctx.clock.now_ms());
            if let Some(due) = notice {
                st.timers.set(SessionTimer::CutNotice, due, &me, SessionMsg::CutNotice);
            }
            st.timers.set(SessionTimer::Cut, end, &me, SessionMsg::Cut);
        }
        if init.fresh {
            // The player is told at once, from the hand-over itself, so READY pushes leave in
            // admission order; the record is written in `post_start`.
            let now = self.ctx.clock.now_ms();
            st.fresh = Some(now);
            self.sync_view(&mut st, now);
            self.push(&st);
        }
        Ok(st)
    }

    /// A fresh session's record is written after the actor has started, so whoever started it
    /// (the node queue handing over a machine) never waits for a storage write, which can take
    /// a WAL checkpoint's time. The actor's own messages come after this.
    async fn post_start(&self, _me: ActorRef<SessionMsg>, st: &mut Self::State) -> Result<(), ActorProcessingErr> {
        if let Some(now) = st.fresh.take() {
            let fence = self.ctx.node_fence(st.view.node_id);
            crate::ctx::as_owner(fence, self.persist(st, now)).await;
        }
        Ok(())
    }

    async fn handle(&self, me: ActorRef<SessionMsg>, msg: SessionMsg, st: &mut Self::State) -> Result<(), ActorProcessingErr> {
        // In a cluster every write of the node's owner carries its epoch (`storage::ownership`).
        let fence = self.ctx.node_fence(st.view.node_id);
        crate::ctx::as_owner(fence, self.handle_msg(me, msg, st)).await
    }
}

impl GameSessionActor {
    async fn handle_msg(&self, me: ActorRef<SessionMsg>, msg: SessionMsg, st: &mut SessionActorState) -> Result<(), ActorProcessingErr> {
        match msg {
            SessionMsg::CountdownLapsed => self.apply(&me, st, Event::CountdownLapsed).await.unwrap_or(()),
            SessionMsg::Stopped(reason) => {
                if let Err(e) = self.apply(&me, st, Event::Stopped(reason)).await {
                    tracing::debug!(session_id = st.view.id, error = %e, "stopped after its end");
                }
            }
            SessionMsg::Connected => {
                if self.apply(&me, st, Event::Connected).await.is_ok() {
                    st.timers.cancel(&SessionTimer::Connect);
                    self.schedule_minute(&me, st);
                }
            }
            SessionMsg::LaunchLapsed => {
                if matches!(st.machine.phase, Phase::Connecting { .. }) {
                    tracing::warn!(session_id = st.view.id, "the game showed no frame in time; the session ends");
                    let _ = self.apply(&me, st, Event::Stopped(EndReason::GameExited)).await;
                }
            }
            SessionMsg::ChargeMinute => {
                if !st.out_of_time {
                    self.charge_minute(&me, st).await;
                }
            }
            SessionMsg::TimeAdded => {
                if st.out_of_time {
                    self.charge_minute(&me, st).await;
                }
            }
            SessionMsg::TimeUpLapsed => {
                if st.out_of_time {
                    // A last try: time added just now still counts.
                    self.charge_minute(&me, st).await;
                    if st.out_of_time {
                        let _ = self.apply(&me, st, Event::TimeUp).await;
                    }
                }
            }
            SessionMsg::CutNotice => {
                if let Some(n) = self.ctx.play_state().ports.gate.cut_notice() {
                    self.ctx.bus.publish(&st.uid, &Push::Notice(n.notice));
                }
            }
            SessionMsg::Cut => {
                // As the player would end it: a machine given up, a game over.
                let event = match st.machine.phase {
                    Phase::Playing { .. } => Event::Over,
                    _ => Event::GiveUp(EndReason::GaveUp),
                };
                if let Err(e) = self.apply(&me, st, event).await {
                    tracing::debug!(session_id = st.view.id, error = %e, "cut after its end");
                }
            }
            SessionMsg::Move(device, reply) => {
                st.view.device_no = device.as_str().into();
                let id = st.view.id;
                self.ctx.update_record(id, move |r| r.device_no = device).await;
                self.push(st);
                let _ = reply.send(st.view.clone());
            }
            SessionMsg::Get(reply) => {
                let _ = reply.send(st.view.clone());
            }
            SessionMsg::Adopted(target) => {
                tracing::info!(session_id = st.view.id, host = %target.host, slot = target.slot, "session adopted on its game host's slot after the restart");
                st.view.stream = Some(target);
            }
            SessionMsg::Input => {
                // remembered, not pushed: the client asks (gameDuration) when it wants to know
                st.view.last_input_ms = Some(self.ctx.clock.now_ms());
            }
            SessionMsg::Confirm(reply) => {
                let r = self.apply(&me, st, Event::Confirm).await.map(|_| st.view.clone());
                let _ = reply.send(r);
            }
            SessionMsg::GiveUp(reason, reply) => {
                let _ = reply.send(self.apply(&me, st, Event::GiveUp(reason)).await);
            }
            SessionMsg::Over(reply) => {
                let _ = reply.send(self.apply(&me, st, Event::Over).await);
            }
        }
        Ok(())
    }
}

/// Keeps `yoo_sessions{state}` (sessions by state) in step with a transition.
pub fn count_state(before: Option<Status>, after: Option<Status>) {
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

impl GameSessionActor {
    /// Schedules the charge of minute `st.minute`, due `minute * play_minute` after PLAYING began.
    fn schedule_minute(&self, me: &ActorRef<SessionMsg>, st: &mut SessionActorState) {
        let minute_ms = self.ctx.config.play_minute_ms.max(1) as i64;
        let began = st.view.playing_at_ms.unwrap_or_else(|| self.ctx.clock.now_ms());
        let due = began + st.minute * minute_ms - self.ctx.clock.now_ms();
        st.timers.set(
            SessionTimer::PlayMinute,
            Duration::from_millis(due.max(0) as u64),
            me,
            SessionMsg::ChargeMinute,
        );
    }

    /// Charges one minute of play: free time first, then paid, nothing inside a package window.
    /// Under 10 minutes left the player is told once (130123). With nothing left the player is
    /// told (130125, with `scienceDuration`) and the time-up countdown starts: the game lives on
    /// while the player tops up, and ends when the countdown runs out unless play time was
    /// added (then the minute due is charged and play goes on).
    async fn charge_minute(&self, me: &ActorRef<SessionMsg>, st: &mut SessionActorState) {
        if !matches!(st.machine.phase, Phase::Playing { .. }) {
            return;
        }
        let now = self.ctx.clock.now_ms();
        let (uid, id, minute) = (st.uid, st.view.id, st.minute);
        let charged = self
            .ctx
            .db_raw(move |store| -> storage::Result<_> {
                let holdings = crate::play::holdings::Holdings {
                    entitlements: store.assets.entitlements(uid, now)?,
                    ..Default::default()
                };
                let package = holdings.package_window_open(now);
                store.assets.charge_minute(uid, id, minute, package, now)
            })
            .await;
        let topic = uid;
        match charged {
            Ok(Ok((charge, user, _))) => {
                st.minute += 1;
                self.ctx.play_event(crate::play::ports::PlayEvent::MinutePlayed { uid }).await;
                if st.out_of_time {
                    st.out_of_time = false;
                    st.timers.cancel(&SessionTimer::TimeUp);
                }
                let left = user.play_time_free + user.play_time_paid;
                if left >= 10 {
                    st.warned = false;
                }
                if !charge.package && charge.free + charge.paid > 0 && left < 10 && !st.warned {
                    st.warned = true;
                    let notice = Notice::TimeShort {
                        game_id: st.view.game_id,
                        left_minutes: left,
                    };
                    self.ctx.bus.publish(&topic, &Push::Notice(notice));
                }
                self.schedule_minute(me, st);
            }
            Ok(Err(storage::Error::Conflict(_))) => {
                if !st.out_of_time {
                    st.out_of_time = true;
                    let notice = Notice::TimeUp {
                        game_id: st.view.game_id,
                        science_duration_secs: self.ctx.config.science_duration_secs,
                    };
                    self.ctx.bus.publish(&topic, &Push::Notice(notice));
                    st.timers.set(
                        SessionTimer::TimeUp,
                        self.ctx.config.science_duration(),
                        me,
                        SessionMsg::TimeUpLapsed,
                    );
                }
            }
            other => {
                tracing::error!(session_id = id, minute, result = ?other.map(|r| r.map(|_| ())), "play minute not charged; retrying");
                st.timers
                    .set(SessionTimer::PlayMinute, Duration::from_secs(1), me, SessionMsg::ChargeMinute);
            }
        }
    }

    async fn apply(&self, me: &ActorRef<SessionMsg>, st: &mut SessionActorState, event: Event) -> DomainResult<()> {
        let before = st.machine.status();
        let effects = st.machine.on(event)?;
        count_state(before, st.machine.status());
        let now = self.ctx.clock.now_ms();
        for effect in effects {
            match effect {
                Effect::StartCountdown => st.timers.set(
                    SessionTimer::Countdown,
                    self.ctx.config.connect_countdown(),
                    me,
                    SessionMsg::CountdownLapsed,
                ),
                Effect::CancelCountdown => st.timers.cancel(&SessionTimer::Countdown),
                Effect::StartConnect => match (&st.host_game, &st.machine.phase) {
                    (Some(game), Phase::Connecting { machine }) => {
                        // PLAYING comes with the host's first frame, not on a timer.
                        let launch = crate::play::queue::QueueMsg::Launch {
                            machine: machine.clone(),
                            session_id: st.view.id,
                            uid: st.uid,
                            game: game.clone(),
                        };
                        if let Ok(q) = self.ctx.queue(st.view.node_id) {
                            let _ = q.send_message(launch);
                        }
                        st.timers.set(
                            SessionTimer::Connect,
                            self.ctx.config.launch_timeout(),
                            me,
                            SessionMsg::LaunchLapsed,
                        );
                    }
                    _ => st
                        .timers
                        .set(SessionTimer::Connect, self.ctx.config.connect_delay(), me, SessionMsg::Connected),
                },
                Effect::FreeMachine(m) => self.ctx.release_machine(st.view.node_id, m, st.view.id),
                Effect::Changed => {
                    self.sync_view(st, now);
                    self.persist(st, now).await;
                    if st.view.status == Status::Playing {
                        self.record_played(st, now).await;
                    }
                    self.push(st);
                }
                Effect::End(reason) => {
                    Self::cancel_all(st);
                    self.ctx.end_session(st.uid, st.view.id, st.view.game_id, reason, now).await;
                    me.stop(None);
                }
                Effect::Requeue => {
                    Self::cancel_all(st);
                    let back = st.place.map(|place| crate::play::queue::QueueMsg::Requeue {
                        waiting: crate::play::queue::Waiting {
                            session_id: st.view.id,
                            uid: st.uid,
                            game_id: st.view.game_id,
                            device_no: st.view.device_no.clone(),
                            since_ms: st.view.queued_at_ms,
                            cutoff: st.cutoff,
                            requeues: st.view.requeues.saturating_add(1),
                            ..Default::default()
                        },
                        place,
                    });
                    let sent = match (back, self.ctx.queue(st.view.node_id)) {
                        (Some(msg), Ok(q)) => q.send_message(msg).is_ok(),
                        _ => false,
                    };
                    if !sent {
                        // No place to go back to (or no queue): the session ends as it did.
                        self.ctx
                            .end_session(st.uid, st.view.id, st.view.game_id, EndReason::HostLost, now)
                            .await;
                    }
                    me.stop(None);
                }
            }
        }
        Ok(())
    }

    fn cancel_all(st: &mut SessionActorState) {
        for t in [
            SessionTimer::Countdown,
            SessionTimer::Connect,
            SessionTimer::PlayMinute,
            SessionTimer::TimeUp,
            SessionTimer::CutNotice,
            SessionTimer::Cut,
        ] {
            st.timers.cancel(&t);
        }
    }

    /// Updates the view to the machine's phase.
    fn sync_view(&self, st: &mut SessionActorState, now: i64) {
        let Some(status) = st.machine.status() else { return };
        st.view.status = status;
        st.view.sort = 0;
        match status {
            Status::Ready => st.view.ready_at_ms = Some(now),
            Status::Playing => st.view.playing_at_ms = Some(now),
            Status::Queue | Status::Connecting => {}
        }
    }

    fn push(&self, st: &SessionActorState) {
        self.ctx.bus.publish(&st.uid, &Push::GameStatus(GameState::Online(st.view.clone())));
    }

    /// The game becomes the player's most recently played one (social.md §2.4), before the
    /// PLAYING push: a client that sees the game playing finds it in its recent list.
    async fn record_played(&self, st: &SessionActorState, now: i64) {
        let (uid, game_id) = (st.uid, st.view.game_id);
        if let Err(e) = self.ctx.db(move |s| s.collect.record_played(uid, game_id, now)).await {
            tracing::error!(session_id = st.view.id, uid, game_id, error = %e, "recently played not recorded");
        }
    }

    /// Writes the session's status, times and machine.
    async fn persist(&self, st: &SessionActorState, now: i64) {
        let machine = match &st.machine.phase {
            Phase::Ready { machine } | Phase::Connecting { machine } | Phase::Playing { machine } => Some(machine.clone()),
            Phase::Ended(_) | Phase::Requeued => None,
        };
        let (id, status, ready_at, playing_at) = (st.view.id, st.view.status as i32, st.view.ready_at_ms, st.view.playing_at_ms);
        let ok = self
            .ctx
            .update_record(id, move |r: &mut GameSessionRecord| {
                r.status = status;
                r.machine_id = machine;
                r.ready_at = ready_at.or(r.ready_at).or(Some(now));
                r.playing_at = playing_at.or(r.playing_at);
            })
            .await;
        if !ok {
            tracing::error!(session_id = id, "session record write failed");
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

    /// Runs `events` from READY and checks the final phase and the effects of the last event.
    fn check(events: &[Event], phase: Phase, last_effects: Result<Vec<Effect>, DomainError>) {
        let mut sm = SessionMachine::ready(m("a"));
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
        check(
            &[Confirm],
            Phase::Connecting { machine: m("a") },
            Ok(vec![CancelCountdown, StartConnect, Changed]),
        );
        check(&[Confirm, Connected], Phase::Playing { machine: m("a") }, Ok(vec![Changed]));
        check(&[CountdownLapsed], Phase::Ended(Missed), Ok(vec![FreeMachine(m("a")), End(Missed)]));
        check(
            &[GiveUp(GaveUp)],
            Phase::Ended(GaveUp),
            Ok(vec![CancelCountdown, FreeMachine(m("a")), End(GaveUp)]),
        );
        check(
            &[GiveUp(Cancelled)],
            Phase::Ended(Cancelled),
            Ok(vec![CancelCountdown, FreeMachine(m("a")), End(Cancelled)]),
        );
        check(
            &[Confirm, GiveUp(GaveUp)],
            Phase::Ended(GaveUp),
            Ok(vec![CancelCountdown, FreeMachine(m("a")), End(GaveUp)]),
        );
        check(
            &[Confirm, Connected, Event::Over],
            Phase::Ended(EndReason::Over),
            Ok(vec![CancelCountdown, FreeMachine(m("a")), End(EndReason::Over)]),
        );
        check(
            &[Confirm, Connected, TimeUp],
            Phase::Ended(EndReason::TimeUp),
            Ok(vec![FreeMachine(m("a")), End(EndReason::TimeUp)]),
        );
        for events in [&[][..], &[Confirm], &[Confirm, Connected]] {
            for reason in [GameExited, HostLost] {
                let mut all = events.to_vec();
                all.push(Stopped(reason));
                if events.is_empty() && reason == HostLost {
                    // READY, the machine lost before the player could use it: back in the queue.
                    check(&all, Phase::Requeued, Ok(vec![CancelCountdown, FreeMachine(m("a")), Requeue]));
                    continue;
                }
                check(
                    &all,
                    Phase::Ended(reason),
                    Ok(vec![CancelCountdown, FreeMachine(m("a")), End(reason)]),
                );
            }
        }
        let mut requeued = SessionMachine::ready(m("a"));
        requeued.on(Stopped(HostLost)).unwrap();
        assert_eq!(requeued.on(Confirm), Err(DomainError::UnknownSession), "the actor is done with it");
    }

    #[test]
    fn refused_events_change_nothing() {
        use Event::*;
        let ready = || Phase::Ready { machine: m("a") };
        check(&[Connected], ready(), Err(DomainError::WrongState));
        check(&[TimeUp], ready(), Err(DomainError::WrongState));
        check(
            &[Confirm, Confirm],
            Phase::Connecting { machine: m("a") },
            Err(DomainError::WrongState),
        );
        // The countdown lapsing after a confirm is a stale timer: refused.
        check(
            &[Confirm, CountdownLapsed],
            Phase::Connecting { machine: m("a") },
            Err(DomainError::WrongState),
        );
        check(
            &[Confirm, Connected, GiveUp(EndReason::GaveUp)],
            Phase::Playing { machine: m("a") },
            Err(DomainError::WrongState),
        );
        check(
            &[CountdownLapsed, Confirm],
            Phase::Ended(EndReason::Missed),
            Err(DomainError::UnknownSession),
        );
        check(
            &[Event::Over, Stopped(EndReason::HostLost)],
            Phase::Ended(EndReason::Over),
            Err(DomainError::UnknownSession),
        );
    }
}
