//! Game sessions (core-platform.md §7.4): start, state, confirm, give up, leave, end, nodes.

use actix_web::web;
use actors::player::SessionOp;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::{Caller, MaybeCaller};
use crate::dto::{self, Id};
use crate::envelope::{ok, ApiError, ApiResult};
use crate::AppState;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Start {
    game_id: Id,
    /// A JSON string `[{"id": 1, "ping": 23}]`.
    #[serde(default)]
    node_delay: Option<String>,
    #[serde(default)]
    node_id: Option<Id>,
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

pub async fn start(state: web::Data<AppState>, caller: Caller, body: web::Json<Start>) -> ApiResult {
    let delay = parse_delay(body.node_delay.as_deref())?;
    let s = &caller.0;
    let view = state
        .platform
        .start_game(s.uid, &s.device_no, body.game_id.0, body.node_id.map(|i| i.0), &delay)
        .await?;
    Ok(ok(dto::session_view(&view, &s.device_no, state.platform.clock().now_ms())))
}

/// `changeGame`: ends the running game and starts another (the answer to 130116).
pub async fn change_game(state: web::Data<AppState>, caller: Caller, body: web::Json<Start>) -> ApiResult {
    let delay = parse_delay(body.node_delay.as_deref())?;
    let s = &caller.0;
    let view = state
        .platform
        .change_game(s.uid, &s.device_no, body.game_id.0, body.node_id.map(|i| i.0), &delay)
        .await?;
    Ok(ok(dto::session_view(&view, &s.device_no, state.platform.clock().now_ms())))
}

pub async fn float_ball(state: web::Data<AppState>, caller: Caller) -> ApiResult {
    let gs = state.platform.game_state(caller.0.uid).await?;
    Ok(ok(dto::game_state(&gs, &caller.0.device_no, state.platform.clock().now_ms())))
}

#[derive(Deserialize)]
pub struct SessionId {
    id: Id,
}

async fn op(state: &AppState, caller: &Caller, op: SessionOp, id: Id) -> Result<Value, ApiError> {
    let gs = state.platform.session_op(caller.0.uid, op, id.0).await?;
    Ok(dto::game_state(&gs, &caller.0.device_no, state.platform.clock().now_ms()))
}

pub async fn confirm_connect(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult {
    Ok(ok(op(&state, &caller, SessionOp::Confirm, body.id).await?))
}

pub async fn cancel_confirm(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult {
    op(&state, &caller, SessionOp::CancelConfirm, body.id).await?;
    Ok(ok(()))
}

pub async fn cancel_queue(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult {
    op(&state, &caller, SessionOp::CancelQueue, body.id).await?;
    Ok(ok(()))
}

pub async fn over(state: web::Data<AppState>, caller: Caller, body: web::Json<SessionId>) -> ApiResult {
    op(&state, &caller, SessionOp::Over, body.id).await?;
    Ok(ok(json!({"roomSerial": null})))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameRef {
    game_id: Id,
}

pub async fn select_node(state: web::Data<AppState>, _caller: MaybeCaller, body: web::Json<GameRef>) -> ApiResult {
    state.platform.game(body.game_id.0).await?;
    let nodes = state.platform.nodes().await?;
    Ok(ok(nodes.iter().map(dto::node).collect::<Vec<_>>()))
}

/// The latency probe each node answers (its `pingUrl`).
pub async fn node_ping(state: web::Data<AppState>, path: web::Path<String>, q: web::Query<Ping>) -> ApiResult {
    let id: i64 = path.parse().map_err(|_| ApiError::from(actors::DomainError::UnknownNode))?;
    let node = state.platform.node(id).await?;
    if node.status != 1 {
        return Err(actors::DomainError::NodeMaintenance.into());
    }
    Ok(ok(json!({"t": q.t})))
}

#[derive(Deserialize)]
pub struct Ping {
    #[serde(default)]
    t: Option<String>,
}

#[derive(Deserialize)]
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
pub async fn channel_size(state: web::Data<AppState>, caller: Caller, body: web::Json<ChannelSize>) -> ApiResult {
    let p = state.platform.channel_preview(caller.0.uid, body.is_fast).await?;
    let min_max = |w: Option<actors::wait::WaitRange>| (w.map(|w| w.min_secs), w.and_then(|w| w.max_secs));
    let ((lo, hi), (own_lo, own_hi)) = (min_max(p.wait), min_max(p.own_wait));
    Ok(ok(json!({
        "preSort": p.pre_sort,
        "waitDuration": p.wait_duration(),
        "waitDurationMin": lo,
        "waitDurationMax": hi,
        "ownWaitMin": own_lo,
        "ownWaitMax": own_hi,
        "isFast": p.lane,
    })))
}

/// Cross-screen move of the caller's session to this device.
pub async fn move_here(state: web::Data<AppState>, caller: Caller) -> ApiResult {
    let view = state.platform.move_session(caller.0.uid, &caller.0.device_no).await?;
    Ok(ok(dto::session_view(&view, &caller.0.device_no, state.platform.clock().now_ms())))
}
