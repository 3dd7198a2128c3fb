//! `yoo-gamehost --config FILE`: runs a game host until SIGINT or SIGTERM.
//! `yoo-gamehost --pattern [--size WxH] [--fps N] [--exit-after MS]`: the test pattern game,
//! on `$DISPLAY`.

use std::path::PathBuf;

use gamehost::HostConfig;

fn usage() -> ! {
    eprintln!("usage: yoo-gamehost --config FILE | yoo-gamehost --pattern [--size WxH] [--fps N] [--exit-after MS]");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--pattern") => {
            let opts = gamehost::pattern::Options::parse(&args[1..]).unwrap_or_else(|e| {
                eprintln!("{e}");
                usage()
            });
            if let Err(e) = gamehost::pattern::run(opts) {
                eprintln!("pattern: {e}");
                std::process::exit(1);
            }
        }
        Some("--config") if args.len() == 2 => {
            tracing_subscriber::fmt()
                .with_env_filter(
                    tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
                )
                .init();
            let config = HostConfig::load(&PathBuf::from(&args[1])).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2);
            });
            let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("yoo-gamehost"));
            let result = actix_rt::System::new().block_on(async move {
                let running = gamehost::start(config, exe).await?;
                println!("yoo-gamehost listening on {}", running.addr);
                let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
                tracing::info!("stopping: ending games and displays");
                running.stop().await;
                Ok::<_, std::io::Error>(())
            });
            if let Err(e) = result {
                eprintln!("yoo-gamehost: {e}");
                std::process::exit(1);
            }
        }
        _ => usage(),
    }
}
