//! The room-scale run's result: the JSON report and the printed table, with the targets
//! (19,000 viewers: every message to every viewer present, p99 send → last viewer ≤ 250 ms,
//! ≤ 1 server CPU-second per million deliveries, ≤ 10 KB of server memory per viewer).

use serde::Serialize;

use super::count::Tally;
use super::wire::ViewerSums;
use crate::report::{PhaseRow, TargetRow};
use crate::stats::{percentile, Summary};

/// The targets.
pub const P99_LAST_MS: f64 = 250.0;
pub const CPU_S_PER_MILLION: f64 = 1.0;
pub const BYTES_PER_VIEWER: f64 = 10_000.0;

/// Latency figures in ms.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Latency {
    pub count: u64,
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub max_ms: Option<f64>,
}

/// The server's side: CPU over the window and its drain, memory before and after the viewers.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ServerFigures {
    pub cpu_s: f64,
    /// % of one core over the window and drain.
    pub cpu_pct: f64,
    /// Per million chat receipts (the target's figure: messages × viewers).
    pub cpu_s_per_million_deliveries: Option<f64>,
    /// Per million events received from the window's start to the drain's end, every kind
    /// (with churn, ROOM_ENTER and ROOM_LEAVE outnumber the chat).
    pub cpu_s_per_million_events: Option<f64>,
    /// Per thread name: threads, CPU seconds.
    pub threads: Vec<(String, usize, f64)>,
    pub rss_before_kib: u64,
    pub rss_watching_kib: u64,
    pub rss_end_kib: u64,
    pub bytes_per_viewer: Option<f64>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct RoomReport {
    pub url: String,
    pub viewers: usize,
    pub chatters: usize,
    pub rate: f64,
    pub churn: f64,
    pub churners: usize,
    pub procs: usize,
    pub dd_rid: i64,
    pub room_serial: i64,
    pub setup: Vec<PhaseRow>,
    /// Call latencies: (call, summary).
    pub calls: Vec<(String, Summary)>,
    pub watching: usize,
    pub connect_failed: usize,
    pub child_fds_max: usize,
    pub window_s: f64,
    pub drain_s: f64,
    /// Chat messages sent in the window, and those whose `chat/send` failed.
    pub sent: u32,
    pub send_failed: u32,
    /// Viewers present for the whole window, those that received every message, and the
    /// messages they missed (viewer × message; failed sends left out).
    pub steady: usize,
    pub complete: usize,
    pub missing: u64,
    /// Chat receipts of this run's messages by every viewer (churners included), and those
    /// received inside the window.
    pub deliveries: u64,
    pub deliveries_in_window: u64,
    pub delivered_per_s: f64,
    /// viewers × rate.
    pub ideal_per_s: f64,
    /// Send → the last viewer's receipt, over messages; messages nobody received.
    pub latency_last: Latency,
    pub unreceived_messages: u64,
    /// Send → receipt, over every receipt (what the Socket.IO harness reports).
    pub latency_each: Latency,
    pub sums: ViewerSums,
    pub churn_exits: u64,
    pub churn_enters: u64,
    pub server: Option<ServerFigures>,
    pub harness_cpu_pct: f64,
    pub frames_decoded: u64,
    pub frames_reused: u64,
    /// Events received per room frame over the run: how much the server's batching merged.
    pub events_per_frame: Option<f64>,
    pub targets: Vec<TargetRow>,
    pub errors: Vec<(String, String, usize)>,
    pub elapsed_s: f64,
    /// The calls (logins, the room, every chat send) and the deliveries a second over time, for
    /// the HTML report (not in the JSON).
    #[serde(skip)]
    pub timeline: Option<crate::timeline::Timeline>,
}

impl RoomReport {
    /// The message and receipt figures from the merged tally of every child.
    pub fn count(&mut self, tally: &Tally, window_start_us: i64, window_end_us: i64) {
        let hi = self.sent;
        self.deliveries = tally.seqs.iter().map(|r| r.receipts).sum();
        self.deliveries_in_window = tally.receipts_between(window_start_us, window_end_us);
        self.delivered_per_s = self.deliveries_in_window as f64 / self.window_s.max(1e-9);
        let (last, unreceived) = if hi >= 1 {
            tally.last_receipt_latencies(1, hi)
        } else {
            (vec![], 0)
        };
        self.unreceived_messages = unreceived.saturating_sub(self.send_failed as u64);
        let ms = |p: f64| percentile(&last, p).map(|us| us as f64 / 1000.0);
        self.latency_last = Latency {
            count: last.len() as u64,
            p50_ms: ms(50.0),
            p99_ms: ms(99.0),
            max_ms: last.last().map(|&us| us as f64 / 1000.0),
        };
        let h = &tally.latency;
        self.latency_each = Latency {
            count: h.count(),
            p50_ms: h.percentile_ms(50.0),
            p99_ms: h.percentile_ms(99.0),
            max_ms: h.percentile_ms(100.0),
        };
        let frames = self.frames_decoded + self.frames_reused;
        self.events_per_frame = (frames > 0).then(|| (self.sums.events + self.sums.offset_dups) as f64 / frames as f64);
        // A failed send is missed by every steady viewer: not the fan-out's doing.
        self.missing = self.sums.missing.saturating_sub(self.send_failed as u64 * self.sums.steady as u64);
        self.steady = self.sums.steady;
        self.complete = self.sums.complete;
    }

    /// The targets, once the figures are in.
    pub fn finish(&mut self) {
        let row = |figure: &str, value: Option<f64>, target: f64, unit: &'static str| TargetRow {
            figure: figure.into(),
            value,
            target,
            unit,
            met: value.map(|v| v <= target),
        };
        let s = self.server.as_ref();
        self.targets = vec![
            row("messages missed by viewers present", Some(self.missing as f64), 0.0, "deliveries"),
            row("offset gaps (events skipped)", Some(self.sums.offset_gaps as f64), 0.0, "events"),
            row("p99 send → last viewer's receipt", self.latency_last.p99_ms, P99_LAST_MS, "ms"),
            row(
                "server CPU per million deliveries",
                s.and_then(|s| s.cpu_s_per_million_deliveries),
                CPU_S_PER_MILLION,
                "CPU-s",
            ),
            row(
                "server memory per viewer",
                s.and_then(|s| s.bytes_per_viewer),
                BYTES_PER_VIEWER,
                "bytes",
            ),
        ];
    }

    /// 0 when every message reached every viewer present and no event was skipped; 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        if self.sent > self.send_failed && self.steady > 0 && self.missing == 0 && self.sums.offset_gaps == 0 {
            0
        } else {
            1
        }
    }

    pub fn table(&self) -> String {
        use std::fmt::Write as _;
        let mut o = String::new();
        let opt = |v: Option<f64>, digits: usize| v.map_or("-".into(), |v| format!("{v:.digits$}"));
        let _ = writeln!(
            o,
            "room-scale against {}: room {} (serial {}), {} viewers over {} processes, {} chatters at {} msg/s in all, churn {}/s over {} churners",
            self.url, self.dd_rid, self.room_serial, self.viewers, self.procs, self.chatters, self.rate, self.churn, self.churners
        );
        o.push_str("setup:\n");
        crate::report::setup_rows(&mut o, &self.setup);
        crate::report::LatencyTable {
            indent: "  ",
            width: 28,
            decimals: 1,
            header: "call",
            rows: self.calls.iter().map(|(n, s)| (n.as_str(), Some(s))).collect(),
        }
        .render(&mut o);
        let _ = writeln!(
            o,
            "viewers: {} watching, {} failed; child open files max {}; closed by the server {}",
            self.watching, self.connect_failed, self.child_fds_max, self.sums.closed
        );
        let _ = writeln!(
            o,
            "window {:.1} s + drain {:.1} s: {} messages sent ({} failed)",
            self.window_s, self.drain_s, self.sent, self.send_failed
        );
        let _ = writeln!(
            o,
            "viewers present throughout: {}, {} received every message, {} deliveries missed; {} messages nobody received",
            self.steady, self.complete, self.missing, self.unreceived_messages
        );
        let _ = writeln!(
            o,
            "events received {} ({} from the window's start), offsets skipped {}, received twice {} (chats {}), resets {}; churn: {} left, {} came back",
            self.sums.events,
            self.sums.events_window,
            self.sums.offset_gaps,
            self.sums.offset_dups,
            self.sums.chat_dups,
            self.sums.resets,
            self.churn_exits,
            self.churn_enters
        );
        let _ = writeln!(
            o,
            "deliveries: {} in all, {} in the window = {:.0}/s (ideal {:.0}/s)",
            self.deliveries, self.deliveries_in_window, self.delivered_per_s, self.ideal_per_s
        );
        for (name, l) in [
            ("send → last viewer (per message)", &self.latency_last),
            ("send → receipt (every receipt)", &self.latency_each),
        ] {
            let _ = writeln!(
                o,
                "  {:<34} {:>9} p50 {:>8} ms  p99 {:>8} ms  max {:>8} ms",
                name,
                l.count,
                opt(l.p50_ms, 1),
                opt(l.p99_ms, 1),
                opt(l.max_ms, 1)
            );
        }
        if let Some(s) = &self.server {
            let _ = writeln!(
                o,
                "server: {:.2} CPU-s ({:.0} % of a core) = {} CPU-s per million deliveries ({} per million events); RSS {} KiB before the viewers, {} watching, {} at the end = {} bytes per viewer",
                s.cpu_s,
                s.cpu_pct,
                opt(s.cpu_s_per_million_deliveries, 3),
                opt(s.cpu_s_per_million_events, 3),
                s.rss_before_kib,
                s.rss_watching_kib,
                s.rss_end_kib,
                opt(s.bytes_per_viewer, 0)
            );
            for (name, n, cpu) in s.threads.iter().take(6) {
                let _ = writeln!(o, "  thread {name:<24} x{n:<3} {cpu:>8.2} CPU-s");
            }
        }
        let _ = writeln!(
            o,
            "harness: {:.0} % of a core; room frames received {} ({} decoded, the rest reused), {} events per frame",
            self.harness_cpu_pct,
            self.frames_decoded + self.frames_reused,
            self.frames_decoded,
            opt(self.events_per_frame, 1)
        );
        o.push_str("targets:\n");
        for t in &self.targets {
            let verdict = match t.met {
                Some(true) => "met",
                Some(false) => "MISSED",
                None => "not measured",
            };
            let _ = writeln!(
                o,
                "  {:<40} {:>12} {:<10} target ≤ {} : {verdict}",
                t.figure,
                opt(t.value, 3),
                t.unit,
                t.target
            );
        }
        for (step, cause, n) in &self.errors {
            let _ = writeln!(o, "error: {step}: {cause} x{n}");
        }
        let _ = writeln!(o, "elapsed {:.1} s", self.elapsed_s);
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Three messages, two viewers: the figures, the targets and the verdict follow the tally.
    #[test]
    fn figures_from_a_tally() {
        let t0 = 1_000_000_000;
        let mut tally = Tally::new(t0);
        // Message 1 at t0: 10 ms and 30 ms; message 2 at t0+100 ms: 5 ms and 300 ms; message 3
        // failed to send and nobody got it.
        tally.receipt(1, t0, t0 + 10_000);
        tally.receipt(1, t0, t0 + 30_000);
        tally.receipt(2, t0 + 100_000, t0 + 105_000);
        tally.receipt(2, t0 + 100_000, t0 + 400_000);
        let mut r = RoomReport {
            viewers: 2,
            rate: 3.0,
            sent: 3,
            send_failed: 1,
            window_s: 1.0,
            frames_decoded: 1,
            frames_reused: 3,
            sums: ViewerSums {
                events: 10,
                steady: 2,
                complete: 0,
                missing: 2,
                ..Default::default()
            },
            server: Some(ServerFigures {
                cpu_s_per_million_deliveries: Some(0.5),
                bytes_per_viewer: Some(12_000.0),
                ..Default::default()
            }),
            ..Default::default()
        };
        r.count(&tally, t0, t0 + 1_000_000);
        assert_eq!((r.deliveries, r.deliveries_in_window, r.delivered_per_s), (4, 4, 4.0));
        assert_eq!((r.missing, r.unreceived_messages), (0, 0), "the failed send is not a miss");
        assert_eq!(r.latency_last.count, 2);
        assert_eq!((r.latency_last.p50_ms, r.latency_last.p99_ms), (Some(30.0), Some(300.0)));
        assert_eq!(r.latency_each.count, 4);
        assert_eq!(r.latency_each.p50_ms, Some(11.0));
        assert_eq!(r.events_per_frame, Some(2.5));
        r.finish();
        let met: Vec<Option<bool>> = r.targets.iter().map(|t| t.met).collect();
        assert_eq!(met, vec![Some(true), Some(true), Some(false), Some(true), Some(false)]);
        assert_eq!(r.exit_code(), 0, "every message reached everyone present");
        let table = r.table();
        assert!(table.contains("MISSED") && table.contains("deliveries: 4 in all"), "{table}");
        r.sums.offset_gaps = 1;
        assert_eq!(r.exit_code(), 1);
    }
}
