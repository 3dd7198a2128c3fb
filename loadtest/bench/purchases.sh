#!/usr/bin/env bash
# The purchases benchmark of issue 10: our release yoo-server (dev mode: SQLite, the sandbox
# payment provider) driven by `loadtest purchases`: QR orders at RATE a second for SECS seconds,
# each paid on the sandbox's pay page, then the whole ledger replayed. Bounded: the harness stops
# by itself, `timeout` stops it after 10 minutes whatever happens, and the server is stopped by
# its PID.
#
#   loadtest/bench/purchases.sh [OUT_DIR]
#
# Settings (environment): RATE=500 SECS=20 PLAYERS=500 WORKERS=2 BUILD=1 (0: use the binaries
# already built) GOODS=time_300
set -euo pipefail
cd "$(dirname "$0")/../.."
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

OUT=$(mkdir -p "${1:-/tmp/yoo-purchases}" && cd "${1:-/tmp/yoo-purchases}" && pwd)
RATE=${RATE:-500} SECS=${SECS:-20} PLAYERS=${PLAYERS:-500} WORKERS=${WORKERS:-2} BUILD=${BUILD:-1}
GOODS=${GOODS:-time_300}
# STORE=sqlite|postgres: the server's store (loadtest/bench/store.sh).
. "$(dirname "$0")/store.sh"

if [ "$BUILD" = 1 ]; then
  cargo build --release -p facade --bin yoo-server
  cargo build --release -p loadtest
fi
for bin in target/release/yoo-server target/release/loadtest; do
  [ -x "$bin" ] || { echo "$bin is missing: run with BUILD=1"; exit 1; }
done

rm -rf "$OUT/data" && mkdir -p "$OUT"
cat > "$OUT/server.toml" <<TOML
mode = "dev"
bind = "127.0.0.1:0"
data_dir = "$OUT/data"
frontend_dir = "/nonexistent"
workers = $WORKERS
[sms]
# every virtual player asks for its code from 127.0.0.1: no security check in front of codes
captcha_phone_per_hour = 0
captcha_ip_per_hour = 0
ip_per_hour = 1000000
global_per_minute = 1000000
[[nodes]]
id = 1
name = "压测一区"
status = 1
machines = ["m01"]
TOML
store_toml >> "$OUT/server.toml"
RUST_LOG=warn target/release/yoo-server --config "$OUT/server.toml" > "$OUT/server.out" 2> "$OUT/server.err" &
server=$!
trap 'kill "$server" 2>/dev/null || true; store_drop' EXIT
for _ in $(seq 50); do
  grep -q "listening on" "$OUT/server.out" 2>/dev/null && break
  sleep 0.2
done
url=$(sed -n 's/^yoo-server listening on //p' "$OUT/server.out")
[ -n "$url" ] || { echo "the server did not start"; cat "$OUT/server.err"; exit 1; }
echo "== purchases: server $server on $url, $PLAYERS buyers, $RATE orders/s of $GOODS for $SECS s"
set +e
timeout 600 target/release/loadtest purchases --url "$url" --players "$PLAYERS" --rate "$RATE" \
  --window-secs "$SECS" --goods-code "$GOODS" --server-pid "$server" --json "$OUT/report.json" --html "$OUT/report.html" | tee "$OUT/table.txt"
status=${PIPESTATUS[0]}
set -e
curl -s "$url/metrics" > "$OUT/metrics.txt" || true
echo "report: $OUT/report.json, $OUT/report.html (exit $status)"
exit "$status"
