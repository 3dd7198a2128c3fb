//! Game sessions (core-platform.md §7.4): start, state, confirm, give up, leave, end, nodes.

use actix_web::{get, post, web};
use actors::play::player::SessionOp;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::dto::{self, Confirmed, GameStateDto, LiveState, NodeDto, PlayHistory, QualityReportDto, QueueRules, StreamTicket};
use crate::auth::{Caller, MaybeCaller};
use crate::dto::{Empty, Flag, Id};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Start {
    #[schema(example = 1)]
    game_id: Id,
    /// A JSON string `[{"id": 1, "ping": 23}]`.
    #[serde(default)]
    #[schema(example = r#"[{"id": 1, "ping": 23}]"#)]
    node_delay: Option<String>,
    #[serde(default)]
    node_id: Option<Id>,
    #[serde(default)]
    #[allow(dead_code)]
    after_auth_check: Option<serde_json::Value>,
    /// The relay extra params (social.md §3): `isApplyRelay` is the room mode (2 RELAY); with
    /// it the started session becomes the relay of the caller's open room.
    #[serde(default)]
    #[schema(example = 2)]
    is_apply_relay: Option<i32>,
    /// The room password, base64 of 4 digits, applied with `isUpdatePass` 1.
    #[serde(default)]
    room_password: Option<String>,
    #[serde(default)]
    is_update_pass: Option<Flag>,
    /// 1 public, 0 private; applied to the room when given.
    #[serde(default)]
    is_show: Option<Flag>,
    /// The room, when the client names it; the caller's open room otherwise.
    #[serde(default)]
    dd_rid: Option<Id>,
}

impl Start {
    /// The relay params, when `isApplyRelay` asks for a relay (a mode above 0).
    fn relay(&self) -> Option<actors::rooms::view::RelayParams> {
        let mode = self.is_apply_relay.filter(|m| *m > 0)?;
        Some(actors::rooms::view::RelayParams {
            mode,
            room_password: self.room_password.clone().filter(|p| !p.is_empty()),
            is_update_pass: self.is_update_pass.is_some_and(|f| f.0),
            is_show: self.is_show.map(|f| f.0),
            dd_rid: self.dd_rid.map(|i| i.0),
        })
    }
}

#[derive(Deserialize)]
struct Delay {
    id: Id,
    ping: f64,
}

/// Parses `nodeDelay`; anything but a list of `{id, ping}` is a malformed body.
fn parse_delay(s: Option<&str>) -> Result<Vec<(i64, i64)>, ApiError> {
    match s.map(str::trim) {
        None | Some("") => Ok(vec![]),
        Some(s) => serde_json::from_str::<Vec<Delay>>(s)
            .map(|v| v.into_iter().map(|d| (d.id.0, d.ping.max(0.0).round() as i64)).collect())
            .map_err(|_| ApiError::bad_request()),
    }
}

refusals!(StartRefusals: common::input(), common::logged_in(), DomainError::UnknownGame, DomainError::GameNotOpen,
    DomainError::GameUnsupportedClient, DomainError::VipOnly, DomainError::VvipOnly, DomainError::NeedSubscription,
    DomainError::ShortOfTime, DomainError::NodeMaintenance, DomainError::UnknownNode,
    DomainError::GameOnOtherClient { session_id: 0, game_id: 0 },
    DomainError::OtherGameActive { session_id: 0, game_id: 0, game_name: String::new() },
    DomainError::GameAlreadyActive { session_id: 0, game_id: 0 }, DomainError::RoomNotFound, DomainError::RoomForbidden,
    DomainError::GameNotSupportRelay, DomainError::RelayOnly, DomainError::RoomForm(actors::error::RoomFormFault::PasswordFormat),
    DomainError::MinorRelayLimit, DomainError::NotRelayQualified, DomainError::NotCertified, DomainError::MinorPlayLimit);

/// Starts a game: joins the queue of the chosen (or best) node. With the relay extra params
/// (`isApplyRelay` > 0) the session becomes the relay of the caller's open room (refused with
/// 130300 without one, 130129 for another game than the room's).
#[utoipa::path(request_body = Start, responses((status = 200, body = Envelope<LiveState>), StartRefusals))]
#[post("/api/japi/yoo/game/start")]
pub async fn start(state: web::Data<AppState>, caller: Caller, body: web::Json<Start>) -> ApiResult<LiveState<'static>> {
    let delay = parse_delay(body.node_delay.as_deref())?;
    let s = &caller.0;
    let view = state
        .platform
        .rooms
        .start_game_with(s.uid, &s.device_no, body.game_id.0, body.node_id.map(|i| i.0), &delay, body.relay())
        .await?;
    Ok(ok(dto::session_view(&view, &s.device_no, state.platform.clock().now_ms())))
}

/// `changeGame`: ends the running game and starts another (the answer to 130116).
#[utoipa::path(request_body = Start, responses((status = 200, body = Envelope<LiveState>), StartRefusals))]
#[post("/api/japi/yoo/game/changeGame")]
pub async fn change_game(state: web::Data<AppState>, caller: Caller, body: web::Json<Start>) -> ApiResult<LiveState<'static>> {
    let delay = parse_delay(body.node_delay.as_deref())?;
    let s = &caller.0;
    let view = state
        .platform
        .play
        .change_game(s.uid, &s.device_no, body.game_id.0, body.node_id.map(|i| i.0), &delay)
        .await?;
    Ok(ok(dto::session_view(&view, &s.device_no, state.platform.clock().now_ms())))
}

refusals!(FloatBallRefusals: common::logged_in());

/// The caller's game state (exact rank while queued).
#[utoipa::path(request_body(content = Option<Empty>), responses((status = 200, body = Envelope<GameStateDto>), FloatBallRefusals))]
#[post("/api/japi/yoo/game/floatBall")]
pub async fn float_ball(state: web::Data<AppState>, caller: Caller) -> ApiResult<GameStateDto<'static>> {
    let gs = state.platform.play.game_state(caller.0.uid).await?;
    Ok(ok(dto::game_state_owned(&gs, &caller.0.device_no, state.platform.clock().now_ms())))
}

#[derive(Deserialize, ToSchema)]
pub struct SessionId {
    #[schema(example = 1)]
    id: Id,
}

async fn op(state: &AppState, caller: &Caller, op: SessionOp, id: Id) -> Result<GameStateDto<'static>, ApiError> {
    let gs = state.platform.play.session_op(caller.0.uid, op, id.0).await?;
    Ok(dto::game_state_owned(&gs, &caller.0.device_no, state.platform.clock().now_ms()))
}

refusals!(SessionOpRefusals: common::input(), common::logged_in(), DomainError::UnknownSession, DomainError::WrongState);

/// A session's hanging state (core-platform.md §3.3 "Game duration").
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameDurationDto {
    /// 1: hanging (PLAYING, no input from the player for the configured time); 0 otherwise.
    pub hook: i32,
    /// Whole minutes without input, while hanging; 0 otherwise.
    pub on_hook_duration: i64,
    /// ms; the server's time of the answer.
    pub response_time: i64,
}

refusals!(GameDurationRefusals: common::input(), common::logged_in(), DomainError::UnknownSession);

/// Whether the caller's own live session hangs. Any other id (another player's session, an
/// ended one) is 130118.
#[utoipa::path(request_body = SessionId, responses((status = 200, body = Envelope<GameDurationDto>), GameDurationRefusals))]
#[post("/api/japi/yoo/game/gameDuration")]
pub async fn game_duration(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult<GameDurationDto> {
    let d = state.platform.play.game_duration(caller.0.uid, body.id.0).await?;
    Ok(ok(GameDurationDto {
        hook: i32::from(d.hook),
        on_hook_duration: d.on_hook_minutes,
        response_time: d.response_time,
    }))
}

/// Confirms the ready machine: READY → CONNECTING (PLAYING follows when the stream is up). On a
/// game host's machine the answer carries `streamUrl` and a stream `ticket`.
#[utoipa::path(request_body = SessionId, responses((status = 200, body = Envelope<Confirmed>), SessionOpRefusals))]
#[post("/api/japi/yoo/game/confirmConnect")]
pub async fn confirm_connect(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult<Confirmed<'static>> {
    let s = &caller.0;
    let gs = state.platform.play.session_op(s.uid, SessionOp::Confirm, body.id.0).await?;
    let actors::view::GameState::Online(view) = gs else {
        return Err(actors::DomainError::WrongState.into());
    };
    let now = state.platform.clock().now_ms();
    let signed = view
        .stream
        .as_ref()
        .and_then(|target| sign_ticket(&state, target, view.id, s.uid, hostlink::Role::Player, now));
    let (stream_url, ticket) = match signed {
        Some((url, ticket, _)) => (Some(url), Some(ticket)),
        None => (None, None),
    };
    Ok(ok(Confirmed {
        state: dto::session_view(&view, &s.device_no, now),
        stream_url,
        ticket,
    }))
}

/// A ticket for the session's stream on `target` (the session's player, or a room's viewer),
/// signed with its node's host secret: (stream URL, ticket, expiry ms). None when the node has
/// no secret (no host could be linked).
pub(crate) fn sign_ticket(
    state: &AppState,
    target: &actors::play::hosts::StreamTarget,
    session_id: i64,
    uid: i64,
    role: hostlink::Role,
    now: i64,
) -> Option<(String, String, i64)> {
    sign_stream_ticket(&state.platform, target, session_id, uid, role, now)
}

/// A viewer ticket for `uid` to watch session `session_id`'s stream on `target` (a live room's
/// relay, from `Platform::viewer_stream`), signed with its node's host secret: (stream URL,
/// ticket, expiry ms), valid for `hostlink::TICKET_TTL_MS` from `now`. The host takes its input
/// only while the platform has made `uid` the session's controller. None when the node has no
/// secret (no host could be linked). Whether `uid` may watch is the caller's check.
pub fn sign_viewer_ticket(
    platform: &actors::Platform,
    target: &actors::play::hosts::StreamTarget,
    session_id: i64,
    uid: i64,
    now: i64,
) -> Option<(String, String, i64)> {
    sign_stream_ticket(platform, target, session_id, uid, hostlink::Role::Viewer, now)
}

fn sign_stream_ticket(
    platform: &actors::Platform,
    target: &actors::play::hosts::StreamTarget,
    session_id: i64,
    uid: i64,
    role: hostlink::Role,
    now: i64,
) -> Option<(String, String, i64)> {
    let secret = platform
        .config()
        .nodes
        .iter()
        .find(|n| n.id == target.node_id)?
        .host_secret
        .clone()?;
    let exp_ms = now + hostlink::TICKET_TTL_MS;
    let ticket = hostlink::Ticket {
        node_id: target.node_id,
        host: target.host.to_string(),
        slot: target.slot,
        session_id,
        uid,
        role,
        exp_ms,
    }
    .sign(secret.as_bytes());
    Some((target.stream_url.to_string(), ticket, exp_ms))
}

refusals!(StreamTicketRefusals: common::input(), common::logged_in(), DomainError::UnknownSession, DomainError::WrongState,
    DomainError::Internal(String::new()));

/// A fresh ticket for the stream of the caller's session (a reconnect): the session's own
/// player only, while it is CONNECTING or PLAYING on a game host's machine. Another player's
/// session is unknown (130118); a session that is not streaming is in the wrong state (130119).
#[utoipa::path(request_body = SessionId, responses((status = 200, body = Envelope<StreamTicket>), StreamTicketRefusals))]
#[post("/api/japi/yoo/game/streamTicket")]
pub async fn stream_ticket(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult<StreamTicket> {
    let uid = caller.0.uid;
    let (view, target) = state.platform.play.stream_of(uid, body.id.0).await?;
    let now = state.platform.clock().now_ms();
    let (stream_url, ticket, expires_at) = sign_ticket(&state, &target, view.id, uid, hostlink::Role::Player, now)
        .ok_or_else(|| ApiError::from(actors::DomainError::Internal("a streaming node without a host secret".into())))?;
    Ok(ok(StreamTicket {
        id: view.id,
        stream_url,
        ticket,
        expires_at,
    }))
}

/// The largest latency (ms) or frame rate a quality report may give.
const MAX_MS: f64 = 600_000.0;
const MAX_FPS: f64 = 1_000.0;

/// What the play page measured of a session's stream.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QualityBody {
    /// The session.
    #[schema(example = 1)]
    id: Id,
    /// Seconds the stream was watched.
    #[schema(minimum = 0, maximum = 4294967295_u64)]
    played_secs: u32,
    /// Round-trip latency to the game host, median and 95th percentile (ms).
    #[schema(minimum = 0, maximum = 600000)]
    latency_p50_ms: f64,
    #[schema(minimum = 0, maximum = 600000)]
    latency_p95_ms: f64,
    /// Decoded frames per second, on average.
    #[schema(minimum = 0, maximum = 1000)]
    fps: f64,
    /// Frames dropped.
    #[schema(minimum = 0, maximum = 4294967295_u64)]
    drops: u32,
    /// Times the stream was opened again after it dropped.
    #[schema(minimum = 0, maximum = 4294967295_u64)]
    reconnects: u32,
}

refusals!(QualityRefusals: common::input(), common::logged_in(), DomainError::UnknownSession, DomainError::WrongState,
    DomainError::QualityReported);

/// Stores the quality report of the caller's session, once (the first report stands, another
/// is refused with 130130): its own session that held a machine, ended or not. Latencies are
/// 0..=600000 ms, the frame rate 0..=1000; anything else is malformed (40000).
#[utoipa::path(request_body = QualityBody, responses((status = 200, body = Envelope<QualityReportDto>), QualityRefusals))]
#[post("/api/japi/yoo/game/qualityReport")]
pub async fn quality_report(state: web::Data<AppState>, caller: Caller, body: web::Json<QualityBody>) -> ApiResult<QualityReportDto> {
    let b = body.into_inner();
    let in_range = |v: f64, max: f64| v.is_finite() && (0.0..=max).contains(&v);
    if !(in_range(b.latency_p50_ms, MAX_MS) && in_range(b.latency_p95_ms, MAX_MS) && in_range(b.fps, MAX_FPS)) {
        return Err(ApiError::bad_request());
    }
    let report = storage::QualityReport {
        session_id: b.id.0,
        uid: caller.0.uid,
        played_secs: b.played_secs.into(),
        latency_p50_ms: b.latency_p50_ms,
        latency_p95_ms: b.latency_p95_ms,
        fps: b.fps,
        drops: b.drops.into(),
        reconnects: b.reconnects.into(),
        reported_at: state.platform.clock().now_ms(),
    };
    let stored = state.platform.play.report_quality(report).await?;
    Ok(ok(dto::quality_report(&stored)))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// 1.. (default 1).
    #[serde(default)]
    page: Option<String>,
    /// 1..50 (default 20).
    #[serde(default)]
    page_size: Option<String>,
}

refusals!(HistoryRefusals: common::input(), common::logged_in());

/// The caller's played sessions, newest first, each with its quality report when one was sent.
#[utoipa::path(params(HistoryQuery), responses((status = 200, body = Envelope<PlayHistory>), HistoryRefusals))]
#[get("/api/japi/yoo/game/history")]
pub async fn history(state: web::Data<AppState>, caller: Caller, q: web::Query<HistoryQuery>) -> ApiResult<PlayHistory> {
    let number = |v: &Option<String>, default: u32, max: u32| match v.as_deref().map(str::trim) {
        None | Some("") => Ok(default),
        Some(s) => match s.parse::<u32>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(ApiError::bad_request()),
        },
    };
    let page = number(&q.page, 1, 100_000)?;
    let page_size = number(&q.page_size, 20, 50)?;
    let (records, total) = state.platform.play.play_history(caller.0.uid, page, page_size).await?;
    let now = state.platform.clock().now_ms();
    Ok(ok(PlayHistory {
        data: records.iter().map(|r| dto::play_record(r, now)).collect(),
        total,
    }))
}

/// Gives up the ready machine.
#[utoipa::path(request_body = SessionId, responses((status = 200, body = Envelope<Null>), SessionOpRefusals))]
#[post("/api/japi/yoo/game/cancelConfirm")]
pub async fn cancel_confirm(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult<Null> {
    op(&state, &caller, SessionOp::CancelConfirm, body.id).await?;
    Ok(ok(Null))
}

/// Leaves the queue.
#[utoipa::path(request_body = SessionId, responses((status = 200, body = Envelope<Null>), SessionOpRefusals))]
#[post("/api/japi/yoo/game/cancelQue")]
pub async fn cancel_queue(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult<Null> {
    op(&state, &caller, SessionOp::CancelQueue, body.id).await?;
    Ok(ok(Null))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Over {
    /// Set when the session was a room's relay: the room ended with it, and its live summary
    /// is `room/live/detail {roomSerial}` (social.md §2.15).
    pub room_serial: Option<i64>,
}

/// Ends the game.
#[utoipa::path(request_body = SessionId, responses((status = 200, body = Envelope<Over>), SessionOpRefusals))]
#[post("/api/japi/yoo/game/over")]
pub async fn over(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult<Over> {
    // Asked before the end: the relay's room forgets the session when it ends with it.
    let room_serial = state.platform.rooms.relay_room_serial(body.id.0).await.unwrap_or(None);
    op(&state, &caller, SessionOp::Over, body.id).await?;
    Ok(ok(Over { room_serial }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameRef {
    #[schema(example = 1)]
    game_id: Id,
}

refusals!(SelectNodeRefusals: common::input(), common::maybe_logged_in(), DomainError::UnknownGame);

/// The nodes a game can run on.
#[utoipa::path(request_body = GameRef, responses((status = 200, body = Envelope<Vec<NodeDto>>), SelectNodeRefusals))]
#[post("/api/japi/yoo/game/selectNode")]
pub async fn select_node(state: web::Data<AppState>, _caller: MaybeCaller, body: web::Json<GameRef>) -> ApiResult<Vec<NodeDto>> {
    state.platform.play.game(body.game_id.0).await?;
    let nodes = state.platform.play.nodes().await?;
    Ok(ok(nodes
        .iter()
        .map(|n| dto::node(n, state.platform.play.node_ping_url(n.id).as_deref()))
        .collect()))
}

refusals!(NodesRefusals: common::maybe_logged_in(), common::internal());

/// Every node with its latency probe (core-platform.md §7.4 `game/node`): the start guide
/// measures the player's latency with them.
#[utoipa::path(request_body(content = Option<Empty>), responses((status = 200, body = Envelope<Vec<NodeDto>>), NodesRefusals))]
#[post("/api/japi/yoo/game/node")]
pub async fn all_nodes(state: web::Data<AppState>, _caller: MaybeCaller) -> ApiResult<Vec<NodeDto>> {
    let nodes = state.platform.play.nodes().await?;
    Ok(ok(nodes
        .iter()
        .map(|n| dto::node(n, state.platform.play.node_ping_url(n.id).as_deref()))
        .collect()))
}

#[derive(Serialize, ToSchema)]
pub struct Pong {
    /// The `t` the probe sent.
    pub t: Option<String>,
}

refusals!(NodePingRefusals: common::input(), common::internal(), DomainError::UnknownNode, DomainError::NodeMaintenance);

/// The latency probe each node answers (its `pingUrl`).
#[utoipa::path(params(("id" = String, Path, description = "The node id", example = "1"), Ping), responses((status = 200, body = Envelope<Pong>), NodePingRefusals))]
#[get("/api/node/{id}/ping")]
pub async fn node_ping(state: web::Data<AppState>, path: web::Path<String>, q: web::Query<Ping>) -> ApiResult<Pong> {
    let id: i64 = path.parse().map_err(|_| ApiError::from(actors::DomainError::UnknownNode))?;
    let node = state.platform.play.node(id).await?;
    if node.status != 1 {
        return Err(actors::DomainError::NodeMaintenance.into());
    }
    Ok(ok(Pong { t: q.into_inner().t }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Ping {
    #[serde(default)]
    t: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChannelSize {
    #[serde(default)]
    is_fast: i32,
}

/// `gameChannelSize`: players ahead of someone joining lane `isFast` of the caller's node queue
/// now, and the expected wait as a range from the node's measured admission rate
/// (`actors/src/wait.rs`): `waitDurationMin`/`waitDurationMax` for that lane, `ownWaitMin`/
/// `ownWaitMax` for the caller's own place, null while not measured; `waitDuration` is the
/// long end (0 without a measurement).
#[utoipa::path(request_body = ChannelSize, responses((status = 200, body = Envelope<ChannelPreview>), ChannelSizeRefusals))]
#[post("/api/japi/yoo/game/gameChannelSize")]
pub async fn channel_size(state: web::Data<AppState>, caller: Caller, body: web::Json<ChannelSize>) -> ApiResult<ChannelPreview> {
    let p = state.platform.play.channel_preview(caller.0.uid, body.is_fast).await?;
    let min_max = |w: Option<actors::play::wait::WaitRange>| (w.map(|w| w.min_secs), w.and_then(|w| w.max_secs));
    let ((lo, hi), (own_lo, own_hi)) = (min_max(p.wait), min_max(p.own_wait));
    Ok(ok(ChannelPreview {
        pre_sort: p.pre_sort,
        wait_duration: p.wait_duration(),
        wait_duration_min: lo,
        wait_duration_max: hi,
        own_wait_min: own_lo,
        own_wait_max: own_hi,
        is_fast: p.lane,
    }))
}

/// What joining a lane now would mean for the caller's channel.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChannelPreview {
    /// Players who would be ahead; the expected rank is `preSort + 1`.
    pub pre_sort: u64,
    /// Expected seconds of wait: the long end of the range, 0 while not measured.
    pub wait_duration: u64,
    /// The range of the expected wait of that lane, in seconds (50th to 90th percentile of the
    /// node's measured admission rate); null while not measured.
    pub wait_duration_min: Option<u64>,
    pub wait_duration_max: Option<u64>,
    /// The same range for the caller's own place, when they wait on that node.
    pub own_wait_min: Option<u64>,
    pub own_wait_max: Option<u64>,
    pub is_fast: i32,
}

refusals!(ChannelSizeRefusals: common::input(), common::logged_in(), DomainError::UnknownSession, DomainError::UnknownGame,
    DomainError::UnknownNode);

refusals!(MoveRefusals: common::logged_in(), DomainError::UnknownSession, DomainError::NoCrossScreen { session_id: 0 },
    DomainError::WrongState);

/// Cross-screen move of the caller's session to this device.
#[utoipa::path(request_body(content = Option<Empty>), responses((status = 200, body = Envelope<LiveState>), MoveRefusals))]
#[post("/api/japi/yoo/game/move")]
pub async fn move_here(state: web::Data<AppState>, caller: Caller) -> ApiResult<LiveState<'static>> {
    let view = state.platform.play.move_session(caller.0.uid, &caller.0.device_no).await?;
    Ok(ok(dto::session_view(&view, &caller.0.device_no, state.platform.clock().now_ms())))
}

/// The queue lanes (names, who joins them, weights) and the sum of the weights, as the queue
/// implements them: the queue dialog and the rules page show these.
#[utoipa::path(responses((status = 200, body = Envelope<QueueRules>)))]
#[get("/api/japi/yoo/game/queueRules")]
pub async fn queue_rules() -> ApiResult<QueueRules> {
    Ok(ok(dto::queue_rules()))
}
