//! Short-lived tickets every process of the cluster can redeem: a value under a key with a TTL,
//! taken at most once (`GETDEL`). What one process issues (a socket token) another redeems, as
//! the front door spreads a client's calls without sticky sessions.

use std::time::Duration;

use redis::aio::ConnectionManager;

use crate::{ClusterConfig, Result};

#[derive(Clone)]
pub struct Tickets {
    conn: ConnectionManager,
    prefix: String,
}

impl Tickets {
    pub fn start(config: &ClusterConfig) -> Result<Tickets> {
        Ok(Tickets {
            conn: crate::redis::connect(config)?,
            prefix: config.prefix.clone(),
        })
    }

    fn key(&self, kind: &str, id: &str) -> String {
        format!("{}:ticket:{kind}:{id}", self.prefix)
    }

    /// Keeps `value` under (`kind`, `id`) for `ttl`.
    pub async fn put(&self, kind: &str, id: &str, value: &[u8], ttl: Duration) -> Result<()> {
        let mut conn = self.conn.clone();
        let () = redis::cmd("SET")
            .arg(self.key(kind, id))
            .arg(value)
            .arg("PX")
            .arg(ttl.as_millis().max(1) as u64)
            .query_async(&mut conn)
            .await?;
        Ok(())
    }

    /// The value, once: whoever takes it first gets it, then it is gone.
    pub async fn take(&self, kind: &str, id: &str) -> Result<Option<Vec<u8>>> {
        let mut conn = self.conn.clone();
        Ok(redis::cmd("GETDEL").arg(self.key(kind, id)).query_async(&mut conn).await?)
    }
}
