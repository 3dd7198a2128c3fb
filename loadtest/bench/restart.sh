#!/usr/bin/env bash
# The platform restarted under a game a game host still runs (issue 23): the dev platform
# (ops/dev.toml) on 127.0.0.1:8080 in a fresh data directory and the dev game host of node 1
# (ops/gamehost-dev-1.toml, a real game on Xvfb); a player plays; then RESTARTS times
# (default 10): `kill -9` of yoo-server, started again at once, and the time from the kill until
# (a) the server answers again, (b) the host has linked and the session is adopted on its slot
# (the server's log), (c) the player's state says PLAYING in the same session and a fresh stream
# ticket is served. Prints each restart and p50/max of each. Traffic stays on 127.0.0.1; bounded
# by RESTARTS and a 20 s wait per step; stops everything it started.
# Needs target/debug/yoo-server and target/debug/yoo-gamehost (make run builds them).
set -euo pipefail
cd "$(dirname "$0")/../.."
. loadtest/bench/lib.sh
RESTARTS=${RESTARTS:-10}
B=http://127.0.0.1:8080
work=$(mktemp -d)
server_pid=
host_pid=
cleanup() {
  [ -n "$host_pid" ] && kill "$host_pid" 2>/dev/null || true
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

start_server() {
  target/debug/yoo-server --config ops/dev.toml --data-dir "$work/data" >>"$work/server.log" 2>&1 &
  server_pid=$!
}
adopted() { [ "$(grep -c 'session adopted' "$work/server.log")" -ge "$1" ]; }

start_server
until_ok curl -sf "$B/healthz"
target/debug/yoo-gamehost --config ops/gamehost-dev-1.toml >"$work/host.log" 2>&1 &
host_pid=$!
until_ok grep -q "game host linked" "$work/server.log"

phone=13700008888
curl -sf -X POST "$B/api/passport/login/sendcode" -H 'content-type: application/json' -H 'x-skip-csrf: true' -d "{\"phone\":\"$phone\"}" >/dev/null
code=$(curl -sf "$B/api/dev/sms/outbox?phone=$phone" | sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' | head -1)
curl -sf -c "$work/jar" -X POST "$B/api/passport/login" -H 'content-type: application/json' -H 'x-skip-csrf: true' \
  -d "{\"cellphone\":\"$phone\",\"code\":\"$code\",\"device_no\":\"bench\"}" >/dev/null
sid=$(awk '$6 == "yoo_sid" {print $7}' "$work/jar")
csrf=$(awk '$6 == "_csrfToken" {print $7}' "$work/jar")
call() { curl -sf -X POST "$B$1" -H 'content-type: application/json' -H "Cookie: yoo_sid=$sid; _csrfToken=$csrf" -H "x-csrf-token: $csrf" -d "$2"; }
status() { call /api/japi/yoo/game/floatBall '{}' | sed -n 's/.*"id":\([0-9]*\),.*"status":\([0-9]\).*/\1 \2/p'; }
call /api/japi/yoo/game/start '{"gameId":1,"nodeId":1,"nodeDelay":"[]"}' >/dev/null
until_ok bash -c "$(declare -f call status); sid=$sid csrf=$csrf B=$B; status | grep -q ' 3$'"
session=$(status | cut -d' ' -f1)
call /api/japi/yoo/game/confirmConnect "{\"id\":$session}" >/dev/null
playing() { [ "$(status)" = "$session 5" ]; }
ticket() { call /api/japi/yoo/game/streamTicket "{\"id\":$session}" | grep -q '"code":0'; }
until_ok playing
echo "session $session plays; $RESTARTS restarts"

serving=()
adopt=()
resumed=()
for i in $(seq 1 "$RESTARTS"); do
  sleep 2 # a few seconds of play between restarts
  t0=$(ms)
  kill -9 "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  start_server
  until_ok curl -sf "$B/healthz"
  t1=$(ms)
  until_ok adopted "$i"
  t2=$(ms)
  until_ok playing
  until_ok ticket
  t3=$(ms)
  serving+=($((t1 - t0)))
  adopt+=($((t2 - t0)))
  resumed+=($((t3 - t0)))
  echo "restart $i: serving again $((t1 - t0)) ms, adopted $((t2 - t0)) ms, playing with a fresh ticket $((t3 - t0)) ms"
done
echo "serving again: $(stats "${serving[@]}")"
echo "session adopted on its slot: $(stats "${adopt[@]}")"
echo "playing with a fresh ticket: $(stats "${resumed[@]}")"
echo "session $session played through all $RESTARTS restarts (checked after each: the same id, PLAYING, a fresh ticket)"
