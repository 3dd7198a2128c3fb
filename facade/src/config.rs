//! The server's configuration file (TOML; the dev defaults are `ops/dev.toml`).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

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
    #[serde(default)]
    pub game: GameSection,
    #[serde(default)]
    pub nodes: Vec<NodeConfig>,
    /// Settings of real outside providers (production mode).
    #[serde(default)]
    pub providers: Option<toml::Table>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GameSection {
    pub connect_countdown_secs: u64,
    pub connect_delay_ms: u64,
    pub rank_refresh_ms: u64,
    pub play_minute_ms: u64,
    pub register_gift_minutes: i64,
    pub subscription_games: Vec<i64>,
    pub sms_fail_numbers: Vec<String>,
}

impl Default for GameSection {
    fn default() -> Self {
        let d = DomainConfig::default();
        GameSection {
            connect_countdown_secs: d.connect_countdown_secs,
            connect_delay_ms: d.connect_delay_ms,
            rank_refresh_ms: d.rank_refresh_ms,
            play_minute_ms: d.play_minute_ms,
            register_gift_minutes: d.register_gift_minutes,
            subscription_games: d.subscription_games,
            sms_fail_numbers: d.sms_fail_numbers,
        }
    }
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

impl ServerConfig {
    pub fn load(path: &Path) -> Result<ServerConfig, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        ServerConfig::parse(&text)
    }

    pub fn parse(text: &str) -> Result<ServerConfig, String> {
        toml::from_str(text).map_err(|e| format!("bad configuration: {e}"))
    }

    /// The embedded dev defaults (the same as `ops/dev.toml`).
    pub fn dev_default() -> ServerConfig {
        ServerConfig::parse(include_str!("../../ops/dev.toml")).expect("ops/dev.toml parses")
    }

    pub fn domain(&self) -> DomainConfig {
        let nodes = if self.nodes.is_empty() { DomainConfig::default().nodes } else { self.nodes.clone() };
        DomainConfig {
            connect_countdown_secs: self.game.connect_countdown_secs,
            connect_delay_ms: self.game.connect_delay_ms,
            rank_refresh_ms: self.game.rank_refresh_ms,
            play_minute_ms: self.game.play_minute_ms,
            register_gift_minutes: self.game.register_gift_minutes,
            subscription_games: self.game.subscription_games.clone(),
            sms_fail_numbers: self.game.sms_fail_numbers.clone(),
            nodes,
        }
    }
}
