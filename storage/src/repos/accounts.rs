//! Account states and forced session ends (`crate::accounts`).

use crate::sql::{params, Conn, OptionalExt};

use super::Db;
use crate::accounts::{
    AccountRepo, AccountState, Certification, LoginDevice, ACCOUNT_BANNED, ACCOUNT_FROZEN, REVOKED_BAN, REVOKED_FROZEN, REVOKED_KICK_OUT,
};
use crate::{Error, Result};

/// The account state on the user, and the mark of a session ended by force.
pub(crate) const MIGRATION: &str = "
ALTER TABLE users ADD COLUMN account_state  INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN account_reason TEXT    NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN account_until  INTEGER NOT NULL DEFAULT 0;
ALTER TABLE login_sessions ADD COLUMN revoked TEXT;
CREATE INDEX login_sessions_by_uid ON login_sessions (uid, created_at);

CREATE TABLE login_devices (
    token_hash   TEXT    PRIMARY KEY,
    uid          INTEGER NOT NULL REFERENCES users (uid),
    uuid         TEXT    NOT NULL,
    channel      TEXT    NOT NULL,
    cafe_gid     TEXT    NOT NULL,
    cafe_mac     TEXT    NOT NULL,
    cafe_pc_name TEXT    NOT NULL,
    cafe_boot_id TEXT    NOT NULL,
    created_at   INTEGER NOT NULL
);
CREATE INDEX login_devices_by_uid ON login_devices (uid, created_at);

CREATE TABLE certifications (
    uid          INTEGER PRIMARY KEY REFERENCES users (uid),
    name_sealed  BLOB    NOT NULL,
    id_sealed    BLOB    NOT NULL,
    adult_at     INTEGER NOT NULL,
    certified_at INTEGER NOT NULL,
    recerts_left INTEGER NOT NULL
);

CREATE TABLE third_party_logins (
    open_type  INTEGER NOT NULL,
    openid     TEXT    NOT NULL,
    uid        INTEGER NOT NULL REFERENCES users (uid),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (open_type, openid)
);
";

pub(crate) struct SqlAccounts {
    db: Db,
}

impl SqlAccounts {
    pub(crate) fn new(db: Db) -> SqlAccounts {
        SqlAccounts { db }
    }
}

/// Marks sessions ended with `why`; returns their token hashes in the order given.
fn revoke(tx: &Conn<'_>, hashes: &[String], why: &str) -> Result<()> {
    let mut stmt = tx.prepare_cached("UPDATE login_sessions SET revoked = ?2 WHERE token_hash = ?1")?;
    for h in hashes {
        stmt.execute(params![h, why])?;
    }
    Ok(())
}

fn live_sessions(tx: &Conn<'_>, uid: i64, now: i64) -> Result<Vec<String>> {
    let mut stmt = tx.prepare_cached(
        "SELECT token_hash FROM login_sessions
             WHERE uid = ?1 AND revoked IS NULL AND expires_at > ?2 ORDER BY created_at, token_hash",
    )?;
    let rows = stmt.query_map(params![uid, now], |r| r.get(0))?;
    rows.collect::<Result<Vec<String>>>()
}

impl AccountRepo for SqlAccounts {
    fn state(&self, uid: i64) -> Result<AccountState> {
        let found = self
            .db
            .lock()?
            .query_row(
                "SELECT account_state, account_reason, account_until FROM users WHERE uid = ?1",
                [uid],
                |r| {
                    Ok(AccountState {
                        state: r.get(0)?,
                        reason: r.get(1)?,
                        until: r.get(2)?,
                    })
                },
            )
            .optional()?;
        Ok(found.unwrap_or_default())
    }

    fn set_state(&self, uid: i64, state: &AccountState, now: i64) -> Result<Vec<String>> {
        self.db.write(|tx| {
            let changed = tx.execute(
                "UPDATE users SET account_state = ?2, account_reason = ?3, account_until = ?4 WHERE uid = ?1",
                params![uid, state.state, state.reason, state.until],
            )?;
            if changed == 0 {
                return Err(Error::NotFound);
            }
            let why = match state.state {
                ACCOUNT_FROZEN => REVOKED_FROZEN,
                ACCOUNT_BANNED => REVOKED_BAN,
                _ => return Ok(Vec::new()),
            };
            let ended = live_sessions(tx, uid, now)?;
            revoke(tx, &ended, why)?;
            Ok(ended)
        })
    }

    fn revoked_login(&self, token_hash: &str, now: i64) -> Result<Option<(String, i64)>> {
        let found: Option<(Option<String>, i64)> = self
            .db
            .lock()?
            .query_row(
                "SELECT revoked, uid FROM login_sessions WHERE token_hash = ?1 AND expires_at > ?2",
                params![token_hash, now],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(found.and_then(|(why, uid)| why.map(|w| (w, uid))))
    }

    fn third_party_uid(&self, open_type: i32, openid: &str) -> Result<Option<i64>> {
        self.db
            .lock()?
            .query_row(
                "SELECT uid FROM third_party_logins WHERE open_type = ?1 AND openid = ?2",
                params![open_type, openid],
                |r| r.get(0),
            )
            .optional()
    }

    fn bind_third_party(&self, open_type: i32, openid: &str, uid: i64, now: i64) -> Result<i64> {
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO third_party_logins (open_type, openid, uid, created_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (open_type, openid) DO NOTHING",
                params![open_type, openid, uid, now],
            )?;
            tx.query_row(
                "SELECT uid FROM third_party_logins WHERE open_type = ?1 AND openid = ?2",
                params![open_type, openid],
                |r| r.get(0),
            )
        })
    }

    fn record_device(&self, token_hash: &str, uid: i64, d: &LoginDevice, now: i64) -> Result<()> {
        self.db.lock()?
            .execute(
                "INSERT OR IGNORE INTO login_devices (token_hash, uid, uuid, channel, cafe_gid, cafe_mac, cafe_pc_name, cafe_boot_id, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![token_hash, uid, d.uuid, d.channel, d.cafe_gid, d.cafe_mac, d.cafe_pc_name, d.cafe_boot_id, now],
            )?;
        Ok(())
    }

    fn devices(&self, uid: i64, now: i64) -> Result<Vec<(i64, LoginDevice)>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(
            "SELECT d.created_at, d.uuid, d.channel, d.cafe_gid, d.cafe_mac, d.cafe_pc_name, d.cafe_boot_id
                 FROM login_devices d JOIN login_sessions s ON s.token_hash = d.token_hash
                 WHERE d.uid = ?1 AND s.revoked IS NULL AND s.expires_at > ?2 ORDER BY d.created_at DESC",
        )?;
        let rows = stmt.query_map(params![uid, now], |r| {
            Ok((
                r.get(0)?,
                LoginDevice {
                    uuid: r.get(1)?,
                    channel: r.get(2)?,
                    cafe_gid: r.get(3)?,
                    cafe_mac: r.get(4)?,
                    cafe_pc_name: r.get(5)?,
                    cafe_boot_id: r.get(6)?,
                },
            ))
        })?;
        rows.collect::<Result<Vec<_>>>()
    }

    fn paid_since(&self, uid: i64, since: i64) -> Result<i64> {
        self.db.lock()?.query_row(
            "SELECT COALESCE(SUM(amount_fen), 0) FROM orders
                 WHERE uid = ?1 AND state IN ('paid', 'fulfilled', 'refunded') AND paid_at >= ?2 AND pay_method <> 'yunyoubi'",
            params![uid, since],
            |r| r.get(0),
        )
    }

    fn certification(&self, uid: i64) -> Result<Option<Certification>> {
        self.db
            .lock()?
            .query_row(
                "SELECT uid, name_sealed, id_sealed, adult_at, certified_at, recerts_left FROM certifications WHERE uid = ?1",
                [uid],
                |r| {
                    Ok(Certification {
                        uid: r.get(0)?,
                        name_sealed: r.get(1)?,
                        id_sealed: r.get(2)?,
                        adult_at: r.get(3)?,
                        certified_at: r.get(4)?,
                        recerts_left: r.get(5)?,
                    })
                },
            )
            .optional()
    }

    fn certify(&self, c: &Certification) -> Result<Certification> {
        self.db.write(|tx| {
            let left: Option<i32> = tx
                .query_row("SELECT recerts_left FROM certifications WHERE uid = ?1", [c.uid], |r| r.get(0))
                .optional()?;
            let recerts_left = match left {
                None => c.recerts_left,
                Some(n) if n > 0 => n - 1,
                Some(_) => return Err(Error::Conflict("no recertification left".into())),
            };
            tx.execute(
                "INSERT INTO certifications (uid, name_sealed, id_sealed, adult_at, certified_at, recerts_left)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (uid) DO UPDATE SET name_sealed = ?2, id_sealed = ?3, adult_at = ?4, certified_at = ?5,
                     recerts_left = ?6",
                params![c.uid, c.name_sealed, c.id_sealed, c.adult_at, c.certified_at, recerts_left],
            )?;
            Ok(Certification { recerts_left, ..c.clone() })
        })
    }

    fn keep_newest(&self, uid: i64, keep: usize, now: i64) -> Result<Vec<String>> {
        self.db.write(|tx| {
            let live = live_sessions(tx, uid, now)?;
            let ended: Vec<String> = live[..live.len().saturating_sub(keep)].to_vec();
            revoke(tx, &ended, REVOKED_KICK_OUT)?;
            Ok(ended)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::accounts::{AccountState, ACCOUNT_BANNED, ACCOUNT_FROZEN, ACCOUNT_NORMAL};
    use crate::model::LoginSession;
    use crate::Store;

    fn login(store: &Store, uid: i64, n: i64) -> String {
        let token_hash = format!("{:064x}", uid * 100 + n);
        store
            .logins
            .insert(&LoginSession {
                token_hash: token_hash.clone(),
                uid,
                csrf_hash: String::new(),
                device_no: format!("d{n}"),
                created_at: n,
                expires_at: 1_000_000,
            })
            .unwrap();
        token_hash
    }

    #[test]
    fn freezing_ends_every_login_and_kicks_end_the_oldest() {
        let dir = std::env::temp_dir().join(format!("yoo-accounts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open_sqlite(&dir).unwrap();
        let (a, _) = store.users.get_or_create_by_phone("13800000001", "a", 0).unwrap();
        let (b, _) = store.users.get_or_create_by_phone("13800000002", "b", 0).unwrap();
        let s: Vec<String> = (1..=4).map(|n| login(&store, a.uid, n)).collect();
        let other = login(&store, b.uid, 1);

        // four logins, three kept: the oldest is kicked out, and no longer found
        assert_eq!(store.accounts.keep_newest(a.uid, 3, 10).unwrap(), vec![s[0].clone()]);
        assert_eq!(store.accounts.revoked(&s[0], 10).unwrap().as_deref(), Some("KICK_OUT"));
        assert!(store.logins.get(&s[0], 10).unwrap().is_none());
        assert!(store.logins.get(&s[1], 10).unwrap().is_some());
        assert!(store.accounts.keep_newest(a.uid, 3, 10).unwrap().is_empty());

        // frozen: the three others end in one step; the other user's login stays
        let frozen = AccountState {
            state: ACCOUNT_FROZEN,
            reason: "风险".into(),
            until: 0,
        };
        assert_eq!(store.accounts.set_state(a.uid, &frozen, 10).unwrap(), s[1..].to_vec());
        assert_eq!(store.accounts.state(a.uid).unwrap(), frozen);
        assert!(!frozen.may_log_in(10));
        for h in &s[1..] {
            assert_eq!(store.accounts.revoked(h, 10).unwrap().as_deref(), Some("FROZEN"));
            assert!(store.logins.get(h, 10).unwrap().is_none());
        }
        assert!(store.logins.get(&other, 10).unwrap().is_some());
        assert_eq!(store.accounts.revoked(&other, 10).unwrap(), None);

        // a ban runs out; unknown users are refused
        let ban = AccountState {
            state: ACCOUNT_BANNED,
            reason: "违规".into(),
            until: 500,
        };
        assert!(store.accounts.set_state(b.uid, &ban, 10).unwrap() == vec![other.clone()]);
        assert!(!ban.may_log_in(499) && ban.may_log_in(500));
        assert!(store.accounts.set_state(9999, &AccountState::default(), 10).is_err());
        store
            .accounts
            .set_state(
                a.uid,
                &AccountState {
                    state: ACCOUNT_NORMAL,
                    ..Default::default()
                },
                10,
            )
            .unwrap();
        assert!(store.accounts.state(a.uid).unwrap().may_log_in(10));

        // a provider account binds once: the first binding stands
        assert_eq!(store.accounts.third_party_uid(3, "o-1").unwrap(), None);
        assert_eq!(store.accounts.bind_third_party(3, "o-1", a.uid, 10).unwrap(), a.uid);
        assert_eq!(store.accounts.bind_third_party(3, "o-1", b.uid, 11).unwrap(), a.uid);
        assert_eq!(store.accounts.third_party_uid(3, "o-1").unwrap(), Some(a.uid));
        assert_eq!(store.accounts.third_party_uid(1, "o-1").unwrap(), None);

        // certified once, recertified once, then refused
        let c = crate::accounts::Certification {
            uid: a.uid,
            name_sealed: vec![1],
            id_sealed: vec![2],
            adult_at: 0,
            certified_at: 10,
            recerts_left: 1,
        };
        assert_eq!(store.accounts.certification(a.uid).unwrap(), None);
        assert_eq!(store.accounts.certify(&c).unwrap().recerts_left, 1);
        let again = store
            .accounts
            .certify(&crate::accounts::Certification {
                id_sealed: vec![3],
                ..c.clone()
            })
            .unwrap();
        assert_eq!((again.recerts_left, again.id_sealed.clone()), (0, vec![3]));
        assert!(store.accounts.certify(&c).is_err());
        assert_eq!(store.accounts.certification(a.uid).unwrap().unwrap().id_sealed, vec![3]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
