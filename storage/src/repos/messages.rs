//! The message centre (`messages.rs` of the crate root has the trait and the model).

use crate::sql::{params, Conn, OptionalExt, Row};

use super::{to_u64, Db};
use crate::messages::{Message, MessagePage, MessageRepo, NewMessage, SenderSummary};
use crate::{Error, Result};

/// Migration (social.md §2.9): the messages (a user's own, `uid` > 0; an announcement, `uid` 0,
/// stored once for everyone) and each user's marks on the announcements. Ids are one sequence
/// for both, so "the newest announcement read/cleared" is an id.
pub(crate) const MIGRATION: &str = "
CREATE TABLE messages (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    uid       INTEGER NOT NULL,
    sender    INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    image     TEXT    NOT NULL DEFAULT '',
    content   TEXT    NOT NULL,
    link      TEXT    NOT NULL DEFAULT '',
    tep_param TEXT    NOT NULL DEFAULT '',
    sent_at   INTEGER NOT NULL,
    is_read   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX messages_by_user ON messages (uid, sender, id);

CREATE TABLE message_marks (
    uid          INTEGER PRIMARY KEY,
    read_upto    INTEGER NOT NULL DEFAULT 0,
    cleared_upto INTEGER NOT NULL DEFAULT 0
);
";

pub(crate) struct SqlMessages {
    db: Db,
}

impl SqlMessages {
    pub(crate) fn new(db: Db) -> SqlMessages {
        SqlMessages { db }
    }
}

/// What decides which announcements a reader sees and has read.
struct Marks {
    read_upto: i64,
    cleared_upto: i64,
    /// ms; announcements from then on (a user unknown here sees none).
    joined_at: i64,
}

fn marks(conn: &Conn<'_>, uid: i64) -> Result<Marks> {
    let (read_upto, cleared_upto) = conn
        .prepare_cached("SELECT read_upto, cleared_upto FROM message_marks WHERE uid = ?1")?
        .query_row([uid], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?
        .unwrap_or((0, 0));
    let joined_at = conn
        .prepare_cached("SELECT created_at FROM users WHERE uid = ?1")?
        .query_row([uid], |r| r.get(0))
        .optional()?
        .unwrap_or(i64::MAX);
    Ok(Marks {
        read_upto,
        cleared_upto,
        joined_at,
    })
}

/// The reader's messages: ?1 uid, ?2 cleared_upto, ?3 joined_at.
const VISIBLE: &str = "(uid = ?1 OR (uid = 0 AND id > ?2 AND sent_at >= ?3))";
/// Whether the reader read a row: ?4 read_upto.
const READ: &str = "(CASE WHEN uid = 0 THEN id <= ?4 ELSE is_read <> 0 END)";
const COLUMNS: &str = "id, sender, name, image, content, link, tep_param, sent_at";

fn message(r: &Row, read: bool) -> Result<Message> {
    Ok(Message {
        id: r.get(0)?,
        message: NewMessage {
            sender: r.get(1)?,
            name: r.get(2)?,
            image: r.get(3)?,
            content: r.get(4)?,
            link: r.get(5)?,
            tep_param: r.get(6)?,
            sent_at: r.get(7)?,
        },
        read,
    })
}

fn insert(tx: &Conn<'_>, uid: i64, m: &NewMessage) -> Result<Message> {
    let id: i64 = tx.query_row(
        "INSERT INTO messages (uid, sender, name, image, content, link, tep_param, sent_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
        params![uid, m.sender, m.name, m.image, m.content, m.link, m.tep_param, m.sent_at],
        |r| r.get(0),
    )?;
    Ok(Message {
        id,
        message: m.clone(),
        read: false,
    })
}

/// The newest announcement's id (0: none).
fn newest_announcement(tx: &Conn<'_>) -> Result<i64> {
    tx.query_row("SELECT COALESCE(MAX(id), 0) FROM messages WHERE uid = 0", (), |r| r.get(0))
}

impl MessageRepo for SqlMessages {
    fn send(&self, uid: i64, message: &NewMessage) -> Result<Message> {
        if uid <= 0 {
            // uid 0 is the announcements' row owner: nobody's own message goes there
            return Err(Error::Conflict(format!("no user {uid}")));
        }
        self.db.write(|tx| insert(tx, uid, message))
    }

    fn announce(&self, message: &NewMessage) -> Result<Message> {
        self.db.write(|tx| insert(tx, 0, message))
    }

    fn page(&self, uid: i64, sender: Option<i32>, offset: u64, limit: u64) -> Result<MessagePage> {
        let conn = self.db.lock()?;
        let m = marks(&conn, uid)?;
        let by_sender = if sender.is_some() {
            "AND sender = ?5"
        } else {
            "AND CAST(?5 AS TEXT) IS NULL"
        };
        let total: i64 = conn
            .prepare_cached(&format!("SELECT COUNT(*) FROM messages WHERE {VISIBLE} {by_sender}"))?
            .query_row(params![uid, m.cleared_upto, m.joined_at, m.read_upto, sender], |r| r.get(0))?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS}, {READ} FROM messages WHERE {VISIBLE} {by_sender}
                 ORDER BY id DESC LIMIT ?6 OFFSET ?7"
        ))?;
        let messages = stmt
            .query_map(params![uid, m.cleared_upto, m.joined_at, m.read_upto, sender, limit, offset], |r| {
                let read: bool = r.get(8)?;
                message(r, read)
            })?
            .collect::<Result<Vec<_>>>()?;
        Ok(MessagePage {
            messages,
            total: to_u64(total)?,
        })
    }

    fn summary(&self, uid: i64) -> Result<Vec<SenderSummary>> {
        let conn = self.db.lock()?;
        let m = marks(&conn, uid)?;
        let groups: Vec<(i32, i64, i64)> = conn
            .prepare_cached(&format!(
                "SELECT sender, SUM(CASE WHEN {READ} THEN 0 ELSE 1 END), MAX(id) FROM messages WHERE {VISIBLE} GROUP BY sender ORDER BY sender"
            ))?
            .query_map(params![uid, m.cleared_upto, m.joined_at, m.read_upto], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?
            .collect::<Result<_>>()?;
        let mut last = conn.prepare_cached("SELECT name, sent_at FROM messages WHERE id = ?1")?;
        groups
            .into_iter()
            .map(|(sender, unread, newest)| {
                let (last_name, last_sent_at) = last.query_row([newest], |r| Ok((r.get(0)?, r.get(1)?)))?;
                Ok(SenderSummary {
                    sender,
                    unread: to_u64(unread)?,
                    last_name,
                    last_sent_at,
                })
            })
            .collect()
    }

    fn mark_all_read(&self, uid: i64) -> Result<u64> {
        self.db.write(|tx| {
            let m = marks(tx, uid)?;
            let newest = newest_announcement(tx)?;
            let announcements: i64 = tx.query_row(
                "SELECT COUNT(*) FROM messages WHERE uid = 0 AND id > MAX(?1, ?2) AND sent_at >= ?3",
                params![m.read_upto, m.cleared_upto, m.joined_at],
                |r| r.get(0),
            )?;
            let own = tx.execute("UPDATE messages SET is_read = 1 WHERE uid = ?1 AND is_read = 0", [uid])?;
            tx.execute(
                "INSERT INTO message_marks (uid, read_upto) VALUES (?1, ?2)
                 ON CONFLICT (uid) DO UPDATE SET read_upto = MAX(message_marks.read_upto, ?2)",
                params![uid, newest],
            )?;
            Ok(own as u64 + to_u64(announcements)?)
        })
    }

    fn clear(&self, uid: i64) -> Result<u64> {
        self.db.write(|tx| {
            let m = marks(tx, uid)?;
            let newest = newest_announcement(tx)?;
            let announcements: i64 = tx.query_row(
                "SELECT COUNT(*) FROM messages WHERE uid = 0 AND id > ?1 AND sent_at >= ?2",
                params![m.cleared_upto, m.joined_at],
                |r| r.get(0),
            )?;
            let own = tx.execute("DELETE FROM messages WHERE uid = ?1", [uid])?;
            tx.execute(
                "INSERT INTO message_marks (uid, read_upto, cleared_upto) VALUES (?1, ?2, ?2)
                 ON CONFLICT (uid) DO UPDATE SET read_upto = MAX(message_marks.read_upto, ?2), cleared_upto = MAX(message_marks.cleared_upto, ?2)",
                params![uid, newest],
            )?;
            Ok(own as u64 + to_u64(announcements)?)
        })
    }
}
