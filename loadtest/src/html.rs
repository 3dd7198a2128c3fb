//! The HTML report: one self-contained file (inline SVG drawn by plotters, inline CSS, no
//! script, nothing fetched). At the top the verdict table (each threshold, what was measured,
//! pass or fail), then the latency table, then the plots: latency over time (p50, p90, p99 per
//! bucket), the latency percentiles of the whole run, throughput and errors a second, and the
//! server's CPU and memory over the run. A plot without data is replaced by a sentence saying
//! why. The text table follows, as printed.

use std::fmt::Write as _;

use plotters::prelude::*;

use crate::thresholds::Verdict;
use crate::timeline::{per_second, percentiles_over_time, ServerSample, Timeline};
use crate::workload::Finished;

const WIDTH: u32 = 760;
const HEIGHT: u32 = 300;

/// One line of a plot: its name, its colour, its points.
pub struct Series {
    pub name: String,
    pub color: RGBColor,
    pub points: Vec<(f64, f64)>,
}

/// A line chart as an SVG document (a string), axes from 0 to the data's maximum (the y axis
/// to at least `y_top`).
pub fn line_chart(x_desc: &str, y_desc: &str, y_top: f64, series: &[Series]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, x_desc, y_desc, y_top, series).map_err(|e| format!("plot: {e}"))?;
        root.present().map_err(|e| format!("plot: {e}"))?;
    }
    Ok(svg)
}

fn draw(
    root: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    x_desc: &str,
    y_desc: &str,
    y_top: f64,
    series: &[Series],
) -> Result<(), Box<dyn std::error::Error>> {
    root.fill(&WHITE)?;
    let points = || series.iter().flat_map(|s| s.points.iter());
    let x_max = points().map(|p| p.0).fold(0.0, f64::max).max(1e-3) * 1.02;
    let y_max = (points().map(|p| p.1).fold(0.0, f64::max) * 1.1).max(y_top).max(1e-3);
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .light_line_style(WHITE.mix(0.0))
        .x_label_formatter(&|v| tick(*v, x_max))
        .y_label_formatter(&|v| tick(*v, y_max))
        .draw()?;
    for s in series {
        let color = s.color;
        chart
            .draw_series(LineSeries::new(s.points.iter().copied(), color.stroke_width(2)))?
            .label(s.name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    if series.len() > 1 {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .draw()?;
    }
    Ok(())
}

/// A tick label with as many decimals as the axis's range needs.
fn tick(v: f64, range: f64) -> String {
    match range {
        r if r >= 20.0 => format!("{v:.0}"),
        r if r >= 2.0 => format!("{v:.1}"),
        _ => format!("{v:.3}"),
    }
}

const BLUE_: RGBColor = RGBColor(0x1f, 0x77, 0xb4);
const ORANGE: RGBColor = RGBColor(0xff, 0x7f, 0x0e);
const RED_: RGBColor = RGBColor(0xd6, 0x27, 0x28);
const GREEN_: RGBColor = RGBColor(0x2c, 0xa0, 0x2c);

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A plot section: its heading, then the SVG or the sentence saying why there is none.
struct Plot {
    title: &'static str,
    svg: Result<String, String>,
}

/// The latency buckets: about 60 over the run, at least 1 s each.
fn bucket_s(span_s: f64) -> f64 {
    (span_s / 60.0).max(1.0).ceil()
}

fn timeline_plots(t: Option<&Timeline>, workload: &str) -> Vec<Plot> {
    let Some(t) = t else {
        let why = format!("The {workload} workload kept no timeline: see the tables above.");
        return ["Latency over time", "Latency percentiles", "Throughput", "Errors"]
            .into_iter()
            .map(|title| Plot {
                title,
                svg: Err(why.clone()),
            })
            .collect();
    };
    let over_time = percentiles_over_time(&t.latencies, bucket_s(t.span_s));
    let line = |i: usize, name: &str, color| Series {
        name: name.into(),
        color,
        points: over_time.iter().map(|(x, p)| (*x, p[i])).collect(),
    };
    let latency = if over_time.is_empty() {
        Err("No call succeeded: no latency to plot.".into())
    } else {
        line_chart(
            "seconds since the start",
            "latency, ms",
            0.0,
            &[line(0, "p50", BLUE_), line(1, "p90", ORANGE), line(2, "p99", RED_)],
        )
    };
    let mut sorted: Vec<f64> = t.latencies.iter().map(|l| l.1).collect();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    // At most ~400 points: the curve's shape, with the tail kept by nearest rank.
    let curve: Vec<(f64, f64)> = (1..=400)
        .map(|i| i as f64 / 4.0)
        .filter(|_| n > 0)
        .map(|p| (p, sorted[((p * n as f64 / 100.0).ceil() as usize).clamp(1, n) - 1]))
        .collect();
    let percentiles = if curve.is_empty() {
        Err("No call succeeded: no latency to plot.".into())
    } else {
        line_chart(
            "percentile",
            "latency, ms",
            0.0,
            &[Series {
                name: "all calls".into(),
                color: BLUE_,
                points: curve,
            }],
        )
    };
    let done = t.throughput();
    let errors = per_second(&t.errors, t.span_s);
    vec![
        Plot {
            title: "Call latency over time (p50, p90, p99 per bucket)",
            svg: latency,
        },
        Plot {
            title: "Call latency percentiles over the whole run",
            svg: percentiles,
        },
        Plot {
            title: "Throughput",
            svg: line_chart(
                "seconds since the start",
                &format!("{} completed a second", t.unit),
                1.0,
                &[Series {
                    name: t.unit.clone(),
                    color: GREEN_,
                    points: done,
                }],
            ),
        },
        Plot {
            title: "Errors",
            svg: match &t.errors_untimed {
                Some(why) => Err(format!("Not plotted: {why}.")),
                None => line_chart(
                    "seconds since the start",
                    "errors a second",
                    1.0,
                    &[Series {
                        name: "errors".into(),
                        color: RED_,
                        points: errors,
                    }],
                ),
            },
        },
    ]
}

fn server_plots(server: &Result<Vec<ServerSample>, String>) -> Vec<Plot> {
    let s = match server {
        Ok(s) if !s.is_empty() => s,
        Ok(_) => {
            return vec![Plot {
                title: "Server CPU and memory",
                svg: Err("No reading of the server.".into()),
            }]
        }
        Err(why) => {
            return vec![Plot {
                title: "Server CPU and memory",
                svg: Err(format!("Not plotted: {why}.")),
            }]
        }
    };
    let cpu = s.iter().map(|x| (x.t, x.cpu_pct)).collect();
    let rss = s.iter().map(|x| (x.t, x.rss_mib)).collect();
    vec![
        Plot {
            title: "Server CPU (% of one core)",
            svg: line_chart(
                "seconds since the start",
                "CPU, % of one core",
                1.0,
                &[Series {
                    name: "cpu".into(),
                    color: ORANGE,
                    points: cpu,
                }],
            ),
        },
        Plot {
            title: "Server memory (resident)",
            svg: line_chart(
                "seconds since the start",
                "RSS, MiB",
                1.0,
                &[Series {
                    name: "rss".into(),
                    color: BLUE_,
                    points: rss,
                }],
            ),
        },
    ]
}

/// A table: its header and its rows, each a list of cells (text, escaped here).
fn table(out: &mut String, class: &str, header: &[&str], rows: &[Vec<String>]) {
    let _ = write!(out, "<table class=\"{class}\"><tr>");
    for h in header {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr>\n");
    for row in rows {
        let pass = row.last().map(String::as_str);
        let cls = match pass {
            Some("pass") => " class=\"pass\"",
            Some("FAIL") => " class=\"fail\"",
            _ => "",
        };
        let _ = write!(out, "<tr{cls}>");
        for c in row {
            let _ = write!(out, "<td>{}</td>", escape(c));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

const STYLE: &str = "body{font-family:sans-serif;max-width:820px;margin:2em auto;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}\
tr.pass td:last-child{color:#2ca02c;font-weight:bold}tr.fail td:last-child{color:#d62728;font-weight:bold}\
.verdict{font-size:1.2em;font-weight:bold}.why{color:#666;font-style:italic}pre{background:#f6f6f6;padding:1em;overflow-x:auto}";

/// The whole report as one HTML document.
pub fn render(f: &Finished, verdicts: &[Verdict], description: Option<&str>) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>loadtest: {w}</title>\
<style>{STYLE}</style></head><body>\n<h1>loadtest: {w}</h1>\n",
        w = escape(f.workload)
    );
    if let Some(d) = description {
        let _ = writeln!(out, "<p>{}</p>", escape(d));
    }
    let failed = verdicts.iter().filter(|v| !v.pass).count();
    let overall = match (f.exit_code, failed) {
        (0, 0) => "PASSED".to_string(),
        (0, n) => format!("FAILED: {n} threshold(s) broken"),
        (code, 0) => format!("FAILED: the workload's own check (exit status {code})"),
        (code, n) => format!("FAILED: the workload's own check (exit status {code}) and {n} threshold(s)"),
    };
    let _ = writeln!(out, "<p class=\"verdict\">{}</p>", escape(&overall));
    out.push_str("<h2>Thresholds</h2>\n");
    if verdicts.is_empty() {
        out.push_str("<p class=\"why\">No thresholds were given.</p>\n");
    } else {
        let rows: Vec<Vec<String>> = verdicts
            .iter()
            .map(|v| vec![v.threshold.clone(), v.measured.clone(), if v.pass { "pass" } else { "FAIL" }.into()])
            .collect();
        table(&mut out, "verdicts", &["threshold", "measured", "verdict"], &rows);
    }
    out.push_str("<h2>Latencies</h2>\n");
    let rows: Vec<Vec<String>> = f
        .latencies
        .iter()
        .map(|(name, s)| {
            vec![
                name.clone(),
                s.count.to_string(),
                format!("{:.2}", s.p50_ms),
                format!("{:.2}", s.p99_ms),
                format!("{:.2}", s.max_ms),
            ]
        })
        .collect();
    table(&mut out, "latencies", &["what", "count", "p50 ms", "p99 ms", "max ms"], &rows);
    let plots = timeline_plots(f.timeline.as_ref(), f.workload)
        .into_iter()
        .chain(server_plots(&f.server));
    for p in plots {
        let _ = writeln!(out, "<h2>{}</h2>", escape(p.title));
        match p.svg {
            Ok(svg) => {
                // The SVG document without its XML declaration, inline.
                let start = svg.find("<svg").unwrap_or(0);
                out.push_str(&svg[start..]);
                out.push('\n');
            }
            Err(why) => {
                let _ = writeln!(out, "<p class=\"why\">{}</p>", escape(&why));
            }
        }
    }
    let _ = write!(out, "<h2>Text report</h2>\n<pre>{}</pre>\n</body></html>\n", escape(&f.table));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Summary;
    use crate::thresholds::{Metrics, Threshold};

    fn finished(timeline: Option<Timeline>, server: Result<Vec<ServerSample>, String>) -> Finished {
        Finished {
            workload: "journey",
            table: "step  count\nstart <7>\n".into(),
            json: "{}".into(),
            exit_code: 0,
            metrics: Metrics::new(),
            latencies: vec![(
                "start".into(),
                Summary {
                    count: 3,
                    p50_ms: 2.0,
                    p99_ms: 9.0,
                    max_ms: 9.0,
                },
            )],
            timeline,
            server,
        }
    }

    // A small in-memory sample: every plot is an inline SVG, the verdicts come first.
    #[test]
    fn report_with_every_plot() {
        let timeline = Timeline {
            latencies: (0..300).map(|i| (i as f64 / 100.0, (i % 17) as f64 + 0.5)).collect(),
            done: (0..50).map(|i| i as f64 / 20.0).collect(),
            done_per_s: None,
            errors: vec![1.2, 2.7],
            span_s: 3.0,
            unit: "journeys".into(),
            errors_untimed: None,
        };
        let server = (1..=6)
            .map(|i| ServerSample {
                t: i as f64 * 0.5,
                cpu_pct: 10.0 * i as f64,
                rss_mib: 50.0 + i as f64,
            })
            .collect();
        let f = finished(Some(timeline), Ok(server));
        let verdicts = [
            "start p99 < 50ms".parse::<Threshold>().unwrap(),
            "errors < 0.1%".parse::<Threshold>().unwrap(),
        ]
        .map(|t| Verdict {
            threshold: t.text.clone(),
            measured: "1.00ms".into(),
            value: Some(1.0),
            pass: t.metric == "start",
        });
        let html = render(&f, &verdicts, Some("a <small> run"));
        assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
        assert_eq!(
            html.matches("<svg").count(),
            6,
            "latency, percentiles, throughput, errors, CPU, memory"
        );
        assert!(html.contains("<polyline") || html.contains("<path"), "lines are drawn");
        // Self-contained: no XML declaration inside the page, no script, nothing fetched.
        assert!(!html.contains("<?xml") && !html.contains("<script"));
        assert!(!html.contains(" src=") && !html.contains(" href="), "nothing to fetch");
        let verdicts_at = html.find("<table class=\"verdicts\"").unwrap();
        assert!(verdicts_at < html.find("<svg").unwrap(), "the verdicts come first");
        assert!(html.contains("<tr class=\"fail\"><td>errors &lt; 0.1%</td>"), "escaped, marked");
        assert!(html.contains("FAILED: 1 threshold(s) broken"));
        assert!(html.contains("a &lt;small&gt; run") && html.contains("start &lt;7&gt;"));
    }

    // Without a pid or a timeline, each missing plot is a sentence saying why.
    #[test]
    fn missing_plots_say_why() {
        let f = finished(None, Err("the server's pid was not given".into()));
        let html = render(&f, &[], None);
        assert_eq!(html.matches("<svg").count(), 0);
        assert!(html.contains("Not plotted: the server&#39;s pid") || html.contains("Not plotted: the server's pid"));
        assert!(html.contains("kept no timeline"));
        assert!(html.contains("No thresholds were given") && html.contains("PASSED"));
    }
}
