//! Values as both engines see them: what a parameter binds and what a column holds.

use crate::{Error, Result};

/// One SQL value. Booleans are integers (0, 1) on both engines, as SQLite stores them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// What can be bound as a parameter.
pub(crate) trait ToValue {
    fn to_value(&self) -> Value;
}

macro_rules! int_to_value {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::Int(i64::from(*self))
            }
        }
    )*};
}
int_to_value!(i64, i32, i16, u32, u16, u8);

impl ToValue for u64 {
    fn to_value(&self) -> Value {
        // Counts and limits: none comes near i64::MAX; saturate rather than wrap if one did.
        Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl ToValue for usize {
    fn to_value(&self) -> Value {
        Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Int(i64::from(*self))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::Real(*self)
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::Text(self.to_owned())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> Value {
        Value::Blob(self.to_vec())
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> Value {
        Value::Blob(self.clone())
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        match self {
            Some(v) => v.to_value(),
            None => Value::Null,
        }
    }
}

/// A statement's parameters: `params![...]`, an array of one type, or `[]`/`()` for none.
pub(crate) trait Params {
    fn values(&self) -> Vec<Value>;
}

impl Params for () {
    fn values(&self) -> Vec<Value> {
        Vec::new()
    }
}

impl Params for &[&dyn ToValue] {
    fn values(&self) -> Vec<Value> {
        self.iter().map(|p| p.to_value()).collect()
    }
}

impl<T: ToValue, const N: usize> Params for [T; N] {
    fn values(&self) -> Vec<Value> {
        self.iter().map(ToValue::to_value).collect()
    }
}

impl Params for Vec<Value> {
    fn values(&self) -> Vec<Value> {
        self.clone()
    }
}

/// What a column can be read as.
pub(crate) trait FromValue: Sized {
    fn from_value(v: &Value) -> Result<Self>;
}

fn mismatch<T>(v: &Value, want: &str) -> Result<T> {
    Err(Error::Backend(format!("column holds {v:?}, {want} expected")))
}

impl FromValue for i64 {
    fn from_value(v: &Value) -> Result<i64> {
        match v {
            Value::Int(i) => Ok(*i),
            other => mismatch(other, "an integer"),
        }
    }
}

macro_rules! int_from_value {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: &Value) -> Result<$t> {
                let i = i64::from_value(v)?;
                <$t>::try_from(i).map_err(|_| Error::Backend(format!("{i} out of range of {}", stringify!($t))))
            }
        }
    )*};
}
int_from_value!(i32, i16, u32, u16, u8, u64, usize);

impl FromValue for bool {
    fn from_value(v: &Value) -> Result<bool> {
        Ok(i64::from_value(v)? != 0)
    }
}

impl FromValue for f64 {
    fn from_value(v: &Value) -> Result<f64> {
        match v {
            Value::Real(f) => Ok(*f),
            // Integral values in a REAL column, as SQLite may hand them back.
            Value::Int(i) => Ok(*i as f64),
            other => mismatch(other, "a number"),
        }
    }
}

impl FromValue for String {
    fn from_value(v: &Value) -> Result<String> {
        match v {
            Value::Text(s) => Ok(s.clone()),
            other => mismatch(other, "text"),
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(v: &Value) -> Result<Vec<u8>> {
        match v {
            Value::Blob(b) => Ok(b.clone()),
            other => mismatch(other, "bytes"),
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: &Value) -> Result<Option<T>> {
        match v {
            Value::Null => Ok(None),
            other => T::from_value(other).map(Some),
        }
    }
}

/// One row of a result, owned.
#[derive(Debug, Clone)]
pub(crate) struct Row(pub(crate) Vec<Value>);

impl Row {
    /// Column `i` (0-based) read as `T`. (Two type parameters, as the repositories spell
    /// `get::<_, T>`.)
    pub(crate) fn get<I: RowIndex, T: FromValue>(&self, i: I) -> Result<T> {
        let i = i.index();
        match self.0.get(i) {
            Some(v) => T::from_value(v),
            None => Err(Error::Backend(format!("no column {i} in a row of {}", self.0.len()))),
        }
    }
}

/// A column's place in a row (a `usize`, so that a literal `row.get(0)` needs no suffix).
pub(crate) trait RowIndex {
    fn index(self) -> usize;
}

impl RowIndex for usize {
    fn index(self) -> usize {
        self
    }
}
