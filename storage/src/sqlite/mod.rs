//! The embedded SQLite backend: one database file, WAL journal, and one connection per repository
//! so that reading one aggregate never waits behind a write to another (WAL lets readers run beside
//! the single writer; writers queue on the busy timeout).

mod accounts;
mod activity;
mod ads;
mod agreements;
mod assets;
mod collect;
mod commerce;
mod coupons;
mod games;
mod ledger;
mod logins;
mod member;
mod merchant;
mod messages;
pub(crate) mod migrations;
mod missions;
mod nodes;
mod passwords;
mod rooms;
mod sessions;
mod sms;
mod tips;
mod users;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::{Mutex, MutexGuard};
use rusqlite::{Connection, ErrorCode};

use crate::repo::{CommerceRepo, GameRepo, NodeRepo};
use crate::{seed, Error, Result, Store};

/// The database file inside the directory given to [`Store::open_sqlite`].
pub(crate) const DB_FILE: &str = "yoo.db";

/// How long a statement waits for another connection's write lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

pub(crate) fn open(dir: &Path) -> Result<Store> {
    std::fs::create_dir_all(dir).map_err(|e| Error::Backend(format!("create database dir {}: {e}", dir.display())))?;
    let path = dir.join(DB_FILE);

    let mut first = connect(&path)?;
    migrations::run(&mut first)?;

    let games = games::SqliteGames::new(first);
    if games.count()? == 0 {
        games.upsert_all(&seed::catalogue())?;
    }
    let nodes = nodes::SqliteNodes::new(connect(&path)?);
    if nodes.list()?.is_empty() {
        for node in seed::nodes() {
            nodes.upsert(&node)?;
        }
    }

    let commerce = commerce::SqliteCommerce::new(connect(&path)?);
    if commerce.goods_count()? == 0 {
        let (goods, sections) = seed::shop();
        commerce.upsert_goods(&goods, &sections)?;
    }

    let missions = missions::SqliteMissions::new(connect(&path)?);
    missions.seed_if_empty()?;

    let store = Store {
        users: Arc::new(users::SqliteUsers::new(connect(&path)?)),
        logins: Arc::new(logins::SqliteLogins::new(connect(&path)?)),
        games: Arc::new(games),
        nodes: Arc::new(nodes),
        sessions: Arc::new(sessions::SqliteSessions::new(connect(&path)?)),
        assets: Arc::new(assets::SqliteAssets::new(connect(&path)?)),
        sms: Arc::new(sms::SqliteSms::new(connect(&path)?)),
        rooms: Arc::new(rooms::SqliteRooms::new(connect(&path)?)),
        commerce: Arc::new(commerce),
        coupons: Arc::new(coupons::SqliteCoupons::new(connect(&path)?)),
        activity: Arc::new(activity::SqliteActivity::new(connect(&path)?)),
        member: Arc::new(member::SqliteMember::new(connect(&path)?)),
        missions: Arc::new(missions),
        accounts: Arc::new(accounts::SqliteAccounts::new(connect(&path)?)),
        agreements: Arc::new(agreements::SqliteAgreements::new(connect(&path)?)),
        passwords: Arc::new(passwords::SqlitePasswords::new(connect(&path)?)),
        merchant: Arc::new(merchant::SqliteMerchant::new(connect(&path)?)),
        ads: Arc::new(ads::SqliteAds::new(connect(&path)?)),
        tips: Arc::new(tips::SqliteTips::new(connect(&path)?)),
        messages: Arc::new(messages::SqliteMessages::new(connect(&path)?)),
        collect: Arc::new(collect::SqliteCollect::new(connect(&path)?)),
    };
    checkpoint_in_background(&path, Arc::downgrade(&store.commerce))?;
    Ok(store)
}

/// How often the WAL is checkpointed (see [`checkpoint_in_background`]).
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// Checkpoints the write-ahead log on a thread of its own, every [`CHECKPOINT_EVERY`], while
/// the store is open (`alive`). The connections never checkpoint on commit
/// (`wal_autocheckpoint = 0`): an automatic checkpoint runs in the transaction that crosses the
/// WAL's size threshold and syncs the database file there, holding the write lock, so every
/// write queued behind it waited (the purchases benchmark's tail, BENCHMARKS.md). A passive
/// checkpoint takes no write lock: writers go on appending meanwhile; the restart after it holds
/// the lock only for what was written during the passive one.
fn checkpoint_in_background(path: &Path, alive: std::sync::Weak<dyn CommerceRepo>) -> Result<()> {
    let conn = connect(path)?;
    let db_file = path.to_path_buf();
    let wal_file = path.with_file_name(format!("{DB_FILE}-wal"));
    std::thread::Builder::new()
        .name("yoo-checkpoint".into())
        .spawn(move || {
            while alive.strong_count() > 0 {
                std::thread::sleep(CHECKPOINT_EVERY);
                // The bulk of the copy without the write lock; then the few frames written
                // meanwhile with it, which lets the next writer start the log from its beginning
                // (a passive checkpoint alone never catches up with steady writes, and the log
                // would grow without end). Busy is not an error: the next round goes further.
                let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                // What the passive one wrote goes to the disk now, without the lock, so that the
                // restart's own syncs find little left to write.
                for file in [&db_file, &wal_file] {
                    if let Ok(f) = std::fs::File::open(file) {
                        let _ = f.sync_data();
                    }
                }
                let _ = conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(()));
            }
        })
        .map_err(|e| Error::Backend(format!("start the checkpoint thread: {e}")))?;
    Ok(())
}

/// Opens one connection with the settings every connection needs.
fn connect(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path).db()?;
    conn.busy_timeout(BUSY_TIMEOUT).db()?;
    let mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0)).db()?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(Error::Backend(format!("journal mode is {mode}, wal needed")));
    }
    conn.pragma_update(None, "synchronous", "NORMAL").db()?;
    // Checkpoints run off the writers' path (`checkpoint_in_background`).
    conn.pragma_update(None, "wal_autocheckpoint", 0).db()?;
    conn.pragma_update(None, "foreign_keys", true).db()?;
    Ok(conn)
}

/// A connection owned by one repository.
pub(crate) struct Db(Mutex<Connection>);

impl Db {
    fn new(conn: Connection) -> Db {
        Db(Mutex::new(conn))
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.0.lock()
    }

    /// Runs `f` in one immediate transaction, committed if `f` succeeds and rolled back otherwise.
    fn write<T>(&self, f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).db()?;
        let out = f(&tx)?;
        tx.commit().db()?;
        Ok(out)
    }
}

/// Turns driver errors into [`Error`] so that no rusqlite type crosses the crate boundary.
pub(crate) trait SqlResultExt<T> {
    fn db(self) -> Result<T>;
}

impl<T> SqlResultExt<T> for rusqlite::Result<T> {
    fn db(self) -> Result<T> {
        self.map_err(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Error::NotFound,
            rusqlite::Error::SqliteFailure(failure, message) if failure.code == ErrorCode::ConstraintViolation => {
                Error::Conflict(message.unwrap_or_else(|| failure.to_string()))
            }
            other => Error::Backend(other.to_string()),
        })
    }
}

/// Row counts come back as i64; a negative one would be a backend bug.
fn to_u64(n: i64) -> Result<u64> {
    u64::try_from(n).map_err(|_| Error::Backend(format!("negative count {n}")))
}
