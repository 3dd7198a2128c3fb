//! One stream connection: the upgrade response's body is the connection itself, polled by the
//! HTTP dispatcher, so a viewer costs one task. Each poll reads what the browser sent (input,
//! pings, key frame requests; WebSocket pings get pongs) and then writes what the fan-out
//! queued in the viewer's outbox. When the dispatcher cannot write (a slow browser), the body
//! is not polled, the outbox fills, and the fan-out starts dropping frames for this viewer only.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use actix_codec::{Decoder, Encoder};
use actix_http::ws::{Codec, Frame, Message};
use actix_web::web::{Bytes, BytesMut};
use futures_util::Stream;
use prost::Message as _;

use crate::fanout::{Out, Viewer};
use crate::input::Input;
use crate::proto::{client_frame, host_frame, ClientFrame, HostFrame, Pong};
use crate::slot::Slot;

/// The largest frame a browser may send (input frames are a few bytes).
pub const MAX_FRAME: usize = 16 * 1024;

pub struct Socket {
    pub slot: Arc<Slot>,
    pub viewer: Arc<Viewer>,
    pub payload: actix_web::dev::Payload,
    pub codec: Codec,
    /// Received bytes not yet decoded.
    pub input: BytesMut,
    pub closing: bool,
    pub closed: bool,
}

impl Socket {
    pub fn new(slot: Arc<Slot>, viewer: Arc<Viewer>, payload: actix_web::dev::Payload) -> Socket {
        metrics::gauge!("yoo_gamehost_stream_connections").increment(1.0);
        Socket {
            slot,
            viewer,
            payload,
            codec: Codec::new().max_size(MAX_FRAME),
            input: BytesMut::new(),
            closing: false,
            closed: false,
        }
    }

    /// Reads and handles what the browser sent; false when it is gone.
    fn read(&mut self, cx: &mut Context<'_>) -> bool {
        loop {
            match Pin::new(&mut self.payload).poll_next(cx) {
                Poll::Ready(Some(Ok(bytes))) => self.input.extend_from_slice(&bytes),
                Poll::Ready(Some(Err(_))) | Poll::Ready(None) => return false,
                Poll::Pending => break,
            }
        }
        loop {
            match self.codec.decode(&mut self.input) {
                Ok(Some(Frame::Binary(b))) => self.handle(&b),
                Ok(Some(Frame::Ping(p))) => {
                    let mut out = BytesMut::new();
                    if self.codec.encode(Message::Pong(p), &mut out).is_ok() {
                        self.viewer.outbox.lock().push(Out::WsPong(out.freeze()));
                    }
                }
                Ok(Some(Frame::Close(_))) | Err(_) => {
                    self.closing = true;
                    break;
                }
                Ok(Some(_)) => {}
                Ok(None) => break,
            }
        }
        true
    }

    fn handle(&mut self, bytes: &[u8]) {
        let Ok(frame) = ClientFrame::decode(bytes) else {
            return;
        };
        let input = match frame.body {
            Some(client_frame::Body::Ping(p)) => {
                self.viewer.send(&HostFrame {
                    body: Some(host_frame::Body::Pong(Pong { client_ms: p.client_ms })),
                });
                return;
            }
            Some(client_frame::Body::KeyFrame(_)) => {
                self.slot.hub.request_key();
                return;
            }
            Some(client_frame::Body::Key(k)) => Input::Key {
                code: k.code,
                down: k.down,
            },
            Some(client_frame::Body::Move(m)) => Input::Move { x: m.x, y: m.y },
            Some(client_frame::Body::Delta(d)) => Input::Delta { dx: d.dx, dy: d.dy },
            Some(client_frame::Body::Button(b)) => Input::Button {
                button: b.button,
                down: b.down,
            },
            Some(client_frame::Body::Wheel(w)) => Input::Wheel { dx: w.dx, dy: w.dy },
            None => return,
        };
        let taken = self.slot.input(self.viewer.session_id, self.viewer.uid, input);
        let verdict = if taken { "taken" } else { "refused" };
        metrics::counter!("yoo_gamehost_input_events_total", "verdict" => verdict).increment(1);
    }
}

impl Stream for Socket {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.closed || !this.read(cx) {
            return Poll::Ready(None);
        }
        let frames = {
            let mut o = this.viewer.outbox.lock();
            if o.closed {
                this.closing = true;
            }
            if o.frames.is_empty() && !this.closing {
                if !o.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                    o.waker = Some(cx.waker().clone());
                }
                return Poll::Pending;
            }
            std::iter::from_fn(|| o.pop()).collect::<Vec<_>>()
        };
        let mut out = BytesMut::new();
        for f in frames {
            let encoded = match f {
                Out::Video(b) | Out::Frame(b) => this.codec.encode(Message::Binary(b), &mut out),
                Out::WsPong(raw) => {
                    out.extend_from_slice(&raw);
                    Ok(())
                }
            };
            if encoded.is_err() {
                return Poll::Ready(None);
            }
        }
        if out.is_empty() && this.closing {
            this.closed = true;
            let _ = this.codec.encode(Message::Close(None), &mut out);
        }
        Poll::Ready(Some(Ok(out.freeze())))
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.slot.hub.detach(self.viewer.id);
        metrics::gauge!("yoo_gamehost_stream_connections").decrement(1.0);
    }
}
