//! `loadtest run FILE.toml` end to end against a real `target/debug/yoo-server` (built
//! beforehand by `make test`): a small journey scenario (12 players, 2 machines, an arrival rate
//! and a think time), one threshold that holds and one that cannot, the JSON and HTML reports.

mod common;

use std::process::Command;

use common::start_server;

#[test]
fn a_scenario_file_runs_judges_its_thresholds_and_writes_the_html_report() {
    let server = start_server("scenario-run", 2, "");
    let dir = server.dir.clone();
    // A prefix of its own per run, so that a rerun within a minute gets fresh phones.
    let prefix: String = format!("133{}", std::process::id() % 1_000_000).chars().take(8).collect();
    let file = dir.join("small.toml");
    std::fs::write(
        &file,
        format!(
            r#"
description = "12 players, 2 machines"
workload = "journey"
url = "http://127.0.0.1:1"          # replaced by --url
thresholds = ["start p(95) < 10s", "errors == 0", "throughput > 1000000/s"]
json = "{json}"

[journey]
players = 12
concurrency = 12
arrival_rate = 40.0
think_ms = 5
play_ms = 20
timeout_secs = 60
phone_prefix = "{prefix}"
"#,
            json = dir.join("report.json").display()
        ),
    )
    .unwrap();
    let html = dir.join("report.html");
    let out = Command::new(env!("CARGO_BIN_EXE_loadtest"))
        .arg("run")
        .arg(&file)
        .args(["--url", &server.url, "--server-pid", &server.child.id().to_string(), "--html"])
        .arg(&html)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // Every journey completed, so the only failure is the impossible throughput: status 4.
    assert_eq!(out.status.code(), Some(4), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("loadtest: 12 players, 12 completed, 0 failed, 0 timed out"),
        "{stdout}"
    );
    assert!(
        stdout.contains("pass  start p(95) < 10s") && stdout.contains("pass  errors == 0"),
        "{stdout}"
    );
    assert!(stdout.contains("FAIL  throughput > 1000000/s"), "{stdout}");
    assert!(
        stderr.contains("threshold broken: throughput > 1000000/s (measured "),
        "the broken threshold is named with its measured value: {stderr}"
    );
    // No progress line: stderr is not a terminal here.
    assert!(!stderr.contains("players ["), "{stderr}");

    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["completed"], 12);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("FAILED: 1 threshold(s) broken"), "{page}");
    assert_eq!(
        page.matches("<svg").count(),
        6,
        "latency, percentiles, throughput, errors, CPU, memory"
    );
    assert!(page.contains("12 players, 2 machines"));
}

// A file that does not parse is bad usage: status 2, the reason on stderr.
#[test]
fn a_bad_scenario_file_is_bad_usage() {
    let dir = std::env::temp_dir().join(format!("yoo-loadtest-bad-scenario-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.toml");
    std::fs::write(
        &file,
        "workload = \"journey\"\nthresholds = [\"start p99 << 5ms\"]\n[journey]\nplayers = 1\nurl = \"http://127.0.0.1:1\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_loadtest")).arg("run").arg(&file).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("start p99 << 5ms"), "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_loadtest"))
        .args(["--players", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "--url is required");
    let _ = std::fs::remove_dir_all(&dir);
}

// A `command` scenario: the program's figures, samples and timeline judged and plotted, the
// process of its pid file sampled (here the program itself), a broken threshold: status 4.
#[test]
fn a_command_scenario_runs_its_program_and_judges_its_figures() {
    let dir = std::env::temp_dir().join(format!("yoo-loadtest-command-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("bench.sh");
    std::fs::write(
        &script,
        r#"echo $$ > "$1/bench.pid"
echo "measuring $LEVEL"
sleep 1.5
cat > "$LOADTEST_FIGURES" <<JSON
{"figures": [{"name": "pictures per second", "value": 29.8}, {"name": "home route gzip", "value": $LEVEL}],
 "samples": {"capture → decoded": [11, 12, 13, 40]},
 "timeline": {"unit": "pictures", "span_s": 1.5, "latencies": [[0.2, 11], [0.7, 12], [1.2, 40]], "done": [0.2, 0.7, 1.2], "errors": [1.3]}}
JSON
"#,
    )
    .unwrap();
    let file = dir.join("bench.toml");
    std::fs::write(
        &file,
        format!(
            r#"
description = "a benchmark of its own"
workload = "command"
thresholds = ["pictures per second >= 29", "capture → decoded p50 <= 20ms", "home route gzip <= 100"]
json = "{json}"
html = "{html}"

[command]
run = ["sh", "{script}", "{dir}"]
env = {{ LEVEL = "120" }}
pid_file = "{dir}/bench.pid"
timeout_secs = 60
"#,
            json = dir.join("report.json").display(),
            html = dir.join("report.html").display(),
            script = script.display(),
            dir = dir.display(),
        ),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_loadtest")).arg("run").arg(&file).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(4), "{stdout}\n{stderr}");
    assert!(stdout.contains("measuring 120"), "the program's own output goes through: {stdout}");
    assert!(stdout.contains("pass  pictures per second >= 29"), "{stdout}");
    assert!(stdout.contains("pass  capture → decoded p50 <= 20ms"), "{stdout}");
    assert!(stdout.contains("FAIL  home route gzip <= 100"), "{stdout}");
    assert!(
        stderr.contains("threshold broken: home route gzip <= 100 (measured 120)"),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["exit_status"], 0);
    assert_eq!(json["figures"]["samples"]["capture → decoded"][3], 40.0);
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(
        page.contains("a benchmark of its own") && page.contains("FAILED: 1 threshold(s) broken"),
        "{page}"
    );
    assert_eq!(
        page.matches("<svg").count(),
        6,
        "latency, percentiles, throughput, errors, CPU, memory"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
