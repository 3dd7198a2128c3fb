//! Runs of counted events by key, an hour from the first of a run
//! ([`FAILURE_WINDOW_MS`](super::password::FAILURE_WINDOW_MS)): the password logins' failures by
//! phone and address, the SMS code requests by phone and address (`code_check`). One process
//! keeps them in its memory (a restart forgets them); the processes of a cluster share them
//! (`SharedRuns`, the facade's Redis), so that three processes do not allow three times a
//! threshold.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use parking_lot::{Mutex, RwLock};

use super::password::{Failures, FAILURE_WINDOW_MS};
use crate::error::DomainResult;

/// Records kept in memory at most (beyond, the runs that aged out go, then all).
const RECORDS_MAX: usize = 200_000;

/// Runs kept where every process of a cluster counts them.
pub trait SharedRuns: Send + Sync {
    /// The runs of these keys now (an empty run for a key without one).
    fn get(&self, keys: Vec<String>) -> BoxFuture<'_, DomainResult<Vec<Failures>>>;
    /// One more event at `now` for each key; a run older than `window_ms` starts again.
    fn count(&self, keys: Vec<String>, now: i64, window_ms: i64) -> BoxFuture<'_, DomainResult<()>>;
    /// The key's run ends.
    fn clear(&self, key: String) -> BoxFuture<'_, DomainResult<()>>;
}

#[derive(Default)]
pub(super) struct Runs {
    local: Mutex<HashMap<String, Failures>>,
    shared: RwLock<Option<Arc<dyn SharedRuns>>>,
}

impl Runs {
    pub(super) fn share(&self, shared: Arc<dyn SharedRuns>) {
        *self.shared.write() = Some(shared);
    }

    fn shared(&self) -> Option<Arc<dyn SharedRuns>> {
        self.shared.read().clone()
    }

    pub(super) async fn get(&self, keys: &[String]) -> DomainResult<Vec<Failures>> {
        if let Some(s) = self.shared() {
            return s.get(keys.to_vec()).await;
        }
        let map = self.local.lock();
        Ok(keys.iter().map(|k| map.get(k).copied().unwrap_or_default()).collect())
    }

    pub(super) async fn count(&self, keys: &[String], now: i64) -> DomainResult<()> {
        if let Some(s) = self.shared() {
            return s.count(keys.to_vec(), now, FAILURE_WINDOW_MS).await;
        }
        let mut map = self.local.lock();
        if map.len() >= RECORDS_MAX {
            map.retain(|_, f| f.live(now) > 0);
            if map.len() >= RECORDS_MAX {
                map.clear();
            }
        }
        for k in keys {
            map.entry(k.clone()).or_default().fail(now);
        }
        Ok(())
    }

    pub(super) async fn clear(&self, key: &str) -> DomainResult<()> {
        if let Some(s) = self.shared() {
            return s.clear(key.to_owned()).await;
        }
        self.local.lock().remove(key);
        Ok(())
    }
}
