//! The message centre's store (social.md §2.9, §3 "Message", §4.10): each user's own messages
//! (system, assistant, welfare, user) and the announcements, which are everyone's.
//!
//! An announcement is stored once, not once per user: a user sees the announcements sent since
//! they joined (`users.created_at`), and their reading and clearing of them is two marks per user
//! (the newest announcement read, the newest cleared), so an announcement to every player writes
//! one row whatever their number. A user's own messages are rows of their own; only calls naming
//! that user read, mark or delete them.

use crate::Result;

/// A message as a producer sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMessage {
    /// 1 system, 2 assistant, 4 announcement, 5 welfare, 6 user (social.md §9).
    pub sender: i32,
    /// The title (`name`; a sender tab's `lastMsgTitle`).
    pub name: String,
    /// An image URL or path; empty: none.
    pub image: String,
    pub content: String,
    /// Where "view details" goes; empty: no link.
    pub link: String,
    /// `msgTepParam`: a JSON string ({goods_type, auto_activate}) or empty.
    pub tep_param: String,
    /// ms.
    pub sent_at: i64,
}

/// A message as its reader sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub id: i64,
    pub message: NewMessage,
    /// Whether this reader has read it.
    pub read: bool,
}

/// One sender's part of a reader's messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SenderSummary {
    pub sender: i32,
    pub unread: u64,
    /// The newest message's title and time (ms).
    pub last_name: String,
    pub last_sent_at: i64,
}

/// One page of a reader's messages, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessagePage {
    pub messages: Vec<Message>,
    /// How many the reader has in all (with the sender filter).
    pub total: u64,
}

pub trait MessageRepo: Send + Sync {
    /// Stores a message of `uid`'s own; a uid below 1 is `Error::Conflict`.
    fn send(&self, uid: i64, message: &NewMessage) -> Result<Message>;
    /// Stores an announcement for everyone (one row, whatever the number of users).
    fn announce(&self, message: &NewMessage) -> Result<Message>;
    /// `limit` messages of `uid` (only of `sender` when given) from `offset`, newest first, with
    /// the total.
    fn page(&self, uid: i64, sender: Option<i32>, offset: u64, limit: u64) -> Result<MessagePage>;
    /// Every sender `uid` has a message of, by sender code.
    fn summary(&self, uid: i64) -> Result<Vec<SenderSummary>>;
    /// Marks every message of `uid` read; how many were unread.
    fn mark_all_read(&self, uid: i64) -> Result<u64>;
    /// Deletes every message of `uid` (an announcement only for them); how many were there.
    fn clear(&self, uid: i64) -> Result<u64>;
}
