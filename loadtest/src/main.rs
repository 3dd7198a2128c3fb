//! `loadtest`: drives virtual players through a running yoo-server and prints what it measured.
//!
//! Usage: `loadtest --url http://127.0.0.1:PORT --players N [--concurrency C] [--game-id 1]
//! [--node-id 1] [--play-ms 200] [--timeout-secs 300] [--phone-prefix 150] [--json FILE]`.
//! Exit status: 0 all completed, 1 some player failed, 2 bad usage, 3 none failed but some
//! timed out.
//!
//! `loadtest queue-scale ...` runs the queue-scale scenario instead (see `config::QUEUE_USAGE`);
//! exit status 0 when it ran and no pushed rank lied, 1 otherwise, 2 bad usage or a run that could
//! not complete. `queue-scale-child` is the socket-holding child it starts.
//!
//! `loadtest purchases ...` runs the purchases scenario (see `config::PURCHASE_USAGE`); exit
//! status 0 when every order created was fulfilled and the ledger matched every balance, 1
//! otherwise, 2 bad usage or a run that could not complete.
//!
//! `loadtest room-scale ...` runs the room-scale scenario (see `config::ROOM_USAGE`); exit status
//! 0 when every message reached every viewer present and no event was skipped, 1 otherwise, 2 bad
//! usage or a run that could not complete. `room-scale-child` is the socket-holding child it starts.

use std::path::Path;

fn write_json(path: Option<&Path>, value: &impl serde::Serialize) {
    if let Some(path) = path {
        let text = serde_json::to_string_pretty(value).expect("the report serializes");
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("loadtest: cannot write {}: {e}", path.display());
            std::process::exit(2);
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    match args.peek().map(String::as_str) {
        Some("queue-scale-child") => {
            args.next();
            std::process::exit(loadtest::queue_scale::child::main(args));
        }
        Some("queue-scale") => {
            args.next();
            let (config, json) = loadtest::config::parse_queue_args(args).unwrap_or_else(|e| {
                eprintln!("loadtest: {e}\n{}", loadtest::config::QUEUE_USAGE);
                std::process::exit(2)
            });
            let report = loadtest::queue_scale::run_blocking(&config).unwrap_or_else(|e| {
                eprintln!("loadtest: {e}");
                std::process::exit(2)
            });
            print!("{}", report.table());
            write_json(json.as_deref(), &report);
            std::process::exit(report.exit_code());
        }
        Some("room-scale-child") => {
            args.next();
            std::process::exit(loadtest::room_scale::child::main(args));
        }
        Some("room-scale") => {
            args.next();
            let (config, json) = loadtest::config::parse_room_args(args).unwrap_or_else(|e| {
                eprintln!("loadtest: {e}\n{}", loadtest::config::ROOM_USAGE);
                std::process::exit(2)
            });
            let report = loadtest::room_scale::run_blocking(&config).unwrap_or_else(|e| {
                eprintln!("loadtest: {e}");
                std::process::exit(2)
            });
            print!("{}", report.table());
            write_json(json.as_deref(), &report);
            std::process::exit(report.exit_code());
        }
        Some("purchases") => {
            args.next();
            let (config, json) = loadtest::config::parse_purchase_args(args).unwrap_or_else(|e| {
                eprintln!("loadtest: {e}\n{}", loadtest::config::PURCHASE_USAGE);
                std::process::exit(2)
            });
            let report = loadtest::purchases::run_blocking(&config).unwrap_or_else(|e| {
                eprintln!("loadtest: {e}");
                std::process::exit(2)
            });
            print!("{}", report.table());
            write_json(json.as_deref(), &report);
            std::process::exit(report.exit_code());
        }
        _ => {}
    }
    let cli = loadtest::config::parse_args(args).unwrap_or_else(|e| {
        eprintln!("loadtest: {e}\n{}", loadtest::config::USAGE);
        std::process::exit(2)
    });
    let report = loadtest::run_blocking(&cli.config).unwrap_or_else(|e| {
        eprintln!("loadtest: {e}");
        std::process::exit(2)
    });
    print!("{}", report.table());
    write_json(cli.json.as_deref(), &report);
    std::process::exit(report.exit_code());
}
