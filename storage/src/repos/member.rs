//! The member play-time grants and lapsed memberships (`crate::member`).

use crate::sql::{params, Conn, OptionalExt, Row};

use super::{ledger, Db};
use crate::member::{MemberGrant, MemberRepo};
use crate::model::{Asset, Entitlement};
use crate::{Error, Result};

const REASON: &str = "member_grant";
const EXPIRED: &str = "member_grant_expired";

pub(crate) struct SqlMember {
    db: Db,
}

impl SqlMember {
    pub(crate) fn new(db: Db) -> SqlMember {
        SqlMember { db }
    }
}

fn grant_from_row(row: &Row) -> Result<MemberGrant> {
    Ok(MemberGrant {
        uid: row.get(0)?,
        kind: row.get(1)?,
        period: row.get(2)?,
        minutes: row.get(3)?,
        expires_at: row.get(4)?,
        claimed_at: row.get(5)?,
    })
}

const COLUMNS: &str = "uid, kind, period, minutes, expires_at, claimed_at";

fn grant_in(conn: &Conn<'_>, uid: i64, kind: &str, period: &str) -> Result<Option<MemberGrant>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM member_grants WHERE uid = ?1 AND kind = ?2 AND period = ?3"),
        params![uid, kind, period],
        grant_from_row,
    )
    .optional()
}

impl MemberRepo for SqlMember {
    fn claim_grant(&self, uid: i64, kind: &str, period: &str, minutes: i64, expires_at: i64, now: i64) -> Result<(MemberGrant, bool)> {
        if minutes <= 0 {
            return Err(Error::Conflict(format!("member grant of {minutes} minutes")));
        }
        self.db.write(|tx| {
            if let Some(g) = grant_in(tx, uid, kind, period)? {
                return Ok((g, false));
            }
            tx.execute(
                "INSERT INTO member_grants (uid, kind, period, minutes, expires_at, claimed_at, expired)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0)",
                params![uid, kind, period, minutes, expires_at, now],
            )?;
            let reference = format!("member:{kind}:{period}");
            ledger::add_play_time(tx, uid, minutes, 0, REASON, &reference, now)?;
            let g = grant_in(tx, uid, kind, period)?.ok_or(Error::NotFound)?;
            Ok((g, true))
        })
    }

    fn expire_grants(&self, uid: i64, now: i64) -> Result<i64> {
        // a read first, so that the common case (nothing due) takes no write lock
        let due: i64 = self
            .db
            .lock()?
            .prepare_cached("SELECT COUNT(*) FROM member_grants WHERE uid = ?1 AND expired = 0 AND expires_at <= ?2")?
            .query_row(params![uid, now], |r| r.get(0))?;
        if due == 0 {
            return Ok(0);
        }
        self.db.write(|tx| {
            let due: Vec<MemberGrant> = tx
                .prepare_cached(&format!(
                    "SELECT {COLUMNS} FROM member_grants WHERE uid = ?1 AND expired = 0 AND expires_at <= ?2 ORDER BY expires_at"
                ))?
                .query_map(params![uid, now], grant_from_row)?
                .collect::<Result<_>>()?;
            let mut taken = 0;
            for g in due {
                let free = ledger::balance(tx, uid, &Asset::PlayFree)?;
                let take = g.minutes.min(free).max(0);
                tx.execute(
                    "UPDATE member_grants SET expired = 1 WHERE uid = ?1 AND kind = ?2 AND period = ?3",
                    params![uid, g.kind, g.period],
                )?;
                if take > 0 {
                    tx.execute(
                        "UPDATE users SET play_time_free = play_time_free - ?2 WHERE uid = ?1 AND play_time_free >= ?2",
                        params![uid, take],
                    )?;
                    let reference = format!("member:{}:{}", g.kind, g.period);
                    ledger::append(tx, uid, &Asset::PlayFree, -take, EXPIRED, &reference, now)?;
                    taken += take;
                }
            }
            Ok(taken)
        })
    }

    fn grants(&self, uid: i64) -> Result<Vec<MemberGrant>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM member_grants WHERE uid = ?1 ORDER BY claimed_at, kind"
        ))?;
        let rows = stmt.query_map([uid], grant_from_row)?.collect::<Result<_>>()?;
        Ok(rows)
    }

    fn lapsed(&self, uid: i64, kinds: &[&str], now: i64) -> Result<Vec<Entitlement>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(
            "SELECT uid, kind, starts_at, expires_at FROM entitlements
                 WHERE uid = ?1 AND expires_at <= ?2 AND expires_at > 0 ORDER BY expires_at DESC, kind",
        )?;
        let rows: Vec<Entitlement> = stmt
            .query_map(params![uid, now], |row| {
                Ok(Entitlement {
                    uid: row.get(0)?,
                    kind: row.get(1)?,
                    starts_at: row.get(2)?,
                    expires_at: row.get(3)?,
                })
            })?
            .collect::<Result<_>>()?;
        Ok(rows.into_iter().filter(|e| kinds.contains(&e.kind.as_str())).collect())
    }
}

#[cfg(test)]
mod tests {
    use crate::Store;

    const HOUR: i64 = 3_600_000;
    /// 2026-11-22 00:00 in UTC+8, as unix ms.
    const MIDNIGHT: i64 = 1_795_305_600_000 - 8 * HOUR;

    fn store(name: &str) -> (Store, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("yoo-member-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        (Store::open_sqlite(&dir).expect("open"), dir)
    }

    // A daily grant received at 23:59 is once for its day; at midnight what is left of it is
    // taken back (once), and the next day's can be received.
    #[test]
    fn daily_grant_across_midnight() {
        let (s, dir) = store("midnight");
        let (user, _) = s.users.get_or_create_by_phone("15900000001", "p", 0).expect("user");
        let uid = user.uid;
        s.assets.add_play_time(uid, 10, 5, 0).expect("opening");
        let late = MIDNIGHT - 60_000;
        let (g, fresh) = s.member.claim_grant(uid, "daily", "2026-11-21", 60, MIDNIGHT, late).expect("claim");
        assert!(fresh && g.minutes == 60);
        let (_, again) = s
            .member
            .claim_grant(uid, "daily", "2026-11-21", 60, MIDNIGHT, late + 1)
            .expect("again");
        assert!(!again, "once a day");
        assert_eq!(s.users.get(uid).unwrap().unwrap().play_time_free, 70);
        assert_eq!(s.member.expire_grants(uid, MIDNIGHT - 1).expect("early"), 0, "not yet");
        assert_eq!(s.member.expire_grants(uid, MIDNIGHT).expect("expire"), 60);
        assert_eq!(s.users.get(uid).unwrap().unwrap().play_time_free, 10);
        assert_eq!(s.member.expire_grants(uid, MIDNIGHT + 1).expect("twice"), 0, "once");
        let (_, next) = s
            .member
            .claim_grant(uid, "daily", "2026-11-22", 60, MIDNIGHT + 24 * HOUR, MIDNIGHT + 1)
            .expect("next day");
        assert!(next);
        assert_eq!(s.member.grants(uid).expect("grants").len(), 2);
        assert!(s.member.claim_grant(uid, "daily", "x", 0, 1, 1).is_err(), "a grant of nothing");
        assert!(s.commerce.ledger_mismatches(uid).expect("ledger").is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
