//! The WebSocket `/echo?access_token=` (core-platform.md §4.10, §7.3).
//!
//! An open socket is one user connection (`actors::play::connection`): its [`Sink`] is subscribed to
//! the user's pushes, encodes each at once as a protobuf `Envelope` numbered with this
//! connection's offset and epoch, and queues the frame in the socket's outbox. The socket itself
//! is the body of the upgrade response ([`Socket`]), so the HTTP dispatcher's task is the
//! connection's only task: each poll reads the client's frames (PING gets PONG; any frame resets
//! the idle clock; a socket silent for 75 s is closed), then writes every queued frame in one
//! write. Idle, a socket holds no buffer (the dispatcher's are released too, `vendor/README.md`):
//! this is what keeps a connected waiting player within the memory budget of issue 3.
//!
//! Rooms (issue 9): a ROOM_WATCH frame makes the socket's sink one of the room's watchers
//! (`Platform::watch`, with the position the client holds); the room hands it the shared bytes
//! of each batch (`RoomSink`), queued in the same outbox. ROOM_UNWATCH, or the socket's end,
//! ends the watch.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use actix_codec::{Decoder, Encoder};
use actix_http::ws::{Codec, Frame, Message};
use actix_web::body::{BodyStream, MessageBody};
use actix_web::web::{Bytes, BytesMut};
use actix_web::{get, web, HttpRequest, HttpResponse};
use actors::accounts::passport::{LoginEnd, LoginKey, LoginSocket};
use actors::clock::Clock;
use actors::play::connection::{Connection, ConnectionSink};
use actors::rooms::wire::{RoomSink, WatchId};
use actors::small_str::SmallStr;
use actors::view::Push;
use actors::Platform;
use futures_util::Stream;
use parking_lot::Mutex;
use prost::Message as _;
use serde::Deserialize;

use crate::envelope::{ApiError, BanData};
use crate::proto::{Authorization, Envelope, MessageType, RoomWatch};
use crate::routes::play::{dto, notices};
use crate::routes::rooms::wire;
use crate::state::AppState;
use actors::view::USER_GAME_STATUS_CHANGE;

/// A socket silent this long is closed (the client pings every 30 s).
const IDLE_LIMIT: Duration = Duration::from_secs(75);
/// The largest frame a client may send.
const MAX_FRAME: usize = 64 * 1024;
/// Frames queued for a socket that does not read them: beyond this the socket is closed (the
/// browser reconnects and gets the current state).
const OUTBOX_LIMIT: usize = 512;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TokenQuery {
    #[serde(default)]
    access_token: String,
}

/// The most rooms one socket watches at once; a ROOM_WATCH beyond is answered with ROOM_RESET.
const MAX_ROOM_WATCHES: usize = 4;

/// One room a socket watches. `id` is None until the room's actor has taken the watch (the
/// call runs in its own task); a watch replaced or ended before that is ended when it arrives.
struct RoomWatchEntry {
    dd_rid: i64,
    /// Which ROOM_WATCH of this socket made it (a later one for the same room replaces it).
    seq: u64,
    id: Option<WatchId>,
}

/// A frame waiting to be written.
enum Out {
    /// An `Envelope`, to be sent as a binary frame.
    Envelope(Bytes),
    /// A control frame, already encoded.
    Control(Bytes),
}

/// Frames waiting to be written, and the socket task's waker.
#[derive(Default)]
struct Outbox {
    frames: VecDeque<Out>,
    waker: Option<Waker>,
    /// The socket is closing or closed: nothing more is queued.
    gone: bool,
}

struct Sink {
    outbox: Mutex<Outbox>,
    /// The rooms this socket watches (ROOM_WATCH), to end each watch when the socket goes.
    rooms: Mutex<Vec<RoomWatchEntry>>,
    offset: AtomicU64,
    // Inline strings: what a socket keeps for its whole life is allocated as little as possible
    // (small long-lived allocations pin the pages of the burst that opened the sockets).
    epoch: SmallStr,
    device_no: SmallStr,
    clock: Clock,
}

impl Sink {
    fn frame(&self, kind: MessageType, content: Vec<u8>) -> Bytes {
        let offset = self.offset.fetch_add(1, Ordering::Relaxed) + 1;
        Bytes::from(
            Envelope {
                r#type: kind as i32,
                content,
                offset,
                epoch: self.epoch.to_string(),
            }
            .encode_to_vec(),
        )
    }

    /// A NOTIFICATION frame, encoded straight into one buffer: this is every rank push, so it
    /// skips the intermediate messages and copies `encode_to_vec` would make. The bytes are
    /// those prost writes for `Envelope { Notification { code, content, data } }`
    /// (`tests::notification_frames_match_prost`).
    fn notification(&self, code: i32, name: &str, data: &str) -> Bytes {
        use prost::encoding::{encode_key, encode_varint, encoded_len_varint, WireType};
        let offset = self.offset.fetch_add(1, Ordering::Relaxed) + 1;
        // Fields below tag 16 have a one-byte key; proto3 leaves out empty fields.
        let field = |len: usize| if len == 0 { 0 } else { 1 + encoded_len_varint(len as u64) + len };
        let code_len = if code != 0 { 1 + encoded_len_varint(code as i64 as u64) } else { 0 };
        let inner = code_len + field(name.len()) + field(data.len());
        let kind = MessageType::Notification as i32 as u64;
        let epoch_len = field(self.epoch.len());
        let total = 1 + encoded_len_varint(kind) + field(inner) + 1 + encoded_len_varint(offset) + epoch_len;
        let mut buf = BytesMut::with_capacity(total);
        let text = |buf: &mut BytesMut, tag: u32, text: &str| {
            if !text.is_empty() {
                encode_key(tag, WireType::LengthDelimited, buf);
                encode_varint(text.len() as u64, buf);
                buf.extend_from_slice(text.as_bytes());
            }
        };
        encode_key(1, WireType::Varint, &mut buf);
        encode_varint(kind, &mut buf);
        if inner > 0 {
            encode_key(2, WireType::LengthDelimited, &mut buf);
            encode_varint(inner as u64, &mut buf);
        }
        if code != 0 {
            encode_key(1, WireType::Varint, &mut buf);
            encode_varint(code as i64 as u64, &mut buf);
        }
        text(&mut buf, 2, name);
        text(&mut buf, 3, data);
        encode_key(3, WireType::Varint, &mut buf);
        encode_varint(offset, &mut buf);
        text(&mut buf, 4, &self.epoch);
        debug_assert_eq!(buf.len(), total);
        buf.freeze()
    }

    /// Queues a frame and wakes the socket; false once the socket is gone.
    fn queue_frame(&self, frame: Bytes) -> bool {
        let mut o = self.outbox.lock();
        if o.gone {
            return false;
        }
        if o.frames.len() >= OUTBOX_LIMIT {
            // A reader this far behind is not reading: close it rather than grow without bound.
            o.gone = true;
            o.frames.clear();
        } else {
            o.frames.push_back(Out::Envelope(frame));
        }
        let waker = o.waker.take();
        let queued = !o.gone;
        drop(o);
        if let Some(w) = waker {
            w.wake();
        }
        queued
    }
}

impl LoginSocket for Sink {
    /// The login was ended by force: the AUTHORIZATION frame goes out, then the socket closes.
    fn end(&self, why: &LoginEnd) {
        let value = match why {
            LoginEnd::Ban { reason, until } => serde_json::to_string(&BanData::account(reason, *until)).unwrap_or_default(),
            _ => String::new(),
        };
        let a = Authorization {
            status: why.status().to_string(),
            value,
        };
        let frame = self.frame(MessageType::Authorization, a.encode_to_vec());
        self.queue_frame(frame);
        self.close();
    }

    /// The login ended: the socket closes at once (what is queued goes, then the close frame).
    fn close(&self) {
        let mut o = self.outbox.lock();
        o.gone = true;
        let waker = o.waker.take();
        drop(o);
        if let Some(w) = waker {
            w.wake();
        }
    }
}

impl ConnectionSink for Sink {
    fn push(&self, push: &Push) -> bool {
        let frame = match push {
            Push::GameStatus(state) => {
                let data = dto::game_state_text(state, &self.device_no, self.clock.now_ms());
                self.notification(USER_GAME_STATUS_CHANGE, "USER_GAME_STATUS_CHANGE", &data)
            }
            Push::Notice(n) => self.notification(n.code(), n.name(), &notices::notice_data(n)),
            Push::Changed(actors::view::Changed::Balance) => self.frame(MessageType::BalanceNotification, vec![]),
            Push::Changed(actors::view::Changed::MemberInfo) => self.frame(MessageType::MemberInfoNotification, vec![]),
            Push::Changed(actors::view::Changed::UserInfo) => self.frame(MessageType::UserInfo, vec![]),
            Push::NewMessage => self.frame(MessageType::NewMessage, vec![]),
            Push::Authorization { status } => {
                let a = Authorization {
                    status: status.to_string(),
                    value: String::new(),
                };
                self.frame(MessageType::Authorization, a.encode_to_vec())
            }
        };
        self.queue_frame(frame)
    }
}

/// A room's frames: the shared bytes of a batch go in the outbox as they are (encoded once by
/// the room for every watcher, `routes::rooms::wire`).
impl RoomSink for Sink {
    fn send(&self, frame: &Bytes) -> bool {
        self.queue_frame(frame.clone())
    }
}

/// Whether the upgrade's `Origin` may open a socket (`security::Policy::origin_allowed`).
fn origin_allowed(req: &HttpRequest, state: &AppState) -> bool {
    let h = req.headers();
    let origin = match h.get(actix_web::http::header::ORIGIN).map(|v| v.to_str()) {
        None => None,
        Some(Ok(o)) => Some(o),
        Some(Err(_)) => return false,
    };
    let host = h.get(actix_web::http::header::HOST).and_then(|v| v.to_str().ok());
    let policy = &state.security;
    policy.origin_allowed(origin, host, "http") || policy.origin_allowed(origin, host, "https")
}

crate::envelope::refusals!(EchoRefusals: common::input(), DomainError::NotLoggedIn, common::internal());

/// The WebSocket (`101 Switching Protocols`, then binary protobuf frames of `proto/yoo.proto`).
#[utoipa::path(params(TokenQuery), responses((status = 101, description = "the socket is open"), EchoRefusals))]
#[get("/echo")]
pub async fn echo(
    req: HttpRequest,
    body: web::Payload,
    state: web::Data<AppState>,
    q: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    // A page of another site is refused before its token is spent.
    if !origin_allowed(&req, &state) {
        tracing::info!(origin = ?req.headers().get("origin"), "websocket origin refused");
        return Err(ApiError::csrf());
    }
    let passport = state.platform.passport();
    let grant = passport.redeem_socket_token(&q.access_token).await?;
    let key = LoginKey::of(&grant.login).ok_or_else(ApiError::not_logged_in)?;
    let mut response = actix_http::ws::handshake(req.head()).map_err(|_| ApiError::bad_request())?;
    let sink = Arc::new(Sink {
        outbox: Mutex::new(Outbox::default()),
        rooms: Mutex::new(Vec::new()),
        offset: AtomicU64::new(0),
        epoch: actors::accounts::passport::random_hex(8).into(),
        device_no: grant.device_no.as_str().into(),
        clock: state.platform.clock(),
    });
    // Watched before the login is checked: a logout in between still closes this socket.
    let watched: Arc<dyn LoginSocket> = sink.clone();
    passport.watch_socket(key, watched.clone());
    let login = match passport.session(&grant.login).await {
        Ok(l) => l,
        Err(e) => {
            passport.unwatch_socket(key, &watched);
            return Err(e.into());
        }
    };
    let uid = grant.uid;
    let conn = match state.platform.play.connect(uid, sink.clone()).await {
        Ok(c) => c,
        Err(e) => {
            passport.unwatch_socket(key, &watched);
            return Err(e.into());
        }
    };
    // A socket that comes back after a drop first gets the state as it is now: whatever it
    // missed while away (a rank, READY, the end) is in it. The place in the queue never
    // depended on the socket.
    state.platform.play.state_to_new_socket(uid, &*sink).await;
    metrics::gauge!("yoo_websockets_open").increment(1.0);
    // The login's own end closes the socket too (the idle clock never runs past it).
    let left_ms = (login.expires_at - state.platform.clock().now_ms()).max(0) as u64;
    let login_ends = tokio::time::Instant::now() + Duration::from_millis(left_ms);
    let socket = Socket {
        sink,
        payload: body.into_inner(),
        codec: Codec::new().max_size(MAX_FRAME),
        input: BytesMut::new(),
        idle: Box::pin(tokio::time::sleep_until(login_ends.min(tokio::time::Instant::now() + IDLE_LIMIT))),
        login: Some((key, login_ends)),
        conn: Some((conn, state.platform.clone())),
        uid,
        watch_seq: 0,
        phase: Phase::Open,
    };
    Ok(response
        .message_body(BodyStream::new(socket).boxed())
        .map_err(|_| ApiError::bad_request())?
        .into())
}

/// The open socket, polled by the HTTP dispatcher as the upgrade response's body.
struct Socket {
    sink: Arc<Sink>,
    payload: actix_web::dev::Payload,
    codec: Codec,
    /// Received bytes not yet decoded; released whenever empty.
    input: BytesMut,
    /// Fires after `IDLE_LIMIT` of silence, or when the login ends, whichever comes first.
    idle: Pin<Box<tokio::time::Sleep>>,
    /// The login the socket belongs to (closed with it) and when it ends.
    login: Option<(LoginKey, tokio::time::Instant)>,
    /// The user connection, closed when the socket goes.
    conn: Option<(Connection, Platform)>,
    /// The socket's user (a room watch is a member's).
    uid: i64,
    /// Numbers this socket's ROOM_WATCH frames.
    watch_seq: u64,
    phase: Phase,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Open,
    /// Write what is queued, then a close frame.
    Closing,
    /// The close frame is written: the body ends.
    Closed,
}

impl Socket {
    /// Reads and answers what the client sent; false when the client is gone.
    fn read(&mut self, cx: &mut Context<'_>) -> bool {
        loop {
            match Pin::new(&mut self.payload).poll_next(cx) {
                Poll::Ready(Some(Ok(bytes))) => {
                    if self.input.is_empty() {
                        self.input = BytesMut::from(bytes);
                    } else {
                        self.input.extend_from_slice(&bytes);
                    }
                }
                Poll::Ready(Some(Err(_))) | Poll::Ready(None) => return false,
                Poll::Pending => break,
            }
        }
        let mut heard = false;
        loop {
            match self.codec.decode(&mut self.input) {
                Ok(Some(frame)) => {
                    heard = true;
                    match frame {
                        Frame::Binary(b) if Envelope::decode(b.as_ref()).is_ok_and(|env| env.r#type == MessageType::Ping as i32) => {
                            let pong = self.sink.frame(MessageType::Pong, vec![]);
                            self.sink.queue_frame(pong);
                        }
                        Frame::Binary(b) => self.room_frame(&b),
                        Frame::Ping(p) => self.queue_control(Message::Pong(p)),
                        Frame::Close(_) => self.close(),
                        _ => {}
                    }
                }
                Ok(None) => break,
                Err(_) => {
                    self.close();
                    break;
                }
            }
        }
        if self.input.is_empty() {
            self.input = BytesMut::new();
        }
        if heard {
            let mut deadline = tokio::time::Instant::now() + IDLE_LIMIT;
            if let Some((_, ends)) = self.login {
                deadline = deadline.min(ends);
            }
            self.idle.as_mut().reset(deadline);
        }
        true
    }

    /// A client frame other than PING: ROOM_WATCH and ROOM_UNWATCH; anything else is ignored.
    fn room_frame(&mut self, bytes: &Bytes) {
        let Ok(env) = Envelope::decode(bytes.as_ref()) else { return };
        let Some((_, platform)) = &self.conn else { return };
        let Ok(w) = RoomWatch::decode(env.content.as_slice()) else { return };
        let platform = platform.clone();
        if env.r#type == MessageType::RoomUnwatch as i32 {
            let gone: Vec<RoomWatchEntry> = {
                let mut rooms = self.sink.rooms.lock();
                let (gone, kept) = std::mem::take(&mut *rooms).into_iter().partition(|e| e.dd_rid == w.dd_rid);
                *rooms = kept;
                gone
            };
            for id in gone.into_iter().filter_map(|e| e.id) {
                platform.rooms.unwatch(w.dd_rid, id);
            }
        } else if env.r#type == MessageType::RoomWatch as i32 {
            self.watch(platform, w);
        }
    }

    /// Starts a watch of a room (a later watch of the same room replaces the earlier). The
    /// room's actor answers in its mailbox: the missed events after the position, or a
    /// ROOM_RESET; a refused watch (no such room, not a member) is a ROOM_RESET with an empty
    /// epoch, so the client refetches the room and reads the refusal there.
    fn watch(&mut self, platform: Platform, w: RoomWatch) {
        self.watch_seq += 1;
        let seq = self.watch_seq;
        let dd_rid = w.dd_rid;
        let replaced = {
            let mut rooms = self.sink.rooms.lock();
            let old = rooms.iter().position(|e| e.dd_rid == dd_rid).map(|i| rooms.remove(i));
            if rooms.len() >= MAX_ROOM_WATCHES {
                drop(rooms);
                self.sink.queue_frame(wire::reset_frame(dd_rid, "", 0));
                return;
            }
            rooms.push(RoomWatchEntry { dd_rid, seq, id: None });
            old.and_then(|e| e.id)
        };
        if let Some(id) = replaced {
            platform.rooms.unwatch(dd_rid, id);
        }
        let position = (!w.epoch.is_empty()).then_some((w.epoch, w.after_offset));
        let sink = self.sink.clone();
        let uid = self.uid;
        actix_web::rt::spawn(async move {
            let as_room_sink: Arc<dyn RoomSink> = sink.clone();
            match platform.rooms.watch(uid, dd_rid, as_room_sink, position).await {
                Ok(id) => {
                    let kept = {
                        let gone = sink.outbox.lock().gone;
                        let mut rooms = sink.rooms.lock();
                        match rooms.iter_mut().find(|e| e.dd_rid == dd_rid && e.seq == seq) {
                            Some(e) if !gone => {
                                e.id = Some(id);
                                true
                            }
                            _ => false,
                        }
                    };
                    if !kept {
                        platform.rooms.unwatch(dd_rid, id);
                    }
                }
                Err(e) => {
                    tracing::debug!(dd_rid, error = %e, "room watch refused");
                    sink.rooms.lock().retain(|e| !(e.dd_rid == dd_rid && e.seq == seq));
                    sink.queue_frame(wire::reset_frame(dd_rid, "", 0));
                }
            }
        });
    }

    /// Writes a control frame ahead of the queued data frames.
    fn queue_control(&mut self, msg: Message) {
        let mut out = BytesMut::new();
        if self.codec.encode(msg, &mut out).is_ok() {
            let mut o = self.sink.outbox.lock();
            if !o.gone {
                o.frames.push_front(Out::Control(out.freeze()));
            }
        }
    }

    /// Starts closing: nothing more is queued; what is queued goes, then the close frame.
    fn close(&mut self) {
        if self.phase == Phase::Open {
            self.phase = Phase::Closing;
        }
        self.sink.outbox.lock().gone = true;
    }
}

impl Stream for Socket {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.phase == Phase::Closed || !this.read(cx) {
            return Poll::Ready(None);
        }
        if this.phase == Phase::Open && this.idle.as_mut().poll(cx).is_ready() {
            this.close();
        }
        let frames: VecDeque<Out> = {
            let mut o = this.sink.outbox.lock();
            if o.gone && this.phase == Phase::Open {
                // The outbox overflowed: close.
                this.phase = Phase::Closing;
            }
            if o.frames.is_empty() && this.phase == Phase::Open {
                if !o.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                    o.waker = Some(cx.waker().clone());
                }
                return Poll::Pending;
            }
            // The queue goes with its frames: an idle socket keeps none (see `Sink::epoch`).
            std::mem::take(&mut o.frames)
        };
        let mut out = BytesMut::new();
        for f in frames {
            let encoded = match f {
                Out::Envelope(b) => this.codec.encode(Message::Binary(b), &mut out),
                Out::Control(raw) => {
                    out.extend_from_slice(&raw);
                    Ok(())
                }
            };
            if encoded.is_err() {
                return Poll::Ready(None);
            }
        }
        if out.is_empty() && this.phase == Phase::Closing {
            this.phase = Phase::Closed;
            let _ = this.codec.encode(Message::Close(None), &mut out);
        }
        Poll::Ready(Some(Ok(out.freeze())))
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.sink.outbox.lock().gone = true;
        if let Some((conn, platform)) = self.conn.take() {
            // Every room this socket watched learns it went (the member's reconnect window starts).
            for e in std::mem::take(&mut *self.sink.rooms.lock()) {
                if let Some(id) = e.id {
                    platform.rooms.unwatch(e.dd_rid, id);
                }
            }
            if let Some((key, _)) = self.login {
                let sink: Arc<dyn LoginSocket> = self.sink.clone();
                platform.passport().unwatch_socket(key, &sink);
            }
            platform.play.disconnect(conn);
        }
        metrics::gauge!("yoo_websockets_open").decrement(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::Notification;
    use actors::view::Notice;
    use futures_util::{FutureExt, StreamExt};

    fn sink(epoch: &str) -> Sink {
        Sink {
            outbox: Mutex::new(Outbox::default()),
            rooms: Mutex::new(Vec::new()),
            offset: AtomicU64::new(0),
            epoch: epoch.into(),
            device_no: "d".into(),
            clock: Clock::new(),
        }
    }

    #[test]
    fn notification_frames_match_prost() {
        for (epoch, code, name, data) in [
            ("0a1b2c3d4e5f6a7b", 130122, "USER_GAME_STATUS_CHANGE", r#"{"sort":1}"#.to_string()),
            ("", 0, "", String::new()),
            ("e", 130125, "USER_TIME_END", "x".repeat(300)),
        ] {
            let s = sink(epoch);
            s.offset.store(126, Ordering::Relaxed);
            let ours = s.notification(code, name, &data);
            let n = Notification {
                code,
                content: name.into(),
                data: data.clone(),
            };
            let theirs = Envelope {
                r#type: MessageType::Notification as i32,
                content: n.encode_to_vec(),
                offset: 127,
                epoch: epoch.into(),
            }
            .encode_to_vec();
            assert_eq!(&ours[..], &theirs[..], "{epoch:?} {code}");
        }
    }

    /// A socket over an in-memory request body, and the body's sending end.
    fn socket() -> (Socket, impl FnMut(Message), Arc<Sink>) {
        let (mut tx, payload) = actix_http::h1::Payload::create(false);
        let sink = Arc::new(sink("e"));
        let socket = Socket {
            sink: sink.clone(),
            payload: actix_web::dev::Payload::from(payload),
            codec: Codec::new().max_size(MAX_FRAME),
            input: BytesMut::new(),
            idle: Box::pin(tokio::time::sleep(IDLE_LIMIT)),
            login: None,
            conn: None,
            uid: 0,
            watch_seq: 0,
            phase: Phase::Open,
        };
        let mut client = Codec::new().client_mode();
        let send = move |m: Message| {
            let mut b = BytesMut::new();
            client.encode(m, &mut b).unwrap();
            tx.feed_data(b.freeze());
        };
        (socket, send, sink)
    }

    /// What one poll of the socket writes, as the client decodes it; None: nothing to write yet.
    fn written(socket: &mut Socket) -> Option<Vec<Frame>> {
        let out = socket.next().now_or_never()?;
        let mut bytes = BytesMut::from(&out.expect("the socket is open").unwrap()[..]);
        let mut client = Codec::new().client_mode();
        let mut frames = vec![];
        while let Some(f) = client.decode(&mut bytes).unwrap() {
            frames.push(f);
        }
        Some(frames)
    }

    fn envelope(f: &Frame) -> Envelope {
        let Frame::Binary(b) = f else { panic!("a binary frame, got {f:?}") };
        Envelope::decode(b.clone()).unwrap()
    }

    #[tokio::test(start_paused = true)]
    async fn pings_pushes_and_the_idle_close() {
        let (mut socket, mut send, sink) = socket();
        assert!(written(&mut socket).is_none(), "nothing to say yet");

        let ping = Envelope {
            r#type: MessageType::Ping as i32,
            content: vec![],
            offset: 0,
            epoch: String::new(),
        };
        send(Message::Binary(ping.encode_to_vec().into()));
        send(Message::Ping(Bytes::from_static(b"p")));
        let frames = written(&mut socket).expect("answers");
        assert!(
            matches!(&frames[0], Frame::Pong(p) if &p[..] == b"p"),
            "control frames first: {frames:?}"
        );
        assert_eq!(envelope(&frames[1]).r#type, MessageType::Pong as i32);

        assert!(sink.push(&Push::Notice(Notice::TimeShort {
            game_id: 1,
            left_minutes: 5
        })));
        assert!(sink.push(&Push::Notice(Notice::TimeUp {
            game_id: 1,
            science_duration_secs: 60
        })));
        let frames = written(&mut socket).expect("the pushes");
        assert_eq!(frames.len(), 2, "queued frames leave in one write");
        let n = Notification::decode(Bytes::from(envelope(&frames[1]).content)).unwrap();
        assert_eq!((n.code, n.content.as_str()), (130125, "USER_TIME_END"));
        // The domain's typed notice is rendered here, and only here.
        assert_eq!(n.data, r#"{"gameId":1,"scienceDuration":60}"#);

        // Heard at 60 s: the idle clock restarts from there.
        tokio::time::advance(Duration::from_secs(60)).await;
        send(Message::Ping(Bytes::new()));
        assert!(written(&mut socket).is_some());
        tokio::time::advance(Duration::from_secs(70)).await;
        assert!(written(&mut socket).is_none(), "75 s have not passed since the last frame");
        tokio::time::advance(Duration::from_secs(6)).await;
        let frames = written(&mut socket).expect("the close");
        assert!(matches!(frames[..], [Frame::Close(_)]), "{frames:?}");
        assert!(
            !sink.push(&Push::Notice(Notice::TimeShort {
                game_id: 1,
                left_minutes: 5
            })),
            "a closed socket takes no push"
        );
        assert!(matches!(socket.next().now_or_never(), Some(None)), "then the body ends");
    }

    // A login that ends (its session expires) closes its socket at that moment, even while the
    // client keeps pinging; a forced end (`LoginSocket::close`) closes it at once.
    #[tokio::test(start_paused = true)]
    async fn the_login_s_end_closes_the_socket() {
        let (mut socket, mut send, sink) = socket();
        let ends = tokio::time::Instant::now() + Duration::from_secs(100);
        socket.login = Some((LoginKey::of(&"ab".repeat(32)).unwrap(), ends));
        for _ in 0..3 {
            tokio::time::advance(Duration::from_secs(30)).await;
            send(Message::Ping(Bytes::new()));
            assert!(written(&mut socket).is_some(), "pinged: open");
        }
        tokio::time::advance(Duration::from_secs(9)).await;
        assert!(written(&mut socket).is_none(), "open until the login ends");
        tokio::time::advance(Duration::from_secs(1)).await;
        let frames = written(&mut socket).expect("the close");
        assert!(matches!(frames[..], [Frame::Close(_)]), "{frames:?}");

        let (mut socket, _send, sink2) = self::socket();
        drop(sink);
        LoginSocket::close(&*sink2);
        let frames = written(&mut socket).expect("the close, at once");
        assert!(matches!(frames[..], [Frame::Close(_)]), "{frames:?}");
        assert!(matches!(socket.next().now_or_never(), Some(None)));
    }

    // A room batch is written as the very bytes the room encoded once (shared by every
    // watcher), and it does not move the user stream's offsets.
    #[tokio::test]
    async fn room_frames_go_out_as_encoded() {
        use actors::rooms::wire::RoomWire;
        let (mut socket, _send, sink) = socket();
        let batch = wire::ProtoRoomWire.encode(3, "ep", 1..=1, &[]);
        let room_sink: Arc<dyn RoomSink> = sink.clone();
        assert!(room_sink.send(&batch));
        assert!(sink.push(&Push::Notice(Notice::TimeShort {
            game_id: 1,
            left_minutes: 5
        })));
        let frames = written(&mut socket).expect("both frames");
        let Frame::Binary(b) = &frames[0] else { panic!("{frames:?}") };
        assert_eq!(&b[..], &batch[..]);
        assert_eq!(envelope(&frames[1]).offset, 1, "the user stream's first frame");
        LoginSocket::close(&*sink);
        assert!(written(&mut socket).is_some());
        assert!(!room_sink.send(&batch), "a closed socket tells the room it is gone");
    }

    #[tokio::test]
    async fn a_reader_that_falls_behind_is_closed() {
        let (mut socket, _send, sink) = socket();
        for _ in 0..OUTBOX_LIMIT {
            assert!(sink.push(&Push::Notice(Notice::TimeShort {
                game_id: 1,
                left_minutes: 5
            })));
        }
        assert!(
            !sink.push(&Push::Notice(Notice::TimeShort {
                game_id: 1,
                left_minutes: 5
            })),
            "the outbox is full"
        );
        let frames = written(&mut socket).expect("the close");
        assert!(
            matches!(frames[..], [Frame::Close(_)]),
            "what was queued is dropped, the socket closes"
        );
        assert!(matches!(socket.next().now_or_never(), Some(None)));
    }
}
