//! The activities (commerce.md §2.16): the recharge gift, the lottery and invites. Draws and
//! invite bindings run in one `BEGIN IMMEDIATE` transaction each, so concurrent draws are counted
//! one after the other and a prize's stock is taken by a conditional `UPDATE`. The order hook
//! (`on_order_fulfilled`) runs inside the transaction that fulfils an order.

use crate::sql::{params, Conn, OptionalExt, Row};

use super::{ledger, to_u64, Db};
use crate::activity::{
    pick_prize, ActivityRepo, BindOutcome, DrawOutcome, Invite, InviteConfig, InviteReward, Lottery, LotteryDraw, LotteryItem, OrderFacts,
    OrderRules, RechargeGive, RechargeTier,
};
use crate::model::{GoodsGrant, Order};
use crate::{Error, Result};

/// The activities' tables and their seeded configuration (one migration).
pub(crate) const MIGRATION: &str = "
CREATE TABLE activity_recharge (
    id        INTEGER PRIMARY KEY,
    title     TEXT    NOT NULL,
    starts_at INTEGER NOT NULL,
    ends_at   INTEGER NOT NULL
);
CREATE TABLE activity_recharge_tiers (
    min_fen     INTEGER PRIMARY KEY,
    bonus_coins INTEGER NOT NULL
);
CREATE TABLE activity_recharge_gifts (
    order_no TEXT    PRIMARY KEY,
    uid      INTEGER NOT NULL REFERENCES users (uid),
    paid_fen INTEGER NOT NULL,
    bonus    INTEGER NOT NULL,
    at       INTEGER NOT NULL
);
CREATE TABLE lotteries (
    id            INTEGER PRIMARY KEY,
    title         TEXT    NOT NULL,
    daily_chances INTEGER NOT NULL,
    starts_at     INTEGER NOT NULL,
    ends_at       INTEGER NOT NULL
);
CREATE TABLE lottery_items (
    id           INTEGER PRIMARY KEY,
    lottery_id   INTEGER NOT NULL REFERENCES lotteries (id),
    name         TEXT    NOT NULL,
    image        TEXT    NOT NULL DEFAULT '',
    weight       INTEGER NOT NULL,
    stock        INTEGER CHECK (stock IS NULL OR stock >= 0),
    grant_kind   TEXT,
    grant_amount INTEGER NOT NULL DEFAULT 0,
    sort_order   INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE lottery_draws (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    lottery_id INTEGER NOT NULL REFERENCES lotteries (id),
    uid        INTEGER NOT NULL REFERENCES users (uid),
    item_id    INTEGER NOT NULL,
    item_name  TEXT    NOT NULL,
    at         INTEGER NOT NULL
);
CREATE INDEX lottery_draws_by_user ON lottery_draws (lottery_id, uid, at);
CREATE TABLE invite_rewards (
    level        TEXT    NOT NULL CHECK (level IN ('basic', 'advanced')),
    sort_order   INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    grant_kind   TEXT    NOT NULL,
    grant_amount INTEGER NOT NULL,
    PRIMARY KEY (level, sort_order)
);
CREATE TABLE invites (
    invitee     INTEGER PRIMARY KEY REFERENCES users (uid),
    inviter     INTEGER NOT NULL REFERENCES users (uid) CHECK (inviter <> invitee),
    at          INTEGER NOT NULL,
    basic_at    INTEGER,
    advanced_at INTEGER
);
CREATE INDEX invites_by_inviter ON invites (inviter, at);

-- 2024-01-01 00:00 to 2100-01-01 00:00 UTC+8.
INSERT INTO activity_recharge (id, title, starts_at, ends_at)
    VALUES (1, '充值云游币享好礼：单笔满30元送300云游币', 1704038400000, 4102416000000);
INSERT INTO activity_recharge_tiers (min_fen, bonus_coins) VALUES (3000, 300), (9800, 1500), (19800, 4000);
INSERT INTO lotteries (id, title, daily_chances, starts_at, ends_at)
    VALUES (1, '幸运大转盘', 3, 1704038400000, 4102416000000);
INSERT INTO lottery_items (id, lottery_id, name, weight, stock, grant_kind, grant_amount, sort_order) VALUES
    (101, 1, '60分钟游戏时长', 30, NULL, 'play_time', 60, 1),
    (102, 1, '100云游币', 20, 500, 'coins', 100, 2),
    (103, 1, '速进卡1张', 15, 200, 'cards', 1, 3),
    (104, 1, '谢谢参与', 30, NULL, NULL, 0, 4),
    (105, 1, '300分钟游戏时长', 4, 50, 'play_time', 300, 5),
    (106, 1, 'VIP会员1天', 1, 10, 'vip', 1, 6);
INSERT INTO invite_rewards (level, sort_order, name, grant_kind, grant_amount) VALUES
    ('basic', 1, '120分钟游戏时长', 'play_time', 120),
    ('advanced', 1, 'VIP会员3天', 'vip', 3),
    ('advanced', 2, '速进卡2张', 'cards', 2);
";

pub(crate) struct SqlActivity {
    db: Db,
}

impl SqlActivity {
    pub(crate) fn new(db: Db) -> SqlActivity {
        SqlActivity { db }
    }
}

fn item_from_row(row: &Row) -> Result<LotteryItem> {
    let kind: Option<String> = row.get(5)?;
    let amount: i64 = row.get(6)?;
    Ok(LotteryItem {
        id: row.get(0)?,
        name: row.get(1)?,
        image: row.get(2)?,
        weight: row.get(3)?,
        stock: row.get(4)?,
        grant: kind.map(|k| GoodsGrant::from_parts(&k, amount)),
    })
}

fn draw_from_row(row: &Row) -> Result<LotteryDraw> {
    Ok(LotteryDraw {
        id: row.get(0)?,
        lottery_id: row.get(1)?,
        uid: row.get(2)?,
        cellphone: row.get(3)?,
        item_id: row.get(4)?,
        item_name: row.get(5)?,
        at: row.get(6)?,
    })
}

fn invite_from_row(row: &Row) -> Result<Invite> {
    Ok(Invite {
        invitee: row.get(0)?,
        invitee_phone: row.get(1)?,
        inviter: row.get(2)?,
        at: row.get(3)?,
        basic_at: row.get(4)?,
        advanced_at: row.get(5)?,
    })
}

const DRAW_COLUMNS: &str = "d.id, d.lottery_id, d.uid, u.cellphone, d.item_id, d.item_name, d.at";
const INVITE_COLUMNS: &str = "i.invitee, u.cellphone, i.inviter, i.at, i.basic_at, i.advanced_at";

fn lottery_in(conn: &Conn<'_>, id: i64) -> Result<Option<Lottery>> {
    let head = conn
        .query_row(
            "SELECT id, title, daily_chances, starts_at, ends_at FROM lotteries WHERE id = ?1",
            [id],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?;
    let Some((id, title, daily_chances, starts_at, ends_at)) = head else {
        return Ok(None);
    };
    let mut stmt = conn.prepare_cached(
        "SELECT id, name, image, weight, stock, grant_kind, grant_amount FROM lottery_items
             WHERE lottery_id = ?1 ORDER BY sort_order, id",
    )?;
    let items = stmt.query_map([id], item_from_row)?.collect::<Result<_>>()?;
    Ok(Some(Lottery {
        id,
        title,
        daily_chances,
        starts_at,
        ends_at,
        items,
    }))
}

fn rewards(conn: &Conn<'_>, level: &str) -> Result<Vec<InviteReward>> {
    let mut stmt = conn.prepare_cached("SELECT name, grant_kind, grant_amount FROM invite_rewards WHERE level = ?1 ORDER BY sort_order")?;
    let rows = stmt
        .query_map([level], |r| {
            let kind: String = r.get(1)?;
            Ok(InviteReward {
                name: r.get(0)?,
                grant: GoodsGrant::from_parts(&kind, r.get(2)?),
            })
        })?
        .collect::<Result<_>>()?;
    Ok(rows)
}

fn user_exists(conn: &Conn<'_>, uid: i64) -> Result<bool> {
    Ok(conn
        .query_row("SELECT 1 FROM users WHERE uid = ?1", [uid], |r| r.get::<_, i64>(0))
        .optional()?
        .is_some())
}

/// What fulfilling an order triggers, in the fulfilling transaction: the facts read here, the
/// decision the domain's `rules` (the recharge gift of a coin recharge, the inviter's advanced
/// reward at the invitee's first purchase paid with money), written here: the gift once per
/// order, the advanced reward once per invitee.
pub(crate) fn on_order_fulfilled(conn: &Conn<'_>, order: &Order, now: i64, rules: &dyn OrderRules) -> Result<()> {
    let o = &order.order;
    let coin_shop = conn
        .query_row(
            "SELECT 1 FROM goods_sections WHERE section_key = 'shop_card_coin' AND goods_id = ?1",
            [o.goods_id],
            |r| r.get::<_, i64>(0),
        )
        .optional()?
        .is_some();
    let running: Option<i64> = conn
        .query_row(
            "SELECT id FROM activity_recharge WHERE starts_at <= ?1 AND ?1 < ends_at ORDER BY id LIMIT 1",
            [now],
            |r| r.get(0),
        )
        .optional()?;
    let recharge_tiers = match running {
        Some(_) => Some(recharge_tiers(conn)?),
        None => None,
    };
    let invite_open = conn
        .query_row("SELECT 1 FROM invites WHERE invitee = ?1 AND advanced_at IS NULL", [o.uid], |r| {
            r.get::<_, i64>(0)
        })
        .optional()?
        .is_some();
    let facts = OrderFacts {
        coin_shop,
        recharge_tiers,
        invite_open,
    };
    let follow = rules.follow_ups(order, &facts);
    if follow.recharge_bonus > 0 {
        let bonus = follow.recharge_bonus;
        let inserted = conn.execute(
            "INSERT INTO activity_recharge_gifts (order_no, uid, paid_fen, bonus, at) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (order_no) DO NOTHING",
            params![o.order_no, o.uid, o.amount_fen, bonus, now],
        )?;
        if inserted == 1 {
            ledger::apply_grant(conn, o.uid, &GoodsGrant::Coins { amount: bonus }, "recharge_give", &o.order_no, now)?;
        }
    }
    if follow.invite_advanced {
        let first = conn.execute(
            "UPDATE invites SET advanced_at = ?2 WHERE invitee = ?1 AND advanced_at IS NULL",
            params![o.uid, now],
        )?;
        if first == 1 {
            let inviter: i64 = conn.query_row("SELECT inviter FROM invites WHERE invitee = ?1", [o.uid], |r| r.get(0))?;
            let reference = format!("invite:{}:advanced", o.uid);
            for r in rewards(conn, "advanced")? {
                ledger::apply_grant(conn, inviter, &r.grant, "invite_advanced", &reference, now)?;
            }
        }
    }
    Ok(())
}

fn recharge_tiers(conn: &Conn<'_>) -> Result<Vec<RechargeTier>> {
    let mut stmt = conn.prepare_cached("SELECT min_fen, bonus_coins FROM activity_recharge_tiers ORDER BY min_fen")?;
    let rows = stmt
        .query_map((), |r| {
            Ok(RechargeTier {
                min_fen: r.get(0)?,
                bonus_coins: r.get(1)?,
            })
        })?
        .collect::<Result<_>>()?;
    Ok(rows)
}

fn count_today(conn: &Conn<'_>, uid: i64, lottery_id: i64, day_start: i64) -> Result<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM lottery_draws WHERE lottery_id = ?1 AND uid = ?2 AND at >= ?3",
        params![lottery_id, uid, day_start],
        |r| r.get(0),
    )
}

impl ActivityRepo for SqlActivity {
    fn recharge_give(&self) -> Result<Option<RechargeGive>> {
        let conn = self.db.lock()?;
        let head = conn
            .query_row(
                "SELECT title, starts_at, ends_at FROM activity_recharge ORDER BY id LIMIT 1",
                (),
                |r| Ok((r.get::<_, String>(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        let Some((title, starts_at, ends_at)) = head else {
            return Ok(None);
        };
        Ok(Some(RechargeGive {
            title,
            starts_at,
            ends_at,
            tiers: recharge_tiers(&conn)?,
        }))
    }

    fn lottery(&self, id: i64) -> Result<Option<Lottery>> {
        lottery_in(&self.db.lock()?, id)
    }

    fn draw(&self, uid: i64, lottery_id: i64, day_start: i64, roll: u64, now: i64) -> Result<DrawOutcome> {
        self.db.write(|tx| {
            if !user_exists(tx, uid)? {
                return Err(Error::NotFound);
            }
            let Some(lottery) = lottery_in(tx, lottery_id)? else {
                return Ok(DrawOutcome::Closed);
            };
            if now < lottery.starts_at || now >= lottery.ends_at {
                return Ok(DrawOutcome::Closed);
            }
            if count_today(tx, uid, lottery_id, day_start)? >= lottery.daily_chances {
                return Ok(DrawOutcome::NoChances);
            }
            let Some(n) = pick_prize(&lottery.items, roll) else {
                return Ok(DrawOutcome::SoldOut);
            };
            let item = &lottery.items[n];
            if item.stock.is_some() {
                let taken = tx.execute("UPDATE lottery_items SET stock = stock - 1 WHERE id = ?1 AND stock > 0", [item.id])?;
                if taken != 1 {
                    return Ok(DrawOutcome::SoldOut);
                }
            }
            let id: i64 = tx.query_row(
                "INSERT INTO lottery_draws (lottery_id, uid, item_id, item_name, at) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
                params![lottery_id, uid, item.id, item.name, now],
                |r| r.get(0),
            )?;
            if let Some(grant) = &item.grant {
                ledger::apply_grant(tx, uid, grant, "lottery", &format!("lottery:{id}"), now)?;
            }
            let draw = tx.query_row(
                &format!("SELECT {DRAW_COLUMNS} FROM lottery_draws d JOIN users u ON u.uid = d.uid WHERE d.id = ?1"),
                [id],
                draw_from_row,
            )?;
            Ok(DrawOutcome::Won(draw))
        })
    }

    fn draws_today(&self, uid: i64, lottery_id: i64, day_start: i64) -> Result<i64> {
        count_today(&self.db.lock()?, uid, lottery_id, day_start)
    }

    fn draws(&self, lottery_id: i64, uid: Option<i64>, offset: u64, limit: u32) -> Result<(Vec<LotteryDraw>, u64)> {
        let conn = self.db.lock()?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {DRAW_COLUMNS} FROM lottery_draws d JOIN users u ON u.uid = d.uid
                 WHERE d.lottery_id = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR d.uid = ?2) ORDER BY d.id DESC LIMIT ?3 OFFSET ?4"
        ))?;
        let rows = stmt
            .query_map(params![lottery_id, uid, limit, offset], draw_from_row)?
            .collect::<Result<_>>()?;
        let total: i64 = conn.query_row(
            "SELECT COUNT(*) FROM lottery_draws WHERE lottery_id = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR uid = ?2)",
            params![lottery_id, uid],
            |r| r.get(0),
        )?;
        Ok((rows, to_u64(total)?))
    }

    fn invite_config(&self) -> Result<InviteConfig> {
        let conn = self.db.lock()?;
        Ok(InviteConfig {
            basic: rewards(&conn, "basic")?,
            advanced: rewards(&conn, "advanced")?,
        })
    }

    fn bind_invite(&self, invitee: i64, inviter: i64, now: i64) -> Result<BindOutcome> {
        self.db.write(|tx| {
            if !user_exists(tx, invitee)? {
                return Err(Error::NotFound);
            }
            if !user_exists(tx, inviter)? {
                return Ok(BindOutcome::UnknownInviter);
            }
            let inserted = tx.execute(
                "INSERT INTO invites (invitee, inviter, at, basic_at) VALUES (?1, ?2, ?3, ?3) ON CONFLICT (invitee) DO NOTHING",
                params![invitee, inviter, now],
            )?;
            if inserted != 1 {
                return Ok(BindOutcome::AlreadyInvited);
            }
            let reference = format!("invite:{invitee}:basic");
            for r in rewards(tx, "basic")? {
                ledger::apply_grant(tx, inviter, &r.grant, "invite_basic", &reference, now)?;
            }
            let invite = tx.query_row(
                &format!("SELECT {INVITE_COLUMNS} FROM invites i JOIN users u ON u.uid = i.invitee WHERE i.invitee = ?1"),
                [invitee],
                invite_from_row,
            )?;
            Ok(BindOutcome::Bound(invite))
        })
    }

    fn invites(&self, inviter: i64, offset: u64, limit: u32) -> Result<(Vec<Invite>, u64)> {
        let conn = self.db.lock()?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {INVITE_COLUMNS} FROM invites i JOIN users u ON u.uid = i.invitee
                 WHERE i.inviter = ?1 ORDER BY i.at DESC, i.invitee DESC LIMIT ?2 OFFSET ?3"
        ))?;
        let rows = stmt
            .query_map(params![inviter, limit, offset], invite_from_row)?
            .collect::<Result<_>>()?;
        let total: i64 = conn.query_row("SELECT COUNT(*) FROM invites WHERE inviter = ?1", [inviter], |r| r.get(0))?;
        Ok((rows, to_u64(total)?))
    }

    fn invite_of(&self, invitee: i64) -> Result<Option<Invite>> {
        self.db
            .lock()?
            .query_row(
                &format!("SELECT {INVITE_COLUMNS} FROM invites i JOIN users u ON u.uid = i.invitee WHERE i.invitee = ?1"),
                [invitee],
                invite_from_row,
            )
            .optional()
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::DB_FILE;
    use crate::activity::{BindOutcome, DrawOutcome};
    use crate::Store;

    struct Dir(PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn store(name: &str) -> (Store, Dir) {
        let dir = std::env::temp_dir().join(format!("yoo-activity-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        (Store::open_sqlite(&dir).unwrap(), Dir(dir))
    }

    // One prize with 5 left, 20 users drawing 3 times each on 20 threads at once: 5 win, the
    // rest find it sold out, and the stock ends at 0, never below.
    #[test]
    fn concurrent_draws_never_take_more_than_the_stock() {
        let (s, dir) = store("stock");
        let raw = rusqlite::Connection::open(dir.0.join(DB_FILE)).unwrap();
        raw.execute_batch(
            "UPDATE lotteries SET daily_chances = 3 WHERE id = 1;
             UPDATE lottery_items SET weight = 0 WHERE lottery_id = 1 AND id <> 102;
             UPDATE lottery_items SET stock = 5 WHERE id = 102;",
        )
        .unwrap();
        let uids: Vec<i64> = (0..20)
            .map(|i| s.users.get_or_create_by_phone(&format!("1390000{i:04}"), "p", 0).unwrap().0.uid)
            .collect();
        let now = 1_750_000_000_000;
        let outcomes: Vec<DrawOutcome> = std::thread::scope(|scope| {
            let handles: Vec<_> = uids
                .iter()
                .map(|&uid| {
                    let s = s.clone();
                    scope.spawn(move || {
                        (0..3)
                            .map(|r| s.activity.draw(uid, 1, now - 1000, r, now).unwrap())
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        let won = outcomes.iter().filter(|o| matches!(o, DrawOutcome::Won(_))).count();
        assert_eq!(won, 5);
        assert_eq!(outcomes.iter().filter(|o| **o == DrawOutcome::SoldOut).count(), 55);
        let stock: i64 = raw
            .query_row("SELECT stock FROM lottery_items WHERE id = 102", (), |r| r.get(0))
            .unwrap();
        assert_eq!(stock, 0);
        for uid in uids {
            assert!(s.commerce.ledger_mismatches(uid).unwrap().is_empty());
        }
    }

    // The daily chances count from the day's start; a new day gives them again.
    #[test]
    fn chances_count_per_day() {
        let (s, _dir) = store("chances");
        let uid = s.users.get_or_create_by_phone("13900009999", "p", 0).unwrap().0.uid;
        let day = 1_750_000_000_000;
        for r in 0..3 {
            assert!(matches!(s.activity.draw(uid, 1, day, r, day + 10).unwrap(), DrawOutcome::Won(_)));
        }
        assert_eq!(s.activity.draw(uid, 1, day, 0, day + 20).unwrap(), DrawOutcome::NoChances);
        let next = day + 24 * 3600 * 1000;
        assert!(matches!(s.activity.draw(uid, 1, next, 0, next + 1).unwrap(), DrawOutcome::Won(_)));
        assert_eq!(s.activity.draws_today(uid, 1, next).unwrap(), 1);
        assert_eq!(s.activity.draw(uid, 1, day, 0, 1).unwrap(), DrawOutcome::Closed, "before the start");
        assert!(s.commerce.ledger_mismatches(uid).unwrap().is_empty());
    }

    // An invite binds once; oneself and unknown inviters are refused.
    #[test]
    fn an_invite_binds_once() {
        let (s, _dir) = store("invite");
        let a = s.users.get_or_create_by_phone("13900000001", "a", 0).unwrap().0.uid;
        let b = s.users.get_or_create_by_phone("13900000002", "b", 0).unwrap().0.uid;
        assert_eq!(s.activity.bind_invite(b, 9999, 1).unwrap(), BindOutcome::UnknownInviter);
        assert!(matches!(s.activity.bind_invite(b, a, 1).unwrap(), BindOutcome::Bound(_)));
        assert_eq!(s.activity.bind_invite(b, a, 2).unwrap(), BindOutcome::AlreadyInvited);
        assert_eq!(s.activity.invites(a, 0, 10).unwrap().1, 1);
        assert!(s.commerce.ledger_mismatches(a).unwrap().is_empty());
    }
}
