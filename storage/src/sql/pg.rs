//! The PostgreSQL engine under [`super::Conn`]: tokio-postgres connections through its blocking
//! client (`postgres`), in a pool of the store's own.
//!
//! The repository traits are synchronous and run on the caller's blocking threads
//! (`spawn_blocking`). The blocking client drives its connection on the calling thread, so a
//! statement costs one round trip to the server and no hop between threads (the first version
//! handed every statement to a runtime of the store's own and waited: twice the latency per
//! statement, BENCHMARKS.md). Statements are rewritten once (`dialect::to_pg`, cached) and
//! prepared once per connection.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use bytes::BytesMut;
use parking_lot::{Condvar, Mutex};
use postgres::error::SqlState;
use postgres::types::{FromSql, IsNull, ToSql, Type};
use postgres::{NoTls, Statement};

use super::{dialect, Row, Value};
use crate::{Error, Result};

type BoxError = Box<dyn std::error::Error + Sync + Send>;

impl ToSql for Value {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> std::result::Result<IsNull, BoxError> {
        // The server decides each parameter's type from the statement; a value is written as
        // that type where it can be (an integer bound where a boolean or int4 is expected).
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::FLOAT4 => (*i as f32).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => i.to_string().as_str().to_sql(ty, out),
                _ => Err(format!("an integer cannot be sent as {ty}").into()),
            },
            Value::Real(f) => match *ty {
                Type::FLOAT4 => (*f as f32).to_sql(ty, out),
                _ => f.to_sql(&Type::FLOAT8, out),
            },
            Value::Text(s) => match *ty {
                Type::INT8 => s.parse::<i64>()?.to_sql(ty, out),
                _ => s.as_str().to_sql(&Type::TEXT, out),
            },
            Value::Blob(b) => b.as_slice().to_sql(&Type::BYTEA, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

impl<'a> FromSql<'a> for Value {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> std::result::Result<Value, BoxError> {
        Ok(match *ty {
            Type::INT8 => Value::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Value::Int(i32::from_sql(ty, raw)?.into()),
            Type::INT2 => Value::Int(i16::from_sql(ty, raw)?.into()),
            Type::BOOL => Value::Int(bool::from_sql(ty, raw)?.into()),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Value::Real(f32::from_sql(ty, raw)?.into()),
            Type::BYTEA => Value::Blob(<Vec<u8>>::from_sql(ty, raw)?),
            Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => Value::Text(String::from_sql(ty, raw)?),
            _ => return Err(format!("a column of type {ty} is not read by the store").into()),
        })
    }

    fn from_sql_null(_: &Type) -> std::result::Result<Value, BoxError> {
        Ok(Value::Null)
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// A pool of connections to one database, shared by every repository of a store: at most
/// `size` open, handed out one caller at a time, a broken one dropped and replaced.
#[derive(Clone)]
pub(crate) struct Pool(Arc<PoolInner>);

struct PoolInner {
    config: postgres::Config,
    size: usize,
    idle: Mutex<Idle>,
    freed: Condvar,
    /// One write transaction at a time from this process (see [`Pool::retrying`]).
    writer: Mutex<()>,
}

#[derive(Default)]
struct Idle {
    clients: Vec<Pooled>,
    /// Connections open, idle or in use.
    open: usize,
}

/// A blocking client owns a small runtime, which may not be dropped on an async thread (a
/// store can be dropped on one): clients that go are dropped on a thread of their own.
fn discard(clients: Vec<Pooled>) {
    if !clients.is_empty() {
        let _ = std::thread::Builder::new()
            .name("yoo-postgres-close".into())
            .spawn(move || drop(clients));
    }
}

impl Drop for PoolInner {
    fn drop(&mut self) {
        discard(std::mem::take(&mut self.idle.get_mut().clients));
    }
}

/// A connection with the statements prepared on it.
struct Pooled {
    client: postgres::Client,
    statements: HashMap<(Arc<str>, Vec<Type>), Statement>,
}

/// How many times a transaction the server could not serialize is run again.
const RETRIES: u32 = 50;
/// How long a caller waits for a connection when all are in use.
const WAIT: Duration = Duration::from_secs(30);
/// Prepared statements kept per connection (cleared when full).
const STATEMENTS: usize = 1024;

impl Pool {
    /// Connects to `url` (`postgres://user@host:port/db`) with at most `size` connections.
    pub(crate) fn connect(url: &str, size: usize) -> Result<Pool> {
        let mut config: postgres::Config = url.parse().map_err(|e| Error::Backend(format!("postgres url: {e}")))?;
        config.connect_timeout(Duration::from_secs(10));
        let pool = Pool(Arc::new(PoolInner {
            config,
            // Two at least: opening holds one for its lock while migrating on another.
            size: size.max(2),
            idle: Mutex::default(),
            freed: Condvar::new(),
            writer: Mutex::new(()),
        }));
        // Fail now, with the reason, rather than at the first call.
        pool.get()?.execute_batch("SELECT 1")?;
        Ok(pool)
    }

    /// A connection from the pool (waiting for one when all are in use).
    pub(crate) fn get(&self) -> Result<Client> {
        let deadline = Instant::now() + WAIT;
        let mut idle = self.0.idle.lock();
        loop {
            while let Some(p) = idle.clients.pop() {
                if p.client.is_closed() {
                    idle.open -= 1;
                    discard(vec![p]);
                    continue;
                }
                return Ok(self.client(p));
            }
            if idle.open < self.0.size {
                idle.open += 1;
                drop(idle);
                return match self.0.config.connect(NoTls) {
                    Ok(client) => Ok(self.client(Pooled {
                        client,
                        statements: HashMap::new(),
                    })),
                    Err(e) => {
                        self.0.idle.lock().open -= 1;
                        self.0.freed.notify_one();
                        Err(Error::Backend(format!("postgres connection: {e}")))
                    }
                };
            }
            if self.0.freed.wait_until(&mut idle, deadline).timed_out() {
                return Err(Error::Backend(format!("no postgres connection free within {WAIT:?}")));
            }
        }
    }

    fn client(&self, pooled: Pooled) -> Client {
        Client {
            pooled: Some(pooled),
            pool: self.0.clone(),
            retryable: false,
            in_tx: false,
        }
    }

    /// Runs `attempt` until it succeeds, fails for good, or runs out of retries; `attempt`
    /// returns its outcome and whether a failure was the server's serialization failure.
    ///
    /// The writes of one process run one at a time, as SQLite's do: SERIALIZABLE keeps them
    /// right whatever runs beside them, but concurrent writers of one process would mostly
    /// collide on PostgreSQL's page-level predicate locks (two inserts into one index page
    /// conflict though they touch different rows) and spend their time in retries
    /// (BENCHMARKS.md); so only other processes' writes can make one retry.
    pub(super) fn retrying<T>(&self, mut attempt: impl FnMut() -> Result<(Result<T>, bool)>) -> Result<T> {
        let _one_writer = self.0.writer.lock();
        let mut tries = 0;
        loop {
            let (out, retryable) = attempt()?;
            if out.is_ok() || !retryable || tries >= RETRIES {
                return out;
            }
            tries += 1;
            metrics::counter!("yoo_store_retries_total").increment(1);
            // Apart, so that the same transactions do not collide again at once.
            let spread = rand::random::<u64>() % (1 + u64::from(tries.min(10)) * 2);
            std::thread::sleep(Duration::from_millis(spread));
        }
    }
}

/// One pooled connection in use, back to the pool when dropped. A connection dropped inside a
/// transaction (a panic on the way) is closed rather than handed to the next caller half-way
/// through.
pub(crate) struct Client {
    pooled: Option<Pooled>,
    pool: Arc<PoolInner>,
    retryable: bool,
    in_tx: bool,
}

impl Drop for Client {
    fn drop(&mut self) {
        let Some(p) = self.pooled.take() else { return };
        let mut idle = self.pool.idle.lock();
        if self.in_tx || p.client.is_closed() {
            idle.open -= 1;
            drop(idle);
            discard(vec![p]);
        } else {
            idle.clients.push(p);
            drop(idle);
        }
        self.pool.freed.notify_one();
    }
}

/// Rewritten statements by their SQLite text (bounded: cleared when it grows past its size).
fn translated(sql: &str) -> Arc<str> {
    static CACHE: OnceLock<parking_lot::Mutex<HashMap<String, Arc<str>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(t) = cache.lock().get(sql) {
        return t.clone();
    }
    let t: Arc<str> = dialect::to_pg(sql).into();
    let mut cache = cache.lock();
    if cache.len() >= 4096 {
        cache.clear();
    }
    cache.insert(sql.to_owned(), t.clone());
    t
}

fn refs(params: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}

/// The parameters' types as the values give them (SQLite's way: a value has a type, a
/// parameter has none), so that the server need not guess them from the statement, which it
/// cannot for `?4 - ?2`. A null is left for the server to infer (type 0).
fn param_types(params: &[Value]) -> Vec<Type> {
    static UNSPECIFIED: OnceLock<Type> = OnceLock::new();
    params
        .iter()
        .map(|p| match p {
            Value::Null => UNSPECIFIED
                .get_or_init(|| Type::new("unspecified".to_owned(), 0, postgres::types::Kind::Pseudo, String::new()))
                .clone(),
            Value::Int(_) => Type::INT8,
            Value::Real(_) => Type::FLOAT8,
            Value::Text(_) => Type::TEXT,
            Value::Blob(_) => Type::BYTEA,
        })
        .collect()
}

/// The schema text of a migration, rewritten for PostgreSQL.
pub(crate) fn schema(sql: &str) -> String {
    dialect::schema_to_pg(sql)
}

impl Client {
    fn pooled(&mut self) -> &mut Pooled {
        self.pooled.as_mut().expect("a client holds its connection until dropped")
    }

    pub(super) fn retryable(&self) -> bool {
        self.retryable
    }

    fn failed(&mut self, e: postgres::Error) -> Error {
        let code = e.code().cloned();
        let text = match e.as_db_error() {
            Some(db) => format!("{}: {}", db.code().code(), db.message()),
            None => e.to_string(),
        };
        match code {
            Some(c) if c == SqlState::T_R_SERIALIZATION_FAILURE || c == SqlState::T_R_DEADLOCK_DETECTED => {
                self.retryable = true;
                Error::Backend(text)
            }
            Some(c)
                if c == SqlState::UNIQUE_VIOLATION
                    || c == SqlState::FOREIGN_KEY_VIOLATION
                    || c == SqlState::CHECK_VIOLATION
                    || c == SqlState::NOT_NULL_VIOLATION
                    || c == SqlState::EXCLUSION_VIOLATION =>
            {
                Error::Conflict(text)
            }
            _ => Error::Backend(text),
        }
    }

    /// Runs statements as they are (no rewriting, no transaction of their own).
    #[cfg(any(test, feature = "conformance"))]
    pub(crate) fn batch(&mut self, sql: &str) -> Result<()> {
        self.execute_batch(sql)
    }

    pub(super) fn execute_batch(&mut self, sql: &str) -> Result<()> {
        let upper = sql.trim_start().get(..6).unwrap_or("").to_ascii_uppercase();
        match self.pooled().client.batch_execute(sql) {
            Ok(()) => {
                match upper.as_str() {
                    "BEGIN " => self.in_tx = true,
                    "COMMIT" | "ROLLBA" => self.in_tx = false,
                    _ => {}
                }
                Ok(())
            }
            Err(e) => Err(self.failed(e)),
        }
    }

    /// The statement of `sql` (rewritten) for these parameters, prepared once per connection.
    fn prepared(&mut self, sql: &str, params: &[Value]) -> std::result::Result<Statement, postgres::Error> {
        let key = (translated(sql), param_types(params));
        let p = self.pooled();
        if let Some(s) = p.statements.get(&key) {
            return Ok(s.clone());
        }
        let s = p.client.prepare_typed(&key.0, &key.1)?;
        if p.statements.len() >= STATEMENTS {
            p.statements.clear();
        }
        p.statements.insert(key, s.clone());
        Ok(s)
    }

    pub(super) fn execute(&mut self, sql: &str, params: &[Value]) -> Result<usize> {
        let out = self
            .prepared(sql, params)
            .and_then(|stmt| self.pooled().client.execute(&stmt, &refs(params)));
        match out {
            Ok(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
            Err(e) => Err(self.failed(e)),
        }
    }

    /// The first row (the server sends them all; the rest are dropped).
    pub(super) fn first(&mut self, sql: &str, params: &[Value]) -> Result<Option<Row>> {
        Ok(self.rows(sql, params)?.into_iter().next())
    }

    pub(super) fn rows(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>> {
        let out = self
            .prepared(sql, params)
            .and_then(|stmt| self.pooled().client.query(&stmt, &refs(params)));
        let rows = match out {
            Ok(rows) => rows,
            Err(e) => return Err(self.failed(e)),
        };
        rows.iter()
            .map(|row| {
                (0..row.len())
                    .map(|i| {
                        row.try_get::<_, Value>(i)
                            .map_err(|e| Error::Backend(format!("read column {i}: {e}")))
                    })
                    .collect::<Result<Vec<_>>>()
                    .map(Row)
            })
            .collect()
    }
}
