//! The catalogue (`actors::catalogue`): the game list, a game's detail and share link (`games`),
//! recently played games, favourites and the game sections (`collect`), exclusive play time's
//! games and cards (`exclusive`), and the generated cover art and avatars (`covers`); a game as
//! listed is `dto`.
//!
//! Imports no other feature folder.

pub mod collect;
pub mod covers;
pub mod dto;
pub mod exclusive;
pub mod games;

use utoipa_actix_web::service_config::ServiceConfig;

/// The feature's routes in every mode.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(games::list).service(games::info).service(games::share_links);
    // the avatars' path before the covers' `/covers/{id}/{file}`, which it would also match
    cfg.service(covers::avatar).service(covers::game_cover);
    cfg.service(exclusive::game_section).service(exclusive::exclusive_cards);
    collect::routes(cfg);
}
