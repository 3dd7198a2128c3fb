//! Auto-renewal agreements (`crate::agreements`).

use crate::sql::{params, Conn, OptionalExt, Row};

use super::Db;
use crate::agreements::{Agreement, AgreementRepo, AGREEMENT_ACTIVE, AGREEMENT_CANCELLED, AGREEMENT_PENDING, RENEW_AHEAD_MS};
use crate::Order;
use crate::{Error, Result};

pub(crate) const MIGRATION: &str = "
CREATE TABLE agreements (
    agreement_no TEXT    PRIMARY KEY,
    uid          INTEGER NOT NULL REFERENCES users (uid),
    goods_id     INTEGER NOT NULL,
    goods_code   TEXT    NOT NULL,
    title        TEXT    NOT NULL,
    amount_fen   INTEGER NOT NULL CHECK (amount_fen >= 0),
    state        INTEGER NOT NULL,
    first_order  TEXT    NOT NULL UNIQUE,
    last_order   TEXT    NOT NULL,
    next_at      INTEGER NOT NULL,
    periods      INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    cancelled_at INTEGER
);
CREATE INDEX agreements_by_uid ON agreements (uid, created_at);
CREATE INDEX agreements_by_last_order ON agreements (last_order);
";

const COLUMNS: &str =
    "agreement_no, uid, goods_id, goods_code, title, amount_fen, state, first_order, last_order, next_at, periods, created_at, cancelled_at";

pub(crate) struct SqlAgreements {
    db: Db,
}

impl SqlAgreements {
    pub(crate) fn new(db: Db) -> SqlAgreements {
        SqlAgreements { db }
    }
}

fn from_row(row: &Row) -> Result<Agreement> {
    Ok(Agreement {
        agreement_no: row.get(0)?,
        uid: row.get(1)?,
        goods_id: row.get(2)?,
        goods_code: row.get(3)?,
        title: row.get(4)?,
        amount_fen: row.get(5)?,
        state: row.get(6)?,
        first_order: row.get(7)?,
        last_order: row.get(8)?,
        next_at: row.get(9)?,
        periods: row.get(10)?,
        created_at: row.get(11)?,
        cancelled_at: row.get(12)?,
    })
}

/// Pending or active → active, one more period, the next charge at `next_at`, in the caller's
/// transaction; None when the agreement is cancelled (or unknown).
fn paid_in(conn: &Conn<'_>, agreement_no: &str, order_no: &str, next_at: i64) -> Result<Option<Agreement>> {
    let n = conn.execute(
        "UPDATE agreements SET state = ?2, last_order = ?3, next_at = ?4, periods = periods + 1
             WHERE agreement_no = ?1 AND state IN (?5, ?2)",
        params![agreement_no, AGREEMENT_ACTIVE, order_no, next_at, AGREEMENT_PENDING],
    )?;
    if n == 0 {
        return Ok(None);
    }
    one(conn, "agreement_no = ?1", agreement_no)
}

/// An order was fulfilled, in the transaction that fulfilled it: when it was made under an
/// agreement (its first order or its latest renewal), the agreement is active and its next
/// period is charged [`RENEW_AHEAD_MS`] before the entitlement the order extended ends (never
/// before `now`). In the same transaction, so a paid period never leaves its agreement pending,
/// whatever happens after the commit.
pub(crate) fn on_order_fulfilled(conn: &Conn<'_>, order: &Order, now: i64) -> Result<()> {
    let no = &order.order.order_no;
    let Some(a) = one(conn, "first_order = ?1", no)?.or(one(conn, "last_order = ?1", no)?) else {
        return Ok(());
    };
    let (kind, _) = order.order.grant.to_parts();
    let ends = super::ledger::entitlement_run(conn, order.order.uid, &kind)?.map_or(now, |(_, end)| end);
    paid_in(conn, &a.agreement_no, no, (ends - RENEW_AHEAD_MS).max(now)).map(|_| ())
}

fn one(conn: &Conn<'_>, filter: &str, key: &str) -> Result<Option<Agreement>> {
    conn.query_row(&format!("SELECT {COLUMNS} FROM agreements WHERE {filter}"), [key], from_row)
        .optional()
}

impl AgreementRepo for SqlAgreements {
    fn create(&self, a: &Agreement) -> Result<Agreement> {
        let conn = self.db.lock()?;
        conn.execute(
            "INSERT INTO agreements (agreement_no, uid, goods_id, goods_code, title, amount_fen, state, first_order, last_order,
                                     next_at, periods, created_at, cancelled_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, 0, 0, ?9, NULL)
             ON CONFLICT (first_order) DO NOTHING",
            params![
                a.agreement_no,
                a.uid,
                a.goods_id,
                a.goods_code,
                a.title,
                a.amount_fen,
                AGREEMENT_PENDING,
                a.first_order,
                a.created_at
            ],
        )?;
        one(&conn, "first_order = ?1", &a.first_order)?.ok_or(Error::NotFound)
    }

    fn get(&self, agreement_no: &str) -> Result<Option<Agreement>> {
        one(&self.db.lock()?, "agreement_no = ?1", agreement_no)
    }

    fn by_order(&self, order_no: &str) -> Result<Option<Agreement>> {
        let conn = self.db.lock()?;
        match one(&conn, "first_order = ?1", order_no)? {
            Some(a) => Ok(Some(a)),
            None => one(&conn, "last_order = ?1", order_no),
        }
    }

    fn of_user(&self, uid: i64) -> Result<Vec<Agreement>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM agreements WHERE uid = ?1 ORDER BY created_at DESC, agreement_no DESC"
        ))?;
        let rows = stmt.query_map([uid], from_row)?;
        rows.collect::<Result<Vec<_>>>()
    }

    fn active(&self) -> Result<Vec<Agreement>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM agreements WHERE state = ?1 ORDER BY next_at"))?;
        let rows = stmt.query_map([AGREEMENT_ACTIVE], from_row)?;
        rows.collect::<Result<Vec<_>>>()
    }

    fn paid(&self, agreement_no: &str, order_no: &str, next_at: i64) -> Result<Option<Agreement>> {
        paid_in(&self.db.lock()?, agreement_no, order_no, next_at)
    }

    fn renewing(&self, agreement_no: &str, order_no: &str) -> Result<()> {
        self.db.lock()?.execute(
            "UPDATE agreements SET last_order = ?2 WHERE agreement_no = ?1 AND state = ?3",
            params![agreement_no, order_no, AGREEMENT_ACTIVE],
        )?;
        Ok(())
    }

    fn cancel(&self, agreement_no: &str, uid: i64, now: i64) -> Result<bool> {
        let conn = self.db.lock()?;
        let found = one(&conn, "agreement_no = ?1", agreement_no)?.filter(|a| a.uid == uid);
        let Some(a) = found else { return Err(Error::NotFound) };
        if a.state == AGREEMENT_CANCELLED {
            return Ok(false);
        }
        let n = conn.execute(
            "UPDATE agreements SET state = ?2, next_at = 0, cancelled_at = ?3 WHERE agreement_no = ?1 AND state <> ?2",
            params![agreement_no, AGREEMENT_CANCELLED, now],
        )?;
        Ok(n == 1)
    }
}
