//! Exclusive play time (commerce.md §2.1, §2.13, §4.12): the games of a game category, for the
//! `/game/section?game_category_id&section_name=可用游戏` screen an exclusive card links to, and
//! the caller's exclusive cards with their category and minutes left (the backpack shows them).

use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::dto::{self, GamePage};
use crate::auth::Caller;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::state::AppState;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SectionQuery {
    /// The game category (> 0).
    game_category_id: i64,
}

refusals!(SectionRefusals: common::input(), common::internal());

/// The games of a game category: those an exclusive play-time card of it can be used for.
#[utoipa::path(params(SectionQuery), responses((status = 200, body = Envelope<GamePage>), SectionRefusals))]
#[get("/api/web/v1/game/section")]
pub async fn game_section(state: web::Data<AppState>, q: web::Query<SectionQuery>) -> ApiResult<GamePage> {
    if q.game_category_id <= 0 {
        return Err(ApiError::bad_request());
    }
    let games = state.platform.catalogue.games_of_category(q.game_category_id).await?;
    Ok(ok(GamePage {
        total: games.len() as u64,
        data: games.iter().map(dto::catalogue_game).collect(),
    }))
}

/// One of the caller's exclusive (type 4) time cards.
#[derive(Serialize, ToSchema)]
pub struct ExclusiveCardDto {
    /// The card's id, as in the backpack's list.
    pub id: i64,
    /// The game category whose games it pays for.
    pub game_category_id: i64,
    /// The play minutes it has left.
    pub minutes_left: i64,
}

refusals!(ExclusiveRefusals: common::logged_in(), common::internal());

/// The caller's exclusive time cards: each one's game category and minutes left. An exclusive
/// card is not used from the backpack; its minutes are charged while playing a game of its
/// category, before the free and paid play time.
#[utoipa::path(responses((status = 200, body = Envelope<Vec<ExclusiveCardDto>>), ExclusiveRefusals))]
#[get("/api/v3/user/card/exclusive")]
pub async fn exclusive_cards(state: web::Data<AppState>, caller: Caller) -> ApiResult<Vec<ExclusiveCardDto>> {
    let cards = state.platform.catalogue.exclusive_cards(caller.0.uid).await?;
    Ok(ok(cards
        .into_iter()
        .map(|c| ExclusiveCardDto {
            id: c.card_id,
            game_category_id: c.game_category_id,
            minutes_left: c.minutes_left,
        })
        .collect()))
}
