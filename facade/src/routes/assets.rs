//! What a player owns that touches the queue: fast-entry cards and the monthly member claim
//! (commerce.md §2.10, §4.7, §4.12).

use actix_web::web;
use serde::Deserialize;
use serde_json::json;

use crate::auth::Caller;
use crate::dto::{self, Id};
use crate::envelope::{ok, ts, ApiError, ApiResult};
use crate::AppState;

#[derive(Deserialize)]
pub struct CardQuery {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    card_type: Option<String>,
}

/// Usable fast-entry cards (status 0, card type 1), soonest expiry first.
pub async fn card_list(state: web::Data<AppState>, caller: Caller, q: web::Query<CardQuery>) -> ApiResult {
    let usable = matches!(q.status.as_deref(), None | Some("") | Some("0"));
    let card_type_ok = matches!(q.card_type.as_deref(), None | Some("") | Some("1"));
    let cards = if usable && card_type_ok {
        state.platform.cards(caller.0.uid).await?
    } else {
        vec![]
    };
    Ok(ok(
        json!({"total": cards.len(), "data": cards.iter().map(dto::card).collect::<Vec<_>>(), "ts": ts()}),
    ))
}

#[derive(Deserialize)]
pub struct Activate {
    id: Id,
}

/// Uses a fast-entry card on the caller's queued session.
pub async fn card_activate(state: web::Data<AppState>, caller: Caller, body: web::Json<Activate>) -> ApiResult {
    let (card, view) = state.platform.use_card(caller.0.uid, body.id.0).await?;
    Ok(ok(
        json!({"goods_title": card.goods_title, "isFast": view.is_fast, "sort": view.sort}),
    ))
}

pub async fn monthly_records(state: web::Data<AppState>, caller: Caller) -> ApiResult {
    let (claims, per_month, receivable) = state.platform.monthly_records(caller.0.uid).await?;
    let records: Vec<_> = claims
        .iter()
        .map(|c| json!({"month": c.month, "cards": c.cards, "claimed_at": c.claimed_at}))
        .collect();
    Ok(ok(
        json!({"records": records, "monthly_receive_times": per_month, "receivable": receivable}),
    ))
}

pub async fn monthly_receive(state: web::Data<AppState>, caller: Caller) -> ApiResult {
    let cards = state.platform.claim_monthly(caller.0.uid).await?;
    Ok(ok(json!({"cards": cards.iter().map(dto::card).collect::<Vec<_>>()})))
}

#[derive(Deserialize)]
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

/// Dev mode only: an operator grants a player something through the same path a purchase uses.
pub async fn dev_grant(state: web::Data<AppState>, body: web::Json<GrantBody>) -> ApiResult {
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
    Ok(ok(dto::profile(&user, &holdings, state.platform.clock().now_ms())))
}
