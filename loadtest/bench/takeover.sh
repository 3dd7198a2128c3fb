#!/usr/bin/env bash
# The restore a takeover costs (CLUSTER.md: "measure the restore of 100,000 waiting players
# first; it decides the budget"): WAITING (default 100000) players queued on node 1 in a fresh
# PostgreSQL database (written by SQL, as the queue would have stored them), then a cluster of
# two debug `yoo-server` processes on it and a redis-server of the script's own: the first to
# win node 1's lease restores the queue (its log: "node queue taken ... sessions=N ms=T"); then
# it is killed with -9 and the other takes over, restoring the same queue again. Prints both
# restores, and the time from the kill until a waiting player's state is answered again
# through the survivor. Loopback only; bounded (20 s per wait); stops all it started and drops
# its database.
set -euo pipefail
cd "$(dirname "$0")/../.."
. loadtest/bench/lib.sh
WAITING=${WAITING:-100000}
[ -x target/debug/yoo-server ] || cargo build -p facade --bin yoo-server
bash ops/redis.sh >/dev/null
bash ops/postgres.sh >/dev/null
work=$(mktemp -d)
db="yoo_takeover_$$"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $db" postgres || true
  rm -rf "$work"
}
trap cleanup EXIT
psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $db" postgres
redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no >"$work/redis.log" 2>&1 &
pids+=("$!")
ports=()
for i in 0 1; do
  ports+=("$(free_port)")
  cluster_toml "$work/p$i.toml" "${ports[$i]}" "$work/p$i" "$db" "$redis_port" "p$i"
done
# the schema and the catalogue: the first process migrates and seeds, and stops
RUST_LOG=warn target/debug/yoo-server --config "$work/p0.toml" >"$work/seed.log" 2>&1 &
seed=$!
until_ok curl -sf "http://127.0.0.1:${ports[0]}/healthz"
kill "$seed"; wait "$seed" 2>/dev/null || true
echo "writing $WAITING waiting players"
t=$(ms)
psql -q -h 127.0.0.1 -U postgres "$db" <<SQL
INSERT INTO users (cellphone, nickname, created_at)
  SELECT '139' || lpad(i::text, 8, '0'), 'p' || i, 1 FROM generate_series(1, $WAITING) AS i;
INSERT INTO game_sessions (uid, game_id, node_id, device_no, status, created_at, lane, tag, seq)
  SELECT uid, 1, 1, 'bench-' || uid, 1, 1000 + uid, 0, uid, uid FROM users WHERE cellphone LIKE '139%';
SQL
echo "written in $(($(ms) - t)) ms"
taken() { grep -h "node queue taken" "$work/p$1.log" | tail -1 | sed 's/\x1b\[[0-9;]*m//g' | sed -n 's/.*sessions=\([0-9]*\) ms=\([0-9]*\).*/sessions=\1 ms=\2/p'; }
for i in 0 1; do
  RUST_LOG=info,actix_server=warn target/debug/yoo-server --config "$work/p$i.toml" >"$work/p$i.log" 2>&1 &
  pids+=("$!")
  until_ok curl -sf "http://127.0.0.1:${ports[$i]}/healthz"
done
owner_of() { for i in 0 1; do [ -n "$(taken "$i")" ] && { echo "$i"; return 0; }; done; return 1; }
UNTIL_MS=120000 until_ok owner_of
o=$(owner_of)
echo "first owner p$o restored: $(taken "$o")"
s=$((1 - o))
# a waiting player's state through the survivor-to-be (the last in the queue)
phone="139$(printf '%08d' "$WAITING")"
curl -sf -X POST "http://127.0.0.1:${ports[$s]}/api/passport/login/sendcode" -H 'content-type: application/json' -H 'x-skip-csrf: true' -d "{\"phone\":\"$phone\"}" >/dev/null
code=$(curl -sf "http://127.0.0.1:${ports[$s]}/api/dev/sms/outbox?phone=$phone" | sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' | head -1)
curl -sf -c "$work/jar" -X POST "http://127.0.0.1:${ports[$s]}/api/passport/login" -H 'content-type: application/json' -H 'x-skip-csrf: true' \
  -d "{\"cellphone\":\"$phone\",\"code\":\"$code\",\"device_no\":\"bench\"}" >/dev/null
sid=$(awk '$6 == "yoo_sid" {print $7}' "$work/jar"); csrf=$(awk '$6 == "_csrfToken" {print $7}' "$work/jar")
state() { curl -s -X POST "http://127.0.0.1:${ports[$s]}/api/japi/yoo/game/floatBall" -H 'content-type: application/json' -H "Cookie: yoo_sid=$sid; _csrfToken=$csrf" -H "x-csrf-token: $csrf" -d '{}'; }
before=$(state | sed -n 's/.*"sort":\([0-9]*\).*/\1/p')
echo "the last waiting player's rank: $before"
t0=$(ms)
kill -9 "${pids[$((o + 1))]}"
UNTIL_MS=120000 until_ok taken "$s"
answered() { [ "$(state | sed -n 's/.*"sort":\([0-9]*\).*/\1/p')" = "$before" ]; }
UNTIL_MS=120000 until_ok answered
t1=$(ms)
echo "takeover by p$s restored: $(taken "$s"); the last player's rank ($before) answered again $((t1 - t0)) ms after the kill"
