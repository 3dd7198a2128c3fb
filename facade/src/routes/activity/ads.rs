//! The ad slots (commerce.md §2.2, §2.8, §2.9, §2.15; core-platform.md §9): the client reads
//! the items of the slots its page shows (`GET /api/web/v1/ad/slots?keys=a,b`), each saying
//! whether this user is out of its pay times; an operator replaces a slot's items (`POST
//! /api/ops/ad/slot` with the operator token in every mode, `POST /api/dev/ad/slot` in dev
//! mode). A purchase through a section ad carries `ad_id` (`POST /api/payment/goods`).

use actix_web::{get, post, web};
use actors::activity::ads_service::{AdView, SlotRefusal};
use serde::{Deserialize, Serialize};
use storage::ads::{Ad, AdSpec};
use utoipa::{IntoParams, ToSchema};

use crate::auth::{MaybeCaller, Operator};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::state::AppState;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SlotsQuery {
    /// Slot keys separated by commas (1–16 keys of `a-z`, `0-9`, `_`), e.g.
    /// `header_user_pannel,header_right`.
    #[param(example = "header_user_pannel,header_right")]
    keys: String,
}

/// An ad item (commerce.md §2.15: what a click does is `target_type` with `target_value`).
#[derive(Serialize, ToSchema)]
pub struct AdItemDto {
    pub id: i64,
    pub title: String,
    /// The text a game tip shows for it (core-platform.md `tipExt`).
    pub target_title: String,
    /// A path of this site; empty: the title is shown.
    pub image: String,
    /// 0 a URL, 1 a news item, 2 a game, 3 an action, 4 a JSON value, 5 a goods code.
    pub target_type: i32,
    pub target_value: String,
    /// A guest is asked to log in first.
    pub need_login: bool,
    pub sort: i32,
    /// ms; shown from ...
    pub start_at: i64,
    /// ... until (0: no end).
    pub end_at: i64,
    /// A section ad's limit of purchases per user (0: none).
    pub pay_times: i64,
    /// This user's purchases through it that count (paid, or still payable).
    pub paid_times: i64,
    /// This user reached `pay_times`: a purchase through it answers 70109.
    pub out_of_pay_times: bool,
}

/// A slot and its running items, in order.
#[derive(Serialize, ToSchema)]
pub struct AdSlotDto {
    pub key: String,
    pub items: Vec<AdItemDto>,
}

fn item(ad: &Ad, paid_times: i64, out_of_pay_times: bool) -> AdItemDto {
    let s = &ad.spec;
    AdItemDto {
        id: ad.id,
        title: s.title.clone(),
        target_title: s.target_title.clone(),
        image: s.image.clone(),
        target_type: s.target_type,
        target_value: s.target_value.clone(),
        need_login: s.need_login,
        sort: s.sort_order,
        start_at: s.start_at,
        end_at: s.end_at,
        pay_times: s.pay_times,
        paid_times,
        out_of_pay_times,
    }
}

refusals!(SlotsRefusals: common::input(), common::maybe_logged_in(), common::internal());

/// The running items of each slot asked for, in the order asked (a slot without items has
/// none); for a logged-in caller each section ad says whether they are out of its pay times.
#[utoipa::path(params(SlotsQuery), responses((status = 200, body = Envelope<Vec<AdSlotDto>>), SlotsRefusals))]
#[get("/api/web/v1/ad/slots")]
pub async fn slots(state: web::Data<AppState>, caller: MaybeCaller, q: web::Query<SlotsQuery>) -> ApiResult<Vec<AdSlotDto>> {
    let keys: Vec<String> = q.keys.split(',').map(|k| k.trim().to_owned()).collect();
    let slots = state
        .platform
        .activity
        .ad_slots(caller.0.map(|s| s.uid), keys)
        .await?
        .ok_or_else(ApiError::bad_request)?;
    Ok(ok(slots
        .into_iter()
        .map(|(key, items)| AdSlotDto {
            key,
            items: items
                .iter()
                .map(
                    |AdView {
                         ad,
                         paid_times,
                         out_of_pay_times,
                     }| item(ad, *paid_times, *out_of_pay_times),
                )
                .collect(),
        })
        .collect()))
}

/// An item as the operator sets it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdItemIn {
    /// An ad of this slot to update (its users' pay times stay); absent: a new ad.
    #[serde(default)]
    id: Option<i64>,
    /// 1–60 characters.
    title: String,
    #[serde(default)]
    target_title: String,
    /// Empty, or a path of this site (`/ads/time.svg`).
    #[serde(default)]
    image: String,
    /// 0–5 (commerce.md §2.15).
    target_type: i32,
    target_value: String,
    #[serde(default)]
    need_login: bool,
    #[serde(default)]
    sort: i32,
    /// ms (0: from the start).
    #[serde(default)]
    start_at: i64,
    /// ms (0: no end).
    #[serde(default)]
    end_at: i64,
    /// A section ad's (target_type 5) purchases per user, 0–1000 (0: no limit).
    #[serde(default)]
    pay_times: i64,
}

/// A slot's new items: they replace its current ones (ads not named are retired).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdSlotBody {
    #[schema(example = "header_right")]
    key: String,
    /// At most 20; empty: the slot shows nothing.
    items: Vec<AdItemIn>,
}

refusals!(DevSlotRefusals: common::input(), common::internal());

/// Dev mode: replaces a slot's items (the operator's call without the token).
#[utoipa::path(request_body = AdSlotBody, responses((status = 200, body = Envelope<AdSlotDto>), DevSlotRefusals))]
#[post("/api/dev/ad/slot")]
pub async fn dev_set_slot(state: web::Data<AppState>, body: web::Json<AdSlotBody>) -> ApiResult<AdSlotDto> {
    set_slot(&state, body.into_inner()).await
}

refusals!(OpsSlotRefusals: common::input(), common::internal(), ApiError::operator());

/// Replaces a slot's items: the operator's route of every mode, with the operator token
/// (`x-operator-token`).
#[utoipa::path(request_body = AdSlotBody, responses((status = 200, body = Envelope<AdSlotDto>), OpsSlotRefusals))]
#[post("/api/ops/ad/slot")]
pub async fn ops_set_slot(_operator: Operator, state: web::Data<AppState>, body: web::Json<AdSlotBody>) -> ApiResult<AdSlotDto> {
    let key = body.key.clone();
    let set = set_slot(&state, body.into_inner()).await?;
    tracing::info!(slot = %key, items = set.data.items.len(), "operator set an ad slot");
    Ok(set)
}

async fn set_slot(state: &AppState, body: AdSlotBody) -> ApiResult<AdSlotDto> {
    let items = body
        .items
        .into_iter()
        .map(|i| AdSpec {
            id: i.id,
            title: i.title.trim().to_owned(),
            target_title: i.target_title.trim().to_owned(),
            image: i.image.trim().to_owned(),
            target_type: i.target_type,
            target_value: i.target_value.trim().to_owned(),
            need_login: i.need_login,
            sort_order: i.sort,
            start_at: i.start_at,
            end_at: i.end_at,
            pay_times: i.pay_times,
        })
        .collect();
    let key = body.key.trim().to_owned();
    match state.platform.activity.set_ad_slot(key.clone(), items).await {
        Ok(ads) => Ok(ok(AdSlotDto {
            key,
            items: ads.iter().map(|a| item(a, 0, false)).collect(),
        })),
        Err(SlotRefusal::Invalid(field)) => {
            tracing::debug!(field, "ad slot refused");
            Err(ApiError::bad_request())
        }
        Err(SlotRefusal::UnknownAd) => Err(ApiError::bad_request()),
        Err(SlotRefusal::Domain(e)) => Err(e.into()),
    }
}
