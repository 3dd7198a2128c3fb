//! The domain of the platform: every node queue, game session and player is an actor; the
//! rules are plain functions and pure state machines beside them. This crate does no HTTP, SQL
//! or CQL, and builds no wire format: it reaches storage through `storage`'s traits and the
//! browser through [`play::connection::ConnectionSink`], which the facade implements.
//!
//! Layout: the kernel every feature shares, then one folder per feature, then the assembly.
//!
//! - Kernel: `ctx` (what every actor shares: storage, configuration, clock, bus, a slot per
//!   feature), `config` (the domain configuration), `clock` (wall-clock milliseconds from tokio
//!   time, so paused-time tests are exact), `error` ([`DomainError`], every way a call can be
//!   refused), `view` (what the player sees of a session, the pushes, the typed notices),
//!   `phone` (the phone rule), `secrets` (random ids, stored hashes), `small_str`.
//! - `play`: the node queues (lanes, ranks, waits), game sessions, players, game hosts, holdings
//!   and grants, cards, tips; `play::ports`: what play needs of the features above it.
//! - `activity`: activities, missions, ad slots.
//! - `rooms`: live rooms (one actor per open room, its pure parts, fan-out), live bills.
//! - `identity`: real-name certification and the minors' rules.
//! - `commerce`: the shop, orders and payments, coupons, memberships, packages, merchants,
//!   auto-renewal agreements.
//! - `accounts`: SMS codes, logins, passwords, third-party and QR logins, account states, the
//!   account centre.
//! - `catalogue`: recently played, favourites, sections, exclusive games.
//! - `messages`: the message centre.
//! - `platform`: the assembly: starts the features, wires them, holds their services.
//!
//! A feature imports only the kernel and the features below it (ARCHITECTURE.md draws the
//! arrows; `ops/arrows.py` checks them).

// The kernel every feature shares (it names no feature).
pub mod beijing;
pub mod bus;
pub mod clock;
pub mod config;
pub mod ctx;
pub mod error;
pub mod phone;
pub mod secrets;
pub mod small_str;
pub mod view;

// The features, each a folder (ARCHITECTURE.md lists the arrows between them).
pub mod accounts;
pub mod activity;
pub mod catalogue;
pub mod commerce;
pub mod identity;
pub mod messages;
pub mod play;
pub mod rooms;

// The assembly: starts the features and wires them.
pub mod platform;

pub use config::{DomainConfig, NodeConfig};
pub use error::DomainError;
pub use platform::Platform;
