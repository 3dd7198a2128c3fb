//! Identity (`actors::identity`): real-name certification, the start's pre-check, the app's QR
//! certification and youth mode (`real_name`).
//!
//! Imports no other feature folder.

pub mod real_name;

use utoipa_actix_web::service_config::ServiceConfig;

/// The feature's routes in every mode.
pub fn routes(cfg: &mut ServiceConfig) {
    real_name::routes(cfg);
}
