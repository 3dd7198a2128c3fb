use rusqlite::{params, Connection, OptionalExtension};

use super::{Db, SqlResultExt};
use crate::model::LoginSession;
use crate::repo::LoginSessionRepo;
use crate::Result;

pub(crate) struct SqliteLogins {
    db: Db,
}

impl SqliteLogins {
    pub(crate) fn new(conn: Connection) -> SqliteLogins {
        SqliteLogins { db: Db::new(conn) }
    }
}

impl LoginSessionRepo for SqliteLogins {
    fn insert(&self, s: &LoginSession) -> Result<()> {
        self.db
            .lock()
            .execute(
                "INSERT INTO login_sessions (token_hash, uid, csrf_hash, device_no, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![s.token_hash, s.uid, s.csrf_hash, s.device_no, s.created_at, s.expires_at],
            )
            .db()?;
        Ok(())
    }

    fn get(&self, token_hash: &str, now: i64) -> Result<Option<LoginSession>> {
        self.db
            .lock()
            .prepare_cached(
                "SELECT token_hash, uid, csrf_hash, device_no, created_at, expires_at
                 FROM login_sessions WHERE token_hash = ?1 AND expires_at > ?2 AND revoked IS NULL",
            )
            .db()?
            .query_row(params![token_hash, now], |row| {
                Ok(LoginSession {
                    token_hash: row.get(0)?,
                    uid: row.get(1)?,
                    csrf_hash: row.get(2)?,
                    device_no: row.get(3)?,
                    created_at: row.get(4)?,
                    expires_at: row.get(5)?,
                })
            })
            .optional()
            .db()
    }

    fn delete(&self, token_hash: &str) -> Result<()> {
        self.db
            .lock()
            .execute("DELETE FROM login_sessions WHERE token_hash = ?1", [token_hash])
            .db()?;
        Ok(())
    }

    fn delete_expired(&self, now: i64) -> Result<u64> {
        let deleted = self
            .db
            .lock()
            .execute("DELETE FROM login_sessions WHERE expires_at <= ?1", [now])
            .db()?;
        Ok(deleted as u64)
    }
}
