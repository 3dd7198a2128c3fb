//! The one SQL interface every repository is written against, and the two engines behind it.
//!
//! A repository holds a [`Db`] and writes its statements once, in the dialect both engines
//! share (SQLite's `?N` parameters; see `dialect` for what is rewritten for PostgreSQL and what
//! must be avoided). [`Db::lock`] hands out a [`Conn`] for reads and single statements;
//! [`Db::write`] runs a closure as one transaction: SQLite's `BEGIN IMMEDIATE` (one writer at a
//! time), PostgreSQL's `SERIALIZABLE`, retried from the start when the server reports a
//! serialization failure or a deadlock. A write that is correct on SQLite's single writer is
//! therefore correct on PostgreSQL, where two pools (two processes) write at once: SERIALIZABLE
//! guarantees an outcome some serial order would give, and the retry replays the closure on the
//! state that order left. So a write closure must have no effect outside the database.
//!
//! Values cross as [`Value`] (null, integer, real, text, blob); rows come back owned. No driver
//! type leaves this module.

mod dialect;
mod lite;
pub(crate) mod pg;
mod value;

use std::cell::RefCell;

use parking_lot::{Mutex, MutexGuard};

pub(crate) use lite::error as lite_error;
pub(crate) use value::{Params, Row, ToValue, Value};

use crate::{Error, Result};

/// `params![a, b, ...]`: the parameters of one statement, bound to `?1`, `?2`, ...
macro_rules! params {
    () => {
        &[] as &[&dyn $crate::sql::ToValue]
    };
    ($($p:expr),+ $(,)?) => {
        &[$(&$p as &dyn $crate::sql::ToValue),+] as &[&dyn $crate::sql::ToValue]
    };
}
pub(crate) use params;

/// One repository's way to its database.
pub(crate) enum Db {
    /// A connection of its own (SQLite: one writer at a time, readers beside it in WAL).
    Lite(Mutex<rusqlite::Connection>),
    /// The shared pool of the PostgreSQL store.
    Pg(pg::Pool),
}

impl Db {
    pub(crate) fn lite(conn: rusqlite::Connection) -> Db {
        Db::Lite(Mutex::new(conn))
    }

    /// A connection for reads and single statements (each its own transaction on PostgreSQL).
    pub(crate) fn lock(&self) -> Result<Conn<'_>> {
        Ok(match self {
            Db::Lite(conn) => Conn(Inner::Lite(conn.lock())),
            Db::Pg(pool) => Conn(Inner::Pg(Box::new(RefCell::new(pool.get()?)))),
        })
    }

    /// Runs `f` as one transaction, committed if it succeeds and rolled back otherwise. On
    /// PostgreSQL it runs SERIALIZABLE and is run again (a bounded number of times) when the
    /// server could not serialize it; `f` must therefore touch nothing but the database.
    ///
    /// Inside [`crate::ownership::fenced`], the transaction first checks the fence: the
    /// ownership row still at the fence's epoch, held until the commit (PostgreSQL `FOR SHARE`;
    /// SQLite's one writer holds everything), else [`Error::Fenced`] and nothing is written.
    pub(crate) fn write<T>(&self, mut f: impl FnMut(&Conn<'_>) -> Result<T>) -> Result<T> {
        match crate::ownership::current() {
            None => self.write_unfenced(f),
            Some(fence) => self.write_unfenced(|tx| {
                let sql = if self.is_pg() {
                    "SELECT epoch FROM ownership WHERE name = ?1 FOR SHARE"
                } else {
                    "SELECT epoch FROM ownership WHERE name = ?1"
                };
                let epoch: Option<i64> = tx.query_row(sql, [&*fence.name], |r| r.get(0)).optional()?;
                if epoch != Some(fence.epoch) {
                    metrics::counter!("yoo_store_fenced_total").increment(1);
                    return Err(Error::Fenced(fence.name.to_string()));
                }
                f(tx)
            }),
        }
    }

    /// [`Db::write`] whatever the thread's fence (the claim that moves it).
    pub(crate) fn write_unfenced<T>(&self, mut f: impl FnMut(&Conn<'_>) -> Result<T>) -> Result<T> {
        match self {
            Db::Lite(conn) => {
                let conn = Conn(Inner::Lite(conn.lock()));
                conn.execute_batch("BEGIN IMMEDIATE")?;
                finish(&conn, f(&conn))
            }
            Db::Pg(pool) => pool.retrying(|| {
                let conn = Conn(Inner::Pg(Box::new(RefCell::new(pool.get()?))));
                conn.execute_batch("BEGIN ISOLATION LEVEL SERIALIZABLE")?;
                let out = finish(&conn, f(&conn));
                Ok((out, conn.pg_retryable()))
            }),
        }
    }

    /// Which engine this is (for the few statements that cannot be written alike).
    pub(crate) fn is_pg(&self) -> bool {
        matches!(self, Db::Pg(_))
    }
}

/// Commits after a successful closure, rolls back after a failed one (its error wins).
fn finish<T>(conn: &Conn<'_>, out: Result<T>) -> Result<T> {
    match out {
        Ok(v) => {
            conn.execute_batch("COMMIT")?;
            Ok(v)
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// A connection in use: a locked SQLite connection or a pooled PostgreSQL client.
pub(crate) struct Conn<'a>(Inner<'a>);

enum Inner<'a> {
    Lite(MutexGuard<'a, rusqlite::Connection>),
    Pg(Box<RefCell<pg::Client>>),
}

impl Conn<'_> {
    /// Runs one statement; returns the rows it changed.
    pub(crate) fn execute(&self, sql: &str, params: impl Params) -> Result<usize> {
        match &self.0 {
            Inner::Lite(c) => lite::execute(c, sql, &params.values()),
            Inner::Pg(c) => c.borrow_mut().execute(sql, &params.values()),
        }
    }

    /// Runs statements without parameters (schema, transaction control).
    pub(crate) fn execute_batch(&self, sql: &str) -> Result<()> {
        match &self.0 {
            Inner::Lite(c) => lite::execute_batch(c, sql),
            Inner::Pg(c) => c.borrow_mut().execute_batch(sql),
        }
    }

    /// Every row of a query.
    pub(crate) fn rows(&self, sql: &str, params: impl Params) -> Result<Vec<Row>> {
        match &self.0 {
            Inner::Lite(c) => lite::rows(c, sql, &params.values()),
            Inner::Pg(c) => c.borrow_mut().rows(sql, &params.values()),
        }
    }

    /// The first row mapped by `f` (the rest are not read); [`Error::NotFound`] when there is
    /// none.
    pub(crate) fn query_row<T>(&self, sql: &str, params: impl Params, f: impl FnOnce(&Row) -> Result<T>) -> Result<T> {
        let first = match &self.0 {
            Inner::Lite(c) => lite::first(c, sql, &params.values())?,
            Inner::Pg(c) => c.borrow_mut().first(sql, &params.values())?,
        };
        match first {
            Some(row) => f(&row),
            None => Err(Error::NotFound),
        }
    }

    /// Every row mapped by `f`, as the iterator `collect` turns into a `Result<Vec<_>>`.
    pub(crate) fn query_map<T>(
        &self,
        sql: &str,
        params: impl Params,
        f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<std::vec::IntoIter<Result<T>>> {
        Ok(self.rows(sql, params)?.iter().map(f).collect::<Vec<_>>().into_iter())
    }

    /// A statement to run (once or many times); PostgreSQL prepares and caches it per
    /// connection, SQLite per connection as well.
    pub(crate) fn prepare_cached(&self, sql: &str) -> Result<Stmt<'_>> {
        Ok(Stmt {
            conn: self,
            sql: sql.to_owned(),
        })
    }

    /// Whether the last statement failed because the server could not serialize the
    /// transaction (PostgreSQL; SQLite's single writer never does).
    fn pg_retryable(&self) -> bool {
        match &self.0 {
            Inner::Lite(_) => false,
            Inner::Pg(c) => c.borrow().retryable(),
        }
    }
}

/// One statement of a [`Conn`], in the shape the repositories were written in.
pub(crate) struct Stmt<'c> {
    conn: &'c Conn<'c>,
    sql: String,
}

impl Stmt<'_> {
    pub(crate) fn execute(&mut self, params: impl Params) -> Result<usize> {
        self.conn.execute(&self.sql, params)
    }

    pub(crate) fn query_row<T>(&mut self, params: impl Params, f: impl FnOnce(&Row) -> Result<T>) -> Result<T> {
        self.conn.query_row(&self.sql, params, f)
    }

    pub(crate) fn query_map<T>(&mut self, params: impl Params, f: impl FnMut(&Row) -> Result<T>) -> Result<std::vec::IntoIter<Result<T>>> {
        self.conn.query_map(&self.sql, params, f)
    }
}

/// `NotFound` as `None`: for queries whose row may be missing.
pub(crate) trait OptionalExt<T> {
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExt<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(Error::NotFound) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// Row counts come back as i64; a negative one would be a backend bug.
pub(crate) fn to_u64(n: i64) -> Result<u64> {
    u64::try_from(n).map_err(|_| Error::Backend(format!("negative count {n}")))
}

/// `a = excluded.a, b = excluded.b, ...` for every column of `columns` (comma-separated) but
/// `key`: the update of an upsert that replaces a whole row.
pub(crate) fn update_all(columns: &str, key: &str) -> String {
    columns
        .split(',')
        .map(str::trim)
        .filter(|c| *c != key)
        .map(|c| format!("{c} = excluded.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}
