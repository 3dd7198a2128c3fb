use crate::sql::{params, OptionalExt};

use super::Db;
use crate::model::LoginSession;
use crate::repo::LoginSessionRepo;
use crate::Result;

pub(crate) struct SqlLogins {
    db: Db,
}

impl SqlLogins {
    pub(crate) fn new(db: Db) -> SqlLogins {
        SqlLogins { db }
    }
}

impl LoginSessionRepo for SqlLogins {
    fn insert(&self, s: &LoginSession) -> Result<()> {
        self.db.lock()?.execute(
            "INSERT INTO login_sessions (token_hash, uid, csrf_hash, device_no, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![s.token_hash, s.uid, s.csrf_hash, s.device_no, s.created_at, s.expires_at],
        )?;
        Ok(())
    }

    fn get(&self, token_hash: &str, now: i64) -> Result<Option<LoginSession>> {
        self.db
            .lock()?
            .prepare_cached(
                "SELECT token_hash, uid, csrf_hash, device_no, created_at, expires_at
                 FROM login_sessions WHERE token_hash = ?1 AND expires_at > ?2 AND revoked IS NULL",
            )?
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
    }

    fn delete(&self, token_hash: &str) -> Result<()> {
        self.db
            .lock()?
            .execute("DELETE FROM login_sessions WHERE token_hash = ?1", [token_hash])?;
        Ok(())
    }

    fn delete_expired(&self, now: i64) -> Result<u64> {
        let deleted = self
            .db
            .lock()?
            .execute("DELETE FROM login_sessions WHERE expires_at <= ?1", [now])?;
        Ok(deleted as u64)
    }
}
