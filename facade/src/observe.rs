//! Observability: the Prometheus recorder, `/metrics`, and request metrics by route and status.
//! Metric names start with `yoo_`; labels are kinds and routes, never user or room ids.

use std::sync::OnceLock;
use std::time::Duration;

use actix_web::dev::ServiceResponse;
use actix_web::{get, web, HttpResponse};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::state::AppState;

static PROMETHEUS: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's recorder, installed on first use.
pub fn prometheus() -> &'static PrometheusHandle {
    PROMETHEUS.get_or_init(|| {
        let http = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];
        let handoff = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0];
        let staleness = [0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 5.0, 10.0];
        let handle = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full("yoo_http_request_duration_seconds".into()), &http)
            .and_then(|b| b.set_buckets_for_metric(Matcher::Full("yoo_handoff_seconds".into()), &handoff))
            .and_then(|b| b.set_buckets_for_metric(Matcher::Full("yoo_rank_staleness_seconds".into()), &staleness))
            .and_then(|b| b.install_recorder())
            .expect("the metrics recorder is installed once");
        describe();
        handle
    })
}

/// Every series the platform exports, with its HELP text (`promtool check metrics` wants one
/// for each). Labels are bounded: kinds, states, reasons, outcomes, route patterns, node ids and
/// lanes; never a user, room, session or machine.
pub const METRICS: &[(&str, Kind, &str)] = &[
    (
        "yoo_http_requests_total",
        Kind::Counter,
        "HTTP requests answered, by route pattern, method and status.",
    ),
    (
        "yoo_http_request_duration_seconds",
        Kind::Histogram,
        "Time to answer an HTTP request, by route pattern and method.",
    ),
    (
        "yoo_sessions",
        Kind::Gauge,
        "Game sessions by state: queue, ready, connecting, playing.",
    ),
    (
        "yoo_sessions_started_total",
        Kind::Counter,
        "Game starts accepted (a session created, queued or handed a machine).",
    ),
    ("yoo_sessions_ended_total", Kind::Counter, "Game sessions ended, by reason."),
    ("yoo_players_waiting", Kind::Gauge, "Players waiting in a node's queue, by lane."),
    (
        "yoo_queue_admissions_total",
        Kind::Counter,
        "Players a node's queue handed a machine, by lane.",
    ),
    ("yoo_machines_free", Kind::Gauge, "Machines of a node free for the next player."),
    (
        "yoo_machines_lost_total",
        Kind::Counter,
        "Machines of a node that left the pool with their lost game host.",
    ),
    (
        "yoo_handoff_seconds",
        Kind::Histogram,
        "A machine back while players wait, to the next player's session started.",
    ),
    (
        "yoo_rank_pushes_total",
        Kind::Counter,
        "Queue rank changes pushed to waiting players.",
    ),
    (
        "yoo_rank_refresh_seconds",
        Kind::Summary,
        "Wall time of one rank refresh walk over a slice of the connected waiting players.",
    ),
    (
        "yoo_rank_refresh_cpu_seconds",
        Kind::Summary,
        "CPU time of one rank refresh walk (the lookups and the pushes' encoding).",
    ),
    (
        "yoo_rank_staleness_seconds",
        Kind::Histogram,
        "Time between two refreshes of the same slice of waiting players: the oldest a shown rank gets.",
    ),
    ("yoo_websockets_open", Kind::Gauge, "Browser WebSockets open."),
    ("yoo_connections_open", Kind::Gauge, "Connections subscribed to a user's pushes."),
    ("yoo_actors_alive", Kind::Gauge, "Actors alive, by kind."),
    (
        "yoo_actor_restarts_total",
        Kind::Counter,
        "Actors restarted by their supervisor after a failure, by kind.",
    ),
    (
        "yoo_supervisor_escalations_total",
        Kind::Counter,
        "Supervisors that gave up (too many restarts) and failed themselves, by kind.",
    ),
    ("yoo_rooms_open", Kind::Gauge, "Live rooms open."),
    ("yoo_rooms_ended_total", Kind::Counter, "Live rooms ended."),
    (
        "yoo_room_viewers",
        Kind::Gauge,
        "Watches of live rooms open (viewers receiving a room's events).",
    ),
    ("yoo_room_frames_total", Kind::Counter, "Room event frames written to viewers."),
    (
        "yoo_room_deliveries_total",
        Kind::Counter,
        "Room events delivered to viewers (events × viewers).",
    ),
    ("yoo_room_reports_total", Kind::Counter, "Reports of live rooms stored."),
    ("yoo_host_links_open", Kind::Gauge, "Game hosts linked to the platform."),
    (
        "yoo_heap_in_use_bytes",
        Kind::Gauge,
        "Heap the allocator has handed out, refreshed every 10 s.",
    ),
    (
        "yoo_payment_notices_total",
        Kind::Counter,
        "Payment provider notices received, by provider and what they did.",
    ),
    (
        "yoo_sms_sends_total",
        Kind::Counter,
        "Login codes handed to the SMS provider, by outcome.",
    ),
    (
        "yoo_sms_code_checks_total",
        Kind::Counter,
        "Code requests through the security check in front of SMS codes, by outcome (not_needed, solved, required, failed).",
    ),
    // a cluster's (`[cluster]`)
    (
        "yoo_cluster_processes",
        Kind::Gauge,
        "Live processes of the cluster, as this one sees them.",
    ),
    (
        "yoo_cluster_process_up",
        Kind::Gauge,
        "Whether a process of the cluster is live (1) or gone (0), by process.",
    ),
    (
        "yoo_cluster_heartbeat_seconds",
        Kind::Summary,
        "Time of this process's heartbeat call to Redis.",
    ),
    ("yoo_cluster_leases_held", Kind::Gauge, "Leases (node queues) this process holds."),
    ("yoo_cluster_leases_acquired_total", Kind::Counter, "Leases this process won."),
    (
        "yoo_cluster_leases_shed_total",
        Kind::Counter,
        "Node queues given back to even the processes' shares.",
    ),
    (
        "yoo_cluster_leases_lost_total",
        Kind::Counter,
        "Leases this process lost, by why (refused, expired, released).",
    ),
    (
        "yoo_cluster_lease_renewal_seconds",
        Kind::Summary,
        "Time of one renewal of this process's leases.",
    ),
    (
        "yoo_cluster_lease_renewal_failures_total",
        Kind::Counter,
        "Lease renewals that failed.",
    ),
    ("yoo_cluster_heartbeat_failures_total", Kind::Counter, "Heartbeats that failed."),
    (
        "yoo_cluster_takeovers_total",
        Kind::Counter,
        "Things this process took over (their restore done), by kind.",
    ),
    (
        "yoo_cluster_restore_seconds",
        Kind::Summary,
        "Time from a lease won to the thing restored and serving, by kind.",
    ),
    (
        "yoo_cluster_forwarded_total",
        Kind::Counter,
        "Calls forwarded to the owner of their queue, by outcome (answered, no_owner).",
    ),
    (
        "yoo_cluster_forward_seconds",
        Kind::Summary,
        "Time of a forwarded call, retries included.",
    ),
    ("yoo_cluster_pushes_sent_total", Kind::Counter, "Pushes sent to other processes."),
    (
        "yoo_cluster_push_frames_sent_total",
        Kind::Counter,
        "Messages of pushes sent to the other processes.",
    ),
    (
        "yoo_cluster_push_frames_lost_total",
        Kind::Counter,
        "Messages of pushes that Redis did not take.",
    ),
    (
        "yoo_cluster_push_frames_received_total",
        Kind::Counter,
        "Messages of pushes received from other processes.",
    ),
    (
        "yoo_cluster_push_delay_seconds",
        Kind::Summary,
        "Time from another process sending a message of pushes to its arrival here (wall clocks).",
    ),
    (
        "yoo_cluster_broadcast_resubscribes_total",
        Kind::Counter,
        "Subscriptions to a broadcast of the cluster, by result (subscribed, failed).",
    ),
    (
        "yoo_cluster_login_broadcast_failures_total",
        Kind::Counter,
        "Ended logins not announced to the cluster.",
    ),
    (
        "yoo_store_fenced_total",
        Kind::Counter,
        "Writes of an old owner's epoch refused by the store.",
    ),
];

/// A series' type, for its HELP text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Counter,
    Gauge,
    Histogram,
    Summary,
}

/// The series without labels, present from the start (a scrape reads 0, not nothing).
const UNLABELLED: &[&str] = &[
    "yoo_rank_pushes_total",
    "yoo_websockets_open",
    "yoo_connections_open",
    "yoo_rooms_open",
    "yoo_rooms_ended_total",
    "yoo_room_viewers",
    "yoo_room_frames_total",
    "yoo_room_deliveries_total",
    "yoo_room_reports_total",
    "yoo_host_links_open",
    "yoo_sessions_started_total",
];

fn describe() {
    for (name, kind, help) in METRICS {
        match kind {
            Kind::Counter => metrics::describe_counter!(*name, *help),
            Kind::Gauge => metrics::describe_gauge!(*name, *help),
            Kind::Histogram | Kind::Summary => metrics::describe_histogram!(*name, *help),
        }
    }
    for name in UNLABELLED {
        if name.ends_with("_total") {
            metrics::counter!(*name).increment(0);
        } else {
            metrics::gauge!(*name).increment(0.0);
        }
    }
    for outcome in ["sent", "failed"] {
        metrics::counter!("yoo_sms_sends_total", "outcome" => outcome).increment(0);
    }
}

pub fn record_request<B>(res: &ServiceResponse<B>, took: Duration) {
    let route = res.request().match_pattern().unwrap_or_else(|| "unmatched".into());
    let method = res.request().method().to_string();
    let status = res.status().as_u16().to_string();
    metrics::counter!("yoo_http_requests_total", "route" => route.clone(), "method" => method.clone(), "status" => status).increment(1);
    metrics::histogram!("yoo_http_request_duration_seconds", "route" => route, "method" => method).record(took.as_secs_f64());
}

/// Prometheus metrics.
#[utoipa::path(responses((status = 200, description = "Prometheus text", body = String, content_type = "text/plain")))]
#[get("/metrics")]
pub async fn serve_metrics(handle: web::Data<PrometheusHandle>) -> HttpResponse {
    HttpResponse::Ok().content_type("text/plain; version=0.0.4").body(handle.render())
}

/// `ok` while supervision holds; 503 once it escalated.
#[utoipa::path(responses((status = 200, description = "ok", body = String, content_type = "text/plain"),
    (status = 503, description = "supervision escalated", body = String, content_type = "text/plain")))]
#[get("/healthz")]
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    if state.platform.healthy() {
        HttpResponse::Ok().content_type("text/plain; charset=utf-8").body("ok")
    } else {
        HttpResponse::ServiceUnavailable()
            .content_type("text/plain; charset=utf-8")
            .body("supervision escalated")
    }
}
