//! Persistence for the yoo cloud-gaming platform: the repository traits the domain talks to, and
//! the embedded SQLite backend behind them. Callers hold a [`Store`] and never see SQL: every
//! backend reports failures as [`Error`]. The traits are synchronous (async callers use
//! `spawn_blocking`), and time is always passed in as unix milliseconds; storage never reads the
//! clock.
//!
//! Layout:
//!
//! - `error`: [`Error`] and [`Result`], the only failure type callers see.
//! - `model`: the plain records (users, login sessions (hashed), the SMS guards of phones, games, nodes, game sessions with their
//!   queue place and charged minutes; and what players own: entitlements, fast-entry cards,
//!   monthly claims, per-minute play charges; live rooms, the hosts' blacklists, reports; the
//!   shop's goods, wallets, orders, payment callbacks and the ledger).
//! - `repo`: the repository traits, one per aggregate ([`AssetRepo`] for everything a player
//!   owns, written atomically so that nothing is spent twice; [`CommerceRepo`] for the money
//!   path, every balance change with its ledger entry in the same transaction).
//! - `sqlite`: the SQLite backend: connection set-up, versioned migrations (an older database is
//!   upgraded in place on open), one file per repository.
//! - `messages`: the message centre (each user's messages; announcements stored once for all).
//! - `collect`: recently played games, favourites and the game sections.
//! - `ownership`: the owners' epochs in a cluster and the fence of an owner's writes.
//! - `tips`: the game tips shown before a start and the play page's loading tips.
//! - `seed`: the catalogue of games, the nodes and the shop written into an empty database.
//! - `conformance`: what every backend must do, as functions over a [`Store`] (tests, and the
//!   `conformance` feature for other backends).
//! - `tests`: the conformance suite run against SQLite, plus SQLite-only checks.

use std::sync::Arc;

pub mod accounts;
pub mod activity;
pub mod ads;
pub mod agreements;
pub mod collect;
#[cfg(any(test, feature = "conformance"))]
pub mod conformance;
mod error;
pub mod member;
pub mod merchant;
pub mod messages;
pub mod missions;
pub mod model;
pub mod ownership;
pub mod passwords;
pub mod repo;
mod repos;
pub mod seed;
pub mod seed_coupons;
mod sql;
#[cfg(test)]
mod suite;
#[cfg(any(test, feature = "conformance"))]
pub mod testing;
#[cfg(test)]
mod tests;
pub mod tips;

pub use error::{Error, Refusal, Result};
pub use model::{
    Asset, CounterKey, Coupon, CouponSpec, Entitlement, FastEnterCard, Game, GameSessionRecord, GameStart, Goods, GoodsGrant, LedgerEntry,
    LedgerMismatch, LoginSession, MonthlyClaim, NewGameSession, NewOrder, NewRoom, NewTimeCard, Node, Order, OrderState, PaymentCallback,
    PendingCode, PhoneGuard, PlayCharge, Played, QualityReport, RoomBlock, RoomPassword, RoomRecord, RoomReport, Settled, User, Wallet,
};
pub use repo::{
    AssetRepo, CommerceRepo, CouponRepo, GameRepo, GameSessionRepo, LoginSessionRepo, NodeRepo, PackageRepo, RoomRepo, SmsRepo, UserRepo,
};
pub use repos::copy::CopyReport;

/// Every repository of one backend, cheap to clone and share between threads.
#[derive(Clone)]
pub struct Store {
    pub users: Arc<dyn UserRepo>,
    pub logins: Arc<dyn LoginSessionRepo>,
    pub games: Arc<dyn GameRepo>,
    pub nodes: Arc<dyn NodeRepo>,
    pub sessions: Arc<dyn GameSessionRepo>,
    pub assets: Arc<dyn AssetRepo>,
    pub sms: Arc<dyn SmsRepo>,
    pub rooms: Arc<dyn RoomRepo>,
    pub commerce: Arc<dyn CommerceRepo>,
    pub coupons: Arc<dyn CouponRepo>,
    pub activity: Arc<dyn activity::ActivityRepo>,
    pub member: Arc<dyn member::MemberRepo>,
    pub missions: Arc<dyn missions::MissionRepo>,
    pub accounts: Arc<dyn accounts::AccountRepo>,
    pub agreements: Arc<dyn agreements::AgreementRepo>,
    pub passwords: Arc<dyn passwords::PasswordRepo>,
    pub merchant: Arc<dyn merchant::MerchantRepo>,
    pub ads: Arc<dyn ads::AdRepo>,
    pub tips: Arc<dyn tips::TipRepo>,
    pub messages: Arc<dyn messages::MessageRepo>,
    pub collect: Arc<dyn collect::CollectRepo>,
    pub ownership: Arc<dyn ownership::OwnershipRepo>,
}

/// Where a store is: what `[storage]` of the server's configuration names, and what the
/// `store copy` command reads and writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreAt {
    /// The embedded SQLite file `yoo.db` in this directory.
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL database, with at most `pool_size` connections from this process.
    Postgres { url: String, pool_size: usize },
}

impl StoreAt {
    /// Opens (migrating and seeding) the store.
    pub fn open(&self) -> Result<Store> {
        match self {
            StoreAt::Sqlite(dir) => Store::open_sqlite(dir),
            StoreAt::Postgres { url, pool_size } => Store::open_postgres(url, *pool_size),
        }
    }

    /// Copies every row of this store into `to`, a new database (one that holds no user yet):
    /// both are opened first (migrated to this build's schema), the source read as one
    /// snapshot, the target written in one transaction. Rows copied by table.
    pub fn copy_to(&self, to: &StoreAt) -> Result<repos::copy::CopyReport> {
        drop(self.open()?);
        drop(to.open()?);
        repos::copy::copy(&repos::db_at(self)?, &repos::db_at(to)?)
    }

    /// Reads `sqlite:DIR` or a `postgres://` url (`pool_size` connections).
    pub fn parse(text: &str, pool_size: usize) -> Option<StoreAt> {
        if let Some(dir) = text.strip_prefix("sqlite:") {
            return Some(StoreAt::Sqlite(dir.into()));
        }
        (text.starts_with("postgres://") || text.starts_with("postgresql://")).then(|| StoreAt::Postgres {
            url: text.to_owned(),
            pool_size,
        })
    }
}

/// For logs: the directory, or the url without its password.
impl std::fmt::Display for StoreAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreAt::Sqlite(dir) => write!(f, "sqlite:{}", dir.display()),
            StoreAt::Postgres { url, .. } => {
                let shown = match (url.find("://"), url.rfind('@')) {
                    (Some(scheme), Some(at)) if url[scheme + 3..at].contains(':') => {
                        let user_end = scheme + 3 + url[scheme + 3..at].find(':').unwrap_or(0);
                        format!("{}:***{}", &url[..user_end], &url[at..])
                    }
                    _ => url.clone(),
                };
                f.write_str(&shown)
            }
        }
    }
}

impl Store {
    /// Opens (creating) the SQLite database file `dir/yoo.db` (creating dir), runs migrations
    /// (upgrading a database written by an older build in place), and seeds the catalogue when
    /// the games table is empty (and the nodes when the nodes table is empty).
    pub fn open_sqlite(dir: &std::path::Path) -> Result<Store> {
        repos::open_sqlite(dir)
    }

    /// Opens the PostgreSQL database at `url` (`postgres://user@host:port/dbname`) with a pool
    /// of at most `pool_size` connections, runs its migrations (refusing a database a newer
    /// build wrote, or one it cannot migrate) and seeds it when empty, as [`Store::open_sqlite`]
    /// does. Several processes may open one database: migrations run once, under a lock.
    pub fn open_postgres(url: &str, pool_size: usize) -> Result<Store> {
        repos::open_pg(url, pool_size)
    }
}
