//! The host's metrics (Prometheus, `GET /metrics`). Names start with `yoo_gamehost_`; labels are
//! slots, phases and reasons, never sessions or users.
//!
//! - `yoo_gamehost_slots{phase}`: slots by phase;
//! - `yoo_gamehost_frames_encoded_total{slot}`, `yoo_gamehost_frames_dropped_total{slot}` (frames
//!   a viewer did not get: its outbox was full, or it waited for a key frame);
//! - `yoo_gamehost_encode_seconds`: capture to encoded access unit (histogram);
//! - `yoo_gamehost_viewers{slot}`, `yoo_gamehost_stream_connections`;
//! - `yoo_gamehost_stream_refused_total{reason}`, `yoo_gamehost_input_events_total{verdict}`;
//! - `yoo_gamehost_link_up`, `yoo_gamehost_link_connects_total{outcome}`.

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

static PROMETHEUS: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's recorder, installed on first use.
pub fn prometheus() -> &'static PrometheusHandle {
    PROMETHEUS.get_or_init(|| {
        let buckets = [0.002, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1, 0.2, 0.5];
        let handle = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full("yoo_gamehost_encode_seconds".into()), &buckets)
            .and_then(|b| b.install_recorder())
            .expect("the metrics recorder is installed once");
        describe();
        handle
    })
}

/// Every series the host exports, with its HELP text (`promtool check metrics` wants one each).
pub const METRICS: &[(&str, &str)] = &[
    ("yoo_gamehost_slots", "Slots of this host by phase."),
    ("yoo_gamehost_frames_encoded_total", "Frames captured and encoded, by slot."),
    (
        "yoo_gamehost_frames_dropped_total",
        "Frames a viewer did not get (its outbox was full, or it waited for a key frame), by slot.",
    ),
    ("yoo_gamehost_encode_seconds", "Capture to encoded access unit."),
    ("yoo_gamehost_viewers", "Stream viewers, by slot."),
    ("yoo_gamehost_stream_connections", "Stream WebSockets open."),
    ("yoo_gamehost_stream_refused_total", "Stream connections refused, by reason."),
    ("yoo_gamehost_input_events_total", "Input events from viewers, by verdict."),
    ("yoo_gamehost_link_up", "1 while the link to the platform is up."),
    ("yoo_gamehost_link_connects_total", "Attempts to link to the platform, by outcome."),
];

fn describe() {
    for (name, help) in METRICS {
        if name.ends_with("_total") {
            metrics::describe_counter!(*name, *help);
        } else if name.ends_with("_seconds") {
            metrics::describe_histogram!(*name, *help);
        } else {
            metrics::describe_gauge!(*name, *help);
        }
    }
}

/// Makes a slot's series exist from the start (a scrape before the first frame sees zeros).
pub fn register_slot(slot: u32) {
    let s = slot.to_string();
    metrics::counter!("yoo_gamehost_frames_encoded_total", "slot" => s.clone()).increment(0);
    metrics::counter!("yoo_gamehost_frames_dropped_total", "slot" => s.clone()).increment(0);
    metrics::gauge!("yoo_gamehost_viewers", "slot" => s).set(0.0);
}
