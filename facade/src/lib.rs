//! HTTP and WebSocket: every path of the spec, the envelope, headers, CSRF, authentication, the
//! one place that maps errors to codes, the protobuf protocol, `/metrics` and the built frontend.
//! It holds no game state and decides no game rule: controllers validate, authenticate and
//! forward to the actors through [`actors::Platform`].
//!
//! Layout:
//!
//! - `config`: the server's TOML configuration (dev defaults in `ops/dev.toml`).
//! - `envelope`: `{code, message, data, ts}` and the mapping of every refusal to code and text.
//! - `auth`: session cookie, CSRF rule, login cookies.
//! - `dto`: the JSON shapes of API.md.
//! - `routes`: one file per area (passport, catalogue, game, ws, covers, dev), and `static_files`
//!   (the built frontend: precompressed, cached, and the envelope for unknown `/api` paths).
//! - `observe`: the Prometheus recorder and the per-route request metrics.
//! - `security`: the security headers of every response and the request-body deadline.
//! - `proto`: types generated from `proto/yoo.proto`.

pub mod auth;
pub mod config;
pub mod dto;
pub mod envelope;
pub mod observe;
pub mod routes;
pub mod security;

pub mod proto {
    //! The WebSocket protocol, generated from `proto/yoo.proto`.
    include!(concat!(env!("OUT_DIR"), "/yoo.v1.rs"));
}

use std::net::SocketAddr;
use std::path::PathBuf;

use actix_web::dev::{ServerHandle, Service};
use actix_web::{web, App, HttpServer};
use actors::Platform;

use crate::config::{Mode, ServerConfig};
use crate::envelope::ApiError;

/// What every handler shares.
pub struct AppState {
    pub platform: Platform,
    pub mode: Mode,
    pub frontend_dir: PathBuf,
    /// Site origins, cookie flags, the CSP, the body deadline.
    pub security: security::Policy,
}

/// A started server.
pub struct Running {
    pub addr: SocketAddr,
    pub handle: ServerHandle,
    pub platform: Platform,
    /// Resolves when the server has stopped.
    pub done: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// Opens storage, starts the domain and binds the HTTP server. Production mode refuses to start
/// without real provider settings: no sandbox provider exists there.
pub async fn start(config: ServerConfig) -> Result<Running, String> {
    if config.mode == Mode::Production {
        return Err(
            "production mode needs real SMS, payment and captcha providers; this build has only the sandbox ones, which run in dev mode"
                .into(),
        );
    }
    let prometheus = observe::prometheus().clone();
    let dir = config.data_dir.clone();
    let store = tokio::task::spawn_blocking(move || storage::Store::open_sqlite(&dir))
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| format!("cannot open the database in {}: {e}", config.data_dir.display()))?;
    let platform = Platform::start(store, config.domain()).await?;
    let state = web::Data::new(AppState {
        platform: platform.clone(),
        mode: config.mode,
        frontend_dir: config.frontend_dir.clone(),
        security: security::Policy::new(
            config.site_origins.clone(),
            std::time::Duration::from_secs(config.body_timeout_secs.max(1)),
        ),
    });
    let server = HttpServer::new(move || {
        let mut app = App::new()
            .app_data(state.clone())
            .app_data(web::Data::new(prometheus.clone()))
            .app_data(
                web::JsonConfig::default()
                    .limit(64 * 1024)
                    .error_handler(|_, _| ApiError::bad_request().into()),
            )
            .app_data(web::QueryConfig::default().error_handler(|_, _| ApiError::bad_request().into()))
            .app_data(web::PathConfig::default().error_handler(|_, _| ApiError::bad_request().into()))
            .wrap_fn(|req, srv| {
                let started = std::time::Instant::now();
                let fut = srv.call(req);
                async move {
                    let res = fut.await?;
                    observe::record_request(&res, started.elapsed());
                    Ok(res)
                }
            })
            .wrap(security::Security)
            .configure(routes);
        if state.mode == Mode::Dev {
            app = app
                .route("/api/dev/sms/outbox", web::get().to(routes::dev::sms_outbox))
                .route("/api/dev/grant", web::post().to(routes::assets::dev_grant));
        }
        app.default_service(web::to(routes::static_files::fallback))
    })
    .workers(config.workers.max(1))
    .shutdown_timeout(3)
    .bind(config.bind)
    .map_err(|e| format!("cannot bind {}: {e}", config.bind))?;
    let addr = server.addrs().first().copied().ok_or("no address bound")?;
    let server = server.run();
    let handle = server.handle();
    let done = tokio::spawn(server);
    Ok(Running {
        addr,
        handle,
        platform,
        done,
    })
}

fn routes(cfg: &mut web::ServiceConfig) {
    use routes::{assets, catalogue, covers, game, passport, ws};
    cfg.route("/api/passport/login/sendcode", web::post().to(passport::send_code))
        .route("/api/passport/login", web::post().to(passport::login))
        .route("/api/user/logout", web::post().to(passport::logout))
        .route("/api/user/profile", web::get().to(passport::profile))
        .route("/api/fetchToken", web::get().to(passport::fetch_token))
        .route("/echo", web::get().to(ws::echo))
        .route("/api/web/v1/game/list", web::get().to(catalogue::list))
        .route("/api/japi/yoo/game/info", web::post().to(catalogue::info))
        .route("/api/japi/yoo/common/config/list", web::post().to(catalogue::config_list))
        .route("/api/japi/yoo/game/selectNode", web::post().to(game::select_node))
        .route("/api/japi/yoo/game/start", web::post().to(game::start))
        .route("/api/japi/yoo/game/changeGame", web::post().to(game::change_game))
        .route("/api/japi/yoo/game/floatBall", web::post().to(game::float_ball))
        .route("/api/japi/yoo/game/confirmConnect", web::post().to(game::confirm_connect))
        .route("/api/japi/yoo/game/cancelConfirm", web::post().to(game::cancel_confirm))
        .route("/api/japi/yoo/game/cancelQue", web::post().to(game::cancel_queue))
        .route("/api/japi/yoo/game/over", web::post().to(game::over))
        .route("/api/node/{id}/ping", web::get().to(game::node_ping))
        .route("/api/japi/yoo/game/gameChannelSize", web::post().to(game::channel_size))
        .route("/api/japi/yoo/game/move", web::post().to(game::move_here))
        .route("/api/v3/user/card/list", web::get().to(assets::card_list))
        .route("/api/v3/user/card/activate", web::post().to(assets::card_activate))
        .route("/api/member/fast_enter/monthly_records", web::get().to(assets::monthly_records))
        .route("/api/member/fast_enter/receive", web::get().to(assets::monthly_receive))
        .route("/covers/avatar/{file}", web::get().to(covers::avatar))
        .route("/covers/{id}/{file}", web::get().to(covers::game_cover))
        .route("/metrics", web::get().to(observe::metrics))
        .route("/healthz", web::get().to(observe::healthz));
}

impl proto::Notification {
    /// Decodes a notification from an envelope's content (tests and tools).
    pub fn decode_bytes(content: Vec<u8>) -> proto::Notification {
        <proto::Notification as prost::Message>::decode(content.as_slice()).unwrap_or_default()
    }
}
