//! The conformance suite against a real SQLite file in a fresh temporary directory per test, plus
//! checks only SQLite has (file layout, pragmas, schema versions).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::repos::{migrations, DB_FILE};
use crate::{conformance, Error, GameSessionRecord, LoginSession, Store, User};

/// A directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let unique = format!("yoo-storage-{}-{}-{name}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let path = std::env::temp_dir().join(unique);
        let _ = std::fs::remove_dir_all(&path);
        TempDir(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn open(dir: &Path) -> Store {
    Store::open_sqlite(dir).expect("open sqlite store")
}

fn raw(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join(DB_FILE)).expect("open raw connection")
}

fn schema_version(dir: &Path) -> i64 {
    raw(dir)
        .query_row("SELECT MAX(version) FROM schema_version", [], |row| row.get(0))
        .expect("read schema version")
}

// The shop, orders, callbacks, coin payment and the ledger of every asset write.
// Coin purchases and one key's orders and settlements race on one connection and across two.
// Users: get_or_create is idempotent and unique per phone.
// Login sessions: expiry, duplicate tokens, deletes.
// SMS guards and counters: defaults, writes, refusals, windows, prune.
// SMS guard updates are atomic under concurrent callers on one connection.
// ... and across connections (two stores on one file, as two processes would be).
// The seeded catalogue: paging, search, deleted games.
// Nodes: seeded list, get, upsert.
// Game sessions: lifecycle updates and listings.
// Quality reports: once per session, its own player's; the played sessions with their reports.
// Queue places and max_admitted_tag.
// Play time: adding, the charge order, packages, replays, play_minutes.
// Entitlements: grant, extend, expiry boundary.
// Fast-entry cards: order, expiry, conditions of use.
// Time cards: use adds play time of the card's type with its ledger entry, once.
// Monthly claims: once per user and month.
// Racing spenders on one store (one connection per repository).
// Racing spenders on two stores opened on one file: separate connections, so only SQLite's write
// lock keeps them apart.
// Data survives reopening the same directory, and the seed runs once.
// Opening creates missing directories, the file yoo.db in WAL mode, and the latest schema, once.
#[test]
fn open_creates_the_database_once() {
    let dir = TempDir::new("layout");
    let nested = dir.path().join("a").join("b");
    drop(open(&nested));
    assert!(nested.join(DB_FILE).is_file());
    let mode: String = raw(&nested)
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .expect("journal mode");
    assert_eq!(mode, "wal");
    assert_eq!(schema_version(&nested), migrations::LATEST);

    drop(open(&nested));
    let rows: i64 = raw(&nested)
        .query_row("SELECT COUNT(*) FROM schema_version", [], |row| row.get(0))
        .expect("count versions");
    assert_eq!(
        (schema_version(&nested), rows),
        (migrations::LATEST, migrations::LATEST),
        "reopening migrates nothing"
    );
}

// A database written by a newer build is refused instead of being misread.
#[test]
fn newer_schema_is_refused() {
    let dir = TempDir::new("newer");
    drop(open(dir.path()));
    raw(dir.path())
        .execute("INSERT INTO schema_version (version) VALUES (99)", [])
        .expect("bump version");
    match Store::open_sqlite(dir.path()) {
        Err(Error::Backend(message)) => assert!(message.contains("99"), "{message}"),
        Err(other) => panic!("expected a backend error, got {other:?}"),
        Ok(_) => panic!("expected a backend error, the store opened"),
    }
}

// References SQLite can check are enforced: a login for an unknown user is a conflict.
#[test]
fn unknown_references_conflict() {
    let dir = TempDir::new("references");
    let store = open(dir.path());
    let login = crate::LoginSession {
        token_hash: "t".to_owned(),
        uid: 404,
        csrf_hash: "c".to_owned(),
        device_no: "d".to_owned(),
        created_at: 0,
        expires_at: 1,
    };
    assert!(matches!(store.logins.insert(&login), Err(Error::Conflict(_))));
    let session = crate::NewGameSession {
        uid: 404,
        game_id: 1,
        node_id: 1,
        device_no: "d".to_owned(),
        created_at: 0,
        lane: 0,
        cutoff_at: None,
    };
    assert!(matches!(store.sessions.insert(&session), Err(Error::Conflict(_))));
    let assets = &store.assets;
    assert!(matches!(assets.grant_entitlement(404, "vip", 1, 0), Err(Error::Conflict(_))));
    assert!(matches!(assets.add_card(404, "t", 1, "shop", 0), Err(Error::Conflict(_))));
    assert!(matches!(
        assets.claim_monthly(404, "2026-11", 1, "t", 1, 0),
        Err(Error::Conflict(_))
    ));
    // A card used for an unknown session stays unused.
    let uid = store.users.get_or_create_by_phone("13000000001", "n", 0).expect("user").0.uid;
    let card = assets.add_card(uid, "t", 10, "shop", 0).expect("card");
    assert!(matches!(assets.use_card(uid, card.id, 404, 1), Err(Error::Conflict(_))));
    assert_eq!(assets.cards(uid, 1).expect("cards"), vec![card]);
}

// Cards storage marks invalidated (or expired) cannot be used; only the backend can write those
// statuses, so the test sets them directly.
#[test]
fn marked_cards_cannot_be_used() {
    let dir = TempDir::new("marked-cards");
    let store = open(dir.path());
    let uid = store.users.get_or_create_by_phone("13000000002", "n", 0).expect("user").0.uid;
    let session = store
        .sessions
        .insert(&crate::NewGameSession {
            uid,
            game_id: 1,
            node_id: 1,
            device_no: "d".to_owned(),
            created_at: 0,
            lane: 0,
            cutoff_at: None,
        })
        .expect("session");
    for status in [2, 3] {
        let card = store.assets.add_card(uid, "t", 10_000, "shop", 0).expect("card");
        raw(dir.path())
            .execute(
                "UPDATE fast_enter_cards SET status = ?1 WHERE id = ?2",
                [i64::from(status), card.id],
            )
            .expect("mark card");
        assert_eq!(store.assets.cards(uid, 1).expect("cards"), vec![]);
        match store.assets.use_card(uid, card.id, session.id, 1) {
            Err(Error::Conflict(_)) => {}
            other => panic!("status {status}: expected a conflict, got {other:?}"),
        }
    }
}

// A database written by the version-5 build, whose players hold play time, entitlements and
// cards, gets the opening ledger entries of all of them: the ledger replays to every balance.
#[test]
fn version_5_balances_open_the_ledger() {
    let dir = TempDir::new("upgrade-5");
    std::fs::create_dir_all(dir.path()).expect("create dir");
    {
        let v5 = raw(dir.path());
        v5.execute_batch("CREATE TABLE schema_version (version INTEGER PRIMARY KEY)")
            .expect("version table");
        for (i, sql) in migrations::MIGRATIONS[..5].iter().enumerate() {
            v5.execute_batch(sql).expect("old schema");
            v5.execute("INSERT INTO schema_version (version) VALUES (?1)", [i as i64 + 1])
                .expect("version");
        }
        v5.execute_batch(
            "INSERT INTO users (uid, cellphone, nickname, created_at, play_time_free, play_time_paid)
                 VALUES (7, '13100000007', '老玩家', 100, 3, 40), (8, '13100000008', '新玩家', 100, 0, 0);
             INSERT INTO entitlements VALUES (7, 'vip', 100, 5000), (7, 'daily', 100, 200);
             INSERT INTO fast_enter_cards (uid, goods_title, status, expires_at, created_at, source)
                 VALUES (7, 'a', 0, 9000, 100, 'grant'), (7, 'b', 0, 9000, 100, 'grant'), (7, 'c', 1, 9000, 100, 'grant');",
        )
        .expect("v5 rows");
    }
    let store = open(dir.path());
    for uid in [7, 8] {
        assert!(conformance::ledger_matches(&store, uid), "user {uid}");
    }
    assert_eq!(
        store.commerce.ledger(7).expect("ledger").len(),
        5,
        "free, paid, two entitlements, the cards"
    );
    assert_eq!(store.commerce.ledger(8).expect("ledger"), vec![]);
}

// A database written by the version-1 build (users, logins, its own catalogue and nodes, open and
// ended sessions) is upgraded in place: every row is kept, sessions get lane 0, no place and no
// minutes, and the new tables work with the old rows.
#[test]
fn version_1_database_upgrades_in_place() {
    let dir = TempDir::new("upgrade");
    std::fs::create_dir_all(dir.path()).expect("create dir");
    {
        let v1 = raw(dir.path());
        v1.execute_batch("CREATE TABLE schema_version (version INTEGER PRIMARY KEY)")
            .expect("version table");
        v1.execute_batch(migrations::MIGRATIONS[0]).expect("v1 schema");
        v1.execute_batch(
            "INSERT INTO schema_version (version) VALUES (1);
             INSERT INTO users (uid, cellphone, nickname, avatar, created_at, play_time_free,
                                play_time_paid)
                 VALUES (7, '13100000001', '老玩家', 'https://a/b.png', 100, 3, 4);
             INSERT INTO login_sessions VALUES ('old-token', 7, 'old-csrf', 'dev', 100, 99999);
             INSERT INTO games VALUES (1, '旧游戏', '旧的介绍', 1, 1, 0, NULL, 'steam', 1, 0, 0,
                                       120, 10);
             INSERT INTO nodes VALUES (1, '旧节点', 1);
             INSERT INTO game_sessions (id, uid, game_id, node_id, device_no, status, machine_id,
                                        created_at, ready_at, playing_at, ended_at, end_reason)
                 VALUES (1, 7, 1, 1, 'dev', 0, 'm-1', 200, 210, 220, 300, 'user'),
                        (2, 7, 1, 1, 'dev', 1, NULL, 400, NULL, NULL, NULL, NULL);",
        )
        .expect("v1 rows");
    }

    let store = open(dir.path());
    let versions: Vec<i64> = raw(dir.path())
        .prepare("SELECT version FROM schema_version ORDER BY version")
        .expect("prepare")
        .query_map([], |row| row.get(0))
        .expect("versions")
        .collect::<rusqlite::Result<_>>()
        .expect("versions");
    assert_eq!(versions, (1..=migrations::LATEST).collect::<Vec<_>>());

    let user = User {
        uid: 7,
        cellphone: "13100000001".to_owned(),
        nickname: "老玩家".to_owned(),
        avatar: "https://a/b.png".to_owned(),
        created_at: 100,
        play_time_free: 3,
        play_time_paid: 4,
        status: 0,
        minor: false,
        relay_banned: false,
    };
    assert_eq!(store.users.get(7).expect("user"), Some(user.clone()));
    // Version 6 opens the ledger with the balances there were, so that it replays to them; the
    // shop is seeded into the upgraded database.
    assert!(
        conformance::ledger_matches(&store, 7),
        "the old balances have their opening entries"
    );
    assert_eq!(store.commerce.ledger(7).expect("ledger").len(), 2);
    assert!(store.commerce.goods_count().expect("goods") > 0);
    // Version 3 keys logins by the hash of their cookie: the plain-token logins of older
    // versions are dropped (their owners log in again), and the table takes new ones.
    assert_eq!(store.logins.get("old-token", 500).expect("login"), None);
    let login = LoginSession {
        token_hash: "h".to_owned(),
        uid: 7,
        csrf_hash: "c".to_owned(),
        device_no: "dev".to_owned(),
        created_at: 100,
        expires_at: 99_999,
    };
    store.logins.insert(&login).expect("insert");
    assert_eq!(store.logins.get("h", 500).expect("login"), Some(login));
    assert_eq!(store.games.count().expect("count"), 1, "not re-seeded");
    assert_eq!(store.games.get(1).expect("game").map(|g| g.name), Some("旧游戏".to_owned()));
    // Version 4 names each existing entry's host game, in the seed's rotation.
    assert_eq!(
        store.games.get(1).expect("game").map(|g| g.host_game),
        Some(crate::seed::host_game(1).to_owned())
    );
    assert_eq!(store.nodes.list().expect("nodes").len(), 1, "nodes not re-seeded");
    let ended = GameSessionRecord {
        id: 1,
        uid: 7,
        game_id: 1,
        node_id: 1,
        device_no: "dev".to_owned(),
        status: 0,
        machine_id: Some("m-1".to_owned()),
        created_at: 200,
        ready_at: Some(210),
        playing_at: Some(220),
        ended_at: Some(300),
        end_reason: Some("user".to_owned()),
        lane: 0,
        tag: 0,
        seq: 0,
        play_minutes: 0,
        cutoff_at: None,
        requeues: 0,
    };
    let queued = GameSessionRecord {
        id: 2,
        status: 1,
        machine_id: None,
        created_at: 400,
        ready_at: None,
        playing_at: None,
        ended_at: None,
        end_reason: None,
        ..ended.clone()
    };
    assert_eq!(
        store.sessions.list_by_user(7, 10).expect("sessions"),
        vec![queued.clone(), ended.clone()]
    );
    assert_eq!(store.sessions.list_open().expect("open"), vec![queued.clone()]);
    assert_eq!(store.sessions.max_admitted_tag(1).expect("tag"), Some(0));

    // The old rows work with the new columns and tables.
    store.sessions.set_place(2, 3, 5, 1).expect("set_place");
    let (charge, after, replayed) = store.assets.charge_minute(7, 2, 0, false, 500).expect("charge");
    assert_eq!((charge.free, after.play_time_free, replayed), (1, 2, false));
    assert_eq!(
        store.sessions.get(2).expect("get"),
        Some(GameSessionRecord {
            lane: 3,
            tag: 5,
            seq: 1,
            play_minutes: 1,
            ..queued
        })
    );
    store.assets.claim_monthly(7, "2026-11", 1, "t", 10_000, 500).expect("claim");
    let next = store
        .sessions
        .insert(&crate::NewGameSession {
            uid: 7,
            game_id: 1,
            node_id: 1,
            device_no: "dev".to_owned(),
            created_at: 600,
            lane: 6,
            cutoff_at: None,
        })
        .expect("insert");
    assert_eq!(next.id, 3, "ids continue after the old rows");
    // An old played session takes a quality report and lists as played.
    let report = crate::QualityReport {
        session_id: 1,
        uid: 7,
        played_secs: 80,
        latency_p50_ms: 20.0,
        latency_p95_ms: 40.0,
        fps: 30.0,
        drops: 0,
        reconnects: 0,
        reported_at: 700,
    };
    store.sessions.add_quality(&report).expect("add_quality");
    assert_eq!(
        store.sessions.played(7, 0, 10).expect("played"),
        (vec![(ended.clone(), Some(report))], 1)
    );
    drop(store);

    let store = open(dir.path());
    assert_eq!(schema_version(dir.path()), migrations::LATEST);
    assert_eq!(store.users.get(7).expect("user"), Some(User { play_time_free: 2, ..user }));
    assert_eq!(store.sessions.get(1).expect("get"), Some(ended));
}

// An unopenable path is a backend error, not a panic.
#[test]
fn unusable_dir_is_a_backend_error() {
    let dir = TempDir::new("unusable");
    std::fs::create_dir_all(dir.path()).expect("create dir");
    let file = dir.path().join("plain-file");
    std::fs::write(&file, b"not a dir").expect("write file");
    assert!(matches!(Store::open_sqlite(&file), Err(Error::Backend(_))));
}

// Rooms: ids and serials, one open room per host, updates, the relay lookup, blacklists, reports.
// Users' operator flags (status, minor, relay_banned): default off, set and read back.
// The whole-database ledger check passes after grants and finds a balance changed behind the
// ledger's back.
#[test]
fn ledger_check_finds_a_balance_changed_behind_the_ledger() {
    let dir = TempDir::new("ledger-check");
    let store = open(dir.path());
    let a = store.users.get_or_create_by_phone("13800000091", "甲", 1_000).expect("user").0.uid;
    let b = store.users.get_or_create_by_phone("13800000092", "乙", 1_000).expect("user").0.uid;
    for uid in [a, b] {
        let grants = [
            crate::GoodsGrant::Coins { amount: 500 },
            crate::GoodsGrant::PlayTime { minutes: 60 },
        ];
        store.commerce.grant(uid, &grants, "test", "t1", 2_000).expect("grant");
    }
    assert_eq!(store.commerce.ledger_check_all().expect("check"), (2, vec![]));
    raw(dir.path())
        .execute("UPDATE wallets SET coins = coins + 1 WHERE uid = ?1", [b])
        .expect("tamper");
    let (users, bad) = store.commerce.ledger_check_all().expect("check");
    assert_eq!(users, 2);
    let expected = crate::LedgerMismatch {
        uid: b,
        asset: "coins".into(),
        replayed: 500,
        stored: 501,
    };
    assert_eq!(bad, vec![expected]);
}

// Passwords: one hash per account; setting one marks the account's other live sessions ended
// (PASSWORD) in the same transaction, keeps the one named and leaves other accounts' alone; an
// unknown account is NotFound.
#[test]
fn passwords() {
    use crate::passwords::REVOKED_PASSWORD;
    let dir = TempDir::new("passwords");
    let store = open(dir.path());
    let (a, _) = store.users.get_or_create_by_phone("13800000071", "a", 0).unwrap();
    let (b, _) = store.users.get_or_create_by_phone("13800000072", "b", 0).unwrap();
    for (token, uid, created_at, expires_at) in [
        ("a1", a.uid, 1, 10_000),
        ("a2", a.uid, 2, 10_000),
        ("a3", a.uid, 3, 50),
        ("b1", b.uid, 1, 10_000),
    ] {
        let s = crate::LoginSession {
            token_hash: token.into(),
            uid,
            csrf_hash: "c".into(),
            device_no: "d".into(),
            created_at,
            expires_at,
        };
        store.logins.insert(&s).unwrap();
    }
    assert_eq!(store.passwords.hash(a.uid).unwrap(), None);
    assert_eq!(store.passwords.set(a.uid, "h1", Some("a2"), 100).unwrap(), vec!["a1".to_string()]);
    assert_eq!(store.passwords.hash(a.uid).unwrap().as_deref(), Some("h1"));
    assert_eq!(store.accounts.revoked("a1", 100).unwrap().as_deref(), Some(REVOKED_PASSWORD));
    assert_eq!(store.accounts.revoked("a2", 100).unwrap(), None, "the kept login");
    assert_eq!(store.accounts.revoked("b1", 100).unwrap(), None, "another account's");
    assert_eq!(store.passwords.set(a.uid, "h2", None, 100).unwrap(), vec!["a2".to_string()]);
    assert_eq!(store.passwords.hash(a.uid).unwrap().as_deref(), Some("h2"));
    assert_eq!(store.passwords.hash(b.uid).unwrap(), None);
    assert!(matches!(store.passwords.set(987_654, "h", None, 0), Err(crate::Error::NotFound)));
}
