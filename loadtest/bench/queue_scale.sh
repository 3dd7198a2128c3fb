#!/usr/bin/env bash
# The queue-scale benchmark of issue 3 against a fresh release server, start to finish:
# writes the server config, starts target/release/yoo-server on a fresh data_dir, runs
# `loadtest queue-scale` with --server-pid, stops the server. Bounded: the harness stops by
# itself (--timeout-secs) and `timeout` stops everything after 15 minutes whatever happens.
#
#   loadtest/bench/queue_scale.sh [OUT_DIR]
#
# Settings (environment): PLAYERS=100000 SOCKETS=19000 MACHINES=1000 RATE=1000 WINDOW=20
# PROCS=3 REFRESH_MS=750 WORKERS=2 SETTLE=40 PERF=0 (1: perf record the server during the window).
# PASSWORD_RATE=0: password logins a second during the window (issue 11's side load).
# SCENARIO=FILE: `loadtest run FILE` (its settings and thresholds) instead of the flags above;
# the server still gets MACHINES machines, which must match the file's.
# STORE=sqlite|postgres: the server's store (loadtest/bench/store.sh).
# RESTART=1: afterwards the server is killed (-9) with its players still waiting and started
# again on the same store: the time until it serves again, and how many it restored.
# SETTLE: seconds before each memory reading; idle player actors stop up to 20 s after their last
# call and the trim pass runs every 10 s, so less than 30 s reads memory that is about to go.
# Build first, the server on its own (built together with the harness, cargo unifies awc's
# HTTP/2 feature into actix-http and a socket costs ~1.7 KB more; BENCHMARKS.md):
#   cargo build --release -p facade --bin yoo-server && cargo build --release -p loadtest
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=${1:-/tmp/yoo-queue-scale}
PLAYERS=${PLAYERS:-100000}
SOCKETS=${SOCKETS:-19000}
MACHINES=${MACHINES:-1000}
RATE=${RATE:-1000}
WINDOW=${WINDOW:-20}
PROCS=${PROCS:-3}
REFRESH_MS=${REFRESH_MS:-750}
WORKERS=${WORKERS:-2}
PERF=${PERF:-0}
SETTLE=${SETTLE:-40}
PASSWORD_RATE=${PASSWORD_RATE:-0}
SCENARIO=${SCENARIO:-}
RESTART=${RESTART:-0}
. "$(dirname "$0")/store.sh"

rm -rf "$OUT" && mkdir -p "$OUT"
machines=$(seq -f '"m%04g"' 1 "$MACHINES" | paste -sd, -)
cat > "$OUT/server.toml" <<TOML
mode = "dev"
bind = "127.0.0.1:0"
data_dir = "$OUT/data"
frontend_dir = "/nonexistent"
workers = $WORKERS
# Every virtual player logs in from 127.0.0.1: the address and global SMS ceilings are raised.
[sms]
# every virtual player asks for its code from 127.0.0.1: no security check in front of codes
captcha_phone_per_hour = 0
captcha_ip_per_hour = 0
ip_per_hour = 1000000
global_per_minute = 1000000
# The password accounts' forgot-password code is their second code within a minute.
resend_secs = 0
[game]
connect_countdown_secs = 60
connect_delay_ms = 50
rank_refresh_ms = $REFRESH_MS
[[nodes]]
id = 1
name = "压测一区"
status = 1
machines = [$machines]
TOML
store_toml >> "$OUT/server.toml"

RUST_LOG=warn target/release/yoo-server --config "$OUT/server.toml" > "$OUT/server.out" 2> "$OUT/server.err" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; store_drop' EXIT
for _ in $(seq 50); do
  grep -q "listening on" "$OUT/server.out" 2>/dev/null && break
  sleep 0.2
done
URL=$(sed -n 's/^yoo-server listening on //p' "$OUT/server.out")
[ -n "$URL" ] || { echo "the server did not start"; cat "$OUT/server.err"; exit 1; }
echo "server $SERVER on $URL, rank_refresh_ms=$REFRESH_MS workers=$WORKERS machines=$MACHINES"

perf_args=()
[ "$PERF" = 1 ] && perf_args=(--perf "$OUT/perf.data")
set +e
if [ -n "$SCENARIO" ]; then
  timeout 900 target/release/loadtest run "$SCENARIO" --url "$URL" --server-pid "$SERVER" \
    --json "$OUT/report.json" --html "$OUT/report.html" | tee "$OUT/report.txt"
else
timeout 900 target/release/loadtest queue-scale --url "$URL" --players "$PLAYERS" --sockets "$SOCKETS" \
  --machines "$MACHINES" --machines-rate "$RATE" --window-secs "$WINDOW" --procs "$PROCS" \
  --server-pid "$SERVER" --settle-secs "$SETTLE" --password-logins-per-sec "$PASSWORD_RATE" \
  --json "$OUT/report.json" --html "$OUT/report.html" "${perf_args[@]}" | tee "$OUT/report.txt"
fi
status=${PIPESTATUS[0]}
set -e
echo "server peak: $(grep -E 'VmHWM' /proc/$SERVER/status)"
if [ "$RESTART" = 1 ]; then
  waiting=$(curl -s "$URL/metrics" | awk '/^yoo_players_waiting/ { s += $2 } END { print s + 0 }' || true)
  kill -9 "$SERVER"
  wait "$SERVER" 2>/dev/null || true
  started=$(date +%s.%N)
  RUST_LOG=warn,actors::play::service=info target/release/yoo-server --config "$OUT/server.toml" > "$OUT/server2.out" 2> "$OUT/server2.err" &
  SERVER=$!
  for _ in $(seq 6000); do
    grep -q "listening on" "$OUT/server2.out" 2>/dev/null && break
    sleep 0.02
  done
  serving=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  # the server logs to stdout, coloured
  restored=$(sed 's/\x1b\[[0-9;]*m//g' "$OUT/server2.out" | grep -o 'waiting=[0-9]* active=[0-9]*' | head -1 || true)
  echo "restart ($STORE): $waiting waiting at the kill; serving again after $serving s; $restored" | tee -a "$OUT/report.txt"
fi
exit "$status"
