//! HTTP and WebSocket: every path of the spec, the envelope, headers, CSRF, authentication, the
//! one place that maps errors to codes, the protobuf protocol, `/metrics` and the built frontend.
//! It holds no game state and decides no game rule: controllers validate, authenticate and
//! forward to the actors through [`actors::Platform`].
//!
//! Layout (the imports run downwards: the assembly imports the routes, the routes the shared
//! modules; none imports the assembly):
//!
//! - The assembly: this file (`start`: storage, the domain, the app) and `openapi` (the OpenAPI
//!   document collected from the route table, `/api/openapi.json`, and the 405 it answers from).
//! - `routes`: the route table (`routes::table`) and the feature folders that mirror the
//!   domain's (accounts, identity, play, rooms, commerce, activity, catalogue, messages), each
//!   with its handlers, its JSON shapes (`dto.rs`) and its `routes` / `dev_routes`; above them the
//!   socket (`ws`), the site's config groups (`site`) and the built frontend (`static_files`).
//! - Shared by the routes: `state` (`AppState`), `auth` (session cookie, CSRF rule, login
//!   cookies, the operator guard), `envelope` (`{code, message, data, ts}` and the mapping of
//!   every refusal to code and text), `dto` (the shapes every feature shares: ids, flags, the
//!   empty body), `sandbox` (the dev sandboxes' pages and loopback), `config` (the TOML
//!   configuration, dev defaults in `ops/dev.toml`), `security` (the security headers and the
//!   request-body deadline), `observe` (the Prometheus recorder and the per-route metrics),
//!   `proto` (types generated from `proto/yoo.proto`) and `joined` (this process's part in a
//!   cluster: membership, the broadcast of ended logins).

pub mod auth;
pub mod config;
pub mod dto;
pub mod envelope;
pub mod joined;
pub mod observe;
pub mod openapi;
pub mod proto;
pub mod routes;
pub mod sandbox;
pub mod security;
pub mod state;

pub use state::AppState;

use std::net::SocketAddr;

use actix_web::dev::{ServerHandle, Service};
use actix_web::{web, App, HttpServer};
use actors::Platform;
use utoipa_actix_web::AppExt;

use crate::config::{Mode, ServerConfig};
use crate::envelope::ApiError;

/// A started server.
pub struct Running {
    pub addr: SocketAddr,
    pub handle: ServerHandle,
    pub platform: Platform,
    /// Resolves when the server has stopped.
    pub done: tokio::task::JoinHandle<std::io::Result<()>>,
    /// This process's part in its cluster (`[cluster]`), kept while it runs.
    pub cluster: Option<std::sync::Arc<joined::Joined>>,
}

/// What every worker's app is built from: the shared state, the OpenAPI document and the
/// Prometheus handle.
#[derive(Clone)]
struct Parts {
    state: web::Data<AppState>,
    document: web::Data<openapi::Document>,
    prometheus: metrics_exporter_prometheus::PrometheusHandle,
    /// The cluster, once joined (`[cluster]`): the calls forwarded to their owners read it.
    cluster: web::Data<joined::forward::ClusterSlot>,
    /// The pushes across processes (`[cluster]`), given to the cluster when it is joined.
    bus: Option<std::sync::Arc<joined::bus::ClusterBus>>,
}

/// Checks the configuration, opens storage and starts the domain: everything but the socket.
async fn assemble(config: &ServerConfig) -> Result<Parts, String> {
    config.check()?;
    if config.mode == Mode::Production {
        return Err(
            "production mode needs real SMS, payment, captcha and account-centre providers; this build has only the sandbox ones, which run in dev mode"
                .into(),
        );
    }
    // the recorder is installed before the domain starts: its gauges are set as it starts
    let prometheus = observe::prometheus().clone();
    let at = config.store_at()?;
    let store = {
        let at = at.clone();
        tokio::task::spawn_blocking(move || at.open())
    }
    .await
    .map_err(|e| e.to_string())?
    .map_err(|e| format!("cannot open the database {at}: {e}"))?;
    let bus = match &config.cluster {
        Some(c) => Some(joined::bus::ClusterBus::start(&c.config(config.bind))?),
        None => None,
    };
    let platform = match &bus {
        Some(bus) => Platform::start_on_bus(store, config.domain(), bus.clone()).await?,
        None => Platform::start(store, config.domain()).await?,
    };
    platform
        .rooms
        .set_room_wire(std::sync::Arc::new(routes::rooms::wire::ProtoRoomWire));
    let state = web::Data::new(AppState {
        platform,
        mode: config.mode,
        frontend_dir: config.frontend_dir.clone(),
        security: security::Policy::new(
            config.site_origins.clone(),
            &config.host_origins,
            std::time::Duration::from_secs(config.body_timeout_secs.max(1)),
        )
        .with_trusted_proxies(config.trusted_proxies.clone()),
        service_url: config.service_url.clone(),
        operator_token_sha256: config.operator_token_sha256.as_ref().map(|h| h.to_ascii_lowercase()),
    });
    let document = web::Data::new(openapi::Document::new(&openapi::document(config.mode == Mode::Dev))?);
    Ok(Parts {
        state,
        document,
        prometheus,
        cluster: web::Data::new(joined::forward::ClusterSlot::new()),
        bus,
    })
}

/// The app one worker serves (the server's and the in-process tests' alike).
fn app(
    parts: Parts,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    // runs on each worker thread: its envelopes' `ts` is the platform's time
    envelope::use_clock(parts.state.platform.clock());
    let mode = parts.state.mode;
    let security = parts.state.security.clone();
    let mut app = App::new()
        .app_data(parts.state)
        .app_data(web::Data::new(parts.prometheus))
        .app_data(parts.document)
        .app_data(parts.cluster)
        .app_data(
            web::JsonConfig::default()
                .limit(64 * 1024)
                .error_handler(|e, _| envelope::json_refusal(&e).into()),
        )
        .app_data(web::QueryConfig::default().error_handler(|_, _| ApiError::bad_request().into()))
        .app_data(web::FormConfig::default().error_handler(|_, _| ApiError::bad_request().into()))
        .app_data(web::PathConfig::default().error_handler(|_, _| ApiError::bad_request().into()))
        .wrap(actix_web::middleware::from_fn(joined::forward::forward))
        .wrap_fn(|req, srv| {
            let started = std::time::Instant::now();
            let fut = srv.call(req);
            async move {
                let res = fut.await?;
                observe::record_request(&res, started.elapsed());
                Ok(res)
            }
        })
        .wrap(actix_web::middleware::from_fn(openapi::method_not_allowed))
        .wrap(security::Security::new(security))
        .into_utoipa_app()
        .service(openapi::serve)
        .configure(routes::table);
    if mode == Mode::Dev {
        app = app.configure(routes::dev_table).configure(routes::dev_pages);
    }
    app.into_app().default_service(web::to(routes::static_files::fallback))
}

/// Opens storage, starts the domain and binds the HTTP server. Production mode refuses to start
/// without real provider settings: no sandbox provider exists there.
pub async fn start(config: ServerConfig) -> Result<Running, String> {
    let parts = assemble(&config).await?;
    let platform = parts.state.platform.clone();
    let worker_parts = parts.clone();
    let server = HttpServer::new(move || app(worker_parts.clone()))
        .workers(config.workers.max(1))
        .shutdown_timeout(3)
        .bind(config.bind)
        .map_err(|e| format!("cannot bind {}: {e}", config.bind))?;
    let addr = server.addrs().first().copied().ok_or("no address bound")?;
    if let Some(sandbox) = platform.commerce.sandbox_pay() {
        sandbox.set_transport(routes::commerce::dev_pay::LoopbackNotices::new(addr));
    }
    if let Some(sandbox) = platform.accounts.uc_sandbox() {
        sandbox.set_transport(routes::accounts::dev_uc::LoopbackUc::new(addr));
    }
    let cluster = match (&config.cluster, &parts.bus) {
        (Some(c), Some(bus)) => {
            // node queues are owned by one process each; rooms are not yet (issue 24 goes on)
            tracing::warn!(process = %c.process_id, "[cluster]: every process still runs every room");
            let joined = std::sync::Arc::new(joined::Joined::join(&c.config(addr), &platform, bus.clone()).await?);
            let _ = parts.cluster.set(joined.clone());
            Some(joined)
        }
        _ => None,
    };
    let server = server.run();
    let handle = server.handle();
    let done = tokio::spawn(server);
    Ok(Running {
        addr,
        handle,
        platform,
        done,
        cluster,
    })
}

/// The same platform and app as [`start`], served in this thread without a socket: requests go
/// through `call` (actix's test service), so a test may pause tokio's clock and still speak HTTP.
/// The sandboxes that call the site back over loopback (payment notices, the account centre)
/// have no address to call here: tests of those use [`start`].
pub struct InProcess {
    pub platform: Platform,
    service: std::rc::Rc<dyn Fn(actix_http::Request) -> InProcessReply>,
}

type InProcessReply =
    std::pin::Pin<Box<dyn std::future::Future<Output = (actix_web::http::StatusCode, actix_web::http::header::HeaderMap, web::Bytes)>>>;

impl InProcess {
    pub async fn start(config: ServerConfig) -> Result<InProcess, String> {
        let parts = assemble(&config).await?;
        let platform = parts.state.platform.clone();
        let service = std::rc::Rc::new(actix_web::test::init_service(app(parts)).await);
        Ok(InProcess {
            platform,
            service: std::rc::Rc::new(move |req| {
                let service = service.clone();
                Box::pin(async move {
                    let res = match service.call(req).await {
                        Ok(res) => res.map_into_boxed_body(),
                        Err(e) => actix_web::dev::ServiceResponse::from_err(e, actix_web::test::TestRequest::default().to_http_request())
                            .map_into_boxed_body(),
                    };
                    let (status, headers) = (res.status(), res.headers().clone());
                    let body = actix_web::body::to_bytes(res.into_body()).await.unwrap_or_default();
                    (status, headers, body)
                })
            }),
        })
    }

    /// Serves one request (built with `actix_web::test::TestRequest`): status, headers, body.
    pub async fn call(&self, req: actix_http::Request) -> (actix_web::http::StatusCode, actix_web::http::header::HeaderMap, web::Bytes) {
        (self.service)(req).await
    }
}

impl proto::Notification {
    /// Decodes a notification from an envelope's content (tests and tools).
    pub fn decode_bytes(content: Vec<u8>) -> proto::Notification {
        <proto::Notification as prost::Message>::decode(content.as_slice()).unwrap_or_default()
    }
}
