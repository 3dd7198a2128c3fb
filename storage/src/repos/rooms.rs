use crate::sql::{params, OptionalExt, Row};

use super::{to_u64, Db};
use crate::model::{NewRoom, RoomBlock, RoomPassword, RoomRecord, RoomReport};
use crate::repo::RoomRepo;
use crate::{Error, Result};

const COLUMNS: &str = "dd_rid, room_serial, host_uid, name, mode, is_show, password_salt, password_hash, game_id, relay_session,
    created_at, ended_at, audience_count, mike_count, control_count, gift_count, gold";

/// The first room serial (serials are their own sequence, apart from dd_rid).
const FIRST_SERIAL: i64 = 500_001;

pub(crate) struct SqlRooms {
    db: Db,
}

impl SqlRooms {
    pub(crate) fn new(db: Db) -> SqlRooms {
        SqlRooms { db }
    }

    fn one(&self, filter: &str, arg: i64) -> Result<Option<RoomRecord>> {
        self.db
            .lock()?
            .query_row(&format!("SELECT {COLUMNS} FROM rooms WHERE {filter}"), [arg], from_row)
            .optional()
    }
}

fn from_row(row: &Row) -> Result<RoomRecord> {
    let salt: Option<String> = row.get(6)?;
    let hash: Option<String> = row.get(7)?;
    Ok(RoomRecord {
        dd_rid: row.get(0)?,
        room_serial: row.get(1)?,
        host_uid: row.get(2)?,
        name: row.get(3)?,
        mode: row.get(4)?,
        is_show: row.get(5)?,
        password: salt.zip(hash).map(|(salt, hash)| RoomPassword { salt, hash }),
        game_id: row.get(8)?,
        relay_session: row.get(9)?,
        created_at: row.get(10)?,
        ended_at: row.get(11)?,
        audience_count: row.get(12)?,
        mike_count: row.get(13)?,
        control_count: row.get(14)?,
        gift_count: row.get(15)?,
        gold: row.get(16)?,
    })
}

fn block_from_row(row: &Row) -> Result<RoomBlock> {
    Ok(RoomBlock {
        owner_uid: row.get(0)?,
        blocked_uid: row.get(1)?,
        created_at: row.get(2)?,
    })
}

impl RoomRepo for SqlRooms {
    fn insert(&self, r: &NewRoom) -> Result<RoomRecord> {
        self.db.write(|tx| {
            let serial: i64 = tx.query_row("SELECT COALESCE(MAX(room_serial) + 1, ?1) FROM rooms", [FIRST_SERIAL], |row| {
                row.get(0)
            })?;
            let (salt, hash) = r.password.clone().map(|p| (p.salt, p.hash)).unzip();
            let id: i64 = tx.query_row(
                "INSERT INTO rooms (room_serial, host_uid, name, mode, is_show, password_salt, password_hash, game_id, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING dd_rid",
                params![serial, r.host_uid, r.name, r.mode, r.is_show, salt, hash, r.game_id, r.created_at],
                |r| r.get(0),
            )?;
            let room = tx.query_row(&format!("SELECT {COLUMNS} FROM rooms WHERE dd_rid = ?1"), [id], from_row)?;
            Ok(room)
        })
    }

    fn get(&self, dd_rid: i64) -> Result<Option<RoomRecord>> {
        self.one("dd_rid = ?1", dd_rid)
    }

    fn by_serial(&self, room_serial: i64) -> Result<Option<RoomRecord>> {
        self.one("room_serial = ?1", room_serial)
    }

    fn by_relay_session(&self, session_id: i64) -> Result<Option<RoomRecord>> {
        self.one("relay_session = ?1 ORDER BY dd_rid DESC LIMIT 1", session_id)
    }

    fn open_by_host(&self, host_uid: i64) -> Result<Option<RoomRecord>> {
        self.one("host_uid = ?1 AND ended_at IS NULL", host_uid)
    }

    fn list_open(&self) -> Result<Vec<RoomRecord>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM rooms WHERE ended_at IS NULL ORDER BY dd_rid"))?;
        let rows = stmt.query_map((), from_row)?;
        rows.collect::<Result<Vec<_>>>()
    }

    fn update(&self, r: &RoomRecord) -> Result<()> {
        let (salt, hash) = r.password.clone().map(|p| (p.salt, p.hash)).unzip();
        let n = self.db.lock()?.execute(
            "UPDATE rooms SET name = ?2, mode = ?3, is_show = ?4, password_salt = ?5, password_hash = ?6, game_id = ?7,
                    relay_session = ?8, ended_at = ?9, audience_count = ?10, mike_count = ?11, control_count = ?12,
                    gift_count = ?13, gold = ?14
                 WHERE dd_rid = ?1",
            params![
                r.dd_rid,
                r.name,
                r.mode,
                r.is_show,
                salt,
                hash,
                r.game_id,
                r.relay_session,
                r.ended_at,
                r.audience_count,
                r.mike_count,
                r.control_count,
                r.gift_count,
                r.gold
            ],
        )?;
        if n == 0 {
            return Err(Error::NotFound);
        }
        Ok(())
    }

    fn block(&self, owner: i64, blocked: i64, now: i64) -> Result<RoomBlock> {
        if owner == blocked {
            return Err(Error::Conflict("a user cannot block themselves".into()));
        }
        let conn = self.db.lock()?;
        conn.execute(
            "INSERT INTO room_blacklist (owner_uid, blocked_uid, created_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (owner_uid, blocked_uid) DO NOTHING",
            params![owner, blocked, now],
        )?;
        conn.query_row(
            "SELECT owner_uid, blocked_uid, created_at FROM room_blacklist WHERE owner_uid = ?1 AND blocked_uid = ?2",
            [owner, blocked],
            block_from_row,
        )
    }

    fn unblock(&self, owner: i64, blocked: i64) -> Result<bool> {
        let n = self.db.lock()?.execute(
            "DELETE FROM room_blacklist WHERE owner_uid = ?1 AND blocked_uid = ?2",
            [owner, blocked],
        )?;
        Ok(n > 0)
    }

    fn is_blocked(&self, owner: i64, blocked: i64) -> Result<bool> {
        self.db.lock()?.query_row(
            "SELECT EXISTS (SELECT 1 FROM room_blacklist WHERE owner_uid = ?1 AND blocked_uid = ?2)",
            [owner, blocked],
            |row| row.get(0),
        )
    }

    fn blocks(&self, owner: i64, offset: u64, limit: u32) -> Result<(Vec<RoomBlock>, u64)> {
        let conn = self.db.lock()?;
        let total: i64 = conn.query_row("SELECT COUNT(*) FROM room_blacklist WHERE owner_uid = ?1", [owner], |row| {
            row.get(0)
        })?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let mut stmt = conn.prepare_cached(
            "SELECT owner_uid, blocked_uid, created_at FROM room_blacklist WHERE owner_uid = ?1
                 ORDER BY created_at DESC, blocked_uid LIMIT ?2 OFFSET ?3",
        )?;
        let rows = stmt.query_map(params![owner, limit, offset], block_from_row)?;
        Ok((rows.collect::<Result<Vec<_>>>()?, to_u64(total)?))
    }

    fn hosted(&self, host_uid: i64, offset: u64, limit: u32) -> Result<(Vec<(RoomRecord, i64)>, u64)> {
        let conn = self.db.lock()?;
        let total: i64 = conn.query_row("SELECT COUNT(*) FROM rooms WHERE host_uid = ?1", [host_uid], |row| row.get(0))?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS}, (SELECT COUNT(*) FROM play_charges c
                     WHERE c.session_id = rooms.relay_session AND c.free + c.paid > 0)
                 FROM rooms WHERE host_uid = ?1 ORDER BY created_at DESC, dd_rid DESC LIMIT ?2 OFFSET ?3"
        ))?;
        let rows = stmt.query_map(params![host_uid, limit, offset], |row| Ok((from_row(row)?, row.get(17)?)))?;
        Ok((rows.collect::<Result<Vec<_>>>()?, to_u64(total)?))
    }

    fn add_report(&self, r: &RoomReport) -> Result<i64> {
        let conn = self.db.lock()?;
        conn.query_row(
            "INSERT INTO room_reports (dd_rid, reporter, target, reason, text, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
            params![r.dd_rid, r.reporter, r.target, r.reason, r.text, r.created_at],
            |r| r.get(0),
        )
    }

    fn reports(&self, dd_rid: i64) -> Result<Vec<RoomReport>> {
        let conn = self.db.lock()?;
        let mut stmt = conn
            .prepare_cached("SELECT dd_rid, reporter, target, reason, text, created_at FROM room_reports WHERE dd_rid = ?1 ORDER BY id")?;
        let rows = stmt.query_map([dd_rid], |row| {
            Ok(RoomReport {
                dd_rid: row.get(0)?,
                reporter: row.get(1)?,
                target: row.get(2)?,
                reason: row.get(3)?,
                text: row.get(4)?,
                created_at: row.get(5)?,
            })
        })?;
        rows.collect::<Result<Vec<_>>>()
    }
}
