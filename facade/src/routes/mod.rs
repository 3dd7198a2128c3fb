//! Every path of the spec that this server answers, one file per area.

pub mod activity;
pub mod assets;
pub mod catalogue;
pub mod commerce;
pub mod control;
pub mod coupons;
pub mod covers;
pub mod dev;
pub mod dev_pay;
pub mod exclusive;
pub mod game;
pub mod host;
pub mod live_bill;
pub mod member;
pub mod mike;
pub mod mission;
pub mod moderation;
pub mod package;
pub mod passport;
pub mod room;
pub mod static_files;
pub mod ws;
