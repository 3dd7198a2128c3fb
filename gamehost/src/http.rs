//! The host's HTTP side: `GET /stream?ticket=` (the WebSocket of a slot's picture and its
//! player's input), `GET /ping` (the node's latency probe, for any origin) and `GET /metrics`.
//!
//! A stream is opened only with a ticket the platform signed with the node's secret, that has
//! not expired, names this node and host, and names the session the slot serves now; anything
//! else is answered 403 with `{code, message, reason}` before the upgrade.

use std::sync::Arc;

use actix_web::body::{BodyStream, MessageBody};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use hostlink::{Ticket, TicketRefusal};
use serde::Deserialize;

use crate::fanout::NotServing;
use crate::host::Host;
use crate::socket::Socket;

/// The code of every ticket refusal (the platform's "request refused"); `reason` says which.
pub const TICKET_REFUSED: i32 = 40003;

#[derive(Deserialize)]
pub struct TicketQuery {
    #[serde(default)]
    ticket: String,
}

/// Why a stream was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Missing,
    Malformed,
    BadSignature,
    Expired,
    /// Another node's or host's ticket.
    OtherHost,
    /// A slot this host does not have.
    NoSuchSlot,
    /// The slot does not serve that session (ended, or another one's).
    NotServing,
}

impl Refusal {
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Missing => "missing",
            Refusal::Malformed => "malformed",
            Refusal::BadSignature => "bad_signature",
            Refusal::Expired => "expired",
            Refusal::OtherHost => "other_host",
            Refusal::NoSuchSlot => "no_such_slot",
            Refusal::NotServing => "not_serving",
        }
    }

    fn message(self) -> &'static str {
        match self {
            Refusal::Expired => "游戏连接已过期，请重新进入游戏",
            Refusal::NotServing => "游戏已结束",
            _ => "游戏连接无效，请重新进入游戏",
        }
    }

    fn response(self) -> HttpResponse {
        metrics::counter!("yoo_gamehost_stream_refused_total", "reason" => self.reason()).increment(1);
        HttpResponse::build(StatusCode::FORBIDDEN)
            .insert_header(("Cache-Control", "no-store"))
            .json(serde_json::json!({
                "code": TICKET_REFUSED,
                "message": self.message(),
                "reason": self.reason(),
            }))
    }
}

/// The ticket's claims, when they hold for this host (the slot's session is checked when the
/// viewer attaches, under the fan-out's lock).
pub fn check_ticket(token: &str, host: &Host, now_ms: i64) -> Result<Ticket, Refusal> {
    if token.is_empty() {
        return Err(Refusal::Missing);
    }
    let c = &host.config;
    let t = Ticket::verify(token, c.secret.as_bytes(), now_ms).map_err(|r| match r {
        TicketRefusal::Malformed => Refusal::Malformed,
        TicketRefusal::BadSignature => Refusal::BadSignature,
        TicketRefusal::Expired => Refusal::Expired,
    })?;
    if t.node_id != c.node_id || t.host != c.host {
        return Err(Refusal::OtherHost);
    }
    if host.slot(t.slot).is_none() {
        return Err(Refusal::NoSuchSlot);
    }
    Ok(t)
}

/// `GET /stream?ticket=`.
pub async fn stream(req: HttpRequest, body: web::Payload, host: web::Data<Arc<Host>>, q: web::Query<TicketQuery>) -> HttpResponse {
    let ticket = match check_ticket(&q.ticket, &host, crate::now_ms()) {
        Ok(t) => t,
        Err(r) => return r.response(),
    };
    let slot = host.slot(ticket.slot).expect("checked");
    // Checked before the upgrade too, so that a plain request learns why it would be refused.
    if !slot.hub.serves(ticket.session_id) {
        return Refusal::NotServing.response();
    }
    let Ok(mut response) = actix_http::ws::handshake(req.head()) else {
        return HttpResponse::BadRequest().json(serde_json::json!({"code": 40000, "message": "需要 WebSocket 连接"}));
    };
    let viewer = match slot.hub.attach(ticket.session_id, ticket.uid) {
        Ok(v) => v,
        Err(NotServing) => return Refusal::NotServing.response(),
    };
    tracing::info!(slot = ticket.slot, session_id = ticket.session_id, uid = ticket.uid, role = ?ticket.role, "viewer joined");
    let socket = Socket::new(slot.clone(), viewer, body.into_inner());
    match response.message_body(BodyStream::new(socket).boxed()) {
        Ok(r) => r.into(),
        Err(_) => HttpResponse::InternalServerError().finish(),
    }
}

/// `GET /ping`: answered at once, for any origin, never cached (the node dialog times it).
pub async fn ping() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Access-Control-Allow-Origin", "*"))
        .insert_header(("Cache-Control", "no-store"))
        .content_type("text/plain")
        .body("pong")
}

/// `OPTIONS /ping`, for a browser that asks first.
pub async fn ping_preflight() -> HttpResponse {
    HttpResponse::NoContent()
        .insert_header(("Access-Control-Allow-Origin", "*"))
        .insert_header(("Access-Control-Allow-Methods", "GET"))
        .insert_header(("Access-Control-Max-Age", "86400"))
        .finish()
}

/// `GET /metrics` (Prometheus text).
pub async fn metrics() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4")
        .body(crate::observe::prometheus().render())
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/stream", web::get().to(stream))
        .route("/ping", web::get().to(ping))
        .route("/ping", web::method(actix_web::http::Method::OPTIONS).to(ping_preflight))
        .route("/metrics", web::get().to(metrics));
}
