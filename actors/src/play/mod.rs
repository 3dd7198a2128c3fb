//! Play: from a start to the end of a game. The node queues with their lanes, ranks and wait
//! estimates, the game sessions, the players' actors, the game hosts' slots, what a player holds
//! (the lane it gives) and the loading tips.

pub mod connection;
pub mod cuts;
pub mod game_session;
pub mod hang;
pub mod holdings;
pub mod hosts;
pub mod lanes;
pub mod machine_pool;
pub mod player;
pub mod ports;
pub mod queue;
pub mod ranks;
pub mod service;
pub mod tips;
pub mod wait;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use engine::Registry;
use parking_lot::Mutex;
use ractor::ActorRef;
use storage::GameSessionRecord;

use crate::config::DomainConfig;
use crate::ctx::Ctx;
use crate::error::{DomainError, DomainResult};
use crate::view::{EndReason, GameState, Notice, Push};
use game_session::{GameSessionActor, MachineId, SessionKey};
use lanes::Place;
use player::{PlayerActor, PlayerMsg};
use queue::{GameMeta, NodeShared, QueueActor, QueueMsg};

/// How many times a machine's release is sent to a queue that does not acknowledge it (the
/// pauses double up to a second: about a minute in all, longer than a supervised restart).
const RELEASE_TRIES: u32 = 70;

/// The name of a node queue's lease and ownership (`queue:1`).
pub fn queue_name(node_id: i64) -> String {
    format!("queue:{node_id}")
}

/// The play feature's shared state, a slot of [`Ctx`]: its actor registries and what each
/// node's queue keeps across its restarts.
pub struct PlayShared {
    pub(crate) players: OnceLock<Registry<i64, PlayerActor>>,
    pub(crate) sessions: OnceLock<Registry<SessionKey, GameSessionActor>>,
    pub(crate) queues: OnceLock<Registry<i64, QueueActor>>,
    /// What each configured node's queue keeps across its restarts (its linked hosts).
    pub(crate) nodes: HashMap<i64, Arc<NodeShared>>,
    /// The controller each relay session's game host was last told of (for a host that links
    /// again, and for tests).
    pub(crate) relay_controllers: Mutex<HashMap<i64, i64>>,
    /// What play needs of the features above it (installed by the assembly).
    pub(crate) ports: ports::Ports,
}

impl PlayShared {
    pub fn new(config: &DomainConfig, ports: ports::Ports) -> PlayShared {
        PlayShared {
            players: OnceLock::new(),
            sessions: OnceLock::new(),
            queues: OnceLock::new(),
            nodes: config
                .nodes
                .iter()
                .map(|n| {
                    let shared = if config.leased {
                        NodeShared::leased(n.id)
                    } else {
                        NodeShared::default()
                    };
                    (n.id, Arc::new(shared))
                })
                .collect(),
            relay_controllers: Default::default(),
            ports,
        }
    }
}

/// The play feature's view of the shared context: its registries and the session bookkeeping
/// its actors (and the features above it) share.
pub(crate) trait PlayCtx {
    fn play_state(&self) -> &PlayShared;

    fn players(&self) -> &Registry<i64, PlayerActor>;

    fn sessions(&self) -> &Registry<SessionKey, GameSessionActor>;

    /// The player actor of `uid`, started if it is not running.
    async fn player(&self, uid: i64) -> DomainResult<ActorRef<PlayerMsg>>;

    /// The queue of a configured node (queues start with the platform).
    fn queue(&self, node_id: i64) -> DomainResult<ActorRef<QueueMsg>>;

    /// The queues of every configured node.
    fn all_queues(&self) -> impl Iterator<Item = ActorRef<QueueMsg>> + '_;

    /// Gives the machine `session_id` held back to its node's queue, which hands it to the head
    /// at once (a game host's slot after the host has reset it). The queue acknowledges it, and
    /// the release is sent again until it does: a queue that fails and is restarted by its
    /// supervisor loses its mailbox, and a machine released into it would otherwise never come
    /// back. The restarted queue takes a release of a machine it already counts as free as done.
    fn release_machine(self: &Arc<Self>, node_id: i64, machine: MachineId, session_id: i64);

    /// Tells a player's actor if it is running (a stopped one reloads from storage anyway).
    fn tell_player_now(&self, uid: i64, msg: PlayerMsg);

    /// The fence of this process's writes for node `node_id` (none when one process owns all).
    fn node_fence(&self, node_id: i64) -> Option<storage::ownership::Fence>;

    /// Whether node `node_id`'s queue runs in this process (always, without a cluster).
    fn owns_node(&self, node_id: i64) -> bool;

    /// What a queue shows of a game in every view.
    async fn game_meta(&self, game_id: i64) -> DomainResult<GameMeta>;

    /// Stores a queued session's place.
    async fn store_place(&self, id: i64, place: &Place) -> DomainResult<()>;

    /// Reads, changes and writes one session record; false if that failed.
    async fn update_record(&self, id: i64, change: impl FnOnce(&mut GameSessionRecord) + Send + 'static) -> bool;

    /// The user's session that has not ended, if any.
    async fn open_session_of(&self, uid: i64) -> DomainResult<Option<GameSessionRecord>>;

    /// Records the end of a session, pushes it to the player and forgets it.
    async fn end_session(&self, uid: i64, id: i64, game_id: i64, reason: EndReason, now: i64);

    /// Tells the game host of relay `session_id` who controls it now, and waits until it was
    /// told (a session without a game host's machine yet is told when it gets one: the room
    /// tells it again then).
    async fn stream_controller(self: &Arc<Self>, session_id: i64, uid: i64);

    /// Tells the features that follow play what a player did, in order.
    async fn play_event(self: &Arc<Self>, event: ports::PlayEvent);
}

impl PlayCtx for Ctx {
    fn play_state(&self) -> &PlayShared {
        self.slot()
    }

    fn players(&self) -> &Registry<i64, PlayerActor> {
        self.play_state().players.get().expect("platform started")
    }

    fn sessions(&self) -> &Registry<SessionKey, GameSessionActor> {
        self.play_state().sessions.get().expect("platform started")
    }

    /// The player actor of `uid`, started if it is not running.
    async fn player(&self, uid: i64) -> DomainResult<ActorRef<PlayerMsg>> {
        self.players().get_or_start(&uid).await.map_err(DomainError::Internal)
    }

    /// The queue of a configured node (queues start with the platform).
    fn queue(&self, node_id: i64) -> DomainResult<ActorRef<QueueMsg>> {
        if let Some(n) = self.play_state().nodes.get(&node_id) {
            if !n.owner().here() {
                return Err(DomainError::NotOwner(queue_name(node_id)));
            }
        }
        self.play_state()
            .queues
            .get()
            .expect("platform started")
            .get(&node_id)
            .ok_or(DomainError::UnknownNode)
    }

    /// The queues of every configured node.
    fn all_queues(&self) -> impl Iterator<Item = ActorRef<QueueMsg>> + '_ {
        self.config.nodes.iter().filter_map(|n| self.queue(n.id).ok())
    }

    /// Gives the machine `session_id` held back to its node's queue, which hands it to the head
    /// at once (a game host's slot after the host has reset it). The queue acknowledges it, and
    /// the release is sent again until it does: a queue that fails and is restarted by its
    /// supervisor loses its mailbox, and a machine released into it would otherwise never come
    /// back. The restarted queue takes a release of a machine it already counts as free as done.
    fn release_machine(self: &Arc<Self>, node_id: i64, machine: MachineId, session_id: i64) {
        let ctx = self.clone();
        tokio::spawn(async move {
            let mut pause = std::time::Duration::from_millis(5);
            for _ in 0..RELEASE_TRIES {
                if let Ok(q) = ctx.queue(node_id) {
                    if ractor::call!(q, QueueMsg::Release, machine.clone(), session_id, tokio::time::Instant::now()).is_ok() {
                        return;
                    }
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(std::time::Duration::from_secs(1));
            }
            tracing::error!(node_id, %machine, session_id, "machine release not acknowledged; given up");
        });
    }

    /// Tells a player's actor if it is running (a stopped one reloads from storage anyway).
    fn tell_player_now(&self, uid: i64, msg: PlayerMsg) {
        if let Some(p) = self.players().get(&uid) {
            let _ = p.send_message(msg);
        }
    }

    fn node_fence(&self, node_id: i64) -> Option<storage::ownership::Fence> {
        self.play_state().nodes.get(&node_id).and_then(|n| n.owner().fence())
    }

    fn owns_node(&self, node_id: i64) -> bool {
        self.play_state().nodes.get(&node_id).is_none_or(|n| n.owner().here())
    }

    /// What a queue shows of a game in every view.
    async fn game_meta(&self, game_id: i64) -> DomainResult<GameMeta> {
        let game = self.db(move |s| s.games.get(game_id)).await?.ok_or(DomainError::UnknownGame)?;
        Ok(GameMeta::of(&game))
    }

    /// Stores a queued session's place.
    async fn store_place(&self, id: i64, place: &Place) -> DomainResult<()> {
        let (lane, tag, seq) = (place.lane.code(), place.tag as i64, place.seq as i64);
        self.db(move |s| s.sessions.set_place(id, lane, tag, seq)).await
    }

    /// Reads, changes and writes one session record; false if that failed.
    async fn update_record(&self, id: i64, change: impl FnOnce(&mut GameSessionRecord) + Send + 'static) -> bool {
        self.db(move |s| {
            let mut r = s.sessions.get(id)?.ok_or(storage::Error::NotFound)?;
            change(&mut r);
            s.sessions.update(&r)
        })
        .await
        .is_ok()
    }

    /// The user's session that has not ended, if any.
    async fn open_session_of(&self, uid: i64) -> DomainResult<Option<GameSessionRecord>> {
        let latest = self.db(move |s| s.sessions.list_by_user(uid, 1)).await?;
        Ok(latest.into_iter().next().filter(|r| r.ended_at.is_none()))
    }

    /// Records the end of a session, pushes it to the player and forgets it.
    async fn end_session(&self, uid: i64, id: i64, game_id: i64, reason: EndReason, now: i64) {
        let written = self
            .update_record(id, move |r| {
                if r.ended_at.is_none() {
                    r.status = 0;
                    r.ended_at = Some(now);
                    r.end_reason = Some(reason.as_str().to_string());
                }
            })
            .await;
        if !written {
            tracing::error!(session_id = id, "session end write failed");
        }
        metrics::counter!("yoo_sessions_ended_total", "reason" => reason.as_str()).increment(1);
        if reason.by_server() {
            self.bus.publish(&uid, &Push::Notice(Notice::GameEnd { game_id, reason }));
        }
        self.bus.publish(&uid, &Push::GameStatus(GameState::Ended { id, game_id, reason }));
        self.tell_player_now(uid, PlayerMsg::SessionEnded { id });
    }

    /// Tells the game host of relay `session_id` who controls it now, and waits until it was
    /// told (a session without a game host's machine yet is told when it gets one: the room
    /// tells it again then).
    async fn stream_controller(self: &Arc<Self>, session_id: i64, uid: i64) {
        self.play_state().relay_controllers.lock().insert(session_id, uid);
        let play = crate::play::service::Play { ctx: self.clone() };
        if let Err(e) = play.set_stream_controller(session_id, uid).await {
            tracing::debug!(session_id, uid, error = %e, "the relay's game host not told of its controller");
        }
    }

    async fn play_event(self: &Arc<Self>, event: ports::PlayEvent) {
        for o in &self.play_state().ports.observers {
            o.observe(self.clone(), event).await;
        }
    }
}
