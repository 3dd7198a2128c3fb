use crate::sql::{params, OptionalExt, Row};

use super::{to_u64, Db};
use crate::model::{Game, GameStart};
use crate::repo::GameRepo;
use crate::Result;

pub(super) const COLUMNS: &str = "id, name, description, status, available, deleted, member_type, platform, \
                       chinese, controller, instant_play, hue, sort_order, host_game, \
                       start_mode, support_modes, associated_type, start_url";

/// `support_modes` is stored as the modes joined by commas ("2,4"; "" for none).
fn modes_text(modes: &[i32]) -> String {
    modes.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

fn modes_of(text: &str) -> Vec<i32> {
    text.split(',').filter_map(|m| m.trim().parse().ok()).collect()
}

/// Listed games: not deleted, and (when ?1 is not NULL) with ?1 in the name. SQLite's lower()
/// folds ASCII letters only, which is all the folding Chinese names need.
pub(super) const LISTED: &str = "deleted = 0 AND (CAST(?1 AS TEXT) IS NULL OR instr(lower(name), lower(?1)) > 0)";

pub(crate) struct SqlGames {
    db: Db,
}

impl SqlGames {
    pub(crate) fn new(db: Db) -> SqlGames {
        SqlGames { db }
    }
}

pub(super) fn from_row(row: &Row) -> Result<Game> {
    Ok(Game {
        id: row.get(0)?,
        name: row.get(1)?,
        description: row.get(2)?,
        status: row.get(3)?,
        available: row.get(4)?,
        deleted: row.get(5)?,
        member_type: row.get(6)?,
        platform: row.get(7)?,
        chinese: row.get(8)?,
        controller: row.get(9)?,
        instant_play: row.get(10)?,
        hue: row.get(11)?,
        sort_order: row.get(12)?,
        host_game: row.get(13)?,
        start: GameStart {
            start_mode: row.get(14)?,
            support_modes: modes_of(&row.get::<_, String>(15)?),
            associated_type: row.get(16)?,
            start_url: row.get(17)?,
        },
    })
}

impl GameRepo for SqlGames {
    fn list(&self, keyword: Option<&str>, page: u32, page_size: u32) -> Result<(Vec<Game>, u64)> {
        let keyword = keyword.map(str::trim).filter(|k| !k.is_empty());
        let offset = i64::from(page.max(1) - 1).saturating_mul(i64::from(page_size));
        let conn = self.db.lock()?;
        let total: i64 = conn.query_row(&format!("SELECT COUNT(*) FROM games WHERE {LISTED}"), [keyword], |row| row.get(0))?;
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM games WHERE {LISTED} ORDER BY sort_order, id LIMIT ?2 OFFSET ?3"
        ))?;
        let games = stmt
            .query_map(params![keyword, page_size, offset], from_row)?
            .collect::<Result<_>>()?;
        Ok((games, to_u64(total)?))
    }

    fn get(&self, id: i64) -> Result<Option<Game>> {
        self.db
            .lock()?
            .query_row(&format!("SELECT {COLUMNS} FROM games WHERE id = ?1"), [id], from_row)
            .optional()
    }

    fn upsert_all(&self, games: &[Game]) -> Result<()> {
        // IMMEDIATE: a deferred transaction that reads and then writes fails at once (SQLITE_BUSY)
        // when another connection wrote meanwhile; busy_timeout only waits for a lock taken up front
        self.db.write(|tx| {
            {
                let mut stmt = tx.prepare_cached(&format!(
                    "INSERT INTO games ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
                         ON CONFLICT (id) DO UPDATE SET
                             name = excluded.name, description = excluded.description,
                             status = excluded.status, available = excluded.available,
                             deleted = excluded.deleted, member_type = excluded.member_type,
                             platform = excluded.platform, chinese = excluded.chinese,
                             controller = excluded.controller, instant_play = excluded.instant_play,
                             hue = excluded.hue, sort_order = excluded.sort_order,
                             host_game = excluded.host_game, start_mode = excluded.start_mode,
                             support_modes = excluded.support_modes, associated_type = excluded.associated_type,
                             start_url = excluded.start_url"
                ))?;
                for g in games {
                    stmt.execute(params![
                        g.id,
                        g.name,
                        g.description,
                        g.status,
                        g.available,
                        g.deleted,
                        g.member_type,
                        g.platform,
                        g.chinese,
                        g.controller,
                        g.instant_play,
                        g.hue,
                        g.sort_order,
                        g.host_game,
                        g.start.start_mode,
                        modes_text(&g.start.support_modes),
                        g.start.associated_type,
                        g.start.start_url,
                    ])?;
                }
            }
            Ok(())
        })
    }

    fn count(&self) -> Result<u64> {
        let n: i64 = self.db.lock()?.query_row("SELECT COUNT(*) FROM games", (), |row| row.get(0))?;
        to_u64(n)
    }

    fn games_of_category(&self, game_category_id: i64) -> Result<Vec<i64>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(
            "SELECT g.id FROM games g JOIN game_categories c ON c.game_id = g.id
                 WHERE c.category_id = ?1 AND g.deleted = 0 ORDER BY g.sort_order, g.id",
        )?;
        let ids = stmt.query_map([game_category_id], |row| row.get(0))?.collect::<Result<_>>()?;
        Ok(ids)
    }

    fn category_of(&self, game_id: i64) -> Result<Option<i64>> {
        self.db
            .lock()?
            .query_row("SELECT category_id FROM game_categories WHERE game_id = ?1", [game_id], |row| {
                row.get(0)
            })
            .optional()
    }
}
