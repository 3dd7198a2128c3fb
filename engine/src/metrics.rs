//! Actor metrics, labelled by actor kind (never by user or room id).

/// One more actor of `kind` is alive.
pub fn actor_started(kind: &'static str) {
    metrics::gauge!("yoo_actors_alive", "kind" => kind).increment(1.0);
    // The kind's failure counters exist from its first actor on (a dashboard or an alert
    // reads 0, not nothing).
    metrics::counter!("yoo_actor_restarts_total", "kind" => kind).increment(0);
    metrics::counter!("yoo_supervisor_escalations_total", "kind" => kind).increment(0);
}

/// One actor of `kind` stopped or failed.
pub fn actor_stopped(kind: &'static str) {
    metrics::gauge!("yoo_actors_alive", "kind" => kind).decrement(1.0);
}

/// An actor of `kind` failed and was restarted by its supervisor.
pub fn actor_restarted(kind: &'static str) {
    metrics::counter!("yoo_actor_restarts_total", "kind" => kind).increment(1);
}

/// A supervisor of `kind` gave up and escalated to its parent.
pub fn supervisor_escalated(kind: &'static str) {
    metrics::counter!("yoo_supervisor_escalations_total", "kind" => kind).increment(1);
}
