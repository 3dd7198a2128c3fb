//! The merchant area (commerce.md §2.14, §7 "Merchant"): app info, the goods with their tiers,
//! a coupon group's submit, query and records with their redeem keys, the redeem of a key, and
//! the bank pay config (§3 "Bank pay config"). Prices are fen.

use actix_web::{get, post, web, HttpRequest};
use actors::commerce::merchants::GroupPurchase;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::shop::{order_dto, OrderDto, PayMethodIn, PaymentStatus, IDEMPOTENCY_KEY};
use crate::auth::Caller;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::state::AppState;

/// Routes these paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(app_info)
        .service(goods_list)
        .service(group_submit)
        .service(group_query)
        .service(group_records)
        .service(group_record)
        .service(redeem)
        .service(bank_pay_config);
}

/// Merchant app info: status 1 open, 0 closed (§6).
#[derive(Serialize, ToSchema)]
pub struct AppInfo {
    pub status: i32,
}

refusals!(AppInfoRefusals: common::logged_in(), common::internal());

/// Whether the merchant area is open to the caller.
#[utoipa::path(responses((status = 200, body = Envelope<AppInfo>), AppInfoRefusals))]
#[get("/api/mch/v1/app/info")]
pub async fn app_info(state: web::Data<AppState>, caller: Caller) -> ApiResult<AppInfo> {
    Ok(ok(AppInfo {
        status: i32::from(state.platform.commerce.merchant_open(caller.0.uid)),
    }))
}

/// A price tier: `min_num ≤ count ≤ max_num` costs `price` fen a unit.
#[derive(Serialize, ToSchema)]
pub struct TierDto {
    pub min_num: i64,
    pub max_num: i64,
    /// fen
    pub price: i64,
}

/// A merchant goods (§3 "Merchant goods").
#[derive(Serialize, ToSchema)]
pub struct MerchantGoodsDto {
    pub id: i64,
    pub name: String,
    /// blue or golden.
    pub skin: String,
    pub prices: Vec<TierDto>,
    /// The coupon a key gives: its face value, fen.
    pub face_value: i64,
    /// Days a redeemed coupon stays usable.
    pub valid_days: i64,
}

#[derive(Serialize, ToSchema)]
pub struct GoodsList {
    pub data: Vec<MerchantGoodsDto>,
    pub total: u64,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GoodsListQuery {
    #[serde(default)]
    page: Option<u32>,
    #[serde(default)]
    page_size: Option<u32>,
}

refusals!(GoodsListRefusals: common::input(), common::logged_in(), common::internal(), DomainError::MerchantClosed);

/// The merchant goods with their tiers (closed: 20190).
#[utoipa::path(params(GoodsListQuery), responses((status = 200, body = Envelope<GoodsList>), GoodsListRefusals))]
#[get("/api/mch/v1/payment/goods/list")]
pub async fn goods_list(state: web::Data<AppState>, caller: Caller, q: web::Query<GoodsListQuery>) -> ApiResult<GoodsList> {
    let all = state.platform.commerce.merchant_goods(caller.0.uid).await?;
    let total = all.len() as u64;
    let size = q.page_size.unwrap_or(100).clamp(1, 100) as usize;
    let skip = (q.page.unwrap_or(1).max(1) as usize - 1).saturating_mul(size);
    Ok(ok(GoodsList {
        data: all
            .into_iter()
            .skip(skip)
            .take(size)
            .map(|g| MerchantGoodsDto {
                id: g.id,
                name: g.name,
                skin: g.skin,
                prices: g
                    .tiers
                    .iter()
                    .map(|t| TierDto {
                        min_num: t.min_num,
                        max_num: t.max_num,
                        price: t.price,
                    })
                    .collect(),
                face_value: g.coupon.face_value,
                valid_days: g.coupon.valid_days,
            })
            .collect(),
        total,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct GroupSubmitBody {
    /// wechat, alipay or bank (or their numbers 0, 1, 20).
    #[schema(example = "alipay")]
    pay_method: PayMethodIn,
    /// A JSON string of `[{id, num}]`.
    #[schema(example = "[{\"id\": 1, \"num\": 10}]")]
    goods: String,
    /// 1: the minor confirmed the charge reminder (20160) and submits again.
    #[serde(default)]
    confirm: Option<i64>,
}

#[derive(Deserialize)]
struct GoodsLine {
    id: i64,
    num: i64,
}

/// A line of a coupon group.
#[derive(Serialize, ToSchema)]
pub struct GroupItemDto {
    pub goods_id: i64,
    pub name: String,
    pub num: i64,
    /// fen, the tier's.
    pub unit_price: i64,
}

/// A submitted coupon group.
#[derive(Serialize, ToSchema)]
pub struct GroupOrderDto {
    pub order: OrderDto,
    pub items: Vec<GroupItemDto>,
    /// A bank transfer's page at the provider (dev: the sandbox's, where the transfer is
    /// marked received); null otherwise.
    pub pay_url: Option<String>,
}

fn item_dto(i: &storage::merchant::GroupItem) -> GroupItemDto {
    GroupItemDto {
        goods_id: i.goods_id,
        name: i.name.clone(),
        num: i.num,
        unit_price: i.unit_price,
    }
}

refusals!(GroupSubmitRefusals: common::input(), common::logged_in(), common::internal(), DomainError::MerchantClosed,
    DomainError::EmptyCart, DomainError::GroupQuantity, DomainError::UnknownGoods, DomainError::PayMethodUnavailable,
    DomainError::OrderClosed, DomainError::MinorChargeRefused(actors::identity::minors::CHARGE_UNDER_8),
    DomainError::MinorChargeConfirm);

/// Submits a coupon group: one order per `Idempotency-Key`. Paid by QR (`qrcode/generate`) or
/// bank transfer (the order waits `limitTime` for it).
#[utoipa::path(request_body = GroupSubmitBody, params(("Idempotency-Key" = Option<String>, Header, description = "the client's key of this submit: the same key makes no second order")),
    responses((status = 200, body = Envelope<GroupOrderDto>), GroupSubmitRefusals))]
#[post("/api/mch/v1/payment/submit")]
pub async fn group_submit(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    body: web::Json<GroupSubmitBody>,
) -> ApiResult<GroupOrderDto> {
    let uid = caller.0.uid;
    let pay_method = body.pay_method.method().ok_or(actors::DomainError::PayMethodUnavailable)?;
    let lines: Vec<GoodsLine> = serde_json::from_str(&body.goods).map_err(|_| ApiError::bad_request())?;
    let key = match req.headers().get(IDEMPOTENCY_KEY) {
        Some(v) => {
            let key = v.to_str().map_err(|_| ApiError::bad_request())?.trim();
            if key.is_empty() || key.len() > 64 || !key.bytes().all(|b| b.is_ascii_graphic()) {
                return Err(ApiError::bad_request());
            }
            format!("g:{key}")
        }
        None => format!(
            "gd:{}:{}:{}",
            state.platform.clock().now_ms() / 10_000,
            pay_method.code(),
            lines.iter().map(|l| format!("{}x{}", l.id, l.num)).collect::<Vec<_>>().join(",")
        ),
    };
    let site = {
        let info = req.connection_info();
        format!("{}://{}", info.scheme(), info.host())
    };
    let purchase = GroupPurchase {
        goods: lines.iter().map(|l| (l.id, l.num)).collect(),
        pay_method,
        idempotency_key: key,
        confirmed: body.confirm == Some(1),
    };
    let g = state.platform.commerce.submit_group(uid, purchase, &site).await?;
    Ok(ok(GroupOrderDto {
        order: order_dto(&g.order),
        items: g.items.iter().map(item_dto).collect(),
        pay_url: g.pay_url,
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GroupQuery {
    deposit_order_id: String,
}

refusals!(GroupQueryRefusals: common::input(), common::logged_in(), common::internal(), DomainError::UnknownOrder);

/// Whether the caller's coupon group is paid (`success`) or not yet (`pending`).
#[utoipa::path(params(GroupQuery), responses((status = 200, body = Envelope<PaymentStatus>), GroupQueryRefusals))]
#[get("/api/mch/v1/payment/query")]
pub async fn group_query(state: web::Data<AppState>, caller: Caller, q: web::Query<GroupQuery>) -> ApiResult<PaymentStatus> {
    let (order, paid) = state.platform.commerce.group_query(caller.0.uid, &q.deposit_order_id).await?;
    Ok(ok(PaymentStatus {
        status: if paid { "success" } else { "pending" },
        order: order_dto(&order),
    }))
}

/// A coupon group in the records (§3 "Order record").
#[derive(Serialize, ToSchema)]
pub struct GroupRecordDto {
    pub order_no: String,
    /// What was bought.
    pub comment: String,
    /// ms
    pub created_at: i64,
    /// fen
    pub total_paid: i64,
    pub pay_method: String,
    /// created, paid, fulfilled, expired, cancelled or refunded.
    pub state: &'static str,
    /// ms: a bank transfer must arrive before.
    pub expires_at: i64,
}

fn record_dto(o: &storage::Order) -> GroupRecordDto {
    GroupRecordDto {
        order_no: o.order.order_no.clone(),
        comment: o.order.title.clone(),
        created_at: o.order.created_at,
        total_paid: o.order.amount_fen,
        pay_method: o.order.pay_method.clone(),
        state: o.state.as_str(),
        expires_at: o.order.expires_at,
    }
}

#[derive(Serialize, ToSchema)]
pub struct GroupRecords {
    pub data: Vec<GroupRecordDto>,
    pub total: u64,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RecordsQuery {
    #[serde(default)]
    page: Option<u32>,
    #[serde(default)]
    page_size: Option<u32>,
}

refusals!(RecordsRefusals: common::input(), common::logged_in(), common::internal());

/// The caller's coupon groups, newest first.
#[utoipa::path(params(RecordsQuery), responses((status = 200, body = Envelope<GroupRecords>), RecordsRefusals))]
#[get("/api/mch/v1/payment/record")]
pub async fn group_records(state: web::Data<AppState>, caller: Caller, q: web::Query<RecordsQuery>) -> ApiResult<GroupRecords> {
    let (orders, total) = state
        .platform
        .commerce
        .group_records(caller.0.uid, q.page.unwrap_or(1), q.page_size.unwrap_or(20).clamp(1, 100))
        .await?;
    Ok(ok(GroupRecords {
        data: orders.iter().map(record_dto).collect(),
        total,
    }))
}

/// A redeem key of a paid coupon group.
#[derive(Serialize, ToSchema)]
pub struct RedeemKeyDto {
    pub key: String,
    pub goods_id: i64,
    pub goods_name: String,
    /// 1 redeemable, 2 redeemed.
    pub status: i32,
    /// ms
    pub redeemed_at: Option<i64>,
}

/// One coupon group: the record, its lines and its keys (empty until paid).
#[derive(Serialize, ToSchema)]
pub struct GroupRecordDetail {
    pub record: GroupRecordDto,
    pub items: Vec<GroupItemDto>,
    pub keys: Vec<RedeemKeyDto>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RecordQuery {
    order_no: String,
}

refusals!(RecordRefusals: common::input(), common::logged_in(), common::internal(), DomainError::UnknownOrder);

/// One of the caller's coupon groups with its redeem keys.
#[utoipa::path(params(RecordQuery), responses((status = 200, body = Envelope<GroupRecordDetail>), RecordRefusals))]
#[get("/api/mch/v1/payment/record/detail")]
pub async fn group_record(state: web::Data<AppState>, caller: Caller, q: web::Query<RecordQuery>) -> ApiResult<GroupRecordDetail> {
    let r = state.platform.commerce.group_record(caller.0.uid, &q.order_no).await?;
    Ok(ok(GroupRecordDetail {
        record: record_dto(&r.order),
        items: r.items.iter().map(item_dto).collect(),
        keys: r
            .keys
            .into_iter()
            .map(|k| RedeemKeyDto {
                key: k.key,
                goods_id: k.goods_id,
                goods_name: k.goods_name,
                status: k.status,
                redeemed_at: k.redeemed_at,
            })
            .collect(),
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct RedeemBody {
    /// As typed: blanks, dashes and case do not matter.
    key: String,
}

/// What a redeem gave.
#[derive(Serialize, ToSchema)]
pub struct Redeemed {
    pub key: String,
    pub goods_name: String,
    pub coupon_id: i64,
    pub coupon_title: String,
    /// fen
    pub face_value: i64,
    /// ms
    pub expires_at: i64,
}

refusals!(RedeemRefusals: common::input(), common::logged_in(), common::internal(), DomainError::UnknownRedeemKey,
    DomainError::RedeemKeyUsed);

/// Redeems a key once: the caller receives its coupon in the backpack.
#[utoipa::path(request_body = RedeemBody, responses((status = 200, body = Envelope<Redeemed>), RedeemRefusals))]
#[post("/api/mch/v1/redeem")]
pub async fn redeem(state: web::Data<AppState>, caller: Caller, body: web::Json<RedeemBody>) -> ApiResult<Redeemed> {
    let (k, c) = state.platform.commerce.redeem_key(caller.0.uid, &body.key).await?;
    Ok(ok(Redeemed {
        key: k.key,
        goods_name: k.goods_name,
        coupon_id: c.id,
        coupon_title: c.spec.title,
        face_value: c.spec.face_value,
        expires_at: c.expires_at,
    }))
}

/// One line of a bank pay config section: copyable when `copy`.
#[derive(Serialize, ToSchema)]
pub struct BankValue {
    pub name: String,
    pub value: String,
    pub copy: bool,
}

#[derive(Serialize, ToSchema)]
pub struct BankContent {
    pub title: String,
    pub list: Vec<BankValue>,
}

#[derive(Serialize, ToSchema)]
pub struct BankItem {
    pub text: String,
    pub desc: String,
    pub content: BankContent,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BankSection {
    pub title: String,
    pub list_class: String,
    pub list: Vec<BankItem>,
}

/// The bank pay config (§3): `limitTime` in seconds and the instruction sections.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BankPayConfig {
    pub limit_time: u64,
    pub sections: Vec<BankSection>,
}

/// A keyed config: `config` is the JSON string the client parses (§7); `content` is the same,
/// typed.
#[derive(Serialize, ToSchema)]
pub struct BankPayConfigDto {
    pub key: &'static str,
    pub config: String,
    pub content: BankPayConfig,
}

fn bank_config(limit_time: u64) -> BankPayConfig {
    let v = |name: &str, value: &str, copy: bool| BankValue {
        name: name.into(),
        value: value.into(),
        copy,
    };
    BankPayConfig {
        limit_time,
        sections: vec![
            BankSection {
                title: "收款账户".into(),
                list_class: "account".into(),
                list: vec![BankItem {
                    text: "请向以下账户转账".into(),
                    desc: "转账金额须与订单金额一致".into(),
                    content: BankContent {
                        title: "对公账户".into(),
                        list: vec![
                            v("户名", "云游互动科技有限公司", true),
                            v("账号", "6222 0200 1234 5678 901", true),
                            v("开户行", "中国工商银行上海分行营业部", true),
                        ],
                    },
                }],
            },
            BankSection {
                title: "转账说明".into(),
                list_class: "notice".into(),
                list: vec![BankItem {
                    text: "请在转账附言中填写订单号".into(),
                    desc: "到账后兑换码自动发放至团购记录".into(),
                    content: BankContent {
                        title: "注意事项".into(),
                        list: vec![v("客服邮箱", "kefu@yoo.example.com", true), v("到账时间", "1-3个工作日", false)],
                    },
                }],
            },
        ],
    }
}

refusals!(BankConfigRefusals: common::logged_in(), common::internal());

/// The bank pay config (`bank_pay_config`): the account to transfer to and the time allowed.
#[utoipa::path(responses((status = 200, body = Envelope<BankPayConfigDto>), BankConfigRefusals))]
#[get("/api/mch/v1/config/bank_pay_config")]
pub async fn bank_pay_config(state: web::Data<AppState>, _caller: Caller) -> ApiResult<BankPayConfigDto> {
    let content = bank_config(state.platform.commerce.bank_limit_secs());
    let config = serde_json::to_string(&content).map_err(|_| ApiError::from(actors::DomainError::Internal("bank config".into())))?;
    Ok(ok(BankPayConfigDto {
        key: "bank_pay_config",
        config,
        content,
    }))
}

/// The `coupon_group` config group (§7): the merchant area's rules (one per line) and the bank
/// transfer's time, seconds.
pub(crate) fn config_pairs(state: &AppState) -> Vec<(&'static str, String)> {
    vec![
        (
            "rules",
            "1. 卡券按购买数量所在的价格区间计价，数量越多单价越低。\n\
             2. 支付成功后，每张卡券生成一个兑换码，可在团购记录中查看与复制。\n\
             3. 每个兑换码仅可兑换一次，兑换后卡券发放至兑换账号的背包。\n\
             4. 对公转账请在订单有效期内完成，并在附言中填写订单号；逾期订单自动关闭。"
                .into(),
        ),
        ("bank_limit_time", state.platform.commerce.bank_limit_secs().to_string()),
    ]
}
