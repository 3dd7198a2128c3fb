//! Topic publish/subscribe.
//!
//! The in-process bus delivers each published value to every live subscriber of its topic, in
//! publish order per publisher. A subscriber is a function that returns `false` once its receiver
//! is gone; it is then dropped. Topics are any hashable key (`String` by default; a user's pushes
//! use the user id, so the hot path of a rank push builds no string). In cluster mode a Redis
//! bus with the same surface carries topics between nodes.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::RwLock;

type Deliver<T> = Arc<dyn Fn(&T) -> bool + Send + Sync>;
/// The subscribers of one topic, each with its subscription id.
type Subscribers<T> = Vec<(u64, Deliver<T>)>;

pub struct Bus<T, K = String> {
    topics: RwLock<HashMap<K, Subscribers<T>>>,
    next_id: AtomicU64,
}

/// Handle of one subscription; pass it to `unsubscribe`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionId<K = String> {
    topic: K,
    id: u64,
}

impl<K> SubscriptionId<K> {
    /// The topic subscribed to.
    pub fn topic(&self) -> &K {
        &self.topic
    }
}

impl<T, K> Default for Bus<T, K> {
    fn default() -> Self {
        Bus {
            topics: RwLock::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        }
    }
}

impl<T, K: Hash + Eq + Clone> Bus<T, K> {
    pub fn subscribe<Q>(&self, topic: &Q, deliver: impl Fn(&T) -> bool + Send + Sync + 'static) -> SubscriptionId<K>
    where
        Q: ToOwned<Owned = K> + ?Sized,
    {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let topic = topic.to_owned();
        self.topics.write().entry(topic.clone()).or_default().push((id, Arc::new(deliver)));
        SubscriptionId { topic, id }
    }

    /// Every topic with a subscriber now.
    pub fn topics(&self) -> Vec<K> {
        self.topics.read().keys().cloned().collect()
    }

    pub fn unsubscribe(&self, sub: &SubscriptionId<K>) {
        let mut topics = self.topics.write();
        if let Some(subs) = topics.get_mut(&sub.topic) {
            subs.retain(|(id, _)| *id != sub.id);
            if subs.is_empty() {
                topics.remove(&sub.topic);
            }
        }
    }

    /// Delivers `value` to the topic's subscribers; returns how many took it.
    pub fn publish<Q>(&self, topic: &Q, value: &T) -> usize
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.deliver(topic, || value)
    }

    /// Like `publish`, but builds the value only when the topic has a subscriber: the caller
    /// pays nothing for a topic nobody listens to.
    pub fn publish_with<Q>(&self, topic: &Q, make: impl FnOnce() -> T) -> usize
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.deliver(topic, make)
    }

    /// One lookup under the topics' read lock; subscribers run under it, so a subscriber must not
    /// call back into the bus. Dead subscribers are dropped after, under the write lock.
    fn deliver<Q, V>(&self, topic: &Q, value: impl FnOnce() -> V) -> usize
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
        V: std::borrow::Borrow<T>,
    {
        let mut delivered = 0;
        let mut dead = Vec::new();
        {
            let topics = self.topics.read();
            let Some(subs) = topics.get(topic) else { return 0 };
            let value = value();
            for (id, deliver) in subs {
                if deliver(value.borrow()) {
                    delivered += 1;
                } else {
                    dead.push(*id);
                }
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

    /// Delivers `value` to every subscriber of every topic (an announcement to everyone
    /// connected); returns how many took it. Like `publish`, subscribers run under the read lock.
    pub fn publish_all(&self, value: &T) -> usize {
        let mut delivered = 0;
        let mut dead = Vec::new();
        {
            let topics = self.topics.read();
            for (topic, subs) in topics.iter() {
                for (id, deliver) in subs {
                    if deliver(value) {
                        delivered += 1;
                    } else {
                        dead.push((topic.clone(), *id));
                    }
                }
            }
        }
        if !dead.is_empty() {
            let mut topics = self.topics.write();
            for (topic, id) in dead {
                if let Some(s) = topics.get_mut(&topic) {
                    s.retain(|(i, _)| *i != id);
                    if s.is_empty() {
                        topics.remove(&topic);
                    }
                }
            }
        }
        delivered
    }

    /// Number of subscribers of a topic.
    pub fn subscribers<Q>(&self, topic: &Q) -> usize
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.topics.read().get(topic).map_or(0, Vec::len)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use super::Bus;

    // publish_all reaches every topic's subscribers once and drops the dead ones.
    #[test]
    fn publish_all_reaches_every_topic() {
        let bus: Bus<u32, i64> = Bus::default();
        let got = Arc::new(AtomicUsize::new(0));
        for topic in [1, 2, 2] {
            let got = got.clone();
            bus.subscribe(&topic, move |_| {
                got.fetch_add(1, Ordering::Relaxed);
                true
            });
        }
        bus.subscribe(&3, |_| false);
        assert_eq!(bus.publish_all(&7), 3);
        assert_eq!(got.load(Ordering::Relaxed), 3);
        assert_eq!(bus.subscribers(&3), 0, "the dead subscriber is dropped");
        assert_eq!(bus.publish(&2, &8), 2);
    }
}
