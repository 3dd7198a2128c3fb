//! Runs of counted events shared by every process of the cluster: per key, a count and the time
//! of the run's first event; a run older than its window starts again at the next event. The
//! times are the callers' (the platform's clock), so the rule is the one a single process
//! applies in its memory.

use redis::aio::ConnectionManager;
use redis::Script;

use crate::{ClusterConfig, Result};

/// KEYS: the runs. ARGV: now ms, window ms.
const COUNT: &str = r"
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
for _, k in ipairs(KEYS) do
  local count = tonumber(redis.call('HGET', k, 'count') or '0')
  local since = tonumber(redis.call('HGET', k, 'since') or '0')
  if count == 0 or now - since >= window then
    count, since = 0, now
  end
  redis.call('HSET', k, 'count', count + 1, 'since', since)
  redis.call('PEXPIRE', k, window)
end
return 1
";

#[derive(Clone)]
pub struct Runs {
    conn: ConnectionManager,
    prefix: String,
    count: Script,
}

impl Runs {
    pub fn start(config: &ClusterConfig) -> Result<Runs> {
        Ok(Runs {
            conn: crate::redis::connect(config)?,
            prefix: config.prefix.clone(),
            count: Script::new(COUNT),
        })
    }

    fn key(&self, key: &str) -> String {
        format!("{}:run:{key}", self.prefix)
    }

    /// (count, since) of each key's run; (0, 0) for a key without one.
    pub async fn get(&self, keys: &[String]) -> Result<Vec<(u32, i64)>> {
        let mut pipe = redis::pipe();
        for k in keys {
            pipe.cmd("HMGET").arg(self.key(k)).arg("count").arg("since");
        }
        let mut conn = self.conn.clone();
        let rows: Vec<(Option<u32>, Option<i64>)> = pipe.query_async(&mut conn).await?;
        Ok(rows.into_iter().map(|(c, s)| (c.unwrap_or(0), s.unwrap_or(0))).collect())
    }

    /// One more event at `now` for each key.
    pub async fn count(&self, keys: &[String], now: i64, window_ms: i64) -> Result<()> {
        let mut call = self.count.prepare_invoke();
        for k in keys {
            call.key(self.key(k));
        }
        call.arg(now).arg(window_ms);
        let mut conn = self.conn.clone();
        let _: i64 = call.invoke_async(&mut conn).await?;
        Ok(())
    }

    pub async fn clear(&self, key: &str) -> Result<()> {
        let mut conn = self.conn.clone();
        let _: i64 = redis::cmd("DEL").arg(self.key(key)).query_async(&mut conn).await?;
        Ok(())
    }
}
