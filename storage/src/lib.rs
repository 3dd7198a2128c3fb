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
pub mod passwords;
pub mod repo;
pub mod seed;
pub mod seed_coupons;
mod sqlite;
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
}

impl Store {
    /// Opens (creating) the SQLite database file `dir/yoo.db` (creating dir), runs migrations
    /// (upgrading a database written by an older build in place), and seeds the catalogue when
    /// the games table is empty (and the nodes when the nodes table is empty).
    pub fn open_sqlite(dir: &std::path::Path) -> Result<Store> {
        sqlite::open(dir)
    }
}
