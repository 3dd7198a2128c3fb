//! Real-name certification and youth mode (core-platform.md §2.15, §4.9, §5.3, §7.5): the start's
//! pre-check, the caller's certification (masked) and certifying, and youth mode's status.

use actix_web::{get, post, web};
use actors::identity::service::IdAuth;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::envelope::{ok, refusals, ApiResult, Envelope, Null};
use crate::state::AppState;

/// These paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(pre_check).service(idauth).service(certify).service(youth_mode);
    cfg.service(qr_auth_scan).service(qr_auth_cancel).service(qr_auth_poll);
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PreCheckQuery {
    /// 1 (the start's pre-check)
    #[serde(default)]
    #[allow(dead_code)]
    after_auth_check: Option<i32>,
}

#[derive(Serialize, ToSchema)]
pub struct PreCheck {
    /// 0 PASS, 1 CONFIRM (the certification prompt; dismissing it goes on), 2 DENY (certify first).
    pub auth_type: i32,
}

refusals!(PreCheckRefusals: common::input(), common::logged_in(), common::internal());

/// The start's certification pre-check (§4.9).
#[utoipa::path(params(PreCheckQuery), responses((status = 200, body = Envelope<PreCheck>), PreCheckRefusals))]
#[get("/api/v3/user/authorize/pre-check")]
pub async fn pre_check(state: web::Data<AppState>, caller: Caller, _q: web::Query<PreCheckQuery>) -> ApiResult<PreCheck> {
    Ok(ok(PreCheck {
        auth_type: state.platform.identity.pre_check(caller.0.uid).await?,
    }))
}

/// A certification as its owner sees it (§2.15 'certified'): the name and the ID number masked.
#[derive(Serialize, ToSchema)]
pub struct IdAuthDto {
    pub real_name: String,
    pub id_no: String,
    /// ms
    pub certified_at: i64,
    /// 'recertify' shows while this is 1 (each account has one).
    pub recerts_left: i32,
    /// Under 18 now (youth mode).
    pub minor: bool,
}

impl From<IdAuth> for IdAuthDto {
    fn from(a: IdAuth) -> Self {
        IdAuthDto {
            real_name: a.real_name,
            id_no: a.id_no,
            certified_at: a.certified_at,
            recerts_left: a.recerts_left,
            minor: a.minor,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct IdAuthState {
    /// null: not certified.
    pub idauth: Option<IdAuthDto>,
}

refusals!(IdAuthRefusals: common::logged_in(), common::internal());

/// The caller's certification.
#[utoipa::path(responses((status = 200, body = Envelope<IdAuthState>), IdAuthRefusals))]
#[get("/api/user/v1/info/idauth")]
pub async fn idauth(state: web::Data<AppState>, caller: Caller) -> ApiResult<IdAuthState> {
    Ok(ok(IdAuthState {
        idauth: state.platform.identity.idauth(caller.0.uid).await?.map(IdAuthDto::from),
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct CertifyBody {
    #[serde(default)]
    real_name: String,
    #[serde(default)]
    id_no: String,
}

#[derive(Serialize, ToSchema)]
pub struct Certified {
    pub success: bool,
    pub idauth: IdAuthDto,
}

refusals!(CertifyRefusals: common::input(), common::logged_in(), common::internal(),
    DomainError::CertForm(actors::error::CertFault::NameEmpty), DomainError::CertForm(actors::error::CertFault::NameShort),
    DomainError::CertForm(actors::error::CertFault::IdEmpty), DomainError::CertForm(actors::error::CertFault::IdMalformed),
    DomainError::CertMismatch, DomainError::CertNoRecert);

/// Certifies the caller (or recertifies, once): the form's rules, then the identity check.
#[utoipa::path(request_body = CertifyBody, responses((status = 200, body = Envelope<Certified>), CertifyRefusals))]
#[post("/api/user/v1/info/idauth")]
pub async fn certify(state: web::Data<AppState>, caller: Caller, body: web::Json<CertifyBody>) -> ApiResult<Certified> {
    let a = state.platform.identity.certify(caller.0.uid, &body.real_name, &body.id_no).await?;
    Ok(ok(Certified {
        success: true,
        idauth: a.into(),
    }))
}

#[derive(Serialize, ToSchema)]
pub struct YouthMode {
    /// 0 off, 2 a minor.
    pub status: i32,
}

/// Youth mode's status.
#[utoipa::path(responses((status = 200, body = Envelope<YouthMode>), IdAuthRefusals))]
#[get("/api/v3/user/youth-mode/info")]
pub async fn youth_mode(state: web::Data<AppState>, caller: Caller) -> ApiResult<YouthMode> {
    Ok(ok(YouthMode {
        status: state.platform.identity.youth_mode(caller.0.uid).await?,
    }))
}

/// A QR certification ticket (`qrcode/generate` action=idauth).
#[derive(Deserialize, ToSchema)]
pub struct QrAuthBody {
    ticket: String,
}

refusals!(QrAuthRefusals: common::input(), common::logged_in(), DomainError::QrNotYours,
    DomainError::QrTimeout { invalid: false }, DomainError::QrCancelled);

/// The phone of the ticket's account opened the QR (the screen's poll hears 20143); then it
/// certifies with `POST /api/user/v1/info/idauth`. Any other account: 20144.
#[utoipa::path(request_body = QrAuthBody, responses((status = 200, body = Envelope<Null>), QrAuthRefusals))]
#[post("/api/v3/qrcode/idauth/scan")]
pub async fn qr_auth_scan(state: web::Data<AppState>, caller: Caller, body: web::Json<QrAuthBody>) -> ApiResult<Null> {
    state.platform.identity.qr_auth_scan(caller.0.uid, body.ticket.trim())?;
    Ok(ok(Null))
}

/// The phone gives up (the screen's poll hears 20141).
#[utoipa::path(request_body = QrAuthBody, responses((status = 200, body = Envelope<Null>), QrAuthRefusals))]
#[post("/api/v3/qrcode/idauth/cancel")]
pub async fn qr_auth_cancel(state: web::Data<AppState>, caller: Caller, body: web::Json<QrAuthBody>) -> ApiResult<Null> {
    state.platform.identity.qr_auth_cancel(caller.0.uid, body.ticket.trim())?;
    Ok(ok(Null))
}

refusals!(QrAuthPollRefusals: common::input(), common::logged_in(), common::internal(), DomainError::QrNotYours,
    DomainError::QrTimeout { invalid: false }, DomainError::QrCancelled, DomainError::QrWaiting, DomainError::QrScanned);

/// The screen's long poll (core-platform.md §4.9 "Certification QR polling"): the certification
/// once done on the phone, else 20143 scanned (once), 20141 cancelled, 20140 over, or 20142 after
/// 25 s without news.
#[utoipa::path(request_body = QrAuthBody, responses((status = 200, body = Envelope<Certified>), QrAuthPollRefusals))]
#[post("/api/v3/qrcode/polling")]
pub async fn qr_auth_poll(state: web::Data<AppState>, caller: Caller, body: web::Json<QrAuthBody>) -> ApiResult<Certified> {
    let a = state.platform.identity.qr_auth_poll(caller.0.uid, body.ticket.trim()).await?;
    Ok(ok(Certified {
        success: true,
        idauth: a.into(),
    }))
}
