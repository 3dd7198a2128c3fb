//! A slot's fan-out: each encoded access unit goes to every viewer of the slot's session
//! without the encoder ever waiting for one.
//!
//! Every viewer has a small outbox. A viewer starts at a key frame (its `Config` right before
//! it); a viewer whose outbox is full loses frames up to the next key frame, and the encoder is
//! asked for one at once. The encoder's thread only takes locks held for a queue push.
//!
//! The hub also knows the session's controller: the one user whose connections' input reaches
//! the game (the player at launch; a live room hands it on). Each viewer's `Config` says whether
//! its input is taken; when control moves, the viewers whose answer changed restart at the next
//! key frame (asked for at once) with a `Config` saying so, so a page learns it without a new
//! message type, and their decoders start clean there.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::Waker;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use parking_lot::Mutex;
use prost::Message as _;

use crate::proto::{host_frame, Config, HostFrame, Notice, Video};

/// Video frames a viewer may have queued; past this it waits for the next key frame. At 30 fps
/// this is about a quarter of a second of delay before the viewer starts losing frames.
pub const VIDEO_QUEUE: usize = 8;

/// A key frame request still unanswered after this is asked again (the encoder may have been
/// restarting).
const KEY_REQUEST_RETRY: Duration = Duration::from_millis(500);

/// What the stream looks like (from the encoder's sequence parameters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    pub codec: String,
    pub width: u32,
    pub height: u32,
    pub fps: u32,
}

/// One encoded access unit (H.264 Annex B).
pub struct AccessUnit {
    pub key: bool,
    pub capture_us: u64,
    pub data: Vec<u8>,
}

/// A frame waiting to be written to a viewer's socket.
#[derive(Debug, Clone, PartialEq)]
pub enum Out {
    /// A `HostFrame` carrying video (counts against [`VIDEO_QUEUE`]).
    Video(Bytes),
    /// Any other `HostFrame` (Config, Pong, Notice): never dropped.
    Frame(Bytes),
    /// A WebSocket pong for the client's ping.
    WsPong(Bytes),
}

/// A viewer's queue, shared by the fan-out (producer) and its socket (consumer).
#[derive(Default)]
pub struct Outbox {
    pub frames: VecDeque<Out>,
    pub waker: Option<Waker>,
    /// No more frames will come: the socket sends what is queued and closes.
    pub closed: bool,
    videos: usize,
    /// Waiting for a key frame (new viewer, or frames were dropped).
    needs_key: bool,
    /// The format last sent to this viewer.
    sent_format: Option<Format>,
    /// Whether the last `Config` sent said its input is taken.
    sent_input: Option<bool>,
}

impl Outbox {
    pub fn push(&mut self, out: Out) {
        if let Out::Video(_) = out {
            self.videos += 1;
        }
        self.frames.push_back(out);
        if let Some(w) = self.waker.take() {
            w.wake();
        }
    }

    pub fn pop(&mut self) -> Option<Out> {
        let out = self.frames.pop_front()?;
        if let Out::Video(_) = out {
            self.videos -= 1;
        }
        Some(out)
    }

    pub fn close(&mut self) {
        self.closed = true;
        if let Some(w) = self.waker.take() {
            w.wake();
        }
    }
}

/// One stream connection's place in the fan-out.
pub struct Viewer {
    pub id: u64,
    /// The ticket's user: input is taken while they are the session's controller.
    pub uid: i64,
    pub session_id: i64,
    pub outbox: Mutex<Outbox>,
}

impl Viewer {
    /// Queues a non-video frame (a Pong, a Notice).
    pub fn send(&self, frame: &HostFrame) {
        self.outbox.lock().push(Out::Frame(frame.encode_to_vec().into()));
    }
}

/// Asks the encoder for a key frame.
pub type KeyRequester = Box<dyn Fn() + Send + Sync>;

/// Runs when the first frame captured after the game's window appeared has been encoded.
pub type FirstFrameHook = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct HubState {
    /// The session the slot serves; viewers of any other are refused.
    session: Option<i64>,
    /// (session, uid): whose input the session takes. Set at launch (the player), moved by the
    /// platform; a controller set before its session opens is kept for it.
    controller: Option<(i64, i64)>,
    viewers: Vec<Arc<Viewer>>,
    format: Option<Format>,
    seq: u64,
    key_requester: Option<KeyRequester>,
    /// When a key frame was last asked for and not yet seen.
    key_asked: Option<Instant>,
    /// Fired by the first access unit captured at or after the given time (µs).
    first_frame: Option<(u64, FirstFrameHook)>,
}

/// The fan-out of one slot.
pub struct Hub {
    slot: String,
    state: Mutex<HubState>,
    next_id: AtomicU64,
}

/// Why a viewer was not attached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotServing;

impl Hub {
    pub fn new(slot: u32) -> Hub {
        Hub {
            slot: slot.to_string(),
            state: Mutex::new(HubState::default()),
            next_id: AtomicU64::new(1),
        }
    }

    /// The slot now serves `session` (a launch) for `player`, its controller unless the platform
    /// already named another one for it; the format is learnt from its first key frame.
    pub fn open(&self, session: i64, player: i64) {
        let mut s = self.state.lock();
        s.session = Some(session);
        if s.controller.is_none_or(|(id, _)| id != session) {
            s.controller = Some((session, player));
        }
        s.format = None;
        s.key_asked = None;
    }

    /// The platform made `uid` the session's controller: from this call on only their input is
    /// taken. Viewers whose right changed get a `Config` saying so before the next key frame,
    /// which is asked for at once. Ignored (false) for a session other than the one served; kept
    /// for the session when none is served yet (its launch may still be on its way).
    pub fn set_controller(&self, session: i64, uid: i64) -> bool {
        let mut s = self.state.lock();
        if s.session.is_some_and(|served| served != session) {
            return false;
        }
        s.controller = Some((session, uid));
        if s.session.is_none() {
            return true;
        }
        let mut moved = false;
        for v in &s.viewers {
            let mut o = v.outbox.lock();
            if o.sent_input.is_some_and(|was| was != (v.uid == uid)) {
                o.needs_key = true;
                moved = true;
            }
        }
        if moved {
            ask_key(&mut s, true);
        }
        true
    }

    /// (session, uid) of the controller, as the hub has it.
    pub fn controller(&self) -> Option<(i64, i64)> {
        self.state.lock().controller
    }

    /// Whether input from `uid`'s connection to `session` is taken now.
    pub fn controls(&self, session: i64, uid: i64) -> bool {
        let s = self.state.lock();
        s.session == Some(session) && s.controller == Some((session, uid))
    }

    /// Whether the slot serves this session.
    pub fn serves(&self, session: i64) -> bool {
        self.state.lock().session == Some(session)
    }

    /// The encoder to ask for key frames (None when the capture stops).
    pub fn set_key_requester(&self, f: Option<KeyRequester>) {
        let mut s = self.state.lock();
        s.key_requester = f;
        s.key_asked = None;
    }

    /// `hook` runs once the first access unit captured at or after `after_us` is encoded.
    pub fn on_first_frame_after(&self, after_us: u64, hook: FirstFrameHook) {
        self.state.lock().first_frame = Some((after_us, hook));
    }

    /// A new viewer of `session` (its ticket's user): it gets the format and a key frame first.
    pub fn attach(&self, session: i64, uid: i64) -> Result<Arc<Viewer>, NotServing> {
        let mut s = self.state.lock();
        if s.session != Some(session) {
            return Err(NotServing);
        }
        let v = Arc::new(Viewer {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            uid,
            session_id: session,
            outbox: Mutex::new(Outbox {
                needs_key: true,
                ..Outbox::default()
            }),
        });
        s.viewers.push(v.clone());
        metrics::gauge!("yoo_gamehost_viewers", "slot" => self.slot.clone()).set(s.viewers.len() as f64);
        ask_key(&mut s, true);
        Ok(v)
    }

    /// A viewer's socket went away.
    pub fn detach(&self, id: u64) {
        let mut s = self.state.lock();
        s.viewers.retain(|v| v.id != id);
        metrics::gauge!("yoo_gamehost_viewers", "slot" => self.slot.clone()).set(s.viewers.len() as f64);
    }

    /// A viewer's decoder lost its place.
    pub fn request_key(&self) {
        ask_key(&mut self.state.lock(), false);
    }

    /// How many viewers are attached.
    pub fn viewers(&self) -> usize {
        self.state.lock().viewers.len()
    }

    /// The session ended: every viewer gets the notice and its socket closes; nobody may attach
    /// until the next launch.
    pub fn close(&self, code: i32, text: &str) {
        let mut s = self.state.lock();
        s.session = None;
        s.controller = None;
        s.first_frame = None;
        let notice = HostFrame {
            body: Some(host_frame::Body::Notice(Notice { code, text: text.into() })),
        }
        .encode_to_vec();
        for v in s.viewers.drain(..) {
            let mut o = v.outbox.lock();
            o.push(Out::Frame(notice.clone().into()));
            o.close();
        }
        metrics::gauge!("yoo_gamehost_viewers", "slot" => self.slot.clone()).set(0.0);
    }

    /// Hands one access unit to every viewer (the encoder's thread). `format` is the stream's
    /// format when this unit carries sequence parameters.
    pub fn publish(&self, au: AccessUnit, format: Option<Format>) {
        metrics::counter!("yoo_gamehost_frames_encoded_total", "slot" => self.slot.clone()).increment(1);
        let mut s = self.state.lock();
        if s.session.is_none() {
            return;
        }
        // A viewer may start only at a key frame that carries its sequence parameters (x264
        // repeats them with every IDR; a decoder without them cannot start).
        let start_point = au.key && format.is_some();
        if let Some(f) = format {
            s.format = Some(f);
        }
        if start_point {
            s.key_asked = None;
        }
        if s.first_frame.as_ref().is_some_and(|(after, _)| au.capture_us >= *after) {
            if let Some((_, hook)) = s.first_frame.take() {
                hook();
            }
        }
        s.seq += 1;
        let video: Bytes = HostFrame {
            body: Some(host_frame::Body::Video(Video {
                key: au.key,
                seq: s.seq,
                capture_us: au.capture_us,
                data: au.data,
            })),
        }
        .encode_to_vec()
        .into();
        let mut dropped = 0u64;
        let mut want_key = false;
        let format = s.format.clone();
        let controller = s.controller.map(|(_, uid)| uid);
        s.viewers.retain(|v| {
            let mut o = v.outbox.lock();
            if o.closed {
                return false;
            }
            if o.needs_key && !start_point {
                dropped += 1;
                // A key frame is wanted once the viewer could take it: a stalled viewer does not
                // make the encoder spend key frames it would drop too.
                want_key |= o.videos < VIDEO_QUEUE;
                return true;
            }
            if o.videos >= VIDEO_QUEUE {
                // The viewer cannot take this frame: it skips to the next key frame, asked for
                // when it has room again.
                o.needs_key = true;
                dropped += 1;
                return true;
            }
            if start_point {
                o.needs_key = false;
                let input = controller == Some(v.uid);
                if o.sent_format != format || o.sent_input != Some(input) {
                    let f = format.clone().expect("a start point carries the format");
                    o.push(Out::Frame(config_frame(&f, input).into()));
                    o.sent_format = Some(f);
                    o.sent_input = Some(input);
                }
            }
            o.push(Out::Video(video.clone()));
            true
        });
        if dropped > 0 {
            metrics::counter!("yoo_gamehost_frames_dropped_total", "slot" => self.slot.clone()).increment(dropped);
        }
        if want_key {
            ask_key(&mut s, false);
        }
    }
}

fn config_frame(f: &Format, input: bool) -> Vec<u8> {
    HostFrame {
        body: Some(host_frame::Body::Config(Config {
            codec: f.codec.clone(),
            width: f.width,
            height: f.height,
            fps: f.fps,
            input,
        })),
    }
    .encode_to_vec()
}

/// Asks the encoder for a key frame, unless one was asked for very recently (`force`: a new
/// viewer always asks, its first frame waits for it).
fn ask_key(s: &mut HubState, force: bool) {
    let now = Instant::now();
    if !force && s.key_asked.is_some_and(|t| now.duration_since(t) < KEY_REQUEST_RETRY) {
        return;
    }
    if let Some(f) = &s.key_requester {
        s.key_asked = Some(now);
        f();
    }
}

/// The WebCodecs codec string of an H.264 stream (`avc1.PPCCLL`), from the first sequence
/// parameter set in an Annex B access unit.
pub fn avc_codec(au: &[u8]) -> Option<String> {
    nal_units(au)
        .find(|n| n.first().map(|b| b & 0x1f) == Some(7))
        .and_then(|sps| (sps.len() >= 4).then(|| format!("avc1.{:02X}{:02X}{:02X}", sps[1], sps[2], sps[3])))
}

/// The NAL units of an Annex B byte stream (without their start codes).
pub fn nal_units(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut starts = Vec::new();
    let mut i = 0;
    while i + 3 <= data.len() {
        if data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1 {
            starts.push(i + 3);
            i += 3;
        } else {
            i += 1;
        }
    }
    let mut out = Vec::with_capacity(starts.len());
    for (k, &s) in starts.iter().enumerate() {
        let mut end = starts.get(k + 1).map_or(data.len(), |&n| n - 3);
        // A four-byte start code leaves a zero at the end of the previous unit.
        while end > s && data[end - 1] == 0 && k + 1 < starts.len() {
            end -= 1;
        }
        out.push(&data[s..end]);
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::host_frame::Body;
    use std::sync::atomic::AtomicUsize;

    fn au(key: bool, n: u8) -> AccessUnit {
        AccessUnit {
            key,
            capture_us: u64::from(n),
            data: vec![0, 0, 0, 1, if key { 0x65 } else { 0x41 }, n],
        }
    }

    fn format() -> Format {
        Format {
            codec: "avc1.42C01F".into(),
            width: 640,
            height: 360,
            fps: 30,
        }
    }

    /// What a viewer has queued, as (kind, key, payload byte).
    fn drain(v: &Viewer) -> Vec<String> {
        let mut o = v.outbox.lock();
        let mut out = Vec::new();
        while let Some(f) = o.pop() {
            let bytes = match f {
                Out::Video(b) | Out::Frame(b) | Out::WsPong(b) => b,
            };
            out.push(match HostFrame::decode(bytes).unwrap().body.unwrap() {
                Body::Config(c) => format!("config input={}", c.input),
                Body::Video(v) => format!("{}{}", if v.key { "K" } else { "d" }, v.data[5]),
                Body::Notice(n) => format!("notice {}", n.code),
                Body::Pong(_) => "pong".into(),
            });
        }
        out
    }

    /// The session's player, and another user watching.
    const PLAYER: i64 = 10;
    const GUEST: i64 = 20;

    fn hub_with_counter() -> (Hub, Arc<AtomicUsize>) {
        let hub = Hub::new(0);
        let asked = Arc::new(AtomicUsize::new(0));
        let a = asked.clone();
        hub.set_key_requester(Some(Box::new(move || {
            a.fetch_add(1, Ordering::SeqCst);
        })));
        (hub, asked)
    }

    // A new viewer asks for a key frame and starts at one, with the format right before it.
    #[test]
    fn a_viewer_starts_at_a_key_frame_after_its_config() {
        let (hub, asked) = hub_with_counter();
        assert!(hub.attach(1, PLAYER).is_err(), "nothing served yet");
        hub.open(1, PLAYER);
        assert_eq!(hub.attach(2, PLAYER).err(), Some(NotServing), "another session");
        hub.publish(au(true, 0), Some(format()));
        let p = hub.attach(1, PLAYER).unwrap();
        assert_eq!(asked.load(Ordering::SeqCst), 1);
        hub.publish(au(false, 1), None);
        hub.publish(au(true, 2), Some(format()));
        hub.publish(au(false, 3), None);
        assert_eq!(drain(&p), ["config input=true", "K2", "d3"]);
        let v = hub.attach(1, GUEST).unwrap();
        assert_eq!(asked.load(Ordering::SeqCst), 2, "every new viewer asks");
        hub.publish(au(true, 4), None);
        assert_eq!(drain(&v), Vec::<String>::new(), "a key frame without its SPS is no place to start");
        assert_eq!(drain(&p), ["K4"]);
        hub.publish(au(true, 5), Some(format()));
        assert_eq!(drain(&v), ["config input=false", "K5"]);
        assert_eq!(drain(&p), ["K5"], "the format did not change: no second config");
    }

    // A viewer that does not read loses frames up to the next key frame; others are unaffected.
    // The encoder is asked for a key frame when the viewer has room for it again, once, not per
    // dropped frame and not while it is still stalled.
    #[test]
    fn a_slow_viewer_skips_to_the_next_key_frame() {
        let (hub, asked) = hub_with_counter();
        hub.open(1, PLAYER);
        let slow = hub.attach(1, GUEST).unwrap();
        let fast = hub.attach(1, PLAYER).unwrap();
        hub.publish(au(true, 0), Some(format()));
        drain(&fast);
        let before = asked.load(Ordering::SeqCst);
        for n in 1..=(VIDEO_QUEUE as u8 + 3) {
            hub.publish(au(false, n), None);
            drain(&fast);
        }
        hub.publish(au(true, 20), Some(format()));
        assert_eq!(drain(&fast), ["K20"]);
        assert_eq!(asked.load(Ordering::SeqCst), before, "not asked while it could not take one");
        let got = drain(&slow);
        assert_eq!(got.len(), 1 + VIDEO_QUEUE, "config and a full queue");
        assert_eq!(got.last().unwrap(), &format!("d{}", VIDEO_QUEUE - 1));
        hub.publish(au(false, 50), None);
        assert_eq!(asked.load(Ordering::SeqCst), before + 1, "asked once it has room");
        hub.publish(au(false, 50), None);
        assert_eq!(asked.load(Ordering::SeqCst), before + 1, "once, not per dropped frame");
        hub.publish(au(true, 51), Some(format()));
        hub.publish(au(false, 52), None);
        assert_eq!(drain(&slow), ["K51", "d52"], "resumes at the key frame");
    }

    // Control moves at once: only the controller's connections are taken, whatever they are;
    // the viewers whose right changed restart at the next key frame (asked for at once) with a
    // Config saying so, the others see nothing change; a Control for another session is
    // ignored, and one before the launch is kept for it.
    #[test]
    fn control_moves_at_once_and_each_viewer_is_told_at_a_key_frame() {
        let (hub, asked) = hub_with_counter();
        assert!(hub.set_controller(1, GUEST), "kept for the launch on its way");
        hub.open(1, PLAYER);
        assert!(hub.controls(1, GUEST) && !hub.controls(1, PLAYER), "the platform's word stands");
        assert!(hub.set_controller(1, PLAYER));
        let p = hub.attach(1, PLAYER).unwrap();
        let g = hub.attach(1, GUEST).unwrap();
        let other = hub.attach(1, 30).unwrap();
        hub.publish(au(true, 0), Some(format()));
        hub.publish(au(false, 1), None);
        assert_eq!(drain(&p), ["config input=true", "K0", "d1"]);
        assert_eq!(drain(&g), ["config input=false", "K0", "d1"]);
        drain(&other);

        let before = asked.load(Ordering::SeqCst);
        assert!(hub.set_controller(1, GUEST));
        assert!(hub.controls(1, GUEST) && !hub.controls(1, PLAYER), "at once, before any frame");
        assert!(!hub.controls(2, GUEST), "another session");
        assert_eq!(asked.load(Ordering::SeqCst), before + 1, "a key frame is asked for at once");
        hub.publish(au(false, 2), None);
        assert_eq!(drain(&p), Vec::<String>::new(), "waits for the key frame");
        assert_eq!(drain(&g), Vec::<String>::new());
        assert_eq!(drain(&other), ["d2"], "unaffected");
        hub.publish(au(true, 3), Some(format()));
        assert_eq!(drain(&p), ["config input=false", "K3"]);
        assert_eq!(drain(&g), ["config input=true", "K3"]);
        assert_eq!(drain(&other), ["K3"]);

        let before = asked.load(Ordering::SeqCst);
        assert!(hub.set_controller(1, GUEST), "the same controller again");
        assert_eq!(asked.load(Ordering::SeqCst), before, "nothing changed: no key frame");
        assert!(!hub.set_controller(2, PLAYER), "another session's control");
        assert!(hub.controls(1, GUEST));
        hub.close(130124, "游戏已结束");
        assert!(!hub.controls(1, GUEST), "nothing after the end");
        hub.open(5, PLAYER);
        assert!(hub.controls(5, PLAYER), "the next session starts with its player");
    }

    // Closing the session sends every viewer the notice and refuses new viewers.
    #[test]
    fn close_notifies_and_refuses() {
        let (hub, _) = hub_with_counter();
        hub.open(7, PLAYER);
        let v = hub.attach(7, PLAYER).unwrap();
        hub.close(130124, "游戏已结束");
        assert_eq!(drain(&v), ["notice 130124"]);
        assert!(v.outbox.lock().closed);
        assert_eq!(hub.viewers(), 0);
        assert!(hub.attach(7, PLAYER).is_err());
        hub.publish(au(true, 1), Some(format()));
    }

    // The first-frame hook fires once, for a unit captured after the given time.
    #[test]
    fn first_frame_hook_waits_for_its_time() {
        let (hub, _) = hub_with_counter();
        hub.open(1, PLAYER);
        let fired = Arc::new(AtomicUsize::new(0));
        let f = fired.clone();
        hub.on_first_frame_after(
            5,
            Box::new(move || {
                f.fetch_add(1, Ordering::SeqCst);
            }),
        );
        hub.publish(au(true, 4), Some(format()));
        assert_eq!(fired.load(Ordering::SeqCst), 0);
        hub.publish(au(false, 5), None);
        hub.publish(au(false, 6), None);
        assert_eq!(fired.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn codec_string_and_nal_units() {
        let au = [
            0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1F, 0xAA, 0, 0, 0, 1, 0x68, 0xCE, 0, 0, 1, 0x65, 0x88,
        ];
        let units: Vec<&[u8]> = nal_units(&au).collect();
        assert_eq!(units, [&[0x67, 0x42, 0xC0, 0x1F, 0xAA][..], &[0x68, 0xCE], &[0x65, 0x88]]);
        assert_eq!(avc_codec(&au).as_deref(), Some("avc1.42C01F"));
        assert_eq!(avc_codec(&[0, 0, 1, 0x65, 1]), None);
    }
}
