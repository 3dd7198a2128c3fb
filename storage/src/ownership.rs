//! Who owns what in a cluster, and the fence an owner's writes carry (`../shared/CLUSTER.md`,
//! "Ownership").
//!
//! A process that wins a thing's lease (a node queue, a room: a name such as `queue:1`) takes
//! the thing's next epoch here ([`OwnershipRepo::claim`]), and runs every durable write of that
//! thing inside [`fenced`] with it. Each transaction of [`crate::sql::Db::write`] then first
//! checks, in the same transaction, that the epoch is still the thing's current one, holding
//! the ownership row so that a claim cannot commit in between (PostgreSQL: `FOR SHARE`, which
//! the claim's `UPDATE` waits for; SQLite: the one writer). A write under an older epoch is
//! refused with [`Error::Fenced`](crate::Error::Fenced) and writes nothing: once a claim has
//! committed, the new owner's reads see every write the old owner made, and the old owner
//! makes no more, however long it was paused.
//!
//! The epoch lives in the store, not in Redis: the Redis of the cluster keeps nothing on disk,
//! and a counter there would start again at 1 after a restart.

use std::cell::RefCell;
use std::sync::Arc;

use crate::Result;

/// A thing's owner as the store knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ownership {
    /// What is owned (`queue:1`, `room:123`).
    pub name: String,
    /// How many times it was claimed: the latest claim's epoch.
    pub epoch: i64,
    /// The process that made the latest claim.
    pub owner: String,
    /// ms; when.
    pub claimed_at: i64,
}

pub trait OwnershipRepo: Send + Sync {
    /// Takes the next epoch of `name` for `owner` (the first claim of a name gives 1). From the
    /// moment it commits, every write fenced by an older epoch is refused; a fenced write
    /// running at that moment either commits before it (and the claimer reads it) or is refused.
    fn claim(&self, name: &str, owner: &str, now: i64) -> Result<i64>;
    /// The latest claim of `name`, if any.
    fn get(&self, name: &str) -> Result<Option<Ownership>>;
    /// Every thing ever claimed, by name.
    fn list(&self) -> Result<Vec<Ownership>>;
}

/// The epoch a write is made under: the owner's claim of `name`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fence {
    pub name: Arc<str>,
    pub epoch: i64,
}

impl Fence {
    pub fn new(name: &str, epoch: i64) -> Fence {
        Fence { name: name.into(), epoch }
    }
}

thread_local! {
    static FENCE: RefCell<Option<Fence>> = const { RefCell::new(None) };
}

/// Runs `f` with every write transaction it makes on this thread fenced by `fence` (see the
/// module's documentation). Nested calls take the inner fence; the outer one is back after.
pub fn fenced<T>(fence: &Fence, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Fence>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            FENCE.with(|c| *c.borrow_mut() = before);
        }
    }
    let _restore = Restore(FENCE.with(|c| c.borrow_mut().replace(fence.clone())));
    f()
}

/// The fence of the writes made on this thread now, if any.
pub(crate) fn current() -> Option<Fence> {
    FENCE.with(|c| c.borrow().clone())
}
