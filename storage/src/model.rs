//! The plain records the repositories store. Times are unix milliseconds chosen by the caller;
//! wire formats are the facade's business, so nothing here serializes.

/// A player account, found by phone number.
#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub uid: i64,
    pub cellphone: String,
    pub nickname: String,
    /// Avatar URL; empty until the user sets one.
    pub avatar: String,
    pub created_at: i64,
    /// Free play time left, in minutes.
    pub play_time_free: i64,
    /// Bought play time left, in minutes.
    pub play_time_paid: i64,
    /// 0 normal, 1 official, 3 super admin (set by operators).
    pub status: i32,
    /// A minor: no relay, no control (set by operators; false by default).
    pub minor: bool,
    /// Relay qualification withdrawn (set by operators).
    pub relay_banned: bool,
}

/// A signed-in browser. Only hashes of its secrets are kept: `token_hash` is the SHA-256 (hex) of
/// the session cookie and `csrf_hash` that of the CSRF token, so a copy of the records lets no
/// one in (the domain hashes; storage compares strings).
#[derive(Debug, Clone, PartialEq)]
pub struct LoginSession {
    pub token_hash: String,
    pub uid: i64,
    pub csrf_hash: String,
    pub device_no: String,
    pub created_at: i64,
    /// The session is gone from `now >= expires_at` on.
    pub expires_at: i64,
}

/// A catalogue entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub id: i64,
    pub name: String,
    pub description: String,
    /// 0 coming soon, 1 on the shelf, 2 off the shelf, 10 not supported on this client.
    pub status: i32,
    /// False takes an on-shelf game off the shelf without changing its status.
    pub available: bool,
    /// Deleted games never appear in listings but can still be fetched by id.
    pub deleted: bool,
    /// The membership needed to play: None, "vip", "vvip" or "hvip".
    pub member_type: Option<String>,
    /// "steam", "epic", "wegame", "uplay", "origin", "battlenet" or "mobile".
    pub platform: String,
    pub chinese: bool,
    pub controller: bool,
    pub instant_play: bool,
    /// 0..360, the main colour of the generated cover art.
    pub hue: i32,
    /// Listing position; ties are broken by id.
    pub sort_order: i32,
    /// The game a game host launches for this entry (a key of the hosts' game configuration,
    /// e.g. `neverball`); a host that lacks it refuses the launch.
    pub host_game: String,
    /// How the game is started (core-platform.md §3.3 "Game info", §4.4 step 10).
    pub start: GameStart,
}

/// How a game is started (core-platform.md §3.3 "Game info", §4.4 step 10).
#[derive(Debug, Clone, PartialEq)]
pub struct GameStart {
    /// 0: any start; above 0: only as a play-together (relay) start, in a room of this mode.
    pub start_mode: i32,
    /// The room modes a relay of this game may run in (2 RELAY, 4 HAND); empty: none.
    pub support_modes: Vec<i32>,
    /// 1: played here; 2: an external game, opened at `start_url` instead of started.
    pub associated_type: i32,
    /// Where an external game is played (https).
    pub start_url: String,
}

impl Default for GameStart {
    /// Played here, alone or in a room of either mode.
    fn default() -> Self {
        GameStart {
            start_mode: 0,
            support_modes: vec![2, 4],
            associated_type: 1,
            start_url: String::new(),
        }
    }
}

/// A server region a game can run in.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub id: i64,
    pub name: String,
    /// 1 = selectable; anything else means under maintenance.
    pub status: i32,
}

/// What a caller knows when a player starts a game; storage assigns the id and the QUEUE status.
#[derive(Debug, Clone, PartialEq)]
pub struct NewGameSession {
    pub uid: i64,
    pub game_id: i64,
    pub node_id: i64,
    pub device_no: String,
    pub created_at: i64,
    /// The queue lane, 0..=6; anything else is a conflict.
    pub lane: i32,
    /// When the game must end whatever its state (ms): a minor's play window closes.
    pub cutoff_at: Option<i64>,
}

/// One run of a game by a player, from queueing to its end.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSessionRecord {
    pub id: i64,
    pub uid: i64,
    pub game_id: i64,
    pub node_id: i64,
    pub device_no: String,
    /// 1 QUEUE, 3 READY, 4 CONNECTING, 5 PLAYING, 0 ENDED.
    pub status: i32,
    /// The machine the game runs on, once one is assigned.
    pub machine_id: Option<String>,
    pub created_at: i64,
    pub ready_at: Option<i64>,
    pub playing_at: Option<i64>,
    /// None while the session is open.
    pub ended_at: Option<i64>,
    pub end_reason: Option<String>,
    /// The queue lane, 0..=6; set at insert, and with `tag` and `seq` by `set_place`.
    pub lane: i32,
    /// The queue place's tag; 0 until the session's place is set.
    pub tag: i64,
    /// The queue place's sequence number; 0 until the session's place is set.
    pub seq: i64,
    /// Minutes of play charged so far (see `AssetRepo::charge_minute`); 0 at insert.
    pub play_minutes: i64,
    /// When the game must end whatever its state (ms), as inserted.
    pub cutoff_at: Option<i64>,
    /// How many times the session went back to the queue after its machine was lost while
    /// READY; 0 at insert.
    pub requeues: i64,
}

/// What the play page measured of one session's stream, reported once when the session is over.
#[derive(Debug, Clone, PartialEq)]
pub struct QualityReport {
    pub session_id: i64,
    pub uid: i64,
    /// Seconds the stream was watched.
    pub played_secs: i64,
    /// Round-trip latency to the game host, median and 95th percentile, in milliseconds.
    pub latency_p50_ms: f64,
    pub latency_p95_ms: f64,
    /// Decoded frames per second, on average.
    pub fps: f64,
    /// Frames dropped (not decoded or not shown).
    pub drops: i64,
    /// Times the stream was opened again after it dropped.
    pub reconnects: i64,
    pub reported_at: i64,
}

/// A played session and its quality report, if one was given.
pub type Played = (GameSessionRecord, Option<QualityReport>);

/// A membership or package a user holds for a time: active while `now < expires_at`.
#[derive(Debug, Clone, PartialEq)]
pub struct Entitlement {
    pub uid: i64,
    /// "vip", "vvip", "tyvip", "tyschvip", "daily", "night" or "fast_enter".
    pub kind: String,
    /// When the current run began (a grant to an active entitlement extends it, keeping this).
    pub starts_at: i64,
    pub expires_at: i64,
}

/// A card that lets its owner skip the queue once.
#[derive(Debug, Clone, PartialEq)]
pub struct FastEnterCard {
    pub id: i64,
    pub uid: i64,
    pub goods_title: String,
    /// 0 unused, 1 used, 2 expired, 3 invalidated. Only an unused card with `now < expires_at`
    /// can be used; storage does not rewrite the status of a card that merely ran out.
    pub status: i32,
    pub expires_at: i64,
    pub created_at: i64,
    /// When the card was used; None until then.
    pub used_at: Option<i64>,
    /// The game session the card was used for; None until then.
    pub used_session: Option<i64>,
    /// Where the card came from, e.g. "monthly" for a monthly claim.
    pub source: String,
    /// 0 a fast-entry card; a time card's play-time type: 1 paid, 2 free, 4 exclusive.
    pub play_type: i32,
    /// The play minutes a time card adds when used (0 for a fast-entry card).
    pub minutes: i64,
    /// How many more times the card may be given to another user.
    pub remain_give_times: i32,
    /// The phone the card was given to (the giver's card, then used).
    pub given_to: Option<String>,
    /// The phone that gave the card (the receiver's card).
    pub given_from: Option<String>,
}

/// A user's claim of the monthly fast-entry cards; one per user and month.
#[derive(Debug, Clone, PartialEq)]
pub struct MonthlyClaim {
    pub uid: i64,
    /// The month claimed, as "YYYY-MM" (e.g. "2026-11"); storage only compares it for equality.
    pub month: String,
    /// How many cards the claim created.
    pub cards: i32,
    pub claimed_at: i64,
}

/// The charge for one minute of a game session, written once per (session_id, minute).
#[derive(Debug, Clone, PartialEq)]
pub struct PlayCharge {
    pub session_id: i64,
    /// 0 for the first minute of the session, then 1, 2, ...
    pub minute: i64,
    pub uid: i64,
    /// Minutes taken from the free balance: 1 or 0.
    pub free: i64,
    /// Minutes taken from the paid balance: 1 or 0 (never both; both 0 under a package).
    pub paid: i64,
    /// The minute fell in a daily/night package window and took nothing.
    pub package: bool,
    pub charged_at: i64,
}

/// What the SMS login rules keep about one phone (core-platform.md §5.1): the codes recently sent
/// to it, the live code and its wrong tries, and the wrong codes that lock its login. Storage
/// keeps it; the domain decides what it means.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PhoneGuard {
    /// When codes were sent to this phone, oldest first.
    pub sends: Vec<i64>,
    /// The code that can log in now, if any.
    pub code: Option<PendingCode>,
    /// Wrong codes since the last login or lock.
    pub failures: u32,
    /// Login refused before this time (0: not locked).
    pub locked_until: i64,
}

/// A code sent and not yet used: only its (keyed) hash is kept.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingCode {
    pub code_hash: String,
    pub sent_at: i64,
    /// Wrong tries on this code.
    pub tries: u32,
}

/// A fixed-window counter: what `scope` (e.g. `ip:127.0.0.1`, `all`) counted in the window that
/// starts at `window_start`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CounterKey {
    pub scope: String,
    pub window_start: i64,
}

/// What a host gives when creating a room; storage assigns `dd_rid` and `room_serial`.
#[derive(Debug, Clone, PartialEq)]
pub struct NewRoom {
    pub host_uid: i64,
    pub name: String,
    /// 2 RELAY, 4 HAND.
    pub mode: i32,
    pub is_show: bool,
    /// The password's salt and SHA-256 (hex), never the password.
    pub password: Option<RoomPassword>,
    pub game_id: i64,
    pub created_at: i64,
}

/// A room password at rest: a per-room salt and the SHA-256 (hex) of salt and digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomPassword {
    pub salt: String,
    pub hash: String,
}

/// A live room, open (`ended_at` None) or ended, with its summary counters.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomRecord {
    pub dd_rid: i64,
    pub room_serial: i64,
    pub host_uid: i64,
    pub name: String,
    pub mode: i32,
    pub is_show: bool,
    pub password: Option<RoomPassword>,
    pub game_id: i64,
    /// The host's game session serving as the room's relay, once started.
    pub relay_session: Option<i64>,
    pub created_at: i64,
    pub ended_at: Option<i64>,
    /// Distinct members over the room's life.
    pub audience_count: i64,
    /// Distinct users seated over the room's life.
    pub mike_count: i64,
    /// Control grants over the room's life.
    pub control_count: i64,
    pub gift_count: i64,
    pub gold: i64,
}

/// A user a host blocked from their rooms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomBlock {
    pub owner_uid: i64,
    pub blocked_uid: i64,
    pub created_at: i64,
}

/// A report about a room or one of its members.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomReport {
    pub dd_rid: i64,
    pub reporter: i64,
    /// The reported member; None: the room.
    pub target: Option<i64>,
    /// 0 advertising, 1 pornography, 2 illegal/crime, 3 fraud, 4 harassment, 5 abuse, 6 other.
    pub reason: i32,
    pub text: String,
    pub created_at: i64,
}

/// A balance the ledger tracks (commerce: every change of one is a [`LedgerEntry`]).
///
/// The ledger's `asset` column holds [`Asset::key`]: `coins`, `yoodo`, `play_free`,
/// `play_paid`, `cards` (unused fast-entry cards) or `ent:{kind}` (an entitlement's expiry in ms).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Asset {
    /// 云游币, integer coins.
    Coins,
    /// Yoodo, integer.
    Yoodo,
    /// Free play minutes.
    PlayFree,
    /// Bought play minutes.
    PlayPaid,
    /// Unused fast-entry cards (their count).
    Cards,
    /// Unused time cards (their count).
    TimeCards,
    /// An entitlement of this kind: its balance is its `expires_at` (ms; 0 when never granted).
    Entitlement(String),
    /// Unused coupons (their count; a reservation by an open order changes nothing).
    Coupons,
    /// Redeemable keys of the coupon groups the user bought (their count; `merchant.rs`).
    RedeemKeys,
}

impl Asset {
    pub fn key(&self) -> String {
        match self {
            Asset::Coins => "coins".into(),
            Asset::Yoodo => "yoodo".into(),
            Asset::PlayFree => "play_free".into(),
            Asset::PlayPaid => "play_paid".into(),
            Asset::Cards => "cards".into(),
            Asset::TimeCards => "time_cards".into(),
            Asset::Entitlement(kind) => format!("ent:{kind}"),
            Asset::Coupons => "coupons".into(),
            Asset::RedeemKeys => "redeem_keys".into(),
        }
    }

    pub fn from_key(key: &str) -> Option<Asset> {
        Some(match key {
            "coins" => Asset::Coins,
            "yoodo" => Asset::Yoodo,
            "play_free" => Asset::PlayFree,
            "play_paid" => Asset::PlayPaid,
            "cards" => Asset::Cards,
            "time_cards" => Asset::TimeCards,
            "coupons" => Asset::Coupons,
            "redeem_keys" => Asset::RedeemKeys,
            other => Asset::Entitlement(other.strip_prefix("ent:")?.to_owned()),
        })
    }
}

/// A balance its ledger does not replay to (the whole-ledger check).
#[derive(Debug, Clone, PartialEq)]
pub struct LedgerMismatch {
    pub uid: i64,
    /// The asset's key (`coins`, `play_paid`, an entitlement kind...).
    pub asset: String,
    /// The sum of the asset's entries.
    pub replayed: i64,
    /// The balance stored.
    pub stored: i64,
}

/// One change of one balance, written in the same transaction as the change. Replaying a
/// user's entries (summing `delta` per asset) gives every balance.
#[derive(Debug, Clone, PartialEq)]
pub struct LedgerEntry {
    pub id: i64,
    pub uid: i64,
    /// [`Asset::key`].
    pub asset: String,
    pub delta: i64,
    pub balance_after: i64,
    /// Why: `order`, `coin_pay`, `grant`, `play_minute`, `card_use`, `monthly`, `register`, ...
    pub reason: String,
    /// What: an order number, `session:{id}:{minute}`, a month, ... (may be empty).
    pub reference: String,
    pub at: i64,
}

/// A time card to give a user (`AssetRepo::add_time_card`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewTimeCard<'a> {
    pub goods_title: &'a str,
    /// 1 paid, 2 free, 4 exclusive.
    pub play_type: i32,
    pub minutes: i64,
    /// ms
    pub expires_at: i64,
    /// How many times it may be given on.
    pub give_times: i32,
}

/// A player's wallet: coins (云游币) and yoodo, integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Wallet {
    pub coins: i64,
    pub yoodo: i64,
}

/// What buying one unit of a goods grants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GoodsGrant {
    /// An entitlement (vip, vvip, daily, night, fast_enter, ...) for this many days.
    Entitlement { kind: String, days: i64 },
    /// Bought play minutes.
    PlayTime { minutes: i64 },
    /// Coins (云游币).
    Coins { amount: i64 },
    /// Yoodo.
    Yoodo { amount: i64 },
    /// Fast-entry cards, valid 30 days.
    Cards { count: i64 },
    /// An upgrade: `days` days taken from the end of the entitlement `from` (while it runs) and
    /// added to `to` (vip → vvip, commerce.md §2.4, §2.5).
    Upgrade { from: String, to: String, days: i64 },
    /// A coupon group's redeem keys (`merchant.rs`): its `count` pending keys become
    /// redeemable when the order is fulfilled.
    RedeemKeys { count: i64 },
}

/// How an upgrade's grant kind is stored: `upgrade:{from}:{to}`.
const UPGRADE_PREFIX: &str = "upgrade:";

impl GoodsGrant {
    /// (kind, amount) as stored: the entitlement kind or `play_time`, `coins`, `yoodo`, `cards`.
    pub fn to_parts(&self) -> (String, i64) {
        match self {
            GoodsGrant::Entitlement { kind, days } => (kind.clone(), *days),
            GoodsGrant::PlayTime { minutes } => ("play_time".into(), *minutes),
            GoodsGrant::Coins { amount } => ("coins".into(), *amount),
            GoodsGrant::Yoodo { amount } => ("yoodo".into(), *amount),
            GoodsGrant::Cards { count } => ("cards".into(), *count),
            GoodsGrant::Upgrade { from, to, days } => (format!("{UPGRADE_PREFIX}{from}:{to}"), *days),
            GoodsGrant::RedeemKeys { count } => ("redeem_keys".into(), *count),
        }
    }

    pub fn from_parts(kind: &str, amount: i64) -> GoodsGrant {
        match kind {
            "play_time" => GoodsGrant::PlayTime { minutes: amount },
            "coins" => GoodsGrant::Coins { amount },
            "yoodo" => GoodsGrant::Yoodo { amount },
            "cards" => GoodsGrant::Cards { count: amount },
            "redeem_keys" => GoodsGrant::RedeemKeys { count: amount },
            kind => match kind.strip_prefix(UPGRADE_PREFIX).and_then(|k| k.split_once(':')) {
                Some((from, to)) => GoodsGrant::Upgrade {
                    from: from.to_owned(),
                    to: to.to_owned(),
                    days: amount,
                },
                None => GoodsGrant::Entitlement {
                    kind: kind.to_owned(),
                    days: amount,
                },
            },
        }
    }

    /// The grant of `count` units (None on overflow).
    pub fn times(&self, count: i64) -> Option<GoodsGrant> {
        let (kind, amount) = self.to_parts();
        Some(GoodsGrant::from_parts(&kind, amount.checked_mul(count)?))
    }
}

/// A goods of the shop (commerce.md §3 "Pay product"). Prices are integer fen. A goods with a
/// `parent_id` is one duration option (speci) of its parent; it is bought by its own id.
#[derive(Debug, Clone, PartialEq)]
pub struct Goods {
    pub id: i64,
    /// Unique (`goods_code` of the calls).
    pub code: String,
    /// The product type (commerce.md §9: 2 TIME, 3 QUEUE, 4 VIP, 5 VVIP, 12 YOODO, 22 NIGHT_PACKAGE, 27 DAILY_PACKAGE...).
    pub goods_type: i32,
    pub title: String,
    pub name: String,
    pub image: String,
    /// A JSON string `{title, effect}`, or empty.
    pub label: String,
    pub description: String,
    /// Newline-separated.
    pub introduction: String,
    pub give_goods_name: String,
    /// "1个月", "600分钟", ...
    pub face_value_txt: String,
    /// Months of a duration option (0 elsewhere).
    pub face_value: i64,
    /// Retail (unit) price, fen.
    pub retail_price: i64,
    /// Member price, fen (0: none).
    pub member_price: i64,
    /// Crossed (original) price, fen (0: none).
    pub crossed_price: i64,
    /// Auto-renew product (`external.cycleable`).
    pub cycleable: bool,
    /// First-period price of an auto-renew product, fen (0: none).
    pub first_price: i64,
    /// What one unit grants.
    pub grant: GoodsGrant,
    /// The goods this one is a duration option of.
    pub parent_id: Option<i64>,
    /// On sale.
    pub on_sale: bool,
    pub sort_order: i32,
}

/// An order's state (commerce: created → paid → fulfilled, or expired / cancelled / refunded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderState {
    Created,
    Paid,
    Fulfilled,
    Expired,
    Cancelled,
    Refunded,
}

impl OrderState {
    pub fn as_str(self) -> &'static str {
        match self {
            OrderState::Created => "created",
            OrderState::Paid => "paid",
            OrderState::Fulfilled => "fulfilled",
            OrderState::Expired => "expired",
            OrderState::Cancelled => "cancelled",
            OrderState::Refunded => "refunded",
        }
    }

    pub fn parse(s: &str) -> Option<OrderState> {
        Some(match s {
            "created" => OrderState::Created,
            "paid" => OrderState::Paid,
            "fulfilled" => OrderState::Fulfilled,
            "expired" => OrderState::Expired,
            "cancelled" => OrderState::Cancelled,
            "refunded" => OrderState::Refunded,
            _ => return None,
        })
    }
}

/// An order to create. `(uid, idem_key)` is unique: a second insert returns the first order.
#[derive(Debug, Clone, PartialEq)]
pub struct NewOrder {
    pub order_no: String,
    pub uid: i64,
    pub goods_id: i64,
    pub goods_code: String,
    pub goods_type: i32,
    pub title: String,
    pub count: i64,
    /// What the player pays, fen (coins for `yunyoubi`: 1 coin = 1 fen).
    pub amount_fen: i64,
    /// Retail × count, fen (the savings are `retail_total - amount_fen`).
    pub retail_total: i64,
    /// wechat, alipay, yunyoubi or bank.
    pub pay_method: String,
    pub coupon_id: Option<i64>,
    /// What the order grants when fulfilled (the goods' grant × count, fixed at creation).
    pub grant: GoodsGrant,
    pub idem_key: String,
    pub created_at: i64,
    pub expires_at: i64,
}

/// A stored order.
#[derive(Debug, Clone, PartialEq)]
pub struct Order {
    pub order: NewOrder,
    pub state: OrderState,
    /// When the payer opened the pay page (QR scanned).
    pub scanned_at: Option<i64>,
    pub paid_at: Option<i64>,
    pub fulfilled_at: Option<i64>,
    /// When it expired, was cancelled or refunded.
    pub closed_at: Option<i64>,
    /// The provider's transaction number.
    pub trade_no: Option<String>,
}

/// A payment callback as received, accepted or refused.
#[derive(Debug, Clone, PartialEq)]
pub struct PaymentCallback {
    pub id: i64,
    pub order_no: String,
    pub provider: String,
    /// The body as received.
    pub payload: String,
    pub accepted: bool,
    /// Why it was refused, or what it did (`paid`, `duplicate`).
    pub outcome: String,
    pub at: i64,
}

/// What settling a payment did.
#[derive(Debug, Clone, PartialEq)]
pub enum Settled {
    /// This call paid and fulfilled the order (in one transaction).
    Fulfilled(Order),
    /// The order was paid and fulfilled before: nothing changed.
    Already(Order),
}

/// A kind of coupon: what a grant copies into each coupon it makes (commerce.md §3 "Coupon").
#[derive(Debug, Clone, PartialEq)]
pub struct CouponSpec {
    /// The kind's code (`sid`).
    pub sid: String,
    pub title: String,
    /// The one goods it applies to ("" any goods of `goods_types`).
    pub goods_code: String,
    /// The goods types it applies to (empty: any).
    pub goods_types: Vec<i32>,
    /// fen off.
    pub face_value: i64,
    /// fen the order must reach (0: no threshold).
    pub min_order_money: i64,
    /// Supermarket exclusive (a label).
    pub supermarket: bool,
    /// Days it stays usable: until 23:59:59 (UTC+8) of the day that many days after the grant's.
    pub valid_days: i64,
}

/// A coupon a user owns (the backpack's card_type 3).
#[derive(Debug, Clone, PartialEq)]
pub struct Coupon {
    pub id: i64,
    pub uid: i64,
    pub spec: CouponSpec,
    /// 0 unused, 1 used, 3 invalidated (an unused coupon past `expires_at` reads expired, 2).
    pub status: i32,
    /// ms
    pub expires_at: i64,
    pub created_at: i64,
    pub used_at: Option<i64>,
    /// The order that used it.
    pub used_order: Option<String>,
    /// The open order holding it.
    pub reserved_by: Option<String>,
    /// Where it came from: welcome, activity:{id}, grant.
    pub source: String,
}
