//! Play (`actors::play`): nodes, the start, the queue and its rules, confirm, the stream tickets,
//! quality reports and the played history (`game`), the game hosts' link (`host`) and the tips of
//! the start sequence (`tips`); the game state and the other shapes of play are `dto`.
//!
//! Imports no other feature folder.

pub mod dto;
pub mod game;
pub mod host;
pub mod notices;
pub mod tips;

use utoipa_actix_web::service_config::ServiceConfig;

/// The feature's routes in every mode.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(game::select_node)
        .service(game::start)
        .service(game::change_game)
        .service(game::float_ball)
        .service(game::confirm_connect)
        .service(game::cancel_confirm)
        .service(game::cancel_queue)
        .service(game::over)
        .service(game::node_ping)
        .service(game::channel_size)
        .service(game::move_here)
        .service(game::stream_ticket)
        .service(game::quality_report)
        .service(game::history)
        .service(game::game_duration)
        .service(game::all_nodes)
        .service(game::queue_rules);
    cfg.service(host::link_socket);
    cfg.service(tips::start_tip)
        .service(tips::load_tip)
        .service(tips::ops_set_tip)
        .service(tips::ops_set_load_tips);
}

/// The feature's dev-mode routes: the operator's tips without the token.
pub fn dev_routes(cfg: &mut ServiceConfig) {
    cfg.service(tips::dev_set_tip).service(tips::dev_set_load_tips);
}
