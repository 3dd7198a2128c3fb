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

use crate::dto::ResponseLink;

/// A session a start (or a change of game) answers is the one the session's calls name, and so
/// is the one a start refused with 130117 or 130116 names (a game already runs: `data.id`); a
/// confirmed one is named again by the playing session's calls.
pub fn links() -> Vec<ResponseLink> {
    const STARTED: &[(&str, &str)] = &[("id", "$response.body#/data/id")];
    const CONFIRMED: &[(&str, &str)] = &[("id", "$request.body#/id")];
    let of = |from, status, to, body| ResponseLink {
        from,
        status,
        to,
        body,
        parameters: &[],
    };
    let session_calls = [
        "confirm_connect",
        "cancel_confirm",
        "cancel_queue",
        "stream_ticket",
        "quality_report",
        "game_duration",
        "over",
    ];
    let mut all = vec![];
    for (from, status) in [("start", "200"), ("start", "409"), ("change_game", "200")] {
        for to in session_calls {
            all.push(of(from, status, to, STARTED));
        }
    }
    for to in ["stream_ticket", "quality_report", "game_duration", "over"] {
        all.push(of("confirm_connect", "200", to, CONFIRMED));
    }
    all
}

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
