//! Key -> actor, started on first use.
//!
//! A `Registry` belongs to one actor kind and owns that kind's [`Supervisor`]. `get_or_start`
//! returns the live actor for a key, starting it under the supervisor when there is none. When
//! the supervisor restarts a failed actor, the registry points at the new one; when an actor
//! stops, the key is forgotten and the next use starts a fresh one.
//!
//! Concurrency invariant: two callers racing on a missing key get the same actor, because the
//! start goes through the supervisor's mailbox (one at a time) and the start re-checks the map
//! there (guarded by `registry_starts_one_actor_per_key`).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use parking_lot::Mutex;
use ractor::{Actor, ActorCell, ActorRef, ActorStatus, SpawnErr};

use crate::supervisor::{ChildSpec, RestartPolicy, Supervisor, SupervisorMsg};

/// Builds the actor and its start arguments for a key (again at every restart).
pub type Factory<K, A> = Arc<dyn Fn(&K) -> (A, <A as Actor>::Arguments) + Send + Sync>;

pub struct Registry<K, A: Actor> {
    kind: &'static str,
    supervisor: ActorRef<SupervisorMsg>,
    factory: Factory<K, A>,
    /// The live actor of each key; shared with the child specs so restarts can repoint it.
    map: Arc<Mutex<HashMap<K, ActorRef<A::Msg>>>>,
}

impl<K, A> Registry<K, A>
where
    K: Clone + Eq + Hash + Send + Sync + std::fmt::Debug + 'static,
    A: Actor,
{
    /// A registry whose supervisor is linked under `parent` (or top-level when `None`).
    pub async fn new(
        kind: &'static str,
        policy: RestartPolicy,
        parent: Option<ActorCell>,
        factory: Factory<K, A>,
    ) -> Result<Self, SpawnErr> {
        let supervisor = match parent {
            Some(p) => Supervisor::start_linked(kind, policy, p).await?,
            None => Supervisor::start(kind, policy).await?,
        };
        Ok(Registry {
            kind,
            supervisor,
            factory,
            map: Arc::new(Mutex::new(HashMap::new())),
        })
    }

    /// The live actor for `key`, if any; never starts one.
    pub fn get(&self, key: &K) -> Option<ActorRef<A::Msg>> {
        let map = self.map.lock();
        map.get(key).filter(|r| is_alive(&r.get_cell())).cloned()
    }

    /// The live actor for `key`, started now if there is none.
    pub async fn get_or_start(&self, key: &K) -> Result<ActorRef<A::Msg>, String> {
        if let Some(r) = self.get(key) {
            return Ok(r);
        }
        let spec = Arc::new(Entry {
            kind: self.kind,
            key: key.clone(),
            factory: self.factory.clone(),
            map: self.map.clone(),
        });
        Supervisor::start_child(&self.supervisor, spec).await?;
        self.get(key)
            .ok_or_else(|| format!("{} {:?} stopped as it started", self.kind, key))
    }

    /// Every live actor, for fan-out and shutdown.
    pub fn all(&self) -> Vec<(K, ActorRef<A::Msg>)> {
        self.map.lock().iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// The supervisor of this kind.
    pub fn supervisor(&self) -> &ActorRef<SupervisorMsg> {
        &self.supervisor
    }
}

fn is_alive(cell: &ActorCell) -> bool {
    matches!(
        cell.get_status(),
        ActorStatus::Starting | ActorStatus::Running | ActorStatus::Upgrading
    )
}

/// The child spec of one key.
struct Entry<K, A: Actor> {
    kind: &'static str,
    key: K,
    factory: Factory<K, A>,
    map: Arc<Mutex<HashMap<K, ActorRef<A::Msg>>>>,
}

impl<K, A> ChildSpec for Entry<K, A>
where
    K: Clone + Eq + Hash + Send + Sync + std::fmt::Debug + 'static,
    A: Actor,
{
    fn kind(&self) -> &'static str {
        self.kind
    }

    fn start(&self, supervisor: ActorCell) -> BoxFuture<'static, Result<ActorCell, SpawnErr>> {
        let map = self.map.clone();
        let key = self.key.clone();
        let factory = self.factory.clone();
        Box::pin(async move {
            if let Some(existing) = map.lock().get(&key).filter(|r| is_alive(&r.get_cell())) {
                return Ok(existing.get_cell());
            }
            let (actor, args) = factory(&key);
            let (r, _) = Actor::spawn_linked(None, actor, args, supervisor).await?;
            map.lock().insert(key, r.clone());
            Ok(r.get_cell())
        })
    }

    fn stopped(&self, child: &ActorCell) {
        let mut map = self.map.lock();
        if map.get(&self.key).is_some_and(|r| r.get_id() == child.get_id()) {
            map.remove(&self.key);
        }
    }
}
