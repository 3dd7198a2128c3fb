//! Live rooms (`actors::rooms`): create, enter, info, members, the relay's viewer ticket, the
//! live summary, chat and the room list (`room`), seats and their queue (`mike`), control and the
//! rotation (`control`), kick, report, the blacklist and (dev mode) the operator's user flags
//! (`moderation`), the hosted rooms' bill (`live_bill`); the typed views as JSON are `dto`, and
//! `wire` is the `RoomWire` that encodes a batch of room events once for every watching socket.
//!
//! Imports `play` (a viewer's stream ticket is signed as a player's is).

pub mod control;
pub mod dto;
pub mod events;
pub mod live_bill;
pub mod mike;
pub mod moderation;
pub mod room;
pub mod wire;

use utoipa_actix_web::service_config::ServiceConfig;

/// The feature's routes in every mode.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(room::params)
        .service(room::relay_check)
        .service(room::relay)
        .service(room::edit)
        .service(room::my_room)
        .service(room::login_relay_room)
        .service(room::login)
        .service(room::connection)
        .service(room::info)
        .service(room::user_info)
        .service(room::user_list)
        .service(room::exit)
        .service(room::live_detail)
        .service(room::relay_count)
        .service(room::list)
        .service(room::chat_send);
    cfg.service(mike::list)
        .service(mike::up)
        .service(mike::up_or_down)
        .service(mike::invite)
        .service(mike::invite_accept)
        .service(mike::invite_refuse)
        .service(mike::operate)
        .service(mike::lock)
        .service(mike::lock_all)
        .service(mike::ban_message)
        .service(mike::req_action)
        .service(mike::req_list)
        .service(mike::req_clear)
        .service(mike::req_top)
        .service(mike::req_switch);
    cfg.service(control::apply)
        .service(control::apply_list)
        .service(control::assign)
        .service(control::deny)
        .service(control::invite)
        .service(control::recycle)
        .service(control::invite_accept)
        .service(control::invite_refuse)
        .service(control::remand)
        .service(control::rotation);
    cfg.service(moderation::kick)
        .service(moderation::report)
        .service(moderation::black_list)
        .service(moderation::black_add)
        .service(moderation::black_del);
    cfg.service(live_bill::live_record);
}

/// The feature's dev-mode routes: the operator's user flags.
pub fn dev_routes(cfg: &mut ServiceConfig) {
    cfg.service(moderation::user_flags);
}
