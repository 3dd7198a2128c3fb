//! Wall-clock time for records and for the browser, advanced by tokio time.
//!
//! The clock reads the system time once and then adds tokio's elapsed time, so a test that
//! pauses and advances tokio time sees timestamps move by exactly as much.

use std::time::{SystemTime, UNIX_EPOCH};

use tokio::time::Instant;

#[derive(Debug, Clone, Copy)]
pub struct Clock {
    base_ms: i64,
    base: Instant,
}

impl Clock {
    pub fn new() -> Self {
        let base_ms = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0);
        Clock { base_ms, base: Instant::now() }
    }

    /// Unix milliseconds now.
    pub fn now_ms(&self) -> i64 {
        self.base_ms + self.base.elapsed().as_millis() as i64
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::new()
    }
}
