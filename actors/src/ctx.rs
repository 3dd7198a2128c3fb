//! What every actor shares: storage, the configuration, the clock, the bus and the registries of
//! the actor kinds. [`Platform`](crate::platform::Platform) builds one `Ctx` and hands it to
//! every actor it starts; the actors know this module, never the platform, so the platform and
//! the actors it starts do not import each other.
//!
//! Two helpers replace what every actor used to spell out: [`Ctx::db`] runs a blocking storage
//! call off the async threads and maps its failure to a [`DomainError`], and the `From`
//! conversions in `error.rs` turn a failed actor call into one, so `?` works on both.

use std::sync::{Arc, OnceLock};

use engine::{Bus, Registry};
use ractor::ActorRef;
use storage::{GameSessionRecord, Store};

use crate::clock::Clock;
use crate::config::DomainConfig;
use crate::error::{DomainError, DomainResult};
use crate::play::game_session::{GameSessionActor, MachineId, SessionKey};
use crate::play::lanes::Place;
use crate::play::player::{PlayerActor, PlayerMsg};
use crate::play::queue::{GameMeta, NodeShared, QueueActor, QueueMsg};
use crate::rooms::actor::{RoomActor, RoomIndex, RoomMsg};
use crate::rooms::wire::{DebugWire, RoomWire};
use crate::view::{EndReason, GameState, Notice, Push};

/// How many times a machine's release is sent to a queue that does not acknowledge it (the
/// pauses double up to a second: about a minute in all, longer than a supervised restart).
const RELEASE_TRIES: u32 = 70;

/// `Platform::set_stream_controller(session_id, controller_uid)` as the room actors call it.
pub type ControllerHook = Arc<dyn Fn(i64, i64) -> futures_util::future::BoxFuture<'static, DomainResult<()>> + Send + Sync>;

/// `Platform::renew(agreement_no)` as the order desk calls it when a renewal is due.
pub type RenewHook = Arc<dyn Fn(String) -> futures_util::future::BoxFuture<'static, DomainResult<()>> + Send + Sync>;

/// What every actor shares.
pub struct Ctx {
    pub store: Store,
    pub config: DomainConfig,
    pub clock: Clock,
    /// Pushes to users' sockets; the topic is the user id.
    pub bus: Bus<Push, i64>,
    pub(crate) players: OnceLock<Registry<i64, PlayerActor>>,
    pub(crate) sessions: OnceLock<Registry<SessionKey, GameSessionActor>>,
    pub(crate) queues: OnceLock<Registry<i64, QueueActor>>,
    /// What each configured node's queue keeps across its restarts (its linked hosts).
    pub(crate) nodes: std::collections::HashMap<i64, Arc<NodeShared>>,
    /// The open rooms by ddRid (started at creation and at platform start, never on a lookup).
    pub(crate) rooms: OnceLock<Registry<i64, RoomActor>>,
    /// Encodes room frames: the facade's, set at start ([`DebugWire`] until then).
    pub(crate) room_wire: parking_lot::RwLock<Arc<dyn RoomWire>>,
    /// Who is in which room, which rooms are listed: kept by the room actors.
    pub(crate) room_index: parking_lot::Mutex<RoomIndex>,
    /// `Platform::set_stream_controller`, for the room actors (which do not know the platform).
    pub(crate) controller_hook: OnceLock<ControllerHook>,
    /// `Platform::renew`, for the order desk (which does not know the platform).
    pub(crate) renew_hook: OnceLock<RenewHook>,
    /// The next watch id.
    pub(crate) next_watch: std::sync::atomic::AtomicU64,
    /// The controller each relay session's game host was last told of (for a host that links
    /// again, and for tests).
    pub(crate) relay_controllers: parking_lot::Mutex<std::collections::HashMap<i64, i64>>,
    /// The shop's shared state (payment provider, QR tickets, order watchers).
    pub(crate) shop: OnceLock<Arc<crate::commerce::Shop>>,
    /// The order desk (the orders' expiry timers), one actor under key 0.
    pub(crate) desk: OnceLock<Registry<u8, crate::commerce::OrderDesk>>,
    /// Real-name certification: the seal, the identity check, the rules for minors.
    pub(crate) identity: crate::identity::Identity,
    /// The external account centre: its provider and the notices taken.
    pub(crate) uc: crate::accounts::uc::Uc,
}

/// Runs a blocking storage call on tokio's blocking threads; a storage error becomes
/// [`DomainError::Internal`] (through `From<storage::Error>`), as does a panicked call.
pub async fn blocking<T: Send + 'static>(f: impl FnOnce() -> storage::Result<T> + Send + 'static) -> DomainResult<T> {
    Ok(blocking_raw(f).await??)
}

/// Like [`blocking`], but hands the storage result back as it is, for callers that answer
/// particular storage errors (`NotFound`, `Conflict`) with their own refusal.
pub async fn blocking_raw<T: Send + 'static>(f: impl FnOnce() -> storage::Result<T> + Send + 'static) -> DomainResult<storage::Result<T>> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| DomainError::Internal(format!("blocking call: {e}")))
}

impl Ctx {
    pub fn new(store: Store, config: DomainConfig, clock: Clock) -> Ctx {
        let nodes = config.nodes.iter().map(|n| (n.id, Arc::default())).collect();
        Ctx {
            identity: crate::identity::Identity::from_config(&config.identity),
            uc: crate::accounts::uc::Uc::from_config(&config.account_centre),
            nodes,
            store,
            config,
            clock,
            bus: Bus::default(),
            players: OnceLock::new(),
            sessions: OnceLock::new(),
            queues: OnceLock::new(),
            rooms: OnceLock::new(),
            room_wire: parking_lot::RwLock::new(Arc::new(DebugWire)),
            room_index: Default::default(),
            controller_hook: OnceLock::new(),
            renew_hook: OnceLock::new(),
            next_watch: Default::default(),
            relay_controllers: Default::default(),
            shop: OnceLock::new(),
            desk: OnceLock::new(),
        }
    }

    pub fn rooms(&self) -> &Registry<i64, RoomActor> {
        self.rooms.get().expect("platform started")
    }

    /// The actor of an open room.
    pub fn room(&self, dd_rid: i64) -> DomainResult<ActorRef<RoomMsg>> {
        self.rooms().get(&dd_rid).ok_or(DomainError::RoomNotFound)
    }

    /// Tells the game host of relay `session_id` who controls it now, and waits until it was
    /// told (a session without a game host's machine yet is told when it gets one: the room
    /// tells it again then).
    pub async fn stream_controller(&self, session_id: i64, uid: i64) {
        self.relay_controllers.lock().insert(session_id, uid);
        let Some(hook) = self.controller_hook.get() else { return };
        if let Err(e) = hook(session_id, uid).await {
            tracing::debug!(session_id, uid, error = %e, "the relay's game host not told of its controller");
        }
    }

    /// A storage call on the blocking threads, given the store.
    pub async fn db<T: Send + 'static>(&self, f: impl FnOnce(&Store) -> storage::Result<T> + Send + 'static) -> DomainResult<T> {
        let s = self.store.clone();
        blocking(move || f(&s)).await
    }

    /// [`Ctx::db`], with the storage result handed back as it is.
    pub async fn db_raw<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> storage::Result<T> + Send + 'static,
    ) -> DomainResult<storage::Result<T>> {
        let s = self.store.clone();
        blocking_raw(move || f(&s)).await
    }

    pub fn players(&self) -> &Registry<i64, PlayerActor> {
        self.players.get().expect("platform started")
    }

    pub fn sessions(&self) -> &Registry<SessionKey, GameSessionActor> {
        self.sessions.get().expect("platform started")
    }

    /// The player actor of `uid`, started if it is not running.
    pub async fn player(&self, uid: i64) -> DomainResult<ActorRef<PlayerMsg>> {
        self.players().get_or_start(&uid).await.map_err(DomainError::Internal)
    }

    /// The queue of a configured node (queues start with the platform).
    pub fn queue(&self, node_id: i64) -> DomainResult<ActorRef<QueueMsg>> {
        self.queues
            .get()
            .expect("platform started")
            .get(&node_id)
            .ok_or(DomainError::UnknownNode)
    }

    /// The queues of every configured node.
    pub fn all_queues(&self) -> impl Iterator<Item = ActorRef<QueueMsg>> + '_ {
        self.config.nodes.iter().filter_map(|n| self.queue(n.id).ok())
    }

    /// Gives the machine `session_id` held back to its node's queue, which hands it to the head
    /// at once (a game host's slot after the host has reset it). The queue acknowledges it, and
    /// the release is sent again until it does: a queue that fails and is restarted by its
    /// supervisor loses its mailbox, and a machine released into it would otherwise never come
    /// back. The restarted queue takes a release of a machine it already counts as free as done.
    pub fn release_machine(self: &Arc<Self>, node_id: i64, machine: MachineId, session_id: i64) {
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
    pub fn tell_player_now(&self, uid: i64, msg: PlayerMsg) {
        if let Some(p) = self.players().get(&uid) {
            let _ = p.send_message(msg);
        }
    }

    /// What a queue shows of a game in every view.
    pub async fn game_meta(&self, game_id: i64) -> DomainResult<GameMeta> {
        let game = self.db(move |s| s.games.get(game_id)).await?.ok_or(DomainError::UnknownGame)?;
        Ok(GameMeta::of(&game))
    }

    /// The name of a configured node.
    pub fn node_name(&self, node_id: i64) -> Option<&str> {
        self.config.nodes.iter().find(|n| n.id == node_id).map(|n| n.name.as_str())
    }

    /// Stores a queued session's place.
    pub async fn store_place(&self, id: i64, place: &Place) -> DomainResult<()> {
        let (lane, tag, seq) = (place.lane.code(), place.tag as i64, place.seq as i64);
        self.db(move |s| s.sessions.set_place(id, lane, tag, seq)).await
    }

    /// Reads, changes and writes one session record; false if that failed.
    pub async fn update_record(&self, id: i64, change: impl FnOnce(&mut GameSessionRecord) + Send + 'static) -> bool {
        self.db(move |s| {
            let mut r = s.sessions.get(id)?.ok_or(storage::Error::NotFound)?;
            change(&mut r);
            s.sessions.update(&r)
        })
        .await
        .is_ok()
    }

    /// The user's session that has not ended, if any.
    pub async fn open_session_of(&self, uid: i64) -> DomainResult<Option<GameSessionRecord>> {
        let latest = self.db(move |s| s.sessions.list_by_user(uid, 1)).await?;
        Ok(latest.into_iter().next().filter(|r| r.ended_at.is_none()))
    }

    /// Records the end of a session, pushes it to the player and forgets it.
    pub async fn end_session(&self, uid: i64, id: i64, game_id: i64, reason: EndReason, now: i64) {
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
}
