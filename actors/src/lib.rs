//! The domain of the platform: every queue channel, game session, machine pool, player and user
//! connection is an actor; the rules are plain functions and pure state machines beside them.
//! This crate does no HTTP, SQL or CQL: it reaches storage through `storage`'s traits and the
//! browser through [`connection::ConnectionSink`], which the facade implements.
//!
//! Layout:
//!
//! - `platform`: the entry point the facade calls; starts the actor kinds and routes calls.
//! - `config`: the domain configuration (countdowns, nodes and their machines).
//! - `clock`: wall-clock milliseconds derived from tokio time, so paused-time tests are exact.
//! - `error`: [`DomainError`], every way a call can be refused.
//! - `view`: what the player sees of a session ([`view::SessionView`]) and the pushes.
//! - `game_session`: the session state machine (QUEUE → READY → CONNECTING → PLAYING → ended) and its actor.
//! - `holdings`: what a player holds and the rules that follow (lane, windows, member games).
//! - `lanes`: the queue lanes (`isFast`) and the admission order between them.
//! - `queue`: the queue of one game on one node, and its actor.
//! - `machine_pool`: the machines of one node, who has them and who waits for one, and its actor.
//! - `player`: one actor per user that owns the player's game state and pushes its changes.
//! - `connection`: one actor per WebSocket, fed from the bus.
//! - `passport`: SMS codes, login sessions and socket tokens.
//! - `providers`: traits of outside services and their sandbox implementations.

pub mod clock;
pub mod config;
pub mod connection;
pub mod ctx;
pub mod error;
pub mod game_session;
pub mod holdings;
pub mod lanes;
pub mod machine_pool;
pub mod passport;
pub mod platform;
pub mod player;
pub mod providers;
pub mod queue;
pub mod ranks;
pub mod small_str;
pub mod view;
pub mod wait;

pub use config::{DomainConfig, NodeConfig};
pub use error::DomainError;
pub use platform::Platform;
