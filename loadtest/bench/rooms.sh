#!/usr/bin/env bash
# The room-scale benchmarks of issue 9, both sides from one script: our release yoo-server
# driven by `loadtest room-scale`, and the Socket.IO 4.8 reference of ../shared/peers (copied to
# OUT/peers and built there; none of its code is committed here) on the same workload, then
# both side by side. Bounded: each harness stops by itself, and `timeout` stops each run after
# 15 minutes whatever happens; every server is stopped by its PID.
#
#   loadtest/bench/rooms.sh [OUT_DIR]
#
# Workloads (WORKLOADS="a b"):
#   a: 19,000 viewers, 200 chatters sending 20 msg/s in all, churn 50/s    (our server)
#   b: 10,000 viewers, 100 msg/s, no churn                                  (ours and Socket.IO)
# Settings (environment), e.g. a smoke run: VIEWERS_A=200 VIEWERS_B=200 SECS=5 SETTLE=0
#   VIEWERS_A=19000 CHATTERS_A=200 RATE_A=20 CHURN_A=50   VIEWERS_B=10000 CHATTERS_B=200 RATE_B=100
#   SECS=20 (window) DRAIN=3 PROCS (default: viewers / 7000 rounded up) WORKERS=2 SETTLE=25
#   BATCH_MS (the server's [rooms] batch_ms; unset: its default) SIO_B=1 SIO_A=0 (run Socket.IO
#   on that workload too) BUILD=1 (0: use the binaries already built) PEERS=../shared/peers
#   PIN=0 (1: Socket.IO pinned as in its README; our side is never pinned)
#   COMPARE_ONLY=1: run nothing, print the side-by-side table of the reports already in OUT_DIR
#   PERF=1: sample our server's stacks for the whole run (perf record -F 199 -g, cpu-clock) into
#   OUT/<w>/perf.data, its report in OUT/<w>/perf.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
# Every process may hold as many open files as allowed (20,000 on the benchmark machine): the
# server holds a socket per viewer, each child its share.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

OUT=$(mkdir -p "${1:-/tmp/yoo-rooms}" && cd "${1:-/tmp/yoo-rooms}" && pwd)
WORKLOADS=${WORKLOADS:-a b}
VIEWERS_A=${VIEWERS_A:-19000} CHATTERS_A=${CHATTERS_A:-200} RATE_A=${RATE_A:-20} CHURN_A=${CHURN_A:-50}
VIEWERS_B=${VIEWERS_B:-10000} CHATTERS_B=${CHATTERS_B:-200} RATE_B=${RATE_B:-100} CHURN_B=${CHURN_B:-0}
SECS=${SECS:-20}
DRAIN=${DRAIN:-3}
WORKERS=${WORKERS:-2}
SETTLE=${SETTLE:-25}
SIO_A=${SIO_A:-0}
SIO_B=${SIO_B:-1}
BUILD=${BUILD:-1}
PEERS=${PEERS:-$ROOT/../shared/peers}

# Side by side: our report.json and Socket.IO's CSV row of each workload.
compare() {
python3 - "$OUT" $WORKLOADS <<'PY'
import csv, json, os, sys
out, workloads = sys.argv[1], sys.argv[2:]
def f(v, d=1):
    return "-" if v is None else f"{v:,.{d}f}"
for w in workloads:
    path = os.path.join(out, w, "report.json")
    if not os.path.exists(path):
        print(f"workload {w}: no report"); continue
    r = json.load(open(path))
    s = r.get("server") or {}
    ours = {
        "viewers": r["viewers"], "msg/s": r["rate"],
        "delivered/s": r["delivered_per_s"], "ideal/s": r["ideal_per_s"],
        "received %": 100.0 * r["deliveries"] / max(1, r["ideal_per_s"] * r["window_s"]),
        "p50 ms (every receipt)": r["latency_each"]["p50_ms"], "p99 ms (every receipt)": r["latency_each"]["p99_ms"],
        "p99 ms (last viewer)": r["latency_last"]["p99_ms"],
        "CPU-s / 1M deliveries": s.get("cpu_s_per_million_deliveries"),
        "CPU-s / 1M events": s.get("cpu_s_per_million_events"),
        "KiB / viewer": (s["bytes_per_viewer"] / 1024) if s.get("bytes_per_viewer") is not None else None,
        "missed (present viewers)": r["missing"],
        "events per frame": r.get("events_per_frame"),
    }
    sio = None
    sp = os.path.join(out, w, "sio.csv")
    if os.path.exists(sp):
        rows = list(csv.DictReader(open(sp)))
        if rows:
            x = rows[-1]
            sio = {
                "viewers": int(x["N"]), "msg/s": float(x["R"]),
                "delivered/s": float(x["delivered_per_s"]), "ideal/s": float(x["N"]) * float(x["R"]),
                "received %": float(x["complete_pct"]),
                "p50 ms (every receipt)": float(x["p50_ms"]), "p99 ms (every receipt)": float(x["p99_ms"]),
                "p99 ms (last viewer)": None,
                "CPU-s / 1M deliveries": float(x["srv_cpu_s_per_M"]),
                "CPU-s / 1M events": float(x["srv_cpu_s_per_M"]),
                "KiB / viewer": float(x["kib_per_conn_idle"]),
                "missed (present viewers)": None,
                "events per frame": 1.0,
            }
    print(f"\nworkload {w}: {r['viewers']} viewers, {r['rate']} msg/s, churn {r['churn']}/s, window {r['window_s']:.1f} s")
    print(f"  {'figure':<28} {'yoo-server':>14} {'Socket.IO 4.8':>14} {'ratio':>8}")
    for k, v in ours.items():
        o = sio.get(k) if sio else None
        ratio = ""
        if o and v:
            ratio = f"{v / o:.1f}x" if k in ("delivered/s",) else (f"{o / v:.1f}x less" if k in ("CPU-s / 1M deliveries", "CPU-s / 1M events", "KiB / viewer") else "")
        d = 0 if k in ("viewers", "delivered/s", "ideal/s", "missed (present viewers)") else 1
        print(f"  {k:<28} {f(v, d):>14} {f(o, d):>14} {ratio:>8}")
PY
}
if [ "${COMPARE_ONLY:-0}" = 1 ]; then
  compare
  exit 0
fi

if [ "$BUILD" = 1 ]; then
  # The server on its own: built together with the harness, cargo unifies awc's features into
  # actix-http and a socket costs more (BENCHMARKS.md).
  cargo build --release -p facade --bin yoo-server
  cargo build --release -p loadtest
fi
for bin in target/release/yoo-server target/release/loadtest; do
  [ -x "$bin" ] || { echo "$bin is missing: run with BUILD=1"; exit 1; }
done

# The Socket.IO reference: a copy of its own (the shared one is read-only), built in place.
need_sio=0
for w in $WORKLOADS; do
  v=SIO_${w^^}
  [ "${!v:-0}" = 1 ] && need_sio=1
done
if [ "$need_sio" = 1 ]; then
  if [ ! -x "$OUT/peers/target/release/harness" ] || [ ! -d "$OUT/peers/node_modules" ]; then
    rm -rf "$OUT/peers"
    cp -r "$PEERS" "$OUT/peers"
    chmod -R u+w "$OUT/peers"
    (cd "$OUT/peers" && npm ci --no-audit --no-fund && cargo build --release)
  fi
fi

# Our side of one workload: a fresh server, `loadtest room-scale`, the server stopped.
run_ours() {
  local w=$1 viewers=$2 chatters=$3 rate=$4 churn=$5
  local dir="$OUT/$w"
  rm -rf "$dir" && mkdir -p "$dir"
  {
    cat <<TOML
mode = "dev"
bind = "127.0.0.1:0"
data_dir = "$dir/data"
frontend_dir = "/nonexistent"
workers = $WORKERS
# Every virtual user logs in from 127.0.0.1: the address and global SMS ceilings are raised.
[sms]
# every virtual player asks for its code from 127.0.0.1: no security check in front of codes
captcha_phone_per_hour = 0
captcha_ip_per_hour = 0
ip_per_hour = 1000000
global_per_minute = 1000000
[game]
connect_countdown_secs = 60
connect_delay_ms = 50
[[nodes]]
id = 1
name = "压测一区"
status = 1
machines = ["m01"]
TOML
    if [ -n "${BATCH_MS:-}" ]; then printf '[rooms]\nbatch_ms = %s\n' "$BATCH_MS"; fi
  } > "$dir/server.toml"
  RUST_LOG=warn target/release/yoo-server --config "$dir/server.toml" > "$dir/server.out" 2> "$dir/server.err" &
  local server=$!
  for _ in $(seq 50); do
    grep -q "listening on" "$dir/server.out" 2>/dev/null && break
    sleep 0.2
  done
  local url
  url=$(sed -n 's/^yoo-server listening on //p' "$dir/server.out")
  if [ -z "$url" ]; then
    echo "the server did not start"; cat "$dir/server.err"; kill "$server" 2>/dev/null || true; return 1
  fi
  echo "== workload $w, ours: server $server on $url, $viewers viewers, $chatters chatters, $rate msg/s, churn $churn/s, ${SECS} s"
  local procs_args=()
  [ -n "${PROCS:-}" ] && procs_args=(--procs "$PROCS")
  local churn_args=()
  [ "$churn" != 0 ] && churn_args=(--churn "$churn")
  local perf=
  if [ "${PERF:-0}" = 1 ]; then
    perf record -e cpu-clock -F 199 -g -p "$server" -o "$dir/perf.data" > "$dir/perf.out" 2>&1 &
    perf=$!
  fi
  set +e
  timeout 900 target/release/loadtest room-scale --url "$url" --viewers "$viewers" --chatters "$chatters" --rate "$rate" \
    "${churn_args[@]}" --window-secs "$SECS" --drain-secs "$DRAIN" --server-pid "$server" --settle-secs "$SETTLE" \
    "${procs_args[@]}" --json "$dir/report.json" --html "$dir/report.html" | tee "$dir/report.txt"
  local status=${PIPESTATUS[0]}
  set -e
  echo "server peak: $(grep -E 'VmHWM' /proc/$server/status)" | tee -a "$dir/report.txt"
  # The server's own view (request durations by route, room frames): OUT/<w>/metrics.txt.
  curl -s "$url/metrics" > "$dir/metrics.txt" || true
  if [ -n "$perf" ]; then
    kill -INT "$perf" 2>/dev/null || true
    wait "$perf" 2>/dev/null || true
    perf report -i "$dir/perf.data" --no-children --percent-limit 0.5 --stdio --sort dso,symbol -g none > "$dir/perf.txt" 2>/dev/null || true
  fi
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  echo "$status" > "$dir/status"
}

# The Socket.IO side: its own run.sh (a fresh server, its harness, the server stopped by PID);
# the row it appends to out/results.csv is kept as OUT/<w>/sio.csv.
run_sio() {
  local w=$1 viewers=$2 rate=$3
  echo "== workload $w, Socket.IO 4.8: $viewers viewers, $rate msg/s, ${SECS} s"
  local csv="$OUT/peers/out/results.csv"
  local before=0
  [ -f "$csv" ] && before=$(wc -l < "$csv")
  (cd "$OUT/peers" && PIN=${PIN:-0} ./run.sh sio "$viewers" "$rate" "$SECS") | tee "$OUT/$w/sio.txt"
  { head -1 "$csv"; tail -n +$((before + 1)) "$csv" | grep -v '^label,'; } > "$OUT/$w/sio.csv"
}

status=0
for w in $WORKLOADS; do
  case $w in
    a) v=$VIEWERS_A c=$CHATTERS_A r=$RATE_A ch=$CHURN_A sio=$SIO_A ;;
    b) v=$VIEWERS_B c=$CHATTERS_B r=$RATE_B ch=$CHURN_B sio=$SIO_B ;;
    *) echo "unknown workload $w (a or b)"; exit 2 ;;
  esac
  [ "$c" -gt "$v" ] && c=$v
  run_ours "$w" "$v" "$c" "$r" "$ch" || status=1
  [ "$(cat "$OUT/$w/status" 2>/dev/null || echo 1)" = 0 ] || status=1
  if [ "$sio" = 1 ]; then run_sio "$w" "$v" "$r" || status=1; fi
done

compare
exit "$status"
