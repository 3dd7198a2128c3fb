//! Ad slots and the app's first-login gift (`ads.rs` of the crate root has the trait and the
//! rules). An order through an ad is checked against the ad's limit and linked to it in the
//! transaction that creates it; the first app login is marked and granted in one transaction
//! with its ledger entry.

use crate::sql::{params, Conn, OptionalExt, Row};

use super::{commerce, ledger, Db};
use crate::ads::{Ad, AdRepo, AdSpec};
use crate::model::{NewOrder, Order, OrderState, Settled};
use crate::{Error, Result};

/// Migration (ads): the ads of the slots (seeded with the platform's own: each points at a real
/// goods or action of the shop), the orders made through an ad, and the users' first app login.
pub(crate) const MIGRATION: &str = "
CREATE TABLE ads (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    slot         TEXT    NOT NULL,
    title        TEXT    NOT NULL,
    target_title TEXT    NOT NULL DEFAULT '',
    image        TEXT    NOT NULL DEFAULT '',
    target_type  INTEGER NOT NULL CHECK (target_type BETWEEN 0 AND 5),
    target_value TEXT    NOT NULL,
    need_login   INTEGER NOT NULL DEFAULT 0,
    sort_order   INTEGER NOT NULL DEFAULT 0,
    start_at     INTEGER NOT NULL DEFAULT 0,
    end_at       INTEGER NOT NULL DEFAULT 0,
    pay_times    INTEGER NOT NULL DEFAULT 0 CHECK (pay_times >= 0),
    retired      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ads_by_slot ON ads (slot, retired);

CREATE TABLE ad_orders (
    order_no TEXT    PRIMARY KEY REFERENCES orders (order_no),
    ad_id    INTEGER NOT NULL REFERENCES ads (id),
    uid      INTEGER NOT NULL REFERENCES users (uid)
);
CREATE INDEX ad_orders_by_user ON ad_orders (uid, ad_id);

CREATE TABLE app_logins (
    uid        INTEGER PRIMARY KEY REFERENCES users (uid),
    first_at   INTEGER NOT NULL,
    granted    INTEGER NOT NULL
);

INSERT INTO ads (slot, title, target_title, image, target_type, target_value, need_login, sort_order, pay_times) VALUES
    ('header_user_pannel', '开通VVIP 尊享专属排队通道', '开通VVIP', '/ads/member.svg', 3, 'buyMember', 1, 1, 0),
    ('header_right', '限时加速卡 1.9元', '限时加速卡', '', 5, 'detain_card', 1, 1, 1),
    ('member_expire', '续费会员 畅享专属特权', '续费会员', '', 3, 'buyMember', 1, 1, 0),
    ('gift_playtime_useup', '续玩时长1小时 限购2次', '续玩时长1小时', '/ads/time.svg', 5, 'useup_60', 1, 1, 2),
    ('gift_game_dialog', '排队加速卡 立即进入速进通道', '排队加速卡', '', 5, 'accelerate_card', 1, 1, 3),
    ('gift_game_countdown', '夜卡畅玩 每晚不限时长', '夜卡畅玩', '', 3, 'buyNightPackage', 1, 1, 0),
    ('gift_game_float', '日卡畅玩 白天不限时长', '日卡畅玩', '', 3, 'buyDailyPackage', 1, 1, 0);
";

pub(crate) struct SqlAds {
    db: Db,
}

impl SqlAds {
    pub(crate) fn new(db: Db) -> SqlAds {
        SqlAds { db }
    }
}

const AD_COLUMNS: &str =
    "id, slot, title, target_title, image, target_type, target_value, need_login, sort_order, start_at, end_at, pay_times, retired";

fn ad_from_row(row: &Row) -> Result<Ad> {
    Ok(Ad {
        id: row.get(0)?,
        slot: row.get(1)?,
        spec: AdSpec {
            id: Some(row.get(0)?),
            title: row.get(2)?,
            target_title: row.get(3)?,
            image: row.get(4)?,
            target_type: row.get(5)?,
            target_value: row.get(6)?,
            need_login: row.get(7)?,
            sort_order: row.get(8)?,
            start_at: row.get(9)?,
            end_at: row.get(10)?,
            pay_times: row.get(11)?,
        },
        retired: row.get(12)?,
    })
}

fn ad_in(conn: &Conn<'_>, id: i64) -> Result<Option<Ad>> {
    conn.prepare_cached(&format!("SELECT {AD_COLUMNS} FROM ads WHERE id = ?1"))?
        .query_row([id], ad_from_row)
        .optional()
}

fn slot_in(conn: &Conn<'_>, slot: &str) -> Result<Vec<Ad>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {AD_COLUMNS} FROM ads WHERE slot = ?1 AND retired = 0 ORDER BY sort_order, id"
    ))?;
    let rows = stmt.query_map([slot], ad_from_row)?.collect::<Result<_>>()?;
    Ok(rows)
}

/// The user's orders of the ad that count against its limit: paid, fulfilled, or created and
/// still payable at `now`.
fn used(conn: &Conn<'_>, uid: i64, ad_id: i64, now: i64) -> Result<i64> {
    conn.prepare_cached(
        "SELECT COUNT(*) FROM ad_orders a JOIN orders o ON o.order_no = a.order_no
         WHERE a.uid = ?1 AND a.ad_id = ?2
           AND (o.state IN ('paid', 'fulfilled') OR (o.state = 'created' AND o.expires_at > ?3))",
    )?
    .query_row(params![uid, ad_id, now], |r| r.get(0))
}

/// Refuses a new order through the ad when the user's orders reached its limit; an order of
/// the same key passes (it is answered again, not made).
fn admit(conn: &Conn<'_>, o: &NewOrder, ad_id: i64) -> Result<()> {
    if commerce::order_by_key(conn, o.uid, &o.idem_key)?.is_some() {
        return Ok(());
    }
    let ad = ad_in(conn, ad_id)?.ok_or(Error::NotFound)?;
    if ad.spec.pay_times > 0 && used(conn, o.uid, ad_id, o.created_at)? >= ad.spec.pay_times {
        return Err(Error::Refused(crate::Refusal::AdPayTimesUsed));
    }
    Ok(())
}

fn link(conn: &Conn<'_>, order: &Order, ad_id: i64) -> Result<()> {
    conn.prepare_cached("INSERT INTO ad_orders (order_no, ad_id, uid) VALUES (?1, ?2, ?3) ON CONFLICT (order_no) DO NOTHING")?
        .execute(params![order.order.order_no, ad_id, order.order.uid])?;
    Ok(())
}

impl AdRepo for SqlAds {
    fn live(&self, slots: &[String], now: i64) -> Result<Vec<Ad>> {
        let conn = self.db.lock()?;
        let mut out = vec![];
        for slot in slots {
            out.extend(slot_in(&conn, slot)?.into_iter().filter(|a| a.live(now)));
        }
        Ok(out)
    }

    fn ad(&self, id: i64) -> Result<Option<Ad>> {
        ad_in(&self.db.lock()?, id)
    }

    fn set_slot(&self, slot: &str, items: &[AdSpec]) -> Result<Vec<Ad>> {
        self.db.write(|tx| {
            let before = slot_in(tx, slot)?;
            for item in items.iter().filter_map(|i| i.id) {
                if !before.iter().any(|a| a.id == item) {
                    return Err(Error::NotFound);
                }
            }
            for a in before.iter().filter(|a| !items.iter().any(|i| i.id == Some(a.id))) {
                tx.execute("UPDATE ads SET retired = 1 WHERE id = ?1", [a.id])?;
            }
            for i in items {
                match i.id {
                    Some(id) => tx.execute(
                        "UPDATE ads SET title = ?2, target_title = ?3, image = ?4, target_type = ?5, target_value = ?6,
                         need_login = ?7, sort_order = ?8, start_at = ?9, end_at = ?10, pay_times = ?11 WHERE id = ?1",
                        params![
                            id,
                            i.title,
                            i.target_title,
                            i.image,
                            i.target_type,
                            i.target_value,
                            i.need_login,
                            i.sort_order,
                            i.start_at,
                            i.end_at,
                            i.pay_times
                        ],
                    ),
                    None => tx.execute(
                        "INSERT INTO ads (slot, title, target_title, image, target_type, target_value, need_login, sort_order,
                         start_at, end_at, pay_times) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                        params![
                            slot,
                            i.title,
                            i.target_title,
                            i.image,
                            i.target_type,
                            i.target_value,
                            i.need_login,
                            i.sort_order,
                            i.start_at,
                            i.end_at,
                            i.pay_times
                        ],
                    ),
                }?;
            }
            slot_in(tx, slot)
        })
    }

    fn pay_times(&self, uid: i64, ads: &[i64], now: i64) -> Result<Vec<(i64, i64)>> {
        let conn = self.db.lock()?;
        ads.iter().map(|&id| Ok((id, used(&conn, uid, id, now)?))).collect()
    }

    fn create_order(&self, order: &NewOrder, ad_id: i64) -> Result<(Order, bool)> {
        self.db.write(|tx| {
            admit(tx, order, ad_id)?;
            let (stored, created) = commerce::insert_order(tx, order, OrderState::Created)?;
            if created {
                link(tx, &stored, ad_id)?;
            }
            Ok((stored, created))
        })
    }

    fn pay_with_coins(&self, order: &NewOrder, ad_id: i64, now: i64, rules: &dyn crate::activity::OrderRules) -> Result<Settled> {
        self.db.write(|tx| {
            admit(tx, order, ad_id)?;
            let settled = commerce::pay_with_coins_in(tx, order, now, rules)?;
            if let Settled::Fulfilled(o) = &settled {
                link(tx, o, ad_id)?;
            }
            Ok(settled)
        })
    }

    fn app_logged_in(&self, uid: i64) -> Result<bool> {
        self.db
            .lock()?
            .prepare_cached("SELECT 1 FROM app_logins WHERE uid = ?1")?
            .query_row([uid], |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
    }

    fn first_app_login(&self, uid: i64, minutes: i64, now: i64) -> Result<bool> {
        let minutes = minutes.max(0);
        self.db.write(|tx| {
            let first = tx.execute(
                "INSERT INTO app_logins (uid, first_at, granted) VALUES (?1, ?2, ?3) ON CONFLICT (uid) DO NOTHING",
                params![uid, now, minutes],
            )? == 1;
            if first && minutes > 0 {
                ledger::add_play_time(tx, uid, minutes, 0, "first_app_login", &format!("app:{uid}"), now)?;
            }
            Ok(first && minutes > 0)
        })
    }
}
