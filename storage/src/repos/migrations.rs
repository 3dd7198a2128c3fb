//! Versioned schema migrations. `schema_version` holds one row per applied migration; migration
//! N is `MIGRATIONS[N - 1]`, and each runs in its own transaction together with its version row.

use crate::sql::Db;
use crate::{Error, Result};

/// Every migration, oldest first. Released entries never change: a new schema is a new entry.
pub(crate) const MIGRATIONS: &[&str] = &[
    V1,
    V2,
    V3,
    V4,
    V5,
    V6,
    V7,
    super::activity::MIGRATION,
    V_MEMBER,
    MISSIONS,
    COUPONS,
    V_PACKAGES,
    super::accounts::MIGRATION,
    EXCLUSIVE_TIME,
    UPGRADE,
    super::agreements::MIGRATION,
    super::passwords::MIGRATION,
    super::merchant::MIGRATION,
    super::ads::MIGRATION,
    crate::missions::ACCOUNT_TASKS_MIGRATION,
    super::tips::MIGRATION,
    super::messages::MIGRATION,
    super::collect::MIGRATION,
    SESSION_CUTOFF,
    SESSION_REQUEUES,
    super::ownership::MIGRATION,
];

/// How many times a session went back to the queue because its machine was lost while READY:
/// the client tells that return from a stale answer by it, across restarts too.
const SESSION_REQUEUES: &str = "
ALTER TABLE game_sessions ADD COLUMN requeues INTEGER NOT NULL DEFAULT 0;
";

/// A session's cut time: a minor's game ends when their play window closes, and the time is
/// kept with the session so that a restart restores the cut with it.
const SESSION_CUTOFF: &str = "
ALTER TABLE game_sessions ADD COLUMN cutoff_at INTEGER;
";

/// Migration 1: users, logins, the catalogue, nodes and game sessions.
const V1: &str = "
CREATE TABLE users (
    uid            INTEGER PRIMARY KEY AUTOINCREMENT,
    cellphone      TEXT    NOT NULL UNIQUE,
    nickname       TEXT    NOT NULL,
    avatar         TEXT    NOT NULL DEFAULT '',
    created_at     INTEGER NOT NULL,
    play_time_free INTEGER NOT NULL DEFAULT 0,
    play_time_paid INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE login_sessions (
    token      TEXT    PRIMARY KEY,
    uid        INTEGER NOT NULL REFERENCES users (uid),
    csrf_token TEXT    NOT NULL,
    device_no  TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX login_sessions_by_expiry ON login_sessions (expires_at);

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    name         TEXT    NOT NULL,
    description  TEXT    NOT NULL,
    status       INTEGER NOT NULL,
    available    INTEGER NOT NULL,
    deleted      INTEGER NOT NULL,
    member_type  TEXT,
    platform     TEXT    NOT NULL,
    chinese      INTEGER NOT NULL,
    controller   INTEGER NOT NULL,
    instant_play INTEGER NOT NULL,
    hue          INTEGER NOT NULL,
    sort_order   INTEGER NOT NULL
);
CREATE INDEX games_listing ON games (deleted, sort_order, id);

CREATE TABLE nodes (
    id     INTEGER PRIMARY KEY,
    name   TEXT    NOT NULL,
    status INTEGER NOT NULL
);

CREATE TABLE game_sessions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    uid        INTEGER NOT NULL REFERENCES users (uid),
    game_id    INTEGER NOT NULL REFERENCES games (id),
    node_id    INTEGER NOT NULL,
    device_no  TEXT    NOT NULL,
    status     INTEGER NOT NULL,
    machine_id TEXT,
    created_at INTEGER NOT NULL,
    ready_at   INTEGER,
    playing_at INTEGER,
    ended_at   INTEGER,
    end_reason TEXT
);
CREATE INDEX game_sessions_by_user ON game_sessions (uid, created_at DESC, id DESC);
CREATE INDEX game_sessions_open ON game_sessions (id) WHERE ended_at IS NULL;
";

/// Migration 2: queue places and charged minutes on game sessions (existing sessions get lane 0,
/// no place and no minutes), and what players own: entitlements, fast-entry cards, monthly
/// claims, and the per-minute play charges.
const V2: &str = "
ALTER TABLE game_sessions ADD COLUMN lane INTEGER NOT NULL DEFAULT 0 CHECK (lane BETWEEN 0 AND 6);
ALTER TABLE game_sessions ADD COLUMN tag INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_sessions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_sessions ADD COLUMN play_minutes INTEGER NOT NULL DEFAULT 0;
CREATE INDEX game_sessions_admitted ON game_sessions (game_id, node_id, tag)
    WHERE ready_at IS NOT NULL;

-- One row per user and kind: a grant extends the active run or starts a new one in place.
CREATE TABLE entitlements (
    uid        INTEGER NOT NULL REFERENCES users (uid),
    kind       TEXT    NOT NULL,
    starts_at  INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (uid, kind)
) WITHOUT ROWID;

CREATE TABLE fast_enter_cards (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    uid          INTEGER NOT NULL REFERENCES users (uid),
    goods_title  TEXT    NOT NULL,
    status       INTEGER NOT NULL DEFAULT 0,
    expires_at   INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    used_at      INTEGER,
    used_session INTEGER REFERENCES game_sessions (id),
    source       TEXT    NOT NULL
);
CREATE INDEX fast_enter_cards_usable ON fast_enter_cards (uid, status, expires_at, id);

CREATE TABLE monthly_claims (
    uid        INTEGER NOT NULL REFERENCES users (uid),
    month      TEXT    NOT NULL,
    cards      INTEGER NOT NULL,
    claimed_at INTEGER NOT NULL,
    PRIMARY KEY (uid, month)
) WITHOUT ROWID;

CREATE TABLE play_charges (
    session_id INTEGER NOT NULL REFERENCES game_sessions (id),
    minute     INTEGER NOT NULL,
    uid        INTEGER NOT NULL REFERENCES users (uid),
    free       INTEGER NOT NULL,
    paid       INTEGER NOT NULL,
    package    INTEGER NOT NULL,
    charged_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, minute)
) WITHOUT ROWID;
";

/// Migration 3: login sessions keyed by the hash of their cookie (the stored plain tokens of
/// older sessions are dropped with them: everyone logs in again), and the SMS login guards: one
/// row per phone (recent sends, the live code's hash and tries, wrong codes and the lock) and the
/// fixed-window counters (per address, global).
const V3: &str = "
DROP TABLE login_sessions;
CREATE TABLE login_sessions (
    token_hash TEXT    PRIMARY KEY,
    uid        INTEGER NOT NULL REFERENCES users (uid),
    csrf_hash  TEXT    NOT NULL,
    device_no  TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX login_sessions_by_expiry ON login_sessions (expires_at);

CREATE TABLE sms_guards (
    phone        TEXT    PRIMARY KEY,
    sends        TEXT    NOT NULL,
    code_hash    TEXT,
    code_sent_at INTEGER,
    code_tries   INTEGER,
    failures     INTEGER NOT NULL,
    locked_until INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sms_guards_by_update ON sms_guards (updated_at);

CREATE TABLE sms_counters (
    scope        TEXT    NOT NULL,
    window_start INTEGER NOT NULL,
    count        INTEGER NOT NULL,
    PRIMARY KEY (scope, window_start)
) WITHOUT ROWID;
CREATE INDEX sms_counters_by_window ON sms_counters (window_start);
";

/// Migration 4 (game hosts): each catalogue entry names the host game it launches (the seeded
/// entries in rotation, as `seed::host_game` maps them), and the quality report of a session's
/// stream, one per session, beside its record.
const V4: &str = "
ALTER TABLE games ADD COLUMN host_game TEXT NOT NULL DEFAULT '';
UPDATE games SET host_game = CASE id % 4
    WHEN 1 THEN 'neverball' WHEN 2 THEN 'supertux' WHEN 3 THEN 'ltris' ELSE 'pattern' END;

CREATE TABLE quality_reports (
    session_id     INTEGER PRIMARY KEY REFERENCES game_sessions (id),
    uid            INTEGER NOT NULL REFERENCES users (uid),
    played_secs    INTEGER NOT NULL,
    latency_p50_ms REAL    NOT NULL,
    latency_p95_ms REAL    NOT NULL,
    fps            REAL    NOT NULL,
    drops          INTEGER NOT NULL,
    reconnects     INTEGER NOT NULL,
    reported_at    INTEGER NOT NULL
);
CREATE INDEX game_sessions_played ON game_sessions (uid, playing_at DESC, id DESC)
    WHERE playing_at IS NOT NULL;
";

/// Migration 5 (live rooms): the operator flags of users, the rooms with their summary
/// counters (one open room per host), the hosts' blacklists and reports.
const V5: &str = "
ALTER TABLE users ADD COLUMN status INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN minor INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN relay_banned INTEGER NOT NULL DEFAULT 0;

CREATE TABLE rooms (
    dd_rid         INTEGER PRIMARY KEY AUTOINCREMENT,
    room_serial    INTEGER NOT NULL UNIQUE,
    host_uid       INTEGER NOT NULL REFERENCES users (uid),
    name           TEXT    NOT NULL,
    mode           INTEGER NOT NULL,
    is_show        INTEGER NOT NULL,
    password_salt  TEXT,
    password_hash  TEXT,
    game_id        INTEGER NOT NULL REFERENCES games (id),
    relay_session  INTEGER,
    created_at     INTEGER NOT NULL,
    ended_at       INTEGER,
    audience_count INTEGER NOT NULL DEFAULT 0,
    mike_count     INTEGER NOT NULL DEFAULT 0,
    control_count  INTEGER NOT NULL DEFAULT 0,
    gift_count     INTEGER NOT NULL DEFAULT 0,
    gold           INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX rooms_open_by_host ON rooms (host_uid) WHERE ended_at IS NULL;
CREATE INDEX rooms_by_relay ON rooms (relay_session) WHERE relay_session IS NOT NULL;

CREATE TABLE room_blacklist (
    owner_uid   INTEGER NOT NULL REFERENCES users (uid),
    blocked_uid INTEGER NOT NULL REFERENCES users (uid),
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (owner_uid, blocked_uid)
) WITHOUT ROWID;
CREATE INDEX room_blacklist_newest ON room_blacklist (owner_uid, created_at DESC, blocked_uid);

CREATE TABLE room_reports (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    dd_rid     INTEGER NOT NULL REFERENCES rooms (dd_rid),
    reporter   INTEGER NOT NULL REFERENCES users (uid),
    target     INTEGER,
    reason     INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX room_reports_by_room ON room_reports (dd_rid, id);
";

/// Migration 7 (backpack): a card in the backpack is either a fast-entry card (`play_type` 0,
/// the cards before it) or a time card adding `minutes` of play time of its type when used
/// (1 paid, 2 free, 4 exclusive). A card with `remain_give_times` > 0 may be given by phone: the
/// giver's card is used with `given_to`, the receiver gets a copy with `given_from`.
const V7: &str = "
ALTER TABLE fast_enter_cards ADD COLUMN play_type INTEGER NOT NULL DEFAULT 0;
ALTER TABLE fast_enter_cards ADD COLUMN minutes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE fast_enter_cards ADD COLUMN remain_give_times INTEGER NOT NULL DEFAULT 0;
ALTER TABLE fast_enter_cards ADD COLUMN given_to TEXT;
ALTER TABLE fast_enter_cards ADD COLUMN given_from TEXT;
";

/// Migration (coupons): the coupons users own (the backpack's card_type 3) and who received
/// which limited-time activity's coupons (once per user and activity). A coupon is 0 unused, 1
/// used (by `used_order`) or 3 invalidated; an unused one past `expires_at` reads expired (2). An
/// open order holding it sets `reserved_by` (at most one order a coupon: the unique index).
const COUPONS: &str = "
CREATE TABLE coupons (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    uid             INTEGER NOT NULL REFERENCES users (uid),
    sid             TEXT    NOT NULL,
    title           TEXT    NOT NULL,
    goods_code      TEXT    NOT NULL DEFAULT '',
    goods_types     TEXT    NOT NULL DEFAULT '',
    face_value      INTEGER NOT NULL CHECK (face_value > 0),
    min_order_money INTEGER NOT NULL DEFAULT 0 CHECK (min_order_money >= 0),
    supermarket     INTEGER NOT NULL DEFAULT 0,
    status          INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 3)),
    expires_at      INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    used_at         INTEGER,
    used_order      TEXT,
    reserved_by     TEXT,
    source          TEXT    NOT NULL
);
CREATE INDEX coupons_by_user ON coupons (uid, status, expires_at);
CREATE UNIQUE INDEX coupons_reserved ON coupons (reserved_by) WHERE reserved_by IS NOT NULL;

CREATE TABLE activity_receipts (
    activity_id INTEGER NOT NULL,
    uid         INTEGER NOT NULL REFERENCES users (uid),
    received_at INTEGER NOT NULL,
    PRIMARY KEY (activity_id, uid)
) WITHOUT ROWID;
";

/// The daily and night packages: a player's minutes charged under a package window, read by
/// time (`night-play/info`'s play_time).
const V_PACKAGES: &str = "
CREATE INDEX IF NOT EXISTS play_charges_uid_at ON play_charges (uid, charged_at);
";

/// Migration 6 (commerce): the shop's goods and sections, wallets (coins, yoodo), orders (one
/// per user and idempotency key), the payment callbacks as received, and the ledger: one entry
/// per change of any balance. The balances existing before it get an opening entry each, so
/// that the ledger replayed equals them from the start.
const V6: &str = "
CREATE TABLE goods (
    id              INTEGER PRIMARY KEY,
    code            TEXT    NOT NULL UNIQUE,
    goods_type      INTEGER NOT NULL,
    title           TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    image           TEXT    NOT NULL,
    label           TEXT    NOT NULL,
    description     TEXT    NOT NULL,
    introduction    TEXT    NOT NULL,
    give_goods_name TEXT    NOT NULL,
    face_value_txt  TEXT    NOT NULL,
    face_value      INTEGER NOT NULL,
    retail_price    INTEGER NOT NULL CHECK (retail_price >= 0),
    member_price    INTEGER NOT NULL CHECK (member_price >= 0),
    crossed_price   INTEGER NOT NULL CHECK (crossed_price >= 0),
    cycleable       INTEGER NOT NULL,
    first_price     INTEGER NOT NULL CHECK (first_price >= 0),
    grant_kind      TEXT    NOT NULL,
    grant_amount    INTEGER NOT NULL CHECK (grant_amount >= 0),
    parent_id       INTEGER REFERENCES goods (id),
    on_sale         INTEGER NOT NULL,
    sort_order      INTEGER NOT NULL
);
CREATE INDEX goods_speci ON goods (parent_id, sort_order, id) WHERE parent_id IS NOT NULL;

CREATE TABLE goods_sections (
    section_key TEXT    NOT NULL,
    goods_id    INTEGER NOT NULL REFERENCES goods (id),
    sort_order  INTEGER NOT NULL,
    PRIMARY KEY (section_key, goods_id)
) WITHOUT ROWID;

CREATE TABLE wallets (
    uid   INTEGER PRIMARY KEY REFERENCES users (uid),
    coins INTEGER NOT NULL DEFAULT 0 CHECK (coins >= 0),
    yoodo INTEGER NOT NULL DEFAULT 0 CHECK (yoodo >= 0)
);

CREATE TABLE orders (
    order_no      TEXT    PRIMARY KEY,
    uid           INTEGER NOT NULL REFERENCES users (uid),
    goods_id      INTEGER NOT NULL REFERENCES goods (id),
    goods_code    TEXT    NOT NULL,
    goods_type    INTEGER NOT NULL,
    title         TEXT    NOT NULL,
    count         INTEGER NOT NULL CHECK (count BETWEEN 1 AND 100),
    amount_fen    INTEGER NOT NULL CHECK (amount_fen >= 0),
    retail_total  INTEGER NOT NULL,
    pay_method    TEXT    NOT NULL,
    coupon_id     INTEGER,
    grant_kind    TEXT    NOT NULL,
    grant_amount  INTEGER NOT NULL,
    idem_key      TEXT    NOT NULL,
    state         TEXT    NOT NULL CHECK (state IN ('created', 'paid', 'fulfilled', 'expired', 'cancelled', 'refunded')),
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    scanned_at    INTEGER,
    paid_at       INTEGER,
    fulfilled_at  INTEGER,
    closed_at     INTEGER,
    trade_no      TEXT,
    UNIQUE (uid, idem_key)
);
CREATE INDEX orders_by_user ON orders (uid, created_at DESC, order_no DESC);
CREATE INDEX orders_open ON orders (expires_at) WHERE state = 'created';

CREATE TABLE payment_callbacks (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    order_no TEXT    NOT NULL,
    provider TEXT    NOT NULL,
    payload  TEXT    NOT NULL,
    accepted INTEGER NOT NULL,
    outcome  TEXT    NOT NULL,
    at       INTEGER NOT NULL
);
CREATE INDEX payment_callbacks_by_order ON payment_callbacks (order_no, id);

CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    uid           INTEGER NOT NULL REFERENCES users (uid),
    asset         TEXT    NOT NULL,
    delta         INTEGER NOT NULL,
    balance_after INTEGER NOT NULL,
    reason        TEXT    NOT NULL,
    reference     TEXT    NOT NULL,
    at            INTEGER NOT NULL
);
CREATE INDEX ledger_by_user ON ledger (uid, asset, id);

INSERT INTO ledger (uid, asset, delta, balance_after, reason, reference, at)
    SELECT uid, 'play_free', play_time_free, play_time_free, 'opening', '', created_at FROM users WHERE play_time_free <> 0;
INSERT INTO ledger (uid, asset, delta, balance_after, reason, reference, at)
    SELECT uid, 'play_paid', play_time_paid, play_time_paid, 'opening', '', created_at FROM users WHERE play_time_paid <> 0;
INSERT INTO ledger (uid, asset, delta, balance_after, reason, reference, at)
    SELECT uid, 'ent:' || kind, expires_at, expires_at, 'opening', '', starts_at FROM entitlements;
INSERT INTO ledger (uid, asset, delta, balance_after, reason, reference, at)
    SELECT uid, 'cards', COUNT(*), COUNT(*), 'opening', '', MAX(created_at) FROM fast_enter_cards WHERE status = 0 GROUP BY uid;
";

/// Migration: the member play-time grants, one per player, kind (daily, monthly) and period.
const V_MEMBER: &str = "
CREATE TABLE member_grants (
    uid        INTEGER NOT NULL REFERENCES users (uid),
    kind       TEXT    NOT NULL,
    period     TEXT    NOT NULL,
    minutes    INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    claimed_at INTEGER NOT NULL,
    expired    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (uid, kind, period)
);
CREATE INDEX member_grants_due ON member_grants (uid, expired, expires_at);
";

/// Check-in and tasks: the reward table by streak day, one check-in per user and day (UTC+8 day
/// number), the task definitions, each user's progress per task and period (the day of a daily
/// task, 0 for a one-off one), the task reward presentation.
const MISSIONS: &str = "
CREATE TABLE checkin_rewards (
    day              INTEGER PRIMARY KEY,
    play_time        INTEGER NOT NULL,
    origin_play_time INTEGER NOT NULL
);

CREATE TABLE checkins (
    uid    INTEGER NOT NULL REFERENCES users (uid),
    day    INTEGER NOT NULL,
    streak INTEGER NOT NULL,
    reward INTEGER NOT NULL,
    origin INTEGER NOT NULL,
    at     INTEGER NOT NULL,
    PRIMARY KEY (uid, day)
);

CREATE TABLE tasks (
    task_code       TEXT    PRIMARY KEY,
    task_type       TEXT    NOT NULL,
    task_class      INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    icon            TEXT    NOT NULL,
    descr           TEXT    NOT NULL,
    finish_progress INTEGER NOT NULL,
    reward_minutes  INTEGER NOT NULL,
    sort            INTEGER NOT NULL
);
CREATE INDEX tasks_by_type ON tasks (task_type);

CREATE TABLE task_progress (
    uid        INTEGER NOT NULL REFERENCES users (uid),
    task_code  TEXT    NOT NULL,
    period     INTEGER NOT NULL,
    progress   INTEGER NOT NULL,
    status     INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (uid, task_code, period)
);

CREATE TABLE task_reward_config (
    key   TEXT PRIMARY KEY,
    icon  TEXT NOT NULL,
    title TEXT NOT NULL,
    descr TEXT NOT NULL
);
";

/// The schema version this build writes.
pub(crate) const LATEST: i64 = MIGRATIONS.len() as i64;

/// Brings the database up to [`LATEST`]; refuses a database written by a newer build.
/// Each step re-reads the version inside its own write transaction (SQLite: under the write
/// lock), so concurrent openers, also other processes, apply it once; on PostgreSQL the
/// opener holds the store's opening lock (`repos::build`) around all of it. PostgreSQL runs
/// the same migrations, numbered alike, with the schema's types rewritten (`sql::pg::schema`).
pub(crate) fn run(db: &Db) -> Result<()> {
    db.lock()?
        .execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY)")?;
    let pg = db.is_pg();
    loop {
        let done = db.write(|tx| {
            let current: i64 = tx.query_row("SELECT COALESCE(MAX(version), 0) FROM schema_version", (), |row| row.get(0))?;
            if current > LATEST {
                return Err(Error::Backend(format!(
                    "database schema version {current} is newer than this build's {LATEST}"
                )));
            }
            let Some(sql) = usize::try_from(current).ok().and_then(|i| MIGRATIONS.get(i)) else {
                return Ok(true);
            };
            if pg {
                tx.execute_batch(&crate::sql::pg::schema(sql))?;
            } else {
                tx.execute_batch(sql)?;
            }
            tx.execute("INSERT INTO schema_version (version) VALUES (?1)", [current + 1])?;
            Ok(false)
        })?;
        if done {
            return Ok(());
        }
    }
}

/// Exclusive play time (commerce.md §2.13, §4.12): a game's category, and the category and the
/// minutes used of each exclusive (type 4) time card.
const EXCLUSIVE_TIME: &str = "
CREATE TABLE game_categories (
    game_id     INTEGER PRIMARY KEY,
    category_id INTEGER NOT NULL
);
CREATE INDEX game_categories_by_category ON game_categories (category_id, game_id);
INSERT INTO game_categories (game_id, category_id) VALUES (1, 1), (2, 2), (3, 1), (4, 2);

CREATE TABLE exclusive_cards (
    card_id          INTEGER PRIMARY KEY REFERENCES fast_enter_cards (id),
    game_category_id INTEGER NOT NULL,
    used_minutes     INTEGER NOT NULL DEFAULT 0
);
";

/// The vip → vvip upgrade (commerce.md §2.4, §2.5): one day of the vip left turned into vvip,
/// bought once per day left (it was 31 days of vvip at a fixed price). `seed::shop` seeds a new
/// database the same way. And the time of each user's last card notice.
const UPGRADE: &str = "
UPDATE goods
   SET code = 'vip2vvip', face_value_txt = '1天', face_value = 0, retail_price = 65,
       introduction = '补差价将剩余VIP天数升级为VVIP会员', grant_kind = 'upgrade:vip:vvip', grant_amount = 1
 WHERE id = 201 AND code = 'vip2vvip_31d';

-- when the user was last told of what they received (the card notice, commerce.md §2.8)
ALTER TABLE users ADD COLUMN card_notice_at INTEGER NOT NULL DEFAULT 0;
";

#[cfg(test)]
mod tests {
    use crate::model::GoodsGrant;
    use crate::seed;

    /// The upgrade migration turns an older database's goods into what `seed::shop` seeds.
    #[test]
    fn the_upgrade_migration_matches_the_seed() {
        let (goods, _) = seed::shop();
        let g = goods.iter().find(|g| g.id == 201).unwrap();
        let (kind, amount) = g.grant.to_parts();
        for part in [
            format!("code = '{}'", g.code),
            format!("face_value_txt = '{}'", g.face_value_txt),
            format!("face_value = {}", g.face_value),
            format!("retail_price = {}", g.retail_price),
            format!("introduction = '{}'", g.introduction),
            format!("grant_kind = '{kind}', grant_amount = {amount}"),
        ] {
            assert!(super::UPGRADE.contains(&part), "{part}");
        }
        assert_eq!(GoodsGrant::from_parts(&kind, amount), g.grant);
        assert!(matches!(GoodsGrant::from_parts(&kind, 3), GoodsGrant::Upgrade { days: 3, .. }));
        assert_eq!(g.grant.times(5), Some(GoodsGrant::from_parts(&kind, 5)));
    }
}
