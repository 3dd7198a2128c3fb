//! The host's link to the platform: one WebSocket (`{platform_url}`) carrying hostlink's JSON
//! frames. The host says hello (signed with the node's secret), waits for Welcome or Refused,
//! then heartbeats every `heartbeat_ms` with every slot's state, forwards the slots' reports at
//! once, and hands Launch and End to the slots. Control (who of a live room plays) is applied
//! to the slot's fan-out here, on the link's task, not behind whatever the slot's actor is doing:
//! input from a revoked controller is dropped from the moment the frame is read. A dropped or
//! refused link is retried with a backoff (250 ms doubling to 5 s).
//!
//! When the link has been down for [`HOST_TIMEOUT_MS`], the platform has ended the sessions on
//! this host's machines, so the host ends their games and resets the slots ([`LinkWatch`]); a
//! link back sooner keeps them, and the hello reports where each slot stands.

use std::sync::Arc;
use std::time::Duration;

use actix_http::ws::{Frame, Message};
use futures_util::{SinkExt as _, StreamExt as _};
use hostlink::{HostMsg, LinkRefusal, PlatformMsg, HOST_TIMEOUT_MS};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::host::Host;
use crate::slot::SlotCmd;

const MIN_BACKOFF: Duration = Duration::from_millis(250);
const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// How long the platform may take to answer a hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(5);

/// Ends the games when the link stays down for the platform's host timeout.
pub struct LinkWatch {
    timeout: Duration,
    on_expire: Arc<dyn Fn() + Send + Sync>,
    /// The countdown started when the link went down; aborted when it comes back.
    timer: Option<JoinHandle<()>>,
}

impl LinkWatch {
    pub fn new(timeout: Duration, on_expire: Arc<dyn Fn() + Send + Sync>) -> LinkWatch {
        LinkWatch {
            timeout,
            on_expire,
            timer: None,
        }
    }

    /// The link is up (welcomed): a running countdown stops.
    pub fn up(&mut self) {
        if let Some(t) = self.timer.take() {
            t.abort();
        }
    }

    /// The link went down: the countdown starts (unless it runs already).
    pub fn down(&mut self) {
        if self.timer.as_ref().is_some_and(|t| !t.is_finished()) {
            return;
        }
        // The deadline counts from now, not from when the task first runs.
        let (deadline, f) = (tokio::time::Instant::now() + self.timeout, self.on_expire.clone());
        self.timer = Some(tokio::spawn(async move {
            tokio::time::sleep_until(deadline).await;
            f();
        }));
    }
}

impl Drop for LinkWatch {
    fn drop(&mut self) {
        self.up();
    }
}

/// Why a link attempt ended.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("cannot connect: {0}")]
    Connect(String),
    #[error("refused by the platform: {0:?}")]
    Refused(LinkRefusal),
    #[error("protocol: {0}")]
    Protocol(String),
    #[error("closed by the platform")]
    Closed,
}

type Framed = actix_codec::Framed<awc::BoxedSocket, awc::ws::Codec>;

/// Keeps the host linked until the task is dropped. `events` are the slots' reports.
pub async fn run(host: Arc<Host>, mut events: mpsc::UnboundedReceiver<HostMsg>) {
    let h = host.clone();
    let mut watch = LinkWatch::new(
        Duration::from_millis(HOST_TIMEOUT_MS),
        Arc::new(move || {
            for s in h.slots() {
                s.send(SlotCmd::Abandon);
            }
        }),
    );
    let mut backoff = MIN_BACKOFF;
    // Failed attempts in a row: the first of a streak is logged as a warning, the rest quietly.
    let mut failures = 0u32;
    loop {
        match connect(&host, &mut events).await {
            Ok((framed, heartbeat)) => {
                watch.up();
                backoff = MIN_BACKOFF;
                failures = 0;
                metrics::counter!("yoo_gamehost_link_connects_total", "outcome" => "welcome").increment(1);
                metrics::gauge!("yoo_gamehost_link_up").set(1.0);
                tracing::info!(platform = %host.config.platform_url, "linked to the platform");
                let why = serve(&host, framed, heartbeat, &mut events).await;
                metrics::gauge!("yoo_gamehost_link_up").set(0.0);
                tracing::warn!(error = %why, "link to the platform lost");
                watch.down();
            }
            Err(LinkError::Refused(LinkRefusal::Elsewhere)) => {
                // the front door spreads links over the processes: the next may be the owner
                metrics::counter!("yoo_gamehost_link_connects_total", "outcome" => "elsewhere").increment(1);
                tracing::debug!("the node's queue is owned by another process: linking again");
                backoff = MIN_BACKOFF;
            }
            Err(LinkError::Refused(reason)) => {
                metrics::counter!("yoo_gamehost_link_connects_total", "outcome" => "refused").increment(1);
                tracing::error!(?reason, "the platform refused this host (check node_id, host and secret)");
                backoff = MAX_BACKOFF;
            }
            Err(e) => {
                metrics::counter!("yoo_gamehost_link_connects_total", "outcome" => "failed").increment(1);
                if failures == 0 {
                    tracing::warn!(error = %e, platform = %host.config.platform_url, "cannot link to the platform: retrying");
                } else {
                    tracing::debug!(error = %e, "cannot link to the platform");
                }
                failures += 1;
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

/// Connects and says hello; the heartbeat period on Welcome.
async fn connect(host: &Host, events: &mut mpsc::UnboundedReceiver<HostMsg>) -> Result<(Framed, Duration), LinkError> {
    let client = awc::Client::builder().timeout(HELLO_TIMEOUT).finish();
    let (_, mut framed) = client
        .ws(host.config.platform_url.as_str())
        .connect()
        .await
        .map_err(|e| LinkError::Connect(e.to_string()))?;
    // Reports from before the hello are stale: the hello carries every slot's state. Reports
    // after it are sent once welcomed.
    while events.try_recv().is_ok() {}
    let hello = HostMsg::Hello(host.hello(crate::now_ms()));
    framed
        .send(Message::Text(hello.to_json().into()))
        .await
        .map_err(|e| LinkError::Connect(e.to_string()))?;
    let answer = tokio::time::timeout(HELLO_TIMEOUT, next_message(&mut framed))
        .await
        .map_err(|_| LinkError::Protocol("no answer to the hello".into()))??;
    match answer {
        PlatformMsg::Welcome { heartbeat_ms } => Ok((framed, Duration::from_millis(heartbeat_ms.clamp(100, 60_000)))),
        PlatformMsg::Refused { reason } => Err(LinkError::Refused(reason)),
        other => Err(LinkError::Protocol(format!("expected welcome, got {other:?}"))),
    }
}

/// The next platform message (answering pings on the way).
async fn next_message(framed: &mut Framed) -> Result<PlatformMsg, LinkError> {
    loop {
        match framed.next().await {
            Some(Ok(Frame::Text(t))) => {
                return serde_json::from_slice(&t).map_err(|e| LinkError::Protocol(format!("bad platform message: {e}")));
            }
            Some(Ok(Frame::Ping(p))) => framed
                .send(Message::Pong(p))
                .await
                .map_err(|e| LinkError::Protocol(e.to_string()))?,
            Some(Ok(Frame::Close(_))) | None => return Err(LinkError::Closed),
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(LinkError::Protocol(e.to_string())),
        }
    }
}

/// Runs a welcomed link until it drops.
async fn serve(host: &Host, mut framed: Framed, heartbeat: Duration, events: &mut mpsc::UnboundedReceiver<HostMsg>) -> LinkError {
    let mut tick = tokio::time::interval(heartbeat);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let out = tokio::select! {
            msg = next_message(&mut framed) => match msg {
                Ok(m) => {
                    handle(host, m);
                    continue;
                }
                Err(e) => return e,
            },
            _ = tick.tick() => HostMsg::Heartbeat { slots: host.reports() },
            ev = events.recv() => match ev {
                Some(ev) => ev,
                None => return LinkError::Closed,
            },
        };
        if let Err(e) = framed.send(Message::Text(out.to_json().into())).await {
            return LinkError::Protocol(e.to_string());
        }
    }
}

fn handle(host: &Host, msg: PlatformMsg) {
    match msg {
        PlatformMsg::Launch {
            slot,
            session_id,
            uid,
            game,
        } => match host.slot(slot) {
            Some(s) => s.send(SlotCmd::Launch { session_id, uid, game }),
            None => host.report(HostMsg::GameExited {
                slot,
                session_id,
                reason: format!("this host has no slot {slot}"),
            }),
        },
        PlatformMsg::End { slot, session_id } => {
            if let Some(s) = host.slot(slot) {
                s.send(SlotCmd::End { session_id });
            }
        }
        PlatformMsg::Control {
            slot,
            session_id,
            controller,
        } => {
            let applied = host.slot(slot).is_some_and(|s| s.set_controller(session_id, controller));
            tracing::info!(slot, session_id, controller, applied, "control");
        }
        PlatformMsg::Welcome { .. } | PlatformMsg::Refused { .. } => {
            tracing::warn!(?msg, "unexpected platform message on a welcomed link");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn watch() -> (LinkWatch, Arc<AtomicUsize>) {
        let fired = Arc::new(AtomicUsize::new(0));
        let f = fired.clone();
        let w = LinkWatch::new(
            Duration::from_millis(HOST_TIMEOUT_MS),
            Arc::new(move || {
                f.fetch_add(1, Ordering::SeqCst);
            }),
        );
        (w, fired)
    }

    async fn advance(ms: u64) {
        tokio::time::advance(Duration::from_millis(ms)).await;
        // Let the timer task run.
        tokio::task::yield_now().await;
    }

    // A link back within the host timeout keeps the games; one that stays down ends them once.
    #[tokio::test(start_paused = true)]
    async fn games_end_only_after_the_host_timeout() {
        let (mut w, fired) = watch();
        w.down();
        advance(HOST_TIMEOUT_MS - 1).await;
        w.up();
        advance(HOST_TIMEOUT_MS * 2).await;
        assert_eq!(fired.load(Ordering::SeqCst), 0, "came back in time");

        w.down();
        advance(HOST_TIMEOUT_MS - 1).await;
        assert_eq!(fired.load(Ordering::SeqCst), 0);
        w.down();
        advance(1).await;
        assert_eq!(fired.load(Ordering::SeqCst), 1, "a second down does not restart the countdown");
        advance(HOST_TIMEOUT_MS * 3).await;
        assert_eq!(fired.load(Ordering::SeqCst), 1, "once");

        w.up();
        w.down();
        advance(HOST_TIMEOUT_MS).await;
        assert_eq!(fired.load(Ordering::SeqCst), 2, "a new drop counts again");
    }
}
