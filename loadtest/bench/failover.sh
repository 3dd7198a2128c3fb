#!/usr/bin/env bash
# Failover of a node queue's owner (issue 24): a cluster of 3 yoo-server processes (debug build,
# dev mode, static machines m1 and m2 on node 1, the production lease TTL of 3 s) on a fresh
# PostgreSQL database and a redis-server of its own; PLAYERS players wait in node 1's queue and
# one plays on m1; then ROUNDS times (default 20): `kill -9` of the process that owns the queue,
# the time until a waiting player's call through another process is answered again (failover),
# the calls refused meanwhile (50000, with the retry), every player's session checked (the same
# id, the same status, the same rank: 0 places lost, 0 admissions, the game still PLAYING),
# and the killed process started again. Prints each round and p50/max. Loopback only; bounded
# by ROUNDS and a 20 s wait per step; stops everything it started and drops its database.
set -euo pipefail
cd "$(dirname "$0")/../.."
. loadtest/bench/lib.sh
ROUNDS=${ROUNDS:-20} PLAYERS=${PLAYERS:-30}
[ -x target/debug/yoo-server ] || cargo build -p facade --bin yoo-server
bash ops/redis.sh >/dev/null
bash ops/postgres.sh >/dev/null
work=$(mktemp -d)
db="yoo_failover_$$"
pids=(0 0 0)
redis_pid=
cleanup() {
  for p in "${pids[@]}" "$redis_pid"; do [ "$p" != 0 ] && [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $db" postgres || true
  rm -rf "$work"
}
trap cleanup EXIT

redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no >"$work/redis.log" 2>&1 &
redis_pid=$!
psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $db" postgres
ports=()
for i in 0 1 2; do
  ports+=("$(free_port)")
  cluster_toml "$work/p$i.toml" "${ports[$i]}" "$work/p$i" "$db" "$redis_port" "p$i"
done
start() {
  RUST_LOG=warn target/debug/yoo-server --config "$work/p$1.toml" >>"$work/p$1.log" 2>&1 &
  pids[$1]=$!
  until_ok curl -sf "http://127.0.0.1:${ports[$1]}/healthz"
}
for i in 0 1 2; do start "$i"; done
# the process that owns node 1's queue now (its index), or nothing
owner() {
  for i in 0 1 2; do
    [ "${pids[$i]}" = 0 ] && continue
    curl -sf "http://127.0.0.1:${ports[$i]}/metrics" | grep -q '^yoo_cluster_leases_held 1$' && { echo "$i"; return 0; }
  done
  return 1
}
until_ok owner

# the players, all through process 0 (forwarded to the owner where it is not)
B0=http://127.0.0.1:${ports[0]}
login() { # phone → "sid csrf"
  curl -sf -X POST "$B0/api/passport/login/sendcode" -H 'content-type: application/json' -H 'x-skip-csrf: true' -d "{\"phone\":\"$1\"}" >/dev/null
  local code
  code=$(curl -sf "$B0/api/dev/sms/outbox?phone=$1" | sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' | head -1)
  curl -sf -c "$work/jar$1" -X POST "$B0/api/passport/login" -H 'content-type: application/json' -H 'x-skip-csrf: true' \
    -d "{\"cellphone\":\"$1\",\"code\":\"$code\",\"device_no\":\"bench$1\"}" >/dev/null
  echo "$(awk '$6 == "yoo_sid" {print $7}' "$work/jar$1") $(awk '$6 == "_csrfToken" {print $7}' "$work/jar$1")"
}
call() { # base sid csrf path body → the envelope
  curl -s -X POST "$1$4" -H 'content-type: application/json' -H "Cookie: yoo_sid=$2; _csrfToken=$3" -H "x-csrf-token: $3" -d "$5"
}
state() { # base sid csrf → "id status sort", or the refusal's code
  local r
  r=$(call "$1" "$2" "$3" /api/japi/yoo/game/floatBall '{}')
  case "$r" in
    *'"code":0'*) echo "$r" | python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print(d["id"], d["status"], d["sort"])' ;;
    *) echo "refused $(echo "$r" | sed -n 's/.*"code":\([0-9]*\).*/\1/p')" ;;
  esac
}
creds=()
for n in $(seq 0 "$PLAYERS"); do
  c=$(login "1380000$(printf '%04d' "$n")")
  creds+=("$c")
  read -r sid csrf <<<"$c"
  call "$B0" "$sid" "$csrf" /api/japi/yoo/game/start '{"gameId":1,"nodeId":1,"nodeDelay":"[]"}' | grep -q '"code":0' || { echo "start refused" >&2; exit 1; }
done
# the first player plays on m1; the others wait
read -r sid csrf <<<"${creds[0]}"
first=$(state "$B0" "$sid" "$csrf")
call "$B0" "$sid" "$csrf" /api/japi/yoo/game/confirmConnect "{\"id\":${first%% *}}" >/dev/null
playing() { state "$B0" "$sid" "$csrf" | grep -q ' 5 '; }
until_ok playing
expected=()
for c in "${creds[@]}"; do read -r s t <<<"$c"; expected+=("$(state "$B0" "$s" "$t")"); done
echo "${#creds[@]} players: ${expected[0]} (playing), ${expected[1]} .. ${expected[-1]} (waiting); $ROUNDS rounds"

failover=()
refused_all=0
for round in $(seq 1 "$ROUNDS"); do
  o=$(owner)
  # a survivor to call through, and the player it asks about (the last in the queue)
  s_i=$(((o + 1) % 3))
  B=http://127.0.0.1:${ports[$s_i]}
  read -r ps pc <<<"${creds[-1]}"
  t0=$(ms)
  kill -9 "${pids[$o]}"
  wait "${pids[$o]}" 2>/dev/null || true
  pids[$o]=0
  refused=0
  while :; do
    got=$(state "$B" "$ps" "$pc")
    case "$got" in
      refused*) refused=$((refused + 1)); [ "$(($(ms) - t0))" -lt 20000 ] || { echo "no owner within 20 s" >&2; exit 1; } ;;
      *) break ;;
    esac
  done
  t1=$(ms)
  # every player as before (through the survivor)
  for k in "${!creds[@]}"; do
    read -r s t <<<"${creds[$k]}"
    now=$(state "$B" "$s" "$t")
    [ "$now" = "${expected[$k]}" ] || { echo "round $round: player $k is '$now', was '${expected[$k]}'" >&2; exit 1; }
  done
  failover+=($((t1 - t0)))
  refused_all=$((refused_all + refused))
  echo "round $round: owner p$o killed; served again through p$s_i after $((t1 - t0)) ms ($refused calls refused meanwhile); ${#creds[@]} players as before"
  start "$o"
done
echo "failover (kill -9 of the owner → a call answered through another process): $(stats "${failover[@]}")"
echo "calls refused during the failovers: $refused_all (each 50000, after the forwarder's patience)"
echo "0 places lost, 0 admissions, the game played on: all ${#creds[@]} players checked after each of $ROUNDS rounds"
