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
    pub fn start(leases: cluster::Leases, members: cluster::Members, platform: Platform, config: &cluster::ClusterConfig) -> Owners {
        let tasks = platform
            .config()
            .nodes
            .iter()
            .map(|n| {
                let here = Here {
                    leases: leases.clone(),
                    members: members.clone(),
                    platform: platform.clone(),
                    process: config.process_id.clone(),
                    ttl: config.ttl,
                };
                tokio::spawn(own_node(here, n.id))
            })
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

/// What a node's lease loop works with.
struct Here {
    leases: cluster::Leases,
    members: cluster::Members,
    platform: Platform,
    process: String,
    /// The lease's TTL: how often an owner checks whether it holds more than its share of the
    /// nodes, and how long it leaves alone a node it gave back to even the shares.
    ttl: Duration,
}

async fn own_node(here: Here, node_id: i64) {
    let name = actors::play::queue_name(node_id);
    loop {
        let mut pause = Duration::ZERO;
        match here.leases.try_acquire(&name).await {
            Ok(Some(lease)) => {
                if serve(&here, node_id, lease).await == Ended::Shed {
                    pause = here.ttl;
                }
            }
            Ok(None) => {}
            Err(e) => tracing::debug!(lease = %name, error = %e, "lease not tried"),
        }
        let jitter = rand::random::<u64>() % (POLL.as_millis() as u64 / 5 + 1);
        tokio::time::sleep(pause + POLL + Duration::from_millis(jitter)).await;
    }
}

/// Why an ownership ended.
#[derive(Debug, PartialEq, Eq)]
enum Ended {
    Lost,
    /// Given back to even the shares.
    Shed,
}

/// Whether this process should give `name` back: it holds more nodes than its share (the
/// nodes over the live processes, rounded up; the first process up takes every node) and
/// `name` is the last of them by name, one at a time, while the live processes are the same
/// as at the last check.
fn over_share(here: &Here, name: &str, live_before: &mut usize) -> bool {
    let live = here.members.live().len().max(1);
    let stable = live == *live_before;
    *live_before = live;
    let nodes = here.platform.config().nodes.len();
    let held = here.leases.held();
    stable && held.len() > nodes.div_ceil(live) && held.last().is_some_and(|last| last == name)
}

/// Owns the node from its lease's winning to its loss (or until it is given back to even the
/// shares).
async fn serve(here: &Here, node_id: i64, mut lease: cluster::Lease) -> Ended {
    let (leases, platform, process) = (&here.leases, &here.platform, here.process.as_str());
    let name = lease.name().to_owned();
    let (store, now, owner) = (platform.store().clone(), platform.clock().now_ms(), process.to_owned());
    let claim_name = name.clone();
    let claimed = tokio::task::spawn_blocking(move || store.ownership.claim(&claim_name, &owner, now)).await;
    let epoch = match claimed {
        Ok(Ok(epoch)) => epoch,
        other => {
            tracing::warn!(lease = %name, result = ?other.map(|r| r.map_err(|e| e.to_string())), "epoch not claimed; lease given back");
            let _ = leases.release(lease).await;
            return Ended::Lost;
        }
    };
    let fence = Fence::new(&name, epoch);
    tokio::select! {
        taken = platform.play.take_node(node_id, fence) => {
            if let Err(e) = taken {
                tracing::error!(lease = %name, error = %e, "node queue not taken; lease given back");
                platform.play.drop_node(node_id);
                let _ = leases.release(lease).await;
                return Ended::Lost;
            }
        }
        _ = lease.lost() => {
            platform.play.drop_node(node_id);
            return Ended::Lost;
        }
    }
    tracing::info!(lease = %name, epoch, "owner of the node queue");
    let mut live = 0;
    let mut check = tokio::time::interval_at(tokio::time::Instant::now() + here.ttl, here.ttl);
    loop {
        tokio::select! {
            _ = lease.lost() => break,
            _ = check.tick() => {
                if over_share(here, &name, &mut live) {
                    // stopped first, then given back: the next owner restores what was written
                    platform.play.drop_node(node_id);
                    let _ = leases.release(lease).await;
                    metrics::counter!("yoo_cluster_leases_shed_total").increment(1);
                    tracing::info!(lease = %name, epoch, "node queue given back to even the processes' shares");
                    return Ended::Shed;
                }
            }
        }
    }
    platform.play.drop_node(node_id);
    tracing::warn!(lease = %name, epoch, "no longer the owner of the node queue: stopped it");
    Ended::Lost
}
