//! Activities (`actors::activity`): the recharge gift, the lottery and the invite activity
//! (`activities`), check-in and tasks (`mission`), the ad slots (`ads`).
//!
//! Imports `commerce` (a grant as the shop shows it) and `accounts` (the masked phone).

pub mod activities;
pub mod ads;
pub mod mission;

use utoipa_actix_web::service_config::ServiceConfig;

/// The feature's routes in every mode.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(activities::recharge_give)
        .service(activities::lottery_list)
        .service(activities::lottery_chance)
        .service(activities::lottery_record)
        .service(activities::invite)
        .service(activities::invite_rule)
        .service(activities::invite_record_list);
    cfg.service(mission::sign_info)
        .service(mission::sign_in)
        .service(mission::content)
        .service(mission::unfinished)
        .service(mission::receive)
        .service(mission::task_detail)
        .service(mission::reward_config);
    cfg.service(ads::slots).service(ads::ops_set_slot);
}

/// The feature's dev-mode routes: the operator's ad slots without the token.
pub fn dev_routes(cfg: &mut ServiceConfig) {
    cfg.service(ads::dev_set_slot);
}
