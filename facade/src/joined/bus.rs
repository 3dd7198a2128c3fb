//! Pushes across the processes of a cluster (`../shared/CLUSTER.md`, "Calls and pushes"): the
//! domain publishes by user id wherever the user's session is owned, and the user's sockets may
//! be on any process.
//!
//! Every process keeps its own sockets on a [`LocalBus`] and knows, per other process, which
//! users have a socket there (announced on the cluster's `pushes` broadcast as they come and go,
//! and in full every [`FULL_EVERY`] and whenever a process (re)subscribes). A push for a user
//! with a socket elsewhere goes out on the broadcast; the pushes made in one step (a rank
//! upkeep's thousands) leave as one message, so Redis carries one message per process per step,
//! never one per player. A push for a user with no socket anywhere costs nothing.
//!
//! At most once, as pub/sub is: a push lost while a process resubscribes is not replayed, and
//! the browser's socket reads its current state when it opens again (its USER_GAME_STATUS_CHANGE
//! on open); a user whose first socket elsewhere is not yet announced misses nothing it would
//! not also get on that open.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use actors::bus::{Deliver, LocalBus, PushBus, SubscriptionId};
use actors::view::Push;
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

/// How often each process announces every user it has a socket of (heals a lost announcement).
pub const FULL_EVERY: Duration = Duration::from_secs(5);

/// The pushes of the cluster.
pub struct ClusterBus {
    local: LocalBus,
    process: String,
    /// What leaves on the broadcast (the publisher task batches it).
    out: mpsc::UnboundedSender<Out>,
    remote: Mutex<Remote>,
    /// Told when a user's sockets elsewhere come or go (the queues keep ranks fresh only for
    /// players with a socket).
    on_remote: OnceLock<Box<dyn Fn(i64) + Send + Sync>>,
    /// Told when another process asks for a user's state (a socket opened there).
    on_ask: OnceLock<Box<dyn Fn(i64) + Send + Sync>>,
}

/// Which users have sockets on which other processes.
#[derive(Default)]
struct Remote {
    by_process: HashMap<String, HashSet<i64>>,
    /// Users: on how many other processes.
    count: HashMap<i64, u32>,
}

impl Remote {
    fn add(&mut self, process: &str, uid: i64) -> bool {
        let added = self.by_process.entry(process.to_owned()).or_default().insert(uid);
        if added {
            *self.count.entry(uid).or_default() += 1;
        }
        added
    }

    fn remove(&mut self, process: &str, uid: i64) -> bool {
        let removed = self.by_process.get_mut(process).is_some_and(|s| s.remove(&uid));
        if removed {
            if let Some(c) = self.count.get_mut(&uid) {
                *c -= 1;
                if *c == 0 {
                    self.count.remove(&uid);
                }
            }
        }
        removed
    }

    /// Forgets `process` (gone); the users it had.
    fn forget(&mut self, process: &str) -> Vec<i64> {
        let changed = self.replace(process, HashSet::new());
        self.by_process.remove(process);
        changed
    }

    /// Replaces what `process` has; the users whose presence there changed.
    fn replace(&mut self, process: &str, uids: HashSet<i64>) -> Vec<i64> {
        let before = self.by_process.remove(process).unwrap_or_default();
        let mut changed = vec![];
        for uid in before.difference(&uids) {
            if let Some(c) = self.count.get_mut(uid) {
                *c -= 1;
                if *c == 0 {
                    self.count.remove(uid);
                }
            }
            changed.push(*uid);
        }
        for uid in uids.difference(&before) {
            *self.count.entry(*uid).or_default() += 1;
            changed.push(*uid);
        }
        self.by_process.insert(process.to_owned(), uids);
        changed
    }
}

/// What goes out, batched.
enum Out {
    Push(i64, Push),
    All(Push),
    Up(i64),
    Down(i64),
    Ask(i64),
    /// This process's every user (on a timer, or asked by a process that subscribed).
    Full,
    /// Ask every process for its users (this one subscribed, maybe again).
    Hello,
}

/// One message of the broadcast.
#[derive(Debug, Default, Serialize, Deserialize, PartialEq)]
struct Frame {
    from: String,
    /// When the sender sent it (unix ms, the wall clock: `yoo_cluster_push_delay_seconds`).
    #[serde(default)]
    at_ms: i64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pushes: Vec<(i64, Push)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    all: Vec<Push>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    up: Vec<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    down: Vec<i64>,
    /// Users whose state the sender asks of their session's owner (after `up`: the owner
    /// knows where to push it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    ask: Vec<i64>,
    /// Every user the sender has a socket of (replaces what was known of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    full: Option<Vec<i64>>,
    /// The sender asks every process for its users.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    hello: bool,
}

impl ClusterBus {
    /// The bus of this process, on the cluster's Redis; its publisher runs until the bus is
    /// dropped.
    pub fn start(config: &cluster::ClusterConfig) -> Result<Arc<ClusterBus>, String> {
        let (tx, rx) = mpsc::unbounded_channel();
        let bus = Arc::new(ClusterBus {
            local: LocalBus::default(),
            process: config.process_id.clone(),
            out: tx,
            remote: Mutex::default(),
            on_remote: OnceLock::new(),
            on_ask: OnceLock::new(),
        });
        let (on_message, on_gap) = (Arc::downgrade(&bus), Arc::downgrade(&bus));
        let broadcast = cluster::Broadcast::start(
            config,
            "pushes",
            Arc::new(move |bytes: &[u8]| {
                if let Some(bus) = on_message.upgrade() {
                    bus.received(bytes);
                }
            }),
            Arc::new(move || {
                if let Some(bus) = on_gap.upgrade() {
                    let _ = bus.out.send(Out::Hello);
                    let _ = bus.out.send(Out::Full);
                }
            }),
        )
        .map_err(|e| e.to_string())?;
        tokio::spawn(publisher(Arc::downgrade(&bus), broadcast, rx));
        Ok(bus)
    }

    /// `f(uid)` is called when `uid`'s sockets on other processes come or go.
    pub fn on_remote_change(&self, f: impl Fn(i64) + Send + Sync + 'static) {
        let _ = self.on_remote.set(Box::new(f));
    }

    /// `f(uid)` is called when another process asks for `uid`'s state.
    pub fn on_ask_state(&self, f: impl Fn(i64) + Send + Sync + 'static) {
        let _ = self.on_ask.set(Box::new(f));
    }

    /// Forgets the users of processes no longer live (`live`: the live processes' ids).
    pub fn keep_processes(&self, live: &HashSet<String>) {
        let gone: Vec<String> = self
            .remote
            .lock()
            .by_process
            .keys()
            .filter(|p| !live.contains(*p))
            .cloned()
            .collect();
        for p in gone {
            let changed = self.remote.lock().forget(&p);
            self.tell(changed);
        }
    }

    /// How many other processes have a socket of `uid`.
    pub fn remote_processes(&self, uid: i64) -> u32 {
        self.remote.lock().count.get(&uid).copied().unwrap_or(0)
    }

    fn tell(&self, uids: Vec<i64>) {
        if let Some(f) = self.on_remote.get() {
            for uid in uids {
                f(uid);
            }
        }
    }

    fn received(&self, bytes: &[u8]) {
        let frame: Frame = match serde_json::from_slice(bytes) {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(error = %e, "a push frame of the cluster that does not parse");
                return;
            }
        };
        if frame.from == self.process {
            return;
        }
        metrics::counter!("yoo_cluster_push_frames_received_total").increment(1);
        if !frame.pushes.is_empty() {
            let delay_ms = (wall_ms() - frame.at_ms).max(0);
            metrics::histogram!("yoo_cluster_push_delay_seconds").record(delay_ms as f64 / 1000.0);
        }
        for (uid, push) in &frame.pushes {
            self.local.publish(uid, push);
        }
        for push in &frame.all {
            self.local.publish_all(push);
        }
        let mut changed = vec![];
        {
            let mut remote = self.remote.lock();
            if let Some(full) = frame.full {
                changed.extend(remote.replace(&frame.from, full.into_iter().collect()));
            }
            for uid in frame.up {
                if remote.add(&frame.from, uid) {
                    changed.push(uid);
                }
            }
            for uid in frame.down {
                if remote.remove(&frame.from, uid) {
                    changed.push(uid);
                }
            }
        }
        self.tell(changed);
        if let Some(f) = self.on_ask.get() {
            for uid in frame.ask {
                f(uid);
            }
        }
        if frame.hello {
            let _ = self.out.send(Out::Full);
        }
    }
}

impl PushBus for ClusterBus {
    fn publish(&self, uid: &i64, push: &Push) -> usize {
        if self.remote_processes(*uid) > 0 {
            let _ = self.out.send(Out::Push(*uid, push.clone()));
        }
        self.local.publish(uid, push)
    }

    fn publish_lazy(&self, uid: &i64, make: &mut dyn FnMut() -> Push) -> usize {
        if self.remote_processes(*uid) == 0 {
            return self.local.publish_lazy(uid, make);
        }
        let push = make();
        let _ = self.out.send(Out::Push(*uid, push.clone()));
        self.local.publish(uid, &push)
    }

    fn publish_all(&self, push: &Push) -> usize {
        let _ = self.out.send(Out::All(push.clone()));
        self.local.publish_all(push)
    }

    fn subscribe_boxed(&self, uid: &i64, deliver: Deliver) -> SubscriptionId<i64> {
        let sub = self.local.subscribe_boxed(uid, deliver);
        if self.local.subscribers(uid) == 1 {
            let _ = self.out.send(Out::Up(*uid));
        }
        sub
    }

    fn unsubscribe(&self, sub: &SubscriptionId<i64>) {
        self.local.unsubscribe(sub);
        let uid = *sub.topic();
        if self.local.subscribers(&uid) == 0 {
            let _ = self.out.send(Out::Down(uid));
        }
    }

    fn ask_state(&self, uid: &i64) {
        let _ = self.out.send(Out::Ask(*uid));
    }

    /// Sockets here and on other processes (one per process elsewhere: the owner needs only
    /// to know whether the user has one).
    fn subscribers(&self, uid: &i64) -> usize {
        self.local.subscribers(uid) + self.remote_processes(*uid) as usize
    }
}

/// Sends what the bus queued, every step's worth as one message, and the full list of this
/// process's users every [`FULL_EVERY`].
async fn publisher(bus: Weak<ClusterBus>, broadcast: cluster::Broadcast, mut rx: mpsc::UnboundedReceiver<Out>) {
    let mut full_at = tokio::time::interval(FULL_EVERY);
    loop {
        let first = tokio::select! {
            o = rx.recv() => match o { Some(o) => o, None => return },
            _ = full_at.tick() => Out::Full,
        };
        // the rest of this step (a rank upkeep publishes its pushes in one go)
        tokio::task::yield_now().await;
        let Some(bus) = bus.upgrade() else { return };
        let mut frame = Frame {
            from: bus.process.clone(),
            ..Frame::default()
        };
        let mut next = Some(first);
        while let Some(o) = next.take() {
            match o {
                Out::Push(uid, p) => frame.pushes.push((uid, p)),
                Out::All(p) => frame.all.push(p),
                Out::Up(uid) => frame.up.push(uid),
                Out::Down(uid) => frame.down.push(uid),
                Out::Ask(uid) => frame.ask.push(uid),
                Out::Full => frame.full = Some(bus.local_users()),
                Out::Hello => frame.hello = true,
            }
            if frame.pushes.len() >= 2_000 {
                break;
            }
            next = rx.try_recv().ok();
        }
        drop(bus);
        frame.at_ms = wall_ms();
        let Ok(bytes) = serde_json::to_vec(&frame) else { continue };
        match broadcast.publish(&bytes).await {
            Ok(_) => {
                metrics::counter!("yoo_cluster_push_frames_sent_total").increment(1);
                metrics::counter!("yoo_cluster_pushes_sent_total").increment(frame.pushes.len() as u64);
            }
            Err(e) => {
                metrics::counter!("yoo_cluster_push_frames_lost_total").increment(1);
                tracing::warn!(error = %e, pushes = frame.pushes.len(), "pushes not sent to the other processes");
            }
        }
    }
}

/// The wall clock in unix ms (the processes of a cluster share one machine's clock, or NTP's).
fn wall_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl ClusterBus {
    /// The users with a socket on this process.
    fn local_users(&self) -> Vec<i64> {
        self.local.topics()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // What a process knows of the others: a user counts once per process, a full list replaces
    // what was known, and the users whose presence changed are named.
    #[test]
    fn remote_users_by_process() {
        let mut r = Remote::default();
        assert!(r.add("p1", 7));
        assert!(!r.add("p1", 7));
        assert!(r.add("p2", 7));
        assert_eq!(r.count[&7], 2);
        let mut changed = r.replace("p1", [8].into_iter().collect());
        changed.sort();
        assert_eq!(changed, vec![7, 8]);
        assert_eq!((r.count[&7], r.count[&8]), (1, 1));
        assert!(r.remove("p2", 7));
        assert!(!r.count.contains_key(&7));
        assert_eq!(r.forget("p1"), vec![8]);
        assert!(r.count.is_empty() && !r.by_process.contains_key("p1"));
    }

    // A frame crosses Redis as JSON and comes back the same, pushes included.
    #[test]
    fn frames_round_trip() {
        use actors::view::{Changed, EndReason, GameState, Notice};
        let f = Frame {
            from: "p1".into(),
            at_ms: 1_700_000_000_000,
            pushes: vec![
                (
                    7,
                    Push::GameStatus(GameState::Ended {
                        id: 1,
                        game_id: 2,
                        reason: EndReason::HostLost,
                    }),
                ),
                (8, Push::Changed(Changed::Balance)),
                (
                    9,
                    Push::Notice(Notice::ChildrenLimit {
                        msg: "再玩一分钟".into(),
                        remark: "".into(),
                    }),
                ),
            ],
            all: vec![Push::NewMessage],
            up: vec![1],
            down: vec![2],
            ask: vec![4],
            full: Some(vec![3]),
            hello: true,
        };
        let back: Frame = serde_json::from_slice(&serde_json::to_vec(&f).unwrap()).unwrap();
        assert_eq!(back, f);
    }
}
