//! Observability: the Prometheus recorder, `/metrics`, and request metrics by route and status.
//! Metric names start with `yoo_`; labels are kinds and routes, never user or room ids.

use std::sync::OnceLock;
use std::time::Duration;

use actix_web::dev::ServiceResponse;
use actix_web::{get, web, HttpResponse};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::AppState;

static PROMETHEUS: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's recorder, installed on first use.
pub fn prometheus() -> &'static PrometheusHandle {
    PROMETHEUS.get_or_init(|| {
        let buckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];
        PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full("yoo_http_request_duration_seconds".into()), &buckets)
            .and_then(|b| b.install_recorder())
            .expect("the metrics recorder is installed once")
    })
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
