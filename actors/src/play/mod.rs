//! Play: from a start to the end of a game. The node queues with their lanes, ranks and wait
//! estimates, the game sessions, the players' actors, the game hosts' slots, what a player holds
//! (the lane it gives) and the loading tips.

pub mod connection;
pub mod game_session;
pub mod hang;
pub mod holdings;
pub mod hosts;
pub mod lanes;
pub mod machine_pool;
pub mod player;
pub mod queue;
pub mod ranks;
pub mod service;
pub mod tips;
pub mod wait;
