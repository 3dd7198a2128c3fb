//! Leases: one holder at a time for a name, in Redis (`../shared/CLUSTER.md`, "Ownership").
//!
//! Taken with `SET key process:nonce NX PX ttl`; renewed every third of the TTL, all of this
//! process's leases in one script that extends a key only while it still holds this holder's
//! value; released by compare-and-delete. The holder counts its lease valid until its last
//! successful renewal's **send** time + TTL − a margin, on the monotonic clock, so a slow or
//! failed renewal fails closed: the holder stops acting before Redis could give the name to
//! another. Renewals run on their own task and their own connection, so a long pass elsewhere
//! does not delay them; their delay is exported (`yoo_cluster_lease_renewal_seconds`).
//!
//! A lease alone never makes a write safe (a process paused past its TTL wakes up believing it
//! holds it): the new holder takes the name's next epoch from the store and every write of the
//! owner is fenced by it (`storage::ownership`).

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use std::future::Future;
use std::pin::Pin;

use parking_lot::Mutex;
use redis::aio::ConnectionManager;
use redis::Script;
use tokio::sync::{watch, Notify};
use tokio::time::Instant;

use crate::redis::Keys;
use crate::{ClusterConfig, Result};

/// Extends every key whose value is still the holder's; answers 1 or 0 per key.
const RENEW: &str = r"
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
";

/// Deletes the key only while it holds the holder's value.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

/// A future of a lease backend's call.
pub type Call<'a, T> = Pin<Box<dyn Future<Output = Result<T>> + Send + 'a>>;

/// Where leases are kept: Redis ([`RedisLeases`]), or a simulated Redis in the deterministic
/// tests (`crate::sim`). Keys are full Redis keys; values are `process:nonce`.
pub trait Backend: Send + Sync + 'static {
    /// `SET key value NX PX ttl`: whether it was set.
    fn set_nx(&self, key: String, value: String, ttl_ms: u64) -> Call<'_, bool>;
    /// Extends each key that still holds its value; whether each was.
    fn renew(&self, held: Vec<(String, String)>, ttl_ms: u64) -> Call<'_, Vec<bool>>;
    /// Deletes the key if it holds the value.
    fn release(&self, key: String, value: String) -> Call<'_, ()>;
    /// The key's value.
    fn get(&self, key: String) -> Call<'_, Option<String>>;
}

/// Leases in Redis, on a connection of their own.
pub struct RedisLeases {
    conn: ConnectionManager,
    renew: Script,
    release: Script,
}

impl RedisLeases {
    pub fn connect(config: &ClusterConfig) -> Result<RedisLeases> {
        Ok(RedisLeases {
            conn: crate::redis::connect(config)?,
            renew: Script::new(RENEW),
            release: Script::new(RELEASE),
        })
    }
}

impl Backend for RedisLeases {
    fn set_nx(&self, key: String, value: String, ttl_ms: u64) -> Call<'_, bool> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            let set: Option<String> = redis::cmd("SET")
                .arg(key)
                .arg(value)
                .arg("NX")
                .arg("PX")
                .arg(ttl_ms)
                .query_async(&mut conn)
                .await?;
            Ok(set.is_some())
        })
    }

    fn renew(&self, held: Vec<(String, String)>, ttl_ms: u64) -> Call<'_, Vec<bool>> {
        Box::pin(async move {
            let mut call = self.renew.prepare_invoke();
            call.arg(ttl_ms);
            for (key, value) in &held {
                call.key(key).arg(value);
            }
            let mut conn = self.conn.clone();
            let kept: Vec<i64> = call.invoke_async(&mut conn).await?;
            Ok(kept.into_iter().map(|k| k == 1).collect())
        })
    }

    fn release(&self, key: String, value: String) -> Call<'_, ()> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            let _: i64 = self.release.key(key).arg(value).invoke_async(&mut conn).await?;
            Ok(())
        })
    }

    fn get(&self, key: String) -> Call<'_, Option<String>> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            Ok(redis::cmd("GET").arg(key).query_async(&mut conn).await?)
        })
    }
}

/// This process's leases.
#[derive(Clone)]
pub struct Leases {
    inner: Arc<Inner>,
}

struct Inner {
    backend: Arc<dyn Backend>,
    keys: Keys,
    process: String,
    ttl: Duration,
    margin: Duration,
    renew_every: Duration,
    held: Mutex<HashMap<String, Held>>,
    /// Wakes the expiry task when a lease is taken (its end may be the earliest now).
    taken: Arc<Notify>,
}

struct Held {
    value: String,
    valid_until: Instant,
    lost: watch::Sender<bool>,
}

/// A lease held: valid while [`Lease::is_valid`]; [`Lease::lost`] resolves once it is not
/// (refused at a renewal, expired unrenewed, released).
pub struct Lease {
    name: String,
    value: String,
    inner: Weak<Inner>,
    lost: watch::Receiver<bool>,
}

/// Why a lease was lost (the label of `yoo_cluster_leases_lost_total`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    /// A renewal found another value, or none: Redis gave the name away or forgot it.
    Refused,
    /// No renewal succeeded in time: the holder stops before Redis would expire the key.
    Expired,
    /// Released by the holder.
    Released,
}

impl Why {
    fn label(self) -> &'static str {
        match self {
            Why::Refused => "refused",
            Why::Expired => "expired",
            Why::Released => "released",
        }
    }
}

impl Leases {
    /// This process's leases on the cluster's Redis, and the task that renews them (it stops
    /// when the last clone of the returned value is dropped).
    pub fn start(config: &ClusterConfig) -> Result<Leases> {
        Ok(Leases::with_backend(config, Arc::new(RedisLeases::connect(config)?)))
    }

    /// [`Leases::start`] on another backend (the simulated Redis of the deterministic tests).
    pub fn with_backend(config: &ClusterConfig, backend: Arc<dyn Backend>) -> Leases {
        let inner = Arc::new(Inner {
            backend,
            keys: Keys::new(&config.prefix),
            process: config.process_id.clone(),
            ttl: config.ttl,
            margin: config.margin(),
            renew_every: config.renew_every(),
            held: Mutex::new(HashMap::new()),
            taken: Arc::new(Notify::new()),
        });
        tokio::spawn(renewals(Arc::downgrade(&inner)));
        tokio::spawn(expiries(Arc::downgrade(&inner), inner.taken.clone()));
        Leases { inner }
    }

    /// Takes the lease on `name` if no one holds it; `None` when another does (or this process
    /// already does).
    pub async fn try_acquire(&self, name: &str) -> Result<Option<Lease>> {
        let inner = &self.inner;
        if inner.held.lock().contains_key(name) {
            return Ok(None);
        }
        let value = format!("{}:{:016x}", inner.process, rand::random::<u64>());
        let sent = Instant::now();
        let set = inner
            .backend
            .set_nx(inner.keys.lease(name), value.clone(), inner.ttl.as_millis() as u64)
            .await?;
        if !set {
            return Ok(None);
        }
        let (tx, rx) = watch::channel(false);
        inner.held.lock().insert(
            name.to_owned(),
            Held {
                value: value.clone(),
                valid_until: sent + inner.ttl - inner.margin,
                lost: tx,
            },
        );
        inner.taken.notify_one();
        metrics::counter!("yoo_cluster_leases_acquired_total").increment(1);
        metrics::gauge!("yoo_cluster_leases_held").increment(1.0);
        Ok(Some(Lease {
            name: name.to_owned(),
            value,
            inner: Arc::downgrade(inner),
            lost: rx,
        }))
    }

    /// Gives the lease back at once (compare-and-delete: a lease already lost is left alone).
    pub async fn release(&self, lease: Lease) -> Result<()> {
        let inner = &self.inner;
        let mine = {
            let mut held = inner.held.lock();
            match held.get(&lease.name) {
                Some(h) if h.value == lease.value => held.remove(&lease.name),
                _ => None,
            }
        };
        if let Some(h) = mine {
            lose(&lease.name, h, Why::Released);
        }
        inner.backend.release(inner.keys.lease(&lease.name), lease.value.clone()).await?;
        Ok(())
    }

    /// Gives back every lease this process holds (a process stopping: the others take its
    /// things at once instead of after the TTL).
    pub async fn release_all(&self) {
        let inner = &self.inner;
        let all: Vec<(String, Held)> = inner.held.lock().drain().collect();
        for (name, h) in all {
            let value = h.value.clone();
            lose(&name, h, Why::Released);
            if let Err(e) = inner.backend.release(inner.keys.lease(&name), value).await {
                tracing::warn!(lease = %name, error = %e, "lease not given back; it expires");
            }
        }
    }

    /// The process that holds the lease on `name` now, as Redis says.
    pub async fn holder(&self, name: &str) -> Result<Option<String>> {
        let value = self.inner.backend.get(self.inner.keys.lease(name)).await?;
        Ok(value.and_then(|v| v.split_once(':').map(|(p, _)| p.to_owned())))
    }

    /// The names this process holds valid leases on now.
    pub fn held(&self) -> Vec<String> {
        let now = Instant::now();
        let mut names: Vec<String> = self
            .inner
            .held
            .lock()
            .iter()
            .filter(|(_, h)| now < h.valid_until)
            .map(|(n, _)| n.clone())
            .collect();
        names.sort();
        names
    }
}

impl Lease {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value Redis holds for this holder (`process:nonce`).
    pub fn value(&self) -> &str {
        &self.value
    }

    /// Whether the holder may still act as the owner: the lease is still this holder's and
    /// its last renewal's send time + TTL − margin has not passed.
    pub fn is_valid(&self) -> bool {
        let Some(inner) = self.inner.upgrade() else { return false };
        let held = inner.held.lock();
        held.get(&self.name)
            .is_some_and(|h| h.value == self.value && Instant::now() < h.valid_until)
    }

    /// Resolves once the lease is lost (at once when it already is).
    pub async fn lost(&mut self) {
        let _ = self.lost.wait_for(|lost| *lost).await;
    }
}

fn lose(name: &str, held: Held, why: Why) {
    tracing::warn!(lease = name, why = why.label(), "lease lost");
    metrics::counter!("yoo_cluster_leases_lost_total", "why" => why.label()).increment(1);
    metrics::gauge!("yoo_cluster_leases_held").decrement(1.0);
    let _ = held.lost.send(true);
}

/// The renewal task: renews every `renew_every`, measured from the schedule (a late renewal
/// is followed by the next one at its time, not by a burst).
async fn renewals(inner: Weak<Inner>) {
    let Some(first) = inner.upgrade() else { return };
    let every = first.renew_every;
    drop(first);
    let mut next = Instant::now() + every;
    loop {
        tokio::time::sleep_until(next).await;
        let Some(inner) = inner.upgrade() else { return };
        renew(&inner).await;
        metrics::histogram!("yoo_cluster_lease_renewal_seconds").record(next.elapsed().as_secs_f64());
        next = (next + every).max(Instant::now());
    }
}

/// The expiry task: drops a lease at its `valid_until` when no renewal has moved it, also
/// while a renewal waits on a Redis that does not answer (fail closed).
async fn expiries(inner: Weak<Inner>, taken: Arc<Notify>) {
    loop {
        let wake = {
            let Some(inner) = inner.upgrade() else { return };
            expire(&inner, Instant::now());
            let earliest = inner.held.lock().values().map(|h| h.valid_until).min();
            // wakes at least once a TTL, to notice that the leases are gone
            earliest.unwrap_or_else(|| Instant::now() + inner.ttl)
        };
        tokio::select! {
            _ = tokio::time::sleep_until(wake) => {}
            _ = taken.notified() => {}
        }
    }
}

fn expire(inner: &Inner, now: Instant) {
    let gone: Vec<(String, Held)> = {
        let mut held = inner.held.lock();
        let names: Vec<String> = held.iter().filter(|(_, h)| h.valid_until <= now).map(|(n, _)| n.clone()).collect();
        names.into_iter().filter_map(|n| held.remove(&n).map(|h| (n, h))).collect()
    };
    for (name, h) in gone {
        lose(&name, h, Why::Expired);
    }
}

async fn renew(inner: &Inner) {
    let names: Vec<(String, String)> = inner.held.lock().iter().map(|(n, h)| (n.clone(), h.value.clone())).collect();
    if names.is_empty() {
        return;
    }
    let sent = Instant::now();
    let keys = names.iter().map(|(n, v)| (inner.keys.lease(n), v.clone())).collect();
    let answers = match inner.backend.renew(keys, inner.ttl.as_millis() as u64).await {
        Ok(a) => a,
        Err(e) => {
            metrics::counter!("yoo_cluster_lease_renewal_failures_total").increment(1);
            tracing::warn!(error = %e, "lease renewal failed");
            return;
        }
    };
    let mut held = inner.held.lock();
    let mut refused = Vec::new();
    for ((name, value), kept) in names.iter().zip(answers) {
        let Some(h) = held.get_mut(name).filter(|h| &h.value == value) else {
            continue; // released meanwhile
        };
        if kept {
            h.valid_until = h.valid_until.max(sent + inner.ttl - inner.margin);
        } else if let Some(h) = held.remove(name) {
            refused.push((name.clone(), h));
        }
    }
    drop(held);
    for (name, h) in refused {
        lose(&name, h, Why::Refused);
    }
}
