//! Dev mode only: the sandbox SMS provider's outbox, where a tester reads the codes it "sent".
//! In production mode this path is not routed.

use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::envelope::{ok, refusals, ApiResult, Envelope};
use crate::state::AppState;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Outbox {
    #[serde(default)]
    #[param(example = "13900000042")]
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

/// How many more times an empty outbox is read (15 ms apart) before it is answered empty.
const EMPTY_READS: usize = 20;

/// The sandbox SMS outbox of one phone, newest first.
#[utoipa::path(params(Outbox), responses((status = 200, body = Envelope<Vec<OutboxSms>>), OutboxRefusals))]
#[get("/api/dev/sms/outbox")]
pub async fn sms_outbox(state: web::Data<AppState>, q: web::Query<Outbox>) -> ApiResult<Vec<OutboxSms>> {
    let sms = state.platform.passport().sms();
    let mut msgs = sms.outbox(q.phone.trim()).unwrap_or_default();
    // in a cluster a message another process sent arrives a moment later (as on a real phone):
    // an empty outbox is read again for a little while
    for _ in 0..EMPTY_READS {
        if !msgs.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(15)).await;
        msgs = sms.outbox(q.phone.trim()).unwrap_or_default();
    }
    Ok(ok(msgs
        .iter()
        .map(|m| OutboxSms {
            phone: m.phone.to_string(),
            code: m.code.to_string(),
            sent_at: m.sent_at,
        })
        .collect()))
}
