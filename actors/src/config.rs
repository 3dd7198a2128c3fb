//! The domain's configuration; the facade reads it from the TOML file in `ops/`.

use std::time::Duration;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DomainConfig {
    /// In a cluster: every node queue is owned by the holder of its lease, taken by the process
    /// (`Play::take_node`), not started by the platform itself. Set by `[cluster]`, never read
    /// from the game section.
    #[serde(skip)]
    pub leased: bool,
    /// Seconds a player has to confirm a READY machine before the place is missed.
    pub connect_countdown_secs: u64,
    /// Milliseconds from confirming to PLAYING on a static machine (a game host's slot plays
    /// when the host has encoded the game's first frame).
    pub connect_delay_ms: u64,
    /// Seconds a game launched on a host's slot has to show its first frame; without one the
    /// session ends (130124) and the slot is reset.
    pub launch_timeout_secs: u64,
    /// The most milliseconds between two rank pushes to a connected waiting player whose rank
    /// moves (the node queue ticks five times per period, one slice of the players a tick).
    pub rank_refresh_ms: u64,
    /// Milliseconds of one charged minute of play (60000; tests shorten it).
    pub play_minute_ms: u64,
    /// Seconds the game stays alive after play time ran out, while the time-up dialog counts
    /// down (`scienceDuration`, core-platform.md §2.14): the session ends then unless play time
    /// was added meanwhile.
    pub science_duration_secs: u64,
    /// Seconds without input after which a PLAYING session is hanging ("挂机",
    /// core-platform.md §3.3 "Game duration", `gameDuration`).
    pub hang_after_secs: u64,
    /// The first-play game start guide (core-platform.md §2.14, §4.4): the common config's
    /// `show_game_start_guide` ('1' when on).
    pub show_game_start_guide: bool,
    /// The most latency (ms) the start guide shows (`game_start_guide_max_delay`).
    pub game_start_guide_max_delay: u64,
    /// Free play minutes a new player receives (the registration gift).
    pub register_gift_minutes: i64,
    /// Free play minutes a player receives on their first login from the product's app
    /// (`first_login_app_playtime`, commerce.md §3); 0: no such gift.
    pub first_app_login_minutes: i64,
    /// Games that need their subscription package (entitlement `sub:{id}`).
    pub subscription_games: Vec<i64>,
    /// Phones whose SMS the sandbox provider fails to deliver (to exercise the failure path).
    pub sms_fail_numbers: Vec<String>,
    /// The server nodes and their machines, until game hosts register themselves.
    pub nodes: Vec<NodeConfig>,
    /// Dev and tests only: the wall time (Unix ms) the platform's clock starts at; 0 is the
    /// real time. Production refuses any other.
    pub clock_start_ms: i64,
    /// The SMS limits (the server TOML's top-level `[sms]`, not `[game]`).
    #[serde(skip)]
    pub sms: SmsLimits,
    /// The live rooms (the server TOML's top-level `[rooms]`, like `[sms]`).
    #[serde(skip)]
    pub rooms: RoomsConfig,
    /// Orders, QR polling and the sandbox payment provider (the server TOML's top-level `[payment]`).
    #[serde(skip)]
    pub payment: PaymentConfig,
    /// Real-name certification and minors (the server TOML's top-level `[identity]`).
    #[serde(skip)]
    pub identity: IdentityConfig,
    /// The external account centre (the server TOML's top-level `[account_centre]`).
    #[serde(skip)]
    pub account_centre: AccountCentreConfig,
}

/// The external account centre (core-platform.md §2.6, §7.2): the secret its agent logins and
/// notices are signed with, how long an agent login is good for, its agent-login page.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AccountCentreConfig {
    /// The HMAC-SHA256 key both sides share.
    pub secret: String,
    /// Seconds an agent login can be opened after it was signed (once).
    pub login_ttl_secs: u64,
    /// The agent-login page (dev: the sandbox's, on this server).
    pub agent_login_url: String,
}

impl Default for AccountCentreConfig {
    fn default() -> Self {
        AccountCentreConfig {
            secret: "yoo-dev-account-centre-secret".into(),
            login_ttl_secs: 300,
            agent_login_url: "/api/dev/uc/agent-login".into(),
        }
    }
}

/// Real-name certification and the rules for minors (core-platform.md §4.9, §8.2).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IdentityConfig {
    /// The key names and ID numbers are sealed with at rest: 64 hex characters (32 bytes).
    pub key_hex: String,
    /// What the start's pre-check answers an uncertified player: "pass", "confirm" (the
    /// certification prompt; dismissing it goes on) or "deny" (certify first).
    pub pre_check: String,
    /// Whether a game start of an uncertified player is refused (20150).
    pub required_to_play: bool,
    /// The public holidays ("YYYY-MM-DD", Beijing) on which minors may play 20:00–21:00 besides
    /// Fridays, Saturdays and Sundays.
    pub holidays: Vec<String>,
    /// ID numbers the sandbox identity check says do not match their name (to exercise it).
    pub sandbox_mismatch: Vec<String>,
    /// How long one poll of a QR certification waits for news before it answers 20142.
    pub qr_poll_wait_secs: u64,
}

impl Default for IdentityConfig {
    fn default() -> Self {
        IdentityConfig {
            // a dev key: production refuses to start with it (facade::config::check)
            key_hex: "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff".into(),
            pre_check: "pass".into(),
            required_to_play: false,
            holidays: Vec::new(),
            sandbox_mismatch: Vec::new(),
            qr_poll_wait_secs: 25,
        }
    }
}

impl IdentityConfig {
    /// The sealing key; None when `key_hex` is not 64 hex characters.
    pub fn key(&self) -> Option<[u8; 32]> {
        let h = self.key_hex.trim();
        if h.len() != 64 {
            return None;
        }
        let mut key = [0u8; 32];
        for (i, k) in key.iter_mut().enumerate() {
            *k = u8::from_str_radix(h.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(key)
    }
}

/// Orders, QR polling and the sandbox payment provider.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PaymentConfig {
    /// Seconds an unpaid order lives (then it expires and no payment is taken for it).
    pub order_ttl_secs: u64,
    /// Seconds a generated QR is good for (then polling answers 20140 `timeout`: generate another).
    pub qr_ttl_secs: u64,
    /// Seconds one order poll waits for news before it answers 20142 (waiting).
    pub poll_wait_secs: u64,
    /// The key the sandbox provider signs its notices with (dev mode).
    pub sandbox_key: String,
    /// How the sandbox delivers a payment's notice: normal, late, twice, out_of_order, bad_signature.
    pub sandbox_delivery: Delivery,
    /// The delay of a late, second, stale or genuine-after-forged notice, ms.
    pub sandbox_delay_ms: u64,
    /// The merchant area (commerce.md §2.14) is open to every logged-in user (app info status
    /// 1); false closes it (status 0) except to `merchant_uids`.
    pub merchant_open: bool,
    /// Users the merchant area is open to when `merchant_open` is false.
    pub merchant_uids: Vec<i64>,
    /// Seconds a bank-transfer coupon-group order waits for its transfer (`limitTime` of
    /// bank_pay_config), then it expires.
    pub bank_limit_secs: u64,
}

impl Default for PaymentConfig {
    fn default() -> Self {
        PaymentConfig {
            order_ttl_secs: 900,
            qr_ttl_secs: 300,
            poll_wait_secs: 25,
            sandbox_key: "yoo-dev-sandbox-payment-key".into(),
            sandbox_delivery: Default::default(),
            sandbox_delay_ms: 3000,
            merchant_open: true,
            merchant_uids: vec![],
            bank_limit_secs: 3 * 86_400,
        }
    }
}

/// Live rooms' timings and limits.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RoomsConfig {
    /// Seconds of one applicant's turn under the fair control rotation (default 300).
    pub rotation_turn_secs: u64,
    /// Milliseconds events collect before one frame goes to a room's watchers, when the room has
    /// more than `batch_threshold` watchers (fewer get each event at once).
    pub batch_ms: u64,
    /// Watchers up to which a room flushes every event at once.
    pub batch_threshold: usize,
    /// Seconds a member whose sockets all dropped stays a member (then ROOM_LEAVE).
    pub reconnect_secs: u64,
    /// Seconds an apply-control application stays pending (§4.7: 30).
    pub apply_pending_secs: u64,
    /// Seconds a denied application shows as denied (§4.7: 60).
    pub apply_denied_secs: u64,
    /// Seconds a kicked user may not come back (10 minutes).
    pub kick_secs: u64,
    /// Wrong password tries a user has per room and minute.
    pub password_tries_per_minute: u32,
    /// The longest chat message (characters).
    pub chat_max_chars: usize,
}

impl Default for RoomsConfig {
    fn default() -> Self {
        RoomsConfig {
            rotation_turn_secs: 300,
            batch_ms: 100,
            batch_threshold: 100,
            reconnect_secs: 30,
            apply_pending_secs: 30,
            apply_denied_secs: 60,
            kick_secs: 600,
            password_tries_per_minute: 5,
            chat_max_chars: 200,
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeConfig {
    pub id: i64,
    pub name: String,
    /// 1 selectable; anything else is under maintenance.
    #[serde(default = "one")]
    pub status: i32,
    /// Static machines (load tests): always in the pool, besides the slots of linked game hosts.
    #[serde(default)]
    pub machines: Vec<String>,
    /// The secret the node's game hosts prove in their hello and sign stream tickets with; a
    /// node without one links no host.
    #[serde(default)]
    pub host_secret: Option<String>,
}

fn one() -> i32 {
    1
}

impl Default for DomainConfig {
    fn default() -> Self {
        DomainConfig {
            leased: false,
            connect_countdown_secs: 60,
            connect_delay_ms: 1000,
            launch_timeout_secs: 60,
            hang_after_secs: 600,
            show_game_start_guide: false,
            game_start_guide_max_delay: 200,
            rank_refresh_ms: 750,
            play_minute_ms: 60_000,
            science_duration_secs: 60,
            register_gift_minutes: 60,
            first_app_login_minutes: 0,
            subscription_games: vec![19],
            sms_fail_numbers: vec!["19900000000".into()],
            nodes: vec![
                NodeConfig {
                    id: 1,
                    name: "华东一区".into(),
                    status: 1,
                    machines: vec!["hd1-01".into(), "hd1-02".into()],
                    host_secret: None,
                },
                NodeConfig {
                    id: 2,
                    name: "华南一区".into(),
                    status: 1,
                    machines: vec!["hn1-01".into(), "hn1-02".into()],
                    host_secret: None,
                },
            ],
            sms: Default::default(),
            rooms: Default::default(),
            payment: Default::default(),
            identity: Default::default(),
            account_centre: Default::default(),
            clock_start_ms: 0,
        }
    }
}

impl DomainConfig {
    pub fn connect_countdown(&self) -> Duration {
        Duration::from_secs(self.connect_countdown_secs)
    }
    pub fn play_minute(&self) -> Duration {
        Duration::from_millis(self.play_minute_ms.max(1))
    }
    pub fn rank_refresh(&self) -> Duration {
        Duration::from_millis(self.rank_refresh_ms)
    }
    pub fn science_duration(&self) -> Duration {
        Duration::from_secs(self.science_duration_secs)
    }
    pub fn connect_delay(&self) -> Duration {
        Duration::from_millis(self.connect_delay_ms)
    }
    pub fn launch_timeout(&self) -> Duration {
        Duration::from_secs(self.launch_timeout_secs.max(1))
    }
    /// A game host silent this long has lost its machines.
    pub fn host_timeout(&self) -> Duration {
        Duration::from_millis(hostlink::HOST_TIMEOUT_MS)
    }
}

/// The SMS limits (the server TOML's `[sms]`). 0 turns a limit off.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SmsLimits {
    /// Seconds between two codes to one phone.
    pub resend_secs: u64,
    /// Codes to one phone within any hour.
    pub phone_per_hour: u32,
    /// Codes to one phone within any 24 hours.
    pub phone_per_day: u32,
    /// Codes requested from one address per clock hour.
    pub ip_per_hour: u32,
    /// Codes sent by the whole server per clock minute.
    pub global_per_minute: u32,
    /// Wrong codes in a row (across codes) that lock a phone's login.
    pub login_failures: u32,
    /// Seconds a locked phone's login stays locked.
    pub login_lock_secs: u64,
    /// Code requests naming one phone within an hour that need no security check; beyond them
    /// each request needs a solved one (20125 / 20128; `code_check`). A used code clears the
    /// phone's count.
    pub captcha_phone_per_hour: u32,
    /// Code requests from one client address within an hour that need no security check.
    pub captcha_ip_per_hour: u32,
}

impl Default for SmsLimits {
    fn default() -> Self {
        SmsLimits {
            resend_secs: 60,
            phone_per_hour: 5,
            phone_per_day: 10,
            ip_per_hour: 30,
            global_per_minute: 600,
            login_failures: 10,
            login_lock_secs: 3600,
            captcha_phone_per_hour: 2,
            captcha_ip_per_hour: 10,
        }
    }
}

/// How the sandbox delivers the notice of a payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// Once, at once.
    #[default]
    Normal,
    /// Once, after `delay_ms`.
    Late,
    /// Twice: at once and again after `delay_ms`.
    Twice,
    /// The SUCCESS notice at once, then a stale NOTPAY notice of the same order after `delay_ms`.
    OutOfOrder,
    /// A notice with a bad signature at once, the genuine one after `delay_ms`.
    BadSignature,
}
