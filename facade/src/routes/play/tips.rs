//! The tips of the start sequence (core-platform.md §4.4 step 9, §4.7, §2.14, §7.4): a game's
//! tip before its start (`startTip`) and the play page's loading tips (`loadTip`). An operator
//! sets them (`POST /api/ops/game/tip`, `/api/ops/game/loadTips` with the operator token in every
//! mode; `/api/dev/game/tip`, `/api/dev/game/loadTips` in dev mode).

use actix_web::{post, web};
use actors::play::tips::{StartTip, TipRefusal};
use serde::{Deserialize, Serialize};
use storage::ads::Ad;
use utoipa::ToSchema;

use crate::auth::{Caller, MaybeCaller, Operator};
use crate::dto::Empty;
use crate::dto::Id;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StartTipBody {
    #[schema(example = 13)]
    game_id: Id,
    /// 1 (the client sends it; the answer does not depend on it).
    #[serde(default)]
    #[allow(dead_code)]
    after_auth_check: Option<serde_json::Value>,
}

/// The ad of a game tip, as the JSON string `tipExt` carries it (core-platform.md §2.14).
#[derive(Serialize, ToSchema)]
pub struct TipAdDto {
    pub id: i64,
    pub title: String,
    /// What the tip dialog shows for it.
    pub target_title: String,
    /// A path of this site; empty: none.
    pub image: String,
    /// 0 a URL, 1 a news item, 2 a game, 3 an action, 4 a JSON value, 5 a goods code.
    pub target_type: i32,
    pub target_value: String,
    pub need_login: bool,
}

fn tip_ad(a: &Ad) -> TipAdDto {
    TipAdDto {
        id: a.id,
        title: a.spec.title.clone(),
        target_title: a.spec.target_title.clone(),
        image: a.spec.image.clone(),
        target_type: a.spec.target_type,
        target_value: a.spec.target_value.clone(),
        need_login: a.spec.need_login,
    }
}

/// A game's tip (core-platform.md §3.3 "Game tip").
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameTipDto {
    /// The text of the '温馨提示' dialog.
    pub tip: String,
    /// A JSON string of a `TipAdDto` (the ad under the text), or null.
    pub tip_ext: Option<String>,
    /// Yoodo an hour once play time has run out, as a decimal string; null when the game is not
    /// played on play time.
    pub yoodo: Option<String>,
    /// The line that shows `yoodo`: `%s` is the amount.
    pub yoodo_text: Option<String>,
}

fn game_tip(t: &StartTip) -> GameTipDto {
    GameTipDto {
        tip: t.tip.clone(),
        tip_ext: t.ad.as_ref().map(|a| serde_json::to_string(&tip_ad(a)).unwrap_or_default()),
        yoodo: t.yoodo.map(|(n, _)| n.to_string()),
        yoodo_text: t.yoodo.map(|(_, text)| text.to_owned()),
    }
}

refusals!(StartTipRefusals: common::input(), common::logged_in(), DomainError::UnknownGame);

/// The tip of a game, shown before its start; null when the game has none (the start goes
/// straight on).
#[utoipa::path(request_body = StartTipBody, responses((status = 200, body = Envelope<Option<GameTipDto>>), StartTipRefusals))]
#[post("/api/japi/yoo/game/startTip")]
pub async fn start_tip(state: web::Data<AppState>, _caller: Caller, body: web::Json<StartTipBody>) -> ApiResult<Option<GameTipDto>> {
    let tip = state.platform.play.start_tip(body.game_id.0).await?;
    Ok(ok(tip.as_ref().map(game_tip)))
}

/// The play page's loading tips.
#[derive(Serialize, ToSchema)]
pub struct LoadTips {
    /// In the order shown; the page rotates through them while the stream connects.
    pub tips: Vec<String>,
}

refusals!(LoadTipRefusals: common::maybe_logged_in(), common::internal());

/// The loading tips the play page shows while the stream connects.
#[utoipa::path(request_body(content = Option<Empty>), responses((status = 200, body = Envelope<LoadTips>), LoadTipRefusals))]
#[post("/api/japi/yoo/game/loadTip")]
pub async fn load_tip(state: web::Data<AppState>, _caller: MaybeCaller) -> ApiResult<LoadTips> {
    Ok(ok(LoadTips {
        tips: state.platform.play.loading_tips().await?,
    }))
}

/// A game's tip as the operator sets it.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetTipBody {
    game_id: Id,
    /// At most 500 characters; empty removes the game's tip.
    tip: String,
    /// An ad shown under the text (`tipExt`).
    #[serde(default)]
    ad_id: Option<i64>,
}

fn refused(e: TipRefusal) -> ApiError {
    match e {
        TipRefusal::Invalid(field) => {
            tracing::debug!(field, "tip refused");
            ApiError::bad_request()
        }
        TipRefusal::Domain(e) => e.into(),
    }
}

async fn set_tip(state: &AppState, body: SetTipBody) -> ApiResult<Null> {
    let tip = body.tip.trim().to_owned();
    state
        .platform
        .play
        .set_game_tip(body.game_id.0, tip, body.ad_id)
        .await
        .map_err(refused)?;
    Ok(ok(Null))
}

refusals!(DevTipRefusals: common::input(), common::internal(), DomainError::UnknownGame);

/// Dev mode: sets a game's tip (the operator's call without the token).
#[utoipa::path(request_body = SetTipBody, responses((status = 200, body = Envelope<Null>), DevTipRefusals))]
#[post("/api/dev/game/tip")]
pub async fn dev_set_tip(state: web::Data<AppState>, body: web::Json<SetTipBody>) -> ApiResult<Null> {
    set_tip(&state, body.into_inner()).await
}

refusals!(OpsTipRefusals: common::input(), common::internal(), DomainError::UnknownGame, ApiError::operator());

/// Sets (an empty text: removes) a game's tip: the operator's route of every mode, with the
/// operator token (`x-operator-token`).
#[utoipa::path(request_body = SetTipBody, responses((status = 200, body = Envelope<Null>), OpsTipRefusals))]
#[post("/api/ops/game/tip")]
pub async fn ops_set_tip(_operator: Operator, state: web::Data<AppState>, body: web::Json<SetTipBody>) -> ApiResult<Null> {
    let game_id = body.game_id.0;
    let set = set_tip(&state, body.into_inner()).await?;
    tracing::info!(game_id, "operator set a game tip");
    Ok(set)
}

/// The loading tips as the operator sets them.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetLoadTipsBody {
    /// At most 20, each 1–100 characters, in the order shown.
    tips: Vec<String>,
}

async fn set_load_tips(state: &AppState, body: SetLoadTipsBody) -> ApiResult<Null> {
    let tips = body.tips.iter().map(|t| t.trim().to_owned()).collect();
    state.platform.play.set_loading_tips(tips).await.map_err(refused)?;
    Ok(ok(Null))
}

refusals!(DevLoadTipsRefusals: common::input(), common::internal());

/// Dev mode: replaces the loading tips (the operator's call without the token).
#[utoipa::path(request_body = SetLoadTipsBody, responses((status = 200, body = Envelope<Null>), DevLoadTipsRefusals))]
#[post("/api/dev/game/loadTips")]
pub async fn dev_set_load_tips(state: web::Data<AppState>, body: web::Json<SetLoadTipsBody>) -> ApiResult<Null> {
    set_load_tips(&state, body.into_inner()).await
}

refusals!(OpsLoadTipsRefusals: common::input(), common::internal(), ApiError::operator());

/// Replaces the loading tips: the operator's route of every mode, with the operator token.
#[utoipa::path(request_body = SetLoadTipsBody, responses((status = 200, body = Envelope<Null>), OpsLoadTipsRefusals))]
#[post("/api/ops/game/loadTips")]
pub async fn ops_set_load_tips(_operator: Operator, state: web::Data<AppState>, body: web::Json<SetLoadTipsBody>) -> ApiResult<Null> {
    let count = body.tips.len();
    let set = set_load_tips(&state, body.into_inner()).await?;
    tracing::info!(count, "operator set the loading tips");
    Ok(set)
}
