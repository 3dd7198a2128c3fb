//! The queue of one game on one node: who waits, in what order, and who gets the next machine.
//!
//! The order is [`LaneQueue`]'s (lanes and weighted fair admission, see `lanes`).
//! [`ChannelActor`] owns one, asks the node's machine pool for a machine while anyone waits,
//! hands each granted machine to the head of the queue, and refreshes the ranks players see.
//!
//! Hand-off invariant (guarded by `pool_grants_machine_once` and the platform tests):
//! 1. While the queue is non-empty the channel has exactly one demand registered with the pool.
//! 2. A grant pops the head and sends it the machine before anything else is handled, so a
//!    session that asks to leave afterwards learns it was no longer queued and waits for the
//!    machine to give it back.
//! 3. A grant that finds the queue empty goes straight back to the pool.
//!
//! Rank freshness: any change marks the queue dirty and schedules one refresh `rank_refresh`
//! later; the refresh walks the queue once in admission order and tells each player whose rank
//! moved. A displayed rank is thus at most `rank_refresh` stale, and a burst of changes costs one
//! walk.

use std::collections::HashMap;
use std::sync::Arc;

use engine::Timers;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use crate::game_session::{MachineId, SessionMsg};
use crate::lanes::{Lane, LaneQueue};
use crate::machine_pool::PoolMsg;
use crate::platform::Ctx;
use crate::player::PlayerMsg;

/// One waiting session.
#[derive(Debug, Clone)]
pub struct Waiting {
    pub session_id: i64,
    pub uid: i64,
    pub lane: Lane,
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
    /// The exact rank of a waiting session, if it waits.
    Rank(i64, RpcReplyPort<Option<u64>>),
    /// Number waiting (tests, metrics).
    Len(RpcReplyPort<usize>),
    /// Timer: tell players whose rank moved.
    RefreshRanks,
}

/// Key of a channel: (game id, node id).
pub type ChannelKey = (i64, i64);

pub struct ChannelActor {
    pub ctx: Arc<Ctx>,
}

pub struct ChannelState {
    key: ChannelKey,
    queue: LaneQueue<Waiting>,
    /// Whether a demand is registered with the pool (invariant 1).
    demanding: bool,
    pool: ActorRef<PoolMsg>,
    /// The rank each waiting session was last told.
    told: HashMap<i64, u64>,
    /// The pending rank refresh, if the queue changed since the last one.
    timers: Timers<()>,
}

impl Actor for ChannelActor {
    type Msg = ChannelMsg;
    type State = ChannelState;
    type Arguments = ChannelKey;

    async fn pre_start(&self, _me: ActorRef<ChannelMsg>, key: ChannelKey) -> Result<ChannelState, ActorProcessingErr> {
        let pool = self.ctx.pool(key.1).map_err(|e| format!("no pool for node {}: {e}", key.1))?;
        Ok(ChannelState { key, queue: LaneQueue::default(), demanding: false, pool, told: HashMap::new(), timers: Timers::default() })
    }

    async fn handle(&self, me: ActorRef<ChannelMsg>, msg: ChannelMsg, st: &mut ChannelState) -> Result<(), ActorProcessingErr> {
        match msg {
            ChannelMsg::Enqueue(w, reply) => {
                let id = w.session_id;
                let rank = st.queue.push(id, w.lane, w);
                st.told.insert(id, rank);
                metrics::gauge!("yoo_players_waiting").increment(1.0);
                self.changed(&me, st);
                let _ = reply.send(rank);
            }
            ChannelMsg::Remove(id, reply) => {
                let removed = st.queue.remove(id).is_some();
                if removed {
                    st.told.remove(&id);
                    metrics::gauge!("yoo_players_waiting").decrement(1.0);
                    self.changed(&me, st);
                }
                let _ = reply.send(removed);
            }
            ChannelMsg::Grant(machine) => {
                st.demanding = false;
                let mut handed = false;
                while let Some((id, _, w)) = st.queue.pop_front() {
                    st.told.remove(&id);
                    metrics::gauge!("yoo_players_waiting").decrement(1.0);
                    if w.session.send_message(SessionMsg::Granted(machine.clone())).is_ok() {
                        handed = true;
                        break;
                    }
                }
                if handed {
                    self.changed(&me, st);
                } else {
                    let _ = st.pool.send_message(PoolMsg::Free(machine));
                }
            }
            ChannelMsg::Rank(id, reply) => {
                let _ = reply.send(st.queue.rank_of(id));
            }
            ChannelMsg::Len(reply) => {
                let _ = reply.send(st.queue.len());
            }
            ChannelMsg::RefreshRanks => self.refresh_ranks(st),
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
    /// Schedules a rank refresh unless one is pending.
    fn changed(&self, me: &ActorRef<ChannelMsg>, st: &mut ChannelState) {
        if !st.timers.is_set(&()) {
            st.timers.set((), self.ctx.config.rank_refresh(), me, ChannelMsg::RefreshRanks);
        }
    }

    /// Walks the queue once and tells each player whose rank moved.
    fn refresh_ranks(&self, st: &mut ChannelState) {
        for (rank, session_id, w) in st.queue.in_order() {
            let told = st.told.entry(session_id).or_insert(0);
            if *told != rank {
                *told = rank;
                self.ctx.tell_player_now(w.uid, PlayerMsg::Rank { session_id, sort: rank });
            }
        }
    }
}
