use crate::sql::{params, OptionalExt, Row};

use super::Db;
use crate::model::User;
use crate::repo::UserRepo;
use crate::Result;

pub(super) const COLUMNS: &str =
    "uid, cellphone, nickname, avatar, created_at, play_time_free, play_time_paid, status, minor, relay_banned";

pub(crate) struct SqlUsers {
    db: Db,
}

impl SqlUsers {
    pub(crate) fn new(db: Db) -> SqlUsers {
        SqlUsers { db }
    }
}

pub(super) fn from_row(row: &Row) -> Result<User> {
    Ok(User {
        uid: row.get(0)?,
        cellphone: row.get(1)?,
        nickname: row.get(2)?,
        avatar: row.get(3)?,
        created_at: row.get(4)?,
        play_time_free: row.get(5)?,
        play_time_paid: row.get(6)?,
        status: row.get(7)?,
        minor: row.get(8)?,
        relay_banned: row.get(9)?,
    })
}

impl UserRepo for SqlUsers {
    fn get_or_create_by_phone(&self, cellphone: &str, nickname: &str, now: i64) -> Result<(User, bool)> {
        let conn = self.db.lock()?;
        // The unique index on cellphone makes the insert a no-op for a known phone, also against
        // another process's connection.
        let inserted = conn.execute(
            "INSERT INTO users (cellphone, nickname, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (cellphone) DO NOTHING",
            params![cellphone, nickname, now],
        )?;
        let user = conn.query_row(&format!("SELECT {COLUMNS} FROM users WHERE cellphone = ?1"), [cellphone], from_row)?;
        Ok((user, inserted == 1))
    }

    fn get(&self, uid: i64) -> Result<Option<User>> {
        self.db
            .lock()?
            .query_row(&format!("SELECT {COLUMNS} FROM users WHERE uid = ?1"), [uid], from_row)
            .optional()
    }

    fn find_by_phone(&self, cellphone: &str) -> Result<Option<User>> {
        self.db
            .lock()?
            .query_row(&format!("SELECT {COLUMNS} FROM users WHERE cellphone = ?1"), [cellphone], from_row)
            .optional()
    }

    fn set_flags(&self, uid: i64, status: i32, minor: bool, relay_banned: bool) -> Result<User> {
        let conn = self.db.lock()?;
        let n = conn.execute(
            "UPDATE users SET status = ?2, minor = ?3, relay_banned = ?4 WHERE uid = ?1",
            params![uid, status, minor, relay_banned],
        )?;
        if n == 0 {
            return Err(crate::Error::NotFound);
        }
        conn.query_row(&format!("SELECT {COLUMNS} FROM users WHERE uid = ?1"), [uid], from_row)
    }

    fn mark_card_notice(&self, uid: i64, now: i64) -> Result<i64> {
        // IMMEDIATE: a deferred transaction that reads and then writes fails at once (SQLITE_BUSY)
        // when another connection wrote meanwhile; busy_timeout only waits for a lock taken up front
        self.db.write(|tx| {
            let before: Option<i64> = tx
                .query_row("SELECT card_notice_at FROM users WHERE uid = ?1", [uid], |r| r.get(0))
                .optional()?;
            let before = before.ok_or(crate::Error::NotFound)?;
            tx.execute(
                "UPDATE users SET card_notice_at = MAX(card_notice_at, ?2) WHERE uid = ?1",
                params![uid, now],
            )?;
            Ok(before)
        })
    }

    fn set_profile(&self, uid: i64, nickname: Option<&str>, avatar: Option<&str>) -> Result<User> {
        let conn = self.db.lock()?;
        let n = conn.execute(
            "UPDATE users SET nickname = COALESCE(?2, nickname), avatar = COALESCE(?3, avatar) WHERE uid = ?1",
            params![uid, nickname, avatar],
        )?;
        if n == 0 {
            return Err(crate::Error::NotFound);
        }
        conn.query_row(&format!("SELECT {COLUMNS} FROM users WHERE uid = ?1"), [uid], from_row)
    }
}
