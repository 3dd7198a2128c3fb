//! The conformance suite against a real SQLite file in a fresh temporary directory per test, plus
//! checks only SQLite has (file layout, pragmas, schema versions).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::sqlite::DB_FILE;
use crate::{conformance, Error, Store};

/// A directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let unique = format!(
            "yoo-storage-{}-{}-{name}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
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
        .query_row("SELECT MAX(version) FROM schema_version", [], |row| {
            row.get(0)
        })
        .expect("read schema version")
}

// Users: get_or_create is idempotent and unique per phone.
#[test]
fn users() {
    let dir = TempDir::new("users");
    conformance::users(&open(dir.path()));
}

// Login sessions: expiry, duplicate tokens, deletes.
#[test]
fn login_sessions() {
    let dir = TempDir::new("logins");
    conformance::login_sessions(&open(dir.path()));
}

// The seeded catalogue: paging, search, deleted games.
#[test]
fn catalogue() {
    let dir = TempDir::new("catalogue");
    conformance::catalogue(&open(dir.path()));
}

// Nodes: seeded list, get, upsert.
#[test]
fn nodes() {
    let dir = TempDir::new("nodes");
    conformance::nodes(&open(dir.path()));
}

// Game sessions: lifecycle updates and listings.
#[test]
fn game_sessions() {
    let dir = TempDir::new("sessions");
    conformance::game_sessions(&open(dir.path()));
}

// Data survives reopening the same directory, and the seed runs once.
#[test]
fn persistence() {
    let dir = TempDir::new("persistence");
    conformance::persistence(&|| open(dir.path()));
}

// Opening creates missing directories, the file yoo.db in WAL mode, and schema version 1, once.
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
    assert_eq!(schema_version(&nested), 1);

    drop(open(&nested));
    let rows: i64 = raw(&nested)
        .query_row("SELECT COUNT(*) FROM schema_version", [], |row| row.get(0))
        .expect("count versions");
    assert_eq!(
        (schema_version(&nested), rows),
        (1, 1),
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
        token: "t".to_owned(),
        uid: 404,
        csrf_token: "c".to_owned(),
        device_no: "d".to_owned(),
        created_at: 0,
        expires_at: 1,
    };
    assert!(matches!(
        store.logins.insert(&login),
        Err(Error::Conflict(_))
    ));
    let session = crate::NewGameSession {
        uid: 404,
        game_id: 1,
        node_id: 1,
        device_no: "d".to_owned(),
        created_at: 0,
    };
    assert!(matches!(
        store.sessions.insert(&session),
        Err(Error::Conflict(_))
    ));
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
