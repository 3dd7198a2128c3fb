//! What the harness reads of the server process from outside: CPU time and memory from
//! `/proc/<pid>` (the server runs on this machine, so its pid is given), and the Prometheus text
//! of `/metrics`. Linux only; every reader answers `None` when the file is missing.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::client::Browser;

/// Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on every Linux the harness runs on).
pub const TICKS_PER_SEC: f64 = 100.0;

/// utime + stime in clock ticks of a `/proc/.../stat` line. The command name (field 2) may hold
/// spaces and parentheses, so fields are counted after its closing parenthesis.
pub fn stat_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state is field 3, utime field 14, stime field 15 (1-based in proc(5)).
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// CPU time used so far by process `pid` (all its threads), in ticks.
pub fn cpu_ticks(pid: u32) -> Option<u64> {
    stat_ticks(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// CPU time used so far by this process, in ticks.
pub fn own_cpu_ticks() -> Option<u64> {
    stat_ticks(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

/// Per thread: (thread name, ticks so far), keyed by thread id.
pub type ThreadTicks = BTreeMap<u32, (String, u64)>;

/// Per thread of `pid`: (thread name, ticks so far), keyed by thread id.
pub fn thread_ticks(pid: u32) -> BTreeMap<u32, (String, u64)> {
    let mut out = BTreeMap::new();
    let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return out;
    };
    for entry in dir.flatten() {
        let Some(tid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let name = stat
            .find('(')
            .zip(stat.rfind(')'))
            .map(|(a, b)| stat[a + 1..b].to_string())
            .unwrap_or_default();
        if let Some(t) = stat_ticks(&stat) {
            out.insert(tid, (name, t));
        }
    }
    out
}

/// CPU used between two [`thread_ticks`] readings, summed by thread name (threads of one pool
/// share a name), largest first: (name, threads, ticks).
pub fn thread_deltas(before: &BTreeMap<u32, (String, u64)>, after: &BTreeMap<u32, (String, u64)>) -> Vec<(String, usize, u64)> {
    let mut by_name: BTreeMap<String, (usize, u64)> = BTreeMap::new();
    for (tid, (name, t)) in after {
        let was = before.get(tid).map_or(0, |(_, t0)| *t0);
        let e = by_name.entry(name.clone()).or_default();
        e.0 += 1;
        e.1 += t.saturating_sub(was);
    }
    let mut v: Vec<(String, usize, u64)> = by_name.into_iter().map(|(n, (k, t))| (n, k, t)).collect();
    v.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    v
}

/// Resident memory of a process, from `/proc/<pid>/status`, in KiB.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Memory {
    pub rss_kib: u64,
    /// Anonymous pages (the heap): what the server's own data costs.
    pub anon_kib: u64,
    /// File-backed pages (the binary, mapped files).
    pub file_kib: u64,
}

/// Parses the `VmRSS`, `RssAnon` and `RssFile` lines of a `/proc/<pid>/status` text.
pub fn parse_memory(status: &str) -> Option<Memory> {
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    };
    Some(Memory {
        rss_kib: field("VmRSS:")?,
        anon_kib: field("RssAnon:").unwrap_or(0),
        file_kib: field("RssFile:").unwrap_or(0),
    })
}

pub fn memory(pid: u32) -> Option<Memory> {
    parse_memory(&std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?)
}

/// Open file descriptors of `pid` (sockets included).
pub fn open_fds(pid: u32) -> Option<usize> {
    Some(std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count())
}

/// Open file descriptors of this process.
pub fn own_open_fds() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/fd").ok()?.count())
}

/// The samples of a Prometheus text exposition: `name{labels}` (as written) → value.
pub fn parse_metrics(text: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (key, value) = l.trim().rsplit_once(' ')?;
            Some((key.trim().to_string(), value.parse::<f64>().ok()?))
        })
        .collect()
}

/// The sum of every series of `name` (with or without labels) in a parsed scrape.
pub fn sum_series(metrics: &BTreeMap<String, f64>, name: &str) -> f64 {
    metrics
        .iter()
        .filter(|(k, _)| k.as_str() == name || k.strip_prefix(name).is_some_and(|rest| rest.starts_with('{')))
        .map(|(_, v)| v)
        .sum()
}

/// `GET /metrics` of the server through `b`.
pub async fn scrape(b: &mut Browser) -> Option<BTreeMap<String, f64>> {
    let text = b.get_text("/metrics").await.ok()?;
    Some(parse_metrics(&text))
}

/// Wall-clock microseconds since the Unix epoch: the one clock every process of a run shares
/// (`Instant` is per process).
pub fn wall_us() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // utime + stime are fields 14 and 15 even when the name holds spaces and parentheses.
    #[test]
    fn stat_fields() {
        let line = "4242 (yoo server (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 5 0 123 0 0";
        assert_eq!(stat_ticks(line), Some(281));
        assert_eq!(stat_ticks("garbage"), None);
        assert!(own_cpu_ticks().is_some());
    }

    #[test]
    fn memory_lines() {
        let status = "Name:\tx\nVmRSS:\t   20480 kB\nRssAnon:\t   16384 kB\nRssFile:\t    4096 kB\n";
        assert_eq!(
            parse_memory(status),
            Some(Memory {
                rss_kib: 20480,
                anon_kib: 16384,
                file_kib: 4096
            })
        );
        assert_eq!(parse_memory("Name: x\n"), None);
        assert!(memory(std::process::id()).is_some_and(|m| m.rss_kib > 0));
    }

    #[test]
    fn prometheus_text() {
        let m = parse_metrics(
            "# TYPE yoo_rank_refresh_seconds summary\nyoo_rank_refresh_seconds{quantile=\"0.99\"} 0.012\n\
             yoo_rank_refresh_seconds_sum 1.5\nyoo_rank_refresh_seconds_count 30\nyoo_players_waiting 100000\n",
        );
        assert_eq!(m.get("yoo_rank_refresh_seconds_sum"), Some(&1.5));
        assert_eq!(m.get("yoo_rank_refresh_seconds{quantile=\"0.99\"}"), Some(&0.012));
        assert_eq!(m.get("yoo_players_waiting"), Some(&100000.0));
        let labelled = parse_metrics(
            "yoo_queue_admissions_total{node=\"1\",lane=\"normal\"} 7\nyoo_queue_admissions_total{node=\"2\",lane=\"vip\"} 3\n\
             yoo_queue_admissions_totally 100\n",
        );
        assert_eq!(sum_series(&labelled, "yoo_queue_admissions_total"), 10.0);
        assert_eq!(sum_series(&m, "yoo_players_waiting"), 100000.0);
    }

    #[test]
    fn deltas_by_thread_name() {
        let before = BTreeMap::from([(1, ("main".to_string(), 10)), (2, ("tokio".to_string(), 5))]);
        let after = BTreeMap::from([
            (1, ("main".to_string(), 12)),
            (2, ("tokio".to_string(), 50)),
            (3, ("tokio".to_string(), 7)),
        ]);
        assert_eq!(
            thread_deltas(&before, &after),
            vec![("tokio".to_string(), 2, 52), ("main".to_string(), 1, 2)]
        );
    }
}
