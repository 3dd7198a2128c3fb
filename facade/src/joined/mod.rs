//! This process's part in a cluster (`[cluster]`): its membership; the broadcast that tells
//! every process of the logins ended in one (a logout, a ban, a kick, a password change), so that
//! none serves them from its memory of login sessions or keeps their sockets open; and the socket
//! tokens kept as the cluster's tickets, so that a socket may reach another process than its
//! `fetchToken` did; and the counts of the security checks (password failures, code requests),
//! so that the processes together allow what one would. The domain names the ports (`accounts::passport::LoginPeers`,
//! `SharedSocketTokens`); the texts crossing Redis are this module's.
//!
//! - `owners.rs`: the lease of every node queue, and the queue started where it is won.
//! - `forward.rs`: a call refused because another process owns its queue, sent to the owner.
//! - `bus.rs`: pushes to users whose sockets are on other processes.

pub mod bus;
pub mod forward;
pub mod owners;

use std::sync::Arc;

use actors::accounts::passport::{Ended, Failures, LoginEnd, LoginPeers, SharedRuns, SharedSocketTokens, SocketGrant};
use actors::DomainError;
use actors::Platform;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

/// What a process of a cluster keeps while it runs.
pub struct Joined {
    pub process: String,
    pub members: cluster::Members,
    pub logins: Arc<cluster::Broadcast>,
    pub tickets: cluster::Tickets,
    pub leases: cluster::Leases,
    pub owners: owners::Owners,
    pub bus: Arc<bus::ClusterBus>,
    /// The sandbox SMS outbox shared by the processes (one phone for all, as a real one).
    _sandbox_sms: Arc<cluster::Broadcast>,
}

impl Joined {
    /// Joins the cluster with the platform started on `bus` (`bus::ClusterBus::start`).
    pub async fn join(config: &cluster::ClusterConfig, platform: &Platform, bus: Arc<bus::ClusterBus>) -> Result<Joined, String> {
        // the cluster's counters exist from the start, at zero (the dashboard reads them)
        metrics::counter!("yoo_store_fenced_total").increment(0);
        for why in ["refused", "expired", "released"] {
            metrics::counter!("yoo_cluster_leases_lost_total", "why" => why).increment(0);
        }
        for outcome in ["answered", "no_owner"] {
            metrics::counter!("yoo_cluster_forwarded_total", "outcome" => outcome).increment(0);
        }
        metrics::counter!("yoo_cluster_pushes_sent_total").increment(0);
        let members = cluster::Members::start(config).await.map_err(|e| e.to_string())?;
        let play = platform.play.clone();
        bus.on_remote_change(move |uid| play.sockets_changed(uid));
        let play = platform.play.clone();
        bus.on_ask_state(move |uid| {
            let play = play.clone();
            tokio::spawn(async move { play.push_state_if_owned(uid).await });
        });
        tokio::spawn(forget_gone_processes(members.clone(), Arc::downgrade(&bus)));
        let (on_message, on_gap) = (platform.clone(), platform.clone());
        let logins = Arc::new(
            cluster::Broadcast::start(
                config,
                "logins",
                Arc::new(move |bytes: &[u8]| match serde_json::from_slice::<LoginsEnded>(bytes) {
                    Ok(m) => on_message.passport().ended_elsewhere(&m.token_hashes, &m.how()),
                    Err(e) => tracing::warn!(error = %e, "a login broadcast that does not parse"),
                }),
                // missed announcements cannot be told apart: forget every remembered session
                Arc::new(move || on_gap.passport().forget_remembered()),
            )
            .map_err(|e| e.to_string())?,
        );
        platform.passport().set_peers(Arc::new(Announce(logins.clone())));
        let tickets = cluster::Tickets::start(config).map_err(|e| e.to_string())?;
        platform.passport().set_shared_tokens(Arc::new(SocketTickets(tickets.clone())));
        let runs = cluster::Runs::start(config).map_err(|e| e.to_string())?;
        platform.passport().set_shared_runs(Arc::new(RedisRuns(runs)));
        let sandbox_sms = share_sandbox_outbox(config, platform)?;
        let leases = cluster::Leases::start(config).map_err(|e| e.to_string())?;
        let owners = owners::Owners::start(leases.clone(), members.clone(), platform.clone(), config);
        Ok(Joined {
            process: config.process_id.clone(),
            members,
            logins,
            tickets,
            leases,
            owners,
            bus,
            _sandbox_sms: sandbox_sms,
        })
    }

    /// Where the owner of `name` (`queue:1`) answers (`host:port`), if a live process holds
    /// its lease now.
    pub async fn owner_address(&self, name: &str) -> Option<String> {
        let holder = self.leases.holder(name).await.ok()??;
        if let Some(m) = self.members.live().into_iter().find(|m| m.process == holder) {
            return Some(m.advertise);
        }
        // a process that joined since the last heartbeat
        let live = self.members.refresh().await.ok()?;
        live.into_iter().find(|m| m.process == holder).map(|m| m.advertise)
    }

    /// Leaves the cluster: gives back every node queue owned here, then the membership.
    pub async fn leave(&self) {
        self.owners.leave().await;
        let _ = self.members.leave().await;
    }
}

/// A message of the sandbox SMS provider, as it crosses the cluster.
#[derive(Serialize, Deserialize)]
struct SandboxSms {
    from: String,
    phone: String,
    code: String,
    sent_at: i64,
}

/// The sandbox SMS outbox as one for every process: what one sends, every outbox shows (a
/// tester reading the codes through the front door reaches any process).
fn share_sandbox_outbox(config: &cluster::ClusterConfig, platform: &Platform) -> Result<Arc<cluster::Broadcast>, String> {
    let me = config.process_id.clone();
    let receiver = platform.clone();
    let broadcast = Arc::new(
        cluster::Broadcast::start(
            config,
            "sandbox_sms",
            Arc::new(move |bytes: &[u8]| match serde_json::from_slice::<SandboxSms>(bytes) {
                Ok(m) if m.from != me => receiver.passport().sms().sent_elsewhere(&actors::accounts::sms::SmsMessage {
                    phone: m.phone,
                    code: m.code,
                    sent_at: m.sent_at,
                }),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "a sandbox SMS of the cluster that does not parse"),
            }),
            Arc::new(|| {}),
        )
        .map_err(|e| e.to_string())?,
    );
    let (out, from) = (broadcast.clone(), config.process_id.clone());
    platform.passport().sms().share_outbox(Arc::new(move |m| {
        let Ok(bytes) = serde_json::to_vec(&SandboxSms {
            from: from.clone(),
            phone: m.phone.clone(),
            code: m.code.clone(),
            sent_at: m.sent_at,
        }) else {
            return;
        };
        let out = out.clone();
        tokio::spawn(async move {
            if let Err(e) = out.publish(&bytes).await {
                tracing::warn!(error = %e, "a sandbox SMS not shared with the cluster");
            }
        });
    }));
    Ok(broadcast)
}

/// Drops what the bus knew of the sockets of processes no longer live (every second).
async fn forget_gone_processes(members: cluster::Members, bus: std::sync::Weak<bus::ClusterBus>) {
    loop {
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        let Some(bus) = bus.upgrade() else { return };
        let live = members.live().into_iter().map(|m| m.process).collect();
        bus.keep_processes(&live);
    }
}

/// The broadcast's message.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct LoginsEnded {
    token_hashes: Vec<String>,
    /// `closed`, `kick_out`, `frozen`, `ban`
    kind: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    until: i64,
}

impl LoginsEnded {
    fn of(token_hashes: &[String], how: &Ended) -> LoginsEnded {
        let (kind, reason, until) = match how {
            Ended::Closed => ("closed", String::new(), 0),
            Ended::By(LoginEnd::KickOut) => ("kick_out", String::new(), 0),
            Ended::By(LoginEnd::Frozen) => ("frozen", String::new(), 0),
            Ended::By(LoginEnd::Ban { reason, until }) => ("ban", reason.clone(), *until),
        };
        LoginsEnded {
            token_hashes: token_hashes.to_vec(),
            kind: kind.into(),
            reason,
            until,
        }
    }

    fn how(&self) -> Ended {
        match self.kind.as_str() {
            "kick_out" => Ended::By(LoginEnd::KickOut),
            "frozen" => Ended::By(LoginEnd::Frozen),
            "ban" => Ended::By(LoginEnd::Ban {
                reason: self.reason.clone(),
                until: self.until,
            }),
            _ => Ended::Closed,
        }
    }
}

/// Publishes the logins ended here (not waiting for Redis: a failed publish is logged; the
/// other processes then serve those sessions from memory for at most the 10 s they are trusted).
struct Announce(Arc<cluster::Broadcast>);

impl LoginPeers for Announce {
    fn ended(&self, token_hashes: &[String], how: &Ended) {
        let Ok(bytes) = serde_json::to_vec(&LoginsEnded::of(token_hashes, how)) else {
            return;
        };
        let bc = self.0.clone();
        tokio::spawn(async move {
            if let Err(e) = bc.publish(&bytes).await {
                metrics::counter!("yoo_cluster_login_broadcast_failures_total").increment(1);
                tracing::warn!(error = %e, "logins ended here not announced to the cluster");
            }
        });
    }
}

/// Socket tokens as the cluster's tickets: the grant as JSON, taken once by whichever process
/// the socket reaches. Redis not answering refuses the token (the client fetches another).
struct SocketTickets(cluster::Tickets);

#[derive(Serialize, Deserialize)]
struct Grant {
    uid: i64,
    login: String,
    device_no: String,
}

fn unavailable(e: cluster::Error) -> DomainError {
    DomainError::Internal(format!("the cluster's Redis: {e}"))
}

impl SharedSocketTokens for SocketTickets {
    fn put(&self, token: String, grant: SocketGrant, ttl_ms: i64) -> BoxFuture<'_, Result<(), DomainError>> {
        Box::pin(async move {
            let g = Grant {
                uid: grant.uid,
                login: grant.login,
                device_no: grant.device_no,
            };
            let bytes = serde_json::to_vec(&g).map_err(|e| DomainError::Internal(e.to_string()))?;
            let ttl = std::time::Duration::from_millis(ttl_ms.max(1) as u64);
            self.0.put("socket", &token, &bytes, ttl).await.map_err(unavailable)
        })
    }

    fn take(&self, token: String) -> BoxFuture<'_, Result<Option<SocketGrant>, DomainError>> {
        Box::pin(async move {
            let Some(bytes) = self.0.take("socket", &token).await.map_err(unavailable)? else {
                return Ok(None);
            };
            let g: Grant = serde_json::from_slice(&bytes).map_err(|e| DomainError::Internal(e.to_string()))?;
            Ok(Some(SocketGrant {
                uid: g.uid,
                login: g.login,
                device_no: g.device_no,
            }))
        })
    }
}

/// The password failures and code requests counted in Redis, for every process alike. Redis
/// not answering refuses the call (a security check that cannot count does not let it pass).
struct RedisRuns(cluster::Runs);

impl SharedRuns for RedisRuns {
    fn get(&self, keys: Vec<String>) -> BoxFuture<'_, Result<Vec<Failures>, DomainError>> {
        Box::pin(async move {
            let runs = self.0.get(&keys).await.map_err(unavailable)?;
            Ok(runs.into_iter().map(|(count, since)| Failures { count, since }).collect())
        })
    }

    fn count(&self, keys: Vec<String>, now: i64, window_ms: i64) -> BoxFuture<'_, Result<(), DomainError>> {
        Box::pin(async move { self.0.count(&keys, now, window_ms).await.map_err(unavailable) })
    }

    fn clear(&self, key: String) -> BoxFuture<'_, Result<(), DomainError>> {
        Box::pin(async move { self.0.clear(&key).await.map_err(unavailable) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_a_login_ends_crosses_the_broadcast() {
        let hashes = vec!["a".repeat(64), "b".repeat(64)];
        for how in [
            Ended::Closed,
            Ended::By(LoginEnd::KickOut),
            Ended::By(LoginEnd::Frozen),
            Ended::By(LoginEnd::Ban {
                reason: "外挂".into(),
                until: 1_700_000_000_000,
            }),
        ] {
            let text = serde_json::to_vec(&LoginsEnded::of(&hashes, &how)).unwrap();
            let back: LoginsEnded = serde_json::from_slice(&text).unwrap();
            assert_eq!((back.token_hashes.clone(), back.how()), (hashes.clone(), how));
        }
    }
}
