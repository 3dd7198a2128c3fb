//! The ledger: one append-only entry per change of any balance, written by the same transaction
//! as the change (every function here takes that transaction's connection). The balance changes
//! that several repositories make (grants of what goods grant, entitlements, cards) live here so
//! that each writes its entry the one way.

use crate::sql::{params, Conn, OptionalExt, Row};

use super::assets;
use crate::model::{Asset, Entitlement, FastEnterCard, GoodsGrant, LedgerEntry};
use crate::{Error, Result};

/// How long a fast-entry card a purchase or an operator grants stays usable.
pub(crate) const CARD_VALID_MS: i64 = 30 * 24 * 3600 * 1000;

/// The title of a fast-entry card a purchase or an operator grants.
pub(crate) const CARD_TITLE: &str = "速进卡";

const DAY_MS: i64 = 24 * 3600 * 1000;

/// The stored balance of an asset (0 when there is nothing).
pub(crate) fn balance(conn: &Conn<'_>, uid: i64, asset: &Asset) -> Result<i64> {
    let sql = match asset {
        Asset::Coins => "SELECT coins FROM wallets WHERE uid = ?1",
        Asset::Yoodo => "SELECT yoodo FROM wallets WHERE uid = ?1",
        Asset::PlayFree => "SELECT play_time_free FROM users WHERE uid = ?1",
        Asset::PlayPaid => "SELECT play_time_paid FROM users WHERE uid = ?1",
        Asset::Cards => "SELECT COUNT(*) FROM fast_enter_cards WHERE uid = ?1 AND status = 0 AND play_type = 0",
        Asset::TimeCards => "SELECT COUNT(*) FROM fast_enter_cards WHERE uid = ?1 AND status = 0 AND play_type <> 0",
        Asset::Entitlement(_) => "SELECT expires_at FROM entitlements WHERE uid = ?1 AND kind = ?2",
        Asset::Coupons => "SELECT COUNT(*) FROM coupons WHERE uid = ?1 AND status = 0",
        Asset::RedeemKeys => "SELECT COUNT(*) FROM redeem_keys WHERE buyer_uid = ?1 AND status = 1",
    };
    let mut stmt = conn.prepare_cached(sql)?;
    let value: Option<i64> = match asset {
        Asset::Entitlement(kind) => stmt.query_row(params![uid, kind], |r| r.get(0)),
        _ => stmt.query_row(params![uid], |r| r.get(0)),
    }
    .optional()?;
    Ok(value.unwrap_or(0))
}

/// Appends the entry of a change of `delta` to `asset`, reading the balance after it.
pub(crate) fn append(conn: &Conn<'_>, uid: i64, asset: &Asset, delta: i64, reason: &str, reference: &str, now: i64) -> Result<()> {
    if delta == 0 {
        return Ok(());
    }
    let after = balance(conn, uid, asset)?;
    conn.prepare_cached(
        "INSERT INTO ledger (uid, asset, delta, balance_after, reason, reference, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![uid, asset.key(), delta, after, reason, reference, now])?;
    Ok(())
}

/// The stored run of an entitlement: (starts_at, expires_at), if any.
pub(crate) fn entitlement_run(conn: &Conn<'_>, uid: i64, kind: &str) -> Result<Option<(i64, i64)>> {
    conn.query_row(
        "SELECT starts_at, expires_at FROM entitlements WHERE uid = ?1 AND kind = ?2",
        params![uid, kind],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .optional()
}

/// Extends (or starts) an entitlement by `duration_ms` and writes its entry: an active one
/// (`expires_at > now`) is extended keeping its `starts_at`, otherwise a new run starts now.
pub(crate) fn extend_entitlement(
    conn: &Conn<'_>,
    uid: i64,
    kind: &str,
    duration_ms: i64,
    reason: &str,
    reference: &str,
    now: i64,
) -> Result<Entitlement> {
    if duration_ms < 0 {
        return Err(Error::Conflict(format!("negative entitlement duration {duration_ms}")));
    }
    let current = entitlement_run(conn, uid, kind)?;
    let before = current.map_or(0, |(_, e)| e);
    let (starts_at, from) = match current {
        Some((s, e)) if e > now => (s, e),
        _ => (now, now),
    };
    let expires_at = from
        .checked_add(duration_ms)
        .ok_or_else(|| Error::Conflict("entitlement expiry would overflow".to_owned()))?;
    conn.execute(
        "INSERT INTO entitlements (uid, kind, starts_at, expires_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (uid, kind) DO UPDATE
             SET starts_at = excluded.starts_at, expires_at = excluded.expires_at",
        params![uid, kind, starts_at, expires_at],
    )?;
    append(
        conn,
        uid,
        &Asset::Entitlement(kind.to_owned()),
        expires_at - before,
        reason,
        reference,
        now,
    )?;
    Ok(Entitlement {
        uid,
        kind: kind.to_owned(),
        starts_at,
        expires_at,
    })
}

/// Adds play minutes (each >= 0) and writes their entries; NotFound if no such user.
pub(crate) fn add_play_time(conn: &Conn<'_>, uid: i64, free: i64, paid: i64, reason: &str, reference: &str, now: i64) -> Result<()> {
    if free < 0 || paid < 0 {
        return Err(Error::Conflict(format!("negative play time (free {free}, paid {paid})")));
    }
    let added = conn.execute(
        "UPDATE users SET play_time_free = play_time_free + ?2, play_time_paid = play_time_paid + ?3
             WHERE uid = ?1 AND play_time_free <= ?4 - ?2 AND play_time_paid <= ?4 - ?3",
        params![uid, free, paid, i64::MAX],
    )?;
    if added == 0 {
        let known: Option<i64> = conn
            .query_row("SELECT uid FROM users WHERE uid = ?1", [uid], |r| r.get(0))
            .optional()?;
        return Err(match known {
            None => Error::NotFound,
            Some(_) => Error::Conflict("play time would overflow".to_owned()),
        });
    }
    append(conn, uid, &Asset::PlayFree, free, reason, reference, now)?;
    append(conn, uid, &Asset::PlayPaid, paid, reason, reference, now)
}

/// Adds to a wallet (creating it) and writes the entry; Conflict on overflow.
pub(crate) fn credit_wallet(conn: &Conn<'_>, uid: i64, asset: &Asset, amount: i64, reason: &str, reference: &str, now: i64) -> Result<()> {
    let column = wallet_column(asset)?;
    if amount < 0 {
        return Err(Error::Conflict(format!("negative credit {amount}")));
    }
    conn.execute("INSERT INTO wallets (uid) VALUES (?1) ON CONFLICT (uid) DO NOTHING", [uid])?;
    let changed = conn.execute(
        &format!("UPDATE wallets SET {column} = {column} + ?2 WHERE uid = ?1 AND {column} <= ?3 - ?2"),
        params![uid, amount, i64::MAX],
    )?;
    if changed == 0 {
        return Err(Error::Conflict(format!("{column} would overflow")));
    }
    append(conn, uid, asset, amount, reason, reference, now)
}

/// Takes `amount` from a wallet if it holds that much, and writes the entry; false (nothing
/// written) when it does not.
pub(crate) fn debit_wallet(conn: &Conn<'_>, uid: i64, asset: &Asset, amount: i64, reason: &str, reference: &str, now: i64) -> Result<bool> {
    let column = wallet_column(asset)?;
    if amount < 0 {
        return Err(Error::Conflict(format!("negative debit {amount}")));
    }
    if amount == 0 {
        return Ok(true);
    }
    let changed = conn.execute(
        &format!("UPDATE wallets SET {column} = {column} - ?2 WHERE uid = ?1 AND {column} >= ?2"),
        params![uid, amount],
    )?;
    if changed == 0 {
        return Ok(false);
    }
    append(conn, uid, asset, -amount, reason, reference, now)?;
    Ok(true)
}

fn wallet_column(asset: &Asset) -> Result<&'static str> {
    match asset {
        Asset::Coins => Ok("coins"),
        Asset::Yoodo => Ok("yoodo"),
        other => Err(Error::Conflict(format!("{} is not a wallet balance", other.key()))),
    }
}

/// Gives `count` new unused cards (`card`: their title and expiry) and writes one entry for them;
/// `source` is the cards' source and the entry's reason.
pub(crate) fn add_cards(
    conn: &Conn<'_>,
    uid: i64,
    count: i64,
    card: (&str, i64),
    source: &str,
    reference: &str,
    now: i64,
) -> Result<Vec<FastEnterCard>> {
    let (goods_title, expires_at) = card;
    if count < 0 {
        return Err(Error::Conflict(format!("negative card count {count}")));
    }
    let cards = (0..count)
        .map(|_| assets::insert_card(conn, uid, goods_title, expires_at, source, now))
        .collect::<Result<Vec<_>>>()?;
    append(conn, uid, &Asset::Cards, count, source, reference, now)?;
    Ok(cards)
}

/// Applies what goods grant, with the entries.
pub(crate) fn apply_grant(conn: &Conn<'_>, uid: i64, grant: &GoodsGrant, reason: &str, reference: &str, now: i64) -> Result<()> {
    match grant {
        GoodsGrant::Entitlement { kind, days } => {
            let ms = days
                .checked_mul(DAY_MS)
                .ok_or_else(|| Error::Conflict("entitlement duration would overflow".to_owned()))?;
            extend_entitlement(conn, uid, kind, ms, reason, reference, now).map(|_| ())
        }
        GoodsGrant::PlayTime { minutes } => add_play_time(conn, uid, 0, *minutes, reason, reference, now),
        GoodsGrant::Coins { amount } => credit_wallet(conn, uid, &Asset::Coins, *amount, reason, reference, now),
        GoodsGrant::Yoodo { amount } => credit_wallet(conn, uid, &Asset::Yoodo, *amount, reason, reference, now),
        GoodsGrant::Cards { count } => add_cards(conn, uid, *count, (CARD_TITLE, now + CARD_VALID_MS), reason, reference, now).map(|_| ()),
        GoodsGrant::Upgrade { from, to, days } => {
            let ms = days
                .checked_mul(DAY_MS)
                .ok_or_else(|| Error::Conflict("entitlement duration would overflow".to_owned()))?;
            shorten_entitlement(conn, uid, from, ms, reason, reference, now)?;
            extend_entitlement(conn, uid, to, ms, reason, reference, now).map(|_| ())
        }
        GoodsGrant::RedeemKeys { count } => super::merchant::issue_keys(conn, uid, reference, *count, reason, now),
    }
}

/// Takes up to `duration_ms` from the end of a running entitlement (never before `now`) and
/// writes its entry; one that has ended (or never was) is left as it is.
pub(crate) fn shorten_entitlement(
    conn: &Conn<'_>,
    uid: i64,
    kind: &str,
    duration_ms: i64,
    reason: &str,
    reference: &str,
    now: i64,
) -> Result<()> {
    if duration_ms < 0 {
        return Err(Error::Conflict(format!("negative entitlement duration {duration_ms}")));
    }
    let Some(before) = entitlement_run(conn, uid, kind)?.map(|(_, e)| e).filter(|e| *e > now) else {
        return Ok(());
    };
    let expires_at = before.saturating_sub(duration_ms).max(now);
    conn.execute(
        "UPDATE entitlements SET expires_at = ?3 WHERE uid = ?1 AND kind = ?2",
        params![uid, kind, expires_at],
    )?;
    append(
        conn,
        uid,
        &Asset::Entitlement(kind.to_owned()),
        expires_at - before,
        reason,
        reference,
        now,
    )
}

fn entry_from_row(row: &Row) -> Result<LedgerEntry> {
    Ok(LedgerEntry {
        id: row.get(0)?,
        uid: row.get(1)?,
        asset: row.get(2)?,
        delta: row.get(3)?,
        balance_after: row.get(4)?,
        reason: row.get(5)?,
        reference: row.get(6)?,
        at: row.get(7)?,
    })
}

/// The user's entries, oldest first.
pub(crate) fn entries(conn: &Conn<'_>, uid: i64) -> Result<Vec<LedgerEntry>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, uid, asset, delta, balance_after, reason, reference, at FROM ledger WHERE uid = ?1 ORDER BY id")?;
    let rows = stmt.query_map([uid], entry_from_row)?.collect::<Result<_>>()?;
    Ok(rows)
}

/// Every asset the user has a balance or an entry of, replayed against the stored balance.
pub(crate) fn mismatches(conn: &Conn<'_>, uid: i64) -> Result<Vec<(String, i64, i64)>> {
    let mut replayed: std::collections::BTreeMap<String, (i64, i64)> = Default::default();
    for e in entries(conn, uid)? {
        let r = replayed.entry(e.asset.clone()).or_default();
        r.0 += e.delta;
        r.1 = e.balance_after;
    }
    let mut assets: Vec<Asset> = vec![
        Asset::Coins,
        Asset::Yoodo,
        Asset::PlayFree,
        Asset::PlayPaid,
        Asset::Cards,
        Asset::TimeCards,
        Asset::Coupons,
        Asset::RedeemKeys,
    ];
    let mut stmt = conn.prepare_cached("SELECT kind FROM entitlements WHERE uid = ?1")?;
    let kinds: Vec<String> = stmt.query_map([uid], |r| r.get(0))?.collect::<Result<_>>()?;
    assets.extend(kinds.into_iter().map(Asset::Entitlement));
    for key in replayed.keys() {
        if let Some(a) = Asset::from_key(key) {
            if !assets.contains(&a) {
                assets.push(a);
            }
        }
    }
    let mut out = vec![];
    for a in assets {
        let stored = balance(conn, uid, &a)?;
        let (sum, last) = replayed.get(&a.key()).copied().unwrap_or((0, 0));
        if sum != stored || last != stored {
            out.push((a.key(), sum, stored));
        }
    }
    Ok(out)
}
