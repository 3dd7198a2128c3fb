//! The WebSocket `/echo?access_token=` (core-platform.md §4.10, §7.3).
//!
//! The socket task owns the actix-ws session: it answers PING with PONG, closes a socket silent
//! for 75 s, and writes what the connection actor hands its sink. The sink encodes each push as
//! a protobuf `Envelope` numbered with this connection's offset and epoch.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse};
use actix_ws::Message;
use actors::clock::Clock;
use actors::connection::{ConnMsg, ConnectionSink};
use actors::view::Push;
use futures_util::StreamExt;
use prost::Message as _;
use serde::Deserialize;
use tokio::sync::mpsc;

use crate::envelope::ApiError;
use crate::proto::{Authorization, Envelope, MessageType, Notification};
use crate::{dto, AppState};

/// A socket silent this long is closed (the client pings every 30 s).
const IDLE_LIMIT: Duration = Duration::from_secs(75);
/// USER_GAME_STATUS_CHANGE.
pub const USER_GAME_STATUS_CHANGE: i32 = 130122;

#[derive(Deserialize)]
pub struct TokenQuery {
    #[serde(default)]
    access_token: String,
}

struct Sink {
    /// Frames for the socket task to write; closed when the socket goes.
    tx: mpsc::UnboundedSender<Bytes>,
    offset: AtomicU64,
    epoch: String,
    device_no: String,
    clock: Clock,
}

impl Sink {
    fn frame(&self, kind: MessageType, content: Vec<u8>) -> Bytes {
        let offset = self.offset.fetch_add(1, Ordering::Relaxed) + 1;
        Bytes::from(Envelope { r#type: kind as i32, content, offset, epoch: self.epoch.clone() }.encode_to_vec())
    }
}

impl ConnectionSink for Sink {
    fn push(&self, push: &Push) -> bool {
        let frame = match push {
            Push::GameStatus(state) => {
                let data = dto::game_state_text(state, &self.device_no, self.clock.now_ms());
                let n = Notification { code: USER_GAME_STATUS_CHANGE, content: "USER_GAME_STATUS_CHANGE".into(), data };
                self.frame(MessageType::Notification, n.encode_to_vec())
            }
            Push::Notice { code, data } => {
                let n = Notification { code: *code, content: notice_name(*code).into(), data: data.clone() };
                self.frame(MessageType::Notification, n.encode_to_vec())
            }
            Push::Authorization { status } => {
                let a = Authorization { status: status.to_string(), value: String::new() };
                self.frame(MessageType::Authorization, a.encode_to_vec())
            }
        };
        self.tx.send(frame).is_ok()
    }
}

/// The spec's name of a notification code (core-platform.md §4.11).
fn notice_name(code: i32) -> &'static str {
    match code {
        130123 => "USER_GAME_TIME_NOT_ENOUGH",
        130124 => "USER_GAME_END",
        130125 => "USER_TIME_END",
        _ => "NOTICE",
    }
}

pub async fn echo(req: HttpRequest, body: web::Payload, state: web::Data<AppState>, q: web::Query<TokenQuery>) -> Result<HttpResponse, ApiError> {
    let passport = state.platform.passport();
    let (uid, login_token) = passport.redeem_socket_token(&q.access_token)?;
    let login = passport.authenticate(&login_token).await?;
    let (resp, mut session, stream) = actix_ws::handle(&req, body).map_err(|_| ApiError::bad_request())?;
    let (tx, mut rx) = mpsc::unbounded_channel();
    let sink = Arc::new(Sink {
        tx,
        offset: AtomicU64::new(0),
        epoch: actors::passport::random_hex(8),
        device_no: login.device_no,
        clock: state.platform.clock(),
    });
    let conn = state.platform.connect(uid, sink.clone()).await?;
    // A socket that comes back after a drop first gets the state as it is now: whatever it
    // missed while away (a rank, READY, the end) is in it. The place in the queue never
    // depended on the socket.
    if let Ok(current) = state.platform.game_state(uid).await {
        sink.push(&Push::GameStatus(current));
    }
    metrics::gauge!("yoo_websockets_open").increment(1.0);
    actix_web::rt::spawn(async move {
        let mut stream = stream.max_frame_size(64 * 1024);
        let mut last_seen = tokio::time::Instant::now();
        let mut check = tokio::time::interval(Duration::from_secs(15));
        loop {
            tokio::select! {
                msg = stream.next() => match msg {
                    Some(Ok(Message::Binary(b))) => {
                        last_seen = tokio::time::Instant::now();
                        if let Ok(env) = Envelope::decode(b) {
                            if env.r#type == MessageType::Ping as i32 {
                                let pong = sink.frame(MessageType::Pong, vec![]);
                                if session.binary(pong).await.is_err() { break; }
                            }
                        }
                    }
                    Some(Ok(Message::Ping(p))) => {
                        last_seen = tokio::time::Instant::now();
                        if session.pong(&p).await.is_err() { break; }
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => last_seen = tokio::time::Instant::now(),
                },
                out = rx.recv() => match out {
                    Some(frame) => if session.binary(frame).await.is_err() { break; },
                    None => break,
                },
                _ = check.tick() => if last_seen.elapsed() > IDLE_LIMIT { break; },
            }
        }
        let _ = conn.send_message(ConnMsg::Closed);
        metrics::gauge!("yoo_websockets_open").decrement(1.0);
        let _ = session.close(None).await;
    });
    Ok(resp)
}
