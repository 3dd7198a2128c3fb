//! What one run does: each workload's settings and their defaults (the command line that sets
//! them is `cli`), and the two checks made before any traffic: the target is this machine, and
//! the phone numbers fit.

use std::path::PathBuf;
use std::time::Duration;

/// One run of the harness.
#[derive(Debug, Clone)]
pub struct Config {
    /// The server, e.g. `http://127.0.0.1:8080`; only loopback hosts are accepted.
    pub url: String,
    pub players: usize,
    /// Players in flight at once.
    pub concurrency: usize,
    pub game_id: i64,
    pub node_id: i64,
    /// How long each player stays PLAYING before `over`.
    pub play: Duration,
    /// The whole run stops at this deadline; players still on the way count as timed out.
    pub timeout: Duration,
    /// Phones are this prefix followed by the zero-padded player index, 11 digits in all.
    pub phone_prefix: String,
    /// Players started a second; none: as fast as the concurrency lets them.
    pub arrival_rate: Option<f64>,
    /// A pause before each call after the first (a person's think time).
    pub think: Duration,
    /// Where each journey ends.
    pub until: Until,
    /// The server process, sampled for the HTML report's CPU and memory plot.
    pub server_pid: Option<u32>,
}

/// Where a journey ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Until {
    /// After `fetchToken`: logins only, no socket, no machine.
    Login,
    /// The whole journey: queue, play, over.
    #[default]
    Play,
}

impl std::str::FromStr for Until {
    type Err = String;
    fn from_str(s: &str) -> Result<Until, String> {
        match s {
            "login" => Ok(Until::Login),
            "play" => Ok(Until::Play),
            _ => Err(format!("--until {s:?}: login or play")),
        }
    }
}

impl Config {
    /// `players` players against `url` with every other setting at its default.
    pub fn new(url: &str, players: usize) -> Config {
        Config {
            url: url.to_string(),
            players,
            concurrency: players.clamp(1, 500),
            game_id: 1,
            node_id: 1,
            play: Duration::from_millis(200),
            timeout: Duration::from_secs(300),
            phone_prefix: "150".into(),
            arrival_rate: None,
            think: Duration::ZERO,
            until: Until::Play,
            server_pid: None,
        }
    }

    /// The phone of player `index` (0-based).
    pub fn phone(&self, index: usize) -> String {
        phone(&self.phone_prefix, index)
    }

    /// Checks the target and the phone range; returns the base URL without a trailing slash.
    pub fn validate(&self) -> Result<String, String> {
        let base = loopback_base(&self.url)?;
        check_phones(&self.phone_prefix, self.players)?;
        if self.players == 0 || self.concurrency == 0 {
            return Err("--players and --concurrency must be at least 1".into());
        }
        if self.arrival_rate.is_some_and(|r| !(r > 0.0 && r <= 100_000.0)) {
            return Err("--arrival-rate: more than 0, at most 100000 players a second".into());
        }
        if self.think > Duration::from_secs(60) {
            return Err("--think-ms: at most 60000".into());
        }
        Ok(base)
    }
}

/// The phone of user `index` (0-based): `prefix` followed by the zero-padded index, 11 digits.
pub fn phone(prefix: &str, index: usize) -> String {
    let width = 11 - prefix.len();
    format!("{prefix}{index:0width$}")
}

/// `prefix` is 1 to 10 digits starting with 1 and leaves room for `count` phones.
pub fn check_phones(prefix: &str, count: usize) -> Result<(), String> {
    if !prefix.starts_with('1') || prefix.len() > 10 || !prefix.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("--phone-prefix {prefix:?}: 1 to 10 digits starting with 1"));
    }
    let room = 10u64.pow(11 - prefix.len() as u32);
    if count as u64 > room {
        return Err(format!("--phone-prefix {prefix} leaves room for {room} phones, fewer than {count}"));
    }
    Ok(())
}

/// `url` as a base URL (`http://host[:port]`, no trailing slash) when its host is this machine:
/// an IPv4 address in 127.0.0.0/8, `localhost` or `[::1]`. Everything else is refused, so the
/// harness can only send traffic to this machine: other schemes (the harness speaks plain HTTP),
/// user info (`http://x@host`), paths, queries, and host names other than `localhost`, which a
/// resolver could send anywhere.
pub fn loopback_base(url: &str) -> Result<String, String> {
    let refuse = |why: &str| Err(format!("--url {url:?}: {why}"));
    let Some(rest) = url.strip_prefix("http://") else {
        return refuse("only http:// URLs are supported");
    };
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    if authority.contains(['/', '?', '#', '@', '\\']) {
        return refuse("give only http://host:port, without path, query or user");
    }
    let (host, port) = if authority.starts_with('[') {
        let Some(end) = authority.find(']') else {
            return refuse("unclosed [");
        };
        authority.split_at(end + 1)
    } else {
        authority.split_at(authority.find(':').unwrap_or(authority.len()))
    };
    if !port.is_empty() {
        let digits = port.strip_prefix(':').unwrap_or("x");
        if digits.is_empty() || digits.parse::<u16>().is_err() {
            return refuse("bad port");
        }
    }
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host == "[::1]"
        // Dotted decimal only, no leading zeros (which some resolvers read as octal).
        || host.parse::<std::net::Ipv4Addr>().is_ok_and(|ip| ip.octets()[0] == 127 && host.split('.').all(|o| o == "0" || !o.starts_with('0')));
    if !loopback {
        return refuse("the host must be this machine (127.0.0.0/8, localhost or [::1])");
    }
    Ok(format!("http://{}{port}", host.to_ascii_lowercase()))
}

/// What the command line asks for: the run, and where to write the JSON and HTML reports.
#[derive(Debug)]
pub struct Cli {
    pub config: Config,
    pub json: Option<PathBuf>,
    pub html: Option<PathBuf>,
}

/// One queue-scale run (`loadtest queue-scale`): `players` wait in one game's queue while
/// `machines` machines are freed and taken again about every `hold`, and the first `sockets`
/// players in the queue watch their rank over a WebSocket. See `queue_scale`.
#[derive(Debug, Clone)]
pub struct QueueConfig {
    pub url: String,
    /// Players waiting in the queue (the socket players included).
    pub players: usize,
    /// Players, at the front of the queue, that hold a WebSocket.
    pub sockets: usize,
    /// The machines of the node; as many extra players hold them while the queue fills.
    pub machines: usize,
    /// How long an admitted player keeps its READY machine before `cancelConfirm` (± jitter).
    pub hold: Duration,
    pub hold_jitter: Duration,
    /// The measurement window; it ends earlier when admissions near the last socket player.
    pub window: Duration,
    /// Child processes that hold the sockets.
    pub procs: usize,
    /// Setup calls in flight at once (players being enrolled).
    pub concurrency: usize,
    /// Sockets being opened at once (over all children).
    pub socket_concurrency: usize,
    /// The server process, for its CPU time and memory (`/proc/<pid>`); none: those figures are
    /// left out.
    pub server_pid: Option<u32>,
    /// Wait before each memory reading: an idle player actor stops at its first idle check after
    /// 10 s without calls, so up to 20 s after its last call.
    pub settle: Duration,
    /// A ranks below the truth whose admission arrives within this is delivery order, not a lie.
    pub lie_slack: Duration,
    /// Children bind their sockets to 127.0.0.2, 127.0.0.3, ... (when the URL is an IPv4 address).
    pub spread_addresses: bool,
    /// `perf record` the server during the window into this file.
    pub perf_out: Option<PathBuf>,
    pub game_id: i64,
    pub node_id: i64,
    pub phone_prefix: String,
    /// The whole run stops at this deadline.
    pub timeout: Duration,
    /// The harness binary the children run (default: this executable).
    pub exe: Option<PathBuf>,
    /// Password logins a second during the window, a side load (0: none; issue 11).
    pub password_logins_per_sec: f64,
    /// Accounts the password logins go round, prepared before the queue fills.
    pub password_accounts: usize,
}

/// Sockets one child may hold: each child must stay well under the 20,000 open-file limit.
pub const SOCKETS_PER_CHILD: usize = 9_000;

impl QueueConfig {
    pub fn new(url: &str, players: usize, sockets: usize, machines: usize) -> QueueConfig {
        QueueConfig {
            url: url.to_string(),
            players,
            sockets,
            machines,
            hold: Duration::from_millis(1000),
            hold_jitter: Duration::from_millis(100),
            window: Duration::from_secs(20),
            procs: sockets.div_ceil(7_000).max(1),
            concurrency: 400,
            socket_concurrency: 300,
            server_pid: None,
            settle: Duration::from_secs(25),
            lie_slack: Duration::from_millis(50),
            spread_addresses: true,
            perf_out: None,
            game_id: 1,
            node_id: 1,
            phone_prefix: "16".into(),
            timeout: Duration::from_secs(900),
            exe: None,
            password_logins_per_sec: 0.0,
            password_accounts: 200,
        }
    }

    /// The index of the first password account's phone: after the machine holders and the
    /// players.
    pub fn password_first_index(&self) -> usize {
        self.machines + self.players
    }

    /// Password accounts to prepare: none without the side load.
    pub fn password_pool(&self) -> usize {
        if self.password_logins_per_sec > 0.0 {
            self.password_accounts
        } else {
            0
        }
    }

    /// The phone of the player numbered `index`: machine holders first, then the socket players,
    /// then the rest.
    pub fn phone(&self, index: usize) -> String {
        phone(&self.phone_prefix, index)
    }

    /// The admitted rank at which children stop freeing machines: beyond it, the machines still
    /// out could reach players without a socket.
    pub fn guard_rank(&self) -> u64 {
        (self.sockets as u64).saturating_sub((self.machines as u64 / 4).max(10)).max(1)
    }

    pub fn validate(&self) -> Result<String, String> {
        let base = loopback_base(&self.url)?;
        check_phones(&self.phone_prefix, self.players + self.machines + self.password_pool())?;
        if !(0.0..=10_000.0).contains(&self.password_logins_per_sec) {
            return Err("--password-logins-per-sec: 0 to 10000 logins a second".into());
        }
        if self.password_logins_per_sec > 0.0 && self.password_accounts == 0 {
            return Err("--password-accounts must be at least 1 with --password-logins-per-sec".into());
        }
        if self.sockets == 0 || self.machines == 0 || self.procs == 0 || self.concurrency == 0 || self.socket_concurrency == 0 {
            return Err("--sockets, --machines, --procs and the concurrencies must be at least 1".into());
        }
        if self.sockets > self.players {
            return Err(format!("--sockets {} is more than --players {}", self.sockets, self.players));
        }
        if self.sockets.div_ceil(self.procs) > SOCKETS_PER_CHILD {
            return Err(format!(
                "{} sockets over {} processes is more than {SOCKETS_PER_CHILD} per process: raise --procs",
                self.sockets, self.procs
            ));
        }
        if self.machines as u64 >= self.guard_rank() {
            return Err(format!(
                "--sockets {} leaves no admissions to measure with {} machines: the socket players must outnumber the machines",
                self.sockets, self.machines
            ));
        }
        if self.hold_jitter >= self.hold {
            return Err("--hold-jitter-ms must be below --hold-ms".into());
        }
        if self.window <= self.hold {
            return Err("--window-secs must be longer than the hold".into());
        }
        if self.perf_out.is_some() && self.server_pid.is_none() {
            return Err("--perf needs --server-pid".into());
        }
        Ok(base)
    }
}

/// One room-scale run (`loadtest room-scale`): `viewers` watch one room over WebSockets spread
/// on child processes, `chatters` of them send `rate` chat messages a second in all, and
/// `churn` a second leave and come back. See `room_scale`.
#[derive(Debug, Clone)]
pub struct RoomConfig {
    pub url: String,
    pub viewers: usize,
    /// Viewers that send the chat (the first ones; they never churn).
    pub chatters: usize,
    /// Chat messages a second, over all chatters.
    pub rate: f64,
    /// Viewers leaving (and as many coming back) a second.
    pub churn: f64,
    /// Viewers that churn (the last ones): each is out about `churners / churn` s in a cycle.
    pub churners: usize,
    /// The measurement window: messages are sent during it.
    pub window: Duration,
    /// After the window, time for the last messages to arrive.
    pub drain: Duration,
    pub procs: usize,
    /// Setup calls in flight at once (logins).
    pub concurrency: usize,
    /// Viewers being connected (socket, entry, watch) at once, over all children.
    pub socket_concurrency: usize,
    /// The server process, for its CPU time and memory; none: those figures are left out.
    pub server_pid: Option<u32>,
    /// Wait before each memory reading: a player actor started by a call (an entry checks the
    /// player's game) stops up to 20 s after its last call.
    pub settle: Duration,
    pub spread_addresses: bool,
    /// The room's game, and its mode (2 RELAY, 4 HAND).
    pub game_id: i64,
    pub mode: i64,
    pub phone_prefix: String,
    /// The whole run stops at this deadline.
    pub timeout: Duration,
    /// The harness binary the children run (default: this executable).
    pub exe: Option<PathBuf>,
}

impl RoomConfig {
    pub fn new(url: &str, viewers: usize, rate: f64) -> RoomConfig {
        RoomConfig {
            url: url.to_string(),
            viewers,
            chatters: viewers.clamp(1, 200),
            rate,
            churn: 0.0,
            churners: 0,
            window: Duration::from_secs(20),
            drain: Duration::from_secs(3),
            procs: viewers.div_ceil(7_000).max(1),
            concurrency: 400,
            socket_concurrency: 300,
            server_pid: None,
            settle: Duration::from_secs(25),
            spread_addresses: true,
            game_id: 1,
            mode: 2,
            phone_prefix: "17".into(),
            timeout: Duration::from_secs(900),
            exe: None,
        }
    }

    /// The phone of user `index`: the host is 0, viewer `i` is `i + 1`.
    pub fn phone(&self, index: usize) -> String {
        phone(&self.phone_prefix, index)
    }

    /// The default number of churners: each out for about a second of a four-second cycle.
    pub fn default_churners(viewers: usize, chatters: usize, churn: f64) -> usize {
        ((churn * 4.0).ceil() as usize).min(viewers.saturating_sub(chatters) / 2)
    }

    pub fn validate(&self) -> Result<String, String> {
        let base = loopback_base(&self.url)?;
        check_phones(&self.phone_prefix, self.viewers + 1)?;
        if self.viewers == 0 || self.procs == 0 || self.concurrency == 0 || self.socket_concurrency == 0 {
            return Err("--viewers, --procs and the concurrencies must be at least 1".into());
        }
        if !(self.rate > 0.0 && self.rate <= 100_000.0) || self.chatters == 0 {
            return Err("--rate must be above 0 (at most 100,000) and --chatters at least 1".into());
        }
        if !(0.0..=10_000.0).contains(&self.churn) || (self.churn > 0.0) != (self.churners > 0) {
            return Err("--churn needs churners (--churners, or the default 4 x churn) and churners need --churn".into());
        }
        if self.chatters + self.churners > self.viewers {
            return Err(format!(
                "{} chatters and {} churners are more than {} viewers",
                self.chatters, self.churners, self.viewers
            ));
        }
        if self.viewers.div_ceil(self.procs) > SOCKETS_PER_CHILD {
            return Err(format!(
                "{} viewers over {} processes is more than {SOCKETS_PER_CHILD} per process: raise --procs",
                self.viewers, self.procs
            ));
        }
        if self.window.is_zero() {
            return Err("--window-secs must be at least 1".into());
        }
        Ok(base)
    }
}

/// One run of the purchases scenario.
#[derive(Debug, Clone)]
pub struct PurchaseConfig {
    pub url: String,
    /// Buyers, logged in before the window; orders go round-robin over them.
    pub players: usize,
    /// Orders created a second, in all.
    pub rate: f64,
    pub window: Duration,
    /// What every order buys (`goods_code`), paid by QR through the sandbox.
    pub goods_code: String,
    /// Logins in flight at once.
    pub concurrency: usize,
    /// Orders in flight at once: past it an order due is counted as not sent (the harness
    /// could not keep up), never queued.
    pub max_in_flight: usize,
    /// The server's pid, for its CPU over the window (`/proc`).
    pub server_pid: Option<u32>,
    pub phone_prefix: String,
    pub timeout: Duration,
}

impl PurchaseConfig {
    pub fn new(url: &str, players: usize, rate: f64) -> PurchaseConfig {
        PurchaseConfig {
            url: url.to_string(),
            players,
            rate,
            window: Duration::from_secs(20),
            goods_code: "time_300".into(),
            concurrency: 200,
            max_in_flight: 2_000,
            server_pid: None,
            phone_prefix: "152".into(),
            timeout: Duration::from_secs(300),
        }
    }

    /// The phone of buyer `index` (0-based).
    pub fn phone(&self, index: usize) -> String {
        phone(&self.phone_prefix, index)
    }

    pub fn validate(&self) -> Result<String, String> {
        let base = loopback_base(&self.url)?;
        check_phones(&self.phone_prefix, self.players)?;
        if self.players == 0 {
            return Err("--players must be at least 1".into());
        }
        if !(self.rate > 0.0 && self.rate <= 5_000.0) {
            return Err(format!("--rate {}: more than 0, at most 5000 orders a second", self.rate));
        }
        if self.window.is_zero() || self.window > Duration::from_secs(600) {
            return Err("--window-secs: 1 to 600".into());
        }
        if self.concurrency == 0 || self.max_in_flight == 0 {
            return Err("--concurrency and --max-in-flight must be at least 1".into());
        }
        Ok(base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{parse_args, parse_queue_args, parse_room_args};

    fn check(url: &str, expected: Option<&str>) {
        assert_eq!(loopback_base(url).ok().as_deref(), expected, "{url}");
    }

    // Only this machine is a target; look-alike hosts, user info and other schemes are refused.
    #[test]
    fn url_must_be_loopback() {
        check("http://127.0.0.1:8080", Some("http://127.0.0.1:8080"));
        check("http://127.0.0.1:8080/", Some("http://127.0.0.1:8080"));
        check("http://127.10.20.30:1", Some("http://127.10.20.30:1"));
        check("http://127.255.255.255", Some("http://127.255.255.255"));
        check("http://localhost:3000", Some("http://localhost:3000"));
        check("http://LOCALHOST:3000", Some("http://localhost:3000"));
        check("http://[::1]:8080", Some("http://[::1]:8080"));
        check("http://[::1]", Some("http://[::1]"));
        check("http://128.0.0.1:8080", None);
        check("http://10.0.0.1:8080", None);
        check("http://0.0.0.0:8080", None);
        check("http://[::2]:8080", None);
        check("http://[::ffff:127.0.0.1]:8080", None);
        check("http://127.0.0.1.example.com:8080", None);
        check("http://localhost.example.com", None);
        check("http://example.com", None);
        check("http://127.1:8080", None);
        check("http://0177.0.0.1:8080", None);
        check("http://user@127.0.0.1:8080", None);
        check("http://127.0.0.1@example.com", None);
        check("http://example.com#@127.0.0.1", None);
        check("http://127.0.0.1:8080/api", None);
        check("http://127.0.0.1:80800", None);
        check("http://127.0.0.1:", None);
        check("http://127.0.0.1:80x", None);
        check("https://127.0.0.1:8080", None);
        check("ws://127.0.0.1:8080", None);
        check("127.0.0.1:8080", None);
        check("", None);
    }

    // Phones are the prefix and the zero-padded index, 11 digits.
    #[test]
    fn phones_are_eleven_digits() {
        let mut c = Config::new("http://127.0.0.1:1", 1000);
        assert_eq!((c.phone(0).as_str(), c.phone(999).as_str()), ("15000000000", "15000000999"));
        assert!(c.validate().is_ok());
        c.phone_prefix = "1888888888".into();
        assert_eq!(c.phone(7), "18888888887");
        assert!(c.validate().is_err(), "room for 10 phones only");
        c.phone_prefix = "250".into();
        assert!(c.validate().is_err());
    }

    // Defaults, the concurrency default min(N, 500), and refusals.
    #[test]
    fn command_line() {
        let parse = |s: &str| parse_args(s.split_whitespace().map(String::from));
        let cli = parse("--url http://127.0.0.1:9 --players 1000").unwrap();
        assert_eq!(
            (cli.config.players, cli.config.concurrency, cli.config.game_id, cli.config.node_id),
            (1000, 500, 1, 1)
        );
        assert_eq!(
            (cli.config.play, cli.config.timeout),
            (Duration::from_millis(200), Duration::from_secs(300))
        );
        let cli = parse("--url http://127.0.0.1:9 --players 20 --play-ms 5 --json out.json --phone-prefix 1391").unwrap();
        assert_eq!(
            (cli.config.concurrency, cli.config.play, cli.json),
            (20, Duration::from_millis(5), Some("out.json".into()))
        );
        assert_eq!(cli.config.phone(3), "13910000003");
        assert!(parse("--url http://192.168.1.2:9 --players 1").is_err());
        assert!(parse("--players 1").is_err());
        assert!(parse("--url http://127.0.0.1:9 --players").is_err());
        assert!(parse("--url http://127.0.0.1:9 --players 0").is_err());
        assert!(parse("--url http://127.0.0.1:9 --players 2 --bogus 1").is_err());
    }

    // The queue-scale command line: the rate sets the hold, the processes follow the sockets.
    #[test]
    fn queue_command_line() {
        let parse = |s: &str| parse_queue_args(s.split_whitespace().map(String::from));
        let (c, json) =
            parse("--url http://127.0.0.1:9 --players 100000 --sockets 19000 --machines 1000 --machines-rate 1000 --window-secs 20")
                .unwrap();
        assert_eq!((c.players, c.sockets, c.machines, c.procs, json), (100_000, 19_000, 1000, 3, None));
        assert_eq!((c.hold, c.window), (Duration::from_secs(1), Duration::from_secs(20)));
        assert_eq!(c.guard_rank(), 18_750);
        assert_eq!(c.phone(100_999), "16000100999");
        let (c, _) =
            parse("--url http://127.0.0.1:9 --players 300 --sockets 100 --machines 10 --hold-ms 400 --procs 2 --no-spread").unwrap();
        assert_eq!(
            (c.hold, c.procs, c.spread_addresses, c.guard_rank()),
            (Duration::from_millis(400), 2, false, 90)
        );
        assert!(
            parse("--url http://127.0.0.1:9 --players 100 --sockets 200 --machines 10").is_err(),
            "more sockets than players"
        );
        assert!(
            parse("--url http://127.0.0.1:9 --players 30000 --sockets 19000 --machines 10 --procs 2").is_err(),
            "9,500 per process"
        );
        assert!(
            parse("--url http://127.0.0.1:9 --players 300 --sockets 100 --machines 95").is_err(),
            "machines outnumber the watched"
        );
        assert!(parse("--url http://10.0.0.1:9 --players 300 --sockets 100 --machines 10").is_err());
        assert!(parse("--url http://127.0.0.1:9 --players 300 --sockets 100 --machines 10 --window-secs 1").is_err());
        assert!(parse("--url http://127.0.0.1:9 --players 300 --sockets 100 --machines 10 --perf p.data").is_err());
        // The password side load (issue 11): off by default; its accounts after every player.
        let q = "--url http://127.0.0.1:9 --players 300 --sockets 100 --machines 10";
        let (c, _) = parse(q).unwrap();
        assert_eq!((c.password_logins_per_sec, c.password_pool()), (0.0, 0));
        let (c, _) = parse(&format!("{q} --password-logins-per-sec 50")).unwrap();
        assert_eq!(
            (c.password_logins_per_sec, c.password_accounts, c.password_pool()),
            (50.0, 200, 200)
        );
        assert_eq!(c.password_first_index(), 310);
        let (c, _) = parse(&format!("{q} --password-logins-per-sec 2.5 --password-accounts 7")).unwrap();
        assert_eq!((c.password_logins_per_sec, c.password_pool()), (2.5, 7));
        assert!(parse(&format!("{q} --password-logins-per-sec -1")).is_err());
        assert!(parse(&format!("{q} --password-logins-per-sec 5 --password-accounts 0")).is_err());
        let small = format!("{q} --phone-prefix 10000000 --password-logins-per-sec 5");
        assert!(parse(&small).is_ok(), "1,000 phones: 310 players and 200 accounts");
        assert!(
            parse(&format!("{small} --password-accounts 800")).is_err(),
            "no room for the accounts' phones"
        );
    }

    // The room-scale command line: the two workloads, the defaults, and refusals.
    #[test]
    fn room_command_line() {
        let parse = |s: &str| parse_room_args(s.split_whitespace().map(String::from));
        let (c, json) = parse("--url http://127.0.0.1:9 --viewers 19000 --chatters 200 --rate 20 --churn 50").unwrap();
        assert_eq!(
            (c.viewers, c.chatters, c.rate, c.churn, c.churners, c.procs, json),
            (19_000, 200, 20.0, 50.0, 200, 3, None)
        );
        assert_eq!((c.phone(0).as_str(), c.phone(19_000).as_str()), ("17000000000", "17000019000"));
        let (c, _) = parse("--url http://127.0.0.1:9 --viewers 10000 --rate 100 --window-secs 10 --procs 2 --no-spread").unwrap();
        assert_eq!(
            (c.chatters, c.churners, c.procs, c.window, c.spread_addresses),
            (200, 0, 2, Duration::from_secs(10), false)
        );
        let (c, _) = parse("--url http://127.0.0.1:9 --viewers 10 --rate 2.5 --chatters 2 --churn 1").unwrap();
        assert_eq!((c.rate, c.churners), (2.5, 4));
        assert!(parse("--url http://127.0.0.1:9 --viewers 10").is_err(), "no rate");
        assert!(parse("--url http://127.0.0.1:9 --viewers 10 --rate 0").is_err());
        assert!(parse("--url http://127.0.0.1:9 --viewers 10 --rate 1 --chatters 8 --churners 3 --churn 1").is_err());
        assert!(
            parse("--url http://127.0.0.1:9 --viewers 19000 --rate 1 --procs 2").is_err(),
            "9,500 per process"
        );
        assert!(
            parse("--url http://127.0.0.1:9 --viewers 10 --rate 1 --churners 2").is_err(),
            "churners without churn"
        );
        assert!(parse("--url http://10.0.0.1:9 --viewers 10 --rate 1").is_err());
        assert!(parse("--url http://127.0.0.1:9 --viewers 10 --rate 1 --window-secs 0").is_err());
    }
}
