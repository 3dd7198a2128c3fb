use crate::sql::{params, OptionalExt, Params, Row};

use super::Db;
use crate::model::{GameSessionRecord, NewGameSession, Played, QualityReport};
use crate::repo::GameSessionRepo;
use crate::{Error, Result};

const COLUMNS: &str = "id, uid, game_id, node_id, device_no, status, machine_id, created_at, \
                       ready_at, playing_at, ended_at, end_reason, lane, tag, seq, play_minutes, \
                       cutoff_at, requeues";

/// The status of a session just stored: QUEUE.
const QUEUE: i32 = 1;

pub(crate) struct SqlSessions {
    db: Db,
}

impl SqlSessions {
    pub(crate) fn new(db: Db) -> SqlSessions {
        SqlSessions { db }
    }

    fn query(&self, filter_and_order: &str, params: impl Params) -> Result<Vec<GameSessionRecord>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM game_sessions {filter_and_order}"))?;
        let records = stmt.query_map(params, from_row)?.collect::<Result<_>>()?;
        Ok(records)
    }
}

fn from_row(row: &Row) -> Result<GameSessionRecord> {
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
        cutoff_at: row.get(16)?,
        requeues: row.get(17)?,
    })
}

impl GameSessionRepo for SqlSessions {
    fn insert(&self, s: &NewGameSession) -> Result<GameSessionRecord> {
        // each write of a session is a transaction: a node queue's owner fences them
        let id: i64 = self.db.write(|conn| insert_session(conn, s))?;
        Ok(inserted(s, id))
    }

    fn insert_if_none_open(&self, s: &NewGameSession) -> Result<Option<GameSessionRecord>> {
        // the read and the insert in one write transaction: SERIALIZABLE on PostgreSQL (two
        // such at once for one user: one is retried, and finds the other's session), the one
        // writer on SQLite
        let id: Option<i64> = self.db.write(|conn| {
            let open: Option<i64> = conn
                .query_row(
                    "SELECT id FROM game_sessions WHERE uid = ?1 AND ended_at IS NULL LIMIT 1",
                    params![s.uid],
                    |r| r.get(0),
                )
                .optional()?;
            match open {
                Some(_) => Ok(None),
                None => insert_session(conn, s).map(Some),
            }
        })?;
        Ok(id.map(|id| inserted(s, id)))
    }

    fn update(&self, r: &GameSessionRecord) -> Result<()> {
        let changed = self.db.write(|tx| {
            tx.execute(
                "UPDATE game_sessions SET uid = ?2, game_id = ?3, node_id = ?4, device_no = ?5,
                     status = ?6, machine_id = ?7, created_at = ?8, ready_at = ?9,
                     playing_at = ?10, ended_at = ?11, end_reason = ?12, lane = ?13, tag = ?14,
                     seq = ?15, play_minutes = ?16, cutoff_at = ?17, requeues = ?18
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
                    r.cutoff_at,
                    r.requeues,
                ],
            )
        })?;
        if changed == 0 {
            return Err(Error::NotFound);
        }
        Ok(())
    }

    fn get(&self, id: i64) -> Result<Option<GameSessionRecord>> {
        self.db
            .lock()?
            .query_row(&format!("SELECT {COLUMNS} FROM game_sessions WHERE id = ?1"), [id], from_row)
            .optional()
    }

    fn list_by_user(&self, uid: i64, limit: u32) -> Result<Vec<GameSessionRecord>> {
        self.query("WHERE uid = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2", params![uid, limit])
    }

    fn list_open(&self) -> Result<Vec<GameSessionRecord>> {
        self.query("WHERE ended_at IS NULL ORDER BY id", ())
    }

    fn set_place(&self, id: i64, lane: i32, tag: i64, seq: i64) -> Result<()> {
        let changed = self.db.write(|tx| {
            tx.execute(
                "UPDATE game_sessions SET lane = ?2, tag = ?3, seq = ?4 WHERE id = ?1",
                params![id, lane, tag, seq],
            )
        })?;
        if changed == 0 {
            return Err(Error::NotFound);
        }
        Ok(())
    }

    fn max_admitted_tag(&self, node_id: i64) -> Result<Option<i64>> {
        self.db
            .lock()?
            .prepare_cached(
                "SELECT MAX(tag) FROM game_sessions
                 WHERE node_id = ?1 AND ready_at IS NOT NULL",
            )?
            .query_row(params![node_id], |row| row.get(0))
    }

    fn add_quality(&self, q: &QualityReport) -> Result<()> {
        // IMMEDIATE: a deferred transaction that reads and then writes fails at once (SQLITE_BUSY)
        // when another connection wrote meanwhile; busy_timeout only waits for a lock taken up front
        self.db.write(|tx| {
            let owner: Option<i64> = tx
                .query_row("SELECT uid FROM game_sessions WHERE id = ?1", [q.session_id], |row| row.get(0))
                .optional()?;
            match owner {
                None => return Err(Error::NotFound),
                Some(uid) if uid != q.uid => return Err(Error::Conflict("the session is another user's".into())),
                Some(_) => {}
            }
            let added = tx.execute(
                "INSERT INTO quality_reports (session_id, uid, played_secs, latency_p50_ms, latency_p95_ms, fps, drops,
                         reconnects, reported_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                     ON CONFLICT (session_id) DO NOTHING",
                params![
                    q.session_id,
                    q.uid,
                    q.played_secs,
                    q.latency_p50_ms,
                    q.latency_p95_ms,
                    q.fps,
                    q.drops,
                    q.reconnects,
                    q.reported_at
                ],
            )?;
            if added == 0 {
                return Err(Error::Conflict("the session has a quality report".into()));
            }
            Ok(())
        })
    }

    fn quality(&self, session_id: i64) -> Result<Option<QualityReport>> {
        self.db
            .lock()?
            .query_row(
                &format!("SELECT {QUALITY_COLUMNS} FROM quality_reports q WHERE q.session_id = ?1"),
                [session_id],
                |row| quality_from(row, 0),
            )
            .optional()
    }

    fn played(&self, uid: i64, offset: u64, limit: u32) -> Result<(Vec<Played>, u64)> {
        let conn = self.db.lock()?;
        let total: i64 = conn
            .prepare_cached("SELECT COUNT(*) FROM game_sessions WHERE uid = ?1 AND playing_at IS NOT NULL")?
            .query_row([uid], |row| row.get(0))?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let columns = COLUMNS
            .split(", ")
            .map(|c| format!("s.{}", c.trim()))
            .collect::<Vec<_>>()
            .join(", ");
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {columns}, q.session_id, {QUALITY_COLUMNS} FROM game_sessions s
                 LEFT JOIN quality_reports q ON q.session_id = s.id
                 WHERE s.uid = ?1 AND s.playing_at IS NOT NULL
                 ORDER BY s.playing_at DESC, s.id DESC LIMIT ?2 OFFSET ?3"
        ))?;
        let rows = stmt
            .query_map(params![uid, limit, offset], |row| {
                let record = from_row(row)?;
                let reported: Option<i64> = row.get(SESSION_COLUMNS)?;
                let quality = match reported {
                    Some(_) => Some(quality_from(row, SESSION_COLUMNS + 1)?),
                    None => None,
                };
                Ok((record, quality))
            })?
            .collect::<Result<_>>()?;
        Ok((rows, super::to_u64(total)?))
    }
}

/// How many columns `COLUMNS` selects.
const SESSION_COLUMNS: usize = 18;

const QUALITY_COLUMNS: &str =
    "q.session_id, q.uid, q.played_secs, q.latency_p50_ms, q.latency_p95_ms, q.fps, q.drops, q.reconnects, q.reported_at";

/// A quality report from the row's columns starting at `at`.
fn quality_from(row: &Row, at: usize) -> Result<QualityReport> {
    Ok(QualityReport {
        session_id: row.get(at)?,
        uid: row.get(at + 1)?,
        played_secs: row.get(at + 2)?,
        latency_p50_ms: row.get(at + 3)?,
        latency_p95_ms: row.get(at + 4)?,
        fps: row.get(at + 5)?,
        drops: row.get(at + 6)?,
        reconnects: row.get(at + 7)?,
        reported_at: row.get(at + 8)?,
    })
}

/// Inserts a session in status QUEUE; its id.
fn insert_session(conn: &crate::sql::Conn<'_>, s: &NewGameSession) -> Result<i64> {
    conn.query_row(
        "INSERT INTO game_sessions (uid, game_id, node_id, device_no, status, created_at, lane, cutoff_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
        params![s.uid, s.game_id, s.node_id, s.device_no, QUEUE, s.created_at, s.lane, s.cutoff_at],
        |r| r.get(0),
    )
}

/// The record of a session just inserted as `id`.
fn inserted(s: &NewGameSession, id: i64) -> GameSessionRecord {
    GameSessionRecord {
        id,
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
        cutoff_at: s.cutoff_at,
        requeues: 0,
    }
}

#[cfg(test)]
mod tests {
    // The joined reads find the report's columns after the session's: the count must follow
    // the list.
    #[test]
    fn session_columns_counts_the_columns() {
        assert_eq!(super::COLUMNS.split(',').count(), super::SESSION_COLUMNS);
    }
}
