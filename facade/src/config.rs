//! The server's configuration file (TOML; the dev defaults are `ops/dev.toml`).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use actors::accounts::passport::SmsLimits;
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
    /// The SQLite store's directory (`storage.kind = "sqlite"`, the default).
    #[serde(default = "default_data_dir")]
    pub data_dir: PathBuf,
    /// Which store: the embedded SQLite file in `data_dir` (one process), or PostgreSQL (shared
    /// by several processes and machines).
    #[serde(default)]
    pub storage: StorageConfig,
    /// Several processes as one site (`../shared/CLUSTER.md`): where the cluster's Redis is and
    /// who this process is. Absent (the default, `make run`): one process, no Redis.
    #[serde(default)]
    pub cluster: Option<ClusterSection>,
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
    /// The customer service's address (`social/kf`'s `kfUrl`, core-platform.md §7.6): the
    /// service centre's '联系客服' opens it.
    #[serde(default = "default_service_url")]
    pub service_url: String,
    /// The SHA-256 (hex) of the operator token that `POST /api/ops/account` and the
    /// `yoo-server account` command carry (`x-operator-token`); none: the operator route refuses.
    #[serde(default)]
    pub operator_token_sha256: Option<String>,
    /// Where the page may connect besides the site (CSP `connect-src` sources): the game hosts'
    /// stream endpoints and latency probes, which browsers reach directly. The default allows
    /// hosts on this machine at any port.
    #[serde(default = "default_host_origins")]
    pub host_origins: Vec<String>,
    /// The SMS limits (`actors::accounts::passport` module doc); 0 turns one off.
    #[serde(default)]
    pub sms: SmsLimits,
    /// Live rooms' timings and limits (`actors::config::RoomsConfig`: rotation turn, batching,
    /// reconnect window, apply-control times, kick time, password tries, chat length).
    #[serde(default)]
    pub rooms: actors::config::RoomsConfig,
    /// Orders, QR polling and the sandbox payment provider (`actors::config::PaymentConfig`:
    /// order and QR lifetimes, the poll's wait, the sandbox's signing key and delivery).
    #[serde(default)]
    pub payment: actors::config::PaymentConfig,
    /// Real-name certification and minors (`actors::config::IdentityConfig`: the sealing key,
    /// the pre-check's answer, whether play needs it, the holidays, the sandbox's mismatches).
    #[serde(default)]
    pub identity: actors::config::IdentityConfig,
    /// The external account centre (`actors::config::AccountCentreConfig`: the shared secret,
    /// the agent login's lifetime, the agent-login page).
    #[serde(default)]
    pub account_centre: actors::config::AccountCentreConfig,
}

/// `[storage]`: the store's kind, and PostgreSQL's address and pool.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageConfig {
    #[serde(default)]
    pub kind: StorageKind,
    /// PostgreSQL's `postgres://user[:password]@host:port/database`.
    #[serde(default)]
    pub url: Option<String>,
    /// PostgreSQL connections this process keeps at most.
    #[serde(default = "default_pool_size")]
    pub pool_size: usize,
}

impl Default for StorageConfig {
    fn default() -> StorageConfig {
        StorageConfig {
            kind: StorageKind::default(),
            url: None,
            pool_size: default_pool_size(),
        }
    }
}

/// `[cluster]`: this process in a cluster of several on one Redis and one PostgreSQL store.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterSection {
    /// `redis://host:port/db`
    pub redis_url: String,
    /// This process's name, unique in the cluster (no `:`).
    pub process_id: String,
    /// Where the other processes reach this one; by default the address it is bound to.
    #[serde(default)]
    pub advertise: Option<String>,
    /// Prefix of the cluster's Redis keys.
    #[serde(default = "default_cluster_prefix")]
    pub prefix: String,
    /// How long a lease and a heartbeat last unrenewed (renewed every third of it).
    #[serde(default = "default_lease_ttl_ms")]
    pub lease_ttl_ms: u64,
}

fn default_cluster_prefix() -> String {
    "yoo".into()
}
fn default_lease_ttl_ms() -> u64 {
    cluster::ClusterConfig::TTL.as_millis() as u64
}

impl ClusterSection {
    /// The cluster's settings for this process, bound at `bound`.
    pub fn config(&self, bound: SocketAddr) -> cluster::ClusterConfig {
        cluster::ClusterConfig {
            prefix: self.prefix.clone(),
            ttl: std::time::Duration::from_millis(self.lease_ttl_ms),
            ..cluster::ClusterConfig::new(
                &self.redis_url,
                &self.process_id,
                &self.advertise.clone().unwrap_or_else(|| bound.to_string()),
            )
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StorageKind {
    #[default]
    Sqlite,
    Postgres,
}

fn default_pool_size() -> usize {
    16
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
fn default_service_url() -> String {
    "mailto:kefu@yoo.example.com".into()
}
fn default_body_timeout() -> u64 {
    10
}
/// Game hosts on this machine (the dev setup): their streams and probes, any port.
fn default_host_origins() -> Vec<String> {
    ["ws://127.0.0.1:*", "http://127.0.0.1:*", "ws://localhost:*", "http://localhost:*"]
        .map(String::from)
        .to_vec()
}

/// The shortest host secret production accepts (a dev secret may be anything).
pub const MIN_HOST_SECRET: usize = 16;

impl ServerConfig {
    pub fn load(path: &Path) -> Result<ServerConfig, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        ServerConfig::parse(&text)
    }

    pub fn parse(text: &str) -> Result<ServerConfig, String> {
        toml::from_str(text).map_err(|e| format!("bad configuration: {e}"))
    }

    /// Where the store is, as `[storage]` and `data_dir` say.
    pub fn store_at(&self) -> Result<storage::StoreAt, String> {
        match self.storage.kind {
            StorageKind::Sqlite => Ok(storage::StoreAt::Sqlite(self.data_dir.clone())),
            StorageKind::Postgres => {
                let url = self.storage.url.clone().ok_or("[storage] kind = \"postgres\" needs its url")?;
                if self.storage.pool_size == 0 {
                    return Err("[storage] pool_size must be at least 1".into());
                }
                Ok(storage::StoreAt::Postgres {
                    url,
                    pool_size: self.storage.pool_size,
                })
            }
        }
    }

    /// The embedded dev defaults (the same as `ops/dev.toml`), for `--dev`.
    pub fn dev_default() -> ServerConfig {
        ServerConfig::parse(include_str!("../../ops/dev.toml")).expect("ops/dev.toml parses")
    }

    /// Refuses a configuration the server cannot run: a node whose host secret is empty, and in
    /// production a node with neither static machines nor a host secret (no machine could ever
    /// serve it) or with a secret shorter than [`MIN_HOST_SECRET`].
    pub fn check(&self) -> Result<(), String> {
        self.store_at()?;
        if let Some(c) = &self.cluster {
            if self.storage.kind != StorageKind::Postgres {
                return Err("[cluster] needs the store its processes share: [storage] kind = \"postgres\"".into());
            }
            c.config(self.bind).check()?;
        }
        if let Some(h) = &self.operator_token_sha256 {
            if h.len() != 64 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err("operator_token_sha256 must be 64 hex digits (the SHA-256 of the operator token)".into());
            }
        }
        for n in &self.domain().nodes {
            let secret = n.host_secret.as_deref();
            if secret.is_some_and(str::is_empty) {
                return Err(format!("node {} has an empty host_secret", n.id));
            }
            if self.mode == Mode::Production {
                if n.machines.is_empty() && secret.is_none() {
                    return Err(format!(
                        "node {} has neither machines nor a host_secret: no game host could link its machines",
                        n.id
                    ));
                }
                if secret.is_some_and(|s| s.len() < MIN_HOST_SECRET) {
                    return Err(format!("node {}'s host_secret is shorter than {MIN_HOST_SECRET} characters", n.id));
                }
            }
        }
        if self.identity.key().is_none() {
            return Err("[identity] key_hex must be 64 hex characters".into());
        }
        if !["pass", "confirm", "deny"].contains(&self.identity.pre_check.as_str()) {
            return Err("[identity] pre_check must be pass, confirm or deny".into());
        }
        if self.mode == Mode::Production && self.identity.key_hex == actors::config::IdentityConfig::default().key_hex {
            return Err("production needs its own [identity] key_hex".into());
        }
        if self.mode == Mode::Production && self.game.clock_start_ms != 0 {
            return Err("production runs on the real time: [game] clock_start_ms is for dev and tests".into());
        }
        if self.account_centre.secret.is_empty() || self.account_centre.login_ttl_secs == 0 {
            return Err("[account_centre] needs a secret and a login_ttl_secs above 0".into());
        }
        if self.mode == Mode::Production && self.account_centre.secret == actors::config::AccountCentreConfig::default().secret {
            return Err("production needs its own [account_centre] secret".into());
        }
        Ok(())
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
            rooms: self.rooms.clone(),
            payment: self.payment.clone(),
            identity: self.identity.clone(),
            account_centre: self.account_centre.clone(),
            leased: self.cluster.is_some(),
            ..self.game.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A configuration of `mode` with these nodes (and an identity key of its own).
    fn with_nodes(mode: &str, nodes: &str) -> ServerConfig {
        ServerConfig::parse(&format!(
            "mode = \"{mode}\"\n[account_centre]\nsecret = \"{}\"\n[identity]\nkey_hex = \"{}\"\n{nodes}",
            "cd".repeat(16),
            "ab".repeat(32)
        ))
        .unwrap()
    }

    // The identity section: a 64-hex key, a known pre-check; production needs its own key and
    // the real time.
    // The operator token's hash must be a SHA-256 in hex, or the server does not start.
    #[test]
    fn the_operator_token_hash_is_checked() {
        let with = |h: &str| ServerConfig::parse(&format!("mode = \"dev\"\noperator_token_sha256 = \"{h}\"\n")).unwrap();
        assert!(with(&"ab".repeat(32)).check().is_ok());
        for bad in ["", "abc", &"zz".repeat(32), &"ab".repeat(33)] {
            assert!(with(bad).check().is_err(), "{bad}");
        }
    }

    // [cluster]: on the shared store only, a process id without ':', a Redis URL; the
    // advertised address defaults to the bound one.
    #[test]
    fn the_cluster_section_is_checked() {
        let parse = |t: &str| ServerConfig::parse(&format!("mode = \"dev\"\nbind = \"127.0.0.1:8081\"\n{t}")).unwrap();
        let pg = "[storage]\nkind = \"postgres\"\nurl = \"postgres://postgres@127.0.0.1:5432/yoo\"\n";
        let ok = parse(&format!(
            "{pg}[cluster]\nredis_url = \"redis://127.0.0.1:6379/\"\nprocess_id = \"p1\"\n"
        ));
        assert_eq!(ok.check(), Ok(()));
        let c = ok.cluster.as_ref().unwrap().config(ok.bind);
        assert_eq!(
            (c.advertise.as_str(), c.prefix.as_str(), c.ttl.as_millis()),
            ("127.0.0.1:8081", "yoo", 3_000)
        );
        assert!(parse("[cluster]\nredis_url = \"redis://127.0.0.1:6379/\"\nprocess_id = \"p1\"\n")
            .check()
            .unwrap_err()
            .contains("kind = \"postgres\""));
        for bad in [
            "redis_url = \"redis://127.0.0.1:6379/\"\nprocess_id = \"p:1\"",
            "redis_url = \"127.0.0.1:6379\"\nprocess_id = \"p1\"",
            "redis_url = \"redis://127.0.0.1:6379/\"\nprocess_id = \"p1\"\nlease_ttl_ms = 10",
        ] {
            assert!(parse(&format!("{pg}[cluster]\n{bad}\n")).check().is_err(), "{bad}");
        }
        assert!(
            ServerConfig::parse("mode = \"dev\"\n[cluster]\nredis_url = \"redis://x/\"\n").is_err(),
            "process_id is needed"
        );
        assert!(ServerConfig::dev_default().cluster.is_none(), "make run is one process");
    }

    // The account centre's secret: never empty; production needs its own.
    #[test]
    fn the_account_centre_section_is_checked() {
        let parse = |t: &str| ServerConfig::parse(t).unwrap();
        assert!(parse("mode = \"dev\"\n[account_centre]\nsecret = \"\"\n")
            .check()
            .unwrap_err()
            .contains("[account_centre]"));
        let prod = format!(
            "mode = \"production\"\n[identity]\nkey_hex = \"{}\"\n[[nodes]]\nid = 1\nname = \"a\"\nmachines = [\"m1\"]\n",
            "ab".repeat(32)
        );
        assert!(parse(&prod).check().unwrap_err().contains("its own [account_centre] secret"));
        assert_eq!(
            ServerConfig::dev_default().domain().account_centre.agent_login_url,
            "/api/dev/uc/agent-login"
        );
    }

    #[test]
    fn the_identity_section_is_checked() {
        let parse = |t: &str| ServerConfig::parse(t).unwrap();
        assert!(parse("mode = \"dev\"\n").check().is_ok(), "the dev defaults");
        assert!(parse("mode = \"dev\"\n[identity]\nkey_hex = \"abc\"\n")
            .check()
            .unwrap_err()
            .contains("key_hex"));
        assert!(parse("mode = \"dev\"\n[identity]\npre_check = \"maybe\"\n")
            .check()
            .unwrap_err()
            .contains("pre_check"));
        let nodes = "[[nodes]]\nid = 1\nname = \"a\"\nmachines = [\"m1\"]\n";
        let prod = parse(&format!("mode = \"production\"\n{nodes}"));
        assert!(prod.check().unwrap_err().contains("its own [identity] key_hex"));
        assert!(with_nodes("production", nodes).check().is_ok());
        let clock = format!(
            "mode = \"production\"\n[game]\nclock_start_ms = 5\n[identity]\nkey_hex = \"{}\"\n{nodes}",
            "ab".repeat(32)
        );
        assert!(parse(&clock).check().unwrap_err().contains("clock_start_ms"));
        assert!(
            ServerConfig::parse("mode = \"dev\"\n[identity]\nkeyhex = \"x\"\n").is_err(),
            "a misspelt key is refused"
        );
    }

    // Production refuses a node no machine could ever serve and a short host secret; no mode
    // takes an empty secret; static machines alone (load tests) or a long secret are fine.
    #[test]
    fn nodes_need_machines_or_a_host_secret_in_production() {
        let bare = "[[nodes]]\nid = 1\nname = \"a\"\n";
        let err = with_nodes("production", bare).check().unwrap_err();
        assert!(err.contains("neither machines nor a host_secret"), "{err}");
        assert!(with_nodes("dev", bare).check().is_ok(), "dev mode waits for hosts that may link");
        let short = format!("{bare}host_secret = \"short\"\n");
        assert!(with_nodes("production", &short).check().unwrap_err().contains("shorter"));
        assert!(with_nodes("dev", &short).check().is_ok());
        let empty = format!("{bare}host_secret = \"\"\n");
        assert!(with_nodes("dev", &empty).check().unwrap_err().contains("empty"));
        assert!(with_nodes("production", &format!("{bare}machines = [\"m1\"]\n")).check().is_ok());
        assert!(
            with_nodes("production", &format!("{bare}host_secret = \"{}\"\n", "x".repeat(MIN_HOST_SECRET)))
                .check()
                .is_ok()
        );
        let typo = format!("{bare}host_secrets = \"x\"\n");
        assert!(
            ServerConfig::parse(&format!("mode = \"dev\"\n{typo}")).is_err(),
            "a misspelt key is refused"
        );
    }

    // The `[rooms]` section reaches the domain; what it leaves out keeps the defaults, and a
    // misspelt key is refused.
    #[test]
    fn the_rooms_section_reaches_the_domain() {
        let c = ServerConfig::parse("mode = \"dev\"\n[rooms]\nbatch_ms = 50\nrotation_turn_secs = 60\n").unwrap();
        let rooms = c.domain().rooms;
        assert_eq!((rooms.batch_ms, rooms.rotation_turn_secs, rooms.reconnect_secs), (50, 60, 30));
        assert!(ServerConfig::parse("mode = \"dev\"\n[rooms]\nbatch = 5\n").is_err());
    }

    // The `[payment]` section reaches the domain (the dev file's included); what it leaves out
    // keeps the defaults, and a misspelt key or an unknown delivery is refused.
    #[test]
    fn the_payment_section_reaches_the_domain() {
        let c = ServerConfig::parse("mode = \"dev\"\n[payment]\norder_ttl_secs = 60\nsandbox_delivery = \"twice\"\n").unwrap();
        let p = c.domain().payment;
        assert_eq!(
            (p.order_ttl_secs, p.qr_ttl_secs, p.sandbox_delivery),
            (60, 300, actors::commerce::payment::Delivery::Twice)
        );
        assert!(ServerConfig::parse("mode = \"dev\"\n[payment]\norder_ttl = 5\n").is_err());
        assert!(ServerConfig::parse("mode = \"dev\"\n[payment]\nsandbox_delivery = \"never\"\n").is_err());
        assert_eq!(
            ServerConfig::dev_default().domain().payment.sandbox_key,
            "yoo-dev-sandbox-payment-key"
        );
    }

    // The dev configuration gives both enabled nodes a host secret and no static machine: all
    // their machines are game hosts' slots.
    #[test]
    fn the_dev_nodes_are_served_by_game_hosts() {
        let dev = ServerConfig::dev_default();
        dev.check().unwrap();
        let enabled: Vec<_> = dev.domain().nodes.into_iter().filter(|n| n.status == 1).collect();
        assert_eq!(enabled.len(), 2);
        assert!(enabled.iter().all(|n| n.machines.is_empty() && n.host_secret.is_some()));
    }
}
