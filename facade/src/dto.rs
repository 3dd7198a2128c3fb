//! The JSON shapes of API.md, converted from domain values at the boundary.

use actors::holdings::Holdings;
use actors::view::{GameState, SessionView, Status};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Value};
use storage::{Game, Node, User};

/// An id the client may send as a number or a numeric string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Id(pub i64);

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Number(n) => n.as_i64().map(Id).ok_or_else(|| serde::de::Error::custom("id out of range")),
            Value::String(s) => s.trim().parse().map(Id).map_err(|_| serde::de::Error::custom("id is not a number")),
            _ => Err(serde::de::Error::custom("id must be a number")),
        }
    }
}

pub fn game_state(state: &GameState, device_no: &str, now_ms: i64) -> Value {
    match state {
        GameState::Online(v) => session_view(v, device_no, now_ms),
        GameState::Ended { id, game_id, reason } => {
            json!({"hasGameOnline": false, "id": id, "gameId": game_id, "endReason": reason.as_str()})
        }
        GameState::None => json!({"hasGameOnline": false}),
    }
}

/// GameState of a live session (core-platform.md §3.3), as a struct: this is the hot path of
/// every pushed rank, so it serializes without building a map.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LiveState<'a> {
    id: i64,
    game_id: i64,
    game_name: &'a str,
    game_logo: &'a str,
    status: i32,
    game_mode: i32,
    client_type: &'static str,
    has_game_online: bool,
    ball_status: i32,
    connect_countdown: u64,
    response_time: Option<i64>,
    online_duration: u64,
    is_fast: i32,
    sort: u64,
    que_duration: u64,
    node_id: i64,
    node_name: &'a str,
    server_time: i64,
}

fn live_state<'a>(v: &'a SessionView, device_no: &str, now_ms: i64) -> LiveState<'a> {
    let secs = |from: Option<i64>| from.map_or(0, |t| ((now_ms - t).max(0) / 1000) as u64);
    LiveState {
        id: v.id,
        game_id: v.game_id,
        game_name: &v.game_name,
        game_logo: &v.game_logo,
        status: v.status as i32,
        game_mode: 0,
        client_type: if *v.device_no == *device_no { "web" } else { "other" },
        has_game_online: true,
        ball_status: 1,
        connect_countdown: v.connect_countdown_secs,
        response_time: v.ready_at_ms,
        online_duration: if v.status == Status::Playing { secs(v.playing_at_ms) } else { 0 },
        is_fast: v.is_fast,
        sort: v.sort,
        que_duration: if v.status == Status::Queue { secs(Some(v.queued_at_ms)) } else { 0 },
        node_id: v.node_id,
        node_name: &v.node_name,
        server_time: now_ms,
    }
}

pub fn session_view(v: &SessionView, device_no: &str, now_ms: i64) -> Value {
    serde_json::to_value(live_state(v, device_no, now_ms)).unwrap_or(Value::Null)
}

/// The GameState JSON text pushed with USER_GAME_STATUS_CHANGE.
pub fn game_state_text(state: &GameState, device_no: &str, now_ms: i64) -> String {
    match state {
        GameState::Online(v) => serde_json::to_string(&live_state(v, device_no, now_ms)).unwrap_or_default(),
        other => game_state(other, device_no, now_ms).to_string(),
    }
}

pub fn image(game: &Game, shape: &str) -> String {
    format!("/covers/{}/{shape}.svg", game.id)
}

pub fn catalogue_game(g: &Game) -> Value {
    json!({
        "id": g.id,
        "name": g.name,
        "image": image(g, "cover"),
        "image_vertical": image(g, "vertical"),
        "image_square": image(g, "square"),
        "logo": image(g, "logo"),
        "status": g.status,
        "deleted": g.deleted,
        "available": g.available,
        "collected": false,
        "member_type": g.member_type,
        "instant_play": g.instant_play,
    })
}

pub fn game_info(g: &Game) -> Value {
    let mut v = catalogue_game(g);
    let extra = json!({
        "description": g.description,
        "platform": g.platform,
        "chinese": g.chinese,
        "controller": g.controller,
        "startMode": 0,
        "supportModes": [],
        "associatedType": 1,
        "startUrl": "",
    });
    if let (Some(o), Value::Object(e)) = (v.as_object_mut(), extra) {
        o.extend(e);
    }
    v
}

pub fn node(n: &Node) -> Value {
    json!({"id": n.id, "name": n.name, "status": n.status, "pingUrl": format!("/api/node/{}/ping", n.id), "pingIp": "127.0.0.1", "ip": "127.0.0.1"})
}

/// The cellphone with its middle four digits hidden.
pub fn mask_phone(p: &str) -> String {
    if p.len() == 11 && p.is_ascii() {
        format!("{}****{}", &p[..3], &p[7..])
    } else {
        String::new()
    }
}

pub fn profile(u: &User, h: &Holdings, now_ms: i64) -> Value {
    let items: Vec<Value> = h
        .entitlements
        .iter()
        .filter(|e| ["vip", "vvip", "tyvip", "tyschvip", "daily", "night"].contains(&e.kind.as_str()))
        .map(|e| json!({"type": e.kind, "expired_at": e.expires_at}))
        .collect();
    let using = h.member_type();
    let join_at = h
        .entitlements
        .iter()
        .filter(|e| Some(e.kind.as_str()) == using)
        .map(|e| e.starts_at)
        .min();
    let near = h
        .entitlements
        .iter()
        .any(|e| Some(e.kind.as_str()) == using && e.expires_at - now_ms < 3 * 24 * 3600 * 1000);
    let fast_enter_secs = h
        .entitlements
        .iter()
        .find(|e| e.kind == "fast_enter")
        .map_or(0, |e| (e.expires_at - now_ms).max(0) / 1000);
    json!({
        "uid": u.uid,
        "nickname": u.nickname,
        "display_name": u.nickname,
        "nameplate": "",
        "avatar": format!("/covers/avatar/{}.svg", u.uid),
        "avatar_frame": "",
        "gender": 0,
        "status": 0,
        "cellphone": mask_phone(&u.cellphone),
        "id_authed": false,
        "growth_level": 1,
        "growth_value": 0,
        "collects": 0,
        "member_info": {"using": using, "items": items, "near_expiration": near, "join_at": join_at},
        "previous_info": null,
        "privilege": {
            "discount_goods": h.is_member(),
            "cross_screen": h.cross_screen(),
            "fast_enter": {"monthly_receive_times": h.monthly_cards()},
            "playtime": {"daily_playtime": 0, "monthly_playtime": 0},
        },
        "play_time_total": u.play_time_free + u.play_time_paid,
        "play_time_free": u.play_time_free,
        "play_time_paid": u.play_time_paid,
        "fast_enter_free": 0,
        "fast_enter_member": 0,
        "fast_enter_paid": fast_enter_secs / 60,
        "fast_enter_remain_times": h.cards,
        "fast_enter_expires_in": fast_enter_secs,
        "yoodo": "0.00",
        "balance": 0,
        "first_login_app_playtime": 0,
        "systemTime": now_ms,
    })
}

/// A fast-entry card as the card list shows it.
pub fn card(c: &storage::FastEnterCard) -> Value {
    json!({"id": c.id, "goods_title": c.goods_title, "expires_at": c.expires_at, "status": c.status, "card_type": 1})
}
