//! The catalogue (social.md §2.8), a game's detail and its share link.

use actix_web::{get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::dto::{self, GameInfo, GamePage};
use crate::auth::MaybeCaller;
use crate::dto::Id;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::state::AppState;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// 1.. (default 1).
    #[serde(default)]
    page: Option<String>,
    /// 1..100 (default 24).
    #[serde(default)]
    page_size: Option<String>,
    #[serde(default)]
    keyword: Option<String>,
    /// "true": the caller's recently played games first, most recent first (a guest's list is
    /// the usual order).
    #[serde(default)]
    played_first: Option<String>,
    /// The image the client shows (logo, image_vertical); every image is in the answer.
    #[serde(default)]
    #[allow(dead_code)]
    field: Option<String>,
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

refusals!(ListRefusals: common::input(), common::maybe_logged_in(), common::internal());

/// A page of the catalogue, optionally filtered by keyword, with the caller's `collected` flag.
#[utoipa::path(params(ListQuery), responses((status = 200, body = Envelope<GamePage>), ListRefusals))]
#[get("/api/web/v1/game/list")]
pub async fn list(state: web::Data<AppState>, caller: MaybeCaller, q: web::Query<ListQuery>) -> ApiResult<GamePage> {
    let page = number(&q.page, 1, 100_000)?;
    let page_size = number(&q.page_size, 24, 100)?;
    let keyword = q
        .keyword
        .as_deref()
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(|k| k.chars().take(50).collect());
    let uid = caller.0.map(|s| s.uid);
    let played_first = match q.played_first.as_deref().map(str::trim) {
        None | Some("" | "false" | "0") => false,
        Some("true" | "1") => true,
        Some(_) => return Err(ApiError::bad_request()),
    };
    let (games, total) = match uid {
        Some(uid) if played_first => state.platform.catalogue.games_played_first(uid, keyword, page, page_size).await?,
        _ => state.platform.play.games(keyword, page, page_size).await?,
    };
    Ok(ok(GamePage {
        data: super::collect::with_collected(&state, uid, &games).await?,
        total,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InfoBody {
    #[schema(example = 1)]
    game_id: Id,
    #[serde(default)]
    #[allow(dead_code)]
    banner_width: Option<serde_json::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    banner_height: Option<serde_json::Value>,
}

refusals!(InfoRefusals: common::input(), common::maybe_logged_in(), DomainError::UnknownGame, common::internal());

/// A game's detail.
#[utoipa::path(request_body = InfoBody, responses((status = 200, body = Envelope<GameInfo>), InfoRefusals))]
#[post("/api/japi/yoo/game/info")]
pub async fn info(state: web::Data<AppState>, caller: MaybeCaller, body: web::Json<InfoBody>) -> ApiResult<GameInfo> {
    let game = state.platform.play.game(body.game_id.0).await?;
    let mut info = dto::game_info(&game);
    let uid = caller.0.map(|s| s.uid);
    info.game.collected = !state.platform.catalogue.collected_among(uid, vec![game.id]).await?.is_empty();
    Ok(ok(info))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareBody {
    #[schema(example = 26)]
    game_id: Id,
}

/// A game's share link (core-platform.md §2.14: the unsupported game's QR code).
#[derive(Serialize, ToSchema)]
pub struct ShareLinks {
    /// The address a phone opens: the game's page on the canonical site origin.
    pub links: String,
}

refusals!(ShareRefusals: common::input(), common::maybe_logged_in(), DomainError::UnknownGame);

/// The share link of a game (the QR code of the unsupported-game dialog).
#[utoipa::path(request_body = ShareBody, responses((status = 200, body = Envelope<ShareLinks>), ShareRefusals))]
#[post("/api/japi/yoo/share/game/links")]
pub async fn share_links(state: web::Data<AppState>, _caller: MaybeCaller, body: web::Json<ShareBody>) -> ApiResult<ShareLinks> {
    let game = state.platform.play.game(body.game_id.0).await?;
    let origin = state.security.site_origins.first().map_or("", String::as_str);
    Ok(ok(ShareLinks {
        links: format!("{origin}/game/detail/{}", game.id),
    }))
}
