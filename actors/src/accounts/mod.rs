//! Accounts: who a player is and how they sign in. SMS codes and their limits, login sessions,
//! passwords, the app's QR login, third-party logins, account states (freeze, ban), the
//! security check in front of them, and the external account centre (avatar, nickname).
//!
//! - `passport`: codes, logins, sessions, socket tokens (and its submodules).
//! - `service`: the platform's account calls (freeze, ban, restore).
//! - `uc`: the account centre's signed agent login and its profile notices.
//! - `sms`, `captcha`, `oauth`, `account_centre`: the outside providers' traits and sandboxes.

pub mod account_centre;
pub mod after_login;
pub mod captcha;
pub mod oauth;
pub mod passport;
pub mod profile;
pub mod service;
pub mod sms;
pub mod uc;
