//! Dev-mode only: the sandbox SMS outbox. In production mode these paths are not routed.

use actix_web::web;
use serde::Deserialize;
use serde_json::json;

use crate::envelope::{ok, ApiResult};
use crate::AppState;

#[derive(Deserialize)]
pub struct Outbox {
    #[serde(default)]
    phone: String,
}

pub async fn sms_outbox(state: web::Data<AppState>, q: web::Query<Outbox>) -> ApiResult {
    let msgs = state.platform.passport().sms().outbox(q.phone.trim()).unwrap_or_default();
    Ok(ok(msgs
        .iter()
        .map(|m| json!({"phone": m.phone, "code": m.code, "sent_at": m.sent_at}))
        .collect::<Vec<_>>()))
}
