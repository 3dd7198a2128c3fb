//! Every path of the spec that this server answers, in feature folders that mirror the domain's
//! (`actors/src`): `accounts`, `identity`, `play`, `rooms`, `commerce`, `activity`,
//! `catalogue`, `messages`. Each folder holds its handlers and its JSON shapes (`dto.rs`), and its
//! `mod.rs` registers its routes (`routes`, and `dev_routes` for dev mode). Beside them, what sits
//! above the features: the socket (`ws`), the site-wide config groups (`site`) and the built
//! frontend (`static_files`).
//!
//! This module is the route table: the server runs it (`lib.rs`) and the OpenAPI document is
//! collected from it (`openapi.rs`). The arrows between the folders run one way (ops/arrows.toml,
//! checked by `python3 ops/arrows.py` in `make test`); no file here imports `lib.rs` or
//! `openapi.rs`.

pub mod accounts;
pub mod activity;
pub mod catalogue;
pub mod commerce;
pub mod identity;
pub mod messages;
pub mod play;
pub mod rooms;
pub mod site;
pub mod static_files;
pub mod ws;

use utoipa_actix_web::service_config::ServiceConfig;

/// The routes of every mode: each feature's, the socket, the site's config and the metrics.
pub fn table(cfg: &mut ServiceConfig) {
    accounts::routes(cfg);
    cfg.service(ws::echo);
    catalogue::routes(cfg);
    play::routes(cfg);
    rooms::routes(cfg);
    commerce::routes(cfg);
    cfg.service(crate::observe::serve_metrics).service(crate::observe::healthz);
    activity::routes(cfg);
    identity::routes(cfg);
    messages::routes(cfg);
    site::routes(cfg);
}

/// The links between operations each feature declares (the OpenAPI document's response links).
pub fn links() -> Vec<crate::dto::ResponseLink> {
    [play::links(), commerce::links()].into_iter().flatten().collect()
}

/// The dev-mode routes of the document: each feature's operator calls without the token and its
/// sandboxes.
pub fn dev_table(cfg: &mut ServiceConfig) {
    accounts::dev_routes(cfg);
    play::dev_routes(cfg);
    rooms::dev_routes(cfg);
    commerce::dev_routes(cfg);
    activity::dev_routes(cfg);
    messages::dev_routes(cfg);
}

/// The dev-mode pages outside the document: the sandbox pay page.
pub fn dev_pages(cfg: &mut ServiceConfig) {
    commerce::sandbox_routes(cfg);
}
