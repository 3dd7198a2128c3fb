//! The queue of one server node: who waits for a machine of that node, whatever their game, in
//! what order, and the node's machines themselves.
//!
//! The machines of a node are shared by every game, so the node has one queue: a player's rank
//! is the number of players who will be admitted before them on that node, and rank 1 means the
//! next machine freed on the node is theirs. Each entry carries its game; the lanes' weighted
//! fair order (`lanes.rs`) applies across all games of the node.
//!
//! A waiting session is a compact [`Waiting`] entry here (no actor of its own); its place comes
//! from [`LaneQueue`] and is written to storage when it joins, so a restart rebuilds the same
//! order. [`QueueActor`] owns the node's machines ([`PoolState`]) too: a machine that comes back
//! goes straight to the head of the queue by starting its game-session actor, in the same
//! message, with no round trip to another actor.
//!
//! Hand-off invariant (guarded by `pool_grants_machine_once`, `admission_order_is_the_shown_ranks`
//! and the platform tests):
//! 1. A free machine and a waiting player never coexist once a message is handled: a join, a
//!    freed machine and a restore each admit heads while both are there.
//! 2. An admission pops the head and starts its session actor (holding the machine) before the
//!    queue handles anything else, so a later `Remove` of that session answers `false` and the
//!    caller finds the session actor instead.
//! 3. A machine whose head cannot start goes to the next head, and back to the free machines
//!    when the queue is empty.
//! 4. A queue restarted by its supervisor (a failed handler) rebuilds itself from storage: the
//!    waiting players in their stored places, the machines of the node's live sessions out
//!    (`a_failed_queue_rebuilds_itself_from_storage`), the linked hosts' machines as the host
//!    table (kept across restarts in [`NodeShared`]) has them; a machine released while it
//!    restarts comes back (releases are acknowledged and sent again, `Ctx::release_machine`),
//!    and the gauges it keeps equal the rebuilt state
//!    (`a_restarted_queue_counts_what_it_rebuilt`, `a_machine_released_during_a_restart_comes_back`).
//!
//! Game hosts (`hosts.rs`): the queue owns its node's [`HostTable`] and carries out what each
//! change of it means: a slot reported Free joins the pool (the head gets it in the same
//! message), a confirmed session's game is launched on its slot, a session's end tells the host
//! to end the game and the machine comes back only when the host reports the slot Free again, a
//! host silent for `HOST_TIMEOUT_MS` (tokio time) or whose link closes loses its machines and
//! the sessions on them end.
//!
//! Rank freshness (see `ranks.rs` for the structure): while anyone waits, a tick every
//! `rank_refresh / RANK_SLICES` serves one slice of the *connected* waiting players (session id
//! modulo [`RANK_SLICES`]): each one's exact rank is computed (a binary search per lane) and
//! pushed when it moved since it was last shown. The cost of a period is proportional to the
//! connected waiting players, not to the length of the queue, and a slice is worked through in
//! steps of at most [`RANK_STEP_BUDGET`](crate::play::ranks::RANK_STEP_BUDGET), each step its own
//! message, so a machine that comes back waits at most one step before it is handed over. The walk's time is recorded in
//! `yoo_rank_refresh_seconds` and its CPU time (the rank lookups and the encoding of its pushes)
//! in `yoo_rank_refresh_cpu_seconds`, once per slice.

use crate::play::PlayCtx;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use engine::Timers;
use parking_lot::Mutex;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use storage::{Game, GameSessionRecord};

use crate::ctx::Ctx;
use crate::error::DomainResult;
use crate::play::cuts::{Cuts, Stage};
use crate::play::game_session::{MachineId, Phase, SessionInit, SessionKey, SessionMsg};
use crate::play::hosts::{HostEffect, HostEvent, HostHello, HostLink, HostRefusal, HostSink, HostTable};
use crate::play::lanes::{IdMap, Lane, LaneQueue, Place};
use crate::play::machine_pool::PoolState;
use crate::play::ranks::{Seen, Watchers, RANK_SLICES};
use crate::play::wait::{AdmissionRate, WaitRange};
use crate::small_str::SmallStr;
use crate::view::{GameState, Push, SessionView, Status};

/// One waiting session.
#[derive(Debug, Clone, Default)]
pub struct Waiting {
    pub session_id: i64,
    pub uid: i64,
    pub game_id: i64,
    pub device_no: SmallStr,
    pub since_ms: i64,
    /// The rank this player was last shown (0: none yet).
    pub told: u64,
    /// The player had a socket when last seen (join, a socket opening or closing, a push).
    pub connected: bool,
    /// The entry is in the rank refresh's list of connected players.
    pub listed: bool,
    /// When the game is cut whatever its state (ms; `play::cuts`).
    pub cutoff: Option<i64>,
    /// How many times the session came back after its machine was lost while READY.
    pub requeues: u32,
}

/// What a queue shows of a game in every view, and the host game it launches.
#[derive(Debug, Clone, PartialEq)]
pub struct GameMeta {
    pub name: Arc<str>,
    pub logo: Arc<str>,
    pub host_game: Arc<str>,
}

impl GameMeta {
    pub fn of(game: &Game) -> GameMeta {
        GameMeta {
            name: game.name.as_str().into(),
            logo: crate::view::game_logo(game).into(),
            host_game: game.host_game.as_str().into(),
        }
    }
}

/// What a node's queue keeps across its restarts by the supervisor: the linked hosts (their
/// links are the facade's sockets, which outlive the actor, and nothing of them is in storage),
/// and what the queue has added to the gauges, so that a restarted queue corrects them to what
/// it rebuilt (a failed actor never runs `post_stop`).
#[derive(Default)]
pub struct NodeShared {
    pub hosts: Mutex<HostTable>,
    counted: Mutex<Counted>,
    /// Who owns the node's queue: this process alone, or (in a cluster) the holder of its lease.
    owner: Mutex<NodeOwner>,
    /// Set by the queue's first start: a start after it is a restart by the supervisor, and the
    /// queue rebuilds itself from storage (the platform, or a takeover, restores the first one).
    pub(crate) started: Arc<AtomicBool>,
}

/// Who owns a node's queue, its sessions and its hosts' slots.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum NodeOwner {
    /// One process owns every node (no cluster): its writes are not fenced.
    #[default]
    Alone,
    /// This process holds the node's lease, and its claim's epoch fences its writes.
    Mine(storage::ownership::Fence),
    /// Another process owns it, or no one does now (between a lease's loss and a takeover).
    /// The fence is the last this process held (epoch 0 if none): a write still made with it
    /// (an actor not yet stopped) is refused once another process has claimed the node.
    Elsewhere(storage::ownership::Fence),
}

impl NodeOwner {
    /// Whether the node's queue runs here.
    pub fn here(&self) -> bool {
        !matches!(self, NodeOwner::Elsewhere(_))
    }

    /// The fence of this process's writes for the node: none alone; in a cluster always one,
    /// the last held once the lease is lost (never an unfenced write).
    pub fn fence(&self) -> Option<storage::ownership::Fence> {
        match self {
            NodeOwner::Alone => None,
            NodeOwner::Mine(f) | NodeOwner::Elsewhere(f) => Some(f.clone()),
        }
    }
}

impl NodeShared {
    /// A node of a cluster: owned elsewhere until this process takes its lease (epoch 0: no
    /// write of this process lands before it has claimed one).
    pub fn leased(node_id: i64) -> NodeShared {
        let never = storage::ownership::Fence::new(&crate::play::queue_name(node_id), 0);
        NodeShared {
            owner: Mutex::new(NodeOwner::Elsewhere(never)),
            ..NodeShared::default()
        }
    }

    pub fn owner(&self) -> NodeOwner {
        self.owner.lock().clone()
    }

    pub(crate) fn set_owner(&self, owner: NodeOwner) {
        *self.owner.lock() = owner;
    }
}

impl std::fmt::Debug for NodeShared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NodeShared({} hosts, {:?})", self.hosts.lock().len(), self.counted.lock())
    }
}

/// The node's part of `yoo_sessions{state="queue"}` (a gauge the session actors share).
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Counted {
    waiting: f64,
}

/// The queue's timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum QueueTimer {
    /// The next rank refresh tick.
    Ranks,
    /// The next time a linked host may have fallen silent.
    Hosts,
    /// The next stage of a waiting session's cut.
    Cut,
}

/// What the queue of a node starts with.
#[derive(Debug, Clone)]
pub struct QueueArgs {
    pub node_id: i64,
    pub node_name: Arc<str>,
    /// The static machines of the configuration (the hosts' come and go).
    pub machines: Vec<MachineId>,
    /// What the node's queue keeps across its restarts (its `started` flag among it).
    pub shared: Arc<NodeShared>,
}

/// A restored entry: the waiting session and its stored place.
pub type Restored = (Waiting, Place);

/// The waiting entry and the place of a stored queued session.
pub fn restored(r: &GameSessionRecord) -> Restored {
    let w = Waiting {
        session_id: r.id,
        uid: r.uid,
        game_id: r.game_id,
        device_no: r.device_no.as_str().into(),
        since_ms: r.created_at,
        cutoff: r.cutoff_at,
        requeues: r.requeues.clamp(0, i64::from(u32::MAX)) as u32,
        ..Waiting::default()
    };
    let place = Place {
        tag: r.tag.max(0) as u64,
        seq: r.seq.max(0) as u64,
        lane: Lane::from_code(r.lane).unwrap_or(Lane::Normal),
    };
    (w, place)
}

pub enum QueueMsg {
    /// Join the queue in `lane`; replies with the view (exact rank).
    Enqueue(Waiting, Lane, GameMeta, RpcReplyPort<DomainResult<SessionView>>),
    /// Leave the queue; replies whether the session was still in it.
    Remove(i64, RpcReplyPort<bool>),
    /// A READY session whose machine was lost before its player could use it (its game host
    /// did not come back) comes back at the place it was admitted from.
    Requeue { waiting: Waiting, place: Place },
    /// Move a waiting session to another device (cross-screen); replies whether it waits here.
    Move(i64, String, RpcReplyPort<Option<SessionView>>),
    /// Move a waiting session to a better lane; replies with the new view, None if not waiting.
    ChangeLane(i64, Lane, RpcReplyPort<Option<SessionView>>),
    /// The view of a waiting session with its exact rank; None if it does not wait here.
    Get(i64, RpcReplyPort<Option<SessionView>>),
    /// What a player joining `lane` now would see, and the asking session's own place.
    Preview(Lane, Option<i64>, RpcReplyPort<Preview>),
    /// The session that held a machine of this node ended: a static machine goes to the head of
    /// the queue at once; a host's slot is ended and reset by its host first. Replies when done
    /// (the sender sends it again until then, `Ctx::release_machine`).
    /// (machine, session, when the release was sent: the hand-off's start)
    Release(MachineId, i64, tokio::time::Instant, RpcReplyPort<()>),
    /// A session on a host's slot was confirmed: launch its game there.
    Launch {
        machine: MachineId,
        session_id: i64,
        uid: i64,
        game: Arc<str>,
    },
    /// `uid` controls the game of the session on a host's slot from now on: the host is told
    /// before the reply. Replies false when no host's slot is held by that session.
    Control(i64, i64, RpcReplyPort<bool>),
    /// A game host of this node says hello (its MAC checked); replies with its link.
    HostHello(HostHello, Arc<dyn HostSink>, RpcReplyPort<Result<HostLink, HostRefusal>>),
    /// A linked host said something.
    HostEvent(HostLink, HostEvent),
    /// A host's link closed.
    HostGone(HostLink),
    /// Timer: hosts not heard for `HOST_TIMEOUT_MS` are lost.
    HostSilence,
    /// Marks a free machine as out, held by the session (restored after a restart); false if it
    /// is not a free machine of this node.
    Claim(MachineId, i64, RpcReplyPort<bool>),
    /// (free, out) machines.
    Stats(RpcReplyPort<(usize, usize)>),
    /// Rebuild from storage after a restart (before any traffic), with the games' names.
    Restore {
        virtual_time: u64,
        entries: Vec<Restored>,
        games: Vec<(i64, GameMeta)>,
    },
    /// Hand free machines to waiting players (after the queue rebuilt itself).
    Admit,
    /// Fail the actor, as a bug would (tests of the supervision path).
    #[cfg(test)]
    Fail,
    /// Number waiting (tests, metrics).
    Len(RpcReplyPort<usize>),
    /// A socket of this user opened or closed: a waiting player's rank refresh follows whether
    /// they have one.
    Watch(i64),
    /// A waiting session's rank, place and the queue's virtual time (tests).
    #[cfg(test)]
    Inspect(i64, RpcReplyPort<Option<(u64, Place, u64)>>),
    /// Timer: a waiting session's cut is due (its notice, or its end).
    Cut,
    /// Timer: start the rank refresh of the next slice.
    RefreshRanks,
    /// The next step of the slice being refreshed.
    RefreshChunk,
}

pub struct QueueActor {
    pub ctx: Arc<Ctx>,
}

/// What a player joining a lane now would see, and where the asking player stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    /// Players who would be ahead of someone joining the lane now.
    pub ahead: u64,
    /// Their expected wait (None: not measured yet).
    pub wait: Option<WaitRange>,
    /// The asking session's own rank and expected wait, when it waits here.
    pub own: Option<(u64, Option<WaitRange>)>,
}

pub struct QueueState {
    node_id: i64,
    node_name: Arc<str>,
    /// The name and logo of each game that has had a player here.
    games: HashMap<i64, GameMeta>,
    queue: LaneQueue<Waiting>,
    /// Each waiting user's session (a user waits at most once).
    by_uid: IdMap<i64>,
    machines: PoolState,
    rate: AdmissionRate,
    /// The connected waiting players by slice, and the slice being refreshed.
    watchers: Watchers,
    /// The next rank refresh tick, set while anyone waits; the next host silence check; the
    /// next stage of a cut.
    timers: Timers<QueueTimer>,
    /// The waiting sessions' cuts (`play::cuts`).
    cuts: Cuts,
    /// The static machines (never withdrawn), to tell them from hosts' slots.
    statics: Vec<MachineId>,
    /// The session holding each static machine that is out: only its release frees it (a
    /// release sent again after a restart must not free the machine of the next player).
    holders: HashMap<MachineId, i64>,
    shared: Arc<NodeShared>,
    /// When the pending tick is due: ticks keep a fixed cadence whatever the walks take.
    tick_due: tokio::time::Instant,
    /// A tick is armed or its message is on its way (the timer's own state cannot tell the
    /// second: a fired timer's task may finish after its message is handled).
    tick_pending: bool,
    /// When the release being handled was sent (the hand-off's start).
    freed_at: Option<tokio::time::Instant>,
    metrics: NodeMetrics,
}

/// The node's own series, resolved once: `node` label, and `lane` where the figure is per lane
/// (never a user, session or machine: bounded cardinality).
struct NodeMetrics {
    /// `yoo_players_waiting{node,lane}`, by `Lane as usize`.
    waiting: [metrics::Gauge; 7],
    /// `yoo_queue_admissions_total{node,lane}`.
    admissions: [metrics::Counter; 7],
    /// `yoo_machines_free{node}`.
    free: metrics::Gauge,
    /// `yoo_handoff_seconds{node}`: a machine back to players waiting → the head's session started.
    handoff: metrics::Histogram,
    /// `yoo_machines_lost_total{node}`: machines that left the pool with their lost host.
    lost: metrics::Counter,
}

impl NodeMetrics {
    fn new(node_id: i64) -> NodeMetrics {
        let node = node_id.to_string();
        let lane = |l: usize| {
            crate::play::lanes::ALL_LANES
                .iter()
                .find(|x| **x as usize == l)
                .map_or("normal", |x| x.label())
        };
        NodeMetrics {
            waiting: std::array::from_fn(|l| metrics::gauge!("yoo_players_waiting", "node" => node.clone(), "lane" => lane(l))),
            admissions: std::array::from_fn(|l| metrics::counter!("yoo_queue_admissions_total", "node" => node.clone(), "lane" => lane(l))),
            free: metrics::gauge!("yoo_machines_free", "node" => node.clone()),
            handoff: metrics::histogram!("yoo_handoff_seconds", "node" => node.clone()),
            lost: metrics::counter!("yoo_machines_lost_total", "node" => node),
        }
    }
}

impl Actor for QueueActor {
    type Msg = QueueMsg;
    type State = QueueState;
    type Arguments = QueueArgs;

    async fn pre_start(&self, me: ActorRef<QueueMsg>, args: QueueArgs) -> Result<QueueState, ActorProcessingErr> {
        let restart = args.shared.started.swap(true, Ordering::SeqCst);
        let mut st = QueueState {
            node_id: args.node_id,
            node_name: args.node_name,
            games: HashMap::new(),
            queue: LaneQueue::default(),
            by_uid: IdMap::default(),
            machines: PoolState::new(args.machines.clone()),
            rate: AdmissionRate::default(),
            watchers: Watchers::default(),
            timers: Timers::default(),
            cuts: Cuts::default(),
            tick_due: tokio::time::Instant::now(),
            tick_pending: false,
            statics: args.machines,
            holders: HashMap::new(),
            shared: args.shared,
            freed_at: None,
            metrics: NodeMetrics::new(args.node_id),
        };
        if restart {
            let fence = st.shared.owner().fence();
            crate::ctx::as_owner(fence, self.recover(&me, &mut st)).await?;
        }
        self.watch_hosts(&me, &mut st);
        sync_gauges(&st);
        Ok(st)
    }

    async fn post_stop(&self, _me: ActorRef<QueueMsg>, st: &mut QueueState) -> Result<(), ActorProcessingErr> {
        // A queue that stops for good takes its counts out of the gauges.
        st.queue = LaneQueue::default();
        st.machines = PoolState::default();
        sync_gauges(st);
        Ok(())
    }

    async fn handle(&self, me: ActorRef<QueueMsg>, msg: QueueMsg, st: &mut QueueState) -> Result<(), ActorProcessingErr> {
        // In a cluster every write of the owner carries its epoch (`storage::ownership`).
        let fence = st.shared.owner().fence();
        crate::ctx::as_owner(fence, self.handle_msg(me, msg, st)).await
    }
}

impl QueueActor {
    async fn handle_msg(&self, me: ActorRef<QueueMsg>, msg: QueueMsg, st: &mut QueueState) -> Result<(), ActorProcessingErr> {
        match msg {
            QueueMsg::Enqueue(w, lane, meta, reply) => {
                st.games.insert(w.game_id, meta);
                let (id, uid, cutoff) = (w.session_id, w.uid, w.cutoff);
                let (rank, place) = st.queue.join(id, lane, w);
                if let Err(e) = self.ctx.store_place(id, &place).await {
                    st.queue.remove(id);
                    let _ = reply.send(Err(e));
                } else {
                    st.by_uid.insert(uid, id);
                    if let Some(w) = st.queue.get_mut(id) {
                        w.told = rank;
                    }
                    self.watch(st, uid);
                    self.changed(&me, st);
                    if let Some(at) = cutoff {
                        self.add_cut(&me, st, id, at);
                    }
                    let _ = reply.send(Ok(self.view(st, id, rank)));
                    // A machine that was free is this player's at once (they are alone).
                    self.admit(&me, st, false).await;
                }
            }
            QueueMsg::Requeue { waiting, place } => {
                let (id, uid, cutoff, requeues) = (waiting.session_id, waiting.uid, waiting.cutoff, waiting.requeues);
                let stored = self
                    .ctx
                    .update_record(id, move |r: &mut GameSessionRecord| {
                        r.status = Status::Queue as i32;
                        r.machine_id = None;
                        r.ready_at = None;
                        r.requeues = i64::from(requeues);
                    })
                    .await;
                if !stored {
                    tracing::error!(session_id = id, "the return to the queue was not stored");
                }
                let rank = st.queue.reinsert(id, place, waiting);
                st.by_uid.insert(uid, id);
                if let Some(w) = st.queue.get_mut(id) {
                    w.told = rank;
                }
                tracing::info!(
                    node_id = st.node_id,
                    session_id = id,
                    rank,
                    "machine lost while READY: back at the head of its lane"
                );
                self.watch(st, uid);
                // The player sees the queue again at once; READY follows when a machine frees.
                let view = self.view(st, id, rank);
                self.ctx.bus.publish(&uid, &Push::GameStatus(GameState::Online(view)));
                self.changed(&me, st);
                if let Some(at) = cutoff {
                    self.add_cut(&me, st, id, at);
                }
                self.admit(&me, st, true).await;
            }
            QueueMsg::Remove(id, reply) => {
                let removed = st.queue.remove(id);
                if let Some((_, w)) = &removed {
                    self.left(st, w);
                    self.changed(&me, st);
                }
                let _ = reply.send(removed.is_some());
            }
            QueueMsg::ChangeLane(id, lane, reply) => {
                let changed = st.queue.change_lane(id, lane);
                // The new place is stored before the queue takes its next message: a second
                // change, or a restart right after the answer, finds this place in storage
                // (a detached write could land after the next one, or never).
                if let (Some((_, true)), Some(place)) = (changed, st.queue.place(id)) {
                    if let Err(e) = self.ctx.store_place(id, &place).await {
                        tracing::error!(session_id = id, error = %e, "new place not stored");
                    }
                }
                let r = changed.map(|(rank, _)| rank);
                let view = r.map(|rank| self.view(st, id, rank));
                if let (Some(v), Some(w)) = (&view, st.queue.get_mut(id)) {
                    // The lane shows at once; the others' ranks follow with the refresh.
                    w.told = v.sort;
                    self.ctx.bus.publish(&w.uid, &Push::GameStatus(GameState::Online(v.clone())));
                    self.changed(&me, st);
                }
                let _ = reply.send(view);
            }
            QueueMsg::Move(id, device, reply) => {
                let rank = st.queue.rank_of(id);
                if let (Some(_), Some(w)) = (rank, st.queue.get_mut(id)) {
                    w.device_no = device.as_str().into();
                    self.ctx.update_record(id, move |r| r.device_no = device).await;
                }
                let _ = reply.send(rank.map(|rank| self.view(st, id, rank)));
            }
            QueueMsg::Get(id, reply) => {
                let _ = reply.send(st.queue.rank_of(id).map(|rank| self.view(st, id, rank)));
            }
            QueueMsg::Preview(lane, asking, reply) => {
                let now = self.ctx.clock.now_ms();
                let ahead = st.queue.rank_of_place(&st.queue.preview(lane)) - 1;
                let own = asking
                    .and_then(|id| st.queue.rank_of(id))
                    .map(|rank| (rank, st.rate.range(rank, now)));
                let wait = st.rate.range(ahead + 1, now);
                let _ = reply.send(Preview { ahead, wait, own });
            }
            QueueMsg::Release(machine, session_id, sent, reply) => {
                st.freed_at = Some(sent);
                if st.statics.contains(&machine) {
                    if st.holders.get(&machine) == Some(&session_id) && st.machines.free(machine.clone()) {
                        st.holders.remove(&machine);
                        self.admit(&me, st, true).await;
                    } else {
                        // Sent again after a restart that found the session ended: the machine
                        // is free already, or another session's now.
                        tracing::debug!(node_id = st.node_id, machine = %machine, session_id, "release of a machine the session does not hold");
                    }
                } else {
                    let effects = st.shared.hosts.lock().release(&machine, session_id);
                    // None: its host was lost meanwhile, and the machine with it.
                    self.carry_out(&me, st, effects.unwrap_or_default()).await;
                }
                st.freed_at = None;
                let _ = reply.send(());
            }
            QueueMsg::Launch {
                machine,
                session_id,
                uid,
                game,
            } => {
                let effects = st.shared.hosts.lock().launch(&machine, session_id, uid, &game);
                self.carry_out(&me, st, effects).await;
            }
            QueueMsg::Control(session_id, uid, reply) => {
                let effects = st.shared.hosts.lock().control(session_id, uid);
                let held = effects.is_some();
                self.carry_out(&me, st, effects.unwrap_or_default()).await;
                let _ = reply.send(held);
            }
            QueueMsg::HostHello(hello, sink, reply) => {
                let host = hello.host.clone();
                let linked = st.shared.hosts.lock().hello(hello, sink, tokio::time::Instant::now(), &st.statics);
                match linked {
                    Ok((link, effects)) => {
                        tracing::info!(node_id = st.node_id, %host, link = link.link, "game host linked");
                        self.carry_out(&me, st, effects).await;
                        self.watch_hosts(&me, st);
                        let _ = reply.send(Ok(link));
                    }
                    Err(refusal) => {
                        tracing::warn!(node_id = st.node_id, %host, ?refusal, "game host refused");
                        let _ = reply.send(Err(refusal));
                    }
                }
            }
            QueueMsg::HostEvent(link, event) => {
                let effects = st.shared.hosts.lock().event(&link, event, tokio::time::Instant::now());
                match effects {
                    Some(effects) => self.carry_out(&me, st, effects).await,
                    None => tracing::debug!(host = %link.host, link = link.link, "a host link that is not live"),
                }
            }
            QueueMsg::HostGone(link) => {
                let effects = st.shared.hosts.lock().lose(&link);
                count_lost(st, &effects);
                if !effects.is_empty() {
                    tracing::warn!(node_id = st.node_id, host = %link.host, "game host link closed; its machines left the pool");
                }
                self.carry_out(&me, st, effects).await;
            }
            QueueMsg::HostSilence => {
                let now = tokio::time::Instant::now();
                let given_up = st.shared.hosts.lock().given_up(now);
                if !given_up.is_empty() {
                    tracing::warn!(
                        node_id = st.node_id,
                        sessions = given_up.len(),
                        "game hosts not back after the restart; their sessions end"
                    );
                    self.carry_out(&me, st, given_up).await;
                }
                let silent = st.shared.hosts.lock().silent(now, self.ctx.config.host_timeout(), st.node_id);
                for link in silent {
                    tracing::warn!(node_id = st.node_id, host = %link.host, "game host silent; its machines left the pool");
                    let effects = st.shared.hosts.lock().lose(&link);
                    count_lost(st, &effects);
                    self.carry_out(&me, st, effects).await;
                }
                self.watch_hosts(&me, st);
            }
            QueueMsg::Claim(machine, session_id, reply) => {
                let mut claimed = st.machines.claim(&machine);
                if !claimed && !st.statics.contains(&machine) {
                    // A slot of a game host that has not linked again since the restart: the
                    // session waits for it (its game may still run there).
                    let until = tokio::time::Instant::now() + self.ctx.config.host_timeout();
                    claimed = st.shared.hosts.lock().await_host(&machine, session_id, until);
                    if claimed {
                        st.machines.add_out(machine.clone());
                        self.watch_hosts(&me, st);
                    }
                }
                if claimed {
                    st.holders.insert(machine, session_id);
                }
                let _ = reply.send(claimed);
            }
            QueueMsg::Stats(reply) => {
                let _ = reply.send((st.machines.free_count(), st.machines.out_count()));
            }
            QueueMsg::Restore {
                virtual_time,
                entries,
                games,
            } => {
                self.restore(&me, st, virtual_time, entries, games).await;
                self.admit(&me, st, false).await;
            }
            QueueMsg::Admit => self.admit(&me, st, false).await,
            #[cfg(test)]
            QueueMsg::Fail => return Err("a failure the supervisor sees (test)".into()),
            QueueMsg::Len(reply) => {
                let _ = reply.send(st.queue.len());
            }
            QueueMsg::Watch(uid) => self.watch(st, uid),
            #[cfg(test)]
            QueueMsg::Inspect(id, reply) => {
                let found = st.queue.place(id).zip(st.queue.rank_of(id));
                let _ = reply.send(found.map(|(place, rank)| (rank, place, st.queue.virtual_time())));
            }
            QueueMsg::RefreshRanks => {
                st.tick_pending = false;
                // A walk still going when the next tick is due (its steps waited behind other
                // messages) is finished first: no slice waits a whole round for its turn.
                self.walk(st, |watchers, visit| watchers.tick(visit));
                self.refresh_step(&me, st);
                if !st.queue.is_empty() {
                    st.tick_pending = true;
                    // The next tick is due one tick after this one was, not after the walk:
                    // a walk's own time does not stretch the period (a late tick runs at once).
                    let now = tokio::time::Instant::now();
                    st.tick_due = (st.tick_due + self.tick()).max(now);
                    st.timers.set(QueueTimer::Ranks, st.tick_due - now, &me, QueueMsg::RefreshRanks);
                }
            }
            QueueMsg::RefreshChunk => self.refresh_step(&me, st),
            QueueMsg::Cut => self.cut(&me, st).await,
        }
        sync_gauges(st);
        st.rate.set_busy(self.ctx.clock.now_ms(), !st.queue.is_empty());
        Ok(())
    }
}

impl QueueActor {
    /// Rebuilds the queue after a restart by its supervisor (a failed handler): the waiting
    /// players in their stored places, the machines the live sessions of the node hold (their
    /// actors run on), and the linked hosts' machines as the host table has them. The gauges
    /// are corrected to this by `sync_gauges`.
    async fn recover(&self, me: &ActorRef<QueueMsg>, st: &mut QueueState) -> DomainResult<()> {
        let node = st.node_id;
        let (free, out) = st.shared.hosts.lock().pool_parts();
        for m in free {
            st.machines.add(m);
        }
        for m in out {
            st.machines.add_out(m);
        }
        let open = self.ctx.db(|s| s.sessions.list_open()).await?;
        let virtual_time = self.ctx.db(move |s| s.sessions.max_admitted_tag(node)).await?.unwrap_or(0).max(0) as u64;
        let (mut entries, mut games) = (vec![], vec![]);
        for r in open.iter().filter(|r| r.node_id == node) {
            match (r.status, &r.machine_id) {
                (1, _) => {
                    if !games.iter().any(|(id, _)| *id == r.game_id) {
                        games.push((r.game_id, self.ctx.game_meta(r.game_id).await?));
                    }
                    entries.push(restored(r));
                }
                (3..=5, Some(m)) if st.machines.claim(m) => {
                    st.holders.insert(m.clone(), r.id);
                }
                _ => {}
            }
        }
        tracing::warn!(node_id = node, waiting = entries.len(), "queue restarted; rebuilt from storage");
        self.restore(me, st, virtual_time, entries, games).await;
        let _ = me.send_message(QueueMsg::Admit);
        Ok(())
    }

    /// Takes restored entries (their stored places) as the queue.
    async fn restore(
        &self,
        me: &ActorRef<QueueMsg>,
        st: &mut QueueState,
        virtual_time: u64,
        entries: Vec<Restored>,
        games: Vec<(i64, GameMeta)>,
    ) {
        st.games.extend(games);
        for (w, _) in &entries {
            if let Some(at) = w.cutoff {
                self.add_cut(me, st, w.session_id, at);
            }
        }
        let (queue, renumbered) = LaneQueue::restore(virtual_time, entries.into_iter().map(|(w, p)| (w.session_id, p, w)));
        st.queue = queue;
        for id in renumbered {
            // Places of a queue kept per game before: stored again in the node's order.
            if let Some(place) = st.queue.place(id) {
                if let Err(e) = self.ctx.store_place(id, &place).await {
                    tracing::error!(session_id = id, error = %e, "restored place not stored");
                }
            }
        }
        let uids: Vec<(i64, i64)> = st.queue.in_order().map(|(_, id, w)| (w.uid, id)).collect();
        for (uid, id) in uids {
            st.by_uid.insert(uid, id);
            self.watch(st, uid);
        }
        if !st.queue.is_empty() {
            self.changed(me, st);
        }
    }

    /// The view of a waiting session at `rank`.
    fn view(&self, st: &QueueState, id: i64, rank: u64) -> SessionView {
        match (st.queue.place(id), st.queue.get(id)) {
            (Some(place), Some(w)) => view_of(st, self.ctx.config.connect_countdown_secs, id, &place, w, Status::Queue, rank),
            _ => view_of(
                st,
                self.ctx.config.connect_countdown_secs,
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

    /// Bookkeeping for a session that left the queue (any way).
    fn left(&self, st: &mut QueueState, w: &Waiting) {
        if st.by_uid.get(&w.uid) == Some(&w.session_id) {
            st.by_uid.remove(&w.uid);
        }
    }

    /// Carries out what a change of the host table means. Machines that joined the pool go to
    /// the heads of the queue before this returns (invariant 1).
    async fn carry_out(&self, me: &ActorRef<QueueMsg>, st: &mut QueueState, effects: Vec<HostEffect>) {
        let mut joined = false;
        for effect in effects {
            match effect {
                HostEffect::Join(m) => joined |= st.machines.add(m),
                HostEffect::Withdraw(m) => {
                    st.machines.withdraw(&m);
                }
                HostEffect::Command(sink, cmd) => {
                    if !sink.send(cmd) {
                        tracing::debug!(node_id = st.node_id, "a command to a host link that is closing");
                    }
                }
                HostEffect::Connected(id) => self.tell_session(id, SessionMsg::Connected),
                HostEffect::End(id, reason) => self.tell_session(id, SessionMsg::Stopped(reason)),
                HostEffect::Input(id) => self.tell_session(id, SessionMsg::Input),
                HostEffect::Close(sink) => sink.close(),
                HostEffect::Adopted(id, machine) => {
                    if let Some(target) = st.shared.hosts.lock().stream_target(&machine, st.node_id) {
                        self.tell_session(id, SessionMsg::Adopted(Arc::new(target)));
                    }
                }
            }
        }
        if joined {
            self.admit(me, st, true).await;
        }
    }

    fn tell_session(&self, id: i64, msg: SessionMsg) {
        match self.ctx.sessions().get(&SessionKey::lookup(id)) {
            Some(s) => {
                let _ = s.send_message(msg);
            }
            None => tracing::debug!(session_id = id, "news of a session that has ended"),
        }
    }

    /// Arms the check for silent hosts at the moment the first of them would fall silent.
    fn watch_hosts(&self, me: &ActorRef<QueueMsg>, st: &mut QueueState) {
        let timeout = self.ctx.config.host_timeout();
        match st.shared.hosts.lock().next_silence(timeout) {
            Some(at) => {
                let delay = at.saturating_duration_since(tokio::time::Instant::now());
                st.timers.set(QueueTimer::Hosts, delay, me, QueueMsg::HostSilence);
            }
            None => st.timers.cancel(&QueueTimer::Hosts),
        }
    }

    /// Whether `uid`, if waiting here, has a socket now; a connected player joins the rank
    /// refresh's list (a player who has gone leaves it when the refresh next meets them).
    fn watch(&self, st: &mut QueueState, uid: i64) {
        let Some(&id) = st.by_uid.get(&uid) else { return };
        let Some(w) = st.queue.get_mut(id) else { return };
        w.connected = self.ctx.bus.subscribers(&uid) > 0;
        if w.connected && !w.listed {
            w.listed = true;
            st.watchers.add(id);
        }
    }

    /// Hands free machines to the heads of the queue while both are there (invariant 1).
    /// `waited`: the machine came back while players waited, so the admission measures the
    /// node's admission rate (a player admitted on joining waited for nothing).
    async fn admit(&self, me: &ActorRef<QueueMsg>, st: &mut QueueState, waited: bool) {
        let since = waited.then(|| st.freed_at.unwrap_or_else(tokio::time::Instant::now));
        while !st.queue.is_empty() {
            let Some(machine) = st.machines.take() else { return };
            self.hand_over(me, st, machine, waited, since).await;
        }
    }

    /// Gives `machine` to the head of the queue by starting its session actor (invariant 2).
    /// `since`: when the machine came back to players waiting (the hand-off's start).
    async fn hand_over(
        &self,
        me: &ActorRef<QueueMsg>,
        st: &mut QueueState,
        machine: MachineId,
        waited: bool,
        since: Option<tokio::time::Instant>,
    ) {
        let stream = st.shared.hosts.lock().stream_target(&machine, st.node_id).map(Arc::new);
        while let Some((id, place, w)) = st.queue.pop_front() {
            let mut view = view_of(st, self.ctx.config.connect_countdown_secs, id, &place, &w, Status::Ready, 0);
            view.stream = stream.clone();
            let host_game = stream
                .as_ref()
                .map(|_| st.games.get(&w.game_id).map_or_else(|| Arc::from(""), |g| g.host_game.clone()));
            self.left(st, &w);
            if stream.is_some() {
                // Held before the session starts: a report of the host meanwhile sees it taken.
                st.shared.hosts.lock().assign(&machine, id);
            } else {
                st.holders.insert(machine.clone(), id);
            }
            let init = SessionInit {
                view,
                uid: w.uid,
                phase: Phase::Ready { machine: machine.clone() },
                countdown: self.ctx.config.connect_countdown(),
                fresh: true,
                play_minutes: 0,
                host_game,
                cutoff: w.cutoff,
                place: Some(place),
            };
            match self.ctx.sessions().get_or_start(&SessionKey::new(id, init)).await {
                Ok(_) => {
                    if waited {
                        st.rate.admitted(self.ctx.clock.now_ms());
                    }
                    st.metrics.admissions[place.lane as usize].increment(1);
                    if let Some(since) = since {
                        st.metrics.handoff.record(since.elapsed().as_secs_f64());
                    }
                    self.changed(me, st);
                    return;
                }
                Err(e) => {
                    tracing::error!(session_id = id, error = %e, "session could not start; next in queue");
                    let now = self.ctx.clock.now_ms();
                    self.ctx
                        .end_session(w.uid, id, w.game_id, crate::view::EndReason::ServerRestart, now)
                        .await;
                }
            }
        }
        if stream.is_some() {
            st.shared.hosts.lock().unassign(&machine);
        } else {
            st.holders.remove(&machine);
        }
        st.machines.free(machine);
    }

    /// Keeps a waiting session's cut, and arms the timer for the earliest stage.
    fn add_cut(&self, me: &ActorRef<QueueMsg>, st: &mut QueueState, session_id: i64, at: i64) {
        let lead = self.ctx.play_state().ports.gate.cut_notice().map(|n| n.lead_ms);
        st.cuts.add(session_id, at, lead);
        self.arm_cut(me, st);
    }

    fn arm_cut(&self, me: &ActorRef<QueueMsg>, st: &mut QueueState) {
        match st.cuts.next_in(self.ctx.clock.now_ms()) {
            Some(due) => st.timers.set(QueueTimer::Cut, due, me, QueueMsg::Cut),
            None => st.timers.cancel(&QueueTimer::Cut),
        }
    }

    /// The cuts due now, of sessions still waiting here (one handed a machine is its session
    /// actor's to cut; one that left has nothing to cut): the notice is pushed, and at the end
    /// the session leaves the queue as if its player had cancelled.
    async fn cut(&self, me: &ActorRef<QueueMsg>, st: &mut QueueState) {
        let now = self.ctx.clock.now_ms();
        for (stage, id) in st.cuts.due(now) {
            let Some(uid) = st.queue.get_mut(id).map(|w| w.uid) else { continue };
            match stage {
                Stage::Notice => {
                    if let Some(n) = self.ctx.play_state().ports.gate.cut_notice() {
                        self.ctx.bus.publish(&uid, &Push::Notice(n.notice));
                    }
                }
                Stage::End => {
                    if let Some((_, w)) = st.queue.remove(id) {
                        self.left(st, &w);
                        self.changed(me, st);
                        self.ctx
                            .end_session(w.uid, id, w.game_id, crate::view::EndReason::Cancelled, now)
                            .await;
                    }
                }
            }
        }
        self.arm_cut(me, st);
    }

    /// The time between two rank refresh ticks.
    fn tick(&self) -> Duration {
        self.ctx.config.rank_refresh() / RANK_SLICES as u32
    }

    /// Arms the next rank refresh tick unless one is pending (the queue was empty).
    fn changed(&self, me: &ActorRef<QueueMsg>, st: &mut QueueState) {
        if !st.tick_pending {
            st.tick_pending = true;
            st.tick_due = tokio::time::Instant::now() + self.tick();
            st.timers.set(QueueTimer::Ranks, self.tick(), me, QueueMsg::RefreshRanks);
        }
    }

    /// Works one step of the slice being refreshed, and asks for the next one as a message of
    /// its own, so that what arrived meanwhile (a machine coming back) is handled first.
    fn refresh_step(&self, me: &ActorRef<QueueMsg>, st: &mut QueueState) {
        if self.walk(st, |watchers, visit| watchers.step(visit)) {
            let _ = me.send_message(QueueMsg::RefreshChunk);
        }
    }

    /// Runs `how` (a tick or a step of the walk) with the visit of one listed player: their
    /// exact rank, pushed when it moved since it was last shown.
    fn walk<R>(&self, st: &mut QueueState, how: impl FnOnce(&mut Watchers, &mut dyn FnMut(i64) -> Seen) -> R) -> R {
        let QueueState {
            node_id,
            node_name,
            games,
            queue,
            watchers,
            ..
        } = st;
        let (bus, countdown) = (&self.ctx.bus, self.ctx.config.connect_countdown_secs);
        how(watchers, &mut |id| {
            let Some((rank, place, w)) = queue.rank_entry_mut(id) else {
                return Seen::Gone;
            };
            if !w.connected {
                w.listed = false;
                return Seen::Gone;
            }
            if w.told == rank {
                return Seen::Unchanged;
            }
            let delivered = bus.publish_with(&w.uid, || {
                let meta = games.get(&w.game_id);
                Push::GameStatus(GameState::Online(view_parts(
                    *node_id,
                    node_name,
                    meta,
                    countdown,
                    id,
                    &place,
                    w,
                    Status::Queue,
                    rank,
                )))
            });
            if delivered > 0 {
                w.told = rank;
                Seen::Pushed
            } else {
                // The sockets went: the player leaves the list until one opens again.
                w.connected = false;
                w.listed = false;
                Seen::Gone
            }
        })
    }
}

/// Brings the gauges to what the queue holds now: its waiting players by lane
/// (`yoo_players_waiting{node,lane}`) and its free machines (`yoo_machines_free{node}`), the
/// node's own series, set; and its share of `yoo_sessions{state="queue"}`, which the session
/// actors move too, kept in [`NodeShared`] so that a queue restarted after a failure corrects
/// the count of the one that failed to what it rebuilt.
fn sync_gauges(st: &QueueState) {
    for lane in crate::play::lanes::ALL_LANES {
        st.metrics.waiting[lane as usize].set(st.queue.lane_len(lane) as f64);
    }
    st.metrics.free.set(st.machines.free_count() as f64);
    let now = Counted {
        waiting: st.queue.len() as f64,
    };
    let mut counted = st.shared.counted.lock();
    if *counted == now {
        return;
    }
    let waiting = now.waiting - counted.waiting;
    if waiting != 0.0 {
        metrics::gauge!("yoo_sessions", "state" => "queue").increment(waiting);
    }
    *counted = now;
}

/// Counts the machines a lost host took with it.
fn count_lost(st: &QueueState, effects: &[HostEffect]) {
    let lost = effects.iter().filter(|e| matches!(e, HostEffect::Withdraw(_))).count();
    st.metrics.lost.increment(lost as u64);
}

/// The view of a waiting (or just admitted) session.
fn view_of(st: &QueueState, countdown_secs: u64, id: i64, place: &Place, w: &Waiting, status: Status, rank: u64) -> SessionView {
    view_parts(
        st.node_id,
        &st.node_name,
        st.games.get(&w.game_id),
        countdown_secs,
        id,
        place,
        w,
        status,
        rank,
    )
}

#[allow(clippy::too_many_arguments)]
fn view_parts(
    node_id: i64,
    node_name: &Arc<str>,
    meta: Option<&GameMeta>,
    countdown_secs: u64,
    id: i64,
    place: &Place,
    w: &Waiting,
    status: Status,
    rank: u64,
) -> SessionView {
    let (game_name, game_logo) = meta.map_or_else(|| (Arc::from(""), Arc::from("")), |m| (m.name.clone(), m.logo.clone()));
    SessionView {
        id,
        game_id: w.game_id,
        game_name,
        game_logo,
        status,
        device_no: w.device_no.clone(),
        node_id,
        node_name: node_name.clone(),
        connect_countdown_secs: countdown_secs,
        queued_at_ms: w.since_ms,
        ready_at_ms: None,
        playing_at_ms: None,
        last_input_ms: None,
        is_fast: place.lane.code(),
        sort: rank,
        requeues: w.requeues,
        stream: None,
    }
}

#[cfg(test)]
#[path = "queue_tests.rs"]
mod actor_tests;
