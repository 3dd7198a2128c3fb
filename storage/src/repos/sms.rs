//! The SMS login guards: one row per phone (`sms_guards`) and fixed-window counters
//! (`sms_counters`). `update` reads, hands over and writes back in one `BEGIN IMMEDIATE`
//! transaction, so concurrent updates (also from other connections) are serialized.

use crate::sql::{params, Conn, OptionalExt};

use super::Db;
use crate::model::{CounterKey, PendingCode, PhoneGuard};
use crate::repo::SmsRepo;
use crate::{Error, Result};

pub(crate) struct SqlSms {
    db: Db,
}

impl SqlSms {
    pub(crate) fn new(db: Db) -> SqlSms {
        SqlSms { db }
    }
}

/// The send times as stored: decimal milliseconds separated by commas.
fn encode_sends(sends: &[i64]) -> String {
    sends.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

fn decode_sends(text: &str) -> Result<Vec<i64>> {
    text.split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|_| Error::Backend(format!("bad send time {s:?}"))))
        .collect()
}

fn read_guard(conn: &Conn<'_>, phone: &str) -> Result<Option<PhoneGuard>> {
    let row = conn
        .prepare_cached("SELECT sends, code_hash, code_sent_at, code_tries, failures, locked_until FROM sms_guards WHERE phone = ?1")?
        .query_row([phone], |row| {
            let code = match row.get::<_, Option<String>>(1)? {
                Some(code_hash) => Some(PendingCode {
                    code_hash,
                    sent_at: row.get::<_, Option<i64>>(2)?.unwrap_or(0),
                    tries: row.get::<_, Option<u32>>(3)?.unwrap_or(0),
                }),
                None => None,
            };
            Ok((row.get::<_, String>(0)?, code, row.get::<_, u32>(4)?, row.get::<_, i64>(5)?))
        })
        .optional()?;
    row.map(|(sends, code, failures, locked_until)| {
        Ok(PhoneGuard {
            sends: decode_sends(&sends)?,
            code,
            failures,
            locked_until,
        })
    })
    .transpose()
}

fn write_guard(tx: &Conn<'_>, phone: &str, g: &PhoneGuard, now: i64) -> Result<()> {
    if *g == PhoneGuard::default() {
        tx.prepare_cached("DELETE FROM sms_guards WHERE phone = ?1")?.execute([phone])?;
        return Ok(());
    }
    tx.prepare_cached(
        "INSERT INTO sms_guards (phone, sends, code_hash, code_sent_at, code_tries, failures, locked_until, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (phone) DO UPDATE SET sends = excluded.sends, code_hash = excluded.code_hash,
             code_sent_at = excluded.code_sent_at, code_tries = excluded.code_tries, failures = excluded.failures,
             locked_until = excluded.locked_until, updated_at = excluded.updated_at",
    )?
    .execute(params![
        phone,
        encode_sends(&g.sends),
        g.code.as_ref().map(|c| c.code_hash.as_str()),
        g.code.as_ref().map(|c| c.sent_at),
        g.code.as_ref().map(|c| c.tries),
        g.failures,
        g.locked_until,
        now
    ])?;
    Ok(())
}

fn read_counter(conn: &Conn<'_>, key: &CounterKey) -> Result<u64> {
    let n: Option<i64> = conn
        .prepare_cached("SELECT count FROM sms_counters WHERE scope = ?1 AND window_start = ?2")?
        .query_row(params![key.scope, key.window_start], |row| row.get(0))
        .optional()?;
    super::to_u64(n.unwrap_or(0))
}

fn write_counter(tx: &Conn<'_>, key: &CounterKey, count: u64) -> Result<()> {
    let count = i64::try_from(count).map_err(|_| Error::Conflict(format!("counter {} overflows", key.scope)))?;
    tx.prepare_cached("DELETE FROM sms_counters WHERE scope = ?1 AND window_start <= ?2")?
        .execute(params![key.scope, key.window_start])?;
    if count > 0 {
        tx.prepare_cached("INSERT INTO sms_counters (scope, window_start, count) VALUES (?1, ?2, ?3)")?
            .execute(params![key.scope, key.window_start, count])?;
    }
    Ok(())
}

impl SmsRepo for SqlSms {
    fn update(&self, phone: &str, counters: &[CounterKey], now: i64, f: &mut dyn FnMut(&mut PhoneGuard, &mut [u64]) -> bool) -> Result<()> {
        self.db.write(|tx| {
            let stored = read_guard(tx, phone)?.unwrap_or_default();
            let before: Vec<u64> = counters.iter().map(|k| read_counter(tx, k)).collect::<Result<_>>()?;
            let mut guard = stored.clone();
            let mut counts = before.clone();
            if !f(&mut guard, &mut counts) {
                return Ok(());
            }
            if guard != stored {
                write_guard(tx, phone, &guard, now)?;
            }
            for ((key, count), was) in counters.iter().zip(&counts).zip(&before) {
                if count != was {
                    write_counter(tx, key, *count)?;
                }
            }
            Ok(())
        })
    }

    fn guard(&self, phone: &str) -> Result<Option<PhoneGuard>> {
        read_guard(&self.db.lock()?, phone)
    }

    fn prune(&self, before: i64) -> Result<u64> {
        self.db.write(|tx| {
            let guards = tx.execute("DELETE FROM sms_guards WHERE updated_at < ?1 AND locked_until <= ?1", [before])?;
            let counters = tx.execute("DELETE FROM sms_counters WHERE window_start < ?1", [before])?;
            Ok((guards + counters) as u64)
        })
    }
}
