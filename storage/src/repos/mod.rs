//! The repositories, written once over `crate::sql` for both engines, and the opening of a
//! store on each: SQLite (one database file, WAL journal, and one connection per repository so
//! that reading one aggregate never waits behind a write to another; writers queue on the busy
//! timeout) or PostgreSQL (one pool shared by every repository).

mod accounts;
mod activity;
mod ads;
mod agreements;
mod assets;
mod collect;
mod commerce;
pub(crate) mod copy;
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
mod ownership;
mod passwords;
mod rooms;
mod sessions;
mod sms;
mod tips;
mod users;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rusqlite::Connection;

use crate::repo::{CommerceRepo, GameRepo, NodeRepo};
use crate::sql::lite_error;
pub(crate) use crate::sql::{to_u64, Db};
use crate::{seed, Error, Result, Store};

/// The database file inside the directory given to [`Store::open_sqlite`].
pub(crate) const DB_FILE: &str = "yoo.db";

/// How long a statement waits for another connection's write lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

pub(crate) fn open_sqlite(dir: &Path) -> Result<Store> {
    std::fs::create_dir_all(dir).map_err(|e| Error::Backend(format!("create database dir {}: {e}", dir.display())))?;
    let path = dir.join(DB_FILE);
    let store = build(&mut || Ok(Db::lite(connect(&path)?)))?;
    checkpoint_in_background(&path, Arc::downgrade(&store.commerce))?;
    Ok(store)
}

/// Opens the PostgreSQL store at `url` with a pool of at most `pool_size` connections, shared
/// by every repository.
pub(crate) fn open_pg(url: &str, pool_size: usize) -> Result<Store> {
    let pool = crate::sql::pg::Pool::connect(url, pool_size)?;
    build(&mut || Ok(Db::Pg(pool.clone())))
}

/// A bare [`Db`] on an opened store's database (for [`copy::copy`]).
pub(crate) fn db_at(at: &crate::StoreAt) -> Result<Db> {
    Ok(match at {
        crate::StoreAt::Sqlite(dir) => Db::lite(connect(&dir.join(DB_FILE))?),
        crate::StoreAt::Postgres { url, .. } => Db::Pg(crate::sql::pg::Pool::connect(url, 1)?),
    })
}

/// Migrates, seeds an empty catalogue, nodes and shop, and builds every repository, each on a
/// [`Db`] of its own from `db`.
fn build(db: &mut dyn FnMut() -> Result<Db>) -> Result<Store> {
    // PostgreSQL: one opener at a time migrates and seeds, also across processes (a session
    // lock, held on a connection of its own until the seeds are in; SQLite's write lock does
    // this for each step there).
    let opening = db()?;
    let lock = opening.lock()?;
    if opening.is_pg() {
        lock.execute_batch(&format!("SELECT pg_advisory_lock({OPENING_LOCK})"))?;
    }
    let store = migrate_and_seed(db);
    if opening.is_pg() {
        lock.execute_batch(&format!("SELECT pg_advisory_unlock({OPENING_LOCK})"))?;
    }
    store
}

/// The key of PostgreSQL's advisory lock that openers take (see [`build`]).
const OPENING_LOCK: i64 = 7_007_001;

fn migrate_and_seed(db: &mut dyn FnMut() -> Result<Db>) -> Result<Store> {
    let first = db()?;
    migrations::run(&first)?;

    let games = games::SqlGames::new(first);
    if games.count()? == 0 {
        games.upsert_all(&seed::catalogue())?;
    }
    let nodes = nodes::SqlNodes::new(db()?);
    if nodes.list()?.is_empty() {
        for node in seed::nodes() {
            nodes.upsert(&node)?;
        }
    }

    let commerce = commerce::SqlCommerce::new(db()?);
    if commerce.goods_count()? == 0 {
        let (goods, sections) = seed::shop();
        commerce.upsert_goods(&goods, &sections)?;
    }

    let missions = missions::SqlMissions::new(db()?);
    missions.seed_if_empty()?;

    Ok(Store {
        users: Arc::new(users::SqlUsers::new(db()?)),
        logins: Arc::new(logins::SqlLogins::new(db()?)),
        games: Arc::new(games),
        nodes: Arc::new(nodes),
        sessions: Arc::new(sessions::SqlSessions::new(db()?)),
        assets: Arc::new(assets::SqlAssets::new(db()?)),
        sms: Arc::new(sms::SqlSms::new(db()?)),
        rooms: Arc::new(rooms::SqlRooms::new(db()?)),
        commerce: Arc::new(commerce),
        coupons: Arc::new(coupons::SqlCoupons::new(db()?)),
        activity: Arc::new(activity::SqlActivity::new(db()?)),
        member: Arc::new(member::SqlMember::new(db()?)),
        missions: Arc::new(missions),
        accounts: Arc::new(accounts::SqlAccounts::new(db()?)),
        agreements: Arc::new(agreements::SqlAgreements::new(db()?)),
        passwords: Arc::new(passwords::SqlPasswords::new(db()?)),
        merchant: Arc::new(merchant::SqlMerchant::new(db()?)),
        ads: Arc::new(ads::SqlAds::new(db()?)),
        tips: Arc::new(tips::SqlTips::new(db()?)),
        messages: Arc::new(messages::SqlMessages::new(db()?)),
        collect: Arc::new(collect::SqlCollect::new(db()?)),
        ownership: Arc::new(ownership::SqlOwnership::new(db()?)),
    })
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
                let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", (), |_| Ok(()));
                // What the passive one wrote goes to the disk now, without the lock, so that the
                // restart's own syncs find little left to write.
                for file in [&db_file, &wal_file] {
                    if let Ok(f) = std::fs::File::open(file) {
                        let _ = f.sync_data();
                    }
                }
                let _ = conn.query_row("PRAGMA wal_checkpoint(RESTART)", (), |_| Ok(()));
            }
        })
        .map_err(|e| Error::Backend(format!("start the checkpoint thread: {e}")))?;
    Ok(())
}

/// Opens one connection with the settings every connection needs.
fn connect(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path).map_err(lite_error)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(lite_error)?;
    let mode: String = conn
        .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
        .map_err(lite_error)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(Error::Backend(format!("journal mode is {mode}, wal needed")));
    }
    conn.pragma_update(None, "synchronous", "NORMAL").map_err(lite_error)?;
    // Checkpoints run off the writers' path (`checkpoint_in_background`).
    conn.pragma_update(None, "wal_autocheckpoint", 0).map_err(lite_error)?;
    conn.pragma_update(None, "foreign_keys", true).map_err(lite_error)?;
    Ok(conn)
}
