//! The conformance suite, every test of it against each backend: SQLite in a fresh temporary
//! directory, PostgreSQL in a fresh database that the test creates and drops (on the server of
//! `YOO_TEST_POSTGRES`, by default the machine's at 127.0.0.1:5432). A race runs on one store
//! and again on two stores opened on one database: two SQLite connections behind one file
//! lock, or two PostgreSQL pools, as two processes would have.

use crate::testing::{Fresh, FreshPostgres, FreshSqlite};
use crate::{conformance, Store};

/// The tests of the suite for one backend, `$fresh` naming its fresh database.
macro_rules! suite {
    ($fresh:ty) => {
        use super::*;

        fn fresh(name: &str) -> $fresh {
            <$fresh>::new(name)
        }

        /// Two stores on one database, as two processes would open it.
        fn two(db: &$fresh) -> [Store; 2] {
            [db.open(), db.open()]
        }

        #[test]
        fn users() {
            conformance::users(&fresh("users").open());
        }
        #[test]
        fn login_sessions() {
            conformance::login_sessions(&fresh("logins").open());
        }
        #[test]
        fn sms_guards() {
            conformance::sms_guards(&fresh("sms").open());
        }
        #[test]
        fn sms_races() {
            conformance::sms_races(&[fresh("sms_races").open()]);
        }
        #[test]
        fn sms_races_across_processes() {
            conformance::sms_races(&two(&fresh("sms_races_2")));
        }
        #[test]
        fn catalogue() {
            conformance::catalogue(&fresh("catalogue").open());
        }
        #[test]
        fn nodes() {
            conformance::nodes(&fresh("nodes").open());
        }
        #[test]
        fn game_sessions() {
            conformance::game_sessions(&fresh("sessions").open());
        }
        #[test]
        fn ownership() {
            conformance::ownership(&fresh("ownership").open());
        }
        #[test]
        fn fencing_races() {
            conformance::fencing_races(&[fresh("fencing").open()]);
        }
        #[test]
        fn one_open_session_per_start() {
            conformance::one_open_session_per_start(&[fresh("one_open").open()]);
        }
        #[test]
        fn one_open_session_per_start_across_processes() {
            conformance::one_open_session_per_start(&two(&fresh("one_open_2")));
        }
        #[test]
        fn fencing_races_across_processes() {
            conformance::fencing_races(&two(&fresh("fencing_2")));
        }
        #[test]
        fn quality_reports() {
            conformance::quality_reports(&fresh("quality").open());
        }
        #[test]
        fn session_places() {
            conformance::session_places(&fresh("places").open());
        }
        #[test]
        fn play_time() {
            conformance::play_time(&fresh("play_time").open());
        }
        #[test]
        fn entitlements() {
            conformance::entitlements(&fresh("entitlements").open());
        }
        #[test]
        fn fast_enter_cards() {
            conformance::fast_enter_cards(&fresh("cards").open());
        }
        #[test]
        fn time_cards() {
            conformance::time_cards(&fresh("time_cards").open());
        }
        #[test]
        fn monthly_claims() {
            conformance::monthly_claims(&fresh("claims").open());
        }
        #[test]
        fn asset_races() {
            conformance::asset_races(&[fresh("races").open()]);
        }
        #[test]
        fn asset_races_across_processes() {
            conformance::asset_races(&two(&fresh("races_2")));
        }
        #[test]
        fn commerce() {
            conformance::commerce(&fresh("commerce").open());
        }
        #[test]
        fn commerce_races() {
            conformance::commerce_races(&[fresh("commerce_races").open()]);
        }
        #[test]
        fn commerce_races_across_processes() {
            conformance::commerce_races(&two(&fresh("commerce_races_2")));
        }
        #[test]
        fn money_races() {
            conformance::money_races(&[fresh("money_races").open()]);
        }
        #[test]
        fn money_races_across_processes() {
            conformance::money_races(&two(&fresh("money_races_2")));
        }
        #[test]
        fn persistence() {
            let db = fresh("persistence");
            conformance::persistence(&|| db.open());
        }
        #[test]
        fn rooms() {
            conformance::rooms(&fresh("rooms").open());
        }
        #[test]
        fn user_flags() {
            conformance::user_flags(&fresh("user_flags").open());
        }
        #[test]
        fn agreements() {
            conformance::agreements(&fresh("agreements").open());
        }
        #[test]
        fn tips() {
            conformance::tips(&fresh("tips").open());
        }
        #[test]
        fn messages() {
            conformance::messages(&fresh("messages").open());
        }
        #[test]
        fn collect() {
            conformance::collect(&fresh("collect").open());
        }
    };
}

mod sqlite {
    suite!(FreshSqlite);
}

mod postgres {
    suite!(FreshPostgres);
}

/// `StoreAt::copy_to`: a site's SQLite data moved into a new PostgreSQL database reads the
/// same there, and the copy refuses a target that holds players.
mod copy {
    use crate::model::{GoodsGrant, LoginSession, NewGameSession};
    use crate::testing::{Fresh, FreshPostgres, FreshSqlite};
    use crate::{conformance, Error, StoreAt};

    #[test]
    fn a_sqlite_site_moves_to_postgres_and_reads_the_same() {
        let lite = FreshSqlite::new("copy_from");
        let from = lite.open();
        let (alice, _) = from.users.get_or_create_by_phone("13800000001", "星海", 1_000).unwrap();
        let (bob, _) = from.users.get_or_create_by_phone("13800000002", "流云", 1_000).unwrap();
        let login = LoginSession {
            token_hash: "a".repeat(64),
            uid: alice.uid,
            csrf_hash: "c".repeat(64),
            device_no: "dev-1".to_owned(),
            created_at: 1_000,
            expires_at: 10_000_000,
        };
        from.logins.insert(&login).unwrap();
        from.commerce
            .grant(
                alice.uid,
                &[GoodsGrant::Coins { amount: 70 }, GoodsGrant::PlayTime { minutes: 90 }],
                "grant",
                "copy",
                2_000,
            )
            .unwrap();
        let waiting = from
            .sessions
            .insert(&NewGameSession {
                uid: bob.uid,
                game_id: 1,
                node_id: 1,
                device_no: "dev-2".to_owned(),
                created_at: 3_000,
                lane: 2,
                cutoff_at: None,
            })
            .unwrap();
        from.sessions.set_place(waiting.id, 2, 41, 7).unwrap();
        from.collect.record_played(alice.uid, 1, 4_000).unwrap();
        from.collect.record_played(alice.uid, 2, 4_000).unwrap();

        let pg = FreshPostgres::new("copy_to");
        let to_at = StoreAt::Postgres {
            url: pg.url().to_owned(),
            pool_size: 4,
        };
        let report = StoreAt::Sqlite(lite.path().to_owned()).copy_to(&to_at).unwrap();
        assert_eq!(report.rows.get("users"), Some(&2));
        assert_eq!(report.rows.get("login_sessions"), Some(&1));

        let to = pg.open();
        assert_eq!(to.logins.get(&login.token_hash, 5_000).unwrap(), Some(login.clone()), "a login");
        assert_eq!(
            to.sessions.get(waiting.id).unwrap(),
            from.sessions.get(waiting.id).unwrap(),
            "a queue place"
        );
        assert_eq!(to.sessions.list_open().unwrap(), from.sessions.list_open().unwrap());
        assert_eq!(
            to.commerce.wallet(alice.uid).unwrap(),
            from.commerce.wallet(alice.uid).unwrap(),
            "a balance"
        );
        assert_eq!(to.users.get(alice.uid).unwrap(), from.users.get(alice.uid).unwrap());
        assert!(conformance::ledger_matches(&to, alice.uid), "the ledger check passes on the copy");
        assert_eq!(to.commerce.ledger(alice.uid).unwrap(), from.commerce.ledger(alice.uid).unwrap());
        assert_eq!(
            to.collect.played(alice.uid, 10).unwrap(),
            from.collect.played(alice.uid, 10).unwrap(),
            "rows in their order"
        );
        assert_eq!(
            to.games.list(None, 1, 100).unwrap(),
            from.games.list(None, 1, 100).unwrap(),
            "the catalogue"
        );

        // The copied ids are taken: the next user and session get new ones.
        let (carol, created) = to.users.get_or_create_by_phone("13800000003", "晨星", 5_000).unwrap();
        assert!(created && carol.uid > bob.uid);
        let next = to
            .sessions
            .insert(&NewGameSession {
                uid: carol.uid,
                game_id: 1,
                node_id: 1,
                device_no: "dev-3".to_owned(),
                created_at: 5_000,
                lane: 0,
                cutoff_at: None,
            })
            .unwrap();
        assert!(next.id > waiting.id);

        // A second copy onto a database with players is refused, and changes nothing there.
        match StoreAt::Sqlite(lite.path().to_owned()).copy_to(&to_at) {
            Err(Error::Conflict(message)) => assert!(message.contains("new database"), "{message}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        assert_eq!(to.users.get(carol.uid).unwrap(), Some(carol));
    }
}

/// PostgreSQL's own checks: a database a newer build migrated is refused, not misread, and
/// several processes opening a new database at once migrate it once.
mod postgres_only {
    use crate::testing::{Fresh, FreshPostgres};
    use crate::{Error, Store};

    #[test]
    fn a_newer_schema_is_refused() {
        let db = FreshPostgres::new("newer");
        let store = db.open();
        drop(store);
        let pool = crate::sql::pg::Pool::connect(db.url(), 1).unwrap();
        pool.get()
            .unwrap()
            .batch("INSERT INTO schema_version (version) VALUES (99)")
            .unwrap();
        match Store::open_postgres(db.url(), 2) {
            Err(Error::Backend(message)) => assert!(message.contains("99"), "{message}"),
            Err(other) => panic!("expected a backend error, got {other:?}"),
            Ok(_) => panic!("expected a backend error, the store opened"),
        }
    }

    #[test]
    fn concurrent_openers_migrate_once() {
        let db = FreshPostgres::new("openers");
        let stores: Vec<Store> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4).map(|_| s.spawn(|| db.open())).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let pool = crate::sql::pg::Pool::connect(db.url(), 1).unwrap();
        let versions: Vec<i64> = crate::sql::Db::Pg(pool)
            .lock()
            .unwrap()
            .query_map("SELECT version FROM schema_version ORDER BY version", (), |r| r.get(0))
            .unwrap()
            .collect::<crate::Result<_>>()
            .unwrap();
        assert_eq!(versions, (1..=crate::repos::migrations::LATEST).collect::<Vec<_>>());
        let seeded = stores[0].games.count().unwrap();
        assert!(seeded > 0);
        for s in &stores {
            assert_eq!(s.games.count().unwrap(), seeded, "the catalogue seeded once");
        }
    }
}
