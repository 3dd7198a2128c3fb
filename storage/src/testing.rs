//! Fresh databases for tests, one per test, removed when dropped: a temporary SQLite
//! directory, or a PostgreSQL database created on the test server and dropped (forcing out
//! whatever is still connected) afterwards. Other crates' tests reach them through the
//! `conformance` feature.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::Store;

/// A database of its own for one test.
pub trait Fresh {
    /// A new, empty database; `name` only helps to tell it apart.
    fn new(name: &str) -> Self;
    /// A store on it (each call: another store, as another process would open).
    fn open(&self) -> Store;
}

fn unique(name: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let name: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
        .take(30)
        .collect();
    format!("{}_{}_{name}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A directory under the system temp dir for a SQLite store.
pub struct FreshSqlite(PathBuf);

impl FreshSqlite {
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Fresh for FreshSqlite {
    fn new(name: &str) -> FreshSqlite {
        let path = std::env::temp_dir().join(format!("yoo-storage-{}", unique(name)));
        let _ = std::fs::remove_dir_all(&path);
        FreshSqlite(path)
    }

    fn open(&self) -> Store {
        Store::open_sqlite(&self.0).expect("open sqlite store")
    }
}

impl Drop for FreshSqlite {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The server tests create their databases on: `YOO_TEST_POSTGRES`, else the machine's.
pub fn postgres_server() -> String {
    std::env::var("YOO_TEST_POSTGRES").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// A database of its own on the test server.
pub struct FreshPostgres {
    name: String,
    url: String,
}

impl FreshPostgres {
    /// The database's url, for a store opened elsewhere (another process, a command).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Runs `sql` as it is on this database (a test's own changes behind the store's back).
    pub fn execute(&self, sql: &str) {
        run_on(&self.url, sql);
    }

    /// Runs `sql` on the server's maintenance database.
    fn admin(sql: &str) {
        run_on(&postgres_server(), sql);
    }
}

/// Runs `sql` on the database at `url`, on a thread of its own (the blocking client may not run
/// on an async test's thread), and panics with the statement if it fails.
fn run_on(url: &str, sql: &str) {
    let (url, sql) = (url.to_owned(), sql.to_owned());
    std::thread::spawn(move || {
        let pool = crate::sql::pg::Pool::connect(&url, 2).unwrap_or_else(|e| panic!("connect to {url}: {e}"));
        pool.get().and_then(|mut c| c.batch(&sql)).unwrap_or_else(|e| panic!("{sql}: {e}"));
    })
    .join()
    .expect("the test database answers");
}

impl Fresh for FreshPostgres {
    fn new(name: &str) -> FreshPostgres {
        let name = format!("yoo_test_{}", unique(name));
        FreshPostgres::admin(&format!("CREATE DATABASE {name}"));
        let server = postgres_server();
        let base = server.rsplit_once('/').map_or(server.as_str(), |(base, _)| base);
        FreshPostgres {
            url: format!("{base}/{name}"),
            name,
        }
    }

    fn open(&self) -> Store {
        Store::open_postgres(&self.url, 8).expect("open postgres store")
    }
}

impl Drop for FreshPostgres {
    fn drop(&mut self) {
        FreshPostgres::admin(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name));
    }
}
