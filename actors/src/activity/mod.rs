//! Activity: the check-in and activity rules, the missions (task progress recorded when other
//! features report what a player did) and the ad slots with their limits.
//!
//! - `rules`: the activity rules (pure). `mission`: missions and their progress.
//! - `ads`: the ad slots' rules (pure). `service`, `ads_service`: the platform's calls.

pub mod ads;
pub mod ads_service;
pub mod mission;
pub mod rules;
pub mod service;
