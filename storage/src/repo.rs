//! The repository traits, one per aggregate. They are synchronous and may block on I/O: async
//! callers run them in `spawn_blocking`. Every backend must pass `crate::conformance`.
//!
//! References between records (a login's or a game session's `uid`, a game session's `game_id`,
//! an entitlement's, card's or claim's `uid`, a card's `used_session`) are the caller's to keep
//! right; a backend that can check them reports a missing row as
//! [`Error::Conflict`](crate::Error::Conflict). The record a call must change is different: when
//! it is missing the call fails with [`Error::NotFound`](crate::Error::NotFound).
//!
//! Writes that spend or grant something of value ([`AssetRepo`]: play time, card use, monthly
//! claims) are atomic and conditional: concurrent callers, also on other connections or in other
//! processes, can neither spend one thing twice nor take a balance below zero.

use crate::activity::OrderRules;
use crate::model::{
    CounterKey, Entitlement, FastEnterCard, Game, GameSessionRecord, Goods, GoodsGrant, LedgerEntry, LedgerMismatch, LoginSession,
    MonthlyClaim, NewGameSession, NewOrder, NewRoom, NewTimeCard, Node, Order, PaymentCallback, PhoneGuard, PlayCharge, Played,
    QualityReport, RoomBlock, RoomRecord, RoomReport, Settled, User, Wallet,
};
use crate::Result;

/// Player accounts.
pub trait UserRepo: Send + Sync {
    /// Returns the user with this phone, creating it (nickname given) if absent; bool = created now.
    /// A new user has an empty avatar and no play time. Concurrent calls for one phone create one user.
    fn get_or_create_by_phone(&self, cellphone: &str, nickname: &str, now: i64) -> Result<(User, bool)>;
    fn get(&self, uid: i64) -> Result<Option<User>>;
    /// The user with this phone, if any (never creates one).
    fn find_by_phone(&self, cellphone: &str) -> Result<Option<User>>;
    /// Sets the operator flags (status, minor, relay_banned); NotFound if no such user.
    fn set_flags(&self, uid: i64, status: i32, minor: bool, relay_banned: bool) -> Result<User>;
    /// Records that the user was told of what they received up to `received_at` (the card
    /// notice; the mark only grows) and returns the mark before (0: never); NotFound if no such
    /// user.
    fn mark_card_notice(&self, uid: i64, received_at: i64) -> Result<i64>;
    /// Sets the nickname and/or the avatar (None: unchanged) as the account centre changed
    /// them; the user after. NotFound if no such user.
    fn set_profile(&self, uid: i64, nickname: Option<&str>, avatar: Option<&str>) -> Result<User>;
}

/// Signed-in browsers, found by the hash of their cookie token.
pub trait LoginSessionRepo: Send + Sync {
    /// Conflict on a duplicate token hash.
    fn insert(&self, s: &LoginSession) -> Result<()>;
    /// None if unknown or expired (`now >= expires_at`).
    fn get(&self, token_hash: &str, now: i64) -> Result<Option<LoginSession>>;
    /// Deleting an unknown token hash succeeds.
    fn delete(&self, token_hash: &str) -> Result<()>;
    /// Deletes the sessions expired at `now`; returns how many.
    fn delete_expired(&self, now: i64) -> Result<u64>;
}

/// The SMS login rules' records: one [`PhoneGuard`] per phone and fixed-window counters (per
/// address, global). The rules themselves are the caller's: storage reads, hands over and writes
/// back, atomically.
pub trait SmsRepo: Send + Sync {
    /// Runs `f` on the phone's guard (the default when none is stored) and on the current values
    /// of `counters` (0 when absent), in one transaction that no other update of this phone or of
    /// these counters can interleave with (also from other connections or processes). When `f`
    /// returns true what it leaves is stored: a guard equal to the default is removed, and
    /// writing a counter removes the older windows of its scope; when it returns false nothing
    /// is written. `now` is the guard's last-update time (see [`SmsRepo::prune`]).
    fn update(&self, phone: &str, counters: &[CounterKey], now: i64, f: &mut dyn FnMut(&mut PhoneGuard, &mut [u64]) -> bool) -> Result<()>;
    /// The stored guard of a phone (None: the default), without changing it.
    fn guard(&self, phone: &str) -> Result<Option<PhoneGuard>>;
    /// Forgets guards last updated before `before` that are not locked at `before`, and counter
    /// windows that started before `before`; returns how many records went.
    fn prune(&self, before: i64) -> Result<u64>;
}

/// The game catalogue.
pub trait GameRepo: Send + Sync {
    /// Not-deleted games whose name contains keyword (case-insensitive for ASCII letters; the
    /// keyword is trimmed, and None or "" = all), ordered by sort_order then id; page is 1-based
    /// (0 counts as 1). Returns (page items, total matching).
    fn list(&self, keyword: Option<&str>, page: u32, page_size: u32) -> Result<(Vec<Game>, u64)>;
    /// Deleted games are still returned (callers decide).
    fn get(&self, id: i64) -> Result<Option<Game>>;
    /// Inserts or replaces each game by id, all or nothing.
    fn upsert_all(&self, games: &[Game]) -> Result<()>;
    /// All stored games, deleted ones included.
    fn count(&self) -> Result<u64>;
    /// The ids of the games of a game category (commerce.md §2.1 `/game/section`), in listing order.
    fn games_of_category(&self, game_category_id: i64) -> Result<Vec<i64>>;
    /// The game category of a game, None when it has none.
    fn category_of(&self, game_id: i64) -> Result<Option<i64>>;
}

/// Server regions.
pub trait NodeRepo: Send + Sync {
    /// Ordered by id.
    fn list(&self) -> Result<Vec<Node>>;
    fn get(&self, id: i64) -> Result<Option<Node>>;
    /// Inserts or replaces the node by id.
    fn upsert(&self, node: &Node) -> Result<()>;
}

/// Game sessions, open and ended.
///
/// A session's lane must be in 0..=6: inserting or writing another one is a Conflict.
pub trait GameSessionRepo: Send + Sync {
    /// Stores a session in status 1 (QUEUE) under a new, never reused, increasing id, with the
    /// given lane, tag and seq 0 (no place yet) and no minutes played.
    fn insert(&self, s: &NewGameSession) -> Result<GameSessionRecord>;
    /// [`insert`](Self::insert) unless the user has a session not ended: `None` then. Two of
    /// these for one user at once (two processes of a cluster) insert one at most: the check and
    /// the insert are one write transaction (SERIALIZABLE on PostgreSQL, one writer on SQLite).
    fn insert_if_none_open(&self, s: &NewGameSession) -> Result<Option<GameSessionRecord>>;
    /// Replaces every field but the id, the place and `play_minutes` included; NotFound if the id
    /// is unknown. `play_minutes` is also written by [`AssetRepo::charge_minute`], so a caller
    /// that updates a session being charged must carry it over from a fresh read.
    fn update(&self, r: &GameSessionRecord) -> Result<()>;
    fn get(&self, id: i64) -> Result<Option<GameSessionRecord>>;
    /// The user's sessions, newest first (by created_at, then id), at most `limit`.
    fn list_by_user(&self, uid: i64, limit: u32) -> Result<Vec<GameSessionRecord>>;
    /// Sessions with `ended_at` None, by id.
    fn list_open(&self) -> Result<Vec<GameSessionRecord>>;
    /// Records a queued session's place (lane, tag, seq); NotFound if the id is unknown.
    fn set_place(&self, id: i64, lane: i32, tag: i64, seq: i64) -> Result<()>;
    /// The largest tag among the sessions of this node (all games: a node has one queue) that
    /// left the queue for a machine (`ready_at` is set), ended or not; None if none did.
    fn max_admitted_tag(&self, node_id: i64) -> Result<Option<i64>>;
    /// Stores the quality report of a session, once: NotFound if the session is unknown;
    /// Conflict if it belongs to another user than `q.uid` or already has a report (the first
    /// report stands).
    fn add_quality(&self, q: &QualityReport) -> Result<()>;
    /// The quality report of a session, if one was stored.
    fn quality(&self, session_id: i64) -> Result<Option<QualityReport>>;
    /// The user's sessions that reached PLAYING (`playing_at` set), newest first (by
    /// `playing_at`, then id), skipping `offset`, at most `limit`, each with its quality report;
    /// and how many such sessions the user has.
    fn played(&self, uid: i64, offset: u64, limit: u32) -> Result<(Vec<Played>, u64)>;
}

/// What a player owns: play time, memberships and packages, fast-entry cards, monthly claims.
///
/// Every write is one atomic, conditional step: a failed call writes nothing. Every change of a
/// balance (play time free and paid, an entitlement's expiry, the unused cards) appends its
/// ledger entry ([`CommerceRepo::ledger`]) in the same transaction.
pub trait AssetRepo: Send + Sync + PackageRepo {
    /// Adds minutes (each >= 0, else Conflict) to the user's free and paid play time; NotFound
    /// if no such user; Conflict if a balance would overflow. Returns the user after. `now` is
    /// the ledger entries' time.
    fn add_play_time(&self, uid: i64, free: i64, paid: i64, now: i64) -> Result<User>;
    /// Charges minute number `minute` (0, 1, 2, ...; negative is a Conflict) of a session, once:
    /// with `package` true nothing is taken (a daily/night package window); otherwise one minute
    /// of free time if any, else of paid time. In the same step the session's `play_minutes`
    /// becomes max(play_minutes, minute + 1).
    ///
    /// Idempotent per (session_id, minute): a repeat takes nothing and returns the first charge
    /// (whatever `package` and `now` it is given) with `true` (replayed). With both balances at 0
    /// and `!package`: `Err(Conflict("no play time"))` and nothing is written. NotFound if the
    /// session is unknown; Conflict if it (or the first charge of this minute) belongs to another
    /// user. Returns (the charge, the user after, replayed).
    fn charge_minute(&self, uid: i64, session_id: i64, minute: i64, package: bool, now: i64) -> Result<(PlayCharge, User, bool)>;
    /// Grants `duration_ms` (>= 0, else Conflict) of an entitlement: an active one of the same
    /// kind (`expires_at > now`) is extended by the duration, keeping its `starts_at`; otherwise
    /// a new one runs from now (replacing the expired one). Returns it after.
    fn grant_entitlement(&self, uid: i64, kind: &str, duration_ms: i64, now: i64) -> Result<Entitlement>;
    /// The user's active entitlements (`expires_at > now`), by kind.
    fn entitlements(&self, uid: i64, now: i64) -> Result<Vec<Entitlement>>;
    /// Gives the user a new unused card under a new, never reused, increasing id.
    fn add_card(&self, uid: i64, goods_title: &str, expires_at: i64, source: &str, now: i64) -> Result<FastEnterCard>;
    /// Usable cards: status 0 and `expires_at > now`, soonest expiry first, then id.
    fn cards(&self, uid: i64, now: i64) -> Result<Vec<FastEnterCard>>;
    /// Uses a card for a session, conditionally: NotFound if no such card of this user; Conflict
    /// if it is not usable (used, invalidated, or expired at `now`). Sets status 1, `used_at`,
    /// `used_session` and returns the card after. Of racing uses of one card exactly one succeeds.
    fn use_card(&self, uid: i64, card_id: i64, session_id: i64, now: i64) -> Result<FastEnterCard>;
    /// Gives the user a new unused time card: using it adds `minutes` (> 0) of play time of
    /// `play_type` (1 paid, 2 free, 4 exclusive; else Conflict). NotFound if no such user.
    /// `give_times` (>= 0) is how many times it may be given on. Writes its ledger entry.
    fn add_time_card(&self, uid: i64, card: NewTimeCard<'_>, now: i64) -> Result<FastEnterCard>;
    /// Gives an unused, unexpired card with `remain_give_times` > 0 to the user `to` = (uid,
    /// phone), in one conditional step: the giver's card becomes used with `given_to`; the
    /// receiver gets a copy (source "gift", one give fewer, `given_from` = `from_phone`); each
    /// side's card count gets its ledger entry (reason "card_give", reference "card:{id}").
    /// NotFound if no such card of this user; Conflict if it cannot be given (or to oneself).
    /// Returns (the giver's card after, the receiver's card).
    fn give_card(&self, uid: i64, card_id: i64, to: (i64, &str), from_phone: &str, now: i64) -> Result<(FastEnterCard, FastEnterCard)>;
    /// Every card of the user (fast-entry and time cards, any status), newest first.
    fn backpack(&self, uid: i64) -> Result<Vec<FastEnterCard>>;
    /// Uses a time card, conditionally: NotFound if no such card of this user; Conflict if it
    /// is not a time card, not usable (used, invalidated, or expired at `now`), or of a
    /// play-time type this store has no balance for (exclusive). In the same step its minutes
    /// are added to the balance of its type with their ledger entry (reason "card_use",
    /// reference "card:{id}"). Of racing uses of one card exactly one succeeds. Returns the
    /// card after and the user after.
    fn use_time_card(&self, uid: i64, card_id: i64, now: i64) -> Result<(FastEnterCard, User)>;
    /// One claim per user and month: Conflict if this month was claimed (or `cards` < 0);
    /// otherwise atomically records the claim and creates `cards` cards (title, expiry, source
    /// "monthly") and returns them, by id.
    fn claim_monthly(
        &self,
        uid: i64,
        month: &str,
        cards: i32,
        goods_title: &str,
        expires_at: i64,
        now: i64,
    ) -> Result<(MonthlyClaim, Vec<FastEnterCard>)>;
    /// The user's claims, newest first (by claimed_at, then month).
    fn monthly_claims(&self, uid: i64) -> Result<Vec<MonthlyClaim>>;
    /// Ties the user's unused exclusive (type 4) time card to a game category (commerce.md
    /// §4.12): its minutes are then charged only for games of that category. NotFound if no such
    /// card of this user; Conflict if it is not an unused exclusive card.
    fn set_card_category(&self, uid: i64, card_id: i64, game_category_id: i64) -> Result<()>;
    /// The user's usable exclusive cards (unused, unexpired at `now`, minutes left), by card id:
    /// (card id, game category, minutes left).
    fn exclusive_cards(&self, uid: i64, now: i64) -> Result<Vec<(i64, i64, i64)>>;
}

/// Live rooms, the hosts' blacklists and reports.
///
/// A user hosts at most one open room: inserting a second open room for a host is a Conflict.
pub trait RoomRepo: Send + Sync {
    /// Stores an open room under a new, never reused, increasing `dd_rid` and `room_serial`
    /// (serials are a sequence of their own), with no relay session and zero counters.
    fn insert(&self, r: &NewRoom) -> Result<RoomRecord>;
    fn get(&self, dd_rid: i64) -> Result<Option<RoomRecord>>;
    fn by_serial(&self, room_serial: i64) -> Result<Option<RoomRecord>>;
    /// The room whose relay session is `session_id`, open or ended.
    fn by_relay_session(&self, session_id: i64) -> Result<Option<RoomRecord>>;
    /// The host's open room, if any.
    fn open_by_host(&self, host_uid: i64) -> Result<Option<RoomRecord>>;
    /// Open rooms, by dd_rid.
    fn list_open(&self) -> Result<Vec<RoomRecord>>;
    /// Replaces every field but the ids, the host and `created_at`; NotFound if unknown.
    fn update(&self, r: &RoomRecord) -> Result<()>;
    /// Blocks `blocked` from `owner`'s rooms; blocking again keeps the first time. Conflict when
    /// a user blocks themselves.
    fn block(&self, owner: i64, blocked: i64, now: i64) -> Result<RoomBlock>;
    /// Unblocks; unblocking a user not blocked succeeds (false: nothing was there).
    fn unblock(&self, owner: i64, blocked: i64) -> Result<bool>;
    fn is_blocked(&self, owner: i64, blocked: i64) -> Result<bool>;
    /// The owner's blocks, newest first (then by blocked uid), skipping `offset`, at most
    /// `limit`; and how many there are.
    fn blocks(&self, owner: i64, offset: u64, limit: u32) -> Result<(Vec<RoomBlock>, u64)>;
    /// Stores a report; returns its id (increasing).
    fn add_report(&self, r: &RoomReport) -> Result<i64>;
    /// The reports about a room, oldest first.
    fn reports(&self, dd_rid: i64) -> Result<Vec<RoomReport>>;
    /// The rooms the user hosted (the bills' live record), newest first, skipping `offset`, at
    /// most `limit`, each with the play minutes charged to its relay session; and how many.
    fn hosted(&self, host_uid: i64, offset: u64, limit: u32) -> Result<(Vec<(RoomRecord, i64)>, u64)>;
}

/// The shop and the money path: goods and sections, wallets, orders, payment callbacks and the
/// ledger. Every transition of an order is one conditional write: a repeated or late call
/// changes nothing. Every balance change appends a ledger entry in the same transaction.
pub trait CommerceRepo: Send + Sync {
    /// The goods of a section (on sale, top-level), by sort order then id, each with its
    /// duration options (on sale, by sort order) after it in the second list.
    fn section(&self, section_key: &str) -> Result<Vec<(Goods, Vec<Goods>)>>;
    fn goods(&self, id: i64) -> Result<Option<Goods>>;
    fn goods_by_code(&self, code: &str) -> Result<Option<Goods>>;
    /// The duration options of a goods (on sale, by sort order).
    fn speci(&self, parent_id: i64) -> Result<Vec<Goods>>;
    /// Inserts or replaces goods by id, and sets the sections' goods (section key, goods id,
    /// sort), all or nothing (the seed).
    fn upsert_goods(&self, goods: &[Goods], sections: &[(String, i64, i32)]) -> Result<()>;
    /// How many goods are stored.
    fn goods_count(&self) -> Result<u64>;

    /// The wallet (zero when the user never had one).
    fn wallet(&self, uid: i64) -> Result<Wallet>;
    /// Grants, in one transaction with their ledger entries (reason, reference); NotFound if
    /// no such user.
    fn grant(&self, uid: i64, grants: &[GoodsGrant], reason: &str, reference: &str, now: i64) -> Result<()>;

    /// Creates the order, once per `(uid, idem_key)`: when one exists it is returned as it is,
    /// with `false`. The order number must be new (else Conflict).
    fn create_order(&self, o: &NewOrder) -> Result<(Order, bool)>;
    /// Pays an order with coins: creates it (once per idempotency key) and in the same
    /// transaction takes `amount_fen` coins and fulfils it. An existing order of the key is
    /// returned as it is (`Settled::Already` when fulfilled; Conflict when in another state).
    /// Not enough coins: `Err(Refused(InsufficientCoins))` and nothing is written.
    /// `rules` decide what the fulfilment triggers (`activity::OrderRules`).
    fn pay_with_coins(&self, o: &NewOrder, now: i64, rules: &dyn OrderRules) -> Result<Settled>;
    fn order(&self, order_no: &str) -> Result<Option<Order>>;
    /// The user's orders, newest first, of one goods type when given; skipping `offset`, at
    /// most `limit`; and how many there are.
    fn orders(&self, uid: i64, goods_type: Option<i32>, offset: u64, limit: u32) -> Result<(Vec<Order>, u64)>;
    /// Orders in `created` state, by expiry (to re-arm their expiry after a restart).
    fn open_orders(&self) -> Result<Vec<Order>>;
    /// Marks a created order scanned (first time only); returns it after. NotFound if unknown.
    fn mark_scanned(&self, order_no: &str, now: i64) -> Result<Order>;
    /// Settles a provider's payment of `amount_fen` (which must equal the order's, else
    /// Conflict): created → paid → fulfilled, granting what the order grants, all in one
    /// transaction. An order paid within its time but expired meanwhile (`paid_at <
    /// expires_at`) is settled too. Already fulfilled with this trade number: `Already`.
    /// Otherwise (cancelled, refunded, expired before the payment) Conflict; NotFound if unknown.
    /// An order made under an auto-renewal agreement activates it in that transaction too.
    /// `rules` decide what the fulfilment triggers (`activity::OrderRules`).
    fn settle(&self, order_no: &str, amount_fen: i64, trade_no: &str, paid_at: i64, now: i64, rules: &dyn OrderRules) -> Result<Settled>;
    /// created → expired when `now >= expires_at`; returns whether this call changed it.
    fn expire(&self, order_no: &str, now: i64) -> Result<bool>;
    /// created → cancelled; returns whether this call changed it.
    fn cancel(&self, order_no: &str, now: i64) -> Result<bool>;
    /// Records a payment callback as received, with its outcome.
    fn log_callback(&self, order_no: &str, provider: &str, payload: &str, accepted: bool, outcome: &str, now: i64) -> Result<()>;
    /// The callbacks of an order, oldest first.
    fn callbacks(&self, order_no: &str) -> Result<Vec<PaymentCallback>>;

    /// The user's ledger, oldest first.
    fn ledger(&self, uid: i64) -> Result<Vec<LedgerEntry>>;
    /// Replays the user's ledger against the balances: the assets whose replayed sum (or last
    /// `balance_after`) differs from the stored balance, as `(asset, replayed, stored)`; empty
    /// when they match.
    fn ledger_mismatches(&self, uid: i64) -> Result<Vec<(String, i64, i64)>>;
    /// [`CommerceRepo::ledger_mismatches`] of every user who has a ledger entry, in one
    /// transaction: (users checked, each mismatch).
    fn ledger_check_all(&self) -> Result<(u64, Vec<LedgerMismatch>)>;
}

use crate::model::{Coupon, CouponSpec};

/// Coupons (the backpack's card_type 3) and the limited-time activities' receipts. Using a
/// coupon is the order's business (`CommerceRepo`: an order holds it from its creation, uses it
/// in the transaction that fulfils it, lets it go when it expires or is cancelled); each grant
/// and use writes its ledger entry (`coupons`) in the same transaction.
pub trait CouponRepo: Send + Sync {
    /// Gives the user one coupon of each `(spec, expires_at)`, with one ledger entry; NotFound
    /// if no such user.
    fn grant_coupons(&self, uid: i64, coupons: &[(CouponSpec, i64)], source: &str, now: i64) -> Result<Vec<Coupon>>;
    /// The user's coupons, every status, oldest first.
    fn coupons(&self, uid: i64) -> Result<Vec<Coupon>>;
    fn coupon(&self, id: i64) -> Result<Option<Coupon>>;
    /// The user receives an activity's coupons: once per (activity, user). None (nothing
    /// written) when received before.
    fn receive_activity(&self, uid: i64, activity_id: i64, coupons: &[(CouponSpec, i64)], now: i64) -> Result<Option<Vec<Coupon>>>;
}

/// The daily and night packages' history (commerce.md §2.7), beside what a player owns.
pub trait PackageRepo: Send + Sync {
    /// The user's latest run of entitlement `kind`, expired or not (None if never held).
    fn latest_entitlement(&self, uid: i64, kind: &str) -> Result<Option<Entitlement>>;
    /// How many minutes were charged under a package window (`play_charges.package`) in
    /// `[from, to)` at an hour of the day (UTC+8) in `hours` (`start..end`, wrapping past
    /// midnight when `start > end`).
    fn package_minutes(&self, uid: i64, from: i64, to: i64, hours: (i64, i64)) -> Result<i64>;
}
