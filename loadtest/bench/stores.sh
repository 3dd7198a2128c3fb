#!/usr/bin/env bash
# The store benchmarks side by side (issue 23): each benchmark on SQLite and then on PostgreSQL
# in one run, against the same release binaries on this machine.
#   queue   queue-100k.toml (100,000 waiting, 19,000 sockets, 1,000 machines freeing), then a
#           kill -9 with the players waiting and the time until the server serves again
#   buys    purchases (500 orders/s for 20 s, every order paid, the ledger replayed)
#   journey journey-1000.toml (1,000 players through the whole journey, 20 machines)
#
#   loadtest/bench/stores.sh [OUT_DIR] [BENCH...]      (default: journey buys queue)
#
# Bounded as each benchmark is (its own timeouts); PostgreSQL databases are created and dropped
# per run (loadtest/bench/store.sh). Build first:
#   cargo build --release -p facade --bin yoo-server && cargo build --release -p loadtest
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/tmp/yoo-stores}
shift || true
BENCHES=("$@")
[ ${#BENCHES[@]} -gt 0 ] || BENCHES=(journey buys queue)
mkdir -p "$OUT"
for bench in "${BENCHES[@]}"; do
  for store in sqlite postgres; do
    dir="$OUT/$bench-$store"
    echo "== $bench on $store ($dir)"
    case "$bench" in
      queue) STORE=$store RESTART=1 SCENARIO=loadtest/scenarios/queue-100k.toml loadtest/bench/queue_scale.sh "$dir" ;;
      buys) STORE=$store BUILD=0 bash loadtest/bench/purchases.sh "$dir" ;;
      journey) STORE=$store MACHINES=20 SETTLE=0 SCENARIO=loadtest/scenarios/journey-1000.toml loadtest/bench/queue_scale.sh "$dir" ;;
      *) echo "unknown benchmark $bench"; exit 2 ;;
    esac
    echo "-- $bench on $store: exit $?"
  done
done
