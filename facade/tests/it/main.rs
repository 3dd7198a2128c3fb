//! Every integration test of `facade` in one binary (one link, one copy on disk): each file
//! is a module, `common` is their shared set-up. A new test file is added to this list
//! (`ops/test.sh` fails when one is not).

mod abuse;
mod account_centre;
mod accounts;
mod activity;
mod ads;
mod agreements;
mod api;
mod backpack;
mod checkin;
mod cluster;
mod collect;
mod commerce;
mod common;
mod contract;
mod coupons;
mod crash;
mod devices;
mod exclusive_time;
mod hang;
mod hosts;
mod identity;
mod live_bill;
mod member;
mod merchant;
mod messages;
mod package;
mod password;
mod qr_login;
mod queue;
mod rooms;
mod shop_prices;
mod sms_check;
mod start_modes;
mod static_files;
mod store_move;
mod third_party;
mod tips;
