//! Game sessions (core-platform.md §7.4): start, state, confirm, give up, leave, end, nodes.

use actix_web::{get, post, web};
use actors::player::SessionOp;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::{Caller, MaybeCaller};
use crate::dto::{self, GameStateDto, Id, LiveState, NodeDto};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::AppState;

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
    DomainError::GameAlreadyActive { session_id: 0, game_id: 0 });

/// Starts a game: joins the queue of the chosen (or best) node.
#[utoipa::path(request_body = Start, responses((status = 200, body = Envelope<LiveState>), StartRefusals))]
#[post("/api/japi/yoo/game/start")]
pub async fn start(state: web::Data<AppState>, caller: Caller, body: web::Json<Start>) -> ApiResult<LiveState<'static>> {
    let delay = parse_delay(body.node_delay.as_deref())?;
    let s = &caller.0;
    let view = state
        .platform
        .start_game(s.uid, &s.device_no, body.game_id.0, body.node_id.map(|i| i.0), &delay)
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
        .change_game(s.uid, &s.device_no, body.game_id.0, body.node_id.map(|i| i.0), &delay)
        .await?;
    Ok(ok(dto::session_view(&view, &s.device_no, state.platform.clock().now_ms())))
}

/// The body of a call that takes none: anything.
#[derive(ToSchema)]
pub struct Empty {}

refusals!(FloatBallRefusals: common::logged_in());

/// The caller's game state (exact rank while queued).
#[utoipa::path(request_body(content = Option<Empty>), responses((status = 200, body = Envelope<GameStateDto>), FloatBallRefusals))]
#[post("/api/japi/yoo/game/floatBall")]
pub async fn float_ball(state: web::Data<AppState>, caller: Caller) -> ApiResult<GameStateDto<'static>> {
    let gs = state.platform.game_state(caller.0.uid).await?;
    Ok(ok(dto::game_state_owned(&gs, &caller.0.device_no, state.platform.clock().now_ms())))
}

#[derive(Deserialize, ToSchema)]
pub struct SessionId {
    #[schema(example = 1)]
    id: Id,
}

async fn op(state: &AppState, caller: &Caller, op: SessionOp, id: Id) -> Result<GameStateDto<'static>, ApiError> {
    let gs = state.platform.session_op(caller.0.uid, op, id.0).await?;
    Ok(dto::game_state_owned(&gs, &caller.0.device_no, state.platform.clock().now_ms()))
}

refusals!(SessionOpRefusals: common::input(), common::logged_in(), DomainError::UnknownSession, DomainError::WrongState);

/// Confirms the ready machine: READY → CONNECTING.
#[utoipa::path(request_body = SessionId, responses((status = 200, body = Envelope<GameStateDto>), SessionOpRefusals))]
#[post("/api/japi/yoo/game/confirmConnect")]
pub async fn confirm_connect(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult<GameStateDto<'static>> {
    Ok(ok(op(&state, &caller, SessionOp::Confirm, body.id).await?))
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
    #[schema(inline)]
    pub room_serial: Null,
}

/// Ends the game.
#[utoipa::path(request_body = SessionId, responses((status = 200, body = Envelope<Over>), SessionOpRefusals))]
#[post("/api/japi/yoo/game/over")]
pub async fn over(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult<Over> {
    op(&state, &caller, SessionOp::Over, body.id).await?;
    Ok(ok(Over { room_serial: Null }))
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
    state.platform.game(body.game_id.0).await?;
    let nodes = state.platform.nodes().await?;
    Ok(ok(nodes.iter().map(dto::node).collect()))
}

#[derive(Serialize, ToSchema)]
pub struct Pong {
    /// The `t` the probe sent.
    pub t: Option<String>,
}

refusals!(NodePingRefusals: common::input(), common::internal(), DomainError::UnknownNode, DomainError::NodeMaintenance);

/// The latency probe each node answers (its `pingUrl`).
#[utoipa::path(params(("id" = String, Path, description = "The node id"), Ping), responses((status = 200, body = Envelope<Pong>), NodePingRefusals))]
#[get("/api/node/{id}/ping")]
pub async fn node_ping(state: web::Data<AppState>, path: web::Path<String>, q: web::Query<Ping>) -> ApiResult<Pong> {
    let id: i64 = path.parse().map_err(|_| ApiError::from(actors::DomainError::UnknownNode))?;
    let node = state.platform.node(id).await?;
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
    let p = state.platform.channel_preview(caller.0.uid, body.is_fast).await?;
    let min_max = |w: Option<actors::wait::WaitRange>| (w.map(|w| w.min_secs), w.and_then(|w| w.max_secs));
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
    let view = state.platform.move_session(caller.0.uid, &caller.0.device_no).await?;
    Ok(ok(dto::session_view(&view, &caller.0.device_no, state.platform.clock().now_ms())))
}
