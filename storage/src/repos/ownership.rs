//! The owners' epochs (`ownership.rs` of the crate root has the trait and the fence).

use crate::sql::{params, OptionalExt, Row};

use super::Db;
use crate::ownership::{Ownership, OwnershipRepo};
use crate::Result;

/// Migration: one row per thing ever owned, its latest epoch and owner.
pub(crate) const MIGRATION: &str = "
CREATE TABLE ownership (
    name       TEXT    PRIMARY KEY,
    epoch      INTEGER NOT NULL CHECK (epoch > 0),
    owner      TEXT    NOT NULL,
    claimed_at INTEGER NOT NULL
);
";

pub(crate) struct SqlOwnership {
    db: Db,
}

impl SqlOwnership {
    pub(crate) fn new(db: Db) -> SqlOwnership {
        SqlOwnership { db }
    }
}

fn from_row(row: &Row) -> Result<Ownership> {
    Ok(Ownership {
        name: row.get(0)?,
        epoch: row.get(1)?,
        owner: row.get(2)?,
        claimed_at: row.get(3)?,
    })
}

impl OwnershipRepo for SqlOwnership {
    fn claim(&self, name: &str, owner: &str, now: i64) -> Result<i64> {
        // not fenced itself: a claim is what moves the fence
        self.db.write_unfenced(|tx| {
            tx.query_row(
                "INSERT INTO ownership (name, epoch, owner, claimed_at) VALUES (?1, 1, ?2, ?3)
                 ON CONFLICT (name) DO UPDATE SET epoch = ownership.epoch + 1, owner = ?2, claimed_at = ?3
                 RETURNING epoch",
                params![name, owner, now],
                |r| r.get(0),
            )
        })
    }

    fn get(&self, name: &str) -> Result<Option<Ownership>> {
        self.db
            .lock()?
            .query_row(
                "SELECT name, epoch, owner, claimed_at FROM ownership WHERE name = ?1",
                [name],
                from_row,
            )
            .optional()
    }

    fn list(&self) -> Result<Vec<Ownership>> {
        self.db
            .lock()?
            .query_map("SELECT name, epoch, owner, claimed_at FROM ownership ORDER BY name", (), from_row)?
            .collect()
    }
}
