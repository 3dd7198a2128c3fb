//! The PostgreSQL engine under [`super::Conn`]: tokio-postgres connections in a deadpool pool,
//! driven by a small runtime of the store's own.
//!
//! The repository traits are synchronous and run on the caller's blocking threads
//! (`spawn_blocking`), so each statement is handed to the store's runtime and waited for; the
//! connections' I/O tasks live on that runtime and never on the caller's. Statements are
//! rewritten once (`dialect::to_pg`, cached) and prepared once per connection.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use bytes::BytesMut;
use deadpool_postgres::{Manager, ManagerConfig, Object, RecyclingMethod};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{FromSql, IsNull, ToSql, Type};
use tokio_postgres::NoTls;

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

    tokio_postgres::types::to_sql_checked!();
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

/// The store's runtime; shut down without waiting when the last pool handle goes, which may
/// happen on an async thread (where dropping a runtime would panic).
struct Rt(Option<tokio::runtime::Runtime>);

impl Rt {
    fn block_on<F: std::future::Future>(&self, f: F) -> F::Output {
        self.0.as_ref().expect("runtime lives until drop").block_on(f)
    }
}

impl Drop for Rt {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            rt.shutdown_background();
        }
    }
}

/// A pool of connections to one database, shared by every repository of a store.
#[derive(Clone)]
pub(crate) struct Pool {
    pool: deadpool_postgres::Pool,
    rt: Arc<Rt>,
}

/// How many times a transaction the server could not serialize is run again.
const RETRIES: u32 = 50;

impl Pool {
    /// Connects to `url` (`postgres://user@host:port/db`) with at most `size` connections.
    pub(crate) fn connect(url: &str, size: usize) -> Result<Pool> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| Error::Backend(format!("postgres url: {e}")))?;
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("yoo-postgres")
            .enable_all()
            .build()
            .map_err(|e| Error::Backend(format!("postgres runtime: {e}")))?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = deadpool_postgres::Pool::builder(manager)
            // Two at least: opening holds one for its lock while migrating on another.
            .max_size(size.max(2))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(30)))
            .create_timeout(Some(Duration::from_secs(10)))
            .build()
            .map_err(|e| Error::Backend(format!("postgres pool: {e}")))?;
        let pool = Pool {
            pool,
            rt: Arc::new(Rt(Some(rt))),
        };
        // Fail now, with the reason, rather than at the first call.
        pool.get()?.execute_batch("SELECT 1")?;
        Ok(pool)
    }

    /// A connection from the pool (waiting for one when all are in use).
    pub(crate) fn get(&self) -> Result<Client> {
        let obj = self
            .rt
            .block_on(self.pool.get())
            .map_err(|e| Error::Backend(format!("postgres connection: {e}")))?;
        Ok(Client {
            obj: Some(obj),
            rt: self.rt.clone(),
            retryable: false,
            in_tx: false,
        })
    }

    /// Runs `attempt` until it succeeds, fails for good, or runs out of retries; `attempt`
    /// returns its outcome and whether a failure was the server's serialization failure.
    pub(super) fn retrying<T>(&self, mut attempt: impl FnMut() -> Result<(Result<T>, bool)>) -> Result<T> {
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

/// One pooled connection in use. A connection dropped inside a transaction (a panic on the
/// way) is closed rather than handed to the next caller half-way through.
pub(crate) struct Client {
    obj: Option<Object>,
    rt: Arc<Rt>,
    retryable: bool,
    in_tx: bool,
}

impl Drop for Client {
    fn drop(&mut self) {
        if self.in_tx {
            if let Some(obj) = self.obj.take() {
                drop(Object::take(obj));
            }
        }
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

/// The statement of `sql` (rewritten) for these parameters, prepared once per connection.
async fn prepared(obj: &Object, sql: &str, params: &[Value]) -> std::result::Result<tokio_postgres::Statement, tokio_postgres::Error> {
    obj.prepare_typed_cached(&translated(sql), &param_types(params)).await
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
                .get_or_init(|| Type::new("unspecified".to_owned(), 0, tokio_postgres::types::Kind::Pseudo, String::new()))
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
    fn obj(&self) -> &Object {
        self.obj.as_ref().expect("a client holds its connection until dropped")
    }

    pub(super) fn retryable(&self) -> bool {
        self.retryable
    }

    fn failed(&mut self, e: tokio_postgres::Error) -> Error {
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
        let out = self.rt.block_on(self.obj().batch_execute(sql));
        match out {
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

    pub(super) fn execute(&mut self, sql: &str, params: &[Value]) -> Result<usize> {
        let obj = self.obj();
        let out = self
            .rt
            .block_on(async { obj.execute(&prepared(obj, sql, params).await?, &refs(params)).await });
        match out {
            Ok(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
            Err(e) => Err(self.failed(e)),
        }
    }

    pub(super) fn rows(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>> {
        let obj = self.obj();
        let out = self
            .rt
            .block_on(async { obj.query(&prepared(obj, sql, params).await?, &refs(params)).await });
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
