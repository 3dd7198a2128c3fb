//! The shop and the money path: goods, wallets, orders, payment callbacks and the ledger. Every
//! write runs in one `BEGIN IMMEDIATE` transaction and every order transition is a conditional
//! `UPDATE ... WHERE state = ...`, so a repeated or late call finds nothing to change.

use crate::sql::{params, Conn, OptionalExt, Row};

use super::{ledger, to_u64, Db};
use crate::activity::OrderRules;
use crate::model::{Asset, Goods, GoodsGrant, LedgerEntry, LedgerMismatch, NewOrder, Order, OrderState, PaymentCallback, Settled, Wallet};
use crate::repo::CommerceRepo;
use crate::{Error, Result};

const GOODS_COLUMNS: &str = "id, code, goods_type, title, name, image, label, description, introduction, give_goods_name, \
     face_value_txt, face_value, retail_price, member_price, crossed_price, cycleable, first_price, grant_kind, grant_amount, \
     parent_id, on_sale, sort_order";

const ORDER_COLUMNS: &str = "order_no, uid, goods_id, goods_code, goods_type, title, count, amount_fen, retail_total, pay_method, \
     coupon_id, grant_kind, grant_amount, idem_key, state, created_at, expires_at, scanned_at, paid_at, fulfilled_at, closed_at, trade_no";

pub(crate) struct SqlCommerce {
    db: Db,
}

impl SqlCommerce {
    pub(crate) fn new(db: Db) -> SqlCommerce {
        SqlCommerce { db }
    }
}

fn goods_from_row(row: &Row) -> Result<Goods> {
    let kind: String = row.get(17)?;
    let amount: i64 = row.get(18)?;
    Ok(Goods {
        id: row.get(0)?,
        code: row.get(1)?,
        goods_type: row.get(2)?,
        title: row.get(3)?,
        name: row.get(4)?,
        image: row.get(5)?,
        label: row.get(6)?,
        description: row.get(7)?,
        introduction: row.get(8)?,
        give_goods_name: row.get(9)?,
        face_value_txt: row.get(10)?,
        face_value: row.get(11)?,
        retail_price: row.get(12)?,
        member_price: row.get(13)?,
        crossed_price: row.get(14)?,
        cycleable: row.get(15)?,
        first_price: row.get(16)?,
        grant: GoodsGrant::from_parts(&kind, amount),
        parent_id: row.get(19)?,
        on_sale: row.get(20)?,
        sort_order: row.get(21)?,
    })
}

fn order_from_row(row: &Row) -> Result<Order> {
    let kind: String = row.get(11)?;
    let amount: i64 = row.get(12)?;
    let state: String = row.get(14)?;
    Ok(Order {
        order: NewOrder {
            order_no: row.get(0)?,
            uid: row.get(1)?,
            goods_id: row.get(2)?,
            goods_code: row.get(3)?,
            goods_type: row.get(4)?,
            title: row.get(5)?,
            count: row.get(6)?,
            amount_fen: row.get(7)?,
            retail_total: row.get(8)?,
            pay_method: row.get(9)?,
            coupon_id: row.get(10)?,
            grant: GoodsGrant::from_parts(&kind, amount),
            idem_key: row.get(13)?,
            created_at: row.get(15)?,
            expires_at: row.get(16)?,
        },
        state: OrderState::parse(&state).ok_or_else(|| Error::Backend(format!("order state {state}")))?,
        scanned_at: row.get(17)?,
        paid_at: row.get(18)?,
        fulfilled_at: row.get(19)?,
        closed_at: row.get(20)?,
        trade_no: row.get(21)?,
    })
}

fn callback_from_row(row: &Row) -> Result<PaymentCallback> {
    Ok(PaymentCallback {
        id: row.get(0)?,
        order_no: row.get(1)?,
        provider: row.get(2)?,
        payload: row.get(3)?,
        accepted: row.get(4)?,
        outcome: row.get(5)?,
        at: row.get(6)?,
    })
}

fn collect<T>(conn: &Conn<'_>, sql: &str, params: impl crate::sql::Params, from_row: fn(&Row) -> Result<T>) -> Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, from_row)?.collect::<Result<_>>()?;
    Ok(rows)
}

pub(crate) fn order_in(conn: &Conn<'_>, order_no: &str) -> Result<Option<Order>> {
    conn.prepare_cached(&format!("SELECT {ORDER_COLUMNS} FROM orders WHERE order_no = ?1"))?
        .query_row([order_no], order_from_row)
        .optional()
}

pub(crate) fn order_by_key(conn: &Conn<'_>, uid: i64, idem_key: &str) -> Result<Option<Order>> {
    conn.prepare_cached(&format!("SELECT {ORDER_COLUMNS} FROM orders WHERE uid = ?1 AND idem_key = ?2"))?
        .query_row(params![uid, idem_key], order_from_row)
        .optional()
}

/// Inserts the order unless its key has one; returns the key's order and whether it is new.
pub(crate) fn insert_order(conn: &Conn<'_>, o: &NewOrder, state: OrderState) -> Result<(Order, bool)> {
    if !(1..=100).contains(&o.count) || o.amount_fen < 0 {
        return Err(Error::Conflict(format!(
            "order count {} or amount {} out of range",
            o.count, o.amount_fen
        )));
    }
    let (kind, amount) = o.grant.to_parts();
    let inserted = conn
        .prepare_cached(&format!(
            "INSERT INTO orders ({ORDER_COLUMNS}) VALUES
             (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, NULL, NULL, NULL, NULL, NULL)
             ON CONFLICT (uid, idem_key) DO NOTHING"
        ))?
        .execute(params![
            o.order_no,
            o.uid,
            o.goods_id,
            o.goods_code,
            o.goods_type,
            o.title,
            o.count,
            o.amount_fen,
            o.retail_total,
            o.pay_method,
            o.coupon_id,
            kind,
            amount,
            o.idem_key,
            state.as_str(),
            o.created_at,
            o.expires_at
        ])?;
    if let (1, Some(coupon)) = (inserted, o.coupon_id) {
        super::coupons::reserve(conn, coupon, o.uid, &o.order_no, o.created_at)?;
    }
    let order = order_by_key(conn, o.uid, &o.idem_key)?.ok_or(Error::NotFound)?;
    Ok((order, inserted == 1))
}

/// created → paid → fulfilled for a paid order, granting what it grants, in the caller's
/// transaction. `from` is the state the order must be in.
fn pay_and_fulfil(
    conn: &Conn<'_>,
    order: &Order,
    from: OrderState,
    trade_no: &str,
    paid_at: i64,
    now: i64,
    rules: &dyn OrderRules,
) -> Result<Order> {
    let no = &order.order.order_no;
    let paid = conn.execute(
        "UPDATE orders SET state = 'paid', paid_at = ?2, trade_no = ?3, closed_at = NULL WHERE order_no = ?1 AND state = ?4",
        params![no, paid_at, trade_no, from.as_str()],
    )?;
    if paid != 1 {
        return Err(Error::Conflict(format!("order {no} changed meanwhile")));
    }
    ledger::apply_grant(conn, order.order.uid, &order.order.grant, "order", no, now)?;
    if let Some(coupon) = order.order.coupon_id {
        super::coupons::consume(conn, coupon, order.order.uid, no, now)?;
    }
    super::activity::on_order_fulfilled(conn, order, now, rules)?;
    super::agreements::on_order_fulfilled(conn, order, now)?;
    let fulfilled = conn.execute(
        "UPDATE orders SET state = 'fulfilled', fulfilled_at = ?2 WHERE order_no = ?1 AND state = 'paid'",
        params![no, now],
    )?;
    if fulfilled != 1 {
        return Err(Error::Conflict(format!("order {no} changed meanwhile")));
    }
    order_in(conn, no)?.ok_or(Error::NotFound)
}

/// Creates an order paid with coins and fulfils it, in the caller's transaction: the debit,
/// the grant and their ledger entries, or (the coins short) an error that rolls it all back.
pub(crate) fn pay_with_coins_in(tx: &Conn<'_>, o: &NewOrder, now: i64, rules: &dyn OrderRules) -> Result<Settled> {
    let (order, created) = insert_order(tx, o, OrderState::Created)?;
    if !created {
        return match order.state {
            OrderState::Fulfilled => Ok(Settled::Already(order)),
            state => Err(Error::Conflict(format!("order {} is {}", order.order.order_no, state.as_str()))),
        };
    }
    let no = &order.order.order_no;
    if !ledger::debit_wallet(tx, o.uid, &Asset::Coins, o.amount_fen, "coin_pay", no, now)? {
        // The transaction rolls back: no order, no debit.
        return Err(Error::Refused(crate::Refusal::InsufficientCoins));
    }
    pay_and_fulfil(tx, &order, OrderState::Created, &format!("coins:{no}"), now, now, rules).map(Settled::Fulfilled)
}

impl CommerceRepo for SqlCommerce {
    fn section(&self, section_key: &str) -> Result<Vec<(Goods, Vec<Goods>)>> {
        let conn = self.db.lock()?;
        let top = collect(
            &conn,
            &format!(
                "SELECT {} FROM goods_sections s JOIN goods g ON g.id = s.goods_id
                 WHERE s.section_key = ?1 AND g.on_sale = 1 AND g.parent_id IS NULL
                 ORDER BY s.sort_order, g.id",
                GOODS_COLUMNS
                    .split(", ")
                    .map(|c| format!("g.{}", c.trim()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            [section_key],
            goods_from_row,
        )?;
        let mut out = Vec::with_capacity(top.len());
        for g in top {
            let speci = collect(
                &conn,
                &format!("SELECT {GOODS_COLUMNS} FROM goods WHERE parent_id = ?1 AND on_sale = 1 ORDER BY sort_order, id"),
                [g.id],
                goods_from_row,
            )?;
            out.push((g, speci));
        }
        Ok(out)
    }

    fn goods(&self, id: i64) -> Result<Option<Goods>> {
        self.db
            .lock()?
            .query_row(&format!("SELECT {GOODS_COLUMNS} FROM goods WHERE id = ?1"), [id], goods_from_row)
            .optional()
    }

    fn goods_by_code(&self, code: &str) -> Result<Option<Goods>> {
        self.db
            .lock()?
            .query_row(
                &format!("SELECT {GOODS_COLUMNS} FROM goods WHERE code = ?1"),
                [code],
                goods_from_row,
            )
            .optional()
    }

    fn speci(&self, parent_id: i64) -> Result<Vec<Goods>> {
        collect(
            &self.db.lock()?,
            &format!("SELECT {GOODS_COLUMNS} FROM goods WHERE parent_id = ?1 AND on_sale = 1 ORDER BY sort_order, id"),
            [parent_id],
            goods_from_row,
        )
    }

    fn upsert_goods(&self, goods: &[Goods], sections: &[(String, i64, i32)]) -> Result<()> {
        self.db.write(|tx| {
            // Parents first, so that a duration option's reference is there.
            let mut ordered: Vec<&Goods> = goods.iter().collect();
            ordered.sort_by_key(|g| g.parent_id.is_some());
            for g in ordered {
                let (kind, amount) = g.grant.to_parts();
                tx.execute(
                    &format!(
                        "INSERT INTO goods ({GOODS_COLUMNS}) VALUES
                         (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)
                         ON CONFLICT (id) DO UPDATE SET {}",
                        crate::sql::update_all(GOODS_COLUMNS, "id")
                    ),
                    params![
                        g.id,
                        g.code,
                        g.goods_type,
                        g.title,
                        g.name,
                        g.image,
                        g.label,
                        g.description,
                        g.introduction,
                        g.give_goods_name,
                        g.face_value_txt,
                        g.face_value,
                        g.retail_price,
                        g.member_price,
                        g.crossed_price,
                        g.cycleable,
                        g.first_price,
                        kind,
                        amount,
                        g.parent_id,
                        g.on_sale,
                        g.sort_order
                    ],
                )?;
            }
            for (key, goods_id, sort) in sections {
                tx.execute(
                    "INSERT INTO goods_sections (section_key, goods_id, sort_order) VALUES (?1, ?2, ?3)
                     ON CONFLICT (section_key, goods_id) DO UPDATE SET sort_order = excluded.sort_order",
                    params![key, goods_id, sort],
                )?;
            }
            Ok(())
        })
    }

    fn goods_count(&self) -> Result<u64> {
        let n: i64 = self.db.lock()?.query_row("SELECT COUNT(*) FROM goods", (), |r| r.get(0))?;
        to_u64(n)
    }

    fn wallet(&self, uid: i64) -> Result<Wallet> {
        Ok(self
            .db
            .lock()?
            .query_row("SELECT coins, yoodo FROM wallets WHERE uid = ?1", [uid], |r| {
                Ok(Wallet {
                    coins: r.get(0)?,
                    yoodo: r.get(1)?,
                })
            })
            .optional()?
            .unwrap_or_default())
    }

    fn grant(&self, uid: i64, grants: &[GoodsGrant], reason: &str, reference: &str, now: i64) -> Result<()> {
        self.db.write(|tx| {
            let known: Option<i64> = tx
                .query_row("SELECT uid FROM users WHERE uid = ?1", [uid], |r| r.get(0))
                .optional()?;
            if known.is_none() {
                return Err(Error::NotFound);
            }
            for g in grants {
                ledger::apply_grant(tx, uid, g, reason, reference, now)?;
            }
            Ok(())
        })
    }

    fn create_order(&self, o: &NewOrder) -> Result<(Order, bool)> {
        self.db.write(|tx| insert_order(tx, o, OrderState::Created))
    }

    fn pay_with_coins(&self, o: &NewOrder, now: i64, rules: &dyn OrderRules) -> Result<Settled> {
        self.db.write(|tx| pay_with_coins_in(tx, o, now, rules))
    }

    fn order(&self, order_no: &str) -> Result<Option<Order>> {
        order_in(&self.db.lock()?, order_no)
    }

    fn orders(&self, uid: i64, goods_type: Option<i32>, offset: u64, limit: u32) -> Result<(Vec<Order>, u64)> {
        let conn = self.db.lock()?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let rows = collect(
            &conn,
            &format!(
                "SELECT {ORDER_COLUMNS} FROM orders WHERE uid = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR goods_type = ?2)
                 ORDER BY created_at DESC, order_no DESC LIMIT ?3 OFFSET ?4"
            ),
            params![uid, goods_type, limit, offset],
            order_from_row,
        )?;
        let total: i64 = conn.query_row(
            "SELECT COUNT(*) FROM orders WHERE uid = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR goods_type = ?2)",
            params![uid, goods_type],
            |r| r.get(0),
        )?;
        Ok((rows, to_u64(total)?))
    }

    fn open_orders(&self) -> Result<Vec<Order>> {
        collect(
            &self.db.lock()?,
            &format!("SELECT {ORDER_COLUMNS} FROM orders WHERE state = 'created' ORDER BY expires_at, order_no"),
            (),
            order_from_row,
        )
    }

    fn mark_scanned(&self, order_no: &str, now: i64) -> Result<Order> {
        self.db.write(|tx| {
            tx.execute(
                "UPDATE orders SET scanned_at = ?2 WHERE order_no = ?1 AND state = 'created' AND scanned_at IS NULL",
                params![order_no, now],
            )?;
            order_in(tx, order_no)?.ok_or(Error::NotFound)
        })
    }

    fn settle(&self, order_no: &str, amount_fen: i64, trade_no: &str, paid_at: i64, now: i64, rules: &dyn OrderRules) -> Result<Settled> {
        self.db.write(|tx| {
            let order = order_in(tx, order_no)?.ok_or(Error::NotFound)?;
            if amount_fen != order.order.amount_fen {
                return Err(Error::Conflict(format!(
                    "paid {amount_fen} fen for an order of {}",
                    order.order.amount_fen
                )));
            }
            match order.state {
                OrderState::Created => {
                    pay_and_fulfil(tx, &order, OrderState::Created, trade_no, paid_at, now, rules).map(Settled::Fulfilled)
                }
                // Paid in time, expired before the news arrived: the payment stands.
                OrderState::Expired if paid_at < order.order.expires_at => {
                    pay_and_fulfil(tx, &order, OrderState::Expired, trade_no, paid_at, now, rules).map(Settled::Fulfilled)
                }
                OrderState::Fulfilled if order.trade_no.as_deref() == Some(trade_no) => Ok(Settled::Already(order)),
                state => Err(Error::Conflict(format!("order {order_no} is {}", state.as_str()))),
            }
        })
    }

    fn expire(&self, order_no: &str, now: i64) -> Result<bool> {
        self.db.write(|tx| {
            let n = tx.execute(
                "UPDATE orders SET state = 'expired', closed_at = ?2 WHERE order_no = ?1 AND state = 'created' AND expires_at <= ?2",
                params![order_no, now],
            )?;
            if n == 1 {
                super::coupons::release(tx, order_no)?;
            }
            Ok(n == 1)
        })
    }

    fn cancel(&self, order_no: &str, now: i64) -> Result<bool> {
        self.db.write(|tx| {
            let n = tx.execute(
                "UPDATE orders SET state = 'cancelled', closed_at = ?2 WHERE order_no = ?1 AND state = 'created'",
                params![order_no, now],
            )?;
            if n == 1 {
                super::coupons::release(tx, order_no)?;
            }
            Ok(n == 1)
        })
    }

    fn log_callback(&self, order_no: &str, provider: &str, payload: &str, accepted: bool, outcome: &str, now: i64) -> Result<()> {
        self.db.lock()?.execute(
            "INSERT INTO payment_callbacks (order_no, provider, payload, accepted, outcome, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![order_no, provider, payload, accepted, outcome, now],
        )?;
        Ok(())
    }

    fn callbacks(&self, order_no: &str) -> Result<Vec<PaymentCallback>> {
        collect(
            &self.db.lock()?,
            "SELECT id, order_no, provider, payload, accepted, outcome, at FROM payment_callbacks WHERE order_no = ?1 ORDER BY id",
            [order_no],
            callback_from_row,
        )
    }

    fn ledger(&self, uid: i64) -> Result<Vec<LedgerEntry>> {
        ledger::entries(&self.db.lock()?, uid)
    }

    fn ledger_mismatches(&self, uid: i64) -> Result<Vec<(String, i64, i64)>> {
        // One read transaction, so that the balances and the entries are of one moment.
        self.db.write(|tx| ledger::mismatches(tx, uid))
    }

    fn ledger_check_all(&self) -> Result<(u64, Vec<LedgerMismatch>)> {
        self.db.write(|tx| {
            let mut stmt = tx.prepare_cached("SELECT DISTINCT uid FROM ledger ORDER BY uid")?;
            let uids: Vec<i64> = stmt.query_map((), |r| r.get(0))?.collect::<Result<_>>()?;
            let mut out = vec![];
            for &uid in &uids {
                out.extend(
                    ledger::mismatches(tx, uid)?
                        .into_iter()
                        .map(|(asset, replayed, stored)| LedgerMismatch {
                            uid,
                            asset,
                            replayed,
                            stored,
                        }),
                );
            }
            Ok((uids.len() as u64, out))
        })
    }
}
