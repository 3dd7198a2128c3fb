//! The queue of one game on one node: who waits, in what order, and who gets the next machine.
//!
//! [`QueueState`] is the pure FIFO with exact ranks; [`ChannelActor`] owns one, asks the node's
//! machine pool for a machine while anyone waits, hands each granted machine to the head of the
//! queue, and tells every player whose rank moved.
//!
//! Hand-off invariant (guarded by `pool_grants_machine_once` and the platform tests):
//! 1. While the queue is non-empty the channel has exactly one demand registered with the pool.
//! 2. A grant pops the head and sends it the machine before anything else is handled, so a
//!    session that asks to leave afterwards learns it was no longer queued and waits for the
//!    machine to give it back.
//! 3. A grant that finds the queue empty goes straight back to the pool.

use std::collections::VecDeque;
use std::sync::Arc;

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use crate::game_session::{MachineId, SessionMsg};
use crate::machine_pool::PoolMsg;
use crate::platform::Ctx;
use crate::player::PlayerMsg;

/// A FIFO queue with exact ranks (1 = next).
#[derive(Debug, Clone)]
pub struct QueueState<T> {
    entries: VecDeque<(i64, T)>,
}

impl<T> Default for QueueState<T> {
    fn default() -> Self {
        QueueState { entries: VecDeque::new() }
    }
}

impl<T> QueueState<T> {
    /// Adds at the back; returns the rank.
    pub fn push(&mut self, id: i64, item: T) -> u64 {
        self.entries.push_back((id, item));
        self.entries.len() as u64
    }

    /// Removes `id`; returns its former 0-based position and the item.
    pub fn remove(&mut self, id: i64) -> Option<(usize, T)> {
        let pos = self.entries.iter().position(|(i, _)| *i == id)?;
        self.entries.remove(pos).map(|(_, item)| (pos, item))
    }

    pub fn pop_front(&mut self) -> Option<(i64, T)> {
        self.entries.pop_front()
    }

    pub fn front(&self) -> Option<&(i64, T)> {
        self.entries.front()
    }

    pub fn rank_of(&self, id: i64) -> Option<u64> {
        self.entries.iter().position(|(i, _)| *i == id).map(|p| p as u64 + 1)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries from 0-based position `from` on, with their rank.
    pub fn ranked_from(&self, from: usize) -> impl Iterator<Item = (u64, &(i64, T))> {
        self.entries.iter().enumerate().skip(from).map(|(i, e)| (i as u64 + 1, e))
    }
}

/// One waiting session.
#[derive(Debug, Clone)]
pub struct Waiting {
    pub session_id: i64,
    pub uid: i64,
    pub since_ms: i64,
    pub session: ActorRef<SessionMsg>,
}

pub enum ChannelMsg {
    /// Join the back of the queue; replies with the rank.
    Enqueue(Waiting, RpcReplyPort<u64>),
    /// Leave the queue; replies whether the session was still in it.
    Remove(i64, RpcReplyPort<bool>),
    /// The pool grants a machine for the head of the queue.
    Grant(MachineId),
    /// Number waiting (tests, metrics).
    Len(RpcReplyPort<usize>),
}

/// Key of a channel: (game id, node id).
pub type ChannelKey = (i64, i64);

pub struct ChannelActor {
    pub ctx: Arc<Ctx>,
}

pub struct ChannelState {
    key: ChannelKey,
    queue: QueueState<Waiting>,
    /// Whether a demand is registered with the pool (invariant 1).
    demanding: bool,
    pool: ActorRef<PoolMsg>,
}

impl Actor for ChannelActor {
    type Msg = ChannelMsg;
    type State = ChannelState;
    type Arguments = ChannelKey;

    async fn pre_start(&self, _me: ActorRef<ChannelMsg>, key: ChannelKey) -> Result<ChannelState, ActorProcessingErr> {
        let pool = self.ctx.pool(key.1).map_err(|e| format!("no pool for node {}: {e}", key.1))?;
        Ok(ChannelState { key, queue: QueueState::default(), demanding: false, pool })
    }

    async fn handle(&self, me: ActorRef<ChannelMsg>, msg: ChannelMsg, st: &mut ChannelState) -> Result<(), ActorProcessingErr> {
        match msg {
            ChannelMsg::Enqueue(w, reply) => {
                let rank = st.queue.push(w.session_id, w);
                metrics::gauge!("yoo_players_waiting").increment(1.0);
                let _ = reply.send(rank);
            }
            ChannelMsg::Remove(id, reply) => {
                let removed = st.queue.remove(id);
                if let Some((pos, _)) = &removed {
                    metrics::gauge!("yoo_players_waiting").decrement(1.0);
                    self.tell_ranks(st, *pos);
                }
                let _ = reply.send(removed.is_some());
            }
            ChannelMsg::Grant(machine) => {
                st.demanding = false;
                let mut handed = false;
                while let Some((_, w)) = st.queue.pop_front() {
                    metrics::gauge!("yoo_players_waiting").decrement(1.0);
                    if w.session.send_message(SessionMsg::Granted(machine.clone())).is_ok() {
                        handed = true;
                        break;
                    }
                }
                if handed {
                    self.tell_ranks(st, 0);
                } else {
                    let _ = st.pool.send_message(PoolMsg::Free(machine));
                }
            }
            ChannelMsg::Len(reply) => {
                let _ = reply.send(st.queue.len());
            }
        }
        if !st.demanding {
            if let Some((_, head)) = st.queue.front() {
                st.demanding = true;
                let _ = st.pool.send_message(PoolMsg::Demand { channel: st.key, since_ms: head.since_ms, reply_to: me.clone() });
            }
        }
        Ok(())
    }
}

impl ChannelActor {
    /// Tells every player from 0-based position `from` on their new rank.
    fn tell_ranks(&self, st: &ChannelState, from: usize) {
        for (rank, (session_id, w)) in st.queue.ranked_from(from) {
            self.ctx.tell_player_now(w.uid, PlayerMsg::Rank { session_id: *session_id, sort: rank });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::QueueState;

    #[test]
    fn ranks_are_exact_through_removals() {
        let mut q = QueueState::default();
        for id in 1..=5 {
            assert_eq!(q.push(id, ()), id as u64);
        }
        assert_eq!(q.remove(3).map(|(p, _)| p), Some(2));
        assert_eq!(q.rank_of(4), Some(3));
        assert_eq!(q.pop_front().map(|(id, _)| id), Some(1));
        let ranks: Vec<(u64, i64)> = q.ranked_from(0).map(|(r, (id, _))| (r, *id)).collect();
        assert_eq!(ranks, vec![(1, 2), (2, 4), (3, 5)]);
        assert!(q.remove(3).is_none());
        assert_eq!(q.len(), 3);
    }
}
