//! What every response and request goes through, whatever route serves it: the security
//! headers, and a deadline on reading a request's body.
//!
//! Headers: every response carries `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`,
//! `Referrer-Policy: same-origin` and the Content-Security-Policy (`script-src 'self'`: the
//! built app has no inline script; `frame-ancestors 'none'`; `connect-src` the page's own
//! origin, the WebSocket form of each site origin, and the game hosts' origins). They matter on HTML; on the rest they
//! cost nothing and keep the rule simple.
//!
//! Bodies: actix's `client_request_timeout` covers the request head only, so a client could
//! send a head and half a body and hold its connection (and a file descriptor) for ever. Before
//! the handler runs, the whole body is read under a deadline (`body_timeout_secs` from the
//! head) and at most [`MAX_BODY`] bytes; a body late or too large is answered at once in the
//! envelope (408 `40008`, 413 `40013`) with `Connection: close`, and the connection ends. A
//! request with an `Upgrade` header counts as one with a body (actix reads its body to the
//! connection's end). The WebSocket upgrades (`/echo`, `/api/host/link`), whose body is the socket, are left alone;
//! a handshake has no body, so one that comes with a body is refused (400) and cut.

use std::future::{ready, Ready};
use std::net::IpAddr;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{BodySize, EitherBody, MessageBody};
use actix_web::dev::{forward_ready, Payload, Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::ConnectionType;
use actix_web::web::{Bytes, BytesMut};
use actix_web::{Error, HttpMessage, ResponseError};
use futures_util::future::LocalBoxFuture;
use futures_util::StreamExt;

use crate::envelope::ApiError;

/// The WebSocket endpoints: the browser's socket and the game hosts' link.
const WEBSOCKET_PATHS: [&str; 2] = ["/echo", "/api/host/link"];

/// The largest request body read (the JSON bodies of the API are far smaller; the JSON
/// extractor's own limit is 64 KiB).
pub const MAX_BODY: usize = 256 * 1024;

/// The site's security settings, from the configuration.
#[derive(Debug, Clone)]
pub struct Policy {
    /// Origins (`scheme://host[:port]`) the site is served from; the first is the canonical one.
    pub site_origins: Vec<String>,
    /// Cookies carry `Secure` (the canonical site is HTTPS).
    pub secure_cookies: bool,
    /// How long a request body may take to arrive.
    pub body_timeout: Duration,
    /// Reverse proxies whose `X-Forwarded-For` is believed (`client_ip`).
    trusted_proxies: Vec<IpAddr>,
    csp: HeaderValue,
}

impl Policy {
    pub fn new(site_origins: Vec<String>, host_origins: &[String], body_timeout: Duration) -> Policy {
        let secure_cookies = site_origins.first().is_some_and(|o| o.starts_with("https://"));
        let mut connect = vec!["'self'".to_string()];
        for o in &site_origins {
            if let Some(rest) = o.strip_prefix("https://") {
                connect.push(format!("wss://{rest}"));
            } else if let Some(rest) = o.strip_prefix("http://") {
                connect.push(format!("ws://{rest}"));
            }
        }
        // The game hosts' streams and probes, which the page reaches directly. A source with a
        // character that would end the directive is left out.
        connect.extend(host_origins.iter().filter(|o| !o.contains([';', ',', ' ', '\'', '"'])).cloned());
        let csp = format!(
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; \
             font-src 'self' data:; connect-src {}; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
            connect.join(" ")
        );
        Policy {
            site_origins,
            secure_cookies,
            body_timeout,
            trusted_proxies: Vec::new(),
            csp: HeaderValue::from_str(&csp).unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'")),
        }
    }

    pub fn with_trusted_proxies(mut self, proxies: Vec<IpAddr>) -> Policy {
        self.trusted_proxies = proxies;
        self
    }

    /// The address a request is counted as coming from: the connection's peer, or, when the
    /// peer is a trusted proxy, the last address of `X-Forwarded-For` that is not a trusted
    /// proxy (each proxy appends the address it received from, so the ones before it are the
    /// client's own word and are not believed).
    pub fn client_ip(&self, peer: Option<IpAddr>, forwarded_for: &[&str]) -> Option<IpAddr> {
        let peer = peer?;
        if !self.trusted_proxies.contains(&peer) {
            return Some(peer);
        }
        let mut last = peer;
        for hop in forwarded_for.iter().rev().flat_map(|h| h.rsplit(',')) {
            let Ok(ip) = hop.trim().parse::<IpAddr>() else {
                // Garbage in the chain: the last address known good stands.
                return Some(last);
            };
            last = ip;
            if !self.trusted_proxies.contains(&ip) {
                return Some(ip);
            }
        }
        Some(last)
    }

    /// Whether a WebSocket upgrade's `Origin` may open a socket: one of the site origins, or
    /// the origin of the host the request was sent to (the page this server served). A missing
    /// `Origin` (a client that is not a browser: browsers always send it) is accepted.
    pub fn origin_allowed(&self, origin: Option<&str>, host: Option<&str>, scheme: &str) -> bool {
        let Some(origin) = origin else { return true };
        let origin = origin.trim_end_matches('/');
        self.site_origins
            .iter()
            .any(|o| o.trim_end_matches('/').eq_ignore_ascii_case(origin))
            || host.is_some_and(|h| origin.eq_ignore_ascii_case(&format!("{scheme}://{h}")))
    }
}

/// The middleware (`App::wrap(Security::new(policy))`): the body deadline, then the headers.
pub struct Security {
    policy: Rc<Policy>,
}

impl Security {
    /// The middleware of this policy (the one the app state holds).
    pub fn new(policy: Policy) -> Security {
        Security { policy: Rc::new(policy) }
    }
}

impl<S, B> Transform<S, ServiceRequest> for Security
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    S::Future: 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = Error;
    type Transform = SecurityMiddleware<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(SecurityMiddleware {
            service: Rc::new(service),
            policy: self.policy.clone(),
        }))
    }
}

pub struct SecurityMiddleware<S> {
    service: Rc<S>,
    policy: Rc<Policy>,
}

impl<S, B> Service<ServiceRequest> for SecurityMiddleware<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    S::Future: 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = Error;
    type Future = LocalBoxFuture<'static, Result<Self::Response, Self::Error>>;

    forward_ready!(service);

    fn call(&self, mut req: ServiceRequest) -> Self::Future {
        let (csp, timeout) = (self.policy.csp.clone(), self.policy.body_timeout);
        let service = self.service.clone();
        Box::pin(async move {
            // The WebSocket handshake has no body (its "body" is the socket); any other request
            // with a body, or with an `Upgrade` header (whose body runs to the connection's end),
            // is read first, under the deadline.
            let websocket = WEBSOCKET_PATHS.contains(&req.path()) && is_upgrade(&req);
            let refused = if websocket && has_body(&req) {
                Some((BodyError::Broken, req.take_payload()))
            } else if !websocket && (has_body(&req) || is_upgrade(&req)) {
                match read_body(req.take_payload(), timeout).await {
                    Ok(bytes) => {
                        req.set_payload(Payload::from(bytes));
                        None
                    }
                    Err(refused) => Some(refused),
                }
            } else {
                None
            };
            if let Some((e, payload)) = refused {
                tracing::info!(path = req.path(), reason = e.as_str(), "request body refused");
                let (req, _) = req.into_parts();
                let (res, body) = refusal(e).error_response().into_parts();
                let bytes = body.try_into_bytes().unwrap_or_default();
                // The unread body stays held (not dropped) until the answer is written: a
                // dropped one would be drained (a chunked body) instead of cut.
                let res = res.set_body(Held { bytes, _payload: payload }).map_into_boxed_body();
                let mut res = ServiceResponse::new(req, res).map_into_right_body();
                // What is left of the body is never read: the connection ends.
                res.response_mut().head_mut().set_connection_type(ConnectionType::Close);
                add_headers(&mut res, csp);
                return Ok(res);
            }
            let mut res = service.call(req).await?.map_into_left_body();
            add_headers(&mut res, csp);
            Ok(res)
        })
    }
}

fn has_body(req: &ServiceRequest) -> bool {
    let h = req.headers();
    h.contains_key(header::TRANSFER_ENCODING)
        || h.get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0")
}

fn is_upgrade(req: &ServiceRequest) -> bool {
    req.headers().contains_key(header::UPGRADE)
}

/// Why a body was not read.
enum BodyError {
    Late,
    TooLarge,
    Broken,
}

impl BodyError {
    fn as_str(&self) -> &'static str {
        match self {
            BodyError::Late => "late",
            BodyError::TooLarge => "too large",
            BodyError::Broken => "broken",
        }
    }
}

/// The whole body, or why not (with the payload, to be held until the refusal is written).
async fn read_body(mut payload: Payload, timeout: Duration) -> Result<Bytes, (BodyError, Payload)> {
    let read = async {
        let mut buf = BytesMut::new();
        while let Some(chunk) = payload.next().await {
            let chunk = chunk.map_err(|_| BodyError::Broken)?;
            if buf.len() + chunk.len() > MAX_BODY {
                return Err(BodyError::TooLarge);
            }
            buf.extend_from_slice(&chunk);
        }
        Ok(buf.freeze())
    };
    let r = tokio::time::timeout(timeout, read).await.unwrap_or(Err(BodyError::Late));
    r.map_err(|e| (e, payload))
}

/// A refusal's body that holds the request's unread payload until it is written, so that the
/// dispatcher closes the connection instead of reading the rest.
struct Held {
    bytes: Bytes,
    _payload: Payload,
}

impl MessageBody for Held {
    type Error = std::convert::Infallible;

    fn size(&self) -> BodySize {
        BodySize::Sized(self.bytes.len() as u64)
    }

    fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let this = self.get_mut();
        if this.bytes.is_empty() {
            Poll::Ready(None)
        } else {
            Poll::Ready(Some(Ok(std::mem::take(&mut this.bytes))))
        }
    }
}

fn refusal(e: BodyError) -> ApiError {
    match e {
        BodyError::Late => ApiError::body_timeout(),
        BodyError::TooLarge => ApiError::too_large(),
        BodyError::Broken => ApiError::bad_request(),
    }
}

/// The security headers. A handler that set its own framing policy keeps it (only the dev
/// sandbox's third-party authorize page does: the login dialog frames it, same origin).
fn add_headers<B>(res: &mut ServiceResponse<B>, csp: HeaderValue) {
    let h = res.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if !h.contains_key(header::X_FRAME_OPTIONS) {
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        h.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn the_client_address_believes_only_trusted_proxies() {
        let p = Policy::new(vec![], &[], Duration::from_secs(1)).with_trusted_proxies(vec![ip("10.0.0.1"), ip("10.0.0.2")]);
        // Straight from a client: its own X-Forwarded-For is ignored.
        assert_eq!(p.client_ip(Some(ip("203.0.113.9")), &["1.2.3.4"]), Some(ip("203.0.113.9")));
        // Through one proxy: the address the proxy received from.
        assert_eq!(p.client_ip(Some(ip("10.0.0.1")), &["203.0.113.9"]), Some(ip("203.0.113.9")));
        // A client that forged a chain: the proxy appended the real address last.
        assert_eq!(
            p.client_ip(Some(ip("10.0.0.1")), &["1.1.1.1, 2.2.2.2", "203.0.113.9"]),
            Some(ip("203.0.113.9"))
        );
        // Two proxies in a row: past both.
        assert_eq!(
            p.client_ip(Some(ip("10.0.0.1")), &["203.0.113.9, 10.0.0.2"]),
            Some(ip("203.0.113.9"))
        );
        // Garbage from a proxy chain: the last good address stands, never the garbage.
        assert_eq!(p.client_ip(Some(ip("10.0.0.1")), &["nonsense"]), Some(ip("10.0.0.1")));
        // A proxy that forwarded nothing: the proxy itself.
        assert_eq!(p.client_ip(Some(ip("10.0.0.1")), &[]), Some(ip("10.0.0.1")));
        // No trusted proxies configured: the peer, whatever the header says.
        let plain = Policy::new(vec![], &[], Duration::from_secs(1));
        assert_eq!(plain.client_ip(Some(ip("10.0.0.1")), &["203.0.113.9"]), Some(ip("10.0.0.1")));
    }

    // The page may connect to its site, the site's WebSocket and the game hosts' origins; a
    // source that would break out of the directive is left out.
    #[test]
    fn connect_src_lists_the_game_hosts() {
        let p = Policy::new(
            vec!["http://127.0.0.1:8080".into()],
            &["ws://127.0.0.1:*".into(), "http://h:1; script-src *".into()],
            Duration::from_secs(1),
        );
        let csp = p.csp.to_str().unwrap();
        assert!(csp.contains("connect-src 'self' ws://127.0.0.1:8080 ws://127.0.0.1:*;"), "{csp}");
        assert!(!csp.contains("script-src *"), "{csp}");
    }
}
