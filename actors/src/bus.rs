//! The seam between the domain and the sockets: [`PushBus`] carries a [`Push`] to every socket
//! of one user. The actors publish by user id and never learn where the sockets are; the socket
//! layer subscribes a user's sockets where they are connected.
//!
//! [`LocalBus`] is the one-process implementation (an `engine::Bus` keyed by user id). A cluster
//! puts another implementation behind the same trait: it delivers to the local subscribers as
//! `LocalBus` does and carries the push to the other processes (a Redis channel per process),
//! where their own local subscribers take it. The counts the trait answers are this process's:
//! `subscribers` says whether the user has a socket here (the queue's "connected" flag, which
//! decides whether a rank is worth computing), and `publish` how many local sockets took it.

pub use engine::bus::SubscriptionId;

use engine::bus::Bus;

use crate::view::Push;

/// A subscription's delivery: false once its socket is gone (the subscription is then dropped).
pub type Deliver = Box<dyn Fn(&Push) -> bool + Send + Sync>;

/// Pushes to users' sockets; the topic is the user id.
pub trait PushBus: Send + Sync {
    /// Delivers `push` to every socket of `uid`; returns how many local sockets took it.
    fn publish(&self, uid: &i64, push: &Push) -> usize;
    /// Like `publish`, but `make` runs only when the push has somewhere to go (the rank upkeep
    /// builds no view for a player without a socket).
    fn publish_lazy(&self, uid: &i64, make: &mut dyn FnMut() -> Push) -> usize;
    /// Delivers `push` to every connected user (an announcement); returns the local count.
    fn publish_all(&self, push: &Push) -> usize;
    /// Subscribes one socket of `uid`.
    fn subscribe_boxed(&self, uid: &i64, deliver: Deliver) -> SubscriptionId<i64>;
    fn unsubscribe(&self, sub: &SubscriptionId<i64>);
    /// The sockets `uid` has on this process.
    fn subscribers(&self, uid: &i64) -> usize;
    /// In a cluster: asks the process that owns `uid`'s session to push its state (a socket
    /// opened here, where it is not owned). One process owns everything: nothing to ask.
    fn ask_state(&self, _uid: &i64) {}
}

impl dyn PushBus {
    /// [`PushBus::subscribe_boxed`] with a closure.
    pub fn subscribe(&self, uid: &i64, deliver: impl Fn(&Push) -> bool + Send + Sync + 'static) -> SubscriptionId<i64> {
        self.subscribe_boxed(uid, Box::new(deliver))
    }

    /// [`PushBus::publish_lazy`] with a closure that runs at most once.
    pub fn publish_with(&self, uid: &i64, make: impl FnOnce() -> Push) -> usize {
        let mut make = Some(make);
        self.publish_lazy(uid, &mut || (make.take().expect("a push is built once"))())
    }
}

/// The bus of one process.
#[derive(Default)]
pub struct LocalBus(Bus<Push, i64>);

impl LocalBus {
    /// The users with a socket here.
    pub fn topics(&self) -> Vec<i64> {
        self.0.topics()
    }
}

impl PushBus for LocalBus {
    fn publish(&self, uid: &i64, push: &Push) -> usize {
        self.0.publish(uid, push)
    }

    fn publish_lazy(&self, uid: &i64, make: &mut dyn FnMut() -> Push) -> usize {
        self.0.publish_with(uid, make)
    }

    fn publish_all(&self, push: &Push) -> usize {
        self.0.publish_all(push)
    }

    fn subscribe_boxed(&self, uid: &i64, deliver: Deliver) -> SubscriptionId<i64> {
        self.0.subscribe(uid, deliver)
    }

    fn unsubscribe(&self, sub: &SubscriptionId<i64>) {
        self.0.unsubscribe(sub)
    }

    fn subscribers(&self, uid: &i64) -> usize {
        self.0.subscribers(uid)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use super::*;
    use crate::view::Changed;

    // Through the trait: a user's sockets get their pushes, a lazy push is built only for a
    // user with a socket, and a gone socket is dropped.
    #[test]
    fn the_local_bus_behind_the_trait() {
        let bus: Arc<dyn PushBus> = Arc::new(LocalBus::default());
        let got = Arc::new(AtomicUsize::new(0));
        let g = got.clone();
        let sub = bus.subscribe(&7, move |_| {
            g.fetch_add(1, Ordering::Relaxed);
            true
        });
        assert_eq!(bus.subscribers(&7), 1);
        assert_eq!(bus.publish(&7, &Push::Changed(Changed::Balance)), 1);
        assert_eq!(bus.publish(&8, &Push::Changed(Changed::Balance)), 0);
        let mut built = 0;
        assert_eq!(
            bus.publish_with(&8, || {
                built += 1;
                Push::NewMessage
            }),
            0
        );
        assert_eq!(built, 0, "nobody listens to 8: nothing is built");
        assert_eq!(bus.publish_all(&Push::NewMessage), 1);
        assert_eq!(got.load(Ordering::Relaxed), 2);
        bus.unsubscribe(&sub);
        assert_eq!(bus.subscribers(&7), 0);
        bus.subscribe(&9, |_| false);
        assert_eq!(bus.publish(&9, &Push::NewMessage), 0);
        assert_eq!(bus.subscribers(&9), 0, "a gone socket is dropped");
    }
}
