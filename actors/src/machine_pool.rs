//! The machines of one server node: which are free, and which queues wait for one.
//!
//! [`PoolState`] is pure: a free machine goes to the channel whose head has waited longest, and a
//! machine is never handed out twice (freeing a machine that is not out is ignored).
//! [`MachinePoolActor`] owns one and sends each grant to its channel.

use std::collections::{HashMap, HashSet, VecDeque};

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use crate::game_session::MachineId;
use crate::queue::{ChannelKey, ChannelMsg};

#[derive(Debug, Clone, Default)]
pub struct PoolState {
    free: VecDeque<MachineId>,
    out: HashSet<MachineId>,
    /// Channels waiting for a machine, with the time their head joined.
    demand: Vec<(ChannelKey, i64)>,
}

/// A machine given to a channel.
pub type Grant = (ChannelKey, MachineId);

impl PoolState {
    pub fn new(machines: impl IntoIterator<Item = MachineId>) -> Self {
        PoolState {
            free: machines.into_iter().collect(),
            ..Default::default()
        }
    }

    /// A channel wants a machine for its head, queued since `since_ms`.
    pub fn demand(&mut self, channel: ChannelKey, since_ms: i64) -> Option<Grant> {
        match self.demand.iter_mut().find(|(c, _)| *c == channel) {
            Some(d) => d.1 = since_ms,
            None => self.demand.push((channel, since_ms)),
        }
        self.next_grant()
    }

    /// A machine comes back. A machine that is not out is ignored (no double hand-out).
    pub fn free(&mut self, machine: MachineId) -> Option<Grant> {
        if !self.out.remove(&machine) {
            return None;
        }
        self.free.push_back(machine);
        self.next_grant()
    }

    fn next_grant(&mut self) -> Option<Grant> {
        if self.free.is_empty() || self.demand.is_empty() {
            return None;
        }
        let (i, _) = self.demand.iter().enumerate().min_by_key(|(_, (c, since))| (*since, *c))?;
        let (channel, _) = self.demand.swap_remove(i);
        let machine = self.free.pop_front()?;
        self.out.insert(machine.clone());
        Some((channel, machine))
    }

    /// Takes a specific free machine out; false if it is not free here.
    pub fn claim(&mut self, machine: &MachineId) -> bool {
        let Some(i) = self.free.iter().position(|m| m == machine) else {
            return false;
        };
        self.free.remove(i);
        self.out.insert(machine.clone());
        true
    }

    pub fn free_count(&self) -> usize {
        self.free.len()
    }

    pub fn out_count(&self) -> usize {
        self.out.len()
    }
}

pub enum PoolMsg {
    Demand {
        channel: ChannelKey,
        since_ms: i64,
        reply_to: ActorRef<ChannelMsg>,
    },
    Free(MachineId),
    /// (free, out) counts.
    Stats(RpcReplyPort<(usize, usize)>),
    /// Marks a free machine as out (a session restored after a restart holds it); false if it is
    /// not a free machine of this pool.
    Claim(MachineId, RpcReplyPort<bool>),
}

pub struct MachinePoolActor;

pub struct MachinePoolState {
    pool: PoolState,
    /// Where each demanding channel's grant goes.
    channels: HashMap<ChannelKey, ActorRef<ChannelMsg>>,
}

impl Actor for MachinePoolActor {
    type Msg = PoolMsg;
    type State = MachinePoolState;
    type Arguments = Vec<MachineId>;

    async fn pre_start(&self, _me: ActorRef<PoolMsg>, machines: Vec<MachineId>) -> Result<MachinePoolState, ActorProcessingErr> {
        metrics::gauge!("yoo_machines_free").increment(machines.len() as f64);
        Ok(MachinePoolState {
            pool: PoolState::new(machines),
            channels: HashMap::new(),
        })
    }

    async fn handle(&self, _me: ActorRef<PoolMsg>, msg: PoolMsg, st: &mut MachinePoolState) -> Result<(), ActorProcessingErr> {
        let free_before = st.pool.free_count() as f64;
        let mut grant = match msg {
            PoolMsg::Demand {
                channel,
                since_ms,
                reply_to,
            } => {
                st.channels.insert(channel, reply_to);
                st.pool.demand(channel, since_ms)
            }
            PoolMsg::Free(m) => {
                let before = st.pool.free_count();
                let g = st.pool.free(m.clone());
                if g.is_none() && st.pool.free_count() == before {
                    tracing::warn!(machine = %m, "freed a machine that was not out");
                }
                g
            }
            PoolMsg::Stats(reply) => {
                let _ = reply.send((st.pool.free_count(), st.pool.out_count()));
                None
            }
            PoolMsg::Claim(m, reply) => {
                let _ = reply.send(st.pool.claim(&m));
                None
            }
        };
        while let Some((channel, machine)) = grant {
            grant = match st.channels.remove(&channel) {
                Some(ch) if ch.send_message(ChannelMsg::Grant(machine.clone())).is_ok() => None,
                // The channel is gone: the machine is free again, perhaps for another channel.
                _ => st.pool.free(machine),
            };
        }
        metrics::gauge!("yoo_machines_free").increment(st.pool.free_count() as f64 - free_before);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::PoolState;

    /// A free machine goes to the channel whose head waited longest; nothing is handed out twice.
    #[test]
    fn pool_grants_machine_once() {
        let mut p = PoolState::new(["m1".to_string()]);
        assert_eq!(p.demand((1, 1), 100), Some(((1, 1), "m1".to_string())));
        assert_eq!(p.demand((2, 1), 50), None);
        assert_eq!(p.demand((3, 1), 70), None);
        // Freeing a machine that is not out is ignored.
        assert_eq!(p.free("m9".to_string()), None);
        assert_eq!(p.free("m1".to_string()), Some(((2, 1), "m1".to_string())));
        assert_eq!(p.free("m1".to_string()), Some(((3, 1), "m1".to_string())));
        assert_eq!(p.free("m1".to_string()), None);
        assert_eq!(p.free("m1".to_string()), None, "double free must not create a second machine");
        assert_eq!((p.free_count(), p.out_count()), (1, 0));
    }
}
