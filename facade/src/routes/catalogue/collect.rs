//! Recently played games and favourites (social.md §2.4, §4.11, §7 "Catalogue, recent and
//! favourites"): the caller's recently played games and their clearing, the favourites with
//! collect and cancel, and the catalogue's game sections ("Guess you like" reads
//! `favorite_game`). The lists are the caller's own; a guest is refused as on every logged-in
//! route.

use actix_web::{get, post, web};
use serde::{Deserialize, Serialize};
use storage::model::Game;
use utoipa::{IntoParams, ToSchema};

use super::dto::{self, CatalogueGame, GamePage};
use crate::auth::Caller;
use crate::dto::Empty;
use crate::dto::Id;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

/// A page size of 1..=`max` (default `default`); anything else is bad input (40000).
fn page_size(v: &Option<String>, default: u32, max: u32) -> Result<u32, ApiError> {
    match v.as_deref().map(str::trim) {
        None | Some("") => Ok(default),
        Some(s) => match s.parse::<u32>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(ApiError::bad_request()),
        },
    }
}

/// The games as the catalogue lists them, each with the caller's `collected` flag.
pub(crate) async fn with_collected(state: &AppState, uid: Option<i64>, games: &[Game]) -> Result<Vec<CatalogueGame>, ApiError> {
    let ids = games.iter().map(|g| g.id).collect();
    let marked = state.platform.catalogue.collected_among(uid, ids).await?;
    Ok(games
        .iter()
        .map(|g| CatalogueGame {
            collected: marked.contains(&g.id),
            ..dto::catalogue_game(g)
        })
        .collect())
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlayedQuery {
    /// 1..100 (default 10).
    #[serde(default)]
    page_size: Option<String>,
    /// The image the client shows (logo, image_vertical); every image is in the answer.
    #[serde(default)]
    #[allow(dead_code)]
    field: Option<String>,
}

refusals!(PlayedRefusals: common::input(), common::logged_in(), common::internal());

/// The caller's recently played games, most recent first (a game counts from the moment a
/// session of it starts to play); `total` is the length of `data`.
#[utoipa::path(params(PlayedQuery), responses((status = 200, body = Envelope<GamePage>), PlayedRefusals))]
#[get("/api/v3/user/games/played")]
pub async fn played(state: web::Data<AppState>, caller: Caller, q: web::Query<PlayedQuery>) -> ApiResult<GamePage> {
    let uid = caller.0.uid;
    let limit = page_size(&q.page_size, 10, 100)?;
    let games = state.platform.catalogue.played_games(uid, limit).await?;
    let data = with_collected(&state, Some(uid), &games).await?;
    Ok(ok(GamePage {
        total: data.len() as u64,
        data,
    }))
}

refusals!(ClearRefusals: common::logged_in(), common::internal());

/// Clears the caller's recently played games (the client asks for confirmation first).
#[utoipa::path(request_body(content = Option<Empty>), responses((status = 200, body = Envelope<Null>), ClearRefusals))]
#[post("/api/user/games/played/delete")]
pub async fn clear_played(state: web::Data<AppState>, caller: Caller) -> ApiResult<Null> {
    state.platform.catalogue.clear_played(caller.0.uid).await?;
    Ok(ok(Null))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CollectedQuery {
    /// 1.. (default 1).
    #[serde(default)]
    page: Option<String>,
    /// 1..100 (default 20).
    #[serde(default)]
    page_size: Option<String>,
    /// The image the client shows (logo, image_vertical); every image is in the answer.
    #[serde(default)]
    #[allow(dead_code)]
    field: Option<String>,
}

refusals!(CollectedRefusals: common::input(), common::logged_in(), common::internal());

/// The caller's favourites, the latest collected first, and how many there are.
#[utoipa::path(params(CollectedQuery), responses((status = 200, body = Envelope<GamePage>), CollectedRefusals))]
#[get("/api/v3/user/games/collected")]
pub async fn collected(state: web::Data<AppState>, caller: Caller, q: web::Query<CollectedQuery>) -> ApiResult<GamePage> {
    let page = page_size(&q.page, 1, 100_000)?;
    let limit = page_size(&q.page_size, 20, 100)?;
    let offset = u64::from(page - 1) * u64::from(limit);
    let (games, total) = state.platform.catalogue.collected_games(caller.0.uid, offset, limit).await?;
    Ok(ok(GamePage {
        data: games
            .iter()
            .map(|g| CatalogueGame {
                collected: true,
                ..dto::catalogue_game(g)
            })
            .collect(),
        total,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct CollectBody {
    /// The game.
    #[schema(example = 3)]
    id: Id,
}

refusals!(CollectRefusals: common::input(), common::logged_in(), DomainError::UnknownGame, common::internal());

/// Collects a game ('收藏成功'); collecting it again changes nothing. An unknown or deleted
/// game is refused with 130100.
#[utoipa::path(request_body = CollectBody, responses((status = 200, body = Envelope<Null>), CollectRefusals))]
#[post("/api/user/game/collect")]
pub async fn collect(state: web::Data<AppState>, caller: Caller, body: web::Json<CollectBody>) -> ApiResult<Null> {
    state.platform.catalogue.collect_game(caller.0.uid, body.id.0).await?;
    Ok(ok(Null))
}

refusals!(CancelRefusals: common::input(), common::logged_in(), common::internal());

/// Takes a game out of the caller's favourites ('取消收藏成功'); a game not collected changes
/// nothing.
#[utoipa::path(request_body = CollectBody, responses((status = 200, body = Envelope<Null>), CancelRefusals))]
#[post("/api/user/game/collect/cancel")]
pub async fn cancel(state: web::Data<AppState>, caller: Caller, body: web::Json<CollectBody>) -> ApiResult<Null> {
    state.platform.catalogue.uncollect_game(caller.0.uid, body.id.0).await?;
    Ok(ok(Null))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SectionQuery {
    /// The section, e.g. favorite_game; an unknown one has no games.
    section_key: String,
    /// The image the client shows (logo, image_vertical); every image is in the answer.
    #[serde(default)]
    #[allow(dead_code)]
    field: Option<String>,
    /// 1..100 (default 20).
    #[serde(default)]
    page_size: Option<String>,
}

/// The games of a section (social.md §3: the game section response is `data.games`).
#[derive(Serialize, ToSchema)]
pub struct SectionGames {
    pub section_key: String,
    pub games: Vec<CatalogueGame>,
}

refusals!(SectionRefusals: common::input(), common::maybe_logged_in(), common::internal());

/// The games of a section in its order, with the caller's `collected` flag.
#[utoipa::path(params(SectionQuery), responses((status = 200, body = Envelope<SectionGames>), SectionRefusals))]
#[get("/api/web/v1/section/game")]
pub async fn section_games(
    state: web::Data<AppState>,
    caller: crate::auth::MaybeCaller,
    q: web::Query<SectionQuery>,
) -> ApiResult<SectionGames> {
    let limit = page_size(&q.page_size, 20, 100)?;
    let key = q.section_key.trim().to_owned();
    let games = state.platform.catalogue.section_games(key.clone(), limit).await?;
    let uid = caller.0.map(|s| s.uid);
    Ok(ok(SectionGames {
        section_key: key,
        games: with_collected(&state, uid, &games).await?,
    }))
}

pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(played)
        .service(clear_played)
        .service(collected)
        .service(collect)
        .service(cancel)
        .service(section_games);
}
