//! A supervisor with restart limits and escalation.
//!
//! ractor only *notifies* a supervisor when a linked child stops or fails. This actor acts on it:
//! a failed child is started again from its [`ChildSpec`]; when one child has failed more than
//! `max_restarts` times within `within`, the supervisor stops trying and fails itself, so its own
//! parent learns of it (escalation). A child that stops normally is forgotten.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use ractor::{Actor, ActorCell, ActorId, ActorProcessingErr, ActorRef, RpcReplyPort, SpawnErr, SupervisionEvent};
use tokio::time::Instant;

/// How many restarts a supervisor allows before it escalates.
#[derive(Debug, Clone, Copy)]
pub struct RestartPolicy {
    /// More than this many restarts of one child...
    pub max_restarts: u32,
    /// ...within this window escalates.
    pub within: Duration,
}

impl Default for RestartPolicy {
    fn default() -> Self {
        RestartPolicy {
            max_restarts: 3,
            within: Duration::from_secs(5),
        }
    }
}

/// How to start (and start again) one child.
pub trait ChildSpec: Send + Sync + 'static {
    /// The actor kind, for metrics and logs.
    fn kind(&self) -> &'static str;
    /// Starts the child linked to `supervisor`.
    fn start(&self, supervisor: ActorCell) -> BoxFuture<'static, Result<ActorCell, SpawnErr>>;
    /// Told when the child stopped for good (normal stop, or a restart that was not attempted).
    fn stopped(&self, _child: &ActorCell) {}
}

pub enum SupervisorMsg {
    /// Start a child under this supervisor and reply with it.
    Start {
        spec: Arc<dyn ChildSpec>,
        reply: RpcReplyPort<Result<ActorCell, String>>,
    },
    /// How many restarts the child started from this spec... (for tests): number of live children.
    Children(RpcReplyPort<usize>),
}

/// The supervisor actor. Its arguments are its name (a kind, for metrics) and its policy.
pub struct Supervisor;

pub struct SupervisorState {
    name: &'static str,
    policy: RestartPolicy,
    /// Live children by actor id, with the spec that starts them again.
    children: HashMap<ActorId, Child>,
}

struct Child {
    spec: Arc<dyn ChildSpec>,
    /// Times of recent restarts, oldest first, pruned to the policy window.
    restarts: VecDeque<Instant>,
}

impl Supervisor {
    /// Starts a top-level supervisor (not linked to a parent).
    pub async fn start(name: &'static str, policy: RestartPolicy) -> Result<ActorRef<SupervisorMsg>, SpawnErr> {
        let (r, _) = Actor::spawn(None, Supervisor, (name, policy)).await?;
        Ok(r)
    }

    /// Starts a supervisor linked under `parent`, which sees it fail when it escalates.
    pub async fn start_linked(name: &'static str, policy: RestartPolicy, parent: ActorCell) -> Result<ActorRef<SupervisorMsg>, SpawnErr> {
        let (r, _) = Actor::spawn_linked(None, Supervisor, (name, policy), parent).await?;
        Ok(r)
    }

    /// Asks `sup` to start a child from `spec`.
    pub async fn start_child(sup: &ActorRef<SupervisorMsg>, spec: Arc<dyn ChildSpec>) -> Result<ActorCell, String> {
        match sup.call(|reply| SupervisorMsg::Start { spec, reply }, None).await {
            Ok(ractor::rpc::CallResult::Success(r)) => r,
            Ok(_) => Err("supervisor did not answer".into()),
            Err(e) => Err(format!("supervisor unavailable: {e}")),
        }
    }
}

impl Actor for Supervisor {
    type Msg = SupervisorMsg;
    type State = SupervisorState;
    type Arguments = (&'static str, RestartPolicy);

    async fn pre_start(&self, _me: ActorRef<Self::Msg>, (name, policy): Self::Arguments) -> Result<Self::State, ActorProcessingErr> {
        Ok(SupervisorState {
            name,
            policy,
            children: HashMap::new(),
        })
    }

    async fn handle(&self, me: ActorRef<Self::Msg>, msg: Self::Msg, state: &mut Self::State) -> Result<(), ActorProcessingErr> {
        match msg {
            SupervisorMsg::Start { spec, reply } => {
                let result = spec.start(me.get_cell()).await.map_err(|e| e.to_string());
                if let Ok(cell) = &result {
                    if let std::collections::hash_map::Entry::Vacant(slot) = state.children.entry(cell.get_id()) {
                        crate::metrics::actor_started(spec.kind());
                        slot.insert(Child {
                            spec,
                            restarts: VecDeque::new(),
                        });
                    }
                }
                let _ = reply.send(result);
            }
            SupervisorMsg::Children(reply) => {
                let _ = reply.send(state.children.len());
            }
        }
        Ok(())
    }

    async fn handle_supervisor_evt(
        &self,
        me: ActorRef<Self::Msg>,
        evt: SupervisionEvent,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        match evt {
            SupervisionEvent::ActorTerminated(cell, _, _) => {
                if let Some(child) = state.children.remove(&cell.get_id()) {
                    crate::metrics::actor_stopped(child.spec.kind());
                    child.spec.stopped(&cell);
                }
            }
            SupervisionEvent::ActorFailed(cell, err) => {
                let Some(mut child) = state.children.remove(&cell.get_id()) else {
                    return Ok(());
                };
                let kind = child.spec.kind();
                crate::metrics::actor_stopped(kind);
                let now = Instant::now();
                while child.restarts.front().is_some_and(|t| now.duration_since(*t) > state.policy.within) {
                    child.restarts.pop_front();
                }
                if child.restarts.len() as u32 >= state.policy.max_restarts {
                    tracing::error!(supervisor = state.name, kind, error = %err, "restart limit reached, escalating");
                    crate::metrics::supervisor_escalated(state.name);
                    child.spec.stopped(&cell);
                    return Err(format!("{}: child {kind} failed too often: {err}", state.name).into());
                }
                tracing::warn!(supervisor = state.name, kind, error = %err, "child failed, restarting");
                child.restarts.push_back(now);
                match child.spec.start(me.get_cell()).await {
                    Ok(new_cell) => {
                        crate::metrics::actor_restarted(kind);
                        crate::metrics::actor_started(kind);
                        state.children.insert(new_cell.get_id(), child);
                    }
                    Err(e) => {
                        child.spec.stopped(&cell);
                        return Err(format!("{}: restart of {kind} failed: {e}", state.name).into());
                    }
                }
            }
            SupervisionEvent::ActorStarted(_) | SupervisionEvent::ProcessGroupChanged(_) => {}
        }
        Ok(())
    }
}
