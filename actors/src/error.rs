//! Every way the domain refuses a call. The facade maps each variant to the spec's code and
//! text in one place; matching there is exhaustive so a new variant forces a decision.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum DomainError {
    /// No or an expired login session.
    #[error("not logged in")]
    NotLoggedIn,
    /// The phone field is empty.
    #[error("phone empty")]
    PhoneEmpty,
    /// The phone is not 11 digits starting with 1.
    #[error("phone malformed")]
    PhoneMalformed,
    /// The SMS code field is empty.
    #[error("code empty")]
    CodeEmpty,
    /// The code is wrong, used, expired or tried too often.
    #[error("code wrong")]
    CodeWrong,
    /// A send limit (the resend interval, the phone's hour or day, the address, the global
    /// ceiling) allows no code now.
    #[error("code sent too often")]
    CodeTooSoon { retry_after_secs: u64 },
    /// Too many wrong codes in a row: the phone's login is locked for a while.
    #[error("login locked")]
    LoginLocked { retry_after_secs: u64 },
    /// The SMS provider failed to send.
    #[error("sms provider failed: {0}")]
    SmsFailed(String),
    /// No game with this id (or it is deleted).
    #[error("unknown game")]
    UnknownGame,
    /// The game is coming soon or off the shelf.
    #[error("game not open")]
    GameNotOpen,
    /// The game does not run on this client.
    #[error("game unsupported on this client")]
    GameUnsupportedClient,
    /// This game already runs for the user on another device.
    #[error("game running on another client")]
    GameOnOtherClient { session_id: i64, game_id: i64 },
    /// Another game runs for the user.
    #[error("another game running")]
    OtherGameActive { session_id: i64, game_id: i64, game_name: String },
    /// This game already runs on this client.
    #[error("game already running")]
    GameAlreadyActive { session_id: i64, game_id: i64 },
    /// The session id is not the user's live session.
    #[error("unknown session")]
    UnknownSession,
    /// The call does not apply in the session's current state.
    #[error("wrong state for this call")]
    WrongState,
    /// The node is under maintenance.
    #[error("node under maintenance")]
    NodeMaintenance,
    /// No node with this id.
    #[error("unknown node")]
    UnknownNode,
    /// A vip game and the player is no member.
    #[error("vip only")]
    VipOnly,
    /// A vvip game and the player is not vvip.
    #[error("vvip only")]
    VvipOnly,
    /// A subscription game without its package.
    #[error("subscription needed")]
    NeedSubscription,
    /// No play time and no package window open.
    #[error("short of play time")]
    ShortOfTime,
    /// A fast-entry card used while not queued.
    #[error("card used outside the queue")]
    CardNotQueued,
    /// Moving a game between devices without the cross-screen privilege.
    #[error("no cross-screen privilege")]
    NoCrossScreen { session_id: i64 },
    /// This month's member fast-entry cards were claimed already.
    #[error("monthly cards claimed")]
    MonthlyClaimed,
    /// A member-only benefit asked for by a non-member.
    #[error("not a member")]
    NotMember,
    /// No such card of this player.
    #[error("unknown card")]
    UnknownCard,
    /// The card is used, expired or invalidated.
    #[error("card not usable")]
    CardUnusable,
    /// The session's quality report was given already (the first one stands).
    #[error("quality report given")]
    QualityReported,
    /// Storage or an actor failed; the call changed nothing the user can see.
    #[error("internal: {0}")]
    Internal(String),
}

impl From<storage::Error> for DomainError {
    fn from(e: storage::Error) -> Self {
        DomainError::Internal(format!("storage: {e}"))
    }
}

/// A failed actor call (the actor stopped, or dropped the reply) is an internal refusal: the
/// caller is answered, nothing it can see changed.
impl<T> From<ractor::RactorErr<T>> for DomainError {
    fn from(e: ractor::RactorErr<T>) -> Self {
        DomainError::Internal(format!("actor call: {e}"))
    }
}

impl<T> From<ractor::MessagingErr<T>> for DomainError {
    fn from(e: ractor::MessagingErr<T>) -> Self {
        DomainError::Internal(format!("actor message: {e}"))
    }
}

pub type DomainResult<T> = Result<T, DomainError>;
