//! Login passwords (`crate::passwords`).

use crate::sql::{params, OptionalExt};

use super::Db;
use crate::passwords::{PasswordRepo, REVOKED_PASSWORD};
use crate::{Error, Result};

/// One password hash per account.
pub(crate) const MIGRATION: &str = "
CREATE TABLE user_passwords (
    uid        INTEGER PRIMARY KEY REFERENCES users (uid),
    hash       TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
);
";

pub(crate) struct SqlPasswords {
    db: Db,
}

impl SqlPasswords {
    pub(crate) fn new(db: Db) -> SqlPasswords {
        SqlPasswords { db }
    }
}

impl PasswordRepo for SqlPasswords {
    fn hash(&self, uid: i64) -> Result<Option<String>> {
        self.db
            .lock()?
            .query_row("SELECT hash FROM user_passwords WHERE uid = ?1", [uid], |r| r.get(0))
            .optional()
    }

    fn set(&self, uid: i64, hash: &str, keep: Option<&str>, now: i64) -> Result<Vec<String>> {
        self.db.write(|tx| {
            let known: Option<i64> = tx
                .query_row("SELECT uid FROM users WHERE uid = ?1", [uid], |r| r.get(0))
                .optional()?;
            if known.is_none() {
                return Err(Error::NotFound);
            }
            tx.execute(
                "INSERT INTO user_passwords (uid, hash, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (uid) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at",
                params![uid, hash, now],
            )?;
            let ended: Vec<String> = {
                let mut stmt = tx.prepare_cached(
                    "SELECT token_hash FROM login_sessions
                         WHERE uid = ?1 AND revoked IS NULL AND expires_at > ?2 AND token_hash IS NOT ?3
                         ORDER BY created_at, token_hash",
                )?;
                let rows = stmt.query_map(params![uid, now, keep], |r| r.get(0))?;
                rows.collect::<Result<Vec<String>>>()?
            };
            let mut mark = tx.prepare_cached("UPDATE login_sessions SET revoked = ?2 WHERE token_hash = ?1")?;
            for h in &ended {
                mark.execute(params![h, REVOKED_PASSWORD])?;
            }
            Ok(ended)
        })
    }
}
