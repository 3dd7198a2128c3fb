//! `yoo-server`: the platform on one port (REST, WebSocket, the built frontend, /metrics).
//!
//! Usage: `yoo-server (--config FILE | --dev) [--bind ADDR] [--data-dir DIR] [--print-openapi]`.
//! Dev mode (the sandbox providers, the SMS outbox and grant routes) is only ever chosen
//! explicitly: a file that says `mode = "dev"` (`ops/dev.toml`) or `--dev` (the same settings,
//! embedded). Without either the server refuses to start, as production mode does without real
//! providers. `--print-openapi` prints the OpenAPI document of that configuration's routes and
//! exits (the frontend's types come from it).

use std::path::PathBuf;

use facade::config::ServerConfig;

fn usage() -> ! {
    eprintln!("usage: yoo-server (--config FILE | --dev) [--bind ADDR] [--data-dir DIR] [--print-openapi]");
    std::process::exit(2)
}

/// What the server says when it is given no configuration.
const NO_CONFIG: &str = "yoo-server: no configuration given, not starting. \
Production needs a configuration with real SMS, payment and captcha providers (`--config FILE`); \
dev mode, with the sandbox providers, the SMS outbox and the grant routes, must be chosen explicitly: \
`--config ops/dev.toml` or `--dev`.";

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .init();
    let mut args = std::env::args().skip(1);
    let mut config: Option<ServerConfig> = None;
    let (mut bind, mut data_dir, mut dev, mut print_openapi) = (None, None, false, false);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--config" => {
                config = Some(ServerConfig::load(&PathBuf::from(value())).unwrap_or_else(|e| {
                    eprintln!("{e}");
                    std::process::exit(2)
                }))
            }
            "--bind" => bind = Some(value().parse().unwrap_or_else(|_| usage())),
            "--data-dir" => data_dir = Some(PathBuf::from(value())),
            "--dev" => dev = true,
            "--print-openapi" => print_openapi = true,
            _ => usage(),
        }
    }
    let mut config = match (config, dev) {
        (Some(_), true) => usage(),
        (Some(c), false) => c,
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
    tokio::spawn(async move {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("signal handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
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
