//! `yoo-gamehost --config FILE`: runs a game host until SIGINT or SIGTERM.
//! `yoo-gamehost --pattern [--size WxH] [--fps N] [--exit-after MS] [--busy]`: the test pattern
//! game, on `$DISPLAY`.
//!
//! Exit status: 0 stopped by a signal (or the pattern's display went away, or its
//! `--exit-after`), 1 the host or the pattern failed, 2 bad usage or a configuration that does
//! not load.

use std::path::PathBuf;

use clap::{ArgGroup, Parser};
use gamehost::HostConfig;

#[derive(Debug, Parser)]
#[command(
    name = "yoo-gamehost",
    version,
    about = "The game host: machine slots (Xvfb), games, capture and encode, the stream endpoint, the link to the platform.",
    group(ArgGroup::new("mode").required(true).args(["config", "pattern"])),
    group(ArgGroup::new("pattern_opts").multiple(true).args(["size", "fps", "exit_after_ms", "busy"]).requires("pattern").conflicts_with("config")),
    after_help = "Exit status: 0 stopped (SIGINT, SIGTERM), 1 failed, 2 bad usage or a configuration that does not load."
)]
struct Cli {
    /// Runs a game host on this configuration (TOML: host, node secret, platform, slots, games).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Runs the built-in test pattern game on $DISPLAY instead (what `@self --pattern` launches).
    #[arg(long)]
    pattern: bool,
    #[command(flatten)]
    pattern_opts: gamehost::pattern::Options,
}

fn main() {
    let cli = Cli::parse();
    if cli.pattern {
        if let Err(e) = gamehost::pattern::run(cli.pattern_opts) {
            eprintln!("pattern: {e}");
            std::process::exit(1);
        }
        return;
    }
    let Some(config) = cli.config else {
        unreachable!("clap requires --config or --pattern")
    };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let config = HostConfig::load(&config).unwrap_or_else(|e| {
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

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;
    use clap::CommandFactory;

    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("yoo-gamehost").chain(args.iter().copied()))
    }

    #[test]
    fn the_command_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn the_valid_forms() {
        let c = parse(&["--config", "ops/gamehost-dev-1.toml"]).unwrap();
        assert_eq!(c.config, Some(PathBuf::from("ops/gamehost-dev-1.toml")));
        assert!(!c.pattern);

        let c = parse(&["--pattern"]).unwrap();
        assert!(c.pattern && c.config.is_none());
        let o = c.pattern_opts;
        assert_eq!((o.size, o.fps, o.exit_after_ms, o.busy), (None, None, None, false));

        // What the game configurations (ops/, the tests, the end-to-end helpers) launch.
        let o = parse(&["--pattern", "--size", "1280x720"]).unwrap().pattern_opts;
        assert_eq!(o.size, Some([1280, 720]));
        let o = parse(&["--pattern", "--size", "320x240", "--exit-after", "1500"])
            .unwrap()
            .pattern_opts;
        assert_eq!((o.size, o.exit_after_ms), (Some([320, 240]), Some(1500)));
        let o = parse(&["--pattern", "--size", "320x240", "--busy", "--fps", "30"])
            .unwrap()
            .pattern_opts;
        assert_eq!((o.size, o.fps, o.busy), (Some([320, 240]), Some(30), true));
        let o = parse(&["--pattern", "--size=640x360", "--fps=5"]).unwrap().pattern_opts;
        assert_eq!((o.size, o.fps), (Some([640, 360]), Some(5)));
    }

    #[test]
    fn the_refused_forms() {
        let kind = |args: &[&str]| parse(args).map(|_| ()).unwrap_err().kind();
        // Neither mode, or both.
        assert_eq!(kind(&[]), ErrorKind::MissingRequiredArgument);
        assert_eq!(kind(&["--config", "a.toml", "--pattern"]), ErrorKind::ArgumentConflict);
        // A missing value, a value of the wrong form.
        assert_eq!(kind(&["--config"]), ErrorKind::InvalidValue);
        assert_eq!(kind(&["--pattern", "--size"]), ErrorKind::InvalidValue);
        assert_eq!(kind(&["--pattern", "--size", "640"]), ErrorKind::ValueValidation);
        assert_eq!(kind(&["--pattern", "--fps", "fast"]), ErrorKind::ValueValidation);
        assert_eq!(kind(&["--pattern", "--exit-after", "-1"]), ErrorKind::UnknownArgument);
        // An unknown flag, a stray argument, a pattern flag without --pattern.
        assert_eq!(kind(&["--pattern", "--colour", "red"]), ErrorKind::UnknownArgument);
        assert_eq!(kind(&["--config", "a.toml", "b.toml"]), ErrorKind::UnknownArgument);
        assert_eq!(kind(&["--size", "640x360"]), ErrorKind::MissingRequiredArgument);
        assert_eq!(kind(&["--config", "a.toml", "--busy"]), ErrorKind::ArgumentConflict);
        // Usage errors exit 2 (what the hand parser did); --help and --version exit 0.
        assert_eq!(parse(&["--bogus"]).map(|_| ()).unwrap_err().exit_code(), 2);
        assert_eq!(kind(&["--help"]), ErrorKind::DisplayHelp);
        assert_eq!(parse(&["--help"]).map(|_| ()).unwrap_err().exit_code(), 0);
        assert_eq!(kind(&["--version"]), ErrorKind::DisplayVersion);
    }
}
