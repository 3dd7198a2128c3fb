//! The queue of one game on one node: who waits, in what order, and who gets the next machine.
//!
//! A waiting session is a compact [`Waiting`] entry here (no actor of its own); its place comes
//! from [`LaneQueue`] (lanes and weighted fair admission, see `lanes`) and is written to storage
//! when it joins, so a restart rebuilds the same order. [`ChannelActor`] asks the node's machine
//! pool for a machine while anyone waits, hands each granted machine to the head of the queue by
//! starting its game-session actor, measures the admission rate, and keeps the ranks players see
//! fresh.
//!
//! Hand-off invariant (guarded by `pool_grants_machine_once` and the platform tests):
//! 1. While the queue is non-empty the channel has exactly one demand registered with the pool.
//! 2. A grant pops the head and starts its session actor (holding the machine) before the channel
//!    handles anything else, so a later `Remove` of that session answers `false` and the caller
//!    finds the session actor instead.
//! 3. A grant that finds the queue empty, or whose session cannot start, goes back to the pool.
//!
//! Rank freshness: while anyone waits, a tick every `rank_refresh / RANK_SLICES` walks the queue
//! once in admission order. Each tick serves one slice of the players (session id modulo
//! [`RANK_SLICES`]); a player of that slice whose rank moved since it was last shown, and who has
//! a socket, gets the new state pushed. So every connected player's rank is refreshed at least
//! every `rank_refresh` (plus the tick's own time and the delivery), the pushes of one period are
//! spread evenly over it instead of leaving in one burst that would hold up the READY pushes
//! behind them, and a tick costs one pass over the lane heads plus a lookup per player of its
//! slice. The walk's own CPU time is recorded in `yoo_rank_refresh_cpu_seconds` (its `_sum` is the total).

use std::collections::VecDeque;
use std::sync::Arc;

use engine::Timers;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use crate::ctx::Ctx;
use crate::error::DomainResult;
use crate::game_session::SessionKey;
use crate::game_session::{MachineId, Phase, SessionInit};
use crate::lanes::{Lane, LaneQueue, Place};
use crate::machine_pool::PoolMsg;
use crate::small_str::SmallStr;
use crate::view::{GameState, Push, SessionView, Status};

/// One waiting session.
#[derive(Debug, Clone, Default)]
pub struct Waiting {
    pub session_id: i64,
    pub uid: i64,
    pub device_no: SmallStr,
    pub since_ms: i64,
    /// The rank this player was last shown (0: none yet).
    pub told: u64,
}

/// Rank refresh ticks per `rank_refresh` period; each serves one slice of the players.
pub const RANK_SLICES: u64 = 5;

/// What a channel shows of its game and node in every view.
#[derive(Debug, Clone)]
pub struct ChannelMeta {
    pub game_id: i64,
    pub game_name: Arc<str>,
    pub game_logo: Arc<str>,
    pub node_id: i64,
    pub node_name: Arc<str>,
}

/// A restored entry: the waiting session and its stored place.
pub type Restored = (Waiting, Place);

pub enum ChannelMsg {
    /// Join the queue in `lane`; replies with the view (exact rank).
    Enqueue(Waiting, Lane, RpcReplyPort<DomainResult<SessionView>>),
    /// Leave the queue; replies whether the session was still in it.
    Remove(i64, RpcReplyPort<bool>),
    /// Move a waiting session to another device (cross-screen); replies whether it waits here.
    Move(i64, String, RpcReplyPort<Option<SessionView>>),
    /// Move a waiting session to a better lane; replies with the new view, None if not waiting.
    ChangeLane(i64, Lane, RpcReplyPort<Option<SessionView>>),
    /// The view of a waiting session with its exact rank; None if it does not wait here.
    Get(i64, RpcReplyPort<Option<SessionView>>),
    /// What a player joining `lane` now would see: (players ahead, expected wait in seconds).
    Preview(Lane, RpcReplyPort<(u64, u64)>),
    /// The pool grants a machine for the head of the queue.
    Grant(MachineId),
    /// Rebuild from storage after a restart (before any traffic).
    Restore { virtual_time: u64, entries: Vec<Restored> },
    /// Number waiting (tests, metrics).
    Len(RpcReplyPort<usize>),
    /// Timer: push the new state to the players of the next slice whose rank moved.
    RefreshRanks,
}

/// Key of a channel: (game id, node id).
pub type ChannelKey = (i64, i64);

pub struct ChannelActor {
    pub ctx: Arc<Ctx>,
}

/// Admissions over the last window, for the expected wait.
#[derive(Debug, Default)]
pub struct AdmissionRate {
    times: VecDeque<i64>,
}

/// How far back the admission rate looks.
const RATE_WINDOW_MS: i64 = 5 * 60_000;

impl AdmissionRate {
    pub fn record(&mut self, now: i64) {
        self.times.push_back(now);
        while self.times.front().is_some_and(|t| now - *t > RATE_WINDOW_MS) {
            self.times.pop_front();
        }
    }

    /// Admissions per second, measured over the window (at least 10 s of it); None before any.
    pub fn per_sec(&self, now: i64) -> Option<f64> {
        let start = self.times.partition_point(|t| now - *t > RATE_WINDOW_MS);
        let first = *self.times.get(start)?;
        let span_ms = (now - first).clamp(10_000, RATE_WINDOW_MS);
        Some((self.times.len() - start) as f64 * 1000.0 / span_ms as f64)
    }

    /// Expected seconds until `rank` is admitted; without a measurement, a minute per place.
    pub fn wait_secs(&self, rank: u64, now: i64) -> u64 {
        match self.per_sec(now) {
            Some(r) if r > 0.0 => (rank as f64 / r).ceil() as u64,
            _ => rank * 60,
        }
    }
}

pub struct ChannelState {
    meta: ChannelMeta,
    queue: LaneQueue<Waiting>,
    /// Whether a demand is registered with the pool (invariant 1).
    demanding: bool,
    pool: ActorRef<PoolMsg>,
    rate: AdmissionRate,
    /// The next rank refresh tick, set while anyone waits.
    timers: Timers<()>,
    /// Ticks so far: the slice of the next tick is `tick % RANK_SLICES`.
    tick: u64,
    /// When the pending tick is due: ticks keep a fixed cadence whatever the walks take.
    tick_due: tokio::time::Instant,
    /// A tick is armed or its message is on its way (the timer's own state cannot tell the
    /// second: a fired timer's task may finish after its message is handled).
    tick_pending: bool,
}

impl Actor for ChannelActor {
    type Msg = ChannelMsg;
    type State = ChannelState;
    type Arguments = ChannelKey;

    async fn pre_start(&self, _me: ActorRef<ChannelMsg>, key: ChannelKey) -> Result<ChannelState, ActorProcessingErr> {
        let pool = self.ctx.pool(key.1).map_err(|e| format!("no pool for node {}: {e}", key.1))?;
        let meta = self.ctx.channel_meta(key).await.map_err(|e| format!("channel {key:?}: {e}"))?;
        Ok(ChannelState {
            meta,
            queue: LaneQueue::default(),
            demanding: false,
            pool,
            rate: AdmissionRate::default(),
            timers: Timers::default(),
            tick: 0,
            tick_due: tokio::time::Instant::now(),
            tick_pending: false,
        })
    }

    async fn handle(&self, me: ActorRef<ChannelMsg>, msg: ChannelMsg, st: &mut ChannelState) -> Result<(), ActorProcessingErr> {
        match msg {
            ChannelMsg::Enqueue(w, lane, reply) => {
                let id = w.session_id;
                let rank = st.queue.push(id, lane, w);
                let place = st.queue.place(id).expect("just pushed");
                if let Err(e) = self.ctx.store_place(id, &place).await {
                    st.queue.remove(id);
                    let _ = reply.send(Err(e));
                } else {
                    if let Some(w) = st.queue.get_mut(id) {
                        w.told = rank;
                    }
                    metrics::gauge!("yoo_players_waiting").increment(1.0);
                    crate::game_session::count_state(None, Some(Status::Queue));
                    self.changed(&me, st);
                    let _ = reply.send(Ok(self.view(st, id, rank)));
                }
            }
            ChannelMsg::Remove(id, reply) => {
                let removed = st.queue.remove(id).is_some();
                if removed {
                    self.left();
                    self.changed(&me, st);
                }
                let _ = reply.send(removed);
            }
            ChannelMsg::ChangeLane(id, lane, reply) => {
                let r = st.queue.change_lane(id, lane).map(|(rank, moved)| {
                    if moved {
                        if let Some(place) = st.queue.place(id) {
                            let ctx = self.ctx.clone();
                            tokio::spawn(async move {
                                let _ = ctx.store_place(id, &place).await;
                            });
                        }
                    }
                    rank
                });
                let view = r.map(|rank| self.view(st, id, rank));
                if let (Some(v), Some(w)) = (&view, st.queue.get_mut(id)) {
                    // The lane shows at once; the others' ranks follow with the refresh.
                    w.told = v.sort;
                    self.ctx.bus.publish(&w.uid, &Push::GameStatus(GameState::Online(v.clone())));
                    self.changed(&me, st);
                }
                let _ = reply.send(view);
            }
            ChannelMsg::Move(id, device, reply) => {
                let rank = st.queue.rank_of(id);
                if let (Some(_), Some(w)) = (rank, st.queue.get_mut(id)) {
                    w.device_no = device.as_str().into();
                    self.ctx.update_record(id, move |r| r.device_no = device).await;
                }
                let _ = reply.send(rank.map(|rank| self.view(st, id, rank)));
            }
            ChannelMsg::Get(id, reply) => {
                let _ = reply.send(st.queue.rank_of(id).map(|rank| self.view(st, id, rank)));
            }
            ChannelMsg::Preview(lane, reply) => {
                let ahead = st.queue.rank_of_place(&st.queue.preview(lane)) - 1;
                let _ = reply.send((ahead, st.rate.wait_secs(ahead + 1, self.ctx.clock.now_ms())));
            }
            ChannelMsg::Grant(machine) => {
                st.demanding = false;
                self.hand_over(&me, st, machine).await;
            }
            ChannelMsg::Restore { virtual_time, entries } => {
                let n = entries.len();
                st.queue = LaneQueue::restore(virtual_time, entries.into_iter().map(|(w, p)| (w.session_id, p, w)));
                if !st.queue.is_empty() {
                    self.changed(&me, st);
                }
                metrics::gauge!("yoo_players_waiting").increment(n as f64);
                for _ in 0..n {
                    crate::game_session::count_state(None, Some(Status::Queue));
                }
            }
            ChannelMsg::Len(reply) => {
                let _ = reply.send(st.queue.len());
            }
            ChannelMsg::RefreshRanks => {
                st.tick_pending = false;
                self.refresh_ranks(st);
                if !st.queue.is_empty() {
                    st.tick_pending = true;
                    // The next tick is due one tick after this one was, not after the walk:
                    // a walk's own time does not stretch the period (a late tick runs at once).
                    let now = tokio::time::Instant::now();
                    st.tick_due = (st.tick_due + self.tick()).max(now);
                    st.timers.set((), st.tick_due - now, &me, ChannelMsg::RefreshRanks);
                }
            }
        }
        if !st.demanding {
            if let Some((_, head)) = st.queue.front() {
                st.demanding = true;
                let _ = st.pool.send_message(PoolMsg::Demand {
                    channel: (st.meta.game_id, st.meta.node_id),
                    since_ms: head.since_ms,
                    reply_to: me.clone(),
                });
            }
        }
        Ok(())
    }
}

impl ChannelActor {
    /// The view of a waiting session at `rank`.
    fn view(&self, st: &ChannelState, id: i64, rank: u64) -> SessionView {
        match (st.queue.place(id), st.queue.get(id)) {
            (Some(place), Some(w)) => self.view_of(st, id, &place, w, Status::Queue, rank),
            _ => self.view_of(
                st,
                id,
                &Place {
                    tag: 0,
                    seq: 0,
                    lane: Lane::Normal,
                },
                &Waiting::default(),
                Status::Queue,
                rank,
            ),
        }
    }

    fn view_of(&self, st: &ChannelState, id: i64, place: &Place, w: &Waiting, status: Status, rank: u64) -> SessionView {
        view_of(&st.meta, self.ctx.config.connect_countdown_secs, id, place, w, status, rank)
    }

    /// Bookkeeping for a session that left the queue (any way).
    fn left(&self) {
        metrics::gauge!("yoo_players_waiting").decrement(1.0);
        crate::game_session::count_state(Some(Status::Queue), None);
    }

    /// Gives `machine` to the head of the queue by starting its session actor (invariant 2).
    async fn hand_over(&self, me: &ActorRef<ChannelMsg>, st: &mut ChannelState, machine: MachineId) {
        while let Some((id, place, w)) = st.queue.pop_front() {
            let rank_view = self.view_of(st, id, &place, &w, Status::Ready, 0);
            self.left();
            let init = SessionInit {
                view: rank_view,
                uid: w.uid,
                phase: Phase::Ready { machine: machine.clone() },
                countdown: self.ctx.config.connect_countdown(),
                fresh: true,
                play_minutes: 0,
            };
            match self.ctx.sessions().get_or_start(&SessionKey::new(id, init)).await {
                Ok(_) => {
                    st.rate.record(self.ctx.clock.now_ms());
                    metrics::counter!("yoo_queue_admissions_total").increment(1);
                    self.changed(me, st);
                    return;
                }
                Err(e) => {
                    tracing::error!(session_id = id, error = %e, "session could not start; next in queue");
                    let now = self.ctx.clock.now_ms();
                    self.ctx
                        .end_session(w.uid, id, st.meta.game_id, crate::view::EndReason::ServerRestart, now)
                        .await;
                }
            }
        }
        let _ = st.pool.send_message(PoolMsg::Free(machine));
    }

    /// The time between two rank refresh ticks.
    fn tick(&self) -> std::time::Duration {
        self.ctx.config.rank_refresh() / RANK_SLICES as u32
    }

    /// Arms the next rank refresh tick unless one is pending (the queue was empty).
    fn changed(&self, me: &ActorRef<ChannelMsg>, st: &mut ChannelState) {
        if !st.tick_pending {
            st.tick_pending = true;
            st.tick_due = tokio::time::Instant::now() + self.tick();
            st.timers.set((), self.tick(), me, ChannelMsg::RefreshRanks);
        }
    }

    /// One tick: walks the queue once in admission order and pushes the new state to each
    /// player of this tick's slice whose rank moved and who has a socket.
    fn refresh_ranks(&self, st: &mut ChannelState) {
        let started = std::time::Instant::now();
        let cpu = crate::clock::thread_cpu_time();
        let slice = st.tick % RANK_SLICES;
        st.tick += 1;
        let (bus, meta, countdown) = (&self.ctx.bus, &st.meta, self.ctx.config.connect_countdown_secs);
        let mut pushed = 0u64;
        st.queue.visit_in_order(
            |id| id.rem_euclid(RANK_SLICES as i64) as u64 == slice,
            |rank, id, place, w| {
                if w.told == rank {
                    return;
                }
                let delivered = bus.publish_with(&w.uid, || {
                    Push::GameStatus(GameState::Online(view_of(meta, countdown, id, place, w, Status::Queue, rank)))
                });
                if delivered > 0 {
                    w.told = rank;
                    pushed += 1;
                }
            },
        );
        metrics::counter!("yoo_rank_pushes_total").increment(pushed);
        metrics::histogram!("yoo_rank_refresh_cpu_seconds").record(crate::clock::thread_cpu_time() - cpu);
        metrics::histogram!("yoo_rank_refresh_seconds").record(started.elapsed().as_secs_f64());
    }
}

/// The view of a waiting (or just admitted) session.
fn view_of(meta: &ChannelMeta, countdown_secs: u64, id: i64, place: &Place, w: &Waiting, status: Status, rank: u64) -> SessionView {
    SessionView {
        id,
        game_id: meta.game_id,
        game_name: meta.game_name.clone(),
        game_logo: meta.game_logo.clone(),
        status,
        device_no: w.device_no.clone(),
        node_id: meta.node_id,
        node_name: meta.node_name.clone(),
        connect_countdown_secs: countdown_secs,
        queued_at_ms: w.since_ms,
        ready_at_ms: None,
        playing_at_ms: None,
        is_fast: place.lane.code(),
        sort: rank,
    }
}

#[cfg(test)]
mod tests {
    use super::AdmissionRate;

    #[test]
    fn wait_follows_the_measured_rate() {
        let mut r = AdmissionRate::default();
        assert_eq!(r.wait_secs(5, 0), 300, "no measurement yet: a minute a place");
        for i in 0..100 {
            r.record(i * 100); // 10 per second over 10 s
        }
        assert_eq!(r.per_sec(10_000).map(|x| x.round()), Some(10.0));
        assert_eq!(r.wait_secs(50, 10_000), 5);
        // Old admissions fall out of the window.
        assert_eq!(r.wait_secs(1, 10 * 60_000), 60);
    }
}
