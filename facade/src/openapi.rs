//! The OpenAPI 3.1 document of the REST facade, generated from the handlers' `#[utoipa::path]`
//! annotations and the `ToSchema` types of the feature folders' `dto.rs` and handlers, collected
//! from the very route table the server runs (`routes::table`, through `utoipa_actix_web`): a
//! routed path cannot be missing from it. Each
//! operation lists its refusals per HTTP status (the refusal envelope with the `code`s of that
//! status) and all of them in `x-codes`, computed from `envelope::refusal`.
//!
//! Served at `GET /api/openapi.json`; `yoo-server --print-openapi` prints it (the frontend's
//! types are generated from that output). Its route list also answers 405 for a documented path
//! asked with another method (`method_not_allowed`). Part of the assembly: it imports the routes,
//! no route imports it.

use actix_web::http::Method;
use actix_web::{get, web, HttpResponse, ResponseError};
use serde_json::Value;
use std::collections::HashMap;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::openapi::{ComponentsBuilder, InfoBuilder, OpenApi, OpenApiBuilder, RefOr};
use utoipa_actix_web::AppExt;

use crate::envelope::{self, ApiError};
use crate::routes;

/// The document of the routes a server in this mode answers (`dev`: with the dev-only paths).
pub fn document(dev: bool) -> OpenApi {
    let app = actix_web::App::new()
        .into_utoipa_app()
        .openapi(base())
        .service(serve)
        .configure(routes::table);
    let app = if dev { app.configure(routes::dev_table) } else { app };
    let (_, mut api) = app.split_for_parts();
    collect_codes(&mut api);
    push_codes(&mut api);
    add_links(&mut api, &routes::links());
    api
}

/// Puts each feature's links in the response of the operation they start from (200, or the
/// refusal's status they name), named after the operation they lead to. A link naming an operation the document lacks is a programming
/// error (`every_link_names_operations_of_the_document`).
fn add_links(api: &mut OpenApi, links: &[crate::dto::ResponseLink]) {
    use utoipa::openapi::link::LinkBuilder;
    for link in links {
        let Some(op) = operations_mut(api).find(|op| op.operation_id.as_deref() == Some(link.from)) else {
            continue;
        };
        let Some(RefOr::T(ok)) = op.responses.responses.get_mut(link.status) else {
            continue;
        };
        let mut built = LinkBuilder::new().operation_id(link.to);
        for (name, expression) in link.parameters {
            built = built.parameter(*name, *expression);
        }
        if !link.body.is_empty() {
            let body: serde_json::Map<String, Value> = link.body.iter().map(|(k, v)| ((*k).to_string(), Value::from(*v))).collect();
            built = built.request_body(Some(Value::Object(body)));
        }
        ok.links.insert(link.to.to_string(), RefOr::T(built.build()));
    }
}

/// Every operation of the document.
fn operations_mut(api: &mut OpenApi) -> impl Iterator<Item = &mut utoipa::openapi::path::Operation> {
    api.paths.paths.values_mut().flat_map(|item| {
        [
            item.get.as_mut(),
            item.post.as_mut(),
            item.put.as_mut(),
            item.delete.as_mut(),
            item.patch.as_mut(),
        ]
        .into_iter()
        .flatten()
    })
}

/// The codes the client switches on, from the server's own lists, in the document's
/// `x-push-codes` (the frontend's `src/gen/codes.ts` is generated from it): every notification
/// code and room event code with its name and the schema of its data (none for a notification
/// this server does not send), the session statuses and the queue lanes.
fn push_codes(api: &mut OpenApi) {
    use actors::play::lanes::ALL_LANES;
    use actors::view::Status;
    let entry = |name: &str, code: i32, data: Option<&str>| serde_json::json!({"name": name, "code": code, "data": data});
    let notifications: Vec<Value> = actors::view::NOTIFICATION_CODES
        .iter()
        .map(|(code, name)| entry(name, *code, routes::play::notices::data_schema(*code)))
        .collect();
    let events: Vec<Value> = actors::rooms::events::EVENT_CODES
        .iter()
        .map(|(code, name)| entry(name, *code, Some(routes::rooms::events::data_schema(*code))))
        .collect();
    let statuses: Vec<Value> = [Status::Queue, Status::Ready, Status::Connecting, Status::Playing]
        .into_iter()
        .map(|s| entry(&format!("{s:?}").to_uppercase(), s as i32, None))
        .collect();
    let lanes: Vec<Value> = ALL_LANES
        .into_iter()
        .map(|l| entry(&l.label().to_uppercase(), l.code(), None))
        .collect();
    let codes = serde_json::json!({
        "NotificationCode": notifications,
        "RoomEventCode": events,
        "GameStatus": statuses,
        "Lane": lanes,
    });
    let ext = ExtensionsBuilder::new().add("x-push-codes", codes).build();
    match api.extensions.as_mut() {
        Some(e) => e.merge(ext),
        None => api.extensions = Some(ext),
    }
}

fn base() -> OpenApi {
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("yoo REST API")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(
                    "Every JSON answer is the envelope {code, message, data, ts}: code 0 is success; a refusal has its code, \
                     the spec's Chinese message and an HTTP status (each operation lists its codes per status and in x-codes). \
                     A logged-in call (cookie yoo_sid) that changes state carries x-csrf-token = the _csrfToken cookie. \
                     See facade/API.md.",
                )),
        )
        .components(Some(
            ComponentsBuilder::new()
                .security_scheme("session", SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new("yoo_sid"))))
                .security_scheme("csrf", SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("x-csrf-token"))))
                // shapes the client reads outside a route's answer: a refusal's data, a socket
                // frame's value
                .schema_from::<envelope::Forbidden>()
                .schema_from::<envelope::BanData>()
                // the common config's member_expire, a JSON string of a list of these
                .schema_from::<routes::commerce::member::MemberExpire>()
                // a game tip's tipExt, a JSON string of this
                .schema_from::<routes::play::tips::TipAdDto>()
                // a socket frame's data, by its code (`x-push-codes`)
                .schema_from::<routes::play::dto::GameStateDto>()
                .schemas_from_iter(routes::play::notices::schemas())
                .schemas_from_iter(routes::rooms::events::schemas())
                // the user-agent markers of the product's own apps (the browser check's)
                .schema(
                    "OwnAppMarker",
                    utoipa::openapi::ObjectBuilder::new()
                        .schema_type(utoipa::openapi::schema::Type::String)
                        .enum_values(Some(actors::activity::ads::OWN_APP_MARKERS))
                        .description(Some("What the user agent of the product's own apps' web views carries")),
                )
                .build(),
        ))
        .build()
}

/// Puts every refusal code of an operation in its `x-codes` extension (code, message, cause).
fn collect_codes(api: &mut OpenApi) {
    for item in api.paths.paths.values_mut() {
        let ops = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
        ];
        for op in ops.into_iter().flatten() {
            let mut codes: Vec<Value> = Vec::new();
            for response in op.responses.responses.values_mut() {
                let RefOr::T(r) = response else { continue };
                if r.description.is_empty() {
                    r.description = "success".into();
                }
                if let Some(Value::Array(list)) = r.extensions.as_ref().and_then(|e| e.get("x-codes")) {
                    codes.extend(list.iter().cloned());
                }
            }
            if !codes.is_empty() {
                let ext = ExtensionsBuilder::new().add("x-codes", Value::Array(codes)).build();
                match op.extensions.as_mut() {
                    Some(e) => e.merge(ext),
                    None => op.extensions = Some(ext),
                }
            }
        }
    }
}

/// The served document, serialized once at start, and the methods each documented path answers.
/// Every request asks (`method_not_allowed`), so the literal paths are one hash lookup and only
/// the paths with a `{x}` segment are scanned, in the document's (sorted) order.
pub struct Document {
    pub json: String,
    literal: HashMap<String, Vec<Method>>,
    templated: Vec<(Vec<String>, Vec<Method>)>,
}

impl Document {
    pub fn new(api: &OpenApi) -> Result<Document, String> {
        let mut literal = HashMap::new();
        let mut templated = Vec::new();
        for (path, item) in &api.paths.paths {
            let methods = [
                (item.get.is_some(), Method::GET),
                (item.post.is_some(), Method::POST),
                (item.put.is_some(), Method::PUT),
                (item.delete.is_some(), Method::DELETE),
                (item.patch.is_some(), Method::PATCH),
            ];
            let methods: Vec<Method> = methods.into_iter().filter(|(on, _)| *on).map(|(_, m)| m).collect();
            if path.contains('{') {
                templated.push((path.split('/').map(str::to_string).collect(), methods));
            } else {
                literal.insert(path.clone(), methods);
            }
        }
        Ok(Document {
            json: api.to_json().map_err(|e| e.to_string())?,
            literal,
            templated,
        })
    }

    /// The methods the documented path matching `path` answers, if one matches (`{x}` matches
    /// any one non-empty segment; a literal path wins over a template).
    pub fn allowed(&self, path: &str) -> Option<&[Method]> {
        if let Some(methods) = self.literal.get(path) {
            return Some(methods);
        }
        let asked: Vec<&str> = path.split('/').collect();
        self.templated
            .iter()
            .find(|(template, _)| {
                template.len() == asked.len()
                    && template
                        .iter()
                        .zip(&asked)
                        .all(|(t, a)| t == a || (t.starts_with('{') && !a.is_empty()))
            })
            .map(|(_, methods)| methods.as_slice())
    }
}

/// This document.
#[utoipa::path(responses((status = 200, description = "The OpenAPI 3.1 document", body = Object)))]
#[get("/api/openapi.json")]
pub async fn serve(doc: web::Data<Document>) -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(doc.json.clone())
}

/// A documented path asked with a method it does not answer (HEAD included) gets the envelope
/// 40005 with HTTP 405 and `Allow`, before any handler runs. (actix puts a handler's method on
/// its resource, so without this such a call fell through to the 40004 of unknown paths.)
pub async fn method_not_allowed(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let refused = req.app_data::<actix_web::web::Data<Document>>().and_then(|doc| {
        let allowed = doc.allowed(req.path())?;
        (!allowed.contains(req.method())).then(|| allowed.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(", "))
    });
    match refused {
        None => Ok(next.call(req).await?.map_into_boxed_body()),
        Some(allow) => {
            let mut answer = ApiError::method_not_allowed().error_response();
            if let Ok(v) = actix_web::http::header::HeaderValue::from_str(&allow) {
                answer.headers_mut().insert(actix_web::http::header::ALLOW, v);
            }
            Ok(req.into_response(answer))
        }
    }
}

#[cfg(test)]
mod tests {
    // The methods of a documented path: a literal path by its name, a templated one segment by
    // segment (an empty segment fills no `{x}`), nothing for an undocumented path.
    #[test]
    fn allowed_finds_literal_and_templated_paths() {
        use actix_web::http::Method;
        let doc = super::Document::new(&super::document(true)).unwrap();
        assert_eq!(doc.allowed("/api/japi/yoo/game/floatBall"), Some(&[Method::POST][..]));
        assert_eq!(doc.allowed("/api/node/7/ping"), Some(&[Method::GET][..]));
        assert_eq!(doc.allowed("/api/payment/notify/sandbox"), Some(&[Method::POST][..]));
        assert_eq!(doc.allowed("/api/node//ping"), None);
        assert_eq!(doc.allowed("/api/node/7/ping/more"), None);
        assert_eq!(doc.allowed("/api/no/such/path"), None);
    }

    // Every operation has its own operationId (the frontend's type generator refuses a document
    // where two handlers share a function name): handlers of the same name in two route files
    // set one.
    #[test]
    fn operation_ids_are_unique() {
        let doc = serde_json::to_value(super::document(true)).unwrap();
        let mut ids: Vec<&str> = doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .filter_map(|op| op["operationId"].as_str())
            .collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate operationIds");
    }

    // Each link starts from an operation of the document, in its 200 response, and leads to an
    // operation of the document whose body or parameters have the fields it fills.
    #[test]
    fn every_link_names_operations_of_the_document() {
        let links = crate::routes::links();
        assert!(!links.is_empty());
        let doc = serde_json::to_value(super::document(true)).unwrap();
        let ops: Vec<&serde_json::Value> = doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .collect();
        let op = |id: &str| {
            *ops.iter()
                .find(|op| op["operationId"] == id)
                .unwrap_or_else(|| panic!("no operation {id}"))
        };
        let schemas = &doc["components"]["schemas"];
        for link in &links {
            let placed = &op(link.from)["responses"][link.status]["links"][link.to];
            assert_eq!(placed["operationId"], link.to, "{} → {}", link.from, link.to);
            let to = op(link.to);
            for (field, _) in link.body {
                let body = &to["requestBody"]["content"]["application/json"]["schema"]["$ref"];
                let name = body.as_str().unwrap().rsplit('/').next().unwrap();
                assert!(
                    schemas[name]["properties"].get(*field).is_some(),
                    "{} has no body field {field}",
                    link.to
                );
            }
            for (name, _) in link.parameters {
                let params = to["parameters"].as_array().unwrap();
                assert!(params.iter().any(|p| p["name"] == *name), "{} has no parameter {name}", link.to);
            }
        }
    }
}
