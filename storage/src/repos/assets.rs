//! What players own. Every write runs in one `BEGIN IMMEDIATE` transaction: the database write
//! lock is taken before the first read, so the reads that decide a write cannot go stale under
//! another connection, and the writes themselves are conditional statements besides. Each change
//! of a balance appends its ledger entry (`ledger.rs`) in the same transaction.

use crate::sql::{params, Conn, OptionalExt, Row};

mod packages;

use super::{ledger, users, Db};
use crate::model::{Asset, Entitlement, FastEnterCard, MonthlyClaim, NewTimeCard, PlayCharge, User};
use crate::repo::AssetRepo;
use crate::{Error, Result};

const CARD_COLUMNS: &str = "id, uid, goods_title, status, expires_at, created_at, used_at, used_session, source, play_type, minutes, remain_give_times, given_to, given_from";

const CHARGE_COLUMNS: &str = "session_id, minute, uid, free, paid, package, charged_at";

/// The status of a card that can still be used.
const UNUSED: i32 = 0;

/// The play-time types of a time card.
const PAID: i32 = 1;
const FREE: i32 = 2;
const EXCLUSIVE: i32 = 4;

/// The source of the cards a monthly claim creates.
const MONTHLY: &str = "monthly";

pub(crate) struct SqlAssets {
    db: Db,
}

impl SqlAssets {
    pub(crate) fn new(db: Db) -> SqlAssets {
        SqlAssets { db }
    }
}

fn card_from_row(row: &Row) -> Result<FastEnterCard> {
    Ok(FastEnterCard {
        id: row.get(0)?,
        uid: row.get(1)?,
        goods_title: row.get(2)?,
        status: row.get(3)?,
        expires_at: row.get(4)?,
        created_at: row.get(5)?,
        used_at: row.get(6)?,
        used_session: row.get(7)?,
        source: row.get(8)?,
        play_type: row.get(9)?,
        minutes: row.get(10)?,
        remain_give_times: row.get(11)?,
        given_to: row.get(12)?,
        given_from: row.get(13)?,
    })
}

fn charge_from_row(row: &Row) -> Result<PlayCharge> {
    Ok(PlayCharge {
        session_id: row.get(0)?,
        minute: row.get(1)?,
        uid: row.get(2)?,
        free: row.get(3)?,
        paid: row.get(4)?,
        package: row.get(5)?,
        charged_at: row.get(6)?,
    })
}

fn entitlement_from_row(row: &Row) -> Result<Entitlement> {
    Ok(Entitlement {
        uid: row.get(0)?,
        kind: row.get(1)?,
        starts_at: row.get(2)?,
        expires_at: row.get(3)?,
    })
}

fn claim_from_row(row: &Row) -> Result<MonthlyClaim> {
    Ok(MonthlyClaim {
        uid: row.get(0)?,
        month: row.get(1)?,
        cards: row.get(2)?,
        claimed_at: row.get(3)?,
    })
}

/// The user, or NotFound.
fn user(conn: &Conn<'_>, uid: i64) -> Result<User> {
    conn.query_row(
        &format!("SELECT {} FROM users WHERE uid = ?1", users::COLUMNS),
        [uid],
        users::from_row,
    )
}

pub(crate) fn insert_card(conn: &Conn<'_>, uid: i64, goods_title: &str, expires_at: i64, source: &str, now: i64) -> Result<FastEnterCard> {
    let id: i64 = conn.query_row(
        "INSERT INTO fast_enter_cards (uid, goods_title, status, expires_at, created_at, source)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
        params![uid, goods_title, UNUSED, expires_at, now, source],
        |r| r.get(0),
    )?;
    Ok(FastEnterCard {
        id,
        uid,
        goods_title: goods_title.to_owned(),
        status: UNUSED,
        expires_at,
        created_at: now,
        used_at: None,
        used_session: None,
        source: source.to_owned(),
        play_type: 0,
        minutes: 0,
        remain_give_times: 0,
        given_to: None,
        given_from: None,
    })
}

/// Runs a SELECT over one table and collects its rows.
fn collect<T>(conn: &Conn<'_>, sql: &str, params: impl crate::sql::Params, from_row: fn(&Row) -> Result<T>) -> Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, from_row)?.collect::<Result<_>>()?;
    Ok(rows)
}

fn another_user(what: &str) -> Error {
    Error::Conflict(format!("{what} belongs to another user"))
}

impl AssetRepo for SqlAssets {
    fn add_play_time(&self, uid: i64, free: i64, paid: i64, now: i64) -> Result<User> {
        if free < 0 || paid < 0 {
            return Err(Error::Conflict(format!("negative play time (free {free}, paid {paid})")));
        }
        self.db.write(|tx| {
            ledger::add_play_time(tx, uid, free, paid, "play_time", "", now)?;
            user(tx, uid)
        })
    }

    fn charge_minute(&self, uid: i64, session_id: i64, minute: i64, package: bool, now: i64) -> Result<(PlayCharge, User, bool)> {
        let Some(played) = minute.checked_add(1).filter(|_| minute >= 0) else {
            return Err(Error::Conflict(format!("minute {minute} out of range")));
        };
        self.db.write(|tx| {
            let first = tx
                .query_row(
                    &format!(
                        "SELECT {CHARGE_COLUMNS} FROM play_charges
                         WHERE session_id = ?1 AND minute = ?2"
                    ),
                    params![session_id, minute],
                    charge_from_row,
                )
                .optional()?;
            if let Some(charge) = first {
                if charge.uid != uid {
                    return Err(another_user("the play charge"));
                }
                return Ok((charge, user(tx, uid)?, true));
            }

            let owner: Option<i64> = tx
                .query_row("SELECT uid FROM game_sessions WHERE id = ?1", [session_id], |row| row.get(0))
                .optional()?;
            match owner {
                None => return Err(Error::NotFound),
                Some(owner) if owner != uid => return Err(another_user("the game session")),
                Some(_) => {}
            }
            let before = user(tx, uid)?;
            let (free, paid) = if package || charge_exclusive(tx, uid, session_id, now)? {
                (0, 0)
            } else if before.play_time_free > 0 {
                (1, 0)
            } else if before.play_time_paid > 0 {
                (0, 1)
            } else {
                return Err(Error::Conflict("no play time".to_owned()));
            };
            // Conditional as well, so that no balance can ever go below zero.
            let after = tx
                .query_row(
                    &format!(
                        "UPDATE users SET play_time_free = play_time_free - ?2,
                             play_time_paid = play_time_paid - ?3
                         WHERE uid = ?1 AND play_time_free >= ?2 AND play_time_paid >= ?3
                         RETURNING {}",
                        users::COLUMNS
                    ),
                    params![uid, free, paid],
                    users::from_row,
                )
                .optional()?
                .ok_or_else(|| Error::Conflict("no play time".to_owned()))?;
            let reference = format!("session:{session_id}:{minute}");
            ledger::append(tx, uid, &Asset::PlayFree, -free, "play_minute", &reference, now)?;
            ledger::append(tx, uid, &Asset::PlayPaid, -paid, "play_minute", &reference, now)?;
            let charge = PlayCharge {
                session_id,
                minute,
                uid,
                free,
                paid,
                package,
                charged_at: now,
            };
            tx.execute(
                &format!("INSERT INTO play_charges ({CHARGE_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"),
                params![session_id, minute, uid, free, paid, package, now],
            )?;
            tx.execute(
                "UPDATE game_sessions SET play_minutes = MAX(play_minutes, ?2) WHERE id = ?1",
                params![session_id, played],
            )?;
            Ok((charge, after, false))
        })
    }

    fn grant_entitlement(&self, uid: i64, kind: &str, duration_ms: i64, now: i64) -> Result<Entitlement> {
        if duration_ms < 0 {
            return Err(Error::Conflict(format!("negative entitlement duration {duration_ms}")));
        }
        self.db
            .write(|tx| ledger::extend_entitlement(tx, uid, kind, duration_ms, "grant", "", now))
    }

    fn entitlements(&self, uid: i64, now: i64) -> Result<Vec<Entitlement>> {
        collect(
            &self.db.lock()?,
            "SELECT uid, kind, starts_at, expires_at FROM entitlements
             WHERE uid = ?1 AND expires_at > ?2 ORDER BY kind",
            params![uid, now],
            entitlement_from_row,
        )
    }

    fn add_card(&self, uid: i64, goods_title: &str, expires_at: i64, source: &str, now: i64) -> Result<FastEnterCard> {
        self.db.write(|tx| {
            let mut cards = ledger::add_cards(tx, uid, 1, (goods_title, expires_at), source, "", now)?;
            cards.pop().ok_or_else(|| Error::Backend("no card inserted".to_owned()))
        })
    }

    fn cards(&self, uid: i64, now: i64) -> Result<Vec<FastEnterCard>> {
        collect(
            &self.db.lock()?,
            &format!(
                "SELECT {CARD_COLUMNS} FROM fast_enter_cards
                 WHERE uid = ?1 AND status = ?2 AND expires_at > ?3 AND play_type = 0 ORDER BY expires_at, id"
            ),
            params![uid, UNUSED, now],
            card_from_row,
        )
    }

    fn use_card(&self, uid: i64, card_id: i64, session_id: i64, now: i64) -> Result<FastEnterCard> {
        self.db.write(|tx| {
            let used = tx
                .query_row(
                    &format!(
                        "UPDATE fast_enter_cards SET status = 1, used_at = ?4, used_session = ?3
                         WHERE id = ?1 AND uid = ?2 AND status = ?5 AND expires_at > ?4 AND play_type = 0
                         RETURNING {CARD_COLUMNS}"
                    ),
                    params![card_id, uid, session_id, now, UNUSED],
                    card_from_row,
                )
                .optional()?;
            if let Some(card) = used {
                ledger::append(tx, uid, &Asset::Cards, -1, "card_use", &format!("session:{session_id}"), now)?;
                return Ok(card);
            }
            let card = tx.query_row(
                &format!("SELECT {CARD_COLUMNS} FROM fast_enter_cards WHERE id = ?1 AND uid = ?2"),
                params![card_id, uid],
                card_from_row,
            )?;
            let why = match card.status {
                UNUSED | 2 => "expired",
                1 => "already used",
                3 => "invalidated",
                _ => "not usable",
            };
            Err(Error::Conflict(format!("card {card_id} {why}")))
        })
    }

    fn add_time_card(&self, uid: i64, card: NewTimeCard<'_>, now: i64) -> Result<FastEnterCard> {
        let NewTimeCard {
            goods_title,
            play_type,
            minutes,
            expires_at,
            give_times,
        } = card;
        if !matches!(play_type, PAID | FREE | EXCLUSIVE) || minutes <= 0 || give_times < 0 {
            return Err(Error::Conflict(format!(
                "bad time card (type {play_type}, {minutes} minutes, {give_times} gives)"
            )));
        }
        self.db.write(|tx| {
            let card = tx
                .query_row(
                    &format!(
                        "INSERT INTO fast_enter_cards (uid, goods_title, status, expires_at, created_at, source, play_type, minutes, remain_give_times)
                         SELECT uid, ?2, ?3, ?4, ?5, 'grant', ?6, ?7, ?8 FROM users WHERE uid = ?1
                         RETURNING {CARD_COLUMNS}"
                    ),
                    params![uid, goods_title, UNUSED, expires_at, now, play_type, minutes, give_times],
                    card_from_row,
                )?;
            ledger::append(tx, uid, &Asset::TimeCards, 1, "grant", &format!("card:{}", card.id), now)?;
            Ok(card)
        })
    }

    fn give_card(&self, uid: i64, card_id: i64, to: (i64, &str), from_phone: &str, now: i64) -> Result<(FastEnterCard, FastEnterCard)> {
        let (to_uid, to_phone) = to;
        if to_uid == uid {
            return Err(Error::Conflict("a card cannot be given to its holder".to_owned()));
        }
        self.db.write(|tx| {
            let given = tx
                .query_row(
                    &format!(
                        "UPDATE fast_enter_cards SET status = 1, used_at = ?3, given_to = ?5
                         WHERE id = ?1 AND uid = ?2 AND status = ?4 AND expires_at > ?3 AND remain_give_times > 0
                         RETURNING {CARD_COLUMNS}"
                    ),
                    params![card_id, uid, now, UNUSED, to_phone],
                    card_from_row,
                )
                .optional()?;
            let Some(given) = given else {
                tx.query_row(
                    "SELECT id FROM fast_enter_cards WHERE id = ?1 AND uid = ?2",
                    params![card_id, uid],
                    |r| r.get::<_, i64>(0),
                )?;
                return Err(Error::Conflict(format!("card {card_id} cannot be given")));
            };
            let received = tx.query_row(
                &format!(
                    "INSERT INTO fast_enter_cards (uid, goods_title, status, expires_at, created_at, source, play_type, minutes,
                             remain_give_times, given_from)
                         SELECT uid, ?2, ?3, ?4, ?5, 'gift', ?6, ?7, ?8, ?9 FROM users WHERE uid = ?1
                         RETURNING {CARD_COLUMNS}"
                ),
                params![
                    to_uid,
                    given.goods_title,
                    UNUSED,
                    given.expires_at,
                    now,
                    given.play_type,
                    given.minutes,
                    given.remain_give_times - 1,
                    from_phone
                ],
                card_from_row,
            )?;
            let asset = if given.play_type == 0 { Asset::Cards } else { Asset::TimeCards };
            let reference = format!("card:{card_id}");
            ledger::append(tx, uid, &asset, -1, "card_give", &reference, now)?;
            ledger::append(tx, to_uid, &asset, 1, "card_give", &reference, now)?;
            Ok((given, received))
        })
    }

    fn backpack(&self, uid: i64) -> Result<Vec<FastEnterCard>> {
        collect(
            &self.db.lock()?,
            &format!("SELECT {CARD_COLUMNS} FROM fast_enter_cards WHERE uid = ?1 ORDER BY id DESC"),
            params![uid],
            card_from_row,
        )
    }

    fn use_time_card(&self, uid: i64, card_id: i64, now: i64) -> Result<(FastEnterCard, User)> {
        self.db.write(|tx| {
            let used = tx
                .query_row(
                    &format!(
                        "UPDATE fast_enter_cards SET status = 1, used_at = ?3
                         WHERE id = ?1 AND uid = ?2 AND status = ?4 AND expires_at > ?3 AND play_type IN (?5, ?6)
                         RETURNING {CARD_COLUMNS}"
                    ),
                    params![card_id, uid, now, UNUSED, PAID, FREE],
                    card_from_row,
                )
                .optional()?;
            if let Some(card) = used {
                let (free, paid) = if card.play_type == FREE {
                    (card.minutes, 0)
                } else {
                    (0, card.minutes)
                };
                ledger::add_play_time(tx, uid, free, paid, "card_use", &format!("card:{card_id}"), now)?;
                ledger::append(tx, uid, &Asset::TimeCards, -1, "card_use", &format!("card:{card_id}"), now)?;
                let user = user(tx, uid)?;
                return Ok((card, user));
            }
            let card = tx.query_row(
                &format!("SELECT {CARD_COLUMNS} FROM fast_enter_cards WHERE id = ?1 AND uid = ?2"),
                params![card_id, uid],
                card_from_row,
            )?;
            let why = match (card.play_type, card.status) {
                (0, _) => "not a time card",
                (EXCLUSIVE, UNUSED) if card.expires_at > now => "exclusive time has no balance here",
                (_, UNUSED | 2) => "expired",
                (_, 1) => "already used",
                (_, 3) => "invalidated",
                _ => "not usable",
            };
            Err(Error::Conflict(format!("card {card_id} {why}")))
        })
    }

    fn claim_monthly(
        &self,
        uid: i64,
        month: &str,
        cards: i32,
        goods_title: &str,
        expires_at: i64,
        now: i64,
    ) -> Result<(MonthlyClaim, Vec<FastEnterCard>)> {
        if cards < 0 {
            return Err(Error::Conflict(format!("negative card count {cards}")));
        }
        self.db.write(|tx| {
            let claimed = tx.execute(
                "INSERT INTO monthly_claims (uid, month, cards, claimed_at)
                     VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (uid, month) DO NOTHING",
                params![uid, month, cards, now],
            )?;
            if claimed == 0 {
                return Err(Error::Conflict(format!("month {month} already claimed")));
            }
            let created = ledger::add_cards(tx, uid, i64::from(cards), (goods_title, expires_at), MONTHLY, month, now)?;
            let claim = MonthlyClaim {
                uid,
                month: month.to_owned(),
                cards,
                claimed_at: now,
            };
            Ok((claim, created))
        })
    }

    fn monthly_claims(&self, uid: i64) -> Result<Vec<MonthlyClaim>> {
        collect(
            &self.db.lock()?,
            "SELECT uid, month, cards, claimed_at FROM monthly_claims
             WHERE uid = ?1 ORDER BY claimed_at DESC, month DESC",
            [uid],
            claim_from_row,
        )
    }

    fn set_card_category(&self, uid: i64, card_id: i64, game_category_id: i64) -> Result<()> {
        self.db.write(|tx| {
            let card = tx
                .query_row(
                    &format!("SELECT {CARD_COLUMNS} FROM fast_enter_cards WHERE id = ?1 AND uid = ?2"),
                    params![card_id, uid],
                    card_from_row,
                )
                .optional()?
                .ok_or(Error::NotFound)?;
            if card.play_type != EXCLUSIVE || card.status != UNUSED {
                return Err(Error::Conflict(format!("card {card_id} is not an unused exclusive card")));
            }
            tx.execute(
                "INSERT INTO exclusive_cards (card_id, game_category_id) VALUES (?1, ?2)
                 ON CONFLICT (card_id) DO UPDATE SET game_category_id = excluded.game_category_id",
                params![card_id, game_category_id],
            )?;
            Ok(())
        })
    }

    fn exclusive_cards(&self, uid: i64, now: i64) -> Result<Vec<(i64, i64, i64)>> {
        collect(
            &self.db.lock()?,
            "SELECT e.card_id, e.game_category_id, c.minutes - e.used_minutes
             FROM exclusive_cards e JOIN fast_enter_cards c ON c.id = e.card_id
             WHERE c.uid = ?1 AND c.status = ?2 AND c.expires_at > ?3 AND e.used_minutes < c.minutes
             ORDER BY e.card_id",
            params![uid, UNUSED, now],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
    }
}

/// Charges one minute of a game session to the user's usable exclusive card of the session's
/// game category, if there is one (soonest expiry first): its used minutes grow by one, and the
/// card becomes used (with its ledger entry) when none are left. True if a card paid.
fn charge_exclusive(tx: &Conn<'_>, uid: i64, session_id: i64, now: i64) -> Result<bool> {
    let card: Option<(i64, i64, i64)> = tx
        .query_row(
            "SELECT c.id, c.minutes, e.used_minutes FROM fast_enter_cards c
             JOIN exclusive_cards e ON e.card_id = c.id
             JOIN game_sessions s ON s.id = ?2
             JOIN game_categories g ON g.game_id = s.game_id AND g.category_id = e.game_category_id
             WHERE c.uid = ?1 AND c.status = ?3 AND c.play_type = ?4 AND c.expires_at > ?5
               AND e.used_minutes < c.minutes
             ORDER BY c.expires_at, c.id LIMIT 1",
            params![uid, session_id, UNUSED, EXCLUSIVE, now],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .optional()?;
    let Some((card_id, minutes, used)) = card else {
        return Ok(false);
    };
    tx.execute(
        "UPDATE exclusive_cards SET used_minutes = used_minutes + 1 WHERE card_id = ?1",
        [card_id],
    )?;
    if used + 1 >= minutes {
        tx.execute(
            "UPDATE fast_enter_cards SET status = 1, used_at = ?2, used_session = ?3 WHERE id = ?1",
            params![card_id, now, session_id],
        )?;
        ledger::append(tx, uid, &Asset::TimeCards, -1, "card_use", &format!("card:{card_id}"), now)?;
    }
    Ok(true)
}
