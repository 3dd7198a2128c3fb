//! The command line (clap) and the parameters of each workload.
//!
//! Each workload's parameters are one struct that is both a clap `Args` (its flags) and a serde
//! `Deserialize` (its table in a scenario file, `scenario_file`): the same names, the same
//! defaults (those of `Config::new`, `QueueConfig::new`, ...), the same checks (`validate`).
//! Every parameter is optional here; `into_config` applies the defaults and the checks.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use serde::Deserialize;

use crate::config::{Cli, Config, PurchaseConfig, QueueConfig, RoomConfig};

/// Exit status: 0 the run passed, 1 it failed (see each workload), 2 bad usage or a run that
/// could not complete, 3 (journey) none failed but some timed out, 4 (`run`) the workload passed
/// but a threshold of the scenario file was broken.
#[derive(Debug, Parser)]
#[command(
    name = "loadtest",
    about = "Drives virtual players through a running yoo-server on this machine and reports what it measured.",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Exit status: 0 passed, 1 failed, 2 bad usage or could not complete, 3 (journey) some timed out, \
4 (run) a threshold broken."
)]
pub struct CommandLine {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Without a subcommand: the player journey.
    #[command(flatten)]
    pub journey: JourneyArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Runs a scenario file (TOML): its workload, its parameters, its thresholds.
    Run(RunArgs),
    /// A queue of players, machines freeing at a set rate, ranks watched over sockets.
    QueueScale(QueueArgs),
    /// QR orders at a set rate paid through the sandbox, then the ledger check.
    Purchases(PurchaseArgs),
    /// One room, many viewer sockets, chat at a set rate, churn.
    RoomScale(RoomArgs),
    /// The socket-holding child of queue-scale (its own arguments follow).
    #[command(hide = true, disable_help_flag = true)]
    QueueScaleChild(ChildArgs),
    /// The socket-holding child of room-scale (its own arguments follow).
    #[command(hide = true, disable_help_flag = true)]
    RoomScaleChild(ChildArgs),
}

/// A child's arguments, passed through as they are to its own small parser.
#[derive(Debug, Args)]
pub struct ChildArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<String>,
}

/// Where the reports go, besides the table on stdout.
#[derive(Debug, Default, Clone, Args)]
pub struct Outputs {
    /// Writes the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Writes the HTML report (verdicts, plots) to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// `loadtest run FILE`: the file's settings, with the target and outputs from the command line
/// taking precedence (the benchmark scripts start their server on a port of their own).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The scenario file (TOML), e.g. loadtest/scenarios/journey-1000.toml.
    pub file: PathBuf,
    /// The server, instead of the file's `url`.
    #[arg(long)]
    pub url: Option<String>,
    /// The server's pid, instead of the file's `server_pid`: its CPU and memory are sampled.
    #[arg(long)]
    pub server_pid: Option<u32>,
    #[command(flatten)]
    pub out: Outputs,
}

fn real(v: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("{v:?} is not a number"))
}

/// The player journey (no subcommand).
#[derive(Debug, Default, Clone, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JourneyArgs {
    /// The server, http://127.0.0.1:PORT (this machine only).
    #[arg(long, required = true)]
    pub url: Option<String>,
    /// Players, each one journey.
    #[arg(long, required = true)]
    pub players: Option<usize>,
    /// Players in flight at once [default: min(players, 500)].
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Players started a second (an open arrival rate, still bounded by the concurrency)
    /// [default: all at once].
    #[arg(long, value_parser = real)]
    pub arrival_rate: Option<f64>,
    /// Pause before each call after the first, as a person would [default: 0].
    #[arg(long)]
    pub think_ms: Option<u64>,
    /// Where each journey ends: `play` (the whole journey) or `login` (after fetchToken).
    #[arg(long)]
    pub until: Option<String>,
    #[arg(long)]
    pub game_id: Option<i64>,
    #[arg(long)]
    pub node_id: Option<i64>,
    /// How long each player plays [default: 200].
    #[arg(long)]
    pub play_ms: Option<u64>,
    /// The whole run's deadline [default: 300].
    #[arg(long)]
    pub timeout_secs: Option<u64>,
    /// Phones: this prefix and the zero-padded player index [default: 150].
    #[arg(long)]
    pub phone_prefix: Option<String>,
    /// The server process, sampled for the HTML report's CPU and memory plot.
    #[arg(long)]
    pub server_pid: Option<u32>,
    #[command(flatten)]
    #[serde(skip)]
    pub out: Outputs,
}

impl JourneyArgs {
    pub fn into_config(self) -> Result<Cli, String> {
        let mut c = Config::new(&self.url.ok_or("--url is required")?, self.players.ok_or("--players is required")?);
        c.concurrency = self.concurrency.unwrap_or(c.players.clamp(1, 500));
        set(&mut c.game_id, self.game_id);
        set(&mut c.node_id, self.node_id);
        set(&mut c.play, self.play_ms.map(Duration::from_millis));
        set(&mut c.timeout, self.timeout_secs.map(Duration::from_secs));
        set(&mut c.phone_prefix, self.phone_prefix);
        set(&mut c.think, self.think_ms.map(Duration::from_millis));
        c.arrival_rate = self.arrival_rate;
        c.server_pid = self.server_pid;
        if let Some(until) = self.until {
            c.until = until.parse()?;
        }
        c.validate()?;
        Ok(Cli {
            config: c,
            json: self.out.json,
            html: self.out.html,
        })
    }
}

fn set<T>(field: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *field = v;
    }
}

/// `loadtest queue-scale`.
#[derive(Debug, Default, Clone, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueArgs {
    #[arg(long, required = true)]
    pub url: Option<String>,
    /// Players waiting in the queue (the socket players included).
    #[arg(long, required = true)]
    pub players: Option<usize>,
    /// Players, at the front of the queue, that hold a WebSocket.
    #[arg(long, required = true)]
    pub sockets: Option<usize>,
    /// The machines of the node.
    #[arg(long, required = true)]
    pub machines: Option<usize>,
    /// Machines freed a second (sets the hold: machines / rate).
    #[arg(long)]
    pub machines_rate: Option<u64>,
    /// How long an admitted player keeps its machine [default: 1000].
    #[arg(long)]
    pub hold_ms: Option<u64>,
    #[arg(long)]
    pub hold_jitter_ms: Option<u64>,
    /// The measurement window [default: 20].
    #[arg(long)]
    pub window_secs: Option<u64>,
    /// Child processes holding the sockets [default: sockets / 7000, at least 1].
    #[arg(long)]
    pub procs: Option<usize>,
    #[arg(long)]
    pub concurrency: Option<usize>,
    #[arg(long)]
    pub socket_concurrency: Option<usize>,
    /// The server process, for its CPU and memory.
    #[arg(long)]
    pub server_pid: Option<u32>,
    #[arg(long)]
    pub settle_secs: Option<u64>,
    #[arg(long)]
    pub lie_slack_ms: Option<u64>,
    /// Children keep the default source address instead of 127.0.0.2, 127.0.0.3, ...
    #[arg(long)]
    #[serde(default)]
    pub no_spread: bool,
    /// `perf record` the server during the window into FILE (needs --server-pid).
    #[arg(long, value_name = "FILE")]
    pub perf: Option<PathBuf>,
    #[arg(long)]
    pub game_id: Option<i64>,
    #[arg(long)]
    pub node_id: Option<i64>,
    #[arg(long)]
    pub phone_prefix: Option<String>,
    #[arg(long)]
    pub timeout_secs: Option<u64>,
    /// Password logins a second during the window, a side load over accounts of their own
    /// (the server needs `[sms] resend_secs = 0` to prepare them) [default: 0, none].
    #[arg(long, value_parser = real)]
    pub password_logins_per_sec: Option<f64>,
    /// Accounts the password logins go round [default: 200].
    #[arg(long)]
    pub password_accounts: Option<usize>,
    #[command(flatten)]
    #[serde(skip)]
    pub out: Outputs,
}

impl QueueArgs {
    pub fn into_config(self) -> Result<QueueConfig, String> {
        let mut c = QueueConfig::new(
            &self.url.ok_or("--url is required")?,
            self.players.ok_or("--players is required")?,
            self.sockets.ok_or("--sockets is required")?,
            self.machines.ok_or("--machines is required (the machines of the node)")?,
        );
        set(&mut c.hold, self.hold_ms.map(Duration::from_millis));
        set(&mut c.hold_jitter, self.hold_jitter_ms.map(Duration::from_millis));
        set(&mut c.window, self.window_secs.map(Duration::from_secs));
        set(&mut c.concurrency, self.concurrency);
        set(&mut c.socket_concurrency, self.socket_concurrency);
        c.server_pid = self.server_pid;
        set(&mut c.settle, self.settle_secs.map(Duration::from_secs));
        set(&mut c.lie_slack, self.lie_slack_ms.map(Duration::from_millis));
        c.spread_addresses = !self.no_spread;
        c.perf_out = self.perf;
        set(&mut c.game_id, self.game_id);
        set(&mut c.node_id, self.node_id);
        set(&mut c.phone_prefix, self.phone_prefix);
        set(&mut c.timeout, self.timeout_secs.map(Duration::from_secs));
        set(&mut c.password_logins_per_sec, self.password_logins_per_sec);
        set(&mut c.password_accounts, self.password_accounts);
        if let Some(r) = self.machines_rate {
            if r == 0 {
                return Err("--machines-rate must be at least 1".into());
            }
            // M machines each held `hold` free at M / hold per second.
            c.hold = Duration::from_micros(c.machines as u64 * 1_000_000 / r);
        }
        set(&mut c.procs, self.procs);
        c.validate()?;
        Ok(c)
    }
}

/// `loadtest room-scale`.
#[derive(Debug, Default, Clone, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomArgs {
    #[arg(long, required = true)]
    pub url: Option<String>,
    /// Viewers watching the room over WebSockets.
    #[arg(long, required = true)]
    pub viewers: Option<usize>,
    /// Chat messages a second, over all chatters.
    #[arg(long, required = true, value_parser = real)]
    pub rate: Option<f64>,
    /// Viewers that chat [default: min(viewers, 200)].
    #[arg(long)]
    pub chatters: Option<usize>,
    /// Viewers leaving (and as many coming back) a second [default: 0].
    #[arg(long, value_parser = real)]
    pub churn: Option<f64>,
    /// Viewers that churn [default: 4 x churn].
    #[arg(long)]
    pub churners: Option<usize>,
    #[arg(long)]
    pub window_secs: Option<u64>,
    #[arg(long)]
    pub drain_secs: Option<u64>,
    #[arg(long)]
    pub procs: Option<usize>,
    #[arg(long)]
    pub concurrency: Option<usize>,
    #[arg(long)]
    pub socket_concurrency: Option<usize>,
    #[arg(long)]
    pub server_pid: Option<u32>,
    #[arg(long)]
    pub settle_secs: Option<u64>,
    #[arg(long)]
    #[serde(default)]
    pub no_spread: bool,
    #[arg(long)]
    pub game_id: Option<i64>,
    /// The room's mode: 2 RELAY, 4 HAND [default: 2].
    #[arg(long)]
    pub mode: Option<i64>,
    #[arg(long)]
    pub phone_prefix: Option<String>,
    #[arg(long)]
    pub timeout_secs: Option<u64>,
    #[command(flatten)]
    #[serde(skip)]
    pub out: Outputs,
}

impl RoomArgs {
    pub fn into_config(self) -> Result<RoomConfig, String> {
        let mut c = RoomConfig::new(
            &self.url.ok_or("--url is required")?,
            self.viewers.ok_or("--viewers is required")?,
            self.rate.ok_or("--rate is required (chat messages a second, in all)")?,
        );
        set(&mut c.churn, self.churn);
        set(&mut c.window, self.window_secs.map(Duration::from_secs));
        set(&mut c.drain, self.drain_secs.map(Duration::from_secs));
        set(&mut c.concurrency, self.concurrency);
        set(&mut c.socket_concurrency, self.socket_concurrency);
        c.server_pid = self.server_pid;
        set(&mut c.settle, self.settle_secs.map(Duration::from_secs));
        c.spread_addresses = !self.no_spread;
        set(&mut c.game_id, self.game_id);
        set(&mut c.mode, self.mode);
        set(&mut c.phone_prefix, self.phone_prefix);
        set(&mut c.timeout, self.timeout_secs.map(Duration::from_secs));
        c.chatters = self.chatters.unwrap_or(c.viewers.clamp(1, 200));
        c.churners = self
            .churners
            .unwrap_or(RoomConfig::default_churners(c.viewers, c.chatters, c.churn));
        set(&mut c.procs, self.procs);
        c.validate()?;
        Ok(c)
    }
}

/// `loadtest purchases`.
#[derive(Debug, Default, Clone, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PurchaseArgs {
    #[arg(long, required = true)]
    pub url: Option<String>,
    /// Orders created a second, in all.
    #[arg(long, required = true, value_parser = real)]
    pub rate: Option<f64>,
    /// Buyers [default: 200].
    #[arg(long)]
    pub players: Option<usize>,
    #[arg(long)]
    pub window_secs: Option<u64>,
    /// What every order buys [default: time_300].
    #[arg(long)]
    pub goods_code: Option<String>,
    #[arg(long)]
    pub concurrency: Option<usize>,
    #[arg(long)]
    pub max_in_flight: Option<usize>,
    #[arg(long)]
    pub server_pid: Option<u32>,
    #[arg(long)]
    pub phone_prefix: Option<String>,
    #[arg(long)]
    pub timeout_secs: Option<u64>,
    #[command(flatten)]
    #[serde(skip)]
    pub out: Outputs,
}

impl PurchaseArgs {
    pub fn into_config(self) -> Result<PurchaseConfig, String> {
        let mut c = PurchaseConfig::new(
            &self.url.ok_or("--url is required")?,
            self.players.unwrap_or(200),
            self.rate.ok_or("--rate is required (orders a second, in all)")?,
        );
        set(&mut c.window, self.window_secs.map(Duration::from_secs));
        set(&mut c.goods_code, self.goods_code);
        set(&mut c.concurrency, self.concurrency);
        set(&mut c.max_in_flight, self.max_in_flight);
        c.server_pid = self.server_pid;
        set(&mut c.phone_prefix, self.phone_prefix);
        set(&mut c.timeout, self.timeout_secs.map(Duration::from_secs));
        c.validate()?;
        Ok(c)
    }
}

/// Parses `args` (without the program name) as the words after `loadtest` or after its
/// subcommand `sub`; clap's usage errors as text.
fn parse_as<T: clap::FromArgMatches + Args>(sub: &'static str, args: impl IntoIterator<Item = String>) -> Result<T, String> {
    let cmd = T::augment_args(clap::Command::new(sub).no_binary_name(true));
    let matches = cmd.try_get_matches_from(args).map_err(|e| e.to_string())?;
    T::from_arg_matches(&matches).map_err(|e| e.to_string())
}

/// The journey's command line (the arguments after the program name).
pub fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Cli, String> {
    parse_as::<JourneyArgs>("loadtest", args)?.into_config()
}

/// The arguments after `queue-scale`.
pub fn parse_queue_args(args: impl IntoIterator<Item = String>) -> Result<(QueueConfig, Option<PathBuf>), String> {
    let a = parse_as::<QueueArgs>("queue-scale", args)?;
    let json = a.out.json.clone();
    Ok((a.into_config()?, json))
}

/// The arguments after `room-scale`.
pub fn parse_room_args(args: impl IntoIterator<Item = String>) -> Result<(RoomConfig, Option<PathBuf>), String> {
    let a = parse_as::<RoomArgs>("room-scale", args)?;
    let json = a.out.json.clone();
    Ok((a.into_config()?, json))
}

/// The arguments after `purchases`.
pub fn parse_purchase_args(args: impl IntoIterator<Item = String>) -> Result<(PurchaseConfig, Option<PathBuf>), String> {
    let a = parse_as::<PurchaseArgs>("purchases", args)?;
    let json = a.out.json.clone();
    Ok((a.into_config()?, json))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    // The subcommands, the default journey, and the children's arguments passed through.
    #[test]
    fn subcommands() {
        let cl = CommandLine::try_parse_from(words("loadtest --url http://127.0.0.1:9 --players 3 --json a.json")).unwrap();
        assert!(cl.command.is_none());
        assert_eq!(cl.journey.players, Some(3));
        assert_eq!(cl.journey.out.json, Some("a.json".into()));
        let cl = CommandLine::try_parse_from(words("loadtest queue-scale-child --url http://127.0.0.1:9 --bind 127.0.0.2")).unwrap();
        match cl.command {
            Some(Command::QueueScaleChild(c)) => assert_eq!(c.args, words("--url http://127.0.0.1:9 --bind 127.0.0.2")),
            other => panic!("{other:?}"),
        }
        let cl = CommandLine::try_parse_from(words(
            "loadtest room-scale --url http://127.0.0.1:9 --viewers 10 --rate 1 --no-spread",
        ))
        .unwrap();
        match cl.command {
            Some(Command::RoomScale(r)) => assert!(r.no_spread && r.viewers == Some(10)),
            other => panic!("{other:?}"),
        }
        let cl = CommandLine::try_parse_from(words("loadtest run s.toml --url http://127.0.0.1:9 --html r.html")).unwrap();
        match cl.command {
            Some(Command::Run(r)) => assert_eq!((r.file, r.out.html), ("s.toml".into(), Some("r.html".into()))),
            other => panic!("{other:?}"),
        }
        assert!(
            CommandLine::try_parse_from(words("loadtest")).is_err(),
            "--url and --players are required"
        );
        assert!(CommandLine::try_parse_from(words("loadtest purchases --rate 1")).is_err());
        // clap's usage errors exit 2, as the hand-written parsers did.
        let e = CommandLine::try_parse_from(words("loadtest --bogus 1")).unwrap_err();
        assert_eq!(e.exit_code(), 2);
    }

    // The journey's new knobs: arrival rate, think time, where the journey ends.
    #[test]
    fn journey_knobs() {
        let cli = parse_args(words(
            "--url http://127.0.0.1:9 --players 10 --arrival-rate 2.5 --think-ms 30 --until login --server-pid 7",
        ))
        .unwrap();
        let c = cli.config;
        assert_eq!(
            (c.arrival_rate, c.think, c.server_pid),
            (Some(2.5), Duration::from_millis(30), Some(7))
        );
        assert_eq!(c.until, crate::config::Until::Login);
        assert!(parse_args(words("--url http://127.0.0.1:9 --players 10 --until lunch")).is_err());
        assert!(parse_args(words("--url http://127.0.0.1:9 --players 10 --arrival-rate 0")).is_err());
    }
}
