//! What a player owns that touches the queue: fast-entry cards and the monthly member claim
//! (commerce.md §2.10, §4.7, §4.12).

use actix_web::{get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::dto::{self, Card, Id, Profile};
use crate::envelope::{ok, refusals, ts, ApiError, ApiResult, Envelope};
use crate::AppState;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CardQuery {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    card_type: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CardList {
    pub total: usize,
    pub data: Vec<Card>,
    pub ts: i64,
}

refusals!(CardListRefusals: common::input(), common::logged_in());

/// Usable fast-entry cards (status 0, card type 1), soonest expiry first.
#[utoipa::path(params(CardQuery), responses((status = 200, body = Envelope<CardList>), CardListRefusals))]
#[get("/api/v3/user/card/list")]
pub async fn card_list(state: web::Data<AppState>, caller: Caller, q: web::Query<CardQuery>) -> ApiResult<CardList> {
    let usable = matches!(q.status.as_deref(), None | Some("") | Some("0"));
    let card_type_ok = matches!(q.card_type.as_deref(), None | Some("") | Some("1"));
    let cards = if usable && card_type_ok {
        state.platform.cards(caller.0.uid).await?
    } else {
        vec![]
    };
    Ok(ok(CardList {
        total: cards.len(),
        data: cards.iter().map(dto::card).collect(),
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
    pub is_fast: i32,
    pub sort: u64,
}

refusals!(CardActivateRefusals: common::input(), common::logged_in(), DomainError::CardNotQueued, DomainError::UnknownCard,
    DomainError::CardUnusable, DomainError::UnknownSession, DomainError::WrongState);

/// Uses a fast-entry card on the caller's queued session.
#[utoipa::path(request_body = Activate, responses((status = 200, body = Envelope<CardActivation>), CardActivateRefusals))]
#[post("/api/v3/user/card/activate")]
pub async fn card_activate(state: web::Data<AppState>, caller: Caller, body: web::Json<Activate>) -> ApiResult<CardActivation> {
    let (card, view) = state.platform.use_card(caller.0.uid, body.id.0).await?;
    Ok(ok(CardActivation {
        goods_title: card.goods_title,
        is_fast: view.is_fast,
        sort: view.sort,
    }))
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
    let (claims, per_month, receivable) = state.platform.monthly_records(caller.0.uid).await?;
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
    let cards = state.platform.claim_monthly(caller.0.uid).await?;
    Ok(ok(MonthlyCards {
        cards: cards.iter().map(dto::card).collect(),
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct GrantBody {
    cellphone: String,
    kind: String,
    #[serde(default)]
    days: Option<i64>,
    #[serde(default)]
    minutes: Option<i64>,
    #[serde(default)]
    count: Option<i64>,
}

refusals!(GrantRefusals: common::input(), common::internal(), DomainError::NotLoggedIn);

/// Dev mode only: an operator grants a player something through the same path a purchase uses.
/// `kind`: vip, vvip, tyvip, tyschvip, daily, night, fast_enter, sub:{game} (days), card (count),
/// play_time or paid_time (minutes).
#[utoipa::path(request_body = GrantBody, responses((status = 200, body = Envelope<Profile>), GrantRefusals))]
#[post("/api/dev/grant")]
pub async fn dev_grant(state: web::Data<AppState>, body: web::Json<GrantBody>) -> ApiResult<Profile> {
    use actors::platform::Grant;
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
    state.platform.grant(user.uid, grant).await?;
    let user = state.platform.passport().user(user.uid).await?;
    let holdings = state.platform.holdings(user.uid).await?;
    let wallet = state.platform.wallet(user.uid).await?;
    Ok(ok(dto::profile(&user, &holdings, wallet, state.platform.clock().now_ms())))
}
