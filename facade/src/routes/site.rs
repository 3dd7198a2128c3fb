//! What every page reads of the site as a whole (core-platform.md §3.5, §7.6): the config groups,
//! whose values come from several features (the memberships' expiry notice and the coupon
//! groups of commerce, the activities' windows), and the customer service's address. Like the
//! socket, it sits above the feature folders and imports them; none imports it.

use std::collections::BTreeMap;

use actix_web::{post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::MaybeCaller;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::routes::{activity, commerce};
use crate::state::AppState;

/// Routes these paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(config_list).service(service);
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfigBody {
    /// common_config, wx_sort_entry, app_settings, youth_mode or coupon_group.
    #[schema(example = "common_config")]
    group_code: String,
}

refusals!(ConfigRefusals: common::input(), common::maybe_logged_in());

/// The values of one config group, as strings (core-platform.md §3.5).
#[utoipa::path(request_body = ConfigBody, responses((status = 200, body = Envelope<BTreeMap<String, String>>), ConfigRefusals))]
#[post("/api/japi/yoo/common/config/list")]
pub async fn config_list(
    state: web::Data<AppState>,
    _caller: MaybeCaller,
    body: web::Json<ConfigBody>,
) -> ApiResult<BTreeMap<String, String>> {
    let now = state.platform.clock().now_ms();
    let pairs: Vec<(&str, String)> = match body.group_code.as_str() {
        "common_config" => vec![
            ("sys_time", now.to_string()),
            (
                "show_game_start_guide",
                if state.platform.config().show_game_start_guide { "1" } else { "0" }.into(),
            ),
            (
                "game_start_guide_max_delay",
                state.platform.config().game_start_guide_max_delay.to_string(),
            ),
            ("game_node_delay_factor", "1".into()),
            ("member_expire", commerce::member::member_expire_json()),
        ],
        "wx_sort_entry" => vec![
            ("web", "0".into()),
            ("delay_show_code_time", "30".into()),
            ("delay_show_reserve_time", "60".into()),
        ],
        "app_settings" => vec![("org_channel", "{}".into())],
        "youth_mode" => vec![("enabled", "0".into())],
        "coupon_group" => commerce::merchant::config_pairs(&state),
        "activity_config" => activity::activities::config_pairs(&state, now).await?,
        _ => return Err(ApiError::bad_request()),
    };
    Ok(ok(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

/// The customer service's address (core-platform.md §7.6).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Service {
    pub kf_url: String,
}

/// The customer service's address (`[service_url]` of the configuration).
#[utoipa::path(responses((status = 200, body = Envelope<Service>)))]
#[post("/api/japi/social/kf")]
pub async fn service(state: web::Data<AppState>) -> ApiResult<Service> {
    Ok(ok(Service {
        kf_url: state.service_url.clone(),
    }))
}
