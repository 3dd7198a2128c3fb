#!/usr/bin/env bash
# The operators' checks of `make test`: the Prometheus configuration and rules are valid, every
# alert and recording rule passes its promtool unit tests, the Grafana dashboards are what
# ops/grafana/build.py writes, and, against a live debug server after a short load run
# (journeys and purchases), /metrics passes `promtool check metrics` and every query of the
# dashboards, rules and console reads a series that exists. Loopback only, bounded, stops itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

bash ops/prometheus/install.sh
promtool check config ops/prometheus/prometheus.yml
promtool check rules ops/prometheus/rules/*.yml
promtool test rules ops/prometheus/tests/*.yml
python3 ops/grafana/build.py --check

# `make test` hands over the binaries its one build made (a `cargo build -p` here would unify
# features per package, not per workspace: another build of half the tree)
SERVER=${YOO_SERVER_BIN:-}
LOADTEST=${YOO_LOADTEST_BIN:-}
if [ -z "$SERVER" ] || [ -z "$LOADTEST" ]; then
  cargo build -q -p facade --bin yoo-server
  cargo build -q -p loadtest --bin loadtest
  SERVER=target/debug/yoo-server
  LOADTEST=target/debug/loadtest
fi
TMP=$(mktemp -d /tmp/yoo-ops-check-XXXXXX)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
cat > "$TMP/server.toml" <<TOML
mode = "dev"
bind = "127.0.0.1:0"
data_dir = "$TMP/data"
frontend_dir = "/nonexistent"
workers = 1
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
RUST_LOG=warn "$SERVER" --config "$TMP/server.toml" > "$TMP/server.out" 2> "$TMP/server.err" &
server=$!
for _ in $(seq 100); do
  grep -q "listening on" "$TMP/server.out" 2>/dev/null && break
  sleep 0.1
done
url=$(sed -n 's/^yoo-server listening on //p' "$TMP/server.out")
[ -n "$url" ] || { echo "the server did not start"; cat "$TMP/server.err"; exit 1; }
prefix=$(( $$ % 90 + 10 ))
timeout 120 "$LOADTEST" --url "$url" --players 6 --concurrency 6 --play-ms 100 --timeout-secs 100 \
  --phone-prefix "14${prefix}" > "$TMP/journeys.txt"
timeout 120 "$LOADTEST" purchases --url "$url" --players 3 --rate 5 --window-secs 2 --timeout-secs 100 \
  --phone-prefix "15${prefix}" > "$TMP/purchases.txt" 2> /dev/null
curl -sf "$url/metrics" > "$TMP/metrics.txt"
promtool check metrics < "$TMP/metrics.txt"
python3 ops/prometheus/check_queries.py "$TMP/metrics.txt"
echo "ops: rules, their tests, dashboards and the live /metrics check out"
