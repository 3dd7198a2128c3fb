//! Dev-mode only: the sandbox SMS outbox, the operator's grant and the operator's user flags.
//! In production mode these paths are not routed.

use actix_web::{get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::AppState;

/// Routes these paths (dev mode only).
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(sms_outbox).service(super::assets::dev_grant).service(user_flags);
    cfg.service(super::coupons::dev_coupon_grant);
    cfg.service(super::accounts::dev_account);
    cfg.service(super::ads::dev_set_slot);
    cfg.service(super::tips::dev_set_tip).service(super::tips::dev_set_load_tips);
    cfg.service(super::messages::dev_announce);
    super::dev_app::routes(cfg);
    super::dev_oauth::routes(cfg);
    super::dev_captcha::routes(cfg);
    super::dev_uc::routes(cfg);
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Outbox {
    #[serde(default)]
    phone: String,
}

/// An SMS the sandbox provider "sent".
#[derive(Serialize, ToSchema)]
pub struct OutboxSms {
    pub phone: String,
    pub code: String,
    /// ms
    pub sent_at: i64,
}

refusals!(OutboxRefusals: common::input());

/// The sandbox SMS outbox of one phone, newest first.
#[utoipa::path(params(Outbox), responses((status = 200, body = Envelope<Vec<OutboxSms>>), OutboxRefusals))]
#[get("/api/dev/sms/outbox")]
pub async fn sms_outbox(state: web::Data<AppState>, q: web::Query<Outbox>) -> ApiResult<Vec<OutboxSms>> {
    let msgs = state.platform.passport().sms().outbox(q.phone.trim()).unwrap_or_default();
    Ok(ok(msgs
        .iter()
        .map(|m| OutboxSms {
            phone: m.phone.to_string(),
            code: m.code.to_string(),
            sent_at: m.sent_at,
        })
        .collect()))
}

/// An operator's flags of a user (rooms, issue 9).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserFlagsBody {
    cellphone: String,
    /// 0 normal, 1 official, 3 super admin.
    #[serde(default)]
    status: i32,
    /// A minor: refused rooms, relay and control (20151–20153).
    #[serde(default)]
    minor: bool,
    /// Relay qualification withdrawn (USER_NOT_RELAY 20154).
    #[serde(default)]
    relay_banned: bool,
}

refusals!(UserFlagsRefusals: common::input(), common::internal(), DomainError::NotLoggedIn, DomainError::PhoneEmpty,
    DomainError::PhoneMalformed);

/// Sets a user's operator flags (status, minor, relay banned), found by phone.
#[utoipa::path(operation_id = "dev_user_flags", request_body = UserFlagsBody, responses((status = 200, body = Envelope<Null>), UserFlagsRefusals))]
#[post("/api/dev/userFlags")]
pub async fn user_flags(state: web::Data<AppState>, body: web::Json<UserFlagsBody>) -> ApiResult<Null> {
    if ![0, 1, 3].contains(&body.status) {
        return Err(ApiError::bad_request());
    }
    let user = state.platform.passport().user_by_phone(body.cellphone.trim()).await?;
    let flags = actors::rooms::view::UserFlags {
        status: body.status,
        minor: body.minor,
        relay_banned: body.relay_banned,
    };
    state.platform.rooms.set_user_flags(user.uid, flags).await?;
    Ok(ok(Null))
}
