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
        let base_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        Clock {
            base_ms,
            base: Instant::now(),
        }
    }

    /// A clock that reads `base_ms` now (a dev or test platform set to a given time: the hours
    /// minors may play, say); it advances with tokio time like any.
    pub fn at(base_ms: i64) -> Self {
        Clock {
            base_ms,
            base: Instant::now(),
        }
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

/// CPU seconds the calling thread has used (for measuring work that does not await).
pub fn thread_cpu_time() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is always available
    // on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc == 0 {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}
