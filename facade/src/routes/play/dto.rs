//! The play feature's JSON shapes: the game state (live or ended) that floatBall answers and the
//! socket pushes, the nodes, the confirm's stream, stream tickets, quality reports, the played
//! history and the queue's rules.

use std::borrow::Cow;

use actors::play::lanes::Lane;
use actors::view::{EndReason, GameState, SessionView, Status};
use serde::Serialize;
use storage::Node;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

/// A boolean that is always `B` (`hasGameOnline` tells the game states apart).
#[derive(Debug, Clone, Copy, Default)]
pub struct Always<const B: bool>;

impl<const B: bool> Serialize for Always<B> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(B)
    }
}

impl<const B: bool> PartialSchema for Always<B> {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([B])).into()
    }
}

impl<const B: bool> ToSchema for Always<B> {}

/// GameState of a live session (core-platform.md §3.3), as a struct: this is the hot path of
/// every pushed rank, so it serializes without building a map, and borrows its strings.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LiveState<'a> {
    pub id: i64,
    pub game_id: i64,
    pub game_name: Cow<'a, str>,
    pub game_logo: Cow<'a, str>,
    /// 1 QUEUE, 3 READY, 4 CONNECTING, 5 PLAYING.
    #[schema(value_type = i32)]
    pub status: i32,
    pub game_mode: i32,
    /// `web` when the asking device started the session, `other` otherwise.
    pub client_type: &'static str,
    #[schema(inline)]
    pub has_game_online: Always<true>,
    pub ball_status: i32,
    /// Seconds of the ready countdown.
    pub connect_countdown: u64,
    /// Server time in ms at which READY began.
    pub response_time: Option<i64>,
    /// Seconds spent PLAYING.
    pub online_duration: u64,
    /// The queue lane.
    pub is_fast: i32,
    /// Exact rank while in QUEUE, 1 = next.
    pub sort: u64,
    /// How many times the platform put the session back in the queue because its machine was
    /// lost while READY. Within one session a state with more requeues is newer than any with
    /// fewer; with as many, the status only moves forward.
    pub requeues: u32,
    /// Seconds spent in the queue.
    pub que_duration: u64,
    pub node_id: i64,
    pub node_name: Cow<'a, str>,
    /// Server clock in ms.
    pub server_time: i64,
}

/// Why a session ended.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum EndReasonDto {
    Missed,
    GaveUp,
    Cancelled,
    Over,
    TimeUp,
    ServerRestart,
    /// The game ended on its own on the game host (exited, crashed, could not start).
    GameExited,
    /// The game host stopped answering or went away.
    HostLost,
}

impl From<EndReason> for EndReasonDto {
    fn from(r: EndReason) -> Self {
        match r {
            EndReason::Missed => EndReasonDto::Missed,
            EndReason::GaveUp => EndReasonDto::GaveUp,
            EndReason::Cancelled => EndReasonDto::Cancelled,
            EndReason::Over => EndReasonDto::Over,
            EndReason::TimeUp => EndReasonDto::TimeUp,
            EndReason::ServerRestart => EndReasonDto::ServerRestart,
            EndReason::GameExited => EndReasonDto::GameExited,
            EndReason::HostLost => EndReasonDto::HostLost,
        }
    }
}

/// No live session; right after an end it names the session and why it ended.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EndedState {
    #[schema(inline)]
    pub has_game_online: Always<false>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_reason: Option<EndReasonDto>,
}

/// The player's game state: what floatBall answers and USER_GAME_STATUS_CHANGE carries.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum GameStateDto<'a> {
    Live(LiveState<'a>),
    Ended(EndedState),
}

pub fn game_state<'a>(state: &'a GameState, device_no: &str, now_ms: i64) -> GameStateDto<'a> {
    match state {
        GameState::Online(v) => GameStateDto::Live(live_state(v, device_no, now_ms)),
        GameState::Ended { id, game_id, reason } => GameStateDto::Ended(EndedState {
            has_game_online: Always,
            id: Some(*id),
            game_id: Some(*game_id),
            end_reason: Some((*reason).into()),
        }),
        GameState::None => GameStateDto::Ended(EndedState {
            has_game_online: Always,
            id: None,
            game_id: None,
            end_reason: None,
        }),
    }
}

/// The same state, owning its strings (a handler's answer outlives the domain value).
pub fn game_state_owned(state: &GameState, device_no: &str, now_ms: i64) -> GameStateDto<'static> {
    match game_state(state, device_no, now_ms) {
        GameStateDto::Live(l) => GameStateDto::Live(l.into_owned()),
        GameStateDto::Ended(e) => GameStateDto::Ended(e),
    }
}

fn live_state<'a>(v: &'a SessionView, device_no: &str, now_ms: i64) -> LiveState<'a> {
    let secs = |from: Option<i64>| from.map_or(0, |t| ((now_ms - t).max(0) / 1000) as u64);
    LiveState {
        id: v.id,
        game_id: v.game_id,
        game_name: Cow::Borrowed(&v.game_name),
        game_logo: Cow::Borrowed(&v.game_logo),
        status: v.status as i32,
        game_mode: 0,
        client_type: if *v.device_no == *device_no { "web" } else { "other" },
        has_game_online: Always,
        ball_status: 1,
        connect_countdown: v.connect_countdown_secs,
        response_time: v.ready_at_ms,
        online_duration: if v.status == Status::Playing { secs(v.playing_at_ms) } else { 0 },
        is_fast: v.is_fast,
        sort: v.sort,
        requeues: v.requeues,
        que_duration: if v.status == Status::Queue { secs(Some(v.queued_at_ms)) } else { 0 },
        node_id: v.node_id,
        node_name: Cow::Borrowed(&v.node_name),
        server_time: now_ms,
    }
}

impl LiveState<'_> {
    pub fn into_owned(self) -> LiveState<'static> {
        LiveState {
            game_name: Cow::Owned(self.game_name.into_owned()),
            game_logo: Cow::Owned(self.game_logo.into_owned()),
            node_name: Cow::Owned(self.node_name.into_owned()),
            ..self
        }
    }
}

/// A live session's state, owning its strings.
pub fn session_view(v: &SessionView, device_no: &str, now_ms: i64) -> LiveState<'static> {
    live_state(v, device_no, now_ms).into_owned()
}

/// The GameState JSON text pushed with USER_GAME_STATUS_CHANGE.
pub fn game_state_text(state: &GameState, device_no: &str, now_ms: i64) -> String {
    serde_json::to_string(&game_state(state, device_no, now_ms)).unwrap_or_default()
}

/// A node (server region); only status 1 can be chosen.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeDto {
    pub id: i64,
    pub name: String,
    pub status: i32,
    /// The latency probe the node dialog GETs (with `?t=`): a linked game host's `/ping` (the
    /// path to the machines), else the platform's `/api/node/{id}/ping`.
    pub ping_url: String,
    pub ping_ip: String,
    pub ip: String,
}

/// A node, with its game host's probe when one is linked.
pub fn node(n: &Node, host_ping_url: Option<&str>) -> NodeDto {
    NodeDto {
        id: n.id,
        name: n.name.clone(),
        status: n.status,
        ping_url: host_ping_url.map_or_else(|| format!("/api/node/{}/ping", n.id), str::to_string),
        ping_ip: "127.0.0.1".into(),
        ip: "127.0.0.1".into(),
    }
}

/// The answer of confirmConnect: the session's state, and on a game host's machine where its
/// stream is served and the ticket that opens it (`{streamUrl}/stream?ticket={ticket}`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Confirmed<'a> {
    #[serde(flatten)]
    pub state: LiveState<'a>,
    /// `ws(s)://host:port` of the game host; null on a machine without a stream.
    pub stream_url: Option<String>,
    /// A signed ticket for the stream, valid `TICKET_TTL_MS` (60 s) to open it; null without a
    /// stream.
    pub ticket: Option<String>,
}

/// A fresh stream ticket for the caller's session (reconnects).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StreamTicket {
    /// The session.
    pub id: i64,
    /// `ws(s)://host:port` of the game host; the endpoint is `{streamUrl}/stream?ticket=`.
    pub stream_url: String,
    pub ticket: String,
    /// Server time (ms) after which the ticket no longer opens a stream.
    pub expires_at: i64,
}

/// What the play page measured of a session's stream, as stored.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QualityReportDto {
    /// The session.
    pub id: i64,
    pub played_secs: i64,
    /// Round-trip latency to the game host, median and 95th percentile (ms).
    pub latency_p50_ms: f64,
    pub latency_p95_ms: f64,
    /// Decoded frames per second, on average.
    pub fps: f64,
    pub drops: i64,
    pub reconnects: i64,
    /// When it was reported (ms).
    pub reported_at: i64,
}

pub fn quality_report(q: &storage::QualityReport) -> QualityReportDto {
    QualityReportDto {
        id: q.session_id,
        played_secs: q.played_secs,
        latency_p50_ms: q.latency_p50_ms,
        latency_p95_ms: q.latency_p95_ms,
        fps: q.fps,
        drops: q.drops,
        reconnects: q.reconnects,
        reported_at: q.reported_at,
    }
}

/// One played session of the player's history.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayRecordDto {
    /// The session.
    pub id: i64,
    pub game_id: i64,
    pub game_name: String,
    pub game_logo: String,
    pub node_id: i64,
    pub node_name: String,
    /// When play began (ms).
    pub started_at: i64,
    /// When the session ended (ms); null while it plays.
    pub ended_at: Option<i64>,
    /// Why it ended (`over`, `time_up`, `game_exited`, `host_lost`...); null while it plays.
    pub end_reason: Option<String>,
    /// Seconds from play to the end (to now while it plays).
    pub played_secs: i64,
    /// Minutes of play time charged.
    pub charged_minutes: i64,
    /// The stream's quality report, when the play page sent one.
    pub quality: Option<QualityReportDto>,
}

pub fn play_record(r: &actors::play::service::PlayRecord, now_ms: i64) -> PlayRecordDto {
    PlayRecordDto {
        id: r.id,
        game_id: r.game_id,
        game_name: r.game_name.clone(),
        game_logo: format!("/covers/{}/logo.svg", r.game_id),
        node_id: r.node_id,
        node_name: r.node_name.clone(),
        started_at: r.playing_at,
        ended_at: r.ended_at,
        end_reason: r.end_reason.clone(),
        played_secs: ((r.ended_at.unwrap_or(now_ms) - r.playing_at).max(0)) / 1000,
        charged_minutes: r.play_minutes,
        quality: r.quality.as_ref().map(quality_report),
    }
}

/// A page of the player's history, newest first.
#[derive(Serialize, ToSchema)]
pub struct PlayHistory {
    pub data: Vec<PlayRecordDto>,
    pub total: u64,
}

/// One queue lane as the queue dialog and the rules page show it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LaneRule {
    /// The lane code (`isFast`).
    pub is_fast: i32,
    pub name: &'static str,
    /// Who joins this lane.
    pub who: &'static str,
    /// The share of admissions the lane gets while it has players waiting.
    pub weight: u64,
    /// Member and carrier fast entry: they skip the queue in practice.
    pub ultimate: bool,
    /// The lane the queue dialog offers a player waiting in this one (`isFast`; null for the
    /// ultimate lanes): the first buyable lane that admits faster, else member fast entry.
    pub upsell: Option<i32>,
}

/// The queue's rules as `actors::play::lanes` implements them.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueRules {
    /// Every lane, highest weight first.
    pub lanes: Vec<LaneRule>,
    /// The sum of all weights (`W` of the no-starvation bound `r + W × (n + 1)`).
    pub total_weight: u64,
}

/// The spec's name of a lane (core-platform.md §2.7, §4.6).
pub fn lane_name(lane: Lane) -> &'static str {
    match lane {
        Lane::Normal => "普通队列",
        Lane::Member => "会员速进通道",
        Lane::Carrier => "天翼电竞宽带速进通道",
        Lane::Vvip => "VVIP专属通道",
        Lane::Vip => "VIP专属通道",
        Lane::Night => "夜间畅玩包专属通道",
        Lane::Daily => "日间畅玩包专属通道",
    }
}

fn lane_who(lane: Lane) -> &'static str {
    match lane {
        Lane::Normal => "其他玩家",
        Lane::Member => "持有速进时长或使用速进卡的玩家",
        Lane::Carrier => "天翼电竞宽带会员",
        Lane::Vvip => "VVIP会员",
        Lane::Vip => "VIP会员",
        Lane::Night => "夜间畅玩包用户（每日 23:00–次日 07:00）",
        Lane::Daily => "日间畅玩包用户（每日 08:00–24:00）",
    }
}

pub fn queue_rules() -> QueueRules {
    let mut lanes: Vec<Lane> = actors::play::lanes::ALL_LANES.to_vec();
    lanes.sort_by_key(|l| std::cmp::Reverse(l.weight()));
    QueueRules {
        lanes: lanes
            .into_iter()
            .map(|l| LaneRule {
                is_fast: l.code(),
                name: lane_name(l),
                who: lane_who(l),
                weight: l.weight(),
                ultimate: l.is_ultimate(),
                upsell: l.upsell().map(Lane::code),
            })
            .collect(),
        total_weight: actors::play::lanes::total_weight(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The pushed GameState text keeps its wire shape: the fields and hasGameOnline of each state.
    #[test]
    fn game_state_text_has_the_wire_shape() {
        let ended = GameState::Ended {
            id: 7,
            game_id: 3,
            reason: EndReason::GaveUp,
        };
        assert_eq!(
            game_state_text(&ended, "d", 0),
            r#"{"hasGameOnline":false,"id":7,"gameId":3,"endReason":"gave_up"}"#
        );
        assert_eq!(game_state_text(&GameState::None, "d", 0), r#"{"hasGameOnline":false}"#);
    }
}
