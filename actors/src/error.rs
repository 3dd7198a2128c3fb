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
    /// A code went to this phone less than the resend interval ago.
    #[error("code sent too often")]
    CodeTooSoon { retry_after_secs: u64 },
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
    /// Storage or an actor failed; the call changed nothing the user can see.
    #[error("internal: {0}")]
    Internal(String),
}

impl From<storage::Error> for DomainError {
    fn from(e: storage::Error) -> Self {
        DomainError::Internal(format!("storage: {e}"))
    }
}

pub type DomainResult<T> = Result<T, DomainError>;
