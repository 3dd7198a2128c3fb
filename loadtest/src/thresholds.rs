//! Thresholds in k6's style, e.g. `"start p99 < 50ms"`, `"errors < 0.1%"`, `"throughput > 50/s"`:
//! parsed into a small typed form and judged against a run's [`Metrics`].
//!
//! Grammar: `METRIC [STAT] OP VALUE[UNIT]`, read from the right so that a metric's name may hold
//! spaces (`wait READY p99 < 2s`).
//! - STAT: `pN` or `p(N)` (0 < N ≤ 100), `max`, `min`, `avg`/`mean`, `med` (p50), `count`; only
//!   latencies take one.
//! - OP: `<`, `<=`, `>`, `>=`, `==`.
//! - UNIT: `us`/`µs`, `ms`, `s` (a duration, kept in ms), `%` (a ratio), `/s` (a rate), or none
//!   (a plain number: a count, or the bad events of a ratio metric).

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::stats::{percentile, Summary};

/// One threshold, as written and as parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Threshold {
    pub text: String,
    pub metric: String,
    pub stat: Stat,
    pub op: Op,
    /// In the unit's base: milliseconds, a fraction for `%`, per second, or plain.
    pub value: f64,
    pub unit: Unit,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stat {
    /// No statistic: the metric's own value (ratios, counts, rates, figures).
    Value,
    Percentile(f64),
    Max,
    Min,
    Mean,
    Count,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Millis,
    Ratio,
    PerSec,
    Plain,
}

impl Op {
    pub fn holds(self, measured: f64, limit: f64) -> bool {
        match self {
            Op::Lt => measured < limit,
            Op::Le => measured <= limit,
            Op::Gt => measured > limit,
            Op::Ge => measured >= limit,
            Op::Eq => (measured - limit).abs() <= 1e-9 * limit.abs().max(1.0),
        }
    }
}

impl Unit {
    /// `v` (in this unit's base) as a person reads it.
    pub fn show(self, v: f64) -> String {
        match self {
            Unit::Millis if v >= 10_000.0 => format!("{:.2}s", v / 1000.0),
            Unit::Millis => format!("{v:.2}ms"),
            Unit::Ratio => format!("{:.3}%", v * 100.0),
            Unit::PerSec => format!("{v:.1}/s"),
            Unit::Plain => format!("{v}"),
        }
    }
}

impl fmt::Display for Threshold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::str::FromStr for Threshold {
    type Err = String;

    fn from_str(text: &str) -> Result<Threshold, String> {
        let bad = |why: &str| format!("threshold {text:?}: {why}");
        let mut words: Vec<&str> = text.split_whitespace().collect();
        // `50ms` or `50 ms`: a lone unit word is glued back to its number.
        if let [.., n, u] = words.as_slice() {
            if n.parse::<f64>().is_ok() && ["us", "µs", "ms", "s", "%", "/s"].contains(u) {
                let glued = format!("{n}{u}");
                words.truncate(words.len() - 2);
                return Threshold::from_words(text, words, &glued).map_err(|e| bad(&e));
            }
        }
        let value = words.pop().ok_or_else(|| bad("empty"))?;
        Threshold::from_words(text, words, value).map_err(|e| bad(&e))
    }
}

impl Threshold {
    fn from_words(text: &str, mut words: Vec<&str>, value: &str) -> Result<Threshold, String> {
        let op = match words.pop() {
            Some("<") => Op::Lt,
            Some("<=") => Op::Le,
            Some(">") => Op::Gt,
            Some(">=") => Op::Ge,
            Some("==") => Op::Eq,
            _ => return Err("expected METRIC [STAT] OP VALUE, OP one of < <= > >= ==".into()),
        };
        let (value, unit) = parse_value(value)?;
        let stat = match words.last().and_then(|w| parse_stat(w).transpose()) {
            Some(stat) => {
                words.pop();
                stat?
            }
            None => Stat::Value,
        };
        if words.is_empty() {
            return Err("no metric named".into());
        }
        match (stat, unit) {
            (Stat::Count, Unit::Plain) | (Stat::Value, _) => {}
            (Stat::Count, _) => return Err("a count takes a plain number".into()),
            (_, Unit::Millis) => {}
            _ => return Err("a latency statistic takes a duration (us, ms, s)".into()),
        }
        Ok(Threshold {
            text: text.trim().to_string(),
            metric: words.join(" "),
            stat,
            op,
            value,
            unit,
        })
    }
}

/// `Ok(None)`: not a statistic (part of the metric's name).
fn parse_stat(w: &str) -> Result<Option<Stat>, String> {
    let stat = match w {
        "max" => Stat::Max,
        "min" => Stat::Min,
        "avg" | "mean" => Stat::Mean,
        "med" => Stat::Percentile(50.0),
        "count" => Stat::Count,
        _ => {
            let Some(n) = w.strip_prefix('p') else { return Ok(None) };
            let n = n.strip_prefix('(').and_then(|n| n.strip_suffix(')')).unwrap_or(n);
            if n.is_empty() || !n.starts_with(|c: char| c.is_ascii_digit()) {
                return Ok(None);
            }
            match n.parse::<f64>() {
                Ok(p) if p > 0.0 && p <= 100.0 => Stat::Percentile(p),
                _ => return Err(format!("percentile {w:?}: more than 0, at most 100")),
            }
        }
    };
    Ok(Some(stat))
}

fn parse_value(v: &str) -> Result<(f64, Unit), String> {
    let (number, unit, scale) = if let Some(n) = v.strip_suffix("/s") {
        (n, Unit::PerSec, 1.0)
    } else if let Some(n) = v.strip_suffix('%') {
        (n, Unit::Ratio, 0.01)
    } else if let Some(n) = v.strip_suffix("ms") {
        (n, Unit::Millis, 1.0)
    } else if let Some(n) = v.strip_suffix("us").or_else(|| v.strip_suffix("µs")) {
        (n, Unit::Millis, 0.001)
    } else if let Some(n) = v.strip_suffix('s') {
        (n, Unit::Millis, 1000.0)
    } else {
        (v, Unit::Plain, 1.0)
    };
    let x: f64 = number
        .parse()
        .map_err(|_| format!("{v:?} is not a number with a unit (ms, s, us, %, /s)"))?;
    if !x.is_finite() {
        return Err(format!("{v:?} is not finite"));
    }
    Ok((x * scale, unit))
}

/// One measured figure of a run, by name.
#[derive(Debug, Clone)]
pub enum Metric {
    /// Latencies: every sample (µs, ascending), or only a summary where the workload keeps no more.
    Samples(Vec<u64>),
    Summary(Summary),
    /// Bad events out of all: `errors < 0.1%` (the ratio) or `errors < 5` (the count).
    Ratio {
        bad: f64,
        total: f64,
    },
    /// A figure in a unit: a count, a rate, a duration (ms) or a ratio.
    Figure(f64, Unit),
}

pub type Metrics = BTreeMap<String, Metric>;

/// A threshold judged.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub threshold: String,
    /// The measured value as shown (`63.20ms`), or why there is none.
    pub measured: String,
    pub value: Option<f64>,
    pub pass: bool,
}

impl Threshold {
    /// The measured value this threshold reads, in its unit's base, or why there is none.
    pub fn measure(&self, metrics: &Metrics) -> Result<f64, String> {
        let Some(m) = metrics.get(&self.metric) else {
            let names: Vec<&str> = metrics.keys().map(String::as_str).collect();
            return Err(format!("no metric {:?} (this run has: {})", self.metric, names.join(", ")));
        };
        let wrong = || format!("{:?} cannot be read that way", self.metric);
        match (m, self.stat) {
            (Metric::Samples(s), Stat::Count) => Ok(s.len() as f64),
            (Metric::Samples(s), stat) if self.unit == Unit::Millis => {
                let ms = |us: u64| us as f64 / 1000.0;
                let v = match stat {
                    Stat::Percentile(p) => percentile(s, p).map(ms),
                    Stat::Max => s.last().copied().map(ms),
                    Stat::Min => s.first().copied().map(ms),
                    Stat::Mean => (!s.is_empty()).then(|| s.iter().sum::<u64>() as f64 / s.len() as f64 / 1000.0),
                    Stat::Value | Stat::Count => return Err(wrong()),
                };
                v.ok_or_else(|| "no samples".to_string())
            }
            (Metric::Summary(s), Stat::Count) => Ok(s.count as f64),
            (Metric::Summary(s), stat) if self.unit == Unit::Millis => match stat {
                Stat::Percentile(50.0) => Ok(s.p50_ms),
                Stat::Percentile(99.0) => Ok(s.p99_ms),
                Stat::Percentile(100.0) | Stat::Max => Ok(s.max_ms),
                _ => Err(format!("{:?} keeps only p50, p99 and max", self.metric)),
            },
            (Metric::Ratio { bad, total }, Stat::Value) => match self.unit {
                Unit::Ratio if *total > 0.0 => Ok(bad / total),
                Unit::Ratio => Err("nothing counted".into()),
                Unit::Plain => Ok(*bad),
                _ => Err(wrong()),
            },
            (Metric::Figure(v, unit), Stat::Value) if *unit == self.unit => Ok(*v),
            _ => Err(wrong()),
        }
    }

    pub fn judge(&self, metrics: &Metrics) -> Verdict {
        match self.measure(metrics) {
            Ok(v) => Verdict {
                threshold: self.text.clone(),
                measured: self.unit.show(v),
                value: Some(v),
                pass: self.op.holds(v, self.value),
            },
            Err(why) => Verdict {
                threshold: self.text.clone(),
                measured: why,
                value: None,
                pass: false,
            },
        }
    }
}

/// Parses every threshold; the first error.
pub fn parse_all(texts: &[String]) -> Result<Vec<Threshold>, String> {
    texts.iter().map(|t| t.parse()).collect()
}

/// The verdict table, one line each, failures marked.
pub fn verdict_table(verdicts: &[Verdict]) -> String {
    let mut out = String::from("thresholds:\n");
    for v in verdicts {
        let mark = if v.pass { "pass" } else { "FAIL" };
        out.push_str(&format!("  {mark}  {:<40} measured {}\n", v.threshold, v.measured));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Threshold {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    // The forms k6 users write, units normalised, names with spaces kept.
    #[test]
    fn parses_the_forms() {
        let x = t("start p99 < 50ms");
        assert_eq!(
            (x.metric.as_str(), x.stat, x.op, x.value, x.unit),
            ("start", Stat::Percentile(99.0), Op::Lt, 50.0, Unit::Millis)
        );
        assert_eq!(t("start p(95) <= 1.5s").stat, Stat::Percentile(95.0));
        assert_eq!(t("start p(95) <= 1.5s").value, 1500.0);
        assert_eq!(t("start p99.9 < 500us").value, 0.5);
        let x = t("errors < 0.1%");
        assert_eq!((x.metric.as_str(), x.stat, x.unit), ("errors", Stat::Value, Unit::Ratio));
        assert!((x.value - 0.001).abs() < 1e-12);
        let x = t("wait READY max < 2 s");
        assert_eq!((x.metric.as_str(), x.stat, x.value), ("wait READY", Stat::Max, 2000.0));
        assert_eq!(t("throughput >= 50/s").unit, Unit::PerSec);
        assert_eq!(t("errors == 0").unit, Unit::Plain);
        assert_eq!(t("login count >= 10").stat, Stat::Count);
        assert_eq!(
            t("hand-off: READY since the latest free answer p99 < 50ms").metric,
            "hand-off: READY since the latest free answer"
        );
    }

    // Malformed thresholds are refused with the text in the message.
    #[test]
    fn refuses_the_malformed() {
        for bad in [
            "",
            "start p99",
            "start p99 < fast",
            "p99 < 5ms",
            "start p0 < 5ms",
            "start p101 < 5ms",
            "start p99 << 5ms",
            "start p99 < 5%",
            "login count >= 10ms",
            "start < inf",
        ] {
            let e = bad.parse::<Threshold>().unwrap_err();
            assert!(e.contains("threshold"), "{bad}: {e}");
        }
    }

    fn metrics() -> Metrics {
        let mut m = Metrics::new();
        m.insert("start".into(), Metric::Samples((1..=100).map(|ms| ms * 1000).collect()));
        m.insert(
            "create".into(),
            Metric::Summary(Summary {
                count: 10,
                p50_ms: 4.0,
                p99_ms: 9.0,
                max_ms: 12.0,
            }),
        );
        m.insert("errors".into(), Metric::Ratio { bad: 2.0, total: 1000.0 });
        m.insert("throughput".into(), Metric::Figure(42.0, Unit::PerSec));
        m
    }

    // Verdicts: percentiles of the samples, summaries, ratios and counts, rates; what cannot be
    // read fails with the reason.
    #[test]
    fn verdicts() {
        let m = metrics();
        let judge = |s: &str| t(s).judge(&m);
        let v = judge("start p99 < 50ms");
        assert_eq!((v.pass, v.value, v.measured.as_str()), (false, Some(99.0), "99.00ms"));
        assert!(judge("start p50 <= 50ms").pass);
        assert!(judge("start avg < 51ms").pass);
        assert!(judge("start max == 100ms").pass);
        assert!(judge("start count >= 100").pass);
        assert!(judge("create p99 < 10ms").pass);
        let v = judge("create p95 < 10ms");
        assert!(!v.pass && v.measured.contains("only p50, p99"), "{v:?}");
        let v = judge("errors < 0.1%");
        assert_eq!((v.pass, v.measured.as_str()), (false, "0.200%"));
        assert!(judge("errors < 0.5%").pass);
        assert!(judge("errors <= 2").pass);
        assert!(judge("throughput > 40/s").pass);
        assert!(!judge("throughput > 40ms").pass);
        let v = judge("nothing < 1");
        assert!(
            !v.pass && v.measured.contains("this run has: create, errors, start, throughput"),
            "{v:?}"
        );
        let table = verdict_table(&[judge("start p99 < 50ms"), judge("errors < 0.5%")]);
        assert!(
            table.contains("FAIL  start p99 < 50ms") && table.contains("measured 99.00ms"),
            "{table}"
        );
        assert!(table.contains("pass  errors < 0.5%"), "{table}");
        assert!(!judge("errors < 1%").measured.is_empty());
        let empty = Metrics::from([("e".to_string(), Metric::Ratio { bad: 0.0, total: 0.0 })]);
        assert!(!t("e < 1%").judge(&empty).pass, "nothing counted is not a pass");
    }
}
