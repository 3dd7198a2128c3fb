//! What every actor shares: storage, the configuration, the clock, the bus, and a slot per
//! feature for that feature's own shared state. [`Platform`](crate::platform::Platform) builds one
//! `Ctx` and hands it to every actor it starts; this module names no feature: each feature keeps
//! its registries in a slot of its own type and reads them back through a trait of its own
//! (`play::PlayCtx`, `rooms::RoomsCtx`, ...).
//!
//! Two helpers replace what every actor used to spell out: [`Ctx::db`] runs a blocking storage
//! call off the async threads and maps its failure to a [`DomainError`], and the `From`
//! conversions in `error.rs` turn a failed actor call into one, so `?` works on both.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::Arc;

use storage::Store;

use crate::bus::PushBus;
use crate::clock::Clock;
use crate::config::DomainConfig;
use crate::error::{DomainError, DomainResult};

/// What every actor shares.
pub struct Ctx {
    pub store: Store,
    pub config: DomainConfig,
    pub clock: Clock,
    /// Pushes to users' sockets, by user id (`bus::LocalBus` in one process).
    pub bus: Arc<dyn PushBus>,
    /// The features' shared state, one value per type (filled by the assembly).
    slots: Slots,
}

/// The features' shared state by type, filled by the assembly before the context is shared.
#[derive(Default)]
pub struct Slots(HashMap<TypeId, Box<dyn Any + Send + Sync>>);

impl Slots {
    /// Adds a feature's shared state (one value per type).
    pub fn with<T: Any + Send + Sync>(mut self, value: T) -> Slots {
        self.0.insert(TypeId::of::<T>(), Box::new(value));
        self
    }
}

tokio::task_local! {
    /// The fence of the owner whose actor runs on this task now (a cluster's node queue, its
    /// sessions): every storage call it makes through [`Ctx::db`] is fenced by it.
    static FENCE: Option<storage::ownership::Fence>;
}

/// Runs `fut` as the owner holding `fence`: the durable writes its storage calls make are
/// refused once another process has claimed the thing (`storage::ownership`). `None` runs it
/// unfenced (one process owns everything).
pub async fn as_owner<F: std::future::Future>(fence: Option<storage::ownership::Fence>, fut: F) -> F::Output {
    FENCE.scope(fence, fut).await
}

/// The fence the current task's storage calls carry, if any.
pub fn current_fence() -> Option<storage::ownership::Fence> {
    FENCE.try_with(|f| f.clone()).ok().flatten()
}

/// Runs `f` fenced by the current task's fence, if it has one.
fn with_fence<T>(fence: Option<storage::ownership::Fence>, f: impl FnOnce() -> T) -> T {
    match fence {
        Some(fence) => storage::ownership::fenced(&fence, f),
        None => f(),
    }
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
    pub fn new(store: Store, config: DomainConfig, clock: Clock, bus: Arc<dyn PushBus>, slots: Slots) -> Ctx {
        Ctx {
            store,
            config,
            clock,
            bus,
            slots,
        }
    }

    /// A feature's shared state: the assembly put one in for every feature it starts.
    pub fn slot<T: Any + Send + Sync>(&self) -> &T {
        self.slots
            .0
            .get(&TypeId::of::<T>())
            .and_then(|v| v.downcast_ref())
            .unwrap_or_else(|| panic!("no {} in the context", std::any::type_name::<T>()))
    }

    /// A storage call on the blocking threads, given the store.
    /// Fenced when it runs inside [`as_owner`].
    pub async fn db<T: Send + 'static>(&self, f: impl FnOnce(&Store) -> storage::Result<T> + Send + 'static) -> DomainResult<T> {
        let (s, fence) = (self.store.clone(), current_fence());
        blocking(move || with_fence(fence, || f(&s))).await
    }

    /// [`Ctx::db`], with the storage result handed back as it is.
    pub async fn db_raw<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> storage::Result<T> + Send + 'static,
    ) -> DomainResult<storage::Result<T>> {
        let (s, fence) = (self.store.clone(), current_fence());
        blocking_raw(move || with_fence(fence, || f(&s))).await
    }

    /// The name of a configured node.
    pub fn node_name(&self, node_id: i64) -> Option<&str> {
        self.config.nodes.iter().find(|n| n.id == node_id).map(|n| n.name.as_str())
    }
}
