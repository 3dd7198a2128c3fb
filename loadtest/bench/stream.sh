#!/usr/bin/env bash
# The stream benchmark of issue 8, start to finish: writes a platform config (one node served by
# a game host) and a host config (MAX_STREAMS slots of the test pattern, 1280x720 at 30 fps),
# starts target/release/yoo-server and target/release/yoo-gamehost on loopback ports, runs
# loadtest/bench/stream.mjs (Debian's Chromium through playwright-core: one stream measured for
# DURATION s, then 1, 2, ... simultaneous streams for WINDOW s each), stops everything.
# Bounded: every wait in the script has a deadline and `timeout` stops it after 15 minutes.
#
#   loadtest/bench/stream.sh [OUT_DIR]
#
# Settings (environment): MAX_STREAMS=4 DURATION=30 WINDOW=20 ROUND_TRIPS=40 FPS=30 BITRATE=3000.
# Build first (release), and the frontend:
#   cargo build --release -p facade --bin yoo-server -p gamehost --bin yoo-gamehost
#   bash ops/frontend.sh build
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

OUT=${1:-/tmp/yoo-stream-bench}
MAX_STREAMS=${MAX_STREAMS:-4}
DURATION=${DURATION:-30}
WINDOW=${WINDOW:-20}
ROUND_TRIPS=${ROUND_TRIPS:-40}
FPS=${FPS:-30}
BITRATE=${BITRATE:-3000}
SECRET=bench-host-secret-node-1

rm -rf "$OUT" && mkdir -p "$OUT/data" "$OUT/host"
cat > "$OUT/server.toml" <<TOML
mode = "dev"
bind = "127.0.0.1:0"
data_dir = "$OUT/data"
frontend_dir = "$ROOT/frontend/dist"
host_origins = ["ws://127.0.0.1:*", "http://127.0.0.1:*"]
[sms]
# every virtual player asks for its code from 127.0.0.1: no security check in front of codes
captcha_phone_per_hour = 0
captcha_ip_per_hour = 0
resend_secs = 0
ip_per_hour = 100000
global_per_minute = 100000
[game]
connect_countdown_secs = 60
[[nodes]]
id = 1
name = "压测一区"
status = 1
machines = []
host_secret = "$SECRET"
TOML

RUST_LOG=warn target/release/yoo-server --config "$OUT/server.toml" > "$OUT/server.out" 2> "$OUT/server.err" &
SERVER=$!
HOST=
trap 'kill $HOST $SERVER 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q "listening on" "$OUT/server.out" 2>/dev/null && break
  sleep 0.2
done
BASE=$(grep -o 'http://127.0.0.1:[0-9]*' "$OUT/server.out" | head -1)
[ -n "$BASE" ] || { echo "yoo-server did not start" >&2; cat "$OUT/server.err" >&2; exit 1; }

cat > "$OUT/host.toml" <<TOML
node_id = 1
host = "bench"
secret = "$SECRET"
platform_url = "${BASE/http/ws}/api/host/link"
bind = "127.0.0.1:0"
slots = $MAX_STREAMS
screen = [1280, 720]
fps = $FPS
bitrate_kbps = $BITRATE
key_interval_secs = 2
state_dir = "$OUT/host"
[games.pattern]
program = "@self"
args = ["--pattern", "--size", "1280x720"]
window = [1280, 720]
nice = 5
TOML
RUST_LOG=warn target/release/yoo-gamehost --config "$OUT/host.toml" > "$OUT/host.out" 2> "$OUT/host.err" &
HOST=$!
echo "$HOST" > "$OUT/host.pid"   # the process the harness's stream scenario samples
for _ in $(seq 150); do
  grep -q "listening on" "$OUT/host.out" 2>/dev/null && break
  sleep 0.2
done
grep -q "listening on" "$OUT/host.out" || { echo "yoo-gamehost did not start" >&2; cat "$OUT/host.err" >&2; exit 1; }

echo "platform $BASE, game host pid $HOST ($MAX_STREAMS slots, 1280x720 at $FPS fps, $BITRATE kbit/s)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
BASE=$BASE HOST_PID=$HOST MAX_STREAMS=$MAX_STREAMS DURATION=$DURATION WINDOW=$WINDOW ROUND_TRIPS=$ROUND_TRIPS \
  timeout 900 node loadtest/bench/stream.mjs | tee "$OUT/result.jsonl"
