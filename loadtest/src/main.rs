//! `loadtest`: drives virtual players through a running yoo-server and prints what it measured.
//!
//! Usage (`loadtest --help`, `loadtest SUBCOMMAND --help`):
//!
//! - `loadtest --url http://127.0.0.1:PORT --players N [--concurrency C] [--arrival-rate R]
//!   [--think-ms 0] [--until play] [--game-id 1] [--node-id 1] [--play-ms 200]
//!   [--timeout-secs 300] [--phone-prefix 150] [--server-pid PID] [--json FILE] [--html FILE]`:
//!   the player journey. Exit status: 0 all completed, 1 some player failed, 2 bad usage, 3 none
//!   failed but some timed out.
//! - `loadtest queue-scale ...` runs the queue-scale scenario; exit status 0 when it ran and no
//!   pushed rank lied, 1 otherwise, 2 bad usage or a run that could not complete.
//!   `queue-scale-child` is the socket-holding child it starts.
//! - `loadtest purchases ...` runs the purchases scenario; exit status 0 when every order created
//!   was fulfilled and the ledger matched every balance, 1 otherwise, 2 bad usage or a run that
//!   could not complete.
//! - `loadtest room-scale ...` runs the room-scale scenario; exit status 0 when every message
//!   reached every viewer present and no event was skipped, 1 otherwise, 2 bad usage or a run
//!   that could not complete. `room-scale-child` is the socket-holding child it starts.
//! - `loadtest run FILE.toml [--url URL] [--server-pid PID] [--json FILE] [--html FILE]` runs a
//!   scenario file (see `scenario_file`): the workload's own exit status when it is not 0, else
//!   4 when a threshold of the file was broken, else 0; 2 for a file that does not parse.
//!
//! Every subcommand takes `--json FILE` (the JSON report) and `--html FILE` (the HTML report).

use std::path::{Path, PathBuf};

use clap::Parser;
use loadtest::cli::{Command, CommandLine};
use loadtest::scenario_file::{self, Overrides};
use loadtest::thresholds::{verdict_table, Threshold};
use loadtest::workload::Workload;

/// Exit status of a run whose workload passed but broke a threshold.
const THRESHOLD_BROKEN: i32 = 4;

/// The value, or the error and exit status 2 (bad usage).
fn or_usage<T>(r: Result<T, String>, sub: &str) -> T {
    r.unwrap_or_else(|e| {
        eprintln!("loadtest: {e}\n(see `loadtest {sub}--help`)");
        std::process::exit(2)
    })
}

fn write_file(path: Option<&Path>, text: &str) {
    if let Some(path) = path {
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("loadtest: cannot write {}: {e}", path.display());
            std::process::exit(2);
        }
    }
}

/// What one run is asked for besides its workload.
struct Ask {
    thresholds: Vec<Threshold>,
    json: Option<PathBuf>,
    html: Option<PathBuf>,
    description: Option<String>,
}

/// Runs the workload, prints its table (and the verdicts), writes the reports; the exit status.
fn execute(workload: Workload, ask: Ask) -> i32 {
    let finished = workload.run_blocking().unwrap_or_else(|e| {
        eprintln!("loadtest: {e}");
        std::process::exit(2)
    });
    print!("{}", finished.table);
    let verdicts: Vec<_> = ask.thresholds.iter().map(|t| t.judge(&finished.metrics)).collect();
    if !verdicts.is_empty() {
        print!("{}", verdict_table(&verdicts));
    }
    for v in verdicts.iter().filter(|v| !v.pass) {
        eprintln!("loadtest: threshold broken: {} (measured {})", v.threshold, v.measured);
    }
    write_file(ask.json.as_deref(), &(finished.json.clone() + "\n"));
    if ask.html.is_some() {
        let html = loadtest::html::render(&finished, &verdicts, ask.description.as_deref());
        write_file(ask.html.as_deref(), &html);
    }
    match finished.exit_code {
        0 if verdicts.iter().any(|v| !v.pass) => THRESHOLD_BROKEN,
        code => code,
    }
}

fn main() {
    let cl = CommandLine::parse();
    let ask = |json, html| Ask {
        thresholds: Vec::new(),
        json,
        html,
        description: None,
    };
    let code = match cl.command {
        Some(Command::QueueScaleChild(c)) => loadtest::queue_scale::child::main(c.args),
        Some(Command::RoomScaleChild(c)) => loadtest::room_scale::child::main(c.args),
        Some(Command::Run(r)) => {
            let over = Overrides {
                url: r.url,
                server_pid: r.server_pid,
                json: r.out.json,
                html: r.out.html,
            };
            let s = or_usage(scenario_file::load(&r.file, over), "run ");
            // A name the workload does not have is most likely a typo: said before a long run.
            let known = loadtest::workload::known_metrics(s.workload.name());
            let checkable = s.workload.name() != "command";
            for t in s.thresholds.iter().filter(|t| checkable && !known.contains(&t.metric)) {
                eprintln!(
                    "loadtest: warning: threshold {:?}: {:?} is not a metric {} has ({})",
                    t.text,
                    t.metric,
                    s.workload.name(),
                    known.join(", ")
                );
            }
            let ask = Ask {
                thresholds: s.thresholds,
                json: s.json,
                html: s.html,
                description: s.description,
            };
            execute(s.workload, ask)
        }
        Some(Command::QueueScale(a)) => {
            let out = a.out.clone();
            let c = or_usage(a.into_config(), "queue-scale ");
            execute(Workload::QueueScale(c), ask(out.json, out.html))
        }
        Some(Command::Purchases(a)) => {
            let out = a.out.clone();
            let c = or_usage(a.into_config(), "purchases ");
            execute(Workload::Purchases(c), ask(out.json, out.html))
        }
        Some(Command::RoomScale(a)) => {
            let out = a.out.clone();
            let c = or_usage(a.into_config(), "room-scale ");
            execute(Workload::RoomScale(c), ask(out.json, out.html))
        }
        None => {
            let cli = or_usage(cl.journey.into_config(), "");
            execute(Workload::Journey(cli.config), ask(cli.json, cli.html))
        }
    };
    std::process::exit(code);
}
