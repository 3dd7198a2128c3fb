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
//! - `routes`: one file per area (passport, catalogue, game, ws, host, covers, room, mike, control,
//!   moderation, assets, commerce, dev, dev_pay, uc and the sandbox account centre's dev_uc), and
//!   `static_files`
//!   (the built frontend: precompressed, cached, and the envelope for unknown `/api` paths).
//! - `openapi`: the OpenAPI document generated from the handlers and types, `/api/openapi.json`.
//! - `observe`: the Prometheus recorder and the per-route request metrics.
//! - `security`: the security headers of every response and the request-body deadline.
//! - `proto`: types generated from `proto/yoo.proto`.
//! - `room_wire`: the room frames (ROOM_EVENTS, ROOM_RESET), each batch encoded once for every
//!   watching socket.

pub mod auth;
pub mod config;
pub mod dto;
pub mod envelope;
pub mod observe;
pub mod openapi;
pub mod room_wire;
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
use utoipa_actix_web::AppExt;

use crate::config::{Mode, ServerConfig};
use crate::envelope::ApiError;

/// What every handler shares.
pub struct AppState {
    pub platform: Platform,
    pub mode: Mode,
    pub frontend_dir: PathBuf,
    /// Site origins, cookie flags, the CSP, the body deadline.
    pub security: security::Policy,
    /// The customer service's address (`social/kf`).
    pub service_url: String,
    /// The operator token's SHA-256 (hex, lower case), if operators may act (`routes::accounts`).
    pub operator_token_sha256: Option<String>,
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
    config.check()?;
    if config.mode == Mode::Production {
        return Err(
            "production mode needs real SMS, payment, captcha and account-centre providers; this build has only the sandbox ones, which run in dev mode"
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
    platform.rooms.set_room_wire(std::sync::Arc::new(room_wire::ProtoRoomWire));
    let state = web::Data::new(AppState {
        platform: platform.clone(),
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
    let clock = state.platform.clock();
    let server = HttpServer::new(move || {
        // runs on each worker thread: its envelopes' `ts` is the platform's time
        envelope::use_clock(clock);
        let mut app = App::new()
            .app_data(state.clone())
            .app_data(web::Data::new(prometheus.clone()))
            .app_data(document.clone())
            .app_data(
                web::JsonConfig::default()
                    .limit(64 * 1024)
                    .error_handler(|e, _| envelope::json_refusal(&e).into()),
            )
            .app_data(web::QueryConfig::default().error_handler(|_, _| ApiError::bad_request().into()))
            .app_data(web::FormConfig::default().error_handler(|_, _| ApiError::bad_request().into()))
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
            .wrap(actix_web::middleware::from_fn(envelope::method_not_allowed))
            .wrap(security::Security)
            .into_utoipa_app()
            .configure(routes);
        if state.mode == Mode::Dev {
            app = app.configure(routes::dev::routes).configure(routes::dev_pay::routes);
        }
        app.into_app().default_service(web::to(routes::static_files::fallback))
    })
    .workers(config.workers.max(1))
    .shutdown_timeout(3)
    .bind(config.bind)
    .map_err(|e| format!("cannot bind {}: {e}", config.bind))?;
    let addr = server.addrs().first().copied().ok_or("no address bound")?;
    if let Some(sandbox) = platform.commerce.sandbox_pay() {
        sandbox.set_transport(routes::dev_pay::LoopbackNotices::new(addr));
    }
    if let Some(sandbox) = platform.accounts.uc_sandbox() {
        sandbox.set_transport(routes::dev_uc::LoopbackUc::new(addr));
    }
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

/// The route table; each handler's path and method are on the handler (`#[get]`/`#[post]`),
/// and the OpenAPI document is collected from this same table (`openapi::document`).
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    use routes::{assets, catalogue, commerce, control, covers, game, host, mike, moderation, passport, room, ws};
    cfg.service(openapi::serve)
        .service(passport::send_code)
        .service(passport::login)
        .service(passport::logout)
        .service(passport::profile)
        .service(passport::fetch_token)
        .service(ws::echo)
        .service(catalogue::list)
        .service(catalogue::info)
        .service(catalogue::config_list)
        .service(catalogue::queue_rules)
        .service(game::select_node)
        .service(game::start)
        .service(game::change_game)
        .service(game::float_ball)
        .service(game::confirm_connect)
        .service(game::cancel_confirm)
        .service(game::cancel_queue)
        .service(game::over)
        .service(game::node_ping)
        .service(game::channel_size)
        .service(game::move_here)
        .service(game::stream_ticket)
        .service(game::quality_report)
        .service(game::history)
        .service(game::game_duration)
        .service(game::all_nodes)
        .service(room::params)
        .service(room::relay_check)
        .service(room::relay)
        .service(room::edit)
        .service(room::my_room)
        .service(room::login_relay_room)
        .service(room::login)
        .service(room::connection)
        .service(room::info)
        .service(room::user_info)
        .service(room::user_list)
        .service(room::exit)
        .service(room::live_detail)
        .service(room::relay_count)
        .service(room::list)
        .service(room::chat_send)
        .service(mike::list)
        .service(mike::up)
        .service(mike::up_or_down)
        .service(mike::invite)
        .service(mike::invite_accept)
        .service(mike::invite_refuse)
        .service(mike::operate)
        .service(mike::lock)
        .service(mike::lock_all)
        .service(mike::ban_message)
        .service(mike::req_action)
        .service(mike::req_list)
        .service(mike::req_clear)
        .service(mike::req_top)
        .service(mike::req_switch)
        .service(control::apply)
        .service(control::apply_list)
        .service(control::assign)
        .service(control::deny)
        .service(control::invite)
        .service(control::recycle)
        .service(control::invite_accept)
        .service(control::invite_refuse)
        .service(control::remand)
        .service(control::rotation)
        .service(moderation::kick)
        .service(moderation::report)
        .service(moderation::black_list)
        .service(moderation::black_add)
        .service(moderation::black_del)
        .service(host::link_socket)
        .service(assets::card_list)
        .service(assets::card_total)
        .service(assets::card_notice)
        .service(assets::card_give)
        .service(assets::card_activate)
        .service(assets::monthly_records)
        .service(assets::monthly_receive)
        .service(commerce::section_goods)
        .service(commerce::goods_item)
        .service(commerce::coupon_check)
        .service(commerce::submit)
        .service(commerce::qrcode)
        .service(commerce::polling)
        .service(commerce::payment_query)
        .service(commerce::balance)
        .service(commerce::orders)
        .service(commerce::notify)
        .service(covers::avatar)
        .service(covers::game_cover)
        .service(observe::serve_metrics)
        .service(observe::healthz)
        .service(routes::coupons::coupon_list)
        .service(routes::coupons::activity_item)
        .service(routes::coupons::activity_receive)
        .service(routes::coupons::activity_coupon_check)
        .service(routes::coupons::card_goods_total)
        .service(routes::activity::recharge_give)
        .service(routes::activity::lottery_list)
        .service(routes::activity::lottery_chance)
        .service(routes::activity::lottery_record)
        .service(routes::activity::invite)
        .service(routes::activity::invite_rule)
        .service(routes::activity::invite_record_list)
        .service(routes::member::member_info)
        .service(routes::member::member_privileges)
        .service(routes::member::member_playtime_receive)
        .service(routes::mission::sign_info)
        .service(routes::mission::sign_in)
        .service(routes::mission::content)
        .service(routes::mission::unfinished)
        .service(routes::mission::receive)
        .service(routes::mission::task_detail)
        .service(routes::mission::reward_config)
        .service(routes::package::night_play_info)
        .service(routes::package::night_play_all)
        .service(routes::package::config_content)
        .service(routes::package::game_package)
        .service(routes::package::game_package_item)
        .service(routes::package::available_cards)
        .service(routes::package::yoodo_rule)
        .service(routes::package::subscriptions)
        .service(routes::package::package_zone)
        .service(routes::exclusive::game_section)
        .service(routes::exclusive::exclusive_cards)
        .service(routes::live_bill::live_record);

    routes::qr_login::routes(cfg);
    routes::third_party::routes(cfg);
    routes::identity::routes(cfg);
    routes::agreements::routes(cfg);
    cfg.service(routes::accounts::ops_account);
    cfg.service(routes::ads::slots).service(routes::ads::ops_set_slot);
    cfg.service(routes::tips::start_tip)
        .service(routes::tips::load_tip)
        .service(routes::tips::ops_set_tip)
        .service(routes::tips::ops_set_load_tips);
    routes::password::routes(cfg);
    routes::messages::routes(cfg);
    cfg.service(routes::catalogue::service).service(routes::catalogue::share_links);
    routes::collect::routes(cfg);
    routes::merchant::routes(cfg);
    routes::uc::routes(cfg);
}

impl proto::Notification {
    /// Decodes a notification from an envelope's content (tests and tools).
    pub fn decode_bytes(content: Vec<u8>) -> proto::Notification {
        <proto::Notification as prost::Message>::decode(content.as_slice()).unwrap_or_default()
    }
}
