//! The merchant area (`merchant.rs` of the crate root has the trait and the seed): goods with
//! tier prices, coupon-group orders' lines and their redeem keys. Every write is one
//! transaction; a key's moves are conditional updates.

use crate::sql::{params, Conn, OptionalExt, Row};

use super::{commerce, coupons, ledger, Db};
use crate::merchant::{
    GroupItem, MerchantGoods, MerchantRepo, NewGroupOrder, RedeemKey, Tier, GROUP_GOODS_CODE, GROUP_GOODS_ID, GROUP_GOODS_TYPE, KEY_ISSUED,
    KEY_PENDING, KEY_REDEEMED_STATE,
};
use crate::model::{Asset, Coupon, CouponSpec, Order, OrderState};
use crate::{Error, Result};

/// Migration (merchant): the merchant goods and their tiers (seeded as `merchant::seed_goods`),
/// the lines of coupon-group orders and their redeem keys.
pub(crate) const MIGRATION: &str = "
CREATE TABLE merchant_goods (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL,
    skin            TEXT    NOT NULL CHECK (skin IN ('blue', 'golden')),
    sid             TEXT    NOT NULL,
    coupon_title    TEXT    NOT NULL,
    goods_code      TEXT    NOT NULL,
    goods_types     TEXT    NOT NULL,
    face_value      INTEGER NOT NULL CHECK (face_value > 0),
    min_order_money INTEGER NOT NULL CHECK (min_order_money >= 0),
    valid_days      INTEGER NOT NULL CHECK (valid_days > 0),
    on_sale         INTEGER NOT NULL,
    sort_order      INTEGER NOT NULL
);

CREATE TABLE merchant_tiers (
    goods_id INTEGER NOT NULL REFERENCES merchant_goods (id),
    min_num  INTEGER NOT NULL CHECK (min_num >= 1),
    max_num  INTEGER NOT NULL,
    price    INTEGER NOT NULL CHECK (price > 0),
    PRIMARY KEY (goods_id, min_num),
    CHECK (max_num >= min_num)
);

CREATE TABLE coupon_group_items (
    order_no   TEXT    NOT NULL REFERENCES orders (order_no),
    goods_id   INTEGER NOT NULL REFERENCES merchant_goods (id),
    name       TEXT    NOT NULL,
    num        INTEGER NOT NULL CHECK (num >= 1),
    unit_price INTEGER NOT NULL CHECK (unit_price > 0),
    PRIMARY KEY (order_no, goods_id)
);

-- status: 0 pending (its order unpaid), 1 redeemable, 2 redeemed
CREATE TABLE redeem_keys (
    key         TEXT    PRIMARY KEY,
    order_no    TEXT    NOT NULL REFERENCES orders (order_no),
    goods_id    INTEGER NOT NULL REFERENCES merchant_goods (id),
    buyer_uid   INTEGER NOT NULL REFERENCES users (uid),
    status      INTEGER NOT NULL CHECK (status IN (0, 1, 2)),
    redeemed_by INTEGER REFERENCES users (uid),
    redeemed_at INTEGER,
    coupon_id   INTEGER
);
CREATE INDEX redeem_keys_by_order ON redeem_keys (order_no);
CREATE INDEX redeem_keys_by_buyer ON redeem_keys (buyer_uid, status);

INSERT INTO merchant_goods VALUES
    (1, '10元时长券', 'blue', 'mch_time_10', '10元时长券', '', '2', 1000, 0, 30, 1, 1),
    (2, '30元VVIP会员券', 'golden', 'mch_vvip_30', '30元VVIP会员券', '', '5', 3000, 0, 30, 1, 2);
INSERT INTO merchant_tiers VALUES
    (1, 1, 9, 900), (1, 10, 99, 800), (1, 100, 999, 700),
    (2, 1, 9, 2700), (2, 10, 99, 2500), (2, 100, 999, 2300);
";

pub(crate) struct SqlMerchant {
    db: Db,
}

impl SqlMerchant {
    pub(crate) fn new(db: Db) -> SqlMerchant {
        SqlMerchant { db }
    }
}

const GOODS_COLUMNS: &str =
    "id, name, skin, sid, coupon_title, goods_code, goods_types, face_value, min_order_money, valid_days, on_sale, sort_order";

fn goods_from_row(row: &Row) -> Result<MerchantGoods> {
    let types: String = row.get(6)?;
    let title: String = row.get(4)?;
    Ok(MerchantGoods {
        id: row.get(0)?,
        name: row.get(1)?,
        skin: row.get(2)?,
        coupon: CouponSpec {
            sid: row.get(3)?,
            title,
            goods_code: row.get(5)?,
            goods_types: types.split(',').filter_map(|t| t.trim().parse().ok()).collect(),
            face_value: row.get(7)?,
            min_order_money: row.get(8)?,
            supermarket: false,
            valid_days: row.get(9)?,
        },
        tiers: vec![],
        on_sale: row.get(10)?,
        sort_order: row.get(11)?,
    })
}

fn tiers(conn: &Conn<'_>, goods_id: i64) -> Result<Vec<Tier>> {
    let mut stmt = conn.prepare_cached("SELECT min_num, max_num, price FROM merchant_tiers WHERE goods_id = ?1 ORDER BY min_num")?;
    let rows = stmt
        .query_map([goods_id], |r| {
            Ok(Tier {
                min_num: r.get(0)?,
                max_num: r.get(1)?,
                price: r.get(2)?,
            })
        })?
        .collect::<Result<_>>()?;
    Ok(rows)
}

const KEY_COLUMNS: &str = "k.key, k.order_no, k.goods_id, g.name, k.buyer_uid, k.status, k.redeemed_by, k.redeemed_at, k.coupon_id";

fn key_from_row(row: &Row) -> Result<RedeemKey> {
    Ok(RedeemKey {
        key: row.get(0)?,
        order_no: row.get(1)?,
        goods_id: row.get(2)?,
        goods_name: row.get(3)?,
        buyer_uid: row.get(4)?,
        status: row.get(5)?,
        redeemed_by: row.get(6)?,
        redeemed_at: row.get(7)?,
        coupon_id: row.get(8)?,
    })
}

fn key_in(conn: &Conn<'_>, key: &str) -> Result<Option<(RedeemKey, CouponSpec)>> {
    let sql = format!(
        "SELECT {KEY_COLUMNS}, {} FROM redeem_keys k JOIN merchant_goods g ON g.id = k.goods_id WHERE k.key = ?1",
        GOODS_COLUMNS.split(", ").map(|c| format!("g.{c}")).collect::<Vec<_>>().join(", ")
    );
    conn.prepare_cached(&sql)?
        .query_row([key], |r| {
            let k = key_from_row(r)?;
            // The goods' columns follow the key's nine.
            let types: String = r.get(15)?;
            let spec = CouponSpec {
                sid: r.get(12)?,
                title: r.get(13)?,
                goods_code: r.get(14)?,
                goods_types: types.split(',').filter_map(|t| t.trim().parse().ok()).collect(),
                face_value: r.get(16)?,
                min_order_money: r.get(17)?,
                supermarket: false,
                valid_days: r.get(18)?,
            };
            Ok((k, spec))
        })
        .optional()
}

/// The goods row coupon-group orders name, written the first time one is made.
fn ensure_group_goods(conn: &Conn<'_>) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO goods (id, code, goods_type, title, name, image, label, description, introduction, give_goods_name,
                            face_value_txt, face_value, retail_price, member_price, crossed_price, cycleable, first_price,
                            grant_kind, grant_amount, parent_id, on_sale, sort_order)
         VALUES (?1, ?2, ?3, '卡券团购', '卡券团购', '', '', '', '', '', '', 0, 0, 0, 0, 0, 0, 'redeem_keys', 0, NULL, 0, 0)
         ON CONFLICT (id) DO NOTHING",
    )?
    .execute(params![GROUP_GOODS_ID, GROUP_GOODS_CODE, GROUP_GOODS_TYPE])?;
    Ok(())
}

/// The fulfilling transaction of a coupon-group order (`ledger::apply_grant`): its `count`
/// pending keys become redeemable, with the buyer's entry. Conflict when the order does not
/// hold exactly that many pending keys (the transaction rolls back).
pub(crate) fn issue_keys(conn: &Conn<'_>, uid: i64, order_no: &str, count: i64, reason: &str, now: i64) -> Result<()> {
    let n = conn
        .prepare_cached("UPDATE redeem_keys SET status = ?3 WHERE order_no = ?1 AND buyer_uid = ?2 AND status = ?4")?
        .execute(params![order_no, uid, KEY_ISSUED, KEY_PENDING])?;
    if i64::try_from(n).ok() != Some(count) {
        return Err(Error::Conflict(format!(
            "order {order_no} holds {n} pending keys, {count} expected"
        )));
    }
    ledger::append(conn, uid, &Asset::RedeemKeys, count, reason, order_no, now)
}

impl MerchantRepo for SqlMerchant {
    fn merchant_goods(&self) -> Result<Vec<MerchantGoods>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {GOODS_COLUMNS} FROM merchant_goods WHERE on_sale = 1 ORDER BY sort_order, id"
        ))?;
        let goods: Vec<MerchantGoods> = stmt.query_map((), goods_from_row)?.collect::<Result<_>>()?;
        drop(stmt);
        goods
            .into_iter()
            .map(|mut g| {
                g.tiers = tiers(&conn, g.id)?;
                Ok(g)
            })
            .collect()
    }

    fn create_group_order(&self, o: &NewGroupOrder) -> Result<(Order, bool)> {
        self.db.write(|tx| {
            ensure_group_goods(tx)?;
            let (order, created) = commerce::insert_order(tx, &o.order, OrderState::Created)?;
            if !created {
                return Ok((order, false));
            }
            let no = &order.order.order_no;
            for i in &o.items {
                tx.prepare_cached(
                    "INSERT INTO coupon_group_items (order_no, goods_id, name, num, unit_price) VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![no, i.goods_id, i.name, i.num, i.unit_price])?;
            }
            for (key, goods_id) in &o.keys {
                tx.prepare_cached("INSERT INTO redeem_keys (key, order_no, goods_id, buyer_uid, status) VALUES (?1, ?2, ?3, ?4, ?5)")?
                    .execute(params![key, no, goods_id, o.order.uid, KEY_PENDING])?;
            }
            Ok((order, true))
        })
    }

    fn group_items(&self, order_no: &str) -> Result<Vec<GroupItem>> {
        let conn = self.db.lock()?;
        let mut stmt =
            conn.prepare_cached("SELECT goods_id, name, num, unit_price FROM coupon_group_items WHERE order_no = ?1 ORDER BY goods_id")?;
        let rows = stmt
            .query_map([order_no], |r| {
                Ok(GroupItem {
                    goods_id: r.get(0)?,
                    name: r.get(1)?,
                    num: r.get(2)?,
                    unit_price: r.get(3)?,
                })
            })?
            .collect::<Result<_>>()?;
        Ok(rows)
    }

    fn group_keys(&self, order_no: &str) -> Result<Vec<RedeemKey>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {KEY_COLUMNS} FROM redeem_keys k JOIN merchant_goods g ON g.id = k.goods_id
                 WHERE k.order_no = ?1 ORDER BY k.goods_id, k.rowid"
        ))?;
        let rows = stmt.query_map([order_no], key_from_row)?.collect::<Result<_>>()?;
        Ok(rows)
    }

    fn redeem_key_of(&self, key: &str) -> Result<Option<(RedeemKey, CouponSpec)>> {
        key_in(&self.db.lock()?, key)
    }

    fn redeem(&self, key: &str, uid: i64, expires_at: i64, now: i64) -> Result<(RedeemKey, Coupon)> {
        self.db.write(|tx| {
            let (k, spec) = key_in(tx, key)?.ok_or(Error::NotFound)?;
            let n = tx
                .prepare_cached("UPDATE redeem_keys SET status = ?2, redeemed_by = ?3, redeemed_at = ?4 WHERE key = ?1 AND status = ?5")?
                .execute(params![key, KEY_REDEEMED_STATE, uid, now, KEY_ISSUED])?;
            if n != 1 {
                return Err(match k.status {
                    KEY_REDEEMED_STATE => Error::Refused(crate::Refusal::KeyRedeemed),
                    _ => Error::NotFound,
                });
            }
            ledger::append(tx, k.buyer_uid, &Asset::RedeemKeys, -1, "redeem", key, now)?;
            let coupon = coupons::insert(tx, uid, &[(spec, expires_at)], "redeem", now)?
                .pop()
                .ok_or(Error::NotFound)?;
            tx.execute("UPDATE redeem_keys SET coupon_id = ?2 WHERE key = ?1", params![key, coupon.id])?;
            let (k, _) = key_in(tx, key)?.ok_or(Error::NotFound)?;
            Ok((k, coupon))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The migration seeds what `merchant::seed_goods` describes.
    #[test]
    fn the_migration_seeds_the_goods() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE users (uid INTEGER PRIMARY KEY); CREATE TABLE orders (order_no TEXT PRIMARY KEY);")
            .unwrap();
        conn.execute_batch(MIGRATION).unwrap();
        let m = SqlMerchant::new(Db::lite(conn));
        assert_eq!(m.merchant_goods().unwrap(), crate::merchant::seed_goods());
    }
}
