//! The domain of the platform: every node queue, game session and player is an actor; the
//! rules are plain functions and pure state machines beside them. This crate does no HTTP, SQL
//! or CQL, and builds no wire format: it reaches storage through `storage`'s traits and the
//! browser through [`connection::ConnectionSink`], which the facade implements.
//!
//! Layout:
//!
//! - `platform`: the entry point the facade calls; starts the actor kinds and routes calls
//!   (`platform_rooms`: its room calls; `platform_commerce`: its shop and payment calls).
//! - `ctx`: what every actor shares (storage, configuration, clock, bus, registries), the one
//!   helper for blocking storage calls; actors know it, never the platform.
//! - `config`: the domain configuration (countdowns, nodes and their machines).
//! - `clock`: wall-clock milliseconds derived from tokio time, so paused-time tests are exact.
//! - `error`: [`DomainError`], every way a call can be refused, and the conversions of storage
//!   and actor-call failures into it.
//! - `view`: what the player sees of a session ([`view::SessionView`]), the pushes and the typed
//!   notices.
//! - `game_session`: the session state machine (QUEUE → READY → CONNECTING → PLAYING → ended) and its actor.
//! - `hang`: hanging sessions (no input for a while) and what `gameDuration` answers.
//! - `holdings`: what a player holds and the rules that follow (lane, windows, member games).
//! - `lanes`: the queue lanes (`isFast`) and the admission order between them.
//! - `queue`: the queue of one node (all its games) with the node's machines, and its actor.
//! - `ranks`: keeping the ranks connected waiting players see fresh.
//! - `wait`: the expected wait as a range measured from the node's admissions.
//! - `machine_pool`: the bookkeeping of a node's machines (free, out), owned by its queue.
//! - `hosts`: the game hosts of a node (which host and slot each machine is, what each slot
//!   serves, when each host was last heard), owned by its queue; the commands to hosts go
//!   through [`hosts::HostSink`], which the facade implements.
//! - `player`: one actor per user that serializes the calls about the player's game.
//! - `connection`: a socket's subscription to its user's pushes.
//! - `passport`: SMS codes, login sessions and socket tokens.
//! - `room`: live rooms: one actor per open room, its pure parts, its event stream and fan-out.
//! - `providers`: traits of outside services and their sandbox implementations (SMS, payment,
//!   the account centre).
//! - `platform_ads`: the ad slots, the section ads' pay-times limits and the app's first-login gift.
//! - `platform_messages`: the message centre: pages, sender tabs, mark read, clear, the producers
//!   (welcome, welfare on grants, the operator's announcements) and NEW_MESSAGE.
//! - `platform_collect`: recently played games, favourites and the game sections.
//! - `platform_tips`: the game tip before a start and the play page's loading tips.
//! - `platform_uc`: the account centre's signed agent login and its profile notices.
//! - `commerce`: the money path's rules (pricing, pay methods, the order state machine) and
//!   the order desk (expiry timers); `platform_commerce`: the platform's shop and payment calls.

// The kernel every feature shares (it names no feature).
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
