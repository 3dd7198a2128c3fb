//! The daily and night packages' history: an entitlement's latest run (kept after it ends) and
//! the minutes charged under a package window.

use crate::sql::{params, OptionalExt};

use super::{entitlement_from_row, SqlAssets};
use crate::model::Entitlement;
use crate::repo::PackageRepo;
use crate::Result;

impl PackageRepo for SqlAssets {
    fn latest_entitlement(&self, uid: i64, kind: &str) -> Result<Option<Entitlement>> {
        self.db
            .lock()?
            .query_row(
                "SELECT uid, kind, starts_at, expires_at FROM entitlements
                 WHERE uid = ?1 AND kind = ?2 ORDER BY expires_at DESC LIMIT 1",
                params![uid, kind],
                entitlement_from_row,
            )
            .optional()
    }

    fn package_minutes(&self, uid: i64, from: i64, to: i64, (start, end): (i64, i64)) -> Result<i64> {
        // The hour of the day in UTC+8 of each charge; a window past midnight wraps.
        self.db.lock()?.query_row(
            "SELECT COUNT(*) FROM play_charges
                 WHERE uid = ?1 AND package = 1 AND charged_at >= ?2 AND charged_at < ?3
                   AND (CASE WHEN ?4 <= ?5
                        THEN ((charged_at + 28800000) % 86400000) / 3600000 BETWEEN ?4 AND ?5 - 1
                        ELSE ((charged_at + 28800000) % 86400000) / 3600000 >= ?4
                          OR ((charged_at + 28800000) % 86400000) / 3600000 < ?5 END)",
            params![uid, from, to, start, end],
            |r| r.get(0),
        )
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::{params, Connection};

    use super::SqlAssets;
    use crate::repo::PackageRepo;
    use crate::repos::migrations;
    use crate::sql::Db;

    const HOUR: i64 = 3600 * 1000;
    /// 2026-11-23 00:00 UTC+8.
    const MIDNIGHT_CST: i64 = 1_795_363_200_000;

    /// Minutes are counted by the package flag, the user, the run and the window's hours in
    /// UTC+8 (the night window wraps past midnight); the latest run survives its end.
    #[test]
    fn package_minutes_by_window_and_latest_run() {
        let db = Db::lite(Connection::open_in_memory().unwrap());
        migrations::run(&db).unwrap();
        let Db::Lite(conn) = db else { unreachable!() };
        let conn = conn.into_inner();
        conn.pragma_update(None, "foreign_keys", false).unwrap();
        let at = |h: i64| MIDNIGHT_CST + h * HOUR;
        let charges = [
            (1, at(7), 1),
            (1, at(8), 1),
            (1, at(12), 1),
            (1, at(12) + 60_000, 0),
            (1, at(23), 1),
            (1, at(26), 1),
            (2, at(12), 1),
        ];
        for (i, (uid, charged_at, package)) in charges.into_iter().enumerate() {
            conn.execute(
                "INSERT INTO play_charges (session_id, minute, uid, free, paid, package, charged_at) VALUES (?1, 0, ?2, 0, 0, ?3, ?4)",
                params![i64::try_from(i).unwrap(), uid, package, charged_at],
            )
            .unwrap();
        }
        conn.execute(
            "INSERT INTO entitlements (uid, kind, starts_at, expires_at) VALUES (1, 'daily', 0, 5)",
            [],
        )
        .unwrap();
        let repo = SqlAssets::new(Db::lite(conn));
        let day = repo.package_minutes(1, at(0), at(48), (8, 24)).unwrap();
        assert_eq!(day, 3, "08:00, 12:00 and 23:00 under a package");
        let night = repo.package_minutes(1, at(0), at(48), (23, 7)).unwrap();
        assert_eq!(night, 2, "23:00 and 02:00 the next day");
        assert_eq!(repo.package_minutes(1, at(9), at(48), (8, 24)).unwrap(), 2, "from the run's start");
        assert_eq!(
            repo.package_minutes(3, at(0), at(48), (8, 24)).unwrap(),
            0,
            "another user's are not counted"
        );
        let run = repo.latest_entitlement(1, "daily").unwrap().unwrap();
        assert_eq!(run.expires_at, 5, "an ended run is kept");
        assert_eq!(repo.latest_entitlement(1, "night").unwrap(), None);
    }
}
