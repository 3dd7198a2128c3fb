//! What a player owns that touches the queue: fast-entry cards and the monthly member claim
//! (commerce.md §2.10, §4.7, §4.12).

use actix_web::{get, post, web};
use actors::commerce::card_notice::Told;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::dto::{self, Card};
use crate::auth::Caller;
use crate::dto::Id;
use crate::envelope::{ok, refusals, ts, ApiError, ApiResult, Envelope};
use crate::routes::accounts::dto::Profile;
use crate::state::AppState;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CardQuery {
    /// 0 unused (default), 1 used or invalidated, 2 expired.
    #[serde(default)]
    status: Option<String>,
    /// 1 cards (default), 2 gifts, 3 coupons.
    #[serde(default)]
    card_type: Option<String>,
    /// From 1 (default).
    #[serde(default)]
    page: Option<String>,
    /// 1..=100, 12 by default.
    #[serde(default)]
    page_size: Option<String>,
    /// Comma-separated play-time types to keep (0 fast-entry, 1 paid, 2 free, 4 exclusive).
    #[serde(default)]
    goods_types: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CardList {
    /// All the cards the filter matches (the page shows at most page_size of them).
    pub total: usize,
    pub data: Vec<Card>,
    pub ts: i64,
}

/// An optional integer query value in `range`, else `default`; anything else is bad input.
fn query_int(v: &Option<String>, default: i64, range: std::ops::RangeInclusive<i64>) -> Result<i64, ApiError> {
    match v.as_deref().map(str::trim) {
        None | Some("") => Ok(default),
        Some(t) => t
            .parse::<i64>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(ApiError::bad_request),
    }
}

refusals!(CardListRefusals: common::input(), common::logged_in());

/// The backpack's cards of one tab and status filter (commerce.md §2.13): unused ones soonest
/// expiry first, the others newest first; one page of them.
#[utoipa::path(params(CardQuery), responses((status = 200, body = Envelope<CardList>), CardListRefusals))]
#[get("/api/v3/user/card/list")]
pub async fn card_list(state: web::Data<AppState>, caller: Caller, q: web::Query<CardQuery>) -> ApiResult<CardList> {
    let status = query_int(&q.status, 0, 0..=2)?;
    let card_type = query_int(&q.card_type, 1, 1..=3)?;
    let page = query_int(&q.page, 1, 1..=1_000_000)?;
    let page_size = query_int(&q.page_size, 12, 1..=100)?;
    let types: Option<Vec<i32>> = match q.goods_types.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(t) => Some(
            t.split(',')
                .map(|x| x.trim().parse::<i32>().map_err(|_| ApiError::bad_request()))
                .collect::<Result<_, _>>()?,
        ),
    };
    if card_type == 3 {
        return coupon_page(&state, caller.0.uid, status, page, page_size).await;
    }
    let (cards, now) = state.platform.play.backpack(caller.0.uid).await?;
    let cards = cards
        .iter()
        .map(|c| dto::card_at(c, now))
        .filter(|c| card_type == 1 && types.as_ref().is_none_or(|t| t.contains(&c.play_type)));
    Ok(ok(card_page(cards, status, page, page_size)))
}

/// One page of a backpack tab: the cards of the status asked for (0 unused, 1 used or given,
/// 2 expired), the unused ones soonest to expire first.
fn card_page(cards: impl Iterator<Item = Card>, status: i64, page: i64, page_size: i64) -> CardList {
    let mut shown: Vec<Card> = cards
        .filter(|c| match status {
            0 => c.status == 0,
            1 => c.status == 1 || c.status == 3,
            _ => c.status == 2,
        })
        .collect();
    if status == 0 {
        shown.sort_by_key(|c| (c.expires_at, c.id));
    }
    let total = shown.len();
    let skip = usize::try_from((page - 1) * page_size).unwrap_or(usize::MAX);
    let data = shown.into_iter().skip(skip).take(page_size as usize).collect();
    CardList { total, data, ts: ts() }
}

/// The backpack's coupons tab (card_type 3): each a card whose `coupon` carries the coupon.
async fn coupon_page(state: &AppState, uid: i64, status: i64, page: i64, page_size: i64) -> ApiResult<CardList> {
    let (coupons, now) = state.platform.commerce.my_coupons(uid).await?;
    let cards = coupons.iter().map(|c| dto::coupon_card(super::coupons::coupon_dto(c, 1, now)));
    Ok(ok(card_page(cards, status, page, page_size)))
}

#[derive(Serialize, ToSchema)]
pub struct CardTotal {
    /// Unused cards of the cards tab.
    pub card: usize,
    /// Unused gifts.
    pub gift: usize,
    /// Unused coupons.
    pub coupon: usize,
    pub ts: i64,
}

refusals!(CardTotalRefusals: common::logged_in());

/// The unused count of each backpack tab (the tabs show it on the unused filter).
#[utoipa::path(responses((status = 200, body = Envelope<CardTotal>), CardTotalRefusals))]
#[get("/api/v3/user/card/total")]
pub async fn card_total(state: web::Data<AppState>, caller: Caller) -> ApiResult<CardTotal> {
    let (cards, now) = state.platform.play.backpack(caller.0.uid).await?;
    let card = cards.iter().filter(|c| c.status == 0 && c.expires_at > now).count();
    let (coupons, now) = state.platform.commerce.my_coupons(caller.0.uid).await?;
    let coupon = coupons.iter().filter(|c| actors::commerce::coupon::status_at(c, now) == 0).count();
    Ok(ok(CardTotal {
        card,
        gift: 0,
        coupon,
        ts: ts(),
    }))
}

/// One item of the card notice (commerce.md §3 "Card notice"): a card or a coupon.
#[derive(Serialize, ToSchema, Clone)]
pub struct NoticeItem {
    pub id: i64,
    /// 1 card, 3 coupon.
    pub card_type: i32,
    pub name: String,
    /// What it is worth: '120分钟', '1小时', '满30.00元减5.00元'.
    pub face_value_txt: String,
    /// ms
    pub expires_at: i64,
    pub near_expiration: bool,
}

impl NoticeItem {
    fn of(card_type: i32, face_value_txt: String, c: Card) -> NoticeItem {
        NoticeItem {
            id: c.id,
            card_type,
            name: c.goods_title,
            face_value_txt,
            expires_at: c.expires_at,
            near_expiration: c.near_expiration,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct CardNotice {
    /// Unused cards and coupons received since the last notice (at most 3 days ago), newest
    /// first; a new user's welcome coupons are left out (the registration gift showed them).
    pub newest_list: Vec<NoticeItem>,
    /// Unused cards and coupons expiring within 3 days, soonest first.
    pub near_exp_list: Vec<NoticeItem>,
    /// Server seconds.
    pub ts: i64,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NoticeQuery {
    /// 1 for a new user (the registration gifts), else absent.
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

refusals!(CardNoticeRefusals: common::input(), common::logged_in());

/// A card's worth: its play time, or one fast-entry card.
fn card_worth(c: &Card) -> String {
    match c.minutes {
        m if m > 0 && m % 60 == 0 => format!("{}小时", m / 60),
        m if m > 0 => format!("{m}分钟"),
        _ => "1张".to_owned(),
    }
}

/// A coupon's worth: '满{min}元减{face}元', or '减{face}元' without a threshold.
fn coupon_worth(c: &super::coupons::CouponDto) -> String {
    let off = actors::commerce::pricing::yuan(c.face_value);
    if c.min_order_money > 0 {
        format!("满{}元减{off}元", actors::commerce::pricing::yuan(c.min_order_money))
    } else {
        format!("减{off}元")
    }
}

/// What the system popup chain tells after a login (commerce.md §2.8, §4.7): the cards and
/// coupons received since it last told (each told once) and those about to expire.
#[utoipa::path(params(NoticeQuery), responses((status = 200, body = Envelope<CardNotice>), CardNoticeRefusals))]
#[get("/api/v3/user/card/notice")]
pub async fn card_notice(state: web::Data<AppState>, caller: Caller, q: web::Query<NoticeQuery>) -> ApiResult<CardNotice> {
    let new_user = query_int(&q.kind, 0, 0..=1)? == 1;
    let view = state.platform.commerce.card_notice(caller.0.uid, new_user).await?;
    let now = view.now_ms;
    let item = |t: Told| match t {
        Told::Card(c) => {
            let c = dto::card_at(&c, now);
            NoticeItem::of(1, card_worth(&c), c)
        }
        Told::Coupon(c) => {
            let c = super::coupons::coupon_dto(&c, 1, now);
            NoticeItem::of(3, coupon_worth(&c), dto::coupon_card(c))
        }
    };
    Ok(ok(CardNotice {
        newest_list: view.newest.into_iter().map(item).collect(),
        near_exp_list: view.near_expiry.into_iter().map(item).collect(),
        ts: ts(),
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct Activate {
    id: Id,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardActivation {
    #[serde(rename = "goods_title")]
    pub goods_title: String,
    /// 1 when a fast-entry card moved the queued session to the fast lane, 0 for a time card.
    pub is_fast: i32,
    /// The session's place in its lane after a fast-entry card (0 for a time card).
    pub sort: u64,
    /// The play minutes a time card added (0 for a fast-entry card).
    pub minutes: i64,
    /// The time card's play-time type (0 for a fast-entry card).
    #[serde(rename = "play_type")]
    pub play_type: i32,
}

refusals!(CardActivateRefusals: common::input(), common::logged_in(), DomainError::CardNotQueued, DomainError::UnknownCard,
    DomainError::CardUnusable, DomainError::UnknownSession, DomainError::WrongState);

/// Uses a card: a time card adds its play time of its type; a fast-entry card moves the
/// caller's queued session to the fast lane.
#[utoipa::path(request_body = Activate, responses((status = 200, body = Envelope<CardActivation>), CardActivateRefusals))]
#[post("/api/v3/user/card/activate")]
pub async fn card_activate(state: web::Data<AppState>, caller: Caller, body: web::Json<Activate>) -> ApiResult<CardActivation> {
    let uid = caller.0.uid;
    let (cards, _) = state.platform.play.backpack(uid).await?;
    let Some(found) = cards.iter().find(|c| c.id == body.id.0) else {
        return Err(actors::DomainError::UnknownCard.into());
    };
    if found.play_type != 0 {
        let card = state.platform.play.use_time_card(uid, found.id).await?;
        return Ok(ok(CardActivation {
            goods_title: card.goods_title,
            is_fast: 0,
            sort: 0,
            minutes: card.minutes,
            play_type: card.play_type,
        }));
    }
    let (card, view) = state.platform.play.use_card(uid, found.id).await?;
    Ok(ok(CardActivation {
        goods_title: card.goods_title,
        is_fast: view.is_fast,
        sort: view.sort,
        minutes: 0,
        play_type: 0,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct Give {
    /// The card (the caller's, unused, with gives left).
    #[schema(value_type = i64, example = 3)]
    id: Id,
    /// The receiver's phone.
    #[schema(example = "13900000043")]
    phone: String,
}

refusals!(CardGiveRefusals: common::input(), common::logged_in(), DomainError::UnknownCard, DomainError::CardUnusable,
    DomainError::GiveToSelf, DomainError::UnknownPhone, DomainError::PhoneEmpty, DomainError::PhoneMalformed);

/// Gives an unused card with gives left to the user of a phone; answers the caller's card after
/// (used, with `target_user`).
#[utoipa::path(request_body = Give, responses((status = 200, body = Envelope<Card>), CardGiveRefusals))]
#[post("/api/v3/user/card/give")]
pub async fn card_give(state: web::Data<AppState>, caller: Caller, body: web::Json<Give>) -> ApiResult<Card> {
    let card = state.platform.play.give_card(caller.0.uid, body.id.0, body.phone.trim()).await?;
    Ok(ok(dto::card_at(&card, state.platform.clock().now_ms())))
}

#[derive(Serialize, ToSchema)]
pub struct MonthlyRecord {
    /// YYYY-MM (UTC+8).
    pub month: String,
    pub cards: i32,
    /// ms
    pub claimed_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct MonthlyRecords {
    pub records: Vec<MonthlyRecord>,
    pub monthly_receive_times: i32,
    pub receivable: bool,
}

refusals!(MonthlyRecordsRefusals: common::logged_in());

/// The caller's monthly member card claims.
#[utoipa::path(responses((status = 200, body = Envelope<MonthlyRecords>), MonthlyRecordsRefusals))]
#[get("/api/member/fast_enter/monthly_records")]
pub async fn monthly_records(state: web::Data<AppState>, caller: Caller) -> ApiResult<MonthlyRecords> {
    let (claims, per_month, receivable) = state.platform.play.monthly_records(caller.0.uid).await?;
    let records = claims
        .iter()
        .map(|c| MonthlyRecord {
            month: c.month.clone(),
            cards: c.cards,
            claimed_at: c.claimed_at,
        })
        .collect();
    Ok(ok(MonthlyRecords {
        records,
        monthly_receive_times: per_month,
        receivable,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct MonthlyCards {
    pub cards: Vec<Card>,
}

refusals!(MonthlyReceiveRefusals: common::logged_in(), DomainError::NotMember, DomainError::MonthlyClaimed);

/// Claims this month's member fast-entry cards.
#[utoipa::path(responses((status = 200, body = Envelope<MonthlyCards>), MonthlyReceiveRefusals))]
#[get("/api/member/fast_enter/receive")]
pub async fn monthly_receive(state: web::Data<AppState>, caller: Caller) -> ApiResult<MonthlyCards> {
    let cards = state.platform.play.claim_monthly(caller.0.uid).await?;
    let now = state.platform.clock().now_ms();
    Ok(ok(MonthlyCards {
        cards: cards.iter().map(|c| dto::card_at(c, now)).collect(),
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct GrantBody {
    #[schema(example = "13900000042")]
    cellphone: String,
    #[schema(example = "play_time")]
    kind: String,
    #[serde(default)]
    days: Option<i64>,
    #[serde(default)]
    #[schema(example = 60)]
    minutes: Option<i64>,
    #[serde(default)]
    count: Option<i64>,
    /// The game category of an exclusive_time_card (required for it).
    #[serde(default)]
    game_category_id: Option<i64>,
}

refusals!(GrantRefusals: common::input(), common::internal(), DomainError::NotLoggedIn, DomainError::PhoneEmpty, DomainError::PhoneMalformed);

/// Dev mode only: an operator grants a player something through the same path a purchase uses.
/// `kind`: vip, vvip, tyvip, tyschvip, daily, night, fast_enter, sub:{game} (days), card (count),
/// play_time or paid_time (minutes), time_card, free_time_card or exclusive_time_card (minutes,
/// days; the exclusive one also game_category_id).
#[utoipa::path(request_body = GrantBody, responses((status = 200, body = Envelope<Profile>), GrantRefusals))]
#[post("/api/dev/grant")]
pub async fn dev_grant(state: web::Data<AppState>, body: web::Json<GrantBody>) -> ApiResult<Profile> {
    use actors::play::service::Grant;
    let positive = |v: Option<i64>, max: i64| v.filter(|n| (1..=max).contains(n)).ok_or_else(ApiError::bad_request);
    let grant = match body.kind.as_str() {
        "vip" | "vvip" | "tyvip" | "tyschvip" | "daily" | "night" | "fast_enter" => Grant::Entitlement {
            kind: body.kind.clone(),
            days: positive(body.days, 3650)?,
        },
        k if k.starts_with("sub:") && k[4..].parse::<i64>().is_ok() => Grant::Entitlement {
            kind: k.to_string(),
            days: positive(body.days, 3650)?,
        },
        "card" => Grant::Cards {
            count: positive(body.count, 100)?,
        },
        "time_card" | "free_time_card" | "exclusive_time_card" => Grant::TimeCard {
            play_type: match body.kind.as_str() {
                "time_card" => 1,
                "free_time_card" => 2,
                _ => 4,
            },
            minutes: positive(body.minutes, 1_000_000)?,
            days: positive(body.days, 3650)?,
            give_times: match body.count {
                None => 0,
                Some(n) => i32::try_from(n)
                    .ok()
                    .filter(|n| (0..=100).contains(n))
                    .ok_or_else(ApiError::bad_request)?,
            },
            game_category_id: match body.kind.as_str() {
                "exclusive_time_card" => positive(body.game_category_id, i64::MAX)?,
                _ => 0,
            },
        },
        "play_time" => Grant::PlayTime {
            free: positive(body.minutes, 1_000_000)?,
            paid: 0,
        },
        "paid_time" => Grant::PlayTime {
            free: 0,
            paid: positive(body.minutes, 1_000_000)?,
        },
        _ => return Err(ApiError::bad_request()),
    };
    let user = state.platform.passport().user_by_phone(body.cellphone.trim()).await?;
    state.platform.play.grant(user.uid, grant).await?;
    Ok(ok(crate::routes::accounts::passport::profile_of(&state, user.uid).await?))
}
