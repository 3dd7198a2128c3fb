//! The catalogue's JSON shapes: a game as the catalogue lists it, a page of them, a game's
//! detail, and the addresses of a game's generated images (`covers`).

use serde::Serialize;
use storage::Game;
use utoipa::ToSchema;

pub fn image(game: &Game, shape: &str) -> String {
    format!("/covers/{}/{shape}.svg", game.id)
}

/// A game as the catalogue lists it (social.md §2.8).
#[derive(Serialize, ToSchema)]
pub struct CatalogueGame {
    pub id: i64,
    pub name: String,
    pub image: String,
    pub image_vertical: String,
    pub image_square: String,
    pub logo: String,
    /// 0 coming soon, 1 on the shelf, 2 off the shelf, 10 not supported on this client.
    pub status: i32,
    pub deleted: bool,
    pub available: bool,
    pub collected: bool,
    /// null, "vip", "vvip" or "hvip".
    pub member_type: Option<String>,
    pub instant_play: bool,
}

pub fn catalogue_game(g: &Game) -> CatalogueGame {
    CatalogueGame {
        id: g.id,
        name: g.name.clone(),
        image: image(g, "cover"),
        image_vertical: image(g, "vertical"),
        image_square: image(g, "square"),
        logo: image(g, "logo"),
        status: g.status,
        deleted: g.deleted,
        available: g.available,
        collected: false,
        member_type: g.member_type.clone(),
        instant_play: g.instant_play,
    }
}

/// A page of the catalogue.
#[derive(Serialize, ToSchema)]
pub struct GamePage {
    pub data: Vec<CatalogueGame>,
    pub total: u64,
}

/// A game's detail: the catalogue fields and more.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    #[serde(flatten)]
    pub game: CatalogueGame,
    pub description: String,
    pub platform: String,
    pub chinese: bool,
    pub controller: bool,
    /// 0: any start; above 0: only a play-together start, in a room of this mode (the start
    /// without one is refused with 130130).
    pub start_mode: i32,
    /// The room modes (2 RELAY, 4 HAND) a play-together start of this game may use (another is
    /// refused with 130129).
    pub support_modes: Vec<i32>,
    /// 1: played here; 2: an external game, opened at `startUrl` (a start is refused with 130128).
    pub associated_type: i32,
    pub start_url: String,
}

pub fn game_info(g: &Game) -> GameInfo {
    GameInfo {
        game: catalogue_game(g),
        description: g.description.clone(),
        platform: g.platform.clone(),
        chinese: g.chinese,
        controller: g.controller,
        start_mode: g.start.start_mode,
        support_modes: g.start.support_modes.clone(),
        associated_type: g.start.associated_type,
        start_url: g.start.start_url.clone(),
    }
}
