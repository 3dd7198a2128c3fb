//! Calls that reach a process which does not own their queue (`../shared/CLUSTER.md`, "Calls and
//! pushes"): the domain refuses them with `NotOwner` before changing anything, and this
//! middleware sends the same request (method, path, headers, body) to the owner named by the
//! lease, and answers with the owner's answer, as if it were local. The owner may change while
//! the call travels (a takeover): a call refused there again, or whose owner does not answer, is
//! sent again to the new owner until [`PATIENCE`] has passed; then the refusal is the client's
//! (50000, retry). A forwarded call is never forwarded again (its process retries instead).

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName};
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse};

use super::Joined;
use crate::envelope::NOT_OWNER_HEADER;

/// The header a forwarded call carries (the forwarding process's id).
pub const FORWARDED_HEADER: &str = "x-yoo-forwarded";

/// How long a call waits for an owner across a takeover (the lease's TTL, the poll, the restore).
pub const PATIENCE: Duration = Duration::from_secs(6);

/// The cluster this process joined, once it has (set after the server is bound).
pub type ClusterSlot = OnceLock<Arc<Joined>>;

thread_local! {
    /// Each worker's client to the other processes (keeps its connections alive).
    static CLIENT: awc::Client = awc::Client::builder().timeout(Duration::from_secs(5)).finish();
}

/// The middleware (innermost: the call has passed this process's own checks).
pub async fn forward(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let joined = req.app_data::<web::Data<ClusterSlot>>().and_then(|c| c.get().cloned());
    let Some(joined) = joined.filter(|_| req.path().starts_with("/api/") && !is_upgrade(&req)) else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let forwarded = req.headers().contains_key(FORWARDED_HEADER);
    let body = req.extract::<web::Bytes>().await?;
    req.set_payload(actix_web::dev::Payload::from(body.clone()));
    let call = Call {
        method: req.method().clone(),
        path: req
            .uri()
            .path_and_query()
            .map_or_else(|| req.path().to_owned(), |p| p.as_str().to_owned()),
        headers: req.headers().clone(),
        peer: req.peer_addr().map(|a| a.ip().to_string()),
        body,
    };
    let mut res = next.call(req).await?.map_into_boxed_body();
    let Some(name) = res.headers().get(NOT_OWNER_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned) else {
        return Ok(res);
    };
    if forwarded {
        // the forwarding process retries at the new owner
        return Ok(res);
    }
    let started = std::time::Instant::now();
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        if let Some(addr) = joined.owner_address(&name).await {
            match call.send(&addr, &joined.process).await {
                Ok(answer) if !answer.headers().contains_key(NOT_OWNER_HEADER) => {
                    metrics::counter!("yoo_cluster_forwarded_total", "outcome" => "answered").increment(1);
                    metrics::histogram!("yoo_cluster_forward_seconds").record(started.elapsed().as_secs_f64());
                    return Ok(res.into_response(answer));
                }
                Ok(_) => tracing::debug!(%name, %addr, "forwarded call refused there too: the owner moved"),
                Err(e) => tracing::debug!(%name, %addr, error = %e, "the owner did not answer a forwarded call"),
            }
        }
        if tokio::time::Instant::now() >= deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    metrics::counter!("yoo_cluster_forwarded_total", "outcome" => "no_owner").increment(1);
    res.headers_mut().remove(NOT_OWNER_HEADER);
    Ok(res)
}

fn is_upgrade(req: &ServiceRequest) -> bool {
    req.headers().contains_key(header::UPGRADE)
}

/// A call as it reached this process.
struct Call {
    method: actix_web::http::Method,
    path: String,
    headers: header::HeaderMap,
    peer: Option<String>,
    body: web::Bytes,
}

impl Call {
    /// Sends the call to the process at `addr` (`host:port`); its answer as a response.
    async fn send(&self, addr: &str, me: &str) -> Result<HttpResponse, String> {
        let url = format!("http://{addr}{}", self.path);
        let mut request = CLIENT.with(|c| c.request(self.method.clone(), url));
        let skip = [header::HOST, header::CONTENT_LENGTH, header::CONNECTION, header::TRANSFER_ENCODING];
        let xff = HeaderName::from_static("x-forwarded-for");
        for (name, value) in self.headers.iter() {
            if skip.contains(name) || name == xff {
                continue;
            }
            request = request.insert_header((name.clone(), value.clone()));
        }
        // the client's address as this process saw it, after what the front door said
        let before = self.headers.get(&xff).and_then(|v| v.to_str().ok());
        let chain = match (before, &self.peer) {
            (Some(b), Some(p)) => Some(format!("{b}, {p}")),
            (None, Some(p)) => Some(p.clone()),
            (Some(b), None) => Some(b.to_owned()),
            (None, None) => None,
        };
        if let Some(chain) = chain {
            request = request.insert_header((xff, chain));
        }
        request = request.insert_header((FORWARDED_HEADER, me));
        let mut answer = request.send_body(self.body.clone()).await.map_err(|e| e.to_string())?;
        let body = answer.body().limit(16 * 1024 * 1024).await.map_err(|e| e.to_string())?;
        let mut out = HttpResponse::build(answer.status());
        for (name, value) in answer.headers().iter() {
            if [header::CONTENT_LENGTH, header::CONNECTION, header::TRANSFER_ENCODING].contains(name) {
                continue;
            }
            out.append_header((name.clone(), value.clone()));
        }
        Ok(out.body(body))
    }
}
