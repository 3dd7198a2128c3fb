//! Connections to the cluster's Redis and the names of its keys.

use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use crate::{ClusterConfig, Result};

/// How long one call to Redis may take before it fails (a restarting Redis, a cut connection):
/// below a renewal's period, so that a stuck call costs one renewal, not the lease.
pub const CALL_TIMEOUT: Duration = Duration::from_millis(500);

/// A connection that reconnects by itself after Redis restarts or the connection drops; each
/// part of the cluster (leases, heartbeats) takes its own, so that one's slow call does not
/// delay another's. Lazy: made before Redis answers, it connects on first use.
pub fn connect(config: &ClusterConfig) -> Result<ConnectionManager> {
    let client = redis::Client::open(config.redis_url.as_str())?;
    let settings = ConnectionManagerConfig::new()
        .set_response_timeout(Some(CALL_TIMEOUT))
        .set_connection_timeout(Some(CALL_TIMEOUT))
        .set_min_delay(Duration::from_millis(50))
        .set_max_delay(Duration::from_millis(500))
        .set_number_of_retries(2);
    Ok(ConnectionManager::new_lazy_with_config(client, settings)?)
}

/// The keys, all under the configured prefix.
#[derive(Debug, Clone)]
pub struct Keys {
    prefix: String,
}

impl Keys {
    pub fn new(prefix: &str) -> Keys {
        Keys { prefix: prefix.to_owned() }
    }

    /// A lease on `name`: its value is `process:nonce`.
    pub fn lease(&self, name: &str) -> String {
        format!("{}:lease:{name}", self.prefix)
    }

    /// A process's heartbeat: its value is its advertised address.
    pub fn process(&self, process: &str) -> String {
        format!("{}:proc:{process}", self.prefix)
    }

    /// The set of processes that have beaten (the live among them have their heartbeat key).
    pub fn processes(&self) -> String {
        format!("{}:procs", self.prefix)
    }
}
