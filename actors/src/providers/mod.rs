//! Outside services behind traits, with sandbox providers that behave like the real ones.

pub mod account_centre;
pub mod captcha;
pub mod identity;
pub mod oauth;
pub mod payment;
pub mod sms;
