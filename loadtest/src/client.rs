//! One virtual browser: HTTP calls that keep cookies and send the CSRF header the way the
//! frontend does, and the WebSocket that delivers pushed game states.
//!
//! Open files: in the journey each player owns one `awc::Client` whose pool allows two
//! connections, one keep-alive HTTP connection for the calls (they are sequential) and the
//! WebSocket; both close when the player is dropped. 500 players in flight hold about 1,000
//! sockets. The queue-scale scenario instead shares one client (one bounded pool) among many
//! players ([`Browser::with_client`]) and reads its thousands of sockets with [`Browser::listen`].

use std::collections::BTreeMap;
use std::fmt;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use awc::ws::{CloseCode, Frame, Message};
use futures_util::{SinkExt, StreamExt};
use prost::Message as _;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::proto::{Authorization, Envelope, MessageType, Notification};

/// USER_GAME_STATUS_CHANGE: a notification whose data is the GameState JSON.
pub const USER_GAME_STATUS_CHANGE: i32 = 130122;
/// The client pings this often; the server closes a socket silent for 75 s.
const PING_EVERY: Duration = Duration::from_secs(30);
/// Under the server's 5 s keep-alive, so an idle pooled connection is never reused just as the
/// server closes it.
const POOL_KEEP_ALIVE: Duration = Duration::from_secs(4);

/// Why a call or a wait failed. The report groups failures by step and this value's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The envelope's `code` was not 0.
    Api(i64),
    /// An HTTP status whose body was not the envelope.
    Http(u16),
    /// Connecting, sending or reading failed.
    Transport(String),
    /// The server closed the WebSocket.
    SocketClosed,
    /// The server sent an Authorization frame (kicked out, expired...).
    Authorization(String),
    /// An answer or push the journey does not expect.
    Unexpected(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Api(code) => write!(f, "code {code}"),
            Failure::Http(status) => write!(f, "HTTP {status} without envelope"),
            Failure::Transport(e) => write!(f, "transport: {e}"),
            Failure::SocketClosed => write!(f, "socket closed"),
            Failure::Authorization(s) => write!(f, "authorization {s}"),
            Failure::Unexpected(s) => write!(f, "unexpected: {s}"),
        }
    }
}

/// The HTTP side of one browser.
pub struct Browser {
    base: String,
    http: awc::Client,
    /// Cookies set by the server (`yoo_sid`, `_csrfToken`), sent back on every call.
    cookies: BTreeMap<String, String>,
    /// `Yoo-Uuid`, and the `device_no` of the login.
    device: String,
}

/// An HTTP client whose pool holds at most `limit` connections (a WebSocket holds one for its
/// whole life), each closed after 4 s idle; `local` binds its sockets to that source address
/// (to spread many sockets over several 127.0.0.x addresses). No per-request timeout: the run's
/// deadline bounds every call.
pub fn http_client(limit: usize, local: Option<IpAddr>) -> awc::Client {
    let mut connector = awc::Connector::new()
        .limit(limit)
        .conn_keep_alive(POOL_KEEP_ALIVE)
        .timeout(Duration::from_secs(30));
    if let Some(ip) = local {
        connector = connector.local_address(ip);
    }
    awc::Client::builder().connector(connector).disable_timeout().finish()
}

impl Browser {
    /// A browser with a pool of its own: two connections, the calls and the WebSocket.
    pub fn new(base: &str, device: &str) -> Browser {
        Browser::with_client(base, device, http_client(2, None))
    }

    /// A browser that shares `http` (and its pool) with others: many players, few connections.
    pub fn with_client(base: &str, device: &str, http: awc::Client) -> Browser {
        Browser {
            base: base.to_string(),
            http,
            cookies: BTreeMap::new(),
            device: device.to_string(),
        }
    }

    pub fn device(&self) -> &str {
        &self.device
    }

    /// A cookie the server set (`yoo_sid`, `_csrfToken`).
    pub fn cookie(&self, name: &str) -> Option<&str> {
        self.cookies.get(name).map(String::as_str)
    }

    /// Restores a cookie, e.g. a login handed over from another process.
    pub fn set_cookie(&mut self, name: &str, value: &str) {
        self.cookies.insert(name.to_string(), value.to_string());
    }

    fn cookie_header(&self) -> String {
        self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
    }

    fn keep_cookies<S>(&mut self, resp: &awc::ClientResponse<S>) {
        for v in resp.headers().get_all("set-cookie") {
            let Ok(s) = v.to_str() else { continue };
            let Some((k, val)) = s.split(';').next().and_then(|pair| pair.split_once('=')) else {
                continue;
            };
            if val.is_empty() || s.contains("Max-Age=0") {
                self.cookies.remove(k.trim());
            } else {
                self.cookies.insert(k.trim().to_string(), val.to_string());
            }
        }
    }

    /// GET `path` with the CSRF header like every call; the envelope's `data` on code 0.
    pub async fn get(&mut self, path: &str) -> Result<Value, Failure> {
        let req = self
            .http
            .get(format!("{}{path}", self.base))
            .insert_header(("cookie", self.cookie_header()));
        let req = self.csrf_header(req);
        let req = self.browser_headers(req);
        let mut resp = req.send().await.map_err(|e| Failure::Transport(e.to_string()))?;
        self.keep_cookies(&resp);
        let body = resp.body().limit(1 << 20).await.map_err(|e| Failure::Transport(e.to_string()))?;
        Self::envelope(resp.status().as_u16(), &body)
    }

    /// GET `path` whose answer is not the envelope (`/metrics`): the body as text.
    pub async fn get_text(&mut self, path: &str) -> Result<String, Failure> {
        let mut resp = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .map_err(|e| Failure::Transport(e.to_string()))?;
        if !resp.status().is_success() {
            return Err(Failure::Http(resp.status().as_u16()));
        }
        let body = resp.body().limit(16 << 20).await.map_err(|e| Failure::Transport(e.to_string()))?;
        String::from_utf8(body.to_vec()).map_err(|_| Failure::Unexpected("not UTF-8".into()))
    }

    /// POST `body` as JSON with the CSRF header; the envelope's `data` on code 0.
    pub async fn post(&mut self, path: &str, body: &Value) -> Result<Value, Failure> {
        self.post_with(path, body, &[]).await
    }

    /// [`Browser::post`] with `headers` besides (an `Idempotency-Key`, say).
    pub async fn post_with(&mut self, path: &str, body: &Value, headers: &[(&str, &str)]) -> Result<Value, Failure> {
        let mut req = self
            .http
            .post(format!("{}{path}", self.base))
            .insert_header(("cookie", self.cookie_header()))
            .insert_header(("content-type", "application/json"));
        for (name, value) in headers {
            req = req.insert_header((*name, *value));
        }
        req = self.csrf_header(req);
        let req = self.browser_headers(req);
        let mut resp = req
            .send_body(body.to_string())
            .await
            .map_err(|e| Failure::Transport(e.to_string()))?;
        self.keep_cookies(&resp);
        let body = resp.body().limit(1 << 20).await.map_err(|e| Failure::Transport(e.to_string()))?;
        Self::envelope(resp.status().as_u16(), &body)
    }

    /// POST with an empty body to a page whose answer is not the envelope (the sandbox pay
    /// page's buttons): Ok when the status is a success.
    pub async fn post_form(&mut self, path: &str) -> Result<(), Failure> {
        let mut resp = self
            .http
            .post(format!("{}{path}", self.base))
            .send()
            .await
            .map_err(|e| Failure::Transport(e.to_string()))?;
        let status = resp.status();
        // Read the page, so the connection goes back to the pool.
        let _ = resp.body().limit(1 << 20).await;
        if status.is_success() {
            Ok(())
        } else {
            Err(Failure::Http(status.as_u16()))
        }
    }

    /// `x-csrf-token` from the `_csrfToken` cookie, or `x-skip-csrf` before login (API.md: every
    /// call of a logged-in caller carries the token, whatever its method).
    fn csrf_header(&self, req: awc::ClientRequest) -> awc::ClientRequest {
        match self.cookies.get("_csrfToken") {
            Some(t) => req.insert_header(("x-csrf-token", t.clone())),
            None => req.insert_header(("x-skip-csrf", "true")),
        }
    }

    fn browser_headers(&self, req: awc::ClientRequest) -> awc::ClientRequest {
        req.insert_header(("Yoo-Uuid", self.device.clone()))
            .insert_header(("x-org-channel", "default|default|default"))
    }

    /// The envelope's `data` when `code` is 0.
    fn envelope(status: u16, body: &[u8]) -> Result<Value, Failure> {
        let mut envelope: Value = serde_json::from_slice(body).map_err(|_| Failure::Http(status))?;
        match envelope.get("code").and_then(Value::as_i64) {
            Some(0) => Ok(envelope.get_mut("data").map(Value::take).unwrap_or(Value::Null)),
            Some(code) => Err(Failure::Api(code)),
            None => Err(Failure::Http(status)),
        }
    }

    /// Opens `/echo?access_token=`. `on_state` sees every pushed GameState the moment its frame
    /// is read, with the arrival instant, before the journey does.
    pub async fn socket(&self, token: &str, mut on_state: impl FnMut(Instant, &Value) + 'static) -> Result<Socket, Failure> {
        let (tx, rx) = mpsc::unbounded_channel();
        let listener = self
            .listen(token, move |event| match event {
                Incoming::Status { at, data } => {
                    let Ok(state) = serde_json::from_str::<Value>(data) else {
                        return;
                    };
                    on_state(at, &state);
                    let _ = tx.send(Push::State { at, state });
                }
                Incoming::Authorization(status) => {
                    let _ = tx.send(Push::Authorization(status));
                }
                Incoming::Closed => {
                    let _ = tx.send(Push::Closed);
                }
                Incoming::Frame { .. } => {}
            })
            .await?;
        Ok(Socket { pushes: rx, listener })
    }

    /// Opens `/echo?access_token=` and hands every frame that matters to `on_event` as it is
    /// read, on the reading task: no queue, no parsing beyond the protobuf envelope. For
    /// thousands of sockets in one process, where the caller only needs a few fields.
    pub async fn listen(&self, token: &str, on_event: impl FnMut(Incoming<'_>) + 'static) -> Result<Listener, Failure> {
        let url = format!("{}/echo?access_token={token}", self.base);
        // A room's resume can send a long batch in one frame: room for 1 MiB.
        let (resp, framed) = self.http.ws(url).max_frame_size(1 << 20).connect().await.map_err(|e| match e {
            awc::error::WsClientError::InvalidResponseStatus(s) => Failure::Http(s.as_u16()),
            other => Failure::Transport(other.to_string()),
        })?;
        drop(resp);
        let (stop_tx, stop_rx) = oneshot::channel();
        let (out_tx, out_rx) = mpsc::unbounded_channel();
        let pump = actix_rt::spawn(pump(framed, stop_rx, out_rx, on_event));
        Ok(Listener {
            stop: Some(stop_tx),
            outgoing: out_tx,
            pump,
        })
    }
}

/// A frame as the reading task sees it.
#[derive(Debug)]
pub enum Incoming<'a> {
    /// A USER_GAME_STATUS_CHANGE: the GameState JSON, and when its frame was read.
    Status { at: Instant, data: &'a str },
    /// An AUTHORIZATION frame (`status` KICK_OUT, EXPIRED, ...).
    Authorization(String),
    /// Any other frame (ROOM_EVENTS, ROOM_RESET...): its envelope type and the whole frame's
    /// bytes, undecoded, so a reader of thousands of sockets decodes each distinct frame once.
    Frame { at: Instant, kind: i32, frame: &'a [u8] },
    /// The socket ended (the last event).
    Closed,
}

/// The `type` of a prost-encoded Envelope without decoding it: prost writes fields in tag
/// order, so a non-zero type (field 1, varint) is the first key, `0x08`; 0 when absent.
pub fn envelope_type(frame: &[u8]) -> i32 {
    if frame.first() != Some(&0x08) {
        return 0;
    }
    let mut v: u64 = 0;
    for (i, &b) in frame[1..].iter().take(10).enumerate() {
        v |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return v as i32;
        }
    }
    0
}

/// The reading task of an open WebSocket; aborted when dropped.
pub struct Listener {
    /// Asks the reading task to send a Close frame and stop.
    stop: Option<oneshot::Sender<()>>,
    /// Binary frames for the reading task to send (ROOM_WATCH...).
    outgoing: mpsc::UnboundedSender<Vec<u8>>,
    /// The reading task.
    pump: tokio::task::JoinHandle<()>,
}

impl Listener {
    /// Queues one binary frame (an encoded Envelope) on the socket; false once it has ended.
    pub fn send(&self, frame: Vec<u8>) -> bool {
        self.outgoing.send(frame).is_ok()
    }

    /// Sends a Close frame and waits (briefly) for the reading task to finish.
    pub async fn close(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(2), &mut self.pump).await;
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.pump.abort();
    }
}

/// What the socket delivers to the journey.
#[derive(Debug)]
pub enum Push {
    /// A USER_GAME_STATUS_CHANGE, with when its frame was read.
    State { at: Instant, state: Value },
    /// An AUTHORIZATION frame (`status` KICK_OUT, EXPIRED, ...).
    Authorization(String),
    /// The socket ended.
    Closed,
}

/// An open WebSocket. A task reads it continuously (so arrival times are exact even while the
/// journey waits on an HTTP call), answers pings and sends the 30 s PING.
pub struct Socket {
    /// Pushes in arrival order, from the reading task.
    pushes: mpsc::UnboundedReceiver<Push>,
    /// The reading task; aborted if the socket is dropped without `close`.
    listener: Listener,
}

impl Socket {
    /// The next push; `Closed` once the socket has ended.
    pub async fn next(&mut self) -> Push {
        self.pushes.recv().await.unwrap_or(Push::Closed)
    }

    /// Waits for a pushed state for which `pred` holds; any other push than a state fails.
    pub async fn wait_state(&mut self, mut pred: impl FnMut(&Value) -> Result<bool, Failure>) -> Result<(Instant, Value), Failure> {
        loop {
            match self.next().await {
                Push::State { at, state } => {
                    if pred(&state)? {
                        return Ok((at, state));
                    }
                }
                Push::Authorization(s) => return Err(Failure::Authorization(s)),
                Push::Closed => return Err(Failure::SocketClosed),
            }
        }
    }

    /// Sends a Close frame and waits (briefly) for the reading task to finish.
    pub async fn close(self) {
        self.listener.close().await;
    }
}

/// Reads frames until the socket ends or `stop` fires, answering pings and sending the 30 s PING.
async fn pump<S>(
    mut framed: S,
    mut stop: oneshot::Receiver<()>,
    mut outgoing: mpsc::UnboundedReceiver<Vec<u8>>,
    mut on_event: impl FnMut(Incoming<'_>),
) where
    S: futures_util::Stream<Item = Result<Frame, awc::error::WsProtocolError>> + futures_util::Sink<Message> + Unpin,
{
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    loop {
        tokio::select! {
            frame = framed.next() => match frame {
                Some(Ok(Frame::Binary(b))) => {
                    let at = Instant::now();
                    let kind = envelope_type(&b);
                    if kind != MessageType::Notification as i32 && kind != MessageType::Authorization as i32 {
                        on_event(Incoming::Frame { at, kind, frame: &b });
                        continue;
                    }
                    let Ok(env) = Envelope::decode(b) else { continue };
                    if env.r#type == MessageType::Notification as i32 {
                        let Ok(n) = Notification::decode(env.content.as_slice()) else { continue };
                        if n.code == USER_GAME_STATUS_CHANGE {
                            on_event(Incoming::Status { at, data: &n.data });
                        }
                    } else if env.r#type == MessageType::Authorization as i32 {
                        let status = Authorization::decode(env.content.as_slice()).map(|a| a.status).unwrap_or_default();
                        on_event(Incoming::Authorization(status));
                    }
                }
                Some(Ok(Frame::Ping(p))) => {
                    if framed.send(Message::Pong(p)).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Frame::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            Some(frame) = outgoing.recv() => {
                if framed.send(Message::Binary(frame.into())).await.is_err() {
                    break;
                }
            }
            _ = ping.tick() => {
                let env = Envelope { r#type: MessageType::Ping as i32, content: vec![], offset: 0, epoch: String::new() };
                if framed.send(Message::Binary(env.encode_to_vec().into())).await.is_err() {
                    break;
                }
            }
            _ = &mut stop => {
                let _ = framed.send(Message::Close(Some(CloseCode::Normal.into()))).await;
                break;
            }
        }
    }
    on_event(Incoming::Closed);
}

#[cfg(test)]
mod tests {
    use super::*;

    // The type is read from the first key of any prost-encoded Envelope, multi-byte varints
    // included; a frame without it (type 0) or that is not an Envelope gives 0.
    #[test]
    fn envelope_type_without_decoding() {
        for kind in [1, 3, 4, 11, 12, 300] {
            let env = Envelope {
                r#type: kind,
                content: vec![1, 2, 3],
                offset: 9,
                epoch: "e".into(),
            };
            assert_eq!(envelope_type(&env.encode_to_vec()), kind);
        }
        let untyped = Envelope {
            r#type: 0,
            content: vec![8, 3],
            offset: 0,
            epoch: String::new(),
        };
        assert_eq!(envelope_type(&untyped.encode_to_vec()), 0);
        assert_eq!(envelope_type(b""), 0);
        assert_eq!(envelope_type(&[0x08, 0x80]), 0, "truncated varint");
    }
}
