//! The JSON shapes every feature shares: an id and a yes/no as the client may send them, and the
//! body of a call that takes none. Each feature's own shapes are in its folder's `dto.rs`
//! (`routes::play::dto`, ...); each is a `Serialize` struct that also describes itself
//! (`ToSchema`) in the OpenAPI document, so the frontend's types are generated from these very
//! definitions.

use serde::{Deserialize, Deserializer};
use serde_json::Value;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

/// An id the client may send as a number or a numeric string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Id(pub i64);

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Number(n) => n.as_i64().map(Id).ok_or_else(|| serde::de::Error::custom("id out of range")),
            Value::String(s) => s.trim().parse().map(Id).map_err(|_| serde::de::Error::custom("id is not a number")),
            _ => Err(serde::de::Error::custom("id must be a number")),
        }
    }
}

impl PartialSchema for Id {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                        utoipa::openapi::KnownFormat::Int64,
                    ))),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(r"^\s*[+-]?[0-9]{1,18}\s*$")),
            )
            .description(Some("A number, or a string of one"))
            // the first records of a fresh database (ops/fuzz.sh builds its world so that they
            // are the caller's and their room's)
            .examples([serde_json::json!(1), serde_json::json!(2)])
            .into()
    }
}

impl ToSchema for Id {}

/// A yes/no the client may send as 1/0, true/false, or "1"/"0" (the spec's `isShow`,
/// `isUpdatePass`, `force`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flag(pub bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Bool(b) => Ok(Flag(b)),
            Value::Number(n) if n.as_i64() == Some(0) => Ok(Flag(false)),
            Value::Number(n) if n.as_i64() == Some(1) => Ok(Flag(true)),
            Value::String(s) if s.trim() == "0" => Ok(Flag(false)),
            Value::String(s) if s.trim() == "1" => Ok(Flag(true)),
            _ => Err(serde::de::Error::custom("a flag is 0 or 1")),
        }
    }
}

impl PartialSchema for Flag {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Integer).enum_values(Some([0, 1])))
            .item(ObjectBuilder::new().schema_type(Type::Boolean))
            .description(Some("1/0 or true/false"))
            .examples([serde_json::json!(1)])
            .into()
    }
}

impl ToSchema for Flag {}

/// The body of a call that takes none: anything.
#[derive(ToSchema)]
pub struct Empty {}

/// A type's entry in the OpenAPI document's components: its name and its schema (for shapes no
/// route names, such as the data of pushed frames).
pub fn component<T: utoipa::ToSchema + utoipa::PartialSchema>() -> (String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    (T::name().into_owned(), T::schema())
}

/// An OpenAPI link a feature declares beside its routes: an answer of the operation `from` with
/// HTTP status `status` gives the value the operation `to` needs (a runtime expression such as
/// `$response.body#/data/id` for a body field or a query parameter). The OpenAPI assembly puts it
/// in that response of `from`; clients and Schemathesis's stateful phase follow it.
pub struct ResponseLink {
    pub from: &'static str,
    /// "200", or a refusal's status whose data names the resource (a start refused because a
    /// game already runs names that session).
    pub status: &'static str,
    pub to: &'static str,
    /// Body fields of `to`, each with its expression.
    pub body: &'static [(&'static str, &'static str)],
    /// Query or path parameters of `to`, each with its expression.
    pub parameters: &'static [(&'static str, &'static str)],
}
