//! The host: its slots, its HTTP server and its link, started together by [`start`].

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use actix_web::{web, App, HttpServer};
use hostlink::{Hello, HostMsg, SlotReport, LINK_VERSION};
use tokio::sync::{mpsc, oneshot};

use crate::config::HostConfig;
use crate::slot::{self, PhaseCounts, Slot, SlotCmd, SlotDeps};

/// What the HTTP handlers and the link share.
pub struct Host {
    pub config: Arc<HostConfig>,
    slots: Vec<Arc<Slot>>,
    /// Where browsers open streams (`{stream_url}/stream`).
    pub stream_url: String,
    /// The node's latency probe.
    pub ping_url: String,
    /// Reports for the platform, sent by the link while it is up.
    events: mpsc::UnboundedSender<HostMsg>,
}

impl Host {
    pub fn slot(&self, index: u32) -> Option<&Arc<Slot>> {
        self.slots.get(index as usize)
    }

    pub fn slots(&self) -> &[Arc<Slot>] {
        &self.slots
    }

    pub fn reports(&self) -> Vec<SlotReport> {
        self.slots.iter().map(|s| s.report()).collect()
    }

    /// Queues a report for the platform.
    pub fn report(&self, msg: HostMsg) {
        let _ = self.events.send(msg);
    }

    /// The signed hello, with where every slot stands.
    pub fn hello(&self, now_ms: i64) -> Hello {
        let c = &self.config;
        Hello {
            version: LINK_VERSION,
            node_id: c.node_id,
            host: c.host.clone(),
            ts_ms: now_ms,
            mac: String::new(),
            stream_url: self.stream_url.clone(),
            ping_url: self.ping_url.clone(),
            games: c.games.keys().cloned().collect(),
            slots: self.reports(),
        }
        .sign(c.secret.as_bytes())
    }
}

/// A started host. [`Running::stop`] ends its games and displays; dropping it (or the runtime)
/// kills its child processes too.
pub struct Running {
    pub host: Arc<Host>,
    /// Where the HTTP server listens.
    pub addr: SocketAddr,
    server: actix_web::dev::ServerHandle,
    /// The link task (aborted on stop).
    link: tokio::task::JoinHandle<()>,
}

impl Running {
    pub async fn stop(self) {
        self.link.abort();
        self.server.stop(false).await;
        let mut waits = Vec::new();
        for s in self.host.slots() {
            let (tx, rx) = oneshot::channel();
            s.send(SlotCmd::Shutdown(tx));
            waits.push(rx);
        }
        for w in waits {
            let _ = w.await;
        }
    }
}

/// Starts the host on the current actix system: binds HTTP, starts every slot's display, then
/// links to the platform. `self_exe` is what games configured as `@self` run.
pub async fn start(config: HostConfig, self_exe: PathBuf) -> std::io::Result<Running> {
    crate::observe::prometheus();
    crate::capture::init().map_err(std::io::Error::other)?;
    let config = Arc::new(config);
    let listener = std::net::TcpListener::bind(&config.bind)?;
    let addr = listener.local_addr()?;
    let stream_url = config.public_url.clone().unwrap_or_else(|| format!("ws://{addr}"));
    let ping_url = format!(
        "{}/ping",
        stream_url.replacen("wss://", "https://", 1).replacen("ws://", "http://", 1)
    );
    let (events, events_rx) = mpsc::unbounded_channel();
    let phases = Arc::new(PhaseCounts::default());
    let mut slots = Vec::new();
    for i in 0..config.slots {
        crate::observe::register_slot(i);
        let deps = SlotDeps {
            config: config.clone(),
            events: events.clone(),
            phases: phases.clone(),
            self_exe: self_exe.clone(),
        };
        slots.push(slot::start(i, deps).await);
    }
    let host = Arc::new(Host {
        config,
        slots,
        stream_url,
        ping_url,
        events,
    });
    let data = web::Data::new(host.clone());
    let server = HttpServer::new(move || App::new().app_data(data.clone()).configure(crate::http::routes))
        .workers(1)
        .disable_signals()
        .listen(listener)?
        .run();
    let handle = server.handle();
    actix_rt::spawn(server);
    let link = actix_rt::spawn(crate::link::run(host.clone(), events_rx));
    tracing::info!(%addr, host = %host.config.host, node = host.config.node_id, slots = host.slots.len(), "game host up");
    Ok(Running {
        host,
        addr,
        server: handle,
        link,
    })
}
