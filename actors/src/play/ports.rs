//! What play needs of the features above it, as traits they implement and the assembly installs
//! (`platform.rs`), so that play names none of them: the first check of a start (certification
//! and the minors' hours, the identity feature's) and the observers of what players do in their
//! games (missions count starts and minutes; a room's watcher who confirms their own game
//! leaves the room).

use std::sync::Arc;

use futures_util::future::BoxFuture;

use crate::ctx::Ctx;
use crate::error::DomainResult;
use crate::view::Notice;

/// The first check of a start, and the notice a game gets before it is cut.
pub trait StartGate: Send + Sync {
    /// Ok(None): the player may start; Ok(Some(end)): a minor inside the window that ends at
    /// `end` (ms): the session is cut then (`cutoff_at`, kept with it); Err: the refusal (20150,
    /// 20151).
    fn play_allowed(&self, ctx: Arc<Ctx>, uid: i64) -> BoxFuture<'static, DomainResult<Option<i64>>>;

    /// What a player whose game will be cut is told, and how long before the cut.
    fn cut_notice(&self) -> Option<CutNotice>;
}

/// The notice before a cut ([`StartGate::cut_notice`]).
#[derive(Debug, Clone, PartialEq)]
pub struct CutNotice {
    pub lead_ms: i64,
    pub notice: Notice,
}

/// A gate that lets everyone play (a platform assembled without the identity feature).
pub struct OpenGate;

impl StartGate for OpenGate {
    fn play_allowed(&self, _: Arc<Ctx>, _: i64) -> BoxFuture<'static, DomainResult<Option<i64>>> {
        Box::pin(async { Ok(None) })
    }

    fn cut_notice(&self) -> Option<CutNotice> {
        None
    }
}

/// Something a player did in a game that other features follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayEvent {
    /// A session was created (a start that queued or took a machine).
    GameStart { uid: i64 },
    /// A minute of play was charged.
    MinutePlayed { uid: i64 },
    /// The player confirmed their own game.
    OwnGameConfirmed { uid: i64 },
}

/// A feature that follows what players do; told in the order the observers were installed,
/// each awaited before the next.
pub trait PlayObserver: Send + Sync {
    fn observe(&self, ctx: Arc<Ctx>, event: PlayEvent) -> BoxFuture<'static, ()>;
}

/// What the assembly gives play of the features above it.
pub struct Ports {
    pub gate: Arc<dyn StartGate>,
    pub observers: Vec<Arc<dyn PlayObserver>>,
}

impl Default for Ports {
    fn default() -> Ports {
        Ports {
            gate: Arc::new(OpenGate),
            observers: vec![],
        }
    }
}
