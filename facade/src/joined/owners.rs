//! Who owns each node queue in a cluster (`../shared/CLUSTER.md`, "Ownership"): every process
//! tries each node's lease (`queue:{node}`) every [`POLL`] or sooner; the one that wins takes the
//! node's next epoch from the store and starts its queue there (`Play::take_node`, which
//! restores the node's sessions), and stops it the moment the lease is lost (`Play::drop_node`).
//! The epoch fences every durable write of the owner, so a paused owner that wakes after its
//! lease writes nothing; the lease only decides who should own.

use std::time::Duration;

use actors::Platform;
use storage::ownership::Fence;
use tokio::task::JoinHandle;

/// How often a process tries the lease of a node no one holds (jittered by up to a fifth):
/// with the lease's TTL of 3 s, a dead owner's node is taken within ~3.5 s plus the restore.
pub const POLL: Duration = Duration::from_millis(400);

/// The lease loops of this process, one per configured node.
pub struct Owners {
    leases: cluster::Leases,
    platform: Platform,
    tasks: Vec<JoinHandle<()>>,
}

impl Owners {
    pub fn start(leases: cluster::Leases, platform: Platform, process: String) -> Owners {
        let tasks = platform
            .config()
            .nodes
            .iter()
            .map(|n| tokio::spawn(own_node(leases.clone(), platform.clone(), process.clone(), n.id)))
            .collect();
        Owners { leases, platform, tasks }
    }

    /// Stops trying, stops every node queue owned here and gives their leases back (a process
    /// stopping: the others take the nodes at once instead of after the TTL).
    pub async fn leave(&self) {
        for t in &self.tasks {
            t.abort();
        }
        for n in &self.platform.config().nodes {
            self.platform.play.drop_node(n.id);
        }
        self.leases.release_all().await;
    }
}

impl Drop for Owners {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

async fn own_node(leases: cluster::Leases, platform: Platform, process: String, node_id: i64) {
    let name = actors::play::queue_name(node_id);
    loop {
        match leases.try_acquire(&name).await {
            Ok(Some(lease)) => serve(&leases, &platform, &process, node_id, lease).await,
            Ok(None) => {}
            Err(e) => tracing::debug!(lease = %name, error = %e, "lease not tried"),
        }
        let jitter = rand::random::<u64>() % (POLL.as_millis() as u64 / 5 + 1);
        tokio::time::sleep(POLL + Duration::from_millis(jitter)).await;
    }
}

/// Owns the node from its lease's winning to its loss.
async fn serve(leases: &cluster::Leases, platform: &Platform, process: &str, node_id: i64, mut lease: cluster::Lease) {
    let name = lease.name().to_owned();
    let (store, now, owner) = (platform.store().clone(), platform.clock().now_ms(), process.to_owned());
    let claim_name = name.clone();
    let claimed = tokio::task::spawn_blocking(move || store.ownership.claim(&claim_name, &owner, now)).await;
    let epoch = match claimed {
        Ok(Ok(epoch)) => epoch,
        other => {
            tracing::warn!(lease = %name, result = ?other.map(|r| r.map_err(|e| e.to_string())), "epoch not claimed; lease given back");
            let _ = leases.release(lease).await;
            return;
        }
    };
    let fence = Fence::new(&name, epoch);
    tokio::select! {
        taken = platform.play.take_node(node_id, fence) => {
            if let Err(e) = taken {
                tracing::error!(lease = %name, error = %e, "node queue not taken; lease given back");
                platform.play.drop_node(node_id);
                let _ = leases.release(lease).await;
                return;
            }
        }
        _ = lease.lost() => {
            platform.play.drop_node(node_id);
            return;
        }
    }
    tracing::info!(lease = %name, epoch, "owner of the node queue");
    lease.lost().await;
    platform.play.drop_node(node_id);
    tracing::warn!(lease = %name, epoch, "no longer the owner of the node queue: stopped it");
}
