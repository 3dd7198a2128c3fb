//! The message centre (`actors::messages`): the caller's messages, the sender tabs, read and
//! delete, the new-message flags and the operator's announcement (`centre`).
//!
//! Imports no other feature folder.

pub mod centre;

use utoipa_actix_web::service_config::ServiceConfig;

/// The feature's routes in every mode.
pub fn routes(cfg: &mut ServiceConfig) {
    centre::routes(cfg);
}

/// The feature's dev-mode routes: the announcement without the operator token.
pub fn dev_routes(cfg: &mut ServiceConfig) {
    cfg.service(centre::dev_announce);
}
