//! Membership by heartbeat: each process sets a key of its own with the TTL every third of it
//! and, in the same script, reads which processes are live (their keys still there); the dead
//! are dropped from the set. `/metrics` shows the live ones (`yoo_cluster_processes`,
//! `yoo_cluster_process_up{process}`).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::RwLock;
use redis::aio::ConnectionManager;
use redis::Script;
use tokio::time::Instant;

use crate::redis::Keys;
use crate::{ClusterConfig, Result};

/// Beats for one process and answers every live one, as process, address, process, ...
/// KEYS: the process's key, the set of processes. ARGV: ttl ms, address, process id, key prefix.
const BEAT: &str = r"
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[1])
redis.call('SADD', KEYS[2], ARGV[3])
local live = {}
for _, p in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local at = redis.call('GET', ARGV[4] .. p)
  if at then
    table.insert(live, p)
    table.insert(live, at)
  else
    redis.call('SREM', KEYS[2], p)
  end
end
return live
";

/// A live process of the cluster.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Member {
    pub process: String,
    /// Where the other processes reach it.
    pub advertise: String,
}

/// This process's heartbeat and its view of the live processes.
#[derive(Clone)]
pub struct Members {
    inner: Arc<Inner>,
}

struct Inner {
    conn: ConnectionManager,
    keys: Keys,
    config: ClusterConfig,
    beat: Script,
    live: RwLock<Vec<Member>>,
    /// Set by [`Members::leave`]: no more beats.
    left: AtomicBool,
}

impl Members {
    /// Beats once (so that the view is filled when this returns, if Redis answers), then on a
    /// task every third of the TTL until the last clone is dropped.
    pub async fn start(config: &ClusterConfig) -> Result<Members> {
        let inner = Arc::new(Inner {
            conn: crate::redis::connect(config)?,
            keys: Keys::new(&config.prefix),
            config: config.clone(),
            beat: Script::new(BEAT),
            live: RwLock::new(Vec::new()),
            left: AtomicBool::new(false),
        });
        if let Err(e) = beat(&inner).await {
            tracing::warn!(error = %e, "the first heartbeat failed: Redis not answering yet");
        }
        tokio::spawn(keep(Arc::downgrade(&inner)));
        Ok(Members { inner })
    }

    /// The live processes as of the last heartbeat, by process id.
    pub fn live(&self) -> Vec<Member> {
        self.inner.live.read().clone()
    }

    /// Beats now and answers the live processes.
    pub async fn refresh(&self) -> Result<Vec<Member>> {
        beat(&self.inner).await?;
        Ok(self.live())
    }

    /// Leaves the cluster at once (a clean stop): the others see this process gone at their
    /// next beat instead of after the TTL.
    pub async fn leave(&self) -> Result<()> {
        self.inner.left.store(true, Ordering::SeqCst);
        let mut conn = self.inner.conn.clone();
        let _: i64 = redis::cmd("DEL")
            .arg(self.inner.keys.process(&self.inner.config.process_id))
            .query_async(&mut conn)
            .await?;
        Ok(())
    }
}

async fn keep(inner: Weak<Inner>) {
    let Some(first) = inner.upgrade() else { return };
    let every = first.config.renew_every();
    drop(first);
    let mut next = Instant::now() + every;
    loop {
        tokio::time::sleep_until(next).await;
        let Some(inner) = inner.upgrade() else { return };
        if inner.left.load(Ordering::SeqCst) {
            return;
        }
        if let Err(e) = beat(&inner).await {
            metrics::counter!("yoo_cluster_heartbeat_failures_total").increment(1);
            tracing::warn!(error = %e, "heartbeat failed");
        }
        metrics::histogram!("yoo_cluster_heartbeat_seconds").record(next.elapsed().as_secs_f64());
        next = (next + every).max(Instant::now());
    }
}

async fn beat(inner: &Inner) -> Result<()> {
    let c = &inner.config;
    let mut conn = inner.conn.clone();
    let flat: Vec<String> = inner
        .beat
        .key(inner.keys.process(&c.process_id))
        .key(inner.keys.processes())
        .arg(c.ttl.as_millis() as u64)
        .arg(&c.advertise)
        .arg(&c.process_id)
        .arg(inner.keys.process(""))
        .invoke_async(&mut conn)
        .await?;
    let mut live: Vec<Member> = flat
        .chunks_exact(2)
        .map(|p| Member {
            process: p[0].clone(),
            advertise: p[1].clone(),
        })
        .collect();
    live.sort();
    let before: BTreeSet<String> = inner.live.read().iter().map(|m| m.process.clone()).collect();
    for gone in before.iter().filter(|p| !live.iter().any(|m| &m.process == *p)) {
        metrics::gauge!("yoo_cluster_process_up", "process" => gone.clone()).set(0.0);
    }
    for m in &live {
        metrics::gauge!("yoo_cluster_process_up", "process" => m.process.clone()).set(1.0);
    }
    metrics::gauge!("yoo_cluster_processes").set(live.len() as f64);
    *inner.live.write() = live;
    Ok(())
}
