//! One actor per WebSocket: it subscribes to its user's pushes on the bus and hands each to the
//! socket through a [`ConnectionSink`], which the facade implements (encoding is the boundary's).

use std::sync::Arc;

use engine::bus::SubscriptionId;
use ractor::{Actor, ActorProcessingErr, ActorRef};

use crate::platform::Ctx;
use crate::view::{user_topic, Push};

/// Where a connection's pushes go. `push` must not block; it returns false once the socket is gone.
pub trait ConnectionSink: Send + Sync + 'static {
    fn push(&self, push: &Push) -> bool;
}

pub enum ConnMsg {
    Push(Push),
    /// The socket closed.
    Closed,
}

pub struct ConnectionActor {
    pub ctx: Arc<Ctx>,
}

pub struct ConnectionArgs {
    pub uid: i64,
    pub sink: Arc<dyn ConnectionSink>,
}

pub struct ConnectionState {
    sink: Arc<dyn ConnectionSink>,
    /// Removed from the bus when the actor stops.
    subscription: SubscriptionId,
}

impl Actor for ConnectionActor {
    type Msg = ConnMsg;
    type State = ConnectionState;
    type Arguments = ConnectionArgs;

    async fn pre_start(&self, me: ActorRef<ConnMsg>, args: ConnectionArgs) -> Result<ConnectionState, ActorProcessingErr> {
        let subscription = self.ctx.bus.subscribe(&user_topic(args.uid), move |p| me.send_message(ConnMsg::Push(p.clone())).is_ok());
        Ok(ConnectionState { sink: args.sink, subscription })
    }

    async fn handle(&self, me: ActorRef<ConnMsg>, msg: ConnMsg, st: &mut ConnectionState) -> Result<(), ActorProcessingErr> {
        match msg {
            ConnMsg::Push(p) => {
                if !st.sink.push(&p) {
                    me.stop(None);
                }
            }
            ConnMsg::Closed => me.stop(None),
        }
        Ok(())
    }

    async fn post_stop(&self, _me: ActorRef<ConnMsg>, st: &mut ConnectionState) -> Result<(), ActorProcessingErr> {
        self.ctx.bus.unsubscribe(&st.subscription);
        Ok(())
    }
}
