//! The host's configuration file (TOML): who the host is, where the platform is, its slots and
//! the games it can run. `ops/gamehost-dev-<node>.toml` are the dev files `make run` uses.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// One host process.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostConfig {
    /// The node whose machines the host provides.
    pub node_id: i64,
    /// The host's name, unique within its node; machine ids are `{host}-{slot:02}`.
    pub host: String,
    /// The node's secret (the platform's `[[nodes]] host_secret`): it signs the hello and the
    /// stream tickets. Never sent over the wire.
    pub secret: String,
    /// The platform's host link, e.g. `ws://127.0.0.1:8080/api/host/link`.
    pub platform_url: String,
    /// Where the stream endpoint, `/ping` and `/metrics` listen (`127.0.0.1:0` picks a port).
    pub bind: String,
    /// What browsers are told to open (`ws://host:port`); by default `ws://` and the bound address.
    #[serde(default)]
    pub public_url: Option<String>,
    /// How many slots (virtual displays) the host owns.
    pub slots: u32,
    /// The first slot's display number (`:<display_base + i>`); without it each Xvfb picks a
    /// free one, so several hosts and tests on one machine never collide.
    #[serde(default)]
    pub display_base: Option<u32>,
    /// The displays' size; every game's window fits in it.
    #[serde(default = "default_screen")]
    pub screen: [u32; 2],
    /// Captured and encoded frames per second.
    #[serde(default = "default_fps")]
    pub fps: u32,
    /// The encoder's target bitrate.
    #[serde(default = "default_bitrate")]
    pub bitrate_kbps: u32,
    /// The most seconds between two key frames when nobody asks for one.
    #[serde(default = "default_key_interval")]
    pub key_interval_secs: u32,
    /// Where per-slot homes live (the games' settings and saves, wiped between sessions).
    #[serde(default = "default_state_dir")]
    pub state_dir: PathBuf,
    /// Seconds a launched game has to map its window before the launch counts as failed.
    #[serde(default = "default_launch_timeout")]
    pub launch_timeout_secs: u64,
    /// The games, by key (catalogue entries name these keys as their `hostGame`).
    pub games: BTreeMap<String, GameConfig>,
}

/// One game the host can launch.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// The program; `@self` is this host's own binary (the built-in test pattern runs as
    /// `@self --pattern`).
    pub program: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Added to the game's environment (besides `DISPLAY` and `HOME`).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// The game's window size: what is captured (from the display's top left corner) and
    /// streamed.
    pub window: [u32; 2],
    /// The game's CPU priority (`nice`): a game at normal priority starves the encoder.
    #[serde(default = "default_nice")]
    pub nice: i32,
    /// Files written into the game's fresh home before each launch (path relative to the home
    /// → content), e.g. a settings file that sets the window size.
    #[serde(default)]
    pub home_files: BTreeMap<String, String>,
}

fn default_screen() -> [u32; 2] {
    [1280, 720]
}
fn default_fps() -> u32 {
    30
}
fn default_bitrate() -> u32 {
    3000
}
fn default_key_interval() -> u32 {
    2
}
fn default_state_dir() -> PathBuf {
    std::env::temp_dir().join("yoo-gamehost")
}
fn default_launch_timeout() -> u64 {
    30
}
fn default_nice() -> i32 {
    10
}

/// A configuration that cannot run.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("invalid configuration: {0}")]
    Parse(#[from] toml::de::Error),
    #[error("invalid configuration: {0}")]
    Invalid(String),
}

/// `dir` against the current directory when it is relative. The slots' homes live under the
/// state directory and a game runs with its home as `HOME` and working directory, where a
/// relative path points nowhere (neverball crashed at start on one, under `make run`).
fn absolute(dir: &Path) -> PathBuf {
    if dir.is_relative() {
        if let Ok(cwd) = std::env::current_dir() {
            return cwd.join(dir);
        }
    }
    dir.to_owned()
}

impl HostConfig {
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
        })?;
        let mut config = Self::parse(&text)?;
        config.state_dir = absolute(&config.state_dir);
        Ok(config)
    }

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let config: HostConfig = toml::from_str(text)?;
        config.validate()?;
        Ok(config)
    }

    /// Refuses what would only fail later: no slot, an empty secret, a game larger than the
    /// display, odd sizes (the encoder's 4:2:0 needs even ones).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |m: String| Err(ConfigError::Invalid(m));
        if self.slots == 0 || self.slots > 64 {
            return bad(format!("slots must be 1..=64, not {}", self.slots));
        }
        if self.secret.is_empty() {
            return bad("secret is empty".into());
        }
        if self.host.is_empty() || !self.host.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return bad(format!("host name {:?} must be letters, digits, - or _", self.host));
        }
        if !(1..=60).contains(&self.fps) {
            return bad(format!("fps must be 1..=60, not {}", self.fps));
        }
        if self.games.is_empty() {
            return bad("no game configured".into());
        }
        let [sw, sh] = self.screen;
        for (key, game) in &self.games {
            let [w, h] = game.window;
            if w == 0 || h == 0 || w > sw || h > sh || !w.is_multiple_of(2) || !h.is_multiple_of(2) {
                return bad(format!("game {key}: window {w}x{h} must be even and fit the screen {sw}x{sh}"));
            }
            if !(-20..=19).contains(&game.nice) {
                return bad(format!("game {key}: nice must be -20..=19"));
            }
            for path in game.home_files.keys() {
                if Path::new(path).is_absolute() || path.split('/').any(|p| p == "..") {
                    return bad(format!("game {key}: home file {path:?} must stay inside the home"));
                }
            }
        }
        Ok(())
    }

    /// The id the platform gives a slot's machine.
    pub fn machine_id(&self, slot: u32) -> String {
        format!("{}-{slot:02}", self.host)
    }

    /// Frames between two key frames when nobody asks for one.
    pub fn key_int_frames(&self) -> u32 {
        (self.fps * self.key_interval_secs).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
        node_id = 1
        host = "hd1"
        secret = "s"
        platform_url = "ws://127.0.0.1:8080/api/host/link"
        bind = "127.0.0.1:0"
        slots = 2
        [games.pattern]
        program = "@self"
        args = ["--pattern"]
        window = [640, 360]
    "#;

    fn check(edit: impl Fn(&mut HostConfig), expect_err: Option<&str>) {
        let mut c = HostConfig::parse(GOOD).unwrap();
        edit(&mut c);
        match (c.validate(), expect_err) {
            (Ok(()), None) => {}
            (Err(e), Some(part)) => assert!(e.to_string().contains(part), "{e}"),
            (got, want) => panic!("got {got:?}, want error containing {want:?}"),
        }
    }

    // What a configuration may and may not say.
    #[test]
    fn validation() {
        check(|_| {}, None);
        check(|c| c.slots = 0, Some("slots"));
        check(|c| c.secret.clear(), Some("secret"));
        check(|c| c.host = "a b".into(), Some("host name"));
        check(|c| c.games.get_mut("pattern").unwrap().window = [1281, 720], Some("window"));
        check(|c| c.games.get_mut("pattern").unwrap().window = [1920, 1080], Some("window"));
        check(
            |c| {
                c.games.get_mut("pattern").unwrap().home_files.insert("../x".into(), String::new());
            },
            Some("inside the home"),
        );
        check(|c| c.games.clear(), Some("no game"));
        let c = HostConfig::parse(GOOD).unwrap();
        assert_eq!(c.machine_id(1), "hd1-01");
        assert_eq!(c.key_int_frames(), 60);
        assert!(HostConfig::parse("node_id = 1").is_err());
        // The dev hosts `make run` starts: nodes 1 and 2, two slots, the three Debian games and
        // the pattern.
        for (node, text) in [
            (1, include_str!("../../ops/gamehost-dev-1.toml")),
            (2, include_str!("../../ops/gamehost-dev-2.toml")),
        ] {
            let c = HostConfig::parse(text).unwrap();
            assert_eq!((c.node_id, c.slots), (node, 2));
            assert_eq!(c.games.keys().collect::<Vec<_>>(), ["ltris", "neverball", "pattern", "supertux"]);
        }
        assert!(HostConfig::parse(&format!("{GOOD}\nunknown = 1")).is_err());
        // Loaded from a file, the dev hosts' relative state directory becomes absolute: the
        // games' homes must be reachable from their own working directory.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ops/gamehost-dev-1.toml");
        let loaded = HostConfig::load(&path).unwrap();
        assert!(loaded.state_dir.is_absolute(), "{:?}", loaded.state_dir);
        assert!(loaded.state_dir.ends_with("data/gamehost"), "{:?}", loaded.state_dir);
    }
}
