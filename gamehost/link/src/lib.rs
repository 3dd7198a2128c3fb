//! What the platform and its game hosts agree on.
//!
//! - The **host link**: a game host (`yoo-gamehost`) opens one WebSocket to the platform
//!   (`GET /api/host/link`), proves it holds its node's secret with a [`Hello`] MAC (the secret
//!   itself never crosses the wire), then reports its slots and heartbeats; the platform sends it
//!   launch and end commands. Every frame is one JSON text message: [`HostMsg`] one way,
//!   [`PlatformMsg`] the other.
//! - The **stream ticket**: the platform gives a player, or a live room's viewer, a short-lived
//!   signed [`Ticket`] for one slot of one host; the browser presents it to the host's stream
//!   endpoint, and the host checks it with the same node secret, without asking the platform.
//! - The **controller**: whose input a slot takes. At launch it is the session's player; a live
//!   room hands control to a guest and back with [`PlatformMsg::Control`], and the host takes
//!   input only from a connection whose ticket names the current controller.
//!
//! Nothing here does I/O, so both sides and their tests depend on it cheaply.

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine as _;
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

/// The version of the host link; a host speaking another one is refused.
pub const LINK_VERSION: u32 = 1;

/// How often a host sends a [`HostMsg::Heartbeat`].
pub const HEARTBEAT_MS: u64 = 1_000;

/// A slot whose game takes its controller's input says so at most this often
/// ([`HostMsg::Input`]): the platform tells a hanging session (no input for a while) from one
/// being played.
pub const INPUT_REPORT_MS: u64 = 10_000;

/// A host silent for this long has lost its machines: the platform takes them out of the pool
/// and ends the sessions on them.
pub const HOST_TIMEOUT_MS: u64 = 3_000;

/// How far a [`Hello`]'s clock may be from the platform's (replayed hellos older than this are
/// refused).
pub const HELLO_SKEW_MS: i64 = 30_000;

/// How long a stream ticket may be presented after it was issued. A connection opened with it
/// stays up after it expires; a reconnect asks the platform for a fresh one.
pub const TICKET_TTL_MS: i64 = 60_000;

/// What a slot of a host is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotPhase {
    /// Its display is up and no game runs: the platform may hand it to a session.
    Free,
    /// A game is starting for a session; no frame encoded yet.
    Launching,
    /// The game's first frame has been encoded and it streams.
    Playing,
    /// The game is being ended and the display reset; not free yet.
    Resetting,
    /// The display or the encoder cannot run; the platform keeps it out of the pool.
    Broken,
}

/// One slot's state, as a host reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotReport {
    /// The slot's index on its host, from 0.
    pub slot: u32,
    pub phase: SlotPhase,
    /// The game session the slot serves (Launching, Playing, Resetting).
    pub session_id: Option<i64>,
}

/// The first frame a host sends on the link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub version: u32,
    /// The node whose machines this host provides.
    pub node_id: i64,
    /// The host's name, unique within its node (machine ids are `{host}-{slot}`).
    pub host: String,
    /// The host's clock when it said hello (milliseconds since the epoch).
    pub ts_ms: i64,
    /// `mac(node secret, hello_payload(..))`, base64url.
    pub mac: String,
    /// Where browsers open the stream: `ws(s)://host:port`, the endpoint is `{stream_url}/stream`.
    pub stream_url: String,
    /// The node's latency probe, served by the host (the node list's `pingUrl`).
    pub ping_url: String,
    /// The host games it can launch (keys of its configuration, named by catalogue entries).
    pub games: Vec<String>,
    pub slots: Vec<SlotReport>,
}

impl Hello {
    /// The bytes the hello's MAC covers.
    pub fn payload(version: u32, node_id: i64, host: &str, ts_ms: i64) -> Vec<u8> {
        format!("yoo-host-hello\n{version}\n{node_id}\n{host}\n{ts_ms}").into_bytes()
    }

    /// Fills in `mac` with the node's secret.
    pub fn sign(mut self, secret: &[u8]) -> Self {
        self.mac = B64.encode(mac(secret, &Self::payload(self.version, self.node_id, &self.host, self.ts_ms)));
        self
    }

    /// Whether the hello was signed with `secret` within [`HELLO_SKEW_MS`] of `now_ms`.
    pub fn verify(&self, secret: &[u8], now_ms: i64) -> Result<(), LinkRefusal> {
        if self.version != LINK_VERSION {
            return Err(LinkRefusal::Version);
        }
        let Ok(given) = B64.decode(&self.mac) else {
            return Err(LinkRefusal::BadMac);
        };
        let mut m = hmac_of(secret);
        m.update(&Self::payload(self.version, self.node_id, &self.host, self.ts_ms));
        m.verify_slice(&given).map_err(|_| LinkRefusal::BadMac)?;
        if (now_ms - self.ts_ms).abs() > HELLO_SKEW_MS {
            return Err(LinkRefusal::Stale);
        }
        Ok(())
    }
}

/// Why the platform refused a host's hello.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkRefusal {
    /// Another link version.
    Version,
    /// The node is unknown or has no host secret configured.
    UnknownNode,
    /// The MAC does not match the node's secret.
    BadMac,
    /// The hello's clock is too far from the platform's.
    Stale,
    /// A host of that name is already linked for the node.
    Duplicate,
    /// In a cluster: another process owns the node's queue now (or none does, for the moment
    /// of a takeover): link again, soon, through the front door.
    Elsewhere,
}

/// Host → platform.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostMsg {
    Hello(Hello),
    /// Every [`HEARTBEAT_MS`], with every slot's state.
    Heartbeat {
        slots: Vec<SlotReport>,
    },
    /// A slot's phase changed (sent at once, besides the next heartbeat).
    Slot(SlotReport),
    /// The first frame of the session's game has been encoded: CONNECTING becomes PLAYING.
    FirstFrame {
        slot: u32,
        session_id: i64,
    },
    /// The session's game ended on its own (it exited or crashed, or could not start).
    GameExited {
        slot: u32,
        session_id: i64,
        reason: String,
    },
    /// The session's game took its controller's input (at most once every
    /// [`INPUT_REPORT_MS`] per slot, while input comes).
    Input {
        slot: u32,
        session_id: i64,
    },
}

/// Platform → host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PlatformMsg {
    /// The hello was accepted.
    Welcome { heartbeat_ms: u64 },
    /// The hello was refused; the platform closes the link.
    Refused { reason: LinkRefusal },
    /// Launch `game` on `slot` for the session (the player confirmed). The host answers with
    /// `Slot(Launching)`, then `FirstFrame`, or `GameExited` when it cannot start.
    Launch {
        slot: u32,
        session_id: i64,
        uid: i64,
        game: String,
    },
    /// End the session's game on `slot` and reset the slot; the host reports `Slot(Free)` when
    /// the slot may serve again.
    End { slot: u32, session_id: i64 },
    /// From now on the session's input on `slot` is taken only from connections whose ticket
    /// names `controller` (whatever their role); everyone else's is dropped, on connections
    /// already open too. At launch the controller is the session's player. A Control that
    /// arrives before its Launch is kept for it; one for a session the slot no longer serves is
    /// ignored.
    Control { slot: u32, session_id: i64, controller: i64 },
}

impl HostMsg {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("host messages serialize")
    }
}

impl PlatformMsg {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("platform messages serialize")
    }
}

/// Who a stream connection is. The host decides input by the ticket's `uid` against the
/// slot's controller, not by the role; the role says why the platform let it watch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The session's player: watches, and its input reaches the game while it is the
    /// controller (from the launch until control is handed to someone else).
    Player,
    /// Watches (a room's viewer); its input reaches the game only while the platform has made
    /// it the controller ([`PlatformMsg::Control`]).
    Viewer,
}

/// A stream ticket: who may open which slot's stream, until when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ticket {
    pub node_id: i64,
    pub host: String,
    pub slot: u32,
    pub session_id: i64,
    pub uid: i64,
    pub role: Role,
    /// Milliseconds since the epoch after which the ticket is refused.
    pub exp_ms: i64,
}

/// Why a host refused a ticket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TicketRefusal {
    /// Not a ticket (missing, not `v1.<payload>.<mac>`, or a payload that does not parse).
    Malformed,
    /// Signed with another secret, or altered.
    BadSignature,
    /// Past its `exp_ms`.
    Expired,
}

impl Ticket {
    /// `v1.<base64url(json)>.<base64url(mac)>`, signed with the node's secret.
    pub fn sign(&self, secret: &[u8]) -> String {
        let payload = B64.encode(serde_json::to_vec(self).expect("tickets serialize"));
        let sig = B64.encode(mac(secret, payload.as_bytes()));
        format!("v1.{payload}.{sig}")
    }

    /// The ticket in `token`, when `secret` signed it and it is not past its expiry at `now_ms`.
    /// The caller checks that it names this host and a slot that serves its session.
    pub fn verify(token: &str, secret: &[u8], now_ms: i64) -> Result<Ticket, TicketRefusal> {
        let mut parts = token.split('.');
        let (Some("v1"), Some(payload), Some(sig), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
            return Err(TicketRefusal::Malformed);
        };
        let sig = B64.decode(sig).map_err(|_| TicketRefusal::Malformed)?;
        let mut m = hmac_of(secret);
        m.update(payload.as_bytes());
        m.verify_slice(&sig).map_err(|_| TicketRefusal::BadSignature)?;
        let json = B64.decode(payload).map_err(|_| TicketRefusal::Malformed)?;
        let ticket: Ticket = serde_json::from_slice(&json).map_err(|_| TicketRefusal::Malformed)?;
        if now_ms > ticket.exp_ms {
            return Err(TicketRefusal::Expired);
        }
        Ok(ticket)
    }
}

fn hmac_of(secret: &[u8]) -> Hmac<Sha256> {
    <Hmac<Sha256> as KeyInit>::new_from_slice(secret).expect("HMAC takes a key of any length")
}

fn mac(secret: &[u8], data: &[u8]) -> Vec<u8> {
    let mut m = hmac_of(secret);
    m.update(data);
    m.finalize().into_bytes().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticket() -> Ticket {
        Ticket {
            node_id: 1,
            host: "hd1".into(),
            slot: 0,
            session_id: 42,
            uid: 7,
            role: Role::Player,
            exp_ms: 1_000_000,
        }
    }

    #[test]
    fn a_ticket_verifies_with_its_secret_only_and_until_it_expires() {
        let t = ticket().sign(b"node-secret");
        assert_eq!(Ticket::verify(&t, b"node-secret", 999_999), Ok(ticket()));
        assert_eq!(Ticket::verify(&t, b"node-secret", 1_000_000), Ok(ticket()), "valid at its expiry");
        assert_eq!(Ticket::verify(&t, b"node-secret", 1_000_001), Err(TicketRefusal::Expired));
        assert_eq!(Ticket::verify(&t, b"other-secret", 0), Err(TicketRefusal::BadSignature));
    }

    #[test]
    fn an_altered_or_malformed_ticket_is_refused() {
        let t = ticket().sign(b"s");
        let (head, sig) = t.rsplit_once('.').unwrap();
        // Another player's ticket with this one's signature.
        let mut other = ticket();
        other.uid = 8;
        let forged = format!("v1.{}.{sig}", B64.encode(serde_json::to_vec(&other).unwrap()));
        assert_eq!(Ticket::verify(&forged, b"s", 0), Err(TicketRefusal::BadSignature));
        for bad in ["", "v1", "v1.a", "v2.a.b", &format!("{head}.!!"), &format!("{t}.x")] {
            assert_eq!(Ticket::verify(bad, b"s", 0), Err(TicketRefusal::Malformed), "{bad:?}");
        }
        let unsigned_json = format!("v1.{}.{}", B64.encode(b"{}"), B64.encode(mac(b"s", B64.encode(b"{}").as_bytes())));
        assert_eq!(Ticket::verify(&unsigned_json, b"s", 0), Err(TicketRefusal::Malformed));
    }

    fn hello(ts_ms: i64) -> Hello {
        Hello {
            version: LINK_VERSION,
            node_id: 1,
            host: "hd1".into(),
            ts_ms,
            mac: String::new(),
            stream_url: "ws://127.0.0.1:9100".into(),
            ping_url: "http://127.0.0.1:9100/ping".into(),
            games: vec!["neverball".into()],
            slots: vec![SlotReport {
                slot: 0,
                phase: SlotPhase::Free,
                session_id: None,
            }],
        }
    }

    #[test]
    fn a_hello_proves_the_secret_without_sending_it() {
        let h = hello(50_000).sign(b"node-secret");
        let wire = HostMsg::Hello(h.clone()).to_json();
        assert!(!wire.contains("node-secret"));
        assert_eq!(serde_json::from_str::<HostMsg>(&wire).unwrap(), HostMsg::Hello(h.clone()));
        assert_eq!(h.verify(b"node-secret", 60_000), Ok(()));
        assert_eq!(h.verify(b"wrong", 60_000), Err(LinkRefusal::BadMac));
        assert_eq!(h.verify(b"node-secret", 50_000 + HELLO_SKEW_MS + 1), Err(LinkRefusal::Stale));
        let mut renamed = h.clone();
        renamed.host = "other".into();
        assert_eq!(
            renamed.verify(b"node-secret", 60_000),
            Err(LinkRefusal::BadMac),
            "the MAC covers the name"
        );
        let mut old = h;
        old.version = LINK_VERSION + 1;
        assert_eq!(old.verify(b"node-secret", 60_000), Err(LinkRefusal::Version));
    }

    #[test]
    fn messages_have_a_stable_tagged_shape() {
        let launch = PlatformMsg::Launch {
            slot: 1,
            session_id: 9,
            uid: 3,
            game: "supertux".into(),
        };
        assert_eq!(
            launch.to_json(),
            r#"{"type":"launch","slot":1,"session_id":9,"uid":3,"game":"supertux"}"#
        );
        let control = PlatformMsg::Control {
            slot: 1,
            session_id: 9,
            controller: 4,
        };
        assert_eq!(control.to_json(), r#"{"type":"control","slot":1,"session_id":9,"controller":4}"#);
        assert_eq!(serde_json::from_str::<PlatformMsg>(&control.to_json()).unwrap(), control);
        let first = HostMsg::FirstFrame { slot: 1, session_id: 9 };
        assert_eq!(first.to_json(), r#"{"type":"first_frame","slot":1,"session_id":9}"#);
        let input = HostMsg::Input { slot: 1, session_id: 9 };
        assert_eq!(input.to_json(), r#"{"type":"input","slot":1,"session_id":9}"#);
        assert_eq!(serde_json::from_str::<HostMsg>(&input.to_json()).unwrap(), input);
        assert!(serde_json::from_str::<HostMsg>(r#"{"type":"nonsense"}"#).is_err());
    }
}
