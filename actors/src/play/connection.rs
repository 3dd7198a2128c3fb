//! User connections: each WebSocket subscribes its sink to its user's topic on the bus (the
//! topic is the user id), and every push for that user reaches each of the user's sockets.
//!
//! The connection is the socket's own state machine, not a ractor actor: the facade drives it on
//! the socket's task (its mailbox is the sink's outbox; it alone writes the socket), so an open
//! socket costs one task instead of a task plus an actor with four mailboxes and a supervision
//! link (6.7 KB measured, two thirds of the memory budget of a connected player; see
//! ARCHITECTURE.md). A socket has nothing to restart: a dropped one is reopened by the browser,
//! which then gets the current state.

use crate::play::PlayCtx;
use std::sync::Arc;

use engine::bus::SubscriptionId;

use crate::ctx::Ctx;
use crate::play::queue::QueueMsg;
use crate::view::Push;

/// Where a connection's pushes go. `push` must not block or call back into the platform (it runs
/// under the bus's lock, on the pusher's thread); it returns false once the socket is gone, and
/// the subscription is then dropped.
pub trait ConnectionSink: Send + Sync + 'static {
    fn push(&self, push: &Push) -> bool;
}

/// An open connection's subscription; `close` it when the socket goes.
#[derive(Debug)]
pub struct Connection {
    sub: SubscriptionId<i64>,
    uid: i64,
}

impl Connection {
    pub(crate) fn open(ctx: &Ctx, uid: i64, sink: Arc<dyn ConnectionSink>) -> Connection {
        metrics::gauge!("yoo_connections_open").increment(1.0);
        let sub = ctx.bus.subscribe(&uid, move |p: &Push| sink.push(p));
        watch(ctx, uid);
        Connection { sub, uid }
    }

    pub(crate) fn close(self, ctx: &Ctx) {
        metrics::gauge!("yoo_connections_open").decrement(1.0);
        ctx.bus.unsubscribe(&self.sub);
        watch(ctx, self.uid);
    }
}

/// Tells the queue of every node that a socket of `uid` opened or closed: the queue where the
/// player waits, if any, keeps their rank fresh only while they have one (`ranks.rs`).
pub(crate) fn watch(ctx: &Ctx, uid: i64) {
    for q in ctx.all_queues() {
        let _ = q.send_message(QueueMsg::Watch(uid));
    }
}
