//! Scenario files (`loadtest run FILE.toml`): which workload, its parameters, the thresholds
//! the run must meet, and where the reports go. A file looks like:
//!
//! ```toml
//! description = "1,000 players through the whole journey, 500 at a time"
//! workload = "journey"                  # journey | queue-scale | purchases | room-scale | command
//! url = "http://127.0.0.1:8080"         # this machine only; `--url` overrides it (not for command)
//! # server_pid = 1234                   # its CPU and memory are plotted; `--server-pid` overrides
//! thresholds = ["start p99 < 50ms", "errors < 0.1%"]
//! html = "report.html"                  # optional, as `--html`; `json` likewise
//!
//! [journey]                             # the workload's parameters: its flags, snake_case
//! players = 1000
//! concurrency = 500
//! ```
//!
//! The parameter tables are the subcommands' own argument structs (`cli`), so a file says
//! exactly what a command line can, under the same names (`--window-secs` is `window_secs`),
//! with the same defaults and checks. A `command` scenario's table is `[command]` (see
//! [`crate::command`]): a benchmark run as a program that writes its figures.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cli::{JourneyArgs, PurchaseArgs, QueueArgs, RoomArgs};
use crate::command::CommandArgs;
use crate::thresholds::Threshold;
use crate::workload::Workload;

/// A scenario file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// What the scenario measures, shown at the top of the reports.
    pub description: Option<String>,
    pub workload: String,
    pub url: Option<String>,
    pub server_pid: Option<u32>,
    #[serde(default)]
    pub thresholds: Vec<String>,
    pub json: Option<PathBuf>,
    pub html: Option<PathBuf>,
    pub journey: Option<JourneyArgs>,
    #[serde(rename = "queue-scale")]
    pub queue_scale: Option<QueueArgs>,
    pub purchases: Option<PurchaseArgs>,
    #[serde(rename = "room-scale")]
    pub room_scale: Option<RoomArgs>,
    pub command: Option<CommandArgs>,
}

/// What the command line sets over a file.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub url: Option<String>,
    pub server_pid: Option<u32>,
    pub json: Option<PathBuf>,
    pub html: Option<PathBuf>,
}

/// A scenario ready to run.
#[derive(Debug)]
pub struct Scenario {
    pub description: Option<String>,
    pub workload: Workload,
    pub thresholds: Vec<Threshold>,
    pub json: Option<PathBuf>,
    pub html: Option<PathBuf>,
}

/// The workloads a file may name.
pub const WORKLOADS: [&str; 5] = ["journey", "queue-scale", "purchases", "room-scale", "command"];

impl ScenarioFile {
    pub fn parse(text: &str) -> Result<ScenarioFile, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// The workload configured and checked, the thresholds parsed.
    pub fn into_scenario(self, over: Overrides) -> Result<Scenario, String> {
        if !WORKLOADS.contains(&self.workload.as_str()) {
            return Err(format!("workload {:?}: one of {}", self.workload, WORKLOADS.join(", ")));
        }
        let tables = [
            ("journey", self.journey.is_some()),
            ("queue-scale", self.queue_scale.is_some()),
            ("purchases", self.purchases.is_some()),
            ("room-scale", self.room_scale.is_some()),
            ("command", self.command.is_some()),
        ];
        if let Some((other, _)) = tables.iter().find(|(name, present)| *present && *name != self.workload) {
            return Err(format!("a [{other}] table in a {} scenario", self.workload));
        }
        let url = over.url.or(self.url);
        let pid = over.server_pid.or(self.server_pid);
        let thresholds = crate::thresholds::parse_all(&self.thresholds)?;
        if self.workload == "command" {
            if url.is_some() {
                return Err("a command scenario has no url: its program starts what it measures".into());
            }
            let workload = Workload::Command(self.command.unwrap_or_default().into_config(pid)?);
            return Ok(Scenario {
                description: self.description,
                workload,
                thresholds,
                json: over.json.or(self.json),
                html: over.html.or(self.html),
            });
        }
        // The table's own url and pid stand unless the command line gives them.
        let pick = |table: Option<String>| if url.is_some() { url.clone() } else { table };
        let pick_pid = |table: Option<u32>| if pid.is_some() { pid } else { table };
        let table_url = [
            self.journey.as_ref().and_then(|a| a.url.as_ref()),
            self.queue_scale.as_ref().and_then(|a| a.url.as_ref()),
            self.purchases.as_ref().and_then(|a| a.url.as_ref()),
            self.room_scale.as_ref().and_then(|a| a.url.as_ref()),
        ];
        if url.is_none() && table_url.iter().all(Option::is_none) {
            return Err("no target: give url = \"http://127.0.0.1:PORT\" in the file, or --url".into());
        }
        let workload = match self.workload.as_str() {
            "journey" => {
                let mut a = self.journey.unwrap_or_default();
                (a.url, a.server_pid) = (pick(a.url), pick_pid(a.server_pid));
                Workload::Journey(a.into_config()?.config)
            }
            "queue-scale" => {
                let mut a = self.queue_scale.unwrap_or_default();
                (a.url, a.server_pid) = (pick(a.url), pick_pid(a.server_pid));
                Workload::QueueScale(a.into_config()?)
            }
            "purchases" => {
                let mut a = self.purchases.unwrap_or_default();
                (a.url, a.server_pid) = (pick(a.url), pick_pid(a.server_pid));
                Workload::Purchases(a.into_config()?)
            }
            _ => {
                let mut a = self.room_scale.unwrap_or_default();
                (a.url, a.server_pid) = (pick(a.url), pick_pid(a.server_pid));
                Workload::RoomScale(a.into_config()?)
            }
        };
        Ok(Scenario {
            description: self.description,
            workload,
            thresholds,
            json: over.json.or(self.json),
            html: over.html.or(self.html),
        })
    }
}

/// Reads and prepares the scenario in `path`.
pub fn load(path: &Path, over: Overrides) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    ScenarioFile::parse(&text)
        .and_then(|f| f.into_scenario(over))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thresholds::{Op, Stat, Unit};
    use std::time::Duration;

    fn scenario(text: &str) -> Result<Scenario, String> {
        ScenarioFile::parse(text)?.into_scenario(Overrides::default())
    }

    // A journey file: its parameters reach the config, its thresholds are parsed.
    #[test]
    fn a_journey_file() {
        let s = scenario(
            r#"
            description = "small"
            workload = "journey"
            url = "http://127.0.0.1:9"
            thresholds = ["start p99 < 50ms", "errors < 0.1%"]
            html = "r.html"
            [journey]
            players = 40
            arrival_rate = 10.0
            think_ms = 20
            play_ms = 5
            "#,
        )
        .unwrap();
        let Workload::Journey(c) = &s.workload else { panic!("{s:?}") };
        assert_eq!(
            (c.players, c.concurrency, c.arrival_rate, c.think, c.play),
            (40, 40, Some(10.0), Duration::from_millis(20), Duration::from_millis(5))
        );
        assert_eq!(s.thresholds.len(), 2);
        assert_eq!(
            (s.thresholds[0].stat, s.thresholds[0].op, s.thresholds[0].unit),
            (Stat::Percentile(99.0), Op::Lt, Unit::Millis)
        );
        assert_eq!(s.html, Some("r.html".into()));
    }

    // The command line's url, pid and outputs win over the file's.
    #[test]
    fn overrides_win() {
        let text = r#"
            workload = "purchases"
            url = "http://127.0.0.1:9"
            server_pid = 5
            json = "a.json"
            [purchases]
            rate = 20.0
            window_secs = 2
        "#;
        let over = Overrides {
            url: Some("http://127.0.0.1:7".into()),
            server_pid: Some(6),
            json: Some("b.json".into()),
            html: None,
        };
        let s = ScenarioFile::parse(text).unwrap().into_scenario(over).unwrap();
        let Workload::Purchases(c) = &s.workload else { panic!() };
        assert_eq!((c.url.as_str(), c.server_pid, c.players), ("http://127.0.0.1:7", Some(6), 200));
        assert_eq!(s.json, Some("b.json".into()));
    }

    // Typos, a table of another workload, a target off this machine, a bad threshold: refused.
    #[test]
    fn refusals() {
        let base = "url = \"http://127.0.0.1:9\"\n";
        for (text, why) in [
            ("workload = \"journey\"\n[journey]\nplayers = 1\nplayrs = 2", "unknown field"),
            ("workload = \"journy\"\n[journey]\nplayers = 1", "one of"),
            ("workload = \"journey\"\n[purchases]\nrate = 1.0", "table"),
            (
                "workload = \"journey\"\nthresholds = [\"start p99 <\"]\n[journey]\nplayers = 1",
                "threshold",
            ),
            ("workload = \"room-scale\"\n[room-scale]\nviewers = 10", "--rate"),
        ] {
            let e = scenario(&format!("{base}{text}")).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
        let e = scenario("workload = \"journey\"\n[journey]\nplayers = 1").unwrap_err();
        assert!(e.contains("no target"), "{e}");
        let e = scenario("workload = \"journey\"\nurl = \"http://10.0.0.1:9\"\n[journey]\nplayers = 1").unwrap_err();
        assert!(e.contains("this machine"), "{e}");
    }

    // Every shipped scenario parses, is checked, and names only metrics its workload has.
    #[test]
    fn every_shipped_scenario_parses() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let s = load(&path, Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
            assert!(s.description.is_some(), "{}: a description", path.display());
            assert!(!s.thresholds.is_empty(), "{}: thresholds", path.display());
            let known = crate::workload::known_metrics(s.workload.name());
            // a command's figures are its program's: named by the program, not known here
            for t in s.thresholds.iter().filter(|_| s.workload.name() != "command") {
                assert!(
                    known.contains(&t.metric),
                    "{}: no metric {:?} in {known:?}",
                    path.display(),
                    t.metric
                );
            }
            seen += 1;
        }
        assert!(seen >= 5, "{seen} scenarios in {}", dir.display());
    }
}
