//! Accounts (`actors::accounts`): SMS-code login, logout, the profile and the socket token
//! (`passport`), password sign-in and its security check (`password`), the app-QR login
//! (`qr_login`), third-party logins (`third_party`), the external account centre (`uc`) and the
//! operator's freeze, ban and restore (`actions`); the player's profile is `dto`. In dev mode the
//! sandboxes of the feature's outside providers: the SMS outbox (`dev_sms`), the product's app
//! (`dev_app`), the OAuth provider (`dev_oauth`), the captcha (`dev_captcha`) and the account
//! centre (`dev_uc`).
//!
//! Imports no other feature folder: the others show the profile and mask phones with it.

pub mod actions;
pub mod dev_app;
pub mod dev_captcha;
pub mod dev_oauth;
pub mod dev_sms;
pub mod dev_uc;
pub mod dto;
pub mod passport;
pub mod password;
pub mod qr_login;
pub mod third_party;
pub mod uc;

use utoipa_actix_web::service_config::ServiceConfig;

/// The feature's routes in every mode.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(passport::send_code)
        .service(passport::login)
        .service(passport::logout)
        .service(passport::profile)
        .service(passport::fetch_token);
    qr_login::routes(cfg);
    third_party::routes(cfg);
    cfg.service(actions::ops_account);
    password::routes(cfg);
    uc::routes(cfg);
}

/// The feature's dev-mode routes: the operator's actions without the token, and the sandboxes.
pub fn dev_routes(cfg: &mut ServiceConfig) {
    cfg.service(dev_sms::sms_outbox).service(actions::dev_account);
    dev_app::routes(cfg);
    dev_oauth::routes(cfg);
    dev_captcha::routes(cfg);
    dev_uc::routes(cfg);
}
