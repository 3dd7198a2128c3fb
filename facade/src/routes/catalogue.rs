//! The catalogue (social.md §2.8), game info and the config groups (core-platform.md §7.6).

use actix_web::web;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::MaybeCaller;
use crate::dto::{self, Id};
use crate::envelope::{ok, ApiError, ApiResult};
use crate::AppState;

#[derive(Deserialize)]
pub struct ListQuery {
    #[serde(default)]
    page: Option<String>,
    #[serde(default)]
    page_size: Option<String>,
    #[serde(default)]
    keyword: Option<String>,
}

fn number(v: &Option<String>, default: u32, max: u32) -> Result<u32, ApiError> {
    match v.as_deref().map(str::trim) {
        None | Some("") => Ok(default),
        Some(s) => match s.parse::<u32>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(ApiError::bad_request()),
        },
    }
}

pub async fn list(state: web::Data<AppState>, q: web::Query<ListQuery>) -> ApiResult {
    let page = number(&q.page, 1, 100_000)?;
    let page_size = number(&q.page_size, 24, 100)?;
    let keyword = q
        .keyword
        .as_deref()
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(|k| k.chars().take(50).collect());
    let (games, total) = state.platform.games(keyword, page, page_size).await?;
    Ok(ok(
        json!({"data": games.iter().map(dto::catalogue_game).collect::<Vec<_>>(), "total": total}),
    ))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InfoBody {
    game_id: Id,
}

pub async fn info(state: web::Data<AppState>, _caller: MaybeCaller, body: web::Json<InfoBody>) -> ApiResult {
    let game = state.platform.game(body.game_id.0).await?;
    Ok(ok(dto::game_info(&game)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigBody {
    group_code: String,
}

/// The values of one config group, as strings (core-platform.md §3.5).
pub async fn config_list(state: web::Data<AppState>, _caller: MaybeCaller, body: web::Json<ConfigBody>) -> ApiResult {
    let now = state.platform.clock().now_ms();
    let v: Value = match body.group_code.as_str() {
        "common_config" => json!({
            "sys_time": now.to_string(),
            "show_game_start_guide": "0",
            "game_start_guide_max_delay": "200",
            "game_node_delay_factor": "1",
        }),
        "wx_sort_entry" => json!({"web": "0", "delay_show_code_time": "30", "delay_show_reserve_time": "60"}),
        "app_settings" => json!({"org_channel": "{}"}),
        "youth_mode" => json!({"enabled": "0"}),
        "coupon_group" => json!({}),
        _ => return Err(ApiError::bad_request()),
    };
    Ok(ok(v))
}
