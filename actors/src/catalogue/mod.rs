//! The catalogue around the games: recently played, favourites, the game sections, and the
//! exclusive (subscription) games.

pub mod collect;
pub mod exclusive;

/// The calls of the catalogue feature: recently played, favourites, sections, exclusive games.
#[derive(Clone)]
pub struct Catalogue {
    pub(crate) ctx: std::sync::Arc<crate::ctx::Ctx>,
}
