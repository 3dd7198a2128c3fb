//! The shop and the money path (commerce.md §7 "Goods, sections and products", "Orders and
//! payment", `user/balance`, `user/order`) and the payment providers' callback route. Prices
//! are integer fen everywhere; the client formats yuan.

use actix_web::{get, post, web, HttpRequest};
use actors::commerce::paytype::PayMethod;
use actors::commerce::pricing;
use actors::commerce::service::{GoodsItem, Purchase, Submitted};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::{Caller, MaybeCaller};
use crate::dto::Id;
use crate::envelope::{ok, refusals, ts, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

/// The header that carries the client's idempotency key of a submit.
pub const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

/// A pay method a goods may be paid with (§4.2: the server filters).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayTypeDto {
    /// wechat, alipay, yunyoubi or bank.
    pub pay_code: &'static str,
    /// 0 wechat, 1 alipay, 7 coins (exchange), 20 bank.
    pub pay_type: i32,
    pub pay_name: &'static str,
    pub desc: &'static str,
}

fn pay_type(m: PayMethod) -> PayTypeDto {
    PayTypeDto {
        pay_code: m.code(),
        pay_type: m.pay_type(),
        pay_name: m.name(),
        desc: match m {
            PayMethod::Wechat => "请使用微信扫码支付",
            PayMethod::Alipay => "请使用支付宝扫码支付",
            PayMethod::Yunyoubi => "使用云游币兑换，1云游币=0.01元",
            PayMethod::Bank => "对公转账",
        },
    }
}

/// `external`: auto-renew.
#[derive(Serialize, ToSchema)]
pub struct External {
    pub cycleable: bool,
    /// The first period's price, fen (0: none).
    pub first_price: i64,
}

/// A duration option of a goods (`speci_list`); bought by its own `id`.
#[derive(Serialize, ToSchema)]
pub struct Speci {
    pub id: i64,
    pub goods_code: String,
    pub title: String,
    /// Months.
    pub face_value: i64,
    pub face_value_txt: String,
    /// fen
    pub retail_price: i64,
    /// fen (0: none)
    pub member_price: i64,
    /// fen (0: none)
    pub crossed_price: i64,
    /// fen a month
    pub month_price: i64,
}

/// What one unit of a goods grants.
#[derive(Serialize, ToSchema)]
pub struct GrantDto {
    /// vip, vvip, daily, night, fast_enter (days); play_time (minutes); coins; yoodo; cards.
    pub kind: String,
    pub amount: i64,
}

/// A goods (commerce.md §3 "Pay product"). Prices in fen.
#[derive(Serialize, ToSchema)]
pub struct GoodsDto {
    pub id: i64,
    pub code: String,
    pub goods_code: String,
    /// The product type (commerce.md §9).
    #[serde(rename = "type")]
    pub goods_type: i32,
    pub title: String,
    pub name: String,
    pub image: String,
    /// A JSON string `{title, effect}`, or "".
    pub label: String,
    pub selected: bool,
    /// fen
    pub retail_price: i64,
    /// fen (0: none); charged only to holders of the member-price privilege, when below retail
    pub member_price: i64,
    /// fen: what one unit costs the caller now (`Platform::unit_prices`: the auto-renew first
    /// price, the member price, or retail); what the purchase dialog shows, × count.
    pub price: i64,
    /// fen (0: none)
    pub crossed_price: i64,
    /// fen a month (memberships), else 0
    pub month_price: i64,
    pub description: String,
    /// Newline-separated.
    pub introduction: String,
    pub give_goods_name: String,
    pub face_value: i64,
    pub face_value_txt: String,
    pub speci_list: Vec<Speci>,
    pub external: External,
    pub grant: GrantDto,
    /// The pay methods this goods may be paid with.
    pub pay_types: Vec<PayTypeDto>,
    /// An upgrade (commerce.md §2.5 "upgrade view"), read by a caller who may buy it: what it
    /// upgrades and how many days of it are left, and what it becomes (null otherwise). `price`
    /// is one day's; the purchase buys `up_days` of them.
    pub up: Option<UpgradeView>,
}

/// '{up_from}剩余{up_days}天', '可享{unit_price}元/天升级{up_to}'.
#[derive(Serialize, ToSchema)]
pub struct UpgradeView {
    /// The membership upgraded (vip).
    pub up_from: String,
    /// What it becomes (vvip).
    pub up_to: String,
    /// Whole days left of `up_from`, rounded up.
    pub up_days: i64,
    /// fen a day.
    pub unit_price: i64,
}

fn month_price(g: &storage::Goods) -> i64 {
    pricing::month_price(g.retail_price, g.face_value)
}

pub(crate) fn goods_dto(item: &GoodsItem) -> GoodsDto {
    let g = &item.goods;
    let (kind, amount) = g.grant.to_parts();
    let months = item.speci.first().map_or(g.face_value, |s| s.face_value);
    GoodsDto {
        id: g.id,
        code: g.code.clone(),
        goods_code: g.code.clone(),
        goods_type: g.goods_type,
        title: g.title.clone(),
        name: g.name.clone(),
        image: g.image.clone(),
        label: g.label.clone(),
        selected: false,
        retail_price: g.retail_price,
        member_price: g.member_price,
        price: g.retail_price,
        crossed_price: g.crossed_price,
        month_price: pricing::month_price(g.retail_price, months),
        description: g.description.clone(),
        introduction: g.introduction.clone(),
        give_goods_name: g.give_goods_name.clone(),
        face_value: g.face_value,
        face_value_txt: g.face_value_txt.clone(),
        speci_list: item
            .speci
            .iter()
            .map(|s| Speci {
                id: s.id,
                goods_code: s.code.clone(),
                title: s.title.clone(),
                face_value: s.face_value,
                face_value_txt: s.face_value_txt.clone(),
                retail_price: s.retail_price,
                member_price: s.member_price,
                crossed_price: s.crossed_price,
                month_price: month_price(s),
            })
            .collect(),
        external: External {
            cycleable: g.cycleable,
            first_price: g.first_price,
        },
        grant: GrantDto { kind, amount },
        pay_types: actors::commerce::service::Commerce::pay_methods(g)
            .into_iter()
            .filter(|m| *m != PayMethod::Bank)
            .map(pay_type)
            .collect(),
        up: None,
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SectionQuery {
    /// shop_card_time, shop_card_queue, shop_queue_accelerate, shop_card_coin, shop_card_yoodo,
    /// shop_time_useup_yoodo, shop_time_hangup_yoodo, shop_vvip, shop_vip, vip2vvip,
    /// shop_card_day, shop_card_night, queue_detainment_goods.
    section_key: String,
    /// The SKU-list reading (§7, e.g. the packages' `page_size=1`): at most this many goods
    /// (1..=100); every goods of the section without it.
    #[serde(default)]
    page_size: Option<u32>,
}

/// A section's goods (`goods` and, for the SKU-list reading, the same list as `data`).
#[derive(Serialize, ToSchema)]
pub struct SectionGoods {
    pub section_key: String,
    pub goods: Vec<GoodsDto>,
    pub data: Vec<GoodsDto>,
    pub instruction: String,
    /// shop_card_yoodo's recommendation line.
    pub recommend_desc: String,
}

refusals!(SectionRefusals: common::input(), common::maybe_logged_in(), common::internal());

/// The goods of a section, in order; an unknown key lists none.
#[utoipa::path(params(SectionQuery), responses((status = 200, body = Envelope<SectionGoods>), SectionRefusals))]
#[get("/api/web/v1/section/goods")]
pub async fn section_goods(state: web::Data<AppState>, caller: MaybeCaller, q: web::Query<SectionQuery>) -> ApiResult<SectionGoods> {
    let mut items = state.platform.commerce.section(&q.section_key).await?;
    match q.page_size {
        None => {}
        Some(n @ 1..=100) => items.truncate(n as usize),
        Some(_) => return Err(ApiError::bad_request()),
    }
    let prices = state
        .platform
        .commerce
        .unit_prices(
            caller.0.as_ref().map(|c| c.uid),
            &items.iter().map(|i| &i.goods).collect::<Vec<_>>(),
        )
        .await?;
    let priced = |(item, price): (&GoodsItem, &i64)| GoodsDto {
        price: *price,
        ..goods_dto(item)
    };
    let goods: Vec<GoodsDto> = items.iter().zip(&prices).map(priced).collect();
    let data = items.iter().zip(&prices).map(priced).collect();
    Ok(ok(SectionGoods {
        recommend_desc: if q.section_key == "shop_card_yoodo" {
            "悠豆可用于挂机模式与时长用尽后继续游戏".into()
        } else {
            String::new()
        },
        section_key: q.section_key.clone(),
        goods,
        data,
        instruction: String::new(),
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ItemQuery {
    #[serde(default)]
    #[param(example = "time_300")]
    goods_code: Option<String>,
    /// 0 with goods_code.
    #[serde(default)]
    #[param(value_type = Option<i64>)]
    good_id: Option<Id>,
}

refusals!(ItemRefusals: common::input(), common::maybe_logged_in(), common::internal(), DomainError::UnknownGoods,
    DomainError::NotUpgradable);

/// One goods by `goods_code` (or `good_id`), with its duration options.
#[utoipa::path(params(ItemQuery), responses((status = 200, body = Envelope<GoodsDto>), ItemRefusals))]
#[get("/api/v3/shop/goods/item")]
pub async fn goods_item(state: web::Data<AppState>, caller: MaybeCaller, q: web::Query<ItemQuery>) -> ApiResult<GoodsDto> {
    let item = state
        .platform
        .commerce
        .goods_item(q.goods_code.clone(), q.good_id.map(|i| i.0))
        .await?;
    let uid = caller.0.as_ref().map(|c| c.uid);
    let prices = state.platform.commerce.unit_prices(uid, &[&item.goods]).await?;
    let price = prices.first().copied().unwrap_or(item.goods.retail_price);
    let up = match &item.goods.grant {
        storage::GoodsGrant::Upgrade { from, to, .. } => Some(UpgradeView {
            up_from: from.clone(),
            up_to: to.clone(),
            up_days: state.platform.commerce.purchase_count(uid, &item.goods, 1).await?,
            unit_price: price,
        }),
        _ => None,
    };
    Ok(ok(GoodsDto {
        price,
        up,
        ..goods_dto(&item)
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CouponQuery {
    #[param(example = "time_300")]
    goods_code: String,
    /// 1–100.
    #[param(example = 1, minimum = 1, maximum = 100)]
    goods_num: i64,
    /// A coupon to apply (0 or absent: none).
    #[serde(default)]
    #[param(value_type = Option<i64>)]
    coupon_id: Option<Id>,
}

/// The coupon summary of a purchase (commerce.md §3), with the price the submit will charge
/// (§4.5). Amounts in fen.
#[derive(Serialize, ToSchema)]
pub struct CouponSummary {
    /// The coupon applied (none or one).
    pub use_coupons: Vec<CouponDto>,
    /// fen off by coupons.
    pub discount_money: i64,
    /// fen a month (duration options), else 0.
    pub month_price: i64,
    /// What the submit charges, fen.
    pub pay_money: i64,
    /// How many of the caller's coupons fit this purchase (usable 1).
    pub usable_num: i64,
    /// The unit price used (the member price for holders of the privilege), fen.
    pub unit_price: i64,
    /// Retail × count, fen.
    pub retail_total: i64,
    /// `retail_total - pay_money`, fen ('已为你节省').
    pub savings: i64,
}

pub use super::coupons::CouponDto;

refusals!(CouponCheckRefusals: common::input(), common::maybe_logged_in(), common::internal(), DomainError::UnknownGoods,
    DomainError::BadQuantity, DomainError::CouponUnusable, DomainError::CouponThreshold, DomainError::CouponNotApplicable,
    DomainError::NotUpgradable);

/// The price of a purchase as the submit will charge it (§4.5: the coupon price, the first
/// price of an auto-renew goods, the member price for members), with the coupon `coupon_id`
/// applied (refused as the submit would refuse it) and how many of the caller's coupons fit.
#[utoipa::path(params(CouponQuery), responses((status = 200, body = Envelope<CouponSummary>), CouponCheckRefusals))]
#[get("/api/v3/payment/coupon/check")]
pub async fn coupon_check(state: web::Data<AppState>, caller: MaybeCaller, q: web::Query<CouponQuery>) -> ApiResult<CouponSummary> {
    let item = state.platform.commerce.goods_item(Some(q.goods_code.clone()), None).await?;
    let uid = caller.0.map(|l| l.uid);
    let quote = state
        .platform
        .commerce
        .coupon_quote(uid, &item.goods, q.goods_num, q.coupon_id.map(|c| c.0))
        .await?;
    let now = state.platform.clock().now_ms();
    let price = quote.price;
    Ok(ok(CouponSummary {
        use_coupons: quote.applied.iter().map(|c| super::coupons::coupon_dto(c, 1, now)).collect(),
        discount_money: quote.before - price.pay,
        month_price: month_price(&item.goods),
        pay_money: price.pay,
        usable_num: quote.offered.iter().filter(|o| o.usable == 1).count() as i64,
        unit_price: price.unit,
        retail_total: price.retail_total,
        savings: price.savings,
    }))
}

/// A pay method as sent: its code (`wechat`) or its number (`0`).
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
pub enum PayMethodIn {
    Code(String),
    Type(i64),
}

impl PayMethodIn {
    pub(crate) fn method(&self) -> Option<PayMethod> {
        match self {
            PayMethodIn::Code(c) => PayMethod::from_code(c.trim()).or_else(|| c.trim().parse().ok().and_then(PayMethod::from_pay_type)),
            PayMethodIn::Type(t) => PayMethod::from_pay_type(*t),
        }
    }
}

#[derive(Deserialize, ToSchema)]
pub struct SubmitBody {
    /// The duration option's or goods' id; 0 when goods_code is set.
    #[schema(value_type = i64)]
    goods_id: Id,
    /// 1–100.
    #[schema(example = 1, minimum = 1, maximum = 100)]
    goods_num: i64,
    #[schema(example = "wechat")]
    pay_method: PayMethodIn,
    /// 1: the minor confirmed the charge reminder (20160) and submits again.
    #[serde(default)]
    #[allow(dead_code)]
    confirm: Option<i64>,
    #[serde(default)]
    #[schema(example = "time_300")]
    goods_code: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    coupon_id: Option<Id>,
    /// The section ad it is bought through (its per-user pay-times limit applies: 70109).
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    ad_id: Option<Id>,
}

/// An order (commerce.md §3 "Order or QR data"). Amounts in fen.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub struct OrderDto {
    pub order_no: String,
    /// The same number, under the name `payment/query` takes.
    #[serde(rename = "depositOrderId")]
    pub deposit_order_id: String,
    // Always null: the QR is generated by `qrcode/generate` (the two-step order of §4.3). (No
    // doc comment: utoipa would wrap the null schema with a description in an `allOf` with an
    // object, which a null does not match.)
    #[schema(inline)]
    pub body: Null,
    pub goods_id: i64,
    pub goods_code: String,
    pub goods_type: i32,
    pub title: String,
    pub count: i64,
    /// What is paid, fen (coins when paid with coins: 1 coin = 1 fen).
    pub payable: i64,
    /// fen saved against retail × count.
    pub savings: i64,
    pub pay_method: String,
    /// created, paid, fulfilled, expired, cancelled or refunded.
    pub state: &'static str,
    /// Paid with coins and fulfilled at once.
    pub exchanged: bool,
    /// ms
    pub created_at: i64,
    /// ms: unpaid after this, the order expires.
    pub expires_at: i64,
    /// ms
    pub paid_at: Option<i64>,
    /// The coupon the order holds (used once it is paid).
    pub coupon_id: Option<i64>,
}

pub(crate) fn order_dto(o: &storage::Order) -> OrderDto {
    let n = &o.order;
    OrderDto {
        order_no: n.order_no.clone(),
        deposit_order_id: n.order_no.clone(),
        body: Null,
        goods_id: n.goods_id,
        goods_code: n.goods_code.clone(),
        goods_type: n.goods_type,
        title: n.title.clone(),
        count: n.count,
        payable: n.amount_fen,
        savings: (n.retail_total - n.amount_fen).max(0),
        pay_method: n.pay_method.clone(),
        state: o.state.as_str(),
        exchanged: n.pay_method == PayMethod::Yunyoubi.code() && o.state == storage::OrderState::Fulfilled,
        created_at: n.created_at,
        expires_at: n.expires_at,
        paid_at: o.paid_at,
        coupon_id: n.coupon_id,
    }
}

/// The idempotency key of a submit: the `Idempotency-Key` header (1–64 visible ASCII), else
/// one derived from the caller's submit and the current 10-second window.
fn idempotency_key(req: &HttpRequest, uid: i64, body: &SubmitBody, now_ms: i64) -> Result<String, ApiError> {
    if let Some(v) = req.headers().get(IDEMPOTENCY_KEY) {
        let key = v.to_str().map_err(|_| ApiError::bad_request())?.trim();
        if key.is_empty() || key.len() > 64 || !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(ApiError::bad_request());
        }
        return Ok(format!("h:{key}"));
    }
    let method = body.pay_method.method().map_or("", PayMethod::code);
    Ok(format!(
        "d:{}:{}:{}:{}:{}:{}:{}",
        now_ms / 10_000,
        uid,
        body.goods_id.0,
        body.goods_code.as_deref().unwrap_or(""),
        body.goods_num,
        method,
        body.coupon_id.map_or(0, |c| c.0)
    ) + &body.ad_id.map_or(String::new(), |a| format!(":ad{}", a.0)))
}

refusals!(SubmitRefusals: common::input(), common::logged_in(), common::internal(), DomainError::UnknownGoods,
    DomainError::BadQuantity, DomainError::PayMethodUnavailable, DomainError::CouponUnusable, DomainError::InsufficientCoins,
    DomainError::OrderClosed, DomainError::CouponThreshold, DomainError::CouponNotApplicable,
    DomainError::MinorChargeRefused(actors::identity::minors::CHARGE_UNDER_8), DomainError::MinorChargeConfirm,
    DomainError::NotUpgradable, DomainError::AlreadyRenewing, DomainError::AdPayTimesUsed, DomainError::AdUnavailable);

/// Submits a purchase: one order per idempotency key. Paid with coins (`yunyoubi`) it is
/// fulfilled at once (`exchanged`); otherwise it waits for its payment (`qrcode/generate`).
#[utoipa::path(request_body = SubmitBody, params(("Idempotency-Key" = Option<String>, Header, description = "the client's key of this submit: the same key makes no second order")),
    responses((status = 200, body = Envelope<OrderDto>), SubmitRefusals))]
#[post("/api/payment/goods")]
pub async fn submit(state: web::Data<AppState>, caller: Caller, req: HttpRequest, body: web::Json<SubmitBody>) -> ApiResult<OrderDto> {
    let uid = caller.0.uid;
    let pay_method = body.pay_method.method().ok_or(actors::DomainError::PayMethodUnavailable)?;
    let key = idempotency_key(&req, uid, &body, state.platform.clock().now_ms())?;
    let purchase = Purchase {
        goods_id: body.goods_id.0,
        goods_code: body.goods_code.clone().filter(|c| !c.trim().is_empty()),
        count: body.goods_num,
        pay_method,
        coupon_id: body.coupon_id.map(|c| c.0),
        idempotency_key: key,
        ad_id: body.ad_id.map(|a| a.0),
    };
    let order = match state
        .platform
        .commerce
        .submit_confirmed(uid, purchase, body.confirm == Some(1))
        .await?
    {
        Submitted::Order(o) | Submitted::Exchanged(o) => o,
    };
    Ok(ok(order_dto(&order)))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct QrQuery {
    /// scan_payment (an order's QR) or idauth (QR certification).
    #[param(example = "idauth")]
    action: String,
    /// scan_payment: a JSON string `{"order_no": "..."}`.
    #[serde(default)]
    params: String,
}

#[derive(Deserialize)]
struct QrParams {
    order_no: String,
}

/// A QR to show: what it encodes (`qrcode`: the pay page's absolute address) and the
/// ticket its polls carry.
#[derive(Serialize, ToSchema)]
pub struct QrCodeDto {
    pub qrcode: String,
    pub ticket: String,
    pub order_no: String,
    /// Seconds the QR is good for.
    pub expires_in: u64,
}

refusals!(QrRefusals: common::input(), common::logged_in(), common::internal(), DomainError::UnknownOrder,
    DomainError::OrderClosed, DomainError::PayMethodUnavailable);

/// Generates the QR of an unpaid order (action `scan_payment`), or of QR certification (action
/// `idauth`: the phone page `/qrcode/certification?ticket=`, `order_no` empty).
#[utoipa::path(params(QrQuery), responses((status = 200, body = Envelope<QrCodeDto>), QrRefusals))]
#[get("/api/v3/qrcode/generate")]
pub async fn qrcode(state: web::Data<AppState>, caller: Caller, req: HttpRequest, q: web::Query<QrQuery>) -> ApiResult<QrCodeDto> {
    let site = {
        let info = req.connection_info();
        format!("{}://{}", info.scheme(), info.host())
    };
    if q.action == "idauth" {
        // QR certification (core-platform.md §2.15, in-car): the phone page of the ticket
        let ticket = state.platform.identity.qr_auth_new(caller.0.uid);
        return Ok(ok(QrCodeDto {
            qrcode: format!("{site}/qrcode/certification?ticket={ticket}"),
            ticket,
            order_no: String::new(),
            expires_in: u64::try_from(actors::identity::qr_auth::QR_AUTH_TTL_MS / 1000).unwrap_or(300),
        }));
    }
    if q.action != "scan_payment" {
        return Err(ApiError::bad_request());
    }
    let p: QrParams = serde_json::from_str(&q.params).map_err(|_| ApiError::bad_request())?;
    let qr = state.platform.commerce.qrcode(caller.0.uid, &p.order_no, &site).await?;
    Ok(ok(QrCodeDto {
        qrcode: qr.qrcode,
        ticket: qr.ticket,
        order_no: qr.order.order.order_no,
        expires_in: state.platform.commerce.payment_config().qr_ttl_secs,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct PollBody {
    order_no: String,
    ticket: String,
}

refusals!(PollRefusals: common::input(), common::logged_in(), common::internal(), DomainError::UnknownOrder,
    DomainError::QrTimeout { invalid: false }, DomainError::QrCancelled, DomainError::QrWaiting, DomainError::QrScanned);

/// The long poll of a QR (§4.3): the paid order, or 20143 scanned (once a QR), 20141
/// cancelled, 20140 over (`data.status` invalid: order again; timeout: a new QR), or 20142
/// after `poll_wait_secs` without news. Cancel it by closing the request.
#[utoipa::path(request_body = PollBody, responses((status = 200, body = Envelope<OrderDto>), PollRefusals))]
#[post("/api/v3/payment/order/polling")]
pub async fn polling(state: web::Data<AppState>, caller: Caller, body: web::Json<PollBody>) -> ApiResult<OrderDto> {
    let order = state
        .platform
        .commerce
        .poll_order(caller.0.uid, &body.order_no, &body.ticket)
        .await?;
    Ok(ok(order_dto(&order)))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PaymentQuery {
    deposit_order_id: String,
}

#[derive(Serialize, ToSchema)]
pub struct PaymentStatus {
    /// success or pending.
    pub status: &'static str,
    pub order: OrderDto,
}

refusals!(PaymentQueryRefusals: common::input(), common::logged_in(), common::internal(), DomainError::UnknownOrder);

/// Whether an order is paid (`success`) or not yet (`pending`); an unpaid order is checked
/// with the provider as well.
#[utoipa::path(params(PaymentQuery), responses((status = 200, body = Envelope<PaymentStatus>), PaymentQueryRefusals))]
#[get("/api/payment/query")]
pub async fn payment_query(state: web::Data<AppState>, caller: Caller, q: web::Query<PaymentQuery>) -> ApiResult<PaymentStatus> {
    let (order, paid) = state.platform.commerce.payment_query(caller.0.uid, &q.deposit_order_id).await?;
    Ok(ok(PaymentStatus {
        status: if paid { "success" } else { "pending" },
        order: order_dto(&order),
    }))
}

/// The caller's coins and yoodo.
#[derive(Serialize, ToSchema)]
pub struct Balance {
    /// Coins (云游币).
    pub balance: i64,
    /// Yoodo as a decimal string.
    pub yoodo: String,
    /// Yoodo as an integer.
    pub yoodo_amount: i64,
}

refusals!(BalanceRefusals: common::logged_in(), common::internal());

/// The caller's coins and yoodo.
#[utoipa::path(responses((status = 200, body = Envelope<Balance>), BalanceRefusals))]
#[get("/api/v3/user/balance")]
pub async fn balance(state: web::Data<AppState>, caller: Caller) -> ApiResult<Balance> {
    let w = state.platform.commerce.wallet(caller.0.uid).await?;
    Ok(ok(Balance {
        balance: w.coins,
        yoodo: format!("{}.00", w.yoodo),
        yoodo_amount: w.yoodo,
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OrdersQuery {
    /// A product type (§9); all when absent.
    #[serde(default)]
    goods_type: Option<i32>,
    #[serde(default)]
    page: Option<u32>,
    /// 1–100 (default 100).
    #[serde(default)]
    page_size: Option<u32>,
}

/// A bill (commerce.md §3 "Order record").
#[derive(Serialize, ToSchema)]
pub struct OrderRecord {
    pub order_no: String,
    /// The goods and count, e.g. "畅玩时长5小时 x2".
    pub comment: String,
    /// Seconds.
    pub created_at: i64,
    /// fen
    pub total_paid: i64,
    pub state: &'static str,
    pub pay_method: String,
    pub goods_type: i32,
}

#[derive(Serialize, ToSchema)]
pub struct OrderRecords {
    pub total: u64,
    pub data: Vec<OrderRecord>,
    pub ts: i64,
}

refusals!(OrdersRefusals: common::input(), common::logged_in(), common::internal());

/// The caller's orders (bills), newest first.
#[utoipa::path(params(OrdersQuery), responses((status = 200, body = Envelope<OrderRecords>), OrdersRefusals))]
#[get("/api/v3/user/order")]
pub async fn orders(state: web::Data<AppState>, caller: Caller, q: web::Query<OrdersQuery>) -> ApiResult<OrderRecords> {
    let page_size = q.page_size.unwrap_or(100);
    if !(1..=100).contains(&page_size) {
        return Err(ApiError::bad_request());
    }
    let (rows, total) = state
        .platform
        .commerce
        .orders(caller.0.uid, q.goods_type, q.page.unwrap_or(1), page_size)
        .await?;
    Ok(ok(OrderRecords {
        total,
        data: rows
            .iter()
            .map(|o| OrderRecord {
                order_no: o.order.order_no.clone(),
                comment: if o.order.count > 1 {
                    format!("{} x{}", o.order.title, o.order.count)
                } else {
                    o.order.title.clone()
                },
                created_at: o.order.created_at / 1000,
                total_paid: if matches!(o.state, storage::OrderState::Paid | storage::OrderState::Fulfilled) {
                    o.order.amount_fen
                } else {
                    0
                },
                state: o.state.as_str(),
                pay_method: o.order.pay_method.clone(),
                goods_type: o.order.goods_type,
            })
            .collect(),
        ts: ts(),
    }))
}

refusals!(NotifyRefusals: common::input(), common::internal(), DomainError::PaymentNoticeRefused(String::new()));

/// A payment provider's notice (`key=value&...`, signed in `Yoo-Pay-Signature`). Every notice
/// is logged; a bad signature changes nothing and is refused (20186).
#[utoipa::path(request_body(content = String, content_type = "text/plain"),
    params(("provider" = String, Path, description = "the provider's name"), ("Yoo-Pay-Signature" = String, Header, description = "HMAC-SHA256 of the body, hex")),
    responses((status = 200, body = Envelope<Null>), NotifyRefusals))]
#[post("/api/payment/notify/{provider}")]
pub async fn notify(state: web::Data<AppState>, req: HttpRequest, provider: web::Path<String>, body: web::Bytes) -> ApiResult<Null> {
    let body = std::str::from_utf8(&body).map_err(|_| ApiError::bad_request())?;
    let signature = req
        .headers()
        .get(actors::commerce::payment::SIGNATURE_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    state.platform.commerce.payment_notice(&provider, body, signature).await?;
    Ok(ok(Null))
}
