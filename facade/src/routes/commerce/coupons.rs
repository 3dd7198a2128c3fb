//! Coupons (commerce.md §7 "Coupons": the coupons of a purchase; the backpack's coupons, §2.13)
//! and the limited-time coupon activity (§2.16, §4.13, §7 "Merchant and activities"). Amounts in
//! fen; times in ms unless named otherwise.

use actix_web::{get, post, web};
use actors::commerce::coupon;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::{Caller, MaybeCaller};
use crate::dto::Id;
use crate::envelope::{ok, refusals, ts, ApiError, ApiResult, Envelope};
use crate::state::AppState;

/// A coupon (commerce.md §3 "Coupon").
#[derive(Serialize, ToSchema, Clone)]
pub struct CouponDto {
    pub id: i64,
    /// Its kind's code.
    pub sid: String,
    /// Its title.
    pub goods_title: String,
    /// The one goods it applies to ("" any goods of `goods_types`).
    pub goods_code: String,
    /// The goods types it applies to (empty: any).
    pub goods_types: Vec<i32>,
    /// fen
    pub face_value: i64,
    /// For a purchase: 1 selectable; 0 or less not (-1 threshold not reached, -2 goods not
    /// applicable, 0 unavailable). In the backpack: 1 when unused and unexpired, else 0.
    pub usable: i64,
    /// fen ('满X元可用'; 0 '无门槛').
    pub min_order_money: i64,
    /// Supermarket exclusive.
    pub supermarket: bool,
    /// 0 unused, 1 used, 2 expired, 3 invalidated.
    pub status: i32,
    /// ms: 23:59:59.999 (UTC+8) of its last day.
    pub expires_at: i64,
    /// Unused and expiring within 3 days.
    pub near_expiration: bool,
    /// ms
    pub used_at: Option<i64>,
    /// welcome, activity:{id} or grant.
    pub source: String,
}

pub fn coupon_dto(c: &storage::Coupon, usable: i64, now_ms: i64) -> CouponDto {
    CouponDto {
        id: c.id,
        sid: c.spec.sid.clone(),
        goods_title: c.spec.title.clone(),
        goods_code: c.spec.goods_code.clone(),
        goods_types: c.spec.goods_types.clone(),
        face_value: c.spec.face_value,
        usable,
        min_order_money: c.spec.min_order_money,
        supermarket: c.spec.supermarket,
        status: coupon::status_at(c, now_ms),
        expires_at: c.expires_at,
        near_expiration: coupon::near_expiration(c, now_ms),
        used_at: c.used_at,
        source: c.source.clone(),
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CouponListQuery {
    #[param(example = "time_300")]
    goods_code: String,
    /// 1–100.
    #[param(example = 1, minimum = 1, maximum = 100)]
    goods_num: i64,
    /// The coupon selected (listed like the others).
    #[serde(default)]
    #[param(value_type = Option<i64>)]
    #[allow(dead_code)]
    coupon_id: Option<Id>,
}

#[derive(Serialize, ToSchema)]
pub struct CouponList {
    /// The caller's unused coupons, usable ones first (largest face value first).
    pub data: Vec<CouponDto>,
    /// How many are usable (1).
    pub usable_num: usize,
    /// ms: the server's time (systemTime).
    pub ts: i64,
}

refusals!(CouponListRefusals: common::input(), common::maybe_logged_in(), common::internal(), DomainError::UnknownGoods,
    DomainError::BadQuantity);

/// The caller's coupons for a purchase, each with whether it can be used on it (§4.6, §5); a
/// guest has none.
#[utoipa::path(params(CouponListQuery), responses((status = 200, body = Envelope<CouponList>), CouponListRefusals))]
#[get("/api/v3/payment/coupon/list")]
pub async fn coupon_list(state: web::Data<AppState>, caller: MaybeCaller, q: web::Query<CouponListQuery>) -> ApiResult<CouponList> {
    let item = state.platform.commerce.goods_item(Some(q.goods_code.clone()), None).await?;
    let quote = state
        .platform
        .commerce
        .coupon_quote(caller.0.map(|l| l.uid), &item.goods, q.goods_num, None)
        .await?;
    let now = state.platform.clock().now_ms();
    let data: Vec<CouponDto> = quote.offered.iter().map(|o| coupon_dto(&o.coupon, o.usable, now)).collect();
    Ok(ok(CouponList {
        usable_num: data.iter().filter(|c| c.usable == 1).count(),
        data,
        ts: ts(),
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActivityQuery {
    #[param(value_type = i64, example = 1)]
    activity_id: Id,
}

/// A goods of the activity (its first 2 SKUs), with the coupon summary at the same index.
#[derive(Serialize, ToSchema)]
pub struct ActivitySku {
    pub code: String,
    pub title: String,
    /// fen
    pub retail_price: i64,
    /// The best coupon price of one for the caller (the coupon check result), fen.
    pub extra: ActivityCheck,
}

/// The limited-time coupon activity (commerce.md §3 "Activity config").
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActivityItem {
    pub activity_id: i64,
    pub title: String,
    /// 'YYYY-MM-DD HH:mm:ss', UTC+8.
    pub start_time: String,
    pub end_time: String,
    /// ms: the server's time.
    pub sys_time: i64,
    /// 0 not started, 1 running, 2 over.
    pub status: i32,
    pub sku_section_key: String,
    /// Its coupons (the page shows the first 2).
    pub coupons: Vec<ActivityCoupon>,
    /// The first 2 goods of its section.
    pub goods: Vec<ActivitySku>,
    /// The caller received its coupons.
    pub received: bool,
}

#[derive(Serialize, ToSchema)]
pub struct ActivityCoupon {
    pub sid: String,
    pub goods_title: String,
    /// fen
    pub face_value: i64,
    /// fen
    pub min_order_money: i64,
    /// Days usable from receipt.
    pub valid_days: i64,
}

/// One goods' coupon check within an activity.
#[derive(Serialize, ToSchema)]
pub struct ActivityCheck {
    pub goods_code: String,
    /// fen before coupons.
    pub price: i64,
    /// fen after the caller's best usable coupon (the price when none).
    pub coupon_price: i64,
    /// The coupon that gives it.
    pub coupon_id: Option<i64>,
}

refusals!(ActivityRefusals: common::input(), common::maybe_logged_in(), common::internal(), DomainError::UnknownActivity);

async fn checks(state: &AppState, uid: Option<i64>, codes: &[String]) -> Result<Vec<ActivityCheck>, ApiError> {
    let mut out = Vec::with_capacity(codes.len());
    for code in codes {
        let item = state.platform.commerce.goods_item(Some(code.clone()), None).await?;
        let quote = state.platform.commerce.coupon_quote(uid, &item.goods, 1, None).await?;
        let best = quote.offered.iter().find(|o| o.usable == 1);
        out.push(ActivityCheck {
            goods_code: code.clone(),
            price: quote.before,
            coupon_price: best.map_or(quote.before, |o| coupon::coupon_price(quote.before, o.coupon.spec.face_value)),
            coupon_id: best.map(|o| o.coupon.id),
        });
    }
    Ok(out)
}

/// A limited-time coupon activity: its times and status (UTC+8), its coupons and its first 2
/// goods with the caller's best coupon price.
#[utoipa::path(params(ActivityQuery), responses((status = 200, body = Envelope<ActivityItem>), ActivityRefusals))]
#[get("/api/v3/shop/activity/item")]
pub async fn activity_item(state: web::Data<AppState>, caller: MaybeCaller, q: web::Query<ActivityQuery>) -> ApiResult<ActivityItem> {
    let uid = caller.0.map(|l| l.uid);
    let view = state.platform.commerce.coupon_activity(uid, q.activity_id.0).await?;
    let codes: Vec<String> = view.skus.iter().map(|s| s.goods.code.clone()).collect();
    let extras = checks(&state, uid, &codes).await?;
    let goods = view
        .skus
        .iter()
        .zip(extras)
        .map(|(s, extra)| ActivitySku {
            code: s.goods.code.clone(),
            title: s.goods.title.clone(),
            retail_price: s.goods.retail_price,
            extra,
        })
        .collect();
    Ok(ok(ActivityItem {
        activity_id: view.activity.id,
        title: view.activity.title.clone(),
        start_time: view.activity.start_time.clone(),
        end_time: view.activity.end_time.clone(),
        sys_time: state.platform.clock().now_ms(),
        status: view.status,
        sku_section_key: view.activity.sku_section_key.clone(),
        coupons: view
            .coupons
            .iter()
            .map(|c| ActivityCoupon {
                sid: c.sid.clone(),
                goods_title: c.title.clone(),
                face_value: c.face_value,
                min_order_money: c.min_order_money,
                valid_days: c.valid_days,
            })
            .collect(),
        goods,
        received: view.received,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct ReceiveBody {
    #[schema(value_type = i64, example = 1)]
    activity_id: Id,
}

#[derive(Serialize, ToSchema)]
pub struct CouponsReceived {
    /// The coupons received.
    pub data: Vec<CouponDto>,
    pub ts: i64,
}

refusals!(ReceiveRefusals: common::input(), common::logged_in(), common::internal(), DomainError::UnknownActivity,
    DomainError::ActivityNotStarted, DomainError::ActivityEnded, DomainError::ActivityReceived);

/// Receives the activity's coupons: once per user, while it runs.
#[utoipa::path(request_body = ReceiveBody, responses((status = 200, body = Envelope<CouponsReceived>), ReceiveRefusals))]
#[post("/api/v3/shop/activity/goods/get")]
pub async fn activity_receive(state: web::Data<AppState>, caller: Caller, body: web::Json<ReceiveBody>) -> ApiResult<CouponsReceived> {
    let got = state.platform.commerce.receive_activity(caller.0.uid, body.activity_id.0).await?;
    let now = state.platform.clock().now_ms();
    Ok(ok(CouponsReceived {
        data: got.iter().map(|c| coupon_dto(c, 1, now)).collect(),
        ts: ts(),
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActivityCheckQuery {
    #[param(value_type = i64, example = 1)]
    activity_id: Id,
    /// Comma-separated goods codes.
    #[param(example = "time_300")]
    goods_codes: String,
}

fn codes(list: &str) -> Result<Vec<String>, ApiError> {
    let all: Vec<String> = list
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
        .collect();
    if all.is_empty() || all.len() > 20 {
        return Err(ApiError::bad_request());
    }
    Ok(all)
}

refusals!(ActivityCheckRefusals: common::input(), common::maybe_logged_in(), common::internal(), DomainError::UnknownActivity,
    DomainError::UnknownGoods);

/// The caller's best coupon price of one of each goods (the activity SKUs' `extra`, by index).
#[utoipa::path(params(ActivityCheckQuery), responses((status = 200, body = Envelope<Vec<ActivityCheck>>), ActivityCheckRefusals))]
#[get("/api/v3/shop/activity/goods/coupon/check")]
pub async fn activity_coupon_check(
    state: web::Data<AppState>,
    caller: MaybeCaller,
    q: web::Query<ActivityCheckQuery>,
) -> ApiResult<Vec<ActivityCheck>> {
    state.platform.commerce.coupon_activity(None, q.activity_id.0).await?;
    let codes = codes(&q.goods_codes)?;
    Ok(ok(checks(&state, caller.0.map(|l| l.uid), &codes).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GoodsTotalQuery {
    /// Comma-separated coupon kinds (`sid`).
    goods_codes: String,
}

/// A coupon statistic: how many unused, unexpired coupons of a kind the caller holds.
#[derive(Serialize, ToSchema)]
pub struct CouponStatistic {
    pub goods_code: String,
    pub remain: i64,
}

refusals!(GoodsTotalRefusals: common::input(), common::logged_in(), common::internal());

/// The caller's coupon statistics of the given kinds (the activity allows receiving while fewer
/// than 2 have `remain` > 0).
#[utoipa::path(params(GoodsTotalQuery), responses((status = 200, body = Envelope<Vec<CouponStatistic>>), GoodsTotalRefusals))]
#[get("/api/v3/user/card/goods/total")]
pub async fn card_goods_total(
    state: web::Data<AppState>,
    caller: Caller,
    q: web::Query<GoodsTotalQuery>,
) -> ApiResult<Vec<CouponStatistic>> {
    let codes = codes(&q.goods_codes)?;
    let remains = state.platform.commerce.coupon_remains(caller.0.uid, &codes).await?;
    Ok(ok(remains
        .into_iter()
        .map(|(goods_code, remain)| CouponStatistic { goods_code, remain })
        .collect()))
}

#[derive(Deserialize, ToSchema)]
pub struct CouponGrantBody {
    #[schema(example = "13900000042")]
    cellphone: String,
    /// The coupon kind (`sid`).
    #[schema(example = "welcome_time_3")]
    sid: String,
    /// 1–100.
    #[schema(example = 1, minimum = 1, maximum = 100)]
    count: i64,
}

refusals!(CouponGrantRefusals: common::input(), common::internal(), DomainError::NotLoggedIn, DomainError::UnknownGoods,
    DomainError::PhoneEmpty, DomainError::PhoneMalformed);

/// Dev mode only: an operator gives a player coupons of a kind.
#[utoipa::path(request_body = CouponGrantBody, responses((status = 200, body = Envelope<Vec<CouponDto>>), CouponGrantRefusals))]
#[post("/api/dev/coupon/grant")]
pub async fn dev_coupon_grant(state: web::Data<AppState>, body: web::Json<CouponGrantBody>) -> ApiResult<Vec<CouponDto>> {
    if !(1..=100).contains(&body.count) {
        return Err(ApiError::bad_request());
    }
    let user = state.platform.passport().user_by_phone(body.cellphone.trim()).await?;
    let got = state.platform.commerce.grant_coupons(user.uid, body.sid.trim(), body.count).await?;
    let now = state.platform.clock().now_ms();
    Ok(ok(got.iter().map(|c| coupon_dto(c, 1, now)).collect()))
}
