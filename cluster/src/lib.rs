//! The processes of a cluster on Redis (`../shared/CLUSTER.md`): what lets several `yoo-server`
//! processes act as one site, knowing no game, room or user rule (as `engine` knows none).
//!
//! - `redis.rs`: connections to the cluster's Redis (a connection manager that reconnects by
//!   itself, every call bounded by a timeout), and the names of the keys.
//! - `members.rs`: membership by heartbeat: each process renews a key of its own with a TTL and
//!   reads who else is live, in one script per beat.
//! - `lease.rs`: leases, one owner at a time for a name (`SET NX PX`, renewed by a script that
//!   extends only the holder's value, released by compare-and-delete), held only until the last
//!   renewal's send time + TTL − a margin on the monotonic clock (a slow renewal fails closed).
//!   The fencing epoch that makes a lease safe is the store's (`storage::ownership`).
//! - `broadcast.rs`: a message to every process (pub/sub on one channel, at most once: a
//!   process that subscribes again is told it may have missed some).
//! - `runs.rs`: runs of counted events by key (count, first time), shared (one script).
//! - `tickets.rs`: short-lived values any process redeems once (`SET PX`, `GETDEL`).
//! - `testing.rs`: a `redis-server` of a test's own on a free port (feature `testing`).

pub mod broadcast;
pub mod lease;
pub mod members;
pub mod redis;
pub mod runs;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod tickets;

use std::time::Duration;

pub use broadcast::Broadcast;
pub use lease::{Lease, Leases};
pub use members::{Member, Members};
pub use runs::Runs;
pub use tickets::Tickets;

/// `[cluster]` of the server's configuration: where the cluster's Redis is and who this process
/// is; its presence turns the cluster on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterConfig {
    /// `redis://127.0.0.1:6379/0`
    pub redis_url: String,
    /// This process's name in the cluster, unique among its processes (no `:`).
    pub process_id: String,
    /// Where the other processes reach this one (its HTTP address).
    pub advertise: String,
    /// Prefix of every key (one Redis may serve several clusters).
    pub prefix: String,
    /// How long a lease and a heartbeat last unrenewed.
    pub ttl: Duration,
}

impl ClusterConfig {
    /// A lease's and a heartbeat's TTL by default (CLUSTER.md: `PX 3000`).
    pub const TTL: Duration = Duration::from_millis(3_000);

    pub fn new(redis_url: &str, process_id: &str, advertise: &str) -> ClusterConfig {
        ClusterConfig {
            redis_url: redis_url.to_owned(),
            process_id: process_id.to_owned(),
            advertise: advertise.to_owned(),
            prefix: "yoo".to_owned(),
            ttl: ClusterConfig::TTL,
        }
    }

    /// How often leases and heartbeats are renewed: a third of the TTL, so that two renewals
    /// may fail before anything expires.
    pub fn renew_every(&self) -> Duration {
        self.ttl / 3
    }

    /// What a holder keeps off the end of its lease: renewals are measured from their send
    /// time, and clocks of two machines may run apart by a little.
    pub fn margin(&self) -> Duration {
        (self.ttl / 10).min(Duration::from_millis(300))
    }

    /// Whether the configuration can run: a process id without `:` (the lease values are
    /// `process:nonce`), a Redis URL, a TTL of at least 300 ms.
    pub fn check(&self) -> std::result::Result<(), String> {
        if self.process_id.is_empty() || self.process_id.contains(':') || self.process_id.contains(char::is_whitespace) {
            return Err(format!("[cluster] process_id {:?}: a name without ':' or spaces", self.process_id));
        }
        if !self.redis_url.starts_with("redis://") {
            return Err(format!("[cluster] redis_url {:?}: a redis:// URL", self.redis_url));
        }
        if self.ttl < Duration::from_millis(300) {
            return Err(format!("[cluster] lease_ttl_ms {}: at least 300", self.ttl.as_millis()));
        }
        Ok(())
    }
}

/// Why a cluster call failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Redis did not answer (down, restarting, a cut connection) within the call's timeout.
    #[error("redis: {0}")]
    Redis(String),
}

impl From<::redis::RedisError> for Error {
    fn from(e: ::redis::RedisError) -> Error {
        Error::Redis(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configuration_is_checked() {
        let ok = ClusterConfig::new("redis://127.0.0.1:6379", "p1", "127.0.0.1:8081");
        assert_eq!(ok.check(), Ok(()));
        assert_eq!(ok.renew_every(), Duration::from_millis(1_000));
        assert_eq!(ok.margin(), Duration::from_millis(300));
        for bad in [
            ClusterConfig::new("redis://127.0.0.1:6379", "p:1", "x"),
            ClusterConfig::new("redis://127.0.0.1:6379", "", "x"),
            ClusterConfig::new("http://127.0.0.1:6379", "p1", "x"),
            ClusterConfig {
                ttl: Duration::from_millis(100),
                ..ok.clone()
            },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
        }
    }
}
