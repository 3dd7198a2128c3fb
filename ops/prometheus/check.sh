#!/usr/bin/env bash
# The operators' checks of `make test`: the Prometheus configuration and rules are valid, every
# alert and recording rule passes its promtool unit tests, the Grafana dashboards are what
# ops/grafana/build.py writes, and, against a live debug server after a short load run
# (journeys and purchases), /metrics passes `promtool check metrics` and every query of the
# dashboards, rules and console reads a series that exists (the cluster's from two processes on
# PostgreSQL and a Redis of their own). Loopback only, bounded, stops itself.
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
# starts the server of $TMP/$1.toml in the background (its pid in $started) and prints its URL
started=
start_server() {
  RUST_LOG=warn "$SERVER" --config "$TMP/$1.toml" > "$TMP/$1.out" 2> "$TMP/$1.err" &
  started=$!
  for _ in $(seq 100); do
    grep -q "listening on" "$TMP/$1.out" 2>/dev/null && break
    sleep 0.1
  done
  sed -n 's/^yoo-server listening on //p' "$TMP/$1.out"
}
url=$(start_server server)
server=$(pgrep -n -f "$TMP/server.toml" || true)
[ -n "$url" ] || { echo "the server did not start"; cat "$TMP/server.err"; exit 1; }
prefix=$(( $$ % 90 + 10 ))
timeout 120 "$LOADTEST" --url "$url" --players 6 --concurrency 6 --play-ms 100 --timeout-secs 100 \
  --phone-prefix "14${prefix}" > "$TMP/journeys.txt"
timeout 120 "$LOADTEST" purchases --url "$url" --players 3 --rate 5 --window-secs 2 --timeout-secs 100 \
  --phone-prefix "15${prefix}" > "$TMP/purchases.txt" 2> /dev/null
curl -sf "$url/metrics" > "$TMP/metrics.txt"
promtool check metrics < "$TMP/metrics.txt"

# The cluster's series: two processes on a fresh PostgreSQL database and a redis-server of
# their own; journeys through both (one of them forwards to the owner of the node's queue,
# whose pushes cross to the sockets on the other)
bash ops/redis.sh > /dev/null
bash ops/postgres.sh > /dev/null
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no > "$TMP/redis.log" 2>&1 &
redis=$!
db="yoo_ops_check_$$"
psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $db" postgres
cluster_pids=()
cleanup_cluster() {
  for p in "${cluster_pids[@]}" "$redis"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $db" postgres || true
}
trap 'cleanup_cluster; cleanup' EXIT
for _ in $(seq 50); do redis-cli -p "$redis_port" ping > /dev/null 2>&1 && break; sleep 0.1; done
urls=()
for p in p1 p2; do
  sed -e "s|^data_dir = .*|data_dir = \"$TMP/$p\"|" "$TMP/server.toml" > "$TMP/$p.toml"
  cat >> "$TMP/$p.toml" <<TOML
[storage]
kind = "postgres"
url = "postgres://postgres@127.0.0.1:5432/$db"
pool_size = 4
[cluster]
redis_url = "redis://127.0.0.1:$redis_port/0"
process_id = "$p"
TOML
  u=$(start_server "$p")
  cluster_pids+=("$(pgrep -n -f "$TMP/$p.toml" || true)")
  [ -n "$u" ] || { echo "cluster process $p did not start"; cat "$TMP/$p.err"; exit 1; }
  urls+=("$u")
done
# the node's queue owned by one of them (bounded)
for _ in $(seq 100); do
  held=$(for u in "${urls[@]}"; do curl -sf "$u/metrics" | sed -n 's/^yoo_cluster_leases_held //p'; done | awk '{s += $1} END {print s + 0}')
  [ "$held" = "1" ] && break
  sleep 0.1
done
i=0
for u in "${urls[@]}"; do
  i=$((i + 1))
  timeout 120 "$LOADTEST" --url "$u" --players 4 --concurrency 4 --play-ms 100 --timeout-secs 100 \
    --phone-prefix "16${prefix}${i}" > "$TMP/cluster-journeys-$i.txt" 2>&1 \
    || { echo "journeys through cluster process $i failed:"; cat "$TMP/cluster-journeys-$i.txt"; exit 1; }
  curl -sf "$u/metrics" > "$TMP/cluster-metrics-$i.txt"
  promtool check metrics < "$TMP/cluster-metrics-$i.txt"
done
cat "$TMP"/cluster-metrics-*.txt >> "$TMP/metrics.txt"
python3 ops/prometheus/check_queries.py "$TMP/metrics.txt"
echo "ops: rules, their tests, dashboards and the live /metrics check out"
