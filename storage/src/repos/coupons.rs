//! Coupons (the backpack's card_type 3) and the limited-time activities' receipts. The order's
//! side of a coupon (`reserve`, `consume`, `release`) runs in the order's own transaction
//! (`commerce.rs`), each a conditional write: a coupon is held by at most one open order and
//! used at most once.

use crate::sql::{params, Conn, OptionalExt, Row};

use super::{ledger, Db};
use crate::model::{Asset, Coupon, CouponSpec};
use crate::repo::CouponRepo;
use crate::{Error, Result};

const COLUMNS: &str = "id, uid, sid, title, goods_code, goods_types, face_value, min_order_money, supermarket, status, expires_at, \
     created_at, used_at, used_order, reserved_by, source";

pub(crate) struct SqlCoupons {
    db: Db,
}

impl SqlCoupons {
    pub(crate) fn new(db: Db) -> SqlCoupons {
        SqlCoupons { db }
    }
}

fn from_row(row: &Row) -> Result<Coupon> {
    let types: String = row.get(5)?;
    Ok(Coupon {
        id: row.get(0)?,
        uid: row.get(1)?,
        spec: CouponSpec {
            sid: row.get(2)?,
            title: row.get(3)?,
            goods_code: row.get(4)?,
            goods_types: types.split(',').filter_map(|t| t.trim().parse().ok()).collect(),
            face_value: row.get(6)?,
            min_order_money: row.get(7)?,
            supermarket: row.get(8)?,
            valid_days: 0,
        },
        status: row.get(9)?,
        expires_at: row.get(10)?,
        created_at: row.get(11)?,
        used_at: row.get(12)?,
        used_order: row.get(13)?,
        reserved_by: row.get(14)?,
        source: row.get(15)?,
    })
}

pub(crate) fn insert(conn: &Conn<'_>, uid: i64, coupons: &[(CouponSpec, i64)], source: &str, now: i64) -> Result<Vec<Coupon>> {
    let known: Option<i64> = conn
        .query_row("SELECT uid FROM users WHERE uid = ?1", [uid], |r| r.get(0))
        .optional()?;
    if known.is_none() {
        return Err(Error::NotFound);
    }
    let mut out = Vec::with_capacity(coupons.len());
    for (spec, expires_at) in coupons {
        let types = spec.goods_types.iter().map(i32::to_string).collect::<Vec<_>>().join(",");
        let id: i64 = conn.query_row(
            "INSERT INTO coupons (uid, sid, title, goods_code, goods_types, face_value, min_order_money, supermarket, status,
                                  expires_at, created_at, source)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0, ?9, ?10, ?11) RETURNING id",
            params![
                uid,
                spec.sid,
                spec.title,
                spec.goods_code,
                types,
                spec.face_value,
                spec.min_order_money,
                spec.supermarket,
                expires_at,
                now,
                source
            ],
            |r| r.get(0),
        )?;
        out.push(coupon_in(conn, id)?.ok_or(Error::NotFound)?);
    }
    let n = i64::try_from(out.len()).unwrap_or(i64::MAX);
    ledger::append(conn, uid, &Asset::Coupons, n, source, "", now)?;
    Ok(out)
}

fn coupon_in(conn: &Conn<'_>, id: i64) -> Result<Option<Coupon>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM coupons WHERE id = ?1"))?
        .query_row([id], from_row)
        .optional()
}

/// The order `order_no` of `uid` holds the coupon: it must be the user's, unused, unexpired at
/// `now` and held by no other order; otherwise Conflict("coupon unusable") and the caller's
/// transaction rolls back.
pub(crate) fn reserve(conn: &Conn<'_>, coupon_id: i64, uid: i64, order_no: &str, now: i64) -> Result<()> {
    let n = conn
        .prepare_cached(
            "UPDATE coupons SET reserved_by = ?3
             WHERE id = ?1 AND uid = ?2 AND status = 0 AND reserved_by IS NULL AND expires_at > ?4",
        )?
        .execute(params![coupon_id, uid, order_no, now])?;
    if n == 1 {
        Ok(())
    } else {
        Err(Error::Refused(crate::Refusal::CouponUnusable))
    }
}

/// The paid order uses its coupon (held by it, or by none since it expired and the payment
/// came in time), with the ledger entry; false when another order took it meanwhile (the
/// payment stands, the coupon is not used twice).
pub(crate) fn consume(conn: &Conn<'_>, coupon_id: i64, uid: i64, order_no: &str, now: i64) -> Result<bool> {
    let n = conn
        .prepare_cached(
            "UPDATE coupons SET status = 1, used_at = ?4, used_order = ?3, reserved_by = NULL
             WHERE id = ?1 AND uid = ?2 AND status = 0 AND (reserved_by = ?3 OR reserved_by IS NULL)",
        )?
        .execute(params![coupon_id, uid, order_no, now])?;
    if n == 1 {
        ledger::append(conn, uid, &Asset::Coupons, -1, "coupon_use", order_no, now)?;
    }
    Ok(n == 1)
}

/// The closed order lets its coupon go.
pub(crate) fn release(conn: &Conn<'_>, order_no: &str) -> Result<()> {
    conn.prepare_cached("UPDATE coupons SET reserved_by = NULL WHERE reserved_by = ?1 AND status = 0")?
        .execute([order_no])?;
    Ok(())
}

impl CouponRepo for SqlCoupons {
    fn grant_coupons(&self, uid: i64, coupons: &[(CouponSpec, i64)], source: &str, now: i64) -> Result<Vec<Coupon>> {
        self.db.write(|tx| insert(tx, uid, coupons, source, now))
    }

    fn coupons(&self, uid: i64) -> Result<Vec<Coupon>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM coupons WHERE uid = ?1 ORDER BY id"))?;
        let rows = stmt.query_map([uid], from_row)?.collect::<Result<_>>()?;
        Ok(rows)
    }

    fn coupon(&self, id: i64) -> Result<Option<Coupon>> {
        coupon_in(&self.db.lock()?, id)
    }

    fn receive_activity(&self, uid: i64, activity_id: i64, coupons: &[(CouponSpec, i64)], now: i64) -> Result<Option<Vec<Coupon>>> {
        self.db.write(|tx| {
            let n = tx.execute(
                "INSERT INTO activity_receipts (activity_id, uid, received_at) VALUES (?1, ?2, ?3)
                     ON CONFLICT (activity_id, uid) DO NOTHING",
                params![activity_id, uid, now],
            )?;
            if n == 0 {
                return Ok(None);
            }
            insert(tx, uid, coupons, &format!("activity:{activity_id}"), now).map(Some)
        })
    }
}
