//! Dev mode only: the sandbox payment provider's pay page (what the purchase dialog's QR
//! encodes), where a person (another tab, a phone, a test) pays or cancels an order, and the
//! sandbox's delivery settings. The page is plain HTML with forms (no script: the CSP allows
//! none inline); the notices the sandbox sends reach the platform over HTTP through
//! [`LoopbackNotices`].

use std::net::SocketAddr;
use std::sync::Arc;

use actix_web::{get, post, web, HttpResponse};
use actors::commerce::payment::{Delivery, DeliveryPlan, NoticeTransport, SandboxState, SIGNATURE_HEADER};
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::sandbox::{esc, page, post_loopback};
use crate::state::AppState;

/// Routes these paths (dev mode only).
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(pay_page)
        .service(pay_confirm)
        .service(pay_cancel)
        .service(delivery)
        .service(ledger_check)
        .service(payer_unsign);
}

fn refused(message: &str) -> HttpResponse {
    page("支付失败", &format!("<h1>支付失败</h1><p>{}</p>", esc(message)))
}

/// The sandbox's pay page: the order, '确认支付' and '取消'. Opening it counts as scanning the QR.
#[utoipa::path(params(("order_no" = String, Path, description = "the order")),
    responses((status = 200, description = "the pay page (HTML)", content_type = "text/html", body = String)))]
#[get("/api/dev/pay/{order_no}")]
pub async fn pay_page(state: web::Data<AppState>, order_no: web::Path<String>) -> HttpResponse {
    let p = match state.platform.commerce.sandbox_open(&order_no).await {
        Ok(p) => p,
        Err(e) => return refused(ApiError::from(e).message),
    };
    let o = &p.order.order;
    let count = if o.count > 1 { format!(" x{}", o.count) } else { String::new() };
    let action = format!("/api/dev/pay/{}", esc(&o.order_no));
    let status = match &p.sandbox.state {
        // A bank transfer's order: the tester marks the transfer received.
        SandboxState::Pending => format!(
            "<form method=\"post\" action=\"{action}/confirm\"><button type=\"submit\" style=\"width:100%;padding:12px;font-size:18px\">{}</button></form>\
             <form method=\"post\" action=\"{action}/cancel\" style=\"margin-top:12px\"><button type=\"submit\" style=\"width:100%;padding:12px\">取消</button></form>",
            if o.pay_method == "bank" { "确认已收到转账" } else { "确认支付" }
        ),
        SandboxState::Paid { .. } => "<p>该订单已支付</p>".into(),
        SandboxState::Cancelled => "<p>该订单已取消</p>".into(),
        SandboxState::Closed => "<p>该订单已关闭</p>".into(),
        SandboxState::Refunded { .. } => "<p>该订单已退款</p>".into(),
    };
    // pay and sign: paying signs the auto-renewal agreement
    let signs = match &p.sandbox.req.agreement_no {
        Some(no) => format!("<p>支付即同意签约自动续费（协议号：{}），可随时取消</p>", esc(no)),
        None => String::new(),
    };
    page(
        "云游收银台",
        &format!(
            "<h1>云游收银台</h1><p>订单号：{}</p><p>已选商品：{}{}</p><p>需支付 ¥{}</p>{signs}{}",
            esc(&o.order_no),
            esc(&o.title),
            count,
            actors::commerce::pricing::yuan(o.amount_fen),
            status
        ),
    )
}

/// The payer cancels an auto-renewal agreement on the provider's side (in the payment app):
/// its next deduction is refused.
#[utoipa::path(params(("agreement_no" = String, Path, description = "the agreement")),
    responses((status = 200, body = Envelope<bool>)))]
#[post("/api/dev/pay/agreement/{agreement_no}/unsign")]
pub async fn payer_unsign(state: web::Data<AppState>, agreement_no: web::Path<String>) -> ApiResult<bool> {
    let Some(sandbox) = state.platform.commerce.sandbox_pay() else {
        return Ok(ok(false));
    };
    let was = sandbox.signed(&agreement_no);
    sandbox.payer_unsign(&agreement_no);
    Ok(ok(was))
}

/// The payer confirms: the sandbox takes the money and sends its signed notice.
#[utoipa::path(params(("order_no" = String, Path, description = "the order")),
    responses((status = 200, description = "the result page (HTML)", content_type = "text/html", body = String)))]
#[post("/api/dev/pay/{order_no}/confirm")]
pub async fn pay_confirm(state: web::Data<AppState>, order_no: web::Path<String>) -> HttpResponse {
    match state.platform.commerce.sandbox_confirm(&order_no) {
        Ok(()) => page("支付成功", "<h1>支付成功</h1><p>请返回网页查看购买结果</p>"),
        Err(e) => refused(ApiError::from(e).message),
    }
}

/// The payer cancels.
#[utoipa::path(params(("order_no" = String, Path, description = "the order")),
    responses((status = 200, description = "the result page (HTML)", content_type = "text/html", body = String)))]
#[post("/api/dev/pay/{order_no}/cancel")]
pub async fn pay_cancel(state: web::Data<AppState>, order_no: web::Path<String>) -> HttpResponse {
    match state.platform.commerce.sandbox_cancel(&order_no).await {
        Ok(()) => page("已取消支付", "<h1>已取消支付</h1>"),
        Err(e) => refused(ApiError::from(e).message),
    }
}

/// How the sandbox delivers the notice of a payment from now on.
#[derive(Deserialize, Serialize, ToSchema)]
pub struct DeliveryBody {
    /// normal, late, twice, out_of_order or bad_signature.
    #[schema(value_type = String)]
    delivery: Delivery,
    /// The delay of the late, second, stale or genuine-after-forged notice, ms.
    #[serde(default)]
    delay_ms: u64,
}

refusals!(DeliveryRefusals: common::input());

/// Sets how the sandbox delivers payment notices (late, twice, out of order, forged first).
#[utoipa::path(operation_id = "dev_pay_delivery", request_body = DeliveryBody, responses((status = 200, body = Envelope<DeliveryBody>), DeliveryRefusals))]
#[post("/api/dev/pay/delivery")]
pub async fn delivery(state: web::Data<AppState>, body: web::Json<DeliveryBody>) -> ApiResult<DeliveryBody> {
    let sandbox = state.platform.commerce.sandbox_pay().ok_or_else(ApiError::bad_request)?;
    sandbox.set_plan(DeliveryPlan {
        delivery: body.delivery,
        delay_ms: body.delay_ms,
    });
    let plan = sandbox.plan();
    Ok(ok(DeliveryBody {
        delivery: plan.delivery,
        delay_ms: plan.delay_ms,
    }))
}

/// A balance that its ledger does not replay to.
#[derive(Serialize, ToSchema)]
pub struct LedgerMismatch {
    pub uid: i64,
    /// coins, yoodo, play_free, play_paid, cards, time_cards or an entitlement kind.
    pub asset: String,
    /// The sum of the asset's ledger entries.
    pub replayed: i64,
    /// The balance stored.
    pub stored: i64,
}

/// The whole ledger replayed against every balance.
#[derive(Serialize, ToSchema)]
pub struct LedgerCheck {
    /// Users with at least one ledger entry, all checked.
    pub users: u64,
    /// Empty when every balance equals its replayed ledger.
    pub mismatches: Vec<LedgerMismatch>,
}

refusals!(LedgerCheckRefusals: common::internal());

/// Replays every user's ledger against their balances in one transaction (the check a load
/// run ends with).
#[utoipa::path(responses((status = 200, body = Envelope<LedgerCheck>), LedgerCheckRefusals))]
#[get("/api/dev/ledger/check")]
pub async fn ledger_check(state: web::Data<AppState>) -> ApiResult<LedgerCheck> {
    let (users, bad) = state.platform.commerce.ledger_check().await?;
    Ok(ok(LedgerCheck {
        users,
        mismatches: bad
            .into_iter()
            .map(|m| LedgerMismatch {
                uid: m.uid,
                asset: m.asset,
                replayed: m.replayed,
                stored: m.stored,
            })
            .collect(),
    }))
}

/// The sandbox's notices, posted over HTTP to this server's own callback route.
pub struct LoopbackNotices {
    pub addr: SocketAddr,
}

impl LoopbackNotices {
    pub fn new(bound: SocketAddr) -> Arc<LoopbackNotices> {
        let mut addr = bound;
        if addr.ip().is_unspecified() {
            addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        }
        Arc::new(LoopbackNotices { addr })
    }
}

impl NoticeTransport for LoopbackNotices {
    fn post(&self, provider: &'static str, body: String, signature: String) -> BoxFuture<'static, Result<(), String>> {
        let addr = self.addr;
        Box::pin(async move {
            let path = format!("/api/payment/notify/{provider}");
            let answer = post_loopback(addr, &path, SIGNATURE_HEADER, &signature, &body).await?;
            if answer.starts_with("HTTP/1.1 200") {
                Ok(())
            } else {
                Err(format!("the platform answered {}", answer.lines().next().unwrap_or("").trim()))
            }
        })
    }
}
