//! `yoo-server`: the platform on one port (REST, WebSocket, the built frontend, /metrics).
//!
//! Usage: `yoo-server (--config FILE | --dev) [--bind ADDR] [--data-dir DIR] [--print-openapi]`.
//! Dev mode (the sandbox providers, the SMS outbox and grant routes) is only ever chosen
//! explicitly: a file that says `mode = "dev"` (`ops/dev.toml`) or `--dev` (the same settings,
//! embedded). Without either the server refuses to start, as production mode does without real
//! providers. `--print-openapi` prints the OpenAPI document of that configuration's routes and
//! exits (the frontend's types come from it).
//!
//! `yoo-server account (freeze|ban|restore) --phone P [--reason R] [--days N] (--url URL |
//! --config FILE)`: the operator's command. It asks the running server (its `POST
//! /api/ops/account`, with the operator token from `$YOO_OPERATOR_TOKEN`) to freeze, ban or
//! restore an account: the server ends its logins and its game. Exit status 0 when done, 1 when
//! the server refused (its envelope is printed), 2 on bad usage or no server.
//!
//! `yoo-server store copy --from (sqlite:DIR | postgres://...) --to (sqlite:DIR | postgres://...)`:
//! moves a site's data into a new store (SQLite to PostgreSQL, say), as one snapshot of the
//! source written in one transaction; the target must hold no user yet. Exit status 0 when
//! copied (the rows by table are printed), 1 when the copy failed (nothing was written), 2 on
//! bad usage.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use facade::config::ServerConfig;

/// What the server says when it is given no configuration.
const NO_CONFIG: &str = "yoo-server: no configuration given, not starting. \
Production needs a configuration with real SMS, payment and captcha providers (`--config FILE`); \
dev mode, with the sandbox providers, the SMS outbox and the grant routes, must be chosen explicitly: \
`--config ops/dev.toml` or `--dev`.";

#[derive(Parser)]
#[command(name = "yoo-server", about = "The cloud-gaming platform on one port", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: Serve,
}

/// Running the server (no subcommand).
#[derive(Args)]
struct Serve {
    /// The configuration file (ops/dev.toml for dev mode).
    #[arg(long, conflicts_with = "dev")]
    config: Option<PathBuf>,
    /// Dev mode with the embedded settings (the sandbox providers).
    #[arg(long)]
    dev: bool,
    /// The address to listen on, over the configuration's.
    #[arg(long)]
    bind: Option<SocketAddr>,
    /// Where the database lives, over the configuration's.
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Prints the OpenAPI document of the configuration's routes and exits.
    #[arg(long)]
    print_openapi: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Freezes, bans or restores an account on the running server (the operator's command).
    Account(AccountCmd),
    /// The store's own commands (the operator's).
    Store {
        #[command(subcommand)]
        action: StoreCmd,
    },
}

#[derive(Subcommand)]
enum StoreCmd {
    /// Copies every row of one store into a new one (SQLite to PostgreSQL, say).
    Copy {
        /// The source: `sqlite:DIR` (the directory of yoo.db) or a `postgres://` url.
        #[arg(long)]
        from: String,
        /// The target, a new database: `sqlite:DIR` or a `postgres://` url.
        #[arg(long)]
        to: String,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum AccountAction {
    Freeze,
    Ban,
    Restore,
}

#[derive(Args)]
struct AccountCmd {
    action: AccountAction,
    /// The account's phone number.
    #[arg(long)]
    phone: String,
    /// Shown to the player in the forbidden alert (freeze, ban).
    #[arg(long, default_value = "")]
    reason: String,
    /// A ban's length in days (absent: until lifted).
    #[arg(long)]
    days: Option<u32>,
    /// The running server, `http://HOST:PORT` (default: the configuration's bind address).
    #[arg(long, conflicts_with = "config")]
    url: Option<String>,
    /// The server's configuration, to find its address.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The environment variable that holds the operator token.
    #[arg(long, default_value = "YOO_OPERATOR_TOKEN")]
    token_env: String,
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Account(cmd)) => std::process::exit(account(cmd).await),
        Some(Command::Store {
            action: StoreCmd::Copy { from, to },
        }) => std::process::exit(store_copy(&from, &to).await),
        None => {}
    }
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .init();
    let Serve {
        config,
        dev,
        bind,
        data_dir,
        print_openapi,
    } = cli.serve;
    let config = config.map(|path| {
        ServerConfig::load(&path).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        })
    });
    let mut config = match (config, dev) {
        (Some(c), _) => c,
        (None, true) => ServerConfig::dev_default(),
        (None, false) => {
            eprintln!("{NO_CONFIG}");
            std::process::exit(2)
        }
    };
    if let Some(b) = bind {
        config.bind = b;
    }
    if let Some(d) = data_dir {
        config.data_dir = d;
    }
    if print_openapi {
        let doc = facade::openapi::document(config.mode == facade::config::Mode::Dev);
        println!("{}", doc.to_pretty_json().unwrap_or_default());
        return;
    }
    let running = match facade::start(config).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("yoo-server: {e}");
            std::process::exit(1);
        }
    };
    println!("yoo-server listening on http://{}", running.addr);
    release_free_memory_periodically();
    let handle = running.handle.clone();
    let joined = running.cluster.clone();
    tokio::spawn(async move {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("signal handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
        if let Some(j) = joined {
            // the other processes take its node queues and see it gone at once, not after the TTL
            j.leave().await;
        }
        handle.stop(true).await;
    });
    match running.done.await {
        Ok(Ok(())) => {}
        other => {
            eprintln!("yoo-server stopped: {other:?}");
            std::process::exit(1);
        }
    }
}

/// How often freed heap memory goes back to the system.
const TRIM_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// glibc's allocator keeps what the program frees in its arenas (one per thread that allocated,
/// up to 8 per core) and gives back to the system only the top of each heap. After a burst (the
/// logins and starts of a peak hour, with their player actors and blocking threads) the
/// resident size stays at the burst's high-water mark although the memory is free. A thread
/// returns the free pages every `TRIM_EVERY` (`malloc_trim`); what the server still uses stays.
fn release_free_memory_periodically() {
    // The first reading at once (the gauge exists from the start), then every TRIM_EVERY.
    let spawned = std::thread::Builder::new().name("yoo-trim".into()).spawn(|| loop {
        // SAFETY: malloc_trim only returns the allocator's free pages and mallinfo2 only reads
        // its counters; both are safe to call from any thread at any time.
        let info = unsafe {
            libc::malloc_trim(0);
            libc::mallinfo2()
        };
        // What the program holds (small chunks in use plus mmapped blocks), as opposed to what
        // is resident: the gap is the allocator's free memory it could not give back.
        metrics::gauge!("yoo_heap_in_use_bytes").set((info.uordblks + info.hblkhd) as f64);
        std::thread::sleep(TRIM_EVERY);
    });
    if let Err(e) = spawned {
        tracing::warn!(error = %e, "memory trimming thread not started");
    }
}

/// `yoo-server store copy`: the exit status.
async fn store_copy(from: &str, to: &str) -> i32 {
    let (Some(from), Some(to)) = (storage::StoreAt::parse(from, 2), storage::StoreAt::parse(to, 2)) else {
        eprintln!("yoo-server store copy: --from and --to are sqlite:DIR or postgres://USER@HOST:PORT/DB");
        return 2;
    };
    let shown = (from.to_string(), to.to_string());
    match tokio::task::spawn_blocking(move || from.copy_to(&to)).await {
        Ok(Ok(report)) => {
            for (table, rows) in &report.rows {
                println!("{table}\t{rows}");
            }
            println!(
                "copied {} rows of {} tables from {} to {}",
                report.rows.values().sum::<u64>(),
                report.rows.len(),
                shown.0,
                shown.1
            );
            0
        }
        Ok(Err(e)) => {
            eprintln!("yoo-server store copy: {e}; nothing was written to {}", shown.1);
            1
        }
        Err(e) => {
            eprintln!("yoo-server store copy: {e}");
            1
        }
    }
}

/// `yoo-server account`: the operator's call to the running server; the exit status.
async fn account(cmd: AccountCmd) -> i32 {
    let url = match (&cmd.url, &cmd.config) {
        (Some(u), _) => u.clone(),
        (None, Some(path)) => match ServerConfig::load(path) {
            Ok(c) => {
                let mut addr = c.bind;
                if addr.ip().is_unspecified() {
                    addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
                }
                format!("http://{addr}")
            }
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        },
        (None, None) => {
            eprintln!("yoo-server account: give the server (--url http://HOST:PORT) or its configuration (--config FILE)");
            return 2;
        }
    };
    let Some(host) = url.strip_prefix("http://").map(|h| h.trim_end_matches('/')) else {
        eprintln!(
            "yoo-server account: the server's address must be http://HOST:PORT (the operator route is reached on the server's own network)"
        );
        return 2;
    };
    let Ok(token) = std::env::var(&cmd.token_env) else {
        eprintln!("yoo-server account: no operator token in ${}", cmd.token_env);
        return 2;
    };
    let until = cmd.days.map_or(0, |d| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |t| i64::try_from(t.as_millis()).unwrap_or(0));
        now + i64::from(d) * 86_400_000
    });
    let action = match cmd.action {
        AccountAction::Freeze => "freeze",
        AccountAction::Ban => "ban",
        AccountAction::Restore => "restore",
    };
    let body = serde_json::json!({"cellphone": cmd.phone, "action": action, "reason": cmd.reason, "until": until}).to_string();
    match post(host, "/api/ops/account", &token, &body).await {
        Ok(answer) => {
            println!("{answer}");
            let ok = serde_json::from_str::<serde_json::Value>(&answer).is_ok_and(|v| v["code"] == 0);
            if ok {
                0
            } else {
                1
            }
        }
        Err(e) => {
            eprintln!("yoo-server account: {url}: {e}");
            2
        }
    }
}

/// POSTs a JSON body over HTTP/1.1 to `host` (HOST:PORT); the answer's body.
async fn post(host: &str, path: &str, token: &str, body: &str) -> Result<String, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::time::timeout(std::time::Duration::from_secs(10), tokio::net::TcpStream::connect(host))
        .await
        .map_err(|_| "connect timed out".to_string())?
        .map_err(|e| e.to_string())?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nx-skip-csrf: true\r\n\
         {}: {token}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        facade::auth::OPERATOR_TOKEN_HEADER,
        body.len()
    );
    s.write_all(request.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    tokio::time::timeout(std::time::Duration::from_secs(30), s.read_to_end(&mut answer))
        .await
        .map_err(|_| "no answer in 30 s".to_string())?
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&answer);
    let (_, body) = text.split_once("\r\n\r\n").ok_or("a malformed answer")?;
    Ok(body.to_string())
}
