//! Topic publish/subscribe.
//!
//! The in-process bus delivers each published value to every live subscriber of its topic, in
//! publish order per publisher. A subscriber is a function that returns `false` once its receiver
//! is gone; it is then dropped. In cluster mode a Redis bus with the same surface carries topics
//! between nodes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::RwLock;

type Deliver<T> = Arc<dyn Fn(&T) -> bool + Send + Sync>;

pub struct Bus<T> {
    topics: RwLock<HashMap<String, Vec<(u64, Deliver<T>)>>>,
    next_id: AtomicU64,
}

/// Handle of one subscription; pass it to `unsubscribe`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionId {
    topic: String,
    id: u64,
}

impl<T> Default for Bus<T> {
    fn default() -> Self {
        Bus { topics: RwLock::new(HashMap::new()), next_id: AtomicU64::new(1) }
    }
}

impl<T> Bus<T> {
    pub fn subscribe(&self, topic: &str, deliver: impl Fn(&T) -> bool + Send + Sync + 'static) -> SubscriptionId {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.topics.write().entry(topic.to_string()).or_default().push((id, Arc::new(deliver)));
        SubscriptionId { topic: topic.to_string(), id }
    }

    pub fn unsubscribe(&self, sub: &SubscriptionId) {
        let mut topics = self.topics.write();
        if let Some(subs) = topics.get_mut(&sub.topic) {
            subs.retain(|(id, _)| *id != sub.id);
            if subs.is_empty() {
                topics.remove(&sub.topic);
            }
        }
    }

    /// Delivers `value` to the topic's subscribers; returns how many took it.
    pub fn publish(&self, topic: &str, value: &T) -> usize {
        let subs: Vec<(u64, Deliver<T>)> = match self.topics.read().get(topic) {
            Some(s) => s.clone(),
            None => return 0,
        };
        let mut delivered = 0;
        let mut dead = Vec::new();
        for (id, deliver) in &subs {
            if deliver(value) {
                delivered += 1;
            } else {
                dead.push(*id);
            }
        }
        if !dead.is_empty() {
            let mut topics = self.topics.write();
            if let Some(s) = topics.get_mut(topic) {
                s.retain(|(id, _)| !dead.contains(id));
                if s.is_empty() {
                    topics.remove(topic);
                }
            }
        }
        delivered
    }

    /// Number of subscribers of a topic.
    pub fn subscribers(&self, topic: &str) -> usize {
        self.topics.read().get(topic).map_or(0, Vec::len)
    }
}
