//! The JSON shapes of API.md, converted from domain values at the boundary. Each is a
//! `Serialize` struct that also describes itself (`ToSchema`) in the OpenAPI document, so the
//! frontend's types are generated from these very definitions.

pub mod room;

use std::borrow::Cow;

use actors::play::holdings::Holdings;
use actors::play::lanes::Lane;
use actors::view::{EndReason, GameState, SessionView, Status};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use storage::{Game, Node, User};
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use crate::envelope::Null;

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

impl PartialSchema for Id {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                        utoipa::openapi::KnownFormat::Int64,
                    ))),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(r"^\s*[+-]?[0-9]{1,18}\s*$")),
            )
            .description(Some("A number, or a string of one"))
            .into()
    }
}

impl ToSchema for Id {}

/// A yes/no the client may send as 1/0, true/false, or "1"/"0" (the spec's `isShow`,
/// `isUpdatePass`, `force`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flag(pub bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Bool(b) => Ok(Flag(b)),
            Value::Number(n) if n.as_i64() == Some(0) => Ok(Flag(false)),
            Value::Number(n) if n.as_i64() == Some(1) => Ok(Flag(true)),
            Value::String(s) if s.trim() == "0" => Ok(Flag(false)),
            Value::String(s) if s.trim() == "1" => Ok(Flag(true)),
            _ => Err(serde::de::Error::custom("a flag is 0 or 1")),
        }
    }
}

impl PartialSchema for Flag {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Integer).enum_values(Some([0, 1])))
            .item(ObjectBuilder::new().schema_type(Type::Boolean))
            .description(Some("1/0 or true/false"))
            .into()
    }
}

impl ToSchema for Flag {}

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

pub fn image(game: &Game, shape: &str) -> String {
    format!("/covers/{}/{shape}.svg", game.id)
}

/// A game as the catalogue lists it (social.md §2.8).
#[derive(Serialize, ToSchema)]
pub struct CatalogueGame {
    pub id: i64,
    pub name: String,
    pub image: String,
    pub image_vertical: String,
    pub image_square: String,
    pub logo: String,
    /// 0 coming soon, 1 on the shelf, 2 off the shelf, 10 not supported on this client.
    pub status: i32,
    pub deleted: bool,
    pub available: bool,
    pub collected: bool,
    /// null, "vip", "vvip" or "hvip".
    pub member_type: Option<String>,
    pub instant_play: bool,
}

pub fn catalogue_game(g: &Game) -> CatalogueGame {
    CatalogueGame {
        id: g.id,
        name: g.name.clone(),
        image: image(g, "cover"),
        image_vertical: image(g, "vertical"),
        image_square: image(g, "square"),
        logo: image(g, "logo"),
        status: g.status,
        deleted: g.deleted,
        available: g.available,
        collected: false,
        member_type: g.member_type.clone(),
        instant_play: g.instant_play,
    }
}

/// A page of the catalogue.
#[derive(Serialize, ToSchema)]
pub struct GamePage {
    pub data: Vec<CatalogueGame>,
    pub total: u64,
}

/// A game's detail: the catalogue fields and more.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    #[serde(flatten)]
    pub game: CatalogueGame,
    pub description: String,
    pub platform: String,
    pub chinese: bool,
    pub controller: bool,
    /// 0: any start; above 0: only a play-together start, in a room of this mode (the start
    /// without one is refused with 130130).
    pub start_mode: i32,
    /// The room modes (2 RELAY, 4 HAND) a play-together start of this game may use (another is
    /// refused with 130129).
    pub support_modes: Vec<i32>,
    /// 1: played here; 2: an external game, opened at `startUrl` (a start is refused with 130128).
    pub associated_type: i32,
    pub start_url: String,
}

pub fn game_info(g: &Game) -> GameInfo {
    GameInfo {
        game: catalogue_game(g),
        description: g.description.clone(),
        platform: g.platform.clone(),
        chinese: g.chinese,
        controller: g.controller,
        start_mode: g.start.start_mode,
        support_modes: g.start.support_modes.clone(),
        associated_type: g.start.associated_type,
        start_url: g.start.start_url.clone(),
    }
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

/// The cellphone with its middle four digits hidden.
pub fn mask_phone(p: &str) -> String {
    if p.len() == 11 && p.is_ascii() {
        format!("{}****{}", &p[..3], &p[7..])
    } else {
        String::new()
    }
}

/// One membership or package the player holds.
#[derive(Serialize, ToSchema)]
pub struct MemberItem {
    #[serde(rename = "type")]
    pub kind: String,
    /// ms
    pub expired_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct MemberInfo {
    /// The membership in use: vvip, vip, tyvip, tyschvip, or null.
    pub using: Option<&'static str>,
    pub items: Vec<MemberItem>,
    /// The membership in use ends within three days.
    pub near_expiration: bool,
    /// ms
    pub join_at: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct MonthlyFastEnter {
    pub monthly_receive_times: i32,
}

#[derive(Serialize, ToSchema)]
pub struct PlaytimePrivilege {
    pub daily_playtime: i64,
    pub monthly_playtime: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Privilege {
    pub discount_goods: bool,
    pub cross_screen: bool,
    pub fast_enter: MonthlyFastEnter,
    pub playtime: PlaytimePrivilege,
}

/// The player's profile (core-platform.md §3.1). Play time in minutes.
#[derive(Serialize, ToSchema)]
pub struct Profile {
    pub uid: i64,
    pub nickname: String,
    pub display_name: String,
    pub nameplate: String,
    pub avatar: String,
    pub avatar_frame: String,
    pub gender: i32,
    pub status: i32,
    /// Masked: 138****0000.
    pub cellphone: String,
    pub id_authed: bool,
    pub growth_level: i32,
    pub growth_value: i64,
    /// How many games the user has collected (the card panel's 收藏, social.md §2.17).
    pub collects: i64,
    pub member_info: MemberInfo,
    #[schema(inline)]
    pub previous_info: Null,
    pub privilege: Privilege,
    pub play_time_total: i64,
    pub play_time_free: i64,
    pub play_time_paid: i64,
    pub fast_enter_free: i64,
    pub fast_enter_member: i64,
    pub fast_enter_paid: i64,
    pub fast_enter_remain_times: u64,
    /// Seconds of fast-entry time left.
    pub fast_enter_expires_in: i64,
    pub yoodo: String,
    pub balance: i64,
    /// Free play minutes the user's first login from the product's app grants; 0 once they
    /// logged in from it, or when no such gift is configured (commerce.md §2.9's app guide).
    pub first_login_app_playtime: i64,
    #[serde(rename = "systemTime")]
    pub system_time: i64,
}

/// The memberships held (commerce.md §3 `member_info`).
pub fn member_info(h: &Holdings, now_ms: i64) -> MemberInfo {
    let items = h
        .member_entitlements()
        .map(|e| MemberItem {
            kind: e.kind.clone(),
            expired_at: e.expires_at,
        })
        .collect();
    MemberInfo {
        using: h.member_type(),
        items,
        near_expiration: h.membership_near_expiry(now_ms),
        join_at: h.member_since(),
    }
}

/// The user's avatar: the one set at the account centre, else the drawn default.
pub fn avatar_of(u: &User) -> String {
    if u.avatar.is_empty() {
        format!("/covers/avatar/{}.svg", u.uid)
    } else {
        u.avatar.clone()
    }
}

/// `app_playtime`: `first_login_app_playtime` (`Platform::app_playtime`); `collects`: how many
/// games the user has collected (the card panel's 收藏).
pub fn profile(u: &User, h: &Holdings, wallet: storage::Wallet, app_playtime: i64, collects: u64, now_ms: i64) -> Profile {
    let fast_enter_secs = h.fast_enter_secs(now_ms);
    Profile {
        uid: u.uid,
        nickname: u.nickname.clone(),
        display_name: u.nickname.clone(),
        nameplate: String::new(),
        avatar: avatar_of(u),
        avatar_frame: String::new(),
        gender: 0,
        status: 0,
        cellphone: mask_phone(&u.cellphone),
        id_authed: false,
        growth_level: 1,
        growth_value: 0,
        collects: i64::try_from(collects).unwrap_or(i64::MAX),
        member_info: member_info(h, now_ms),
        previous_info: Null,
        privilege: Privilege {
            discount_goods: h.is_member(),
            cross_screen: h.cross_screen(),
            fast_enter: MonthlyFastEnter {
                monthly_receive_times: h.monthly_cards(),
            },
            playtime: {
                let (daily_playtime, monthly_playtime) = actors::commerce::member::playtime_privilege(h);
                PlaytimePrivilege {
                    daily_playtime,
                    monthly_playtime,
                }
            },
        },
        play_time_total: u.play_time_free + u.play_time_paid,
        play_time_free: u.play_time_free,
        play_time_paid: u.play_time_paid,
        fast_enter_free: 0,
        fast_enter_member: 0,
        fast_enter_paid: fast_enter_secs / 60,
        fast_enter_remain_times: h.cards as u64,
        fast_enter_expires_in: fast_enter_secs,
        yoodo: format!("{}.00", wallet.yoodo),
        balance: wallet.coins,
        first_login_app_playtime: app_playtime,
        system_time: now_ms,
    }
}

/// A card of the backpack as the card list shows it: a fast-entry card (`play_type` 0) or a
/// time card (commerce.md §2.13, §4.12).
#[derive(Serialize, ToSchema)]
pub struct Card {
    pub id: i64,
    pub goods_title: String,
    /// ms: 23:59:59.999 (UTC+8) of the last day it can be used.
    pub expires_at: i64,
    /// 0 unused, 1 used, 2 expired (an unused card past `expires_at` reads 2), 3 invalidated.
    pub status: i32,
    /// 1 card, 2 gift, 3 coupon.
    pub card_type: i32,
    /// 0 a fast-entry card; a time card's play-time type: 1 paid, 2 free, 4 exclusive.
    pub play_type: i32,
    /// The play minutes a time card adds when used (0 for a fast-entry card).
    pub minutes: i64,
    /// Where it came from: shop, grant, monthly, ...
    pub source: String,
    /// ms; None until used.
    pub used_at: Option<i64>,
    /// Unused and expiring within 3 days: the item shows a countdown.
    pub near_expiration: bool,
    /// How many more times it may be given (the '赠送' button shows while unused and > 0).
    pub remain_give_times: i32,
    /// The phone the caller gave it to ('赠送给{phone}').
    pub target_user: Option<CardUser>,
    /// The phone that gave it to the caller ('{phone}赠送给我').
    pub from_user: Option<CardUser>,
    /// A coupon (card_type 3): the coupon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coupon: Option<crate::routes::coupons::CouponDto>,
}

/// The other side of a given card.
#[derive(Serialize, ToSchema)]
pub struct CardUser {
    pub phone: String,
}

/// A card as read at `now_ms`: an unused card that ran out reads as expired.
pub fn card_at(c: &storage::FastEnterCard, now_ms: i64) -> Card {
    let usable = c.status == 0 && c.expires_at > now_ms;
    Card {
        id: c.id,
        goods_title: c.goods_title.clone(),
        expires_at: c.expires_at,
        status: if c.status == 0 && !usable { 2 } else { c.status },
        card_type: 1,
        play_type: c.play_type,
        minutes: c.minutes,
        source: c.source.clone(),
        used_at: c.used_at,
        near_expiration: usable && c.expires_at - now_ms <= actors::play::holdings::NEAR_EXPIRY_MS,
        remain_give_times: c.remain_give_times,
        target_user: c.given_to.clone().map(|phone| CardUser { phone }),
        from_user: c.given_from.clone().map(|phone| CardUser { phone }),
        coupon: None,
    }
}

/// A coupon as a backpack card (card_type 3).
pub fn coupon_card(c: crate::routes::coupons::CouponDto) -> Card {
    Card {
        id: c.id,
        goods_title: c.goods_title.clone(),
        expires_at: c.expires_at,
        status: c.status,
        card_type: 3,
        play_type: 0,
        minutes: 0,
        source: c.source.clone(),
        used_at: c.used_at,
        near_expiration: c.near_expiration,
        remain_give_times: 0,
        target_user: None,
        from_user: None,
        coupon: Some(c),
    }
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
