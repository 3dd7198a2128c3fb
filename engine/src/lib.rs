//! The actor runtime the domain runs on. It knows no game, room or user rule.
//!
//! Actors are [ractor] actors; this crate adds what ractor leaves to the application:
//!
//! - `supervisor`: a supervisor actor that restarts failed children under a restart limit and
//!   escalates (fails itself) when a child fails more than N times in T seconds (OTP style).
//! - `registry`: key -> actor, started on first use under a supervisor, forgotten when it stops.
//! - `timers`: named, cancellable timers on tokio time (so tests run with paused time).
//! - `bus`: topic publish/subscribe, in-process (a Redis bus takes its place in cluster mode).
//! - `metrics`: actors alive and restarted, by kind.

pub mod bus;
pub mod metrics;
pub mod registry;
pub mod supervisor;
pub mod timers;

pub use bus::Bus;
pub use registry::Registry;
pub use supervisor::{RestartPolicy, Supervisor, SupervisorMsg};
pub use timers::Timers;

/// The error type of actor handlers.
pub type ActorError = ractor::ActorProcessingErr;
