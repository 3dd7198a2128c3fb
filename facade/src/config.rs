//! The server's configuration file (TOML; the dev defaults are `ops/dev.toml`).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use actors::passport::SmsLimits;
use actors::{DomainConfig, NodeConfig};
use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Sandbox providers and the dev-only endpoints.
    Dev,
    /// Real providers only; refuses to start without their settings.
    Production,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    pub mode: Mode,
    #[serde(default = "default_bind")]
    pub bind: SocketAddr,
    #[serde(default = "default_data_dir")]
    pub data_dir: PathBuf,
    /// The built frontend (`frontend/dist`); the server answers 404 for pages without it.
    #[serde(default = "default_frontend_dir")]
    pub frontend_dir: PathBuf,
    /// HTTP worker threads.
    #[serde(default = "default_workers")]
    pub workers: usize,
    /// The domain's settings (countdowns, refresh, play minute, gift, subscription games).
    #[serde(default)]
    pub game: DomainConfig,
    #[serde(default)]
    pub nodes: Vec<NodeConfig>,
    /// Settings of real outside providers (production mode).
    #[serde(default)]
    pub providers: Option<toml::Table>,
    /// The origins the site is served from (`scheme://host[:port]`), the canonical one first:
    /// cookies get `Secure` when it is `https`, the WebSocket accepts these origins (besides the
    /// page's own), the CSP lets the page connect to them.
    #[serde(default = "default_site_origins")]
    pub site_origins: Vec<String>,
    /// Seconds a request body may take to arrive after its head.
    #[serde(default = "default_body_timeout")]
    pub body_timeout_secs: u64,
    /// The reverse proxies in front of the server. A request from one of them is counted (for
    /// the per-address SMS limit) as coming from the last address in `X-Forwarded-For` that is
    /// not one of them; from anyone else the header is ignored, so a client cannot choose the
    /// address it is counted as. Empty (the default): the connection's peer counts.
    #[serde(default)]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The SMS limits (`actors::passport` module doc); 0 turns one off.
    #[serde(default)]
    pub sms: SmsLimits,
}

fn default_bind() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 8080))
}
fn default_data_dir() -> PathBuf {
    PathBuf::from("./data")
}
fn default_frontend_dir() -> PathBuf {
    PathBuf::from("frontend/dist")
}
fn default_workers() -> usize {
    2
}
/// The dev server (`make run`) under both its names, and the Vite dev server.
fn default_site_origins() -> Vec<String> {
    [
        "http://127.0.0.1:8080",
        "http://localhost:8080",
        "http://127.0.0.1:5173",
        "http://localhost:5173",
    ]
    .map(String::from)
    .to_vec()
}
fn default_body_timeout() -> u64 {
    10
}

impl ServerConfig {
    pub fn load(path: &Path) -> Result<ServerConfig, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        ServerConfig::parse(&text)
    }

    pub fn parse(text: &str) -> Result<ServerConfig, String> {
        toml::from_str(text).map_err(|e| format!("bad configuration: {e}"))
    }

    /// The embedded dev defaults (the same as `ops/dev.toml`), for `--dev`.
    pub fn dev_default() -> ServerConfig {
        ServerConfig::parse(include_str!("../../ops/dev.toml")).expect("ops/dev.toml parses")
    }

    pub fn domain(&self) -> DomainConfig {
        let nodes = if self.nodes.is_empty() {
            DomainConfig::default().nodes
        } else {
            self.nodes.clone()
        };
        DomainConfig {
            nodes,
            sms: self.sms.clone(),
            ..self.game.clone()
        }
    }
}
