//! The SQLite engine under [`super::Conn`]: rusqlite, statements cached per connection.

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ErrorCode};

use super::{Row, Value};
use crate::{Error, Result};

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(*i)),
            Value::Real(f) => ToSqlOutput::Borrowed(ValueRef::Real(*f)),
            Value::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
            Value::Blob(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
        })
    }
}

fn value_of(v: ValueRef<'_>) -> Result<Value> {
    Ok(match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(f) => Value::Real(f),
        ValueRef::Text(t) => Value::Text(String::from_utf8(t.to_vec()).map_err(|e| Error::Backend(format!("text column: {e}")))?),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    })
}

pub(super) fn execute(conn: &Connection, sql: &str, params: &[Value]) -> Result<usize> {
    conn.prepare_cached(sql)
        .and_then(|mut stmt| stmt.execute(rusqlite::params_from_iter(params)))
        .map_err(error)
}

pub(super) fn execute_batch(conn: &Connection, sql: &str) -> Result<()> {
    conn.execute_batch(sql).map_err(error)
}

pub(super) fn rows(conn: &Connection, sql: &str, params: &[Value]) -> Result<Vec<Row>> {
    read(conn, sql, params, usize::MAX)
}

/// The first row only: the statement stops there.
pub(super) fn first(conn: &Connection, sql: &str, params: &[Value]) -> Result<Option<Row>> {
    Ok(read(conn, sql, params, 1)?.pop())
}

fn read(conn: &Connection, sql: &str, params: &[Value], at_most: usize) -> Result<Vec<Row>> {
    let mut stmt = conn.prepare_cached(sql).map_err(error)?;
    let width = stmt.column_count();
    let mut rows = stmt.query(rusqlite::params_from_iter(params)).map_err(error)?;
    let mut out = Vec::new();
    while out.len() < at_most {
        let Some(row) = rows.next().map_err(error)? else { break };
        let mut values = Vec::with_capacity(width);
        for i in 0..width {
            values.push(value_of(row.get_ref(i).map_err(error)?)?);
        }
        out.push(Row(values));
    }
    Ok(out)
}

/// rusqlite's errors as [`Error`]: a broken constraint is a conflict.
pub(crate) fn error(e: rusqlite::Error) -> Error {
    match e {
        rusqlite::Error::QueryReturnedNoRows => Error::NotFound,
        rusqlite::Error::SqliteFailure(failure, message) if failure.code == ErrorCode::ConstraintViolation => {
            Error::Conflict(message.unwrap_or_else(|| failure.to_string()))
        }
        other => Error::Backend(other.to_string()),
    }
}
