//! `loadtest`: drives virtual players through a running yoo-server and prints what it measured.
//!
//! Usage: `loadtest --url http://127.0.0.1:PORT --players N [--concurrency C] [--game-id 1]
//! [--node-id 1] [--play-ms 200] [--timeout-secs 300] [--phone-prefix 150] [--json FILE]`.
//! Exit status: 0 all completed, 1 some player failed, 2 bad usage, 3 none failed but some
//! timed out.

fn main() {
    let cli = loadtest::config::parse_args(std::env::args().skip(1)).unwrap_or_else(|e| {
        eprintln!("loadtest: {e}\n{}", loadtest::config::USAGE);
        std::process::exit(2)
    });
    let report = loadtest::run_blocking(&cli.config).unwrap_or_else(|e| {
        eprintln!("loadtest: {e}");
        std::process::exit(2)
    });
    print!("{}", report.table());
    if let Some(path) = &cli.json {
        let text = serde_json::to_string_pretty(&report).expect("the report serializes");
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("loadtest: cannot write {}: {e}", path.display());
            std::process::exit(2);
        }
    }
    std::process::exit(report.exit_code());
}
