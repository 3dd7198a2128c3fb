//! Every integration test of `actors` in one binary (one link, one copy on disk): each file
//! is a module, `common` is their shared set-up. A new test file is added to this list
//! (`ops/test.sh` fails when one is not).

mod bus;
mod commerce;
mod common;
mod coupons;
mod failures;
mod hosts;
mod identity;
mod journey;
mod merchant;
mod missions;
mod queue_rules;
mod rooms;
