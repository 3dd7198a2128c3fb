//! The game hosts' link, `GET /api/host/link`: one WebSocket per `yoo-gamehost`, JSON text
//! frames of `hostlink` ([`HostMsg`] from the host, [`PlatformMsg`] to it).
//!
//! The first frame must be the host's [`Hello`], within [`HELLO_WAIT`]: it is checked against
//! the node's `host_secret` from the configuration ([`Hello::verify`]: the MAC, the link
//! version, the hello's clock), then the domain links the host (a second live host of the same
//! name is refused). A refused hello is answered with [`PlatformMsg::Refused`] and the link is
//! closed. After the welcome, every frame is turned into a domain call
//! ([`actors::play::hosts::HostEvent`]), and the domain's commands ([`HostCommand`]) into frames
//! through [`LinkSink`]; the domain, which builds no wire format, never sees JSON. The domain
//! decides when a host is silent for too long and closes its link; a link that closes (or sends
//! what is not a host message) loses the host at once.
//!
//! A link is a few frames a second for a handful of hosts, so it is the plain shape: a task
//! reads the host's frames, and the response body is a stream of the frames queued for it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actix_codec::{Decoder, Encoder};
use actix_http::ws::{Codec, Frame, Message};
use actix_web::body::{BodyStream, MessageBody};
use actix_web::web::{Bytes, BytesMut};
use actix_web::{get, web, HttpRequest, HttpResponse};
use actors::play::hosts::{HostCommand, HostEvent, HostHello, HostLink, HostRefusal, HostSink, SlotReport, SlotState};
use actors::Platform;
use futures_util::StreamExt;
use hostlink::{Hello, HostMsg, LinkRefusal, PlatformMsg, SlotPhase};
use tokio::sync::mpsc;

use crate::envelope::ApiError;
use crate::state::AppState;

/// How long a host has to say hello after the upgrade.
pub const HELLO_WAIT: Duration = Duration::from_secs(10);
/// The largest frame a host may send (a heartbeat of every slot is far smaller).
const MAX_FRAME: usize = 64 * 1024;

/// A frame for the host.
enum Out {
    Text(String),
    Pong(Bytes),
    /// The close frame; the link ends after it.
    Close,
}

/// The domain's end of a link: its commands become `PlatformMsg` frames.
pub struct LinkSink {
    tx: mpsc::UnboundedSender<Out>,
    closed: AtomicBool,
}

impl LinkSink {
    fn frame(&self, msg: &PlatformMsg) -> bool {
        !self.closed.load(Ordering::SeqCst) && self.tx.send(Out::Text(msg.to_json())).is_ok()
    }
}

impl HostSink for LinkSink {
    fn send(&self, cmd: HostCommand) -> bool {
        self.frame(&platform_msg(cmd))
    }

    fn close(&self) {
        if !self.closed.swap(true, Ordering::SeqCst) {
            let _ = self.tx.send(Out::Close);
        }
    }
}

/// A domain command as the host reads it.
pub fn platform_msg(cmd: HostCommand) -> PlatformMsg {
    match cmd {
        HostCommand::Welcome => PlatformMsg::Welcome {
            heartbeat_ms: hostlink::HEARTBEAT_MS,
        },
        HostCommand::Launch {
            slot,
            session_id,
            uid,
            game,
        } => PlatformMsg::Launch {
            slot,
            session_id,
            uid,
            game,
        },
        HostCommand::End { slot, session_id } => PlatformMsg::End { slot, session_id },
        HostCommand::Control {
            slot,
            session_id,
            controller,
        } => PlatformMsg::Control {
            slot,
            session_id,
            controller,
        },
    }
}

fn slot_report(r: hostlink::SlotReport) -> SlotReport {
    let state = match r.phase {
        SlotPhase::Free => SlotState::Free,
        SlotPhase::Launching => SlotState::Launching,
        SlotPhase::Playing => SlotState::Playing,
        SlotPhase::Resetting => SlotState::Resetting,
        SlotPhase::Broken => SlotState::Broken,
    };
    SlotReport {
        slot: r.slot,
        state,
        session_id: r.session_id,
    }
}

/// A host's message after its hello, as a domain event; None for a second hello.
fn host_event(msg: HostMsg) -> Option<HostEvent> {
    Some(match msg {
        HostMsg::Hello(_) => return None,
        HostMsg::Heartbeat { slots } => HostEvent::Heartbeat(slots.into_iter().map(slot_report).collect()),
        HostMsg::Slot(r) => HostEvent::Slot(slot_report(r)),
        HostMsg::FirstFrame { slot, session_id } => HostEvent::FirstFrame { slot, session_id },
        HostMsg::GameExited { slot, session_id, reason } => {
            tracing::info!(slot, session_id, %reason, "a host's game exited");
            HostEvent::GameExited { slot, session_id }
        }
        HostMsg::Input { slot, session_id } => HostEvent::Input { slot, session_id },
    })
}

crate::envelope::refusals!(LinkRefusals: common::input());

/// The game hosts' link (`101 Switching Protocols`, then JSON text frames of `hostlink`: the
/// host's `Hello` first, answered `Welcome` or `Refused`). Not for browsers.
#[utoipa::path(responses((status = 101, description = "the link is open; the host says hello"), LinkRefusals))]
#[get("/api/host/link")]
pub async fn link_socket(req: HttpRequest, body: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let mut response = actix_http::ws::handshake(req.head()).map_err(|_| ApiError::bad_request())?;
    let (tx, rx) = mpsc::unbounded_channel();
    let sink = Arc::new(LinkSink {
        tx,
        closed: AtomicBool::new(false),
    });
    actix_web::rt::spawn(serve(body.into_inner(), sink, state.platform.clone()));
    let frames = futures_util::stream::unfold((rx, Codec::new(), false), |(mut rx, mut codec, done)| async move {
        if done {
            return None;
        }
        let out = rx.recv().await.unwrap_or(Out::Close);
        let (msg, last) = match out {
            Out::Text(t) => (Message::Text(t.into()), false),
            Out::Pong(p) => (Message::Pong(p), false),
            Out::Close => (Message::Close(None), true),
        };
        let mut buf = BytesMut::new();
        let encoded = codec.encode(msg, &mut buf).map(|_| buf.freeze()).map_err(std::io::Error::other);
        Some((encoded, (rx, codec, last)))
    });
    Ok(response
        .message_body(BodyStream::new(frames).boxed())
        .map_err(|_| ApiError::bad_request())?
        .into())
}

/// The frames a host sends, decoded.
struct Frames {
    payload: actix_web::dev::Payload,
    codec: Codec,
    input: BytesMut,
}

impl Frames {
    /// The next frame; None when the link is gone or broken.
    async fn next(&mut self) -> Option<Frame> {
        loop {
            match self.codec.decode(&mut self.input) {
                Ok(Some(frame)) => return Some(frame),
                Ok(None) => {}
                Err(e) => {
                    tracing::info!(error = %e, "a host link sent a bad frame");
                    return None;
                }
            }
            match self.payload.next().await {
                Some(Ok(bytes)) => self.input.extend_from_slice(&bytes),
                _ => return None,
            }
        }
    }
}

/// Reads a link: the hello, then the host's messages until the link ends.
async fn serve(payload: actix_web::dev::Payload, sink: Arc<LinkSink>, platform: Platform) {
    let mut frames = Frames {
        payload,
        codec: Codec::new().max_size(MAX_FRAME),
        input: BytesMut::new(),
    };
    let Some(link) = hello(&mut frames, &sink, &platform).await else {
        sink.close();
        return;
    };
    metrics::gauge!("yoo_host_links_open").increment(1.0);
    while let Some(frame) = frames.next().await {
        match frame {
            Frame::Text(text) => match serde_json::from_slice::<HostMsg>(&text).ok().and_then(host_event) {
                Some(event) => platform.play.host_event(&link, event),
                None => {
                    tracing::warn!(host = %link.host, "a host sent what is not a host message; its link is closed");
                    break;
                }
            },
            Frame::Ping(p) => {
                let _ = sink.tx.send(Out::Pong(p));
            }
            Frame::Close(_) => break,
            _ => {}
        }
    }
    metrics::gauge!("yoo_host_links_open").decrement(1.0);
    platform.play.host_gone(link);
    sink.close();
}

/// Waits for the hello and checks it; the host is welcomed (by the domain) or refused here.
async fn hello(frames: &mut Frames, sink: &Arc<LinkSink>, platform: &Platform) -> Option<HostLink> {
    let first = tokio::time::timeout(HELLO_WAIT, async {
        loop {
            match frames.next().await? {
                Frame::Text(text) => return Some(text),
                Frame::Ping(p) => {
                    let _ = sink.tx.send(Out::Pong(p));
                }
                _ => return None,
            }
        }
    })
    .await
    .ok()??;
    let Ok(HostMsg::Hello(h)) = serde_json::from_slice::<HostMsg>(&first) else {
        tracing::info!("a host link's first frame was not a hello");
        return None;
    };
    let refuse = |reason: LinkRefusal| {
        tracing::warn!(node_id = h.node_id, host = %h.host, ?reason, "host hello refused");
        sink.frame(&PlatformMsg::Refused { reason });
        None
    };
    let secret = platform
        .config()
        .nodes
        .iter()
        .find(|n| n.id == h.node_id)
        .and_then(|n| n.host_secret.clone());
    let Some(secret) = secret else {
        return refuse(LinkRefusal::UnknownNode);
    };
    if let Err(reason) = h.verify(secret.as_bytes(), platform.clock().now_ms()) {
        return refuse(reason);
    }
    let Hello {
        node_id,
        host,
        stream_url,
        ping_url,
        games,
        slots,
        ..
    } = h.clone();
    let domain_hello = HostHello {
        node_id,
        host,
        stream_url,
        ping_url,
        games,
        slots: slots.into_iter().map(slot_report).collect(),
    };
    let as_sink: Arc<dyn HostSink> = sink.clone();
    match platform.play.link_host(domain_hello, as_sink).await {
        Ok(link) => Some(link),
        Err(HostRefusal::Duplicate) => refuse(LinkRefusal::Duplicate),
        Err(HostRefusal::UnknownNode) => refuse(LinkRefusal::UnknownNode),
        Err(HostRefusal::Elsewhere) => {
            // not an error: the host links again until it reaches the node's owner
            sink.frame(&PlatformMsg::Refused {
                reason: LinkRefusal::Elsewhere,
            });
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every domain command has its frame, and the welcome names the heartbeat period.
    #[test]
    fn commands_become_platform_messages() {
        assert_eq!(
            platform_msg(HostCommand::Welcome).to_json(),
            format!(r#"{{"type":"welcome","heartbeat_ms":{}}}"#, hostlink::HEARTBEAT_MS)
        );
        assert_eq!(
            platform_msg(HostCommand::End { slot: 1, session_id: 2 }),
            PlatformMsg::End { slot: 1, session_id: 2 }
        );
        assert_eq!(
            platform_msg(HostCommand::Control {
                slot: 1,
                session_id: 2,
                controller: 3
            })
            .to_json(),
            r#"{"type":"control","slot":1,"session_id":2,"controller":3}"#
        );
        let event = host_event(HostMsg::Heartbeat {
            slots: vec![hostlink::SlotReport {
                slot: 3,
                phase: SlotPhase::Resetting,
                session_id: Some(4),
            }],
        });
        assert_eq!(
            event,
            Some(HostEvent::Heartbeat(vec![SlotReport {
                slot: 3,
                state: SlotState::Resetting,
                session_id: Some(4)
            }]))
        );
    }
}
