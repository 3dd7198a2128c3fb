//! Named, cancellable timers on tokio time.
//!
//! An actor keeps a `Timers<K>` in its state; setting a timer under a name replaces the one
//! before it, and dropping the state cancels them all, so a stopped actor never gets a late
//! message. Because the timers sleep on tokio time, tests pause time and advance it.

use std::collections::HashMap;
use std::hash::Hash;
use std::time::Duration;

use ractor::{ActorRef, Message};
use tokio::task::JoinHandle;

pub struct Timers<K: Eq + Hash> {
    /// The sleeping task of each named timer; aborted on replace, cancel and drop.
    pending: HashMap<K, JoinHandle<()>>,
}

impl<K: Eq + Hash> Default for Timers<K> {
    fn default() -> Self {
        Timers { pending: HashMap::new() }
    }
}

impl<K: Eq + Hash> Timers<K> {
    /// After `delay`, sends `msg` to `to`; replaces any timer of the same name.
    pub fn set<M: Message>(&mut self, name: K, delay: Duration, to: &ActorRef<M>, msg: M) {
        let to = to.clone();
        // The deadline is fixed now, not when the task is first polled.
        let deadline = tokio::time::Instant::now() + delay;
        let task = tokio::spawn(async move {
            tokio::time::sleep_until(deadline).await;
            let _ = to.send_message(msg);
        });
        if let Some(old) = self.pending.insert(name, task) {
            old.abort();
        }
    }

    /// Cancels the named timer, if set.
    pub fn cancel(&mut self, name: &K) {
        if let Some(t) = self.pending.remove(name) {
            t.abort();
        }
    }

    /// Whether the named timer is set and has not fired yet.
    pub fn is_set(&self, name: &K) -> bool {
        self.pending.get(name).is_some_and(|t| !t.is_finished())
    }
}

impl<K: Eq + Hash> Drop for Timers<K> {
    fn drop(&mut self) {
        for (_, t) in self.pending.drain() {
            t.abort();
        }
    }
}
