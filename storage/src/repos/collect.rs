//! Recently played games, favourites and game sections (`collect.rs` of the crate root has the
//! trait).

use crate::sql::{params, Conn};

use super::games::{from_row, COLUMNS, LISTED};
use super::{to_u64, Db};
use crate::collect::{CollectRepo, PLAYED_KEPT};
use crate::model::Game;
use crate::{Error, Result};

/// Migration (social.md §2.4, §4.11): recently played games, one row per (user, game) with its
/// last start; favourites, one row per (user, game); the game sections, seeded with
/// `favorite_game` ("Guess you like"). Rows name their game without a foreign key: on an empty
/// database the migrations run before the catalogue is seeded. A replaced row gets a new rowid,
/// which orders rows of the same millisecond by their writing.
pub(crate) const MIGRATION: &str = "
CREATE TABLE played_games (
    uid       INTEGER NOT NULL REFERENCES users (uid),
    game_id   INTEGER NOT NULL,
    played_at INTEGER NOT NULL,
    UNIQUE (uid, game_id)
);
CREATE INDEX played_games_recent ON played_games (uid, played_at DESC);

CREATE TABLE collected_games (
    uid        INTEGER NOT NULL REFERENCES users (uid),
    game_id    INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (uid, game_id)
);
CREATE INDEX collected_games_recent ON collected_games (uid, created_at DESC);

CREATE TABLE game_sections (
    section_key TEXT    NOT NULL,
    game_id     INTEGER NOT NULL,
    position    INTEGER NOT NULL,
    PRIMARY KEY (section_key, game_id)
);

INSERT INTO game_sections (section_key, game_id, position) VALUES
    ('favorite_game', 1, 1), ('favorite_game', 3, 2), ('favorite_game', 5, 3),
    ('favorite_game', 6, 4), ('favorite_game', 9, 5), ('favorite_game', 12, 6),
    ('favorite_game', 15, 7), ('favorite_game', 17, 8);
";

pub(crate) struct SqlCollect {
    db: Db,
}

impl SqlCollect {
    pub(crate) fn new(db: Db) -> SqlCollect {
        SqlCollect { db }
    }
}

fn games(conn: &Conn<'_>, sql: &str, params: impl crate::sql::Params) -> Result<Vec<Game>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, from_row)?;
    rows.collect::<Result<_>>()
}

impl CollectRepo for SqlCollect {
    fn record_played(&self, uid: i64, game_id: i64, at_ms: i64) -> Result<()> {
        // IMMEDIATE: a deferred transaction that reads and then writes fails at once (SQLITE_BUSY)
        // when another connection wrote meanwhile; busy_timeout only waits for a lock taken up front
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO played_games (uid, game_id, played_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (uid, game_id) DO UPDATE SET played_at = excluded.played_at",
                params![uid, game_id, at_ms],
            )?;
            tx.execute(
                "DELETE FROM played_games WHERE uid = ?1 AND rowid NOT IN (
                     SELECT rowid FROM played_games WHERE uid = ?1 ORDER BY played_at DESC, rowid DESC LIMIT ?2)",
                params![uid, PLAYED_KEPT],
            )?;
            Ok(())
        })
    }

    fn played(&self, uid: i64, limit: u32) -> Result<Vec<Game>> {
        let conn = self.db.lock()?;
        games(
            &conn,
            &format!(
                "SELECT {COLUMNS} FROM played_games p JOIN games g ON g.id = p.game_id
                 WHERE p.uid = ?1 AND g.deleted = 0 ORDER BY p.played_at DESC, p.rowid DESC LIMIT ?2"
            ),
            params![uid, limit],
        )
    }

    fn clear_played(&self, uid: i64) -> Result<u64> {
        let n = self.db.lock()?.execute("DELETE FROM played_games WHERE uid = ?1", [uid])?;
        Ok(n as u64)
    }

    fn collect(&self, uid: i64, game_id: i64, at_ms: i64) -> Result<bool> {
        // IMMEDIATE: a deferred transaction that reads and then writes fails at once (SQLITE_BUSY)
        // when another connection wrote meanwhile; busy_timeout only waits for a lock taken up front
        self.db.write(|tx| {
            let exists: bool = tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM games WHERE id = ?1 AND deleted = 0)",
                [game_id],
                |r| r.get(0),
            )?;
            if !exists {
                return Err(Error::NotFound);
            }
            let n = tx.execute(
                "INSERT OR IGNORE INTO collected_games (uid, game_id, created_at) VALUES (?1, ?2, ?3)",
                params![uid, game_id, at_ms],
            )?;
            Ok(n == 1)
        })
    }

    fn uncollect(&self, uid: i64, game_id: i64) -> Result<bool> {
        let n = self
            .db
            .lock()?
            .execute("DELETE FROM collected_games WHERE uid = ?1 AND game_id = ?2", params![uid, game_id])?;
        Ok(n == 1)
    }

    fn collected(&self, uid: i64, offset: u64, limit: u32) -> Result<(Vec<Game>, u64)> {
        let conn = self.db.lock()?;
        let total: i64 = conn.query_row(
            "SELECT COUNT(*) FROM collected_games c JOIN games g ON g.id = c.game_id WHERE c.uid = ?1 AND g.deleted = 0",
            [uid],
            |r| r.get(0),
        )?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let list = games(
            &conn,
            &format!(
                "SELECT {COLUMNS} FROM collected_games c JOIN games g ON g.id = c.game_id
                 WHERE c.uid = ?1 AND g.deleted = 0 ORDER BY c.created_at DESC, c.rowid DESC LIMIT ?2 OFFSET ?3"
            ),
            params![uid, limit, offset],
        )?;
        Ok((list, to_u64(total)?))
    }

    fn collected_among(&self, uid: i64, game_ids: &[i64]) -> Result<Vec<i64>> {
        if game_ids.is_empty() {
            return Ok(Vec::new());
        }
        let conn = self.db.lock()?;
        let marks = vec!["?"; game_ids.len()].join(",");
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT game_id FROM collected_games WHERE uid = ? AND game_id IN ({marks}) ORDER BY game_id"
        ))?;
        let values = std::iter::once(uid).chain(game_ids.iter().copied());
        let ids = stmt.query_map(values.map(crate::sql::Value::Int).collect::<Vec<_>>(), |r| r.get(0))?;
        ids.collect::<Result<_>>()
    }

    fn section_games(&self, section_key: &str, limit: u32) -> Result<Vec<Game>> {
        let conn = self.db.lock()?;
        games(
            &conn,
            &format!(
                "SELECT {COLUMNS} FROM game_sections s JOIN games g ON g.id = s.game_id
                 WHERE s.section_key = ?1 AND g.deleted = 0 ORDER BY s.position, g.id LIMIT ?2"
            ),
            params![section_key, limit],
        )
    }

    fn list_played_first(&self, uid: i64, keyword: Option<&str>, page: u32, page_size: u32) -> Result<(Vec<Game>, u64)> {
        let keyword = keyword.map(str::trim).filter(|k| !k.is_empty());
        let offset = i64::from(page.max(1) - 1).saturating_mul(i64::from(page_size));
        let conn = self.db.lock()?;
        let total: i64 = conn.query_row(&format!("SELECT COUNT(*) FROM games WHERE {LISTED}"), [keyword], |row| row.get(0))?;
        let list = games(
            &conn,
            &format!(
                "SELECT {COLUMNS} FROM games LEFT JOIN played_games p ON p.game_id = games.id AND p.uid = ?4
                 WHERE {LISTED}
                 ORDER BY p.played_at IS NULL, p.played_at DESC, p.rowid DESC, sort_order, games.id LIMIT ?2 OFFSET ?3"
            ),
            params![keyword, page_size, offset, uid],
        )?;
        Ok((list, to_u64(total)?))
    }
}
