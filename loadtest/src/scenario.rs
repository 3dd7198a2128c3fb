//! The player journey: log in by SMS code, open the socket, queue for a machine, confirm the
//! READY push, play, end, close. Each call and each wait is a [`Step`] with its own latency.

use std::cell::Cell;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use serde::Serialize;
use serde_json::{json, Value};

use crate::client::{Browser, Failure};
use crate::stats::Recorder;

/// The steps of the journey, in order. Calls are timed from request to answer; waits from the
/// answer that precedes them to the arrival of the awaited push.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Step {
    /// Never began: still waiting for a concurrency slot at the deadline.
    NotStarted,
    /// `POST /api/passport/login/sendcode`.
    SendCode,
    /// `GET /api/dev/sms/outbox?phone=` (reading the code the sandbox "sent").
    SmsOutbox,
    /// `POST /api/passport/login`.
    Login,
    /// `GET /api/fetchToken`.
    FetchToken,
    /// The WebSocket handshake of `/echo?access_token=`.
    WsConnect,
    /// `POST /api/japi/yoo/game/start`.
    Start,
    /// From the start answer (QUEUE) to the pushed READY: the time spent queuing.
    WaitReady,
    /// `POST /api/japi/yoo/game/confirmConnect`.
    ConfirmConnect,
    /// From the confirm answer to the pushed PLAYING.
    WaitPlaying,
    /// Playing for `--play-ms` (not timed; named so a timeout here is reported).
    Play,
    /// `POST /api/japi/yoo/game/over`.
    Over,
    /// From the over answer to the pushed end (`hasGameOnline: false`).
    WaitEnd,
}

impl Step {
    /// Every step in journey order.
    pub const ALL: [Step; 13] = [
        Step::NotStarted,
        Step::SendCode,
        Step::SmsOutbox,
        Step::Login,
        Step::FetchToken,
        Step::WsConnect,
        Step::Start,
        Step::WaitReady,
        Step::ConfirmConnect,
        Step::WaitPlaying,
        Step::Play,
        Step::Over,
        Step::WaitEnd,
    ];

    /// A wait for a push (READY, PLAYING, the end), not a call answered.
    pub fn is_wait(self) -> bool {
        matches!(self, Step::WaitReady | Step::WaitPlaying | Step::WaitEnd)
    }

    pub fn name(self) -> &'static str {
        match self {
            Step::NotStarted => "not started",
            Step::SendCode => "sendcode",
            Step::SmsOutbox => "sms outbox",
            Step::Login => "login",
            Step::FetchToken => "fetchToken",
            Step::WsConnect => "ws connect",
            Step::Start => "start",
            Step::WaitReady => "wait READY",
            Step::ConfirmConnect => "confirmConnect",
            Step::WaitPlaying => "wait PLAYING",
            Step::Play => "play",
            Step::Over => "over",
            Step::WaitEnd => "wait end",
        }
    }
}

/// GameState `status` values (API.md).
const QUEUE: i64 = 1;
const READY: i64 = 3;
const CONNECTING: i64 = 4;
const PLAYING: i64 = 5;

/// What every player of a run shares.
pub struct Journey {
    /// `http://host:port`, already checked to be this machine.
    pub base: String,
    pub game_id: i64,
    pub node_id: i64,
    pub play: Duration,
    /// A pause before each call after the first.
    pub think: Duration,
    /// Where each journey ends.
    pub until: crate::config::Until,
    /// Makes device numbers unique across runs.
    pub run_tag: String,
    /// Latencies, the handoff clock and the READY-at-start count.
    pub recorder: Arc<Mutex<Recorder>>,
}

/// One player's journey. `at` always names the step under way, so that when the run's deadline
/// drops this future the caller knows where the player was.
pub async fn play(j: &Journey, index: usize, phone: &str, at: &Cell<Step>) -> Result<(), (Step, Failure)> {
    let device = format!("loadtest-{}-{index}", j.run_tag);
    let mut b = Browser::new(&j.base, &device);
    let rec = &j.recorder;

    call(
        rec,
        at,
        j.think,
        Step::SendCode,
        b.post("/api/passport/login/sendcode", &json!({"phone": phone})),
    )
    .await?;
    let outbox = call(
        rec,
        at,
        j.think,
        Step::SmsOutbox,
        b.get(&format!("/api/dev/sms/outbox?phone={phone}")),
    )
    .await?
    .0;
    let code = outbox_code(&outbox)?;
    let login = json!({"cellphone": phone, "code": code, "device_no": b.device()});
    call(rec, at, j.think, Step::Login, b.post("/api/passport/login", &login)).await?;
    let token = call(rec, at, j.think, Step::FetchToken, b.get("/api/fetchToken")).await?.0;
    let token = token["access_token"]
        .as_str()
        .ok_or((Step::FetchToken, Failure::Unexpected("no access_token".into())))?
        .to_string();
    if j.until == crate::config::Until::Login {
        return Ok(());
    }

    // The first READY push of each session is a handoff sample, stamped as its frame is read.
    let handoff = rec.clone();
    let mut last_ready = None;
    let on_state = move |arrived: Instant, s: &Value| {
        if s["status"] == READY && s["hasGameOnline"] == true && s["id"].as_i64() != last_ready {
            last_ready = s["id"].as_i64();
            handoff.lock().ready_pushed(arrived);
        }
    };
    let mut socket = call(rec, at, j.think, Step::WsConnect, b.socket(&token, on_state)).await?.0;

    let start = json!({"gameId": j.game_id, "nodeDelay": "[]", "afterAuthCheck": 1, "nodeId": j.node_id});
    let (state, started) = call(rec, at, j.think, Step::Start, b.post("/api/japi/yoo/game/start", &start)).await?;
    let id = state["id"]
        .as_i64()
        .ok_or((Step::Start, Failure::Unexpected("no session id".into())))?;
    match state["status"].as_i64() {
        Some(READY) => rec.lock().ready_at_start(),
        Some(QUEUE) => {
            at.set(Step::WaitReady);
            let (ready, _) = socket.wait_state(|s| until(s, id, READY)).await.map_err(|f| (Step::WaitReady, f))?;
            rec.lock().record(Step::WaitReady, ready.saturating_duration_since(started));
        }
        other => return Err((Step::Start, Failure::Unexpected(format!("start answered status {other:?}")))),
    }

    let (state, confirmed) = call(
        rec,
        at,
        j.think,
        Step::ConfirmConnect,
        b.post("/api/japi/yoo/game/confirmConnect", &json!({"id": id})),
    )
    .await?;
    if !matches!(state["status"].as_i64(), Some(CONNECTING | PLAYING)) {
        return Err((
            Step::ConfirmConnect,
            Failure::Unexpected(format!("confirm answered status {}", state["status"])),
        ));
    }
    at.set(Step::WaitPlaying);
    let (playing, _) = socket
        .wait_state(|s| until(s, id, PLAYING))
        .await
        .map_err(|f| (Step::WaitPlaying, f))?;
    rec.lock().record(Step::WaitPlaying, playing.saturating_duration_since(confirmed));

    at.set(Step::Play);
    tokio::time::sleep(j.play).await;

    // The hand-off is measured from when the `over` was sent: the server frees the machine while
    // it answers, so the next player's READY push can arrive before this answer does.
    // The think time comes before the mark, so that it is not counted in the hand-off.
    at.set(Step::Over);
    tokio::time::sleep(j.think).await;
    rec.lock().over_sent(Instant::now());
    let (_, over) = call(
        rec,
        at,
        Duration::ZERO,
        Step::Over,
        b.post("/api/japi/yoo/game/over", &json!({"id": id})),
    )
    .await?;
    at.set(Step::WaitEnd);
    let (ended, state) = socket
        .wait_state(|s| Ok(s["id"].as_i64() == Some(id) && s["hasGameOnline"] == false))
        .await
        .map_err(|f| (Step::WaitEnd, f))?;
    rec.lock().record(Step::WaitEnd, ended.saturating_duration_since(over));
    if state["endReason"] != "over" {
        return Err((
            Step::WaitEnd,
            Failure::Unexpected(format!("session ended with {}", state["endReason"])),
        ));
    }
    socket.close().await;
    Ok(())
}

/// Runs one call as `step`: marks it under way, and records its latency when it succeeds.
/// Returns the answer and when it arrived.
async fn call<T>(
    rec: &Mutex<Recorder>,
    at: &Cell<Step>,
    think: Duration,
    step: Step,
    fut: impl std::future::Future<Output = Result<T, Failure>>,
) -> Result<(T, Instant), (Step, Failure)> {
    at.set(step);
    // A person's pause before each call after the first (the request is sent when awaited).
    if step != Step::SendCode && !think.is_zero() {
        tokio::time::sleep(think).await;
    }
    let sent = Instant::now();
    let v = fut.await.map_err(|f| (step, f))?;
    let answered = Instant::now();
    rec.lock().record(step, answered - sent);
    Ok((v, answered))
}

/// Whether pushed state `s` of session `id` has reached `status`; an ended session is a failure.
/// The newest code of a dev SMS outbox answer.
pub(crate) fn outbox_code(outbox: &Value) -> Result<String, (Step, Failure)> {
    outbox[0]["code"]
        .as_str()
        .map(str::to_string)
        .ok_or((Step::SmsOutbox, Failure::Unexpected("no code in the outbox".into())))
}

fn until(s: &Value, id: i64, status: i64) -> Result<bool, Failure> {
    if s["id"].as_i64() != Some(id) {
        return Ok(false);
    }
    if s["hasGameOnline"] == false {
        return Err(Failure::Unexpected(format!("session ended with {}", s["endReason"])));
    }
    Ok(s["status"] == status)
}
