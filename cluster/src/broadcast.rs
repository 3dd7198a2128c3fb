//! A broadcast to every process of the cluster: Redis pub/sub on one channel. At most once,
//! like pub/sub itself: a process whose subscription dropped may have missed messages, so it
//! is told (`on_gap`) each time it subscribes again, and acts as if it had missed everything
//! (the login sessions forget what they remembered, for one).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::ConnectionManager;

use crate::{ClusterConfig, Result};

/// What a process does with a message of the channel (its own included).
pub type OnMessage = Arc<dyn Fn(&[u8]) + Send + Sync>;
/// What a process does when it (re)subscribes: it may have missed messages.
pub type OnGap = Arc<dyn Fn() + Send + Sync>;

/// One channel: publish to every process, and this process's subscription, kept by a task
/// that subscribes again after Redis restarts or the connection drops, until dropped.
pub struct Broadcast {
    conn: ConnectionManager,
    channel: String,
    stop: Arc<AtomicBool>,
}

impl Broadcast {
    pub fn start(config: &ClusterConfig, name: &str, on_message: OnMessage, on_gap: OnGap) -> Result<Broadcast> {
        let channel = format!("{}:bc:{name}", config.prefix);
        let client = redis::Client::open(config.redis_url.as_str())?;
        let stop = Arc::new(AtomicBool::new(false));
        tokio::spawn(subscribe(client, channel.clone(), on_message, on_gap, stop.clone()));
        Ok(Broadcast {
            conn: crate::redis::connect(config)?,
            channel,
            stop,
        })
    }

    /// Sends `payload` to every process subscribed now; how many got it.
    pub async fn publish(&self, payload: &[u8]) -> Result<u64> {
        let mut conn = self.conn.clone();
        Ok(redis::cmd("PUBLISH").arg(&self.channel).arg(payload).query_async(&mut conn).await?)
    }
}

impl Drop for Broadcast {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

async fn subscribe(client: redis::Client, channel: String, on_message: OnMessage, on_gap: OnGap, stop: Arc<AtomicBool>) {
    let mut backoff = Duration::from_millis(50);
    while !stop.load(Ordering::SeqCst) {
        let pubsub = match tokio::time::timeout(crate::redis::CALL_TIMEOUT, client.get_async_pubsub()).await {
            Ok(Ok(mut p)) => match p.subscribe(&channel).await {
                Ok(()) => Some(p),
                Err(_) => None,
            },
            _ => None,
        };
        let Some(pubsub) = pubsub else {
            metrics::counter!("yoo_cluster_broadcast_resubscribes_total", "result" => "failed").increment(1);
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(1));
            continue;
        };
        backoff = Duration::from_millis(50);
        metrics::counter!("yoo_cluster_broadcast_resubscribes_total", "result" => "subscribed").increment(1);
        on_gap();
        let mut messages = pubsub.into_on_message();
        loop {
            // wakes once a second to see whether it was dropped
            match tokio::time::timeout(Duration::from_secs(1), messages.next()).await {
                Ok(Some(m)) => on_message(m.get_payload_bytes()),
                Ok(None) => break,
                Err(_) if stop.load(Ordering::SeqCst) => return,
                Err(_) => {}
            }
        }
        tracing::warn!(channel, "broadcast subscription dropped; subscribing again");
    }
}
