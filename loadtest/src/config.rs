//! What one run does: the command line, its defaults, and the two checks made before any
//! traffic: the target is this machine, and the phone numbers fit.

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
        }
    }

    /// The phone of player `index` (0-based).
    pub fn phone(&self, index: usize) -> String {
        let width = 11 - self.phone_prefix.len();
        format!("{}{index:0width$}", self.phone_prefix)
    }

    /// Checks the target and the phone range; returns the base URL without a trailing slash.
    pub fn validate(&self) -> Result<String, String> {
        let base = loopback_base(&self.url)?;
        let p = &self.phone_prefix;
        if !p.starts_with('1') || p.len() > 10 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "--phone-prefix {p:?}: 1 to 10 digits starting with 1"
            ));
        }
        let room = 10u64.pow(11 - p.len() as u32);
        if self.players as u64 > room {
            return Err(format!(
                "--phone-prefix {p} leaves room for {room} phones, fewer than {} players",
                self.players
            ));
        }
        if self.players == 0 || self.concurrency == 0 {
            return Err("--players and --concurrency must be at least 1".into());
        }
        Ok(base)
    }
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

/// What the command line asks for: the run, and where to write the JSON report.
#[derive(Debug)]
pub struct Cli {
    pub config: Config,
    pub json: Option<PathBuf>,
}

pub const USAGE: &str = "usage: loadtest --url http://127.0.0.1:PORT --players N [--concurrency C] [--game-id 1] [--node-id 1] \
[--play-ms 200] [--timeout-secs 300] [--phone-prefix 150] [--json FILE]";

/// Parses the arguments after the program name.
pub fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Cli, String> {
    let mut args = args.into_iter();
    let (mut url, mut players, mut concurrency, mut json) = (None, None, None, None);
    let mut c = Config::new("", 0);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: {v:?} is not a whole number"))
        };
        match flag.as_str() {
            "--url" => url = Some(value),
            "--players" => players = Some(number(&value)? as usize),
            "--concurrency" => concurrency = Some(number(&value)? as usize),
            "--game-id" => c.game_id = number(&value)? as i64,
            "--node-id" => c.node_id = number(&value)? as i64,
            "--play-ms" => c.play = Duration::from_millis(number(&value)?),
            "--timeout-secs" => c.timeout = Duration::from_secs(number(&value)?),
            "--phone-prefix" => c.phone_prefix = value,
            "--json" => json = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    c.url = url.ok_or("--url is required")?;
    c.players = players.ok_or("--players is required")?;
    c.concurrency = concurrency.unwrap_or(c.players.clamp(1, 500));
    c.validate()?;
    Ok(Cli { config: c, json })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            (c.phone(0).as_str(), c.phone(999).as_str()),
            ("15000000000", "15000000999")
        );
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
            (
                cli.config.players,
                cli.config.concurrency,
                cli.config.game_id,
                cli.config.node_id
            ),
            (1000, 500, 1, 1)
        );
        assert_eq!(
            (cli.config.play, cli.config.timeout),
            (Duration::from_millis(200), Duration::from_secs(300))
        );
        let cli = parse(
            "--url http://127.0.0.1:9 --players 20 --play-ms 5 --json out.json --phone-prefix 1391",
        )
        .unwrap();
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
}
