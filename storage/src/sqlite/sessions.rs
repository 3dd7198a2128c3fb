use rusqlite::{params, Connection, OptionalExtension, Params, Row};

use super::{Db, SqlResultExt};
use crate::model::{GameSessionRecord, NewGameSession};
use crate::repo::GameSessionRepo;
use crate::{Error, Result};

const COLUMNS: &str = "id, uid, game_id, node_id, device_no, status, machine_id, created_at, \
                       ready_at, playing_at, ended_at, end_reason, lane, tag, seq, play_minutes";

/// The status of a session just stored: QUEUE.
const QUEUE: i32 = 1;

pub(crate) struct SqliteSessions {
    db: Db,
}

impl SqliteSessions {
    pub(crate) fn new(conn: Connection) -> SqliteSessions {
        SqliteSessions { db: Db::new(conn) }
    }

    fn query(&self, filter_and_order: &str, params: impl Params) -> Result<Vec<GameSessionRecord>> {
        let conn = self.db.lock();
        let mut stmt = conn
            .prepare_cached(&format!("SELECT {COLUMNS} FROM game_sessions {filter_and_order}"))
            .db()?;
        let records = stmt.query_map(params, from_row).db()?.collect::<rusqlite::Result<_>>().db()?;
        Ok(records)
    }
}

fn from_row(row: &Row<'_>) -> rusqlite::Result<GameSessionRecord> {
    Ok(GameSessionRecord {
        id: row.get(0)?,
        uid: row.get(1)?,
        game_id: row.get(2)?,
        node_id: row.get(3)?,
        device_no: row.get(4)?,
        status: row.get(5)?,
        machine_id: row.get(6)?,
        created_at: row.get(7)?,
        ready_at: row.get(8)?,
        playing_at: row.get(9)?,
        ended_at: row.get(10)?,
        end_reason: row.get(11)?,
        lane: row.get(12)?,
        tag: row.get(13)?,
        seq: row.get(14)?,
        play_minutes: row.get(15)?,
    })
}

impl GameSessionRepo for SqliteSessions {
    fn insert(&self, s: &NewGameSession) -> Result<GameSessionRecord> {
        let conn = self.db.lock();
        conn.execute(
            "INSERT INTO game_sessions (uid, game_id, node_id, device_no, status, created_at, lane)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![s.uid, s.game_id, s.node_id, s.device_no, QUEUE, s.created_at, s.lane],
        )
        .db()?;
        Ok(GameSessionRecord {
            id: conn.last_insert_rowid(),
            uid: s.uid,
            game_id: s.game_id,
            node_id: s.node_id,
            device_no: s.device_no.clone(),
            status: QUEUE,
            machine_id: None,
            created_at: s.created_at,
            ready_at: None,
            playing_at: None,
            ended_at: None,
            end_reason: None,
            lane: s.lane,
            tag: 0,
            seq: 0,
            play_minutes: 0,
        })
    }

    fn update(&self, r: &GameSessionRecord) -> Result<()> {
        let changed = self
            .db
            .lock()
            .execute(
                "UPDATE game_sessions SET uid = ?2, game_id = ?3, node_id = ?4, device_no = ?5,
                     status = ?6, machine_id = ?7, created_at = ?8, ready_at = ?9,
                     playing_at = ?10, ended_at = ?11, end_reason = ?12, lane = ?13, tag = ?14,
                     seq = ?15, play_minutes = ?16
                 WHERE id = ?1",
                params![
                    r.id,
                    r.uid,
                    r.game_id,
                    r.node_id,
                    r.device_no,
                    r.status,
                    r.machine_id,
                    r.created_at,
                    r.ready_at,
                    r.playing_at,
                    r.ended_at,
                    r.end_reason,
                    r.lane,
                    r.tag,
                    r.seq,
                    r.play_minutes,
                ],
            )
            .db()?;
        if changed == 0 {
            return Err(Error::NotFound);
        }
        Ok(())
    }

    fn get(&self, id: i64) -> Result<Option<GameSessionRecord>> {
        self.db
            .lock()
            .query_row(&format!("SELECT {COLUMNS} FROM game_sessions WHERE id = ?1"), [id], from_row)
            .optional()
            .db()
    }

    fn list_by_user(&self, uid: i64, limit: u32) -> Result<Vec<GameSessionRecord>> {
        self.query("WHERE uid = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2", params![uid, limit])
    }

    fn list_open(&self) -> Result<Vec<GameSessionRecord>> {
        self.query("WHERE ended_at IS NULL ORDER BY id", [])
    }

    fn set_place(&self, id: i64, lane: i32, tag: i64, seq: i64) -> Result<()> {
        let changed = self
            .db
            .lock()
            .execute(
                "UPDATE game_sessions SET lane = ?2, tag = ?3, seq = ?4 WHERE id = ?1",
                params![id, lane, tag, seq],
            )
            .db()?;
        if changed == 0 {
            return Err(Error::NotFound);
        }
        Ok(())
    }

    fn max_admitted_tag(&self, node_id: i64) -> Result<Option<i64>> {
        self.db
            .lock()
            .prepare_cached(
                "SELECT MAX(tag) FROM game_sessions
                 WHERE node_id = ?1 AND ready_at IS NOT NULL",
            )
            .db()?
            .query_row(params![node_id], |row| row.get(0))
            .db()
    }
}
