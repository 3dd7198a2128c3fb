#!/usr/bin/env bash
# Schemathesis (PyPI, pinned) against a fresh dev server on 127.0.0.1:0, driven by the server's
# own OpenAPI document (GET /api/openapi.json), as the players of a world it builds first (a run
# each, with the CSRF header).
# Fails on any 5xx, any status code the document does not list for the path, any response
# whose body or content type contradicts the document, fewer cases than its floor, or fewer
# operations reached (a 2xx to some case, ops/fuzz_reached.py) than its floor.
# Installs schemathesis into target/fuzz-venv when missing (`--install`: only that). Needs
# target/debug/yoo-server.
# With $LOADTEST_FIGURES set (loadtest/scenarios/fuzz.toml), writes its figures there.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
VENV=target/fuzz-venv
# The floor: at least this many cases in all, and at least MIN_PER_OP per operation tested on
# average (204 operations, 25 examples: 10,500 cases, 51 an operation).
MIN_CASES=${FUZZ_MIN_CASES:-2000}
MIN_PER_OP=${FUZZ_MIN_CASES_PER_OP:-40}
# Fuzzing-phase cases per operation; the examples and coverage phases add theirs (about 30 an
# operation). 25 keeps the run within 2 minutes on 2 cores (BENCHMARKS.md, "The test suite's
# time": 70 took 4 minutes for 18,229 cases); seeded, so every run sends the same cases.
EXAMPLES=${FUZZ_EXAMPLES:-25}

if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  echo "installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
[ "${1:-}" = --install ] && exit 0
[ -x target/debug/yoo-server ] || cargo build -q -p facade --bin yoo-server

work=$(mktemp -d)
# the Schemathesis runs made so far (fuzz_as), each with $work/NAME.ndjson and $work/NAME.txt
RUNS=()
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  [ -n "${FUZZ_KEEP:-}" ] && for r in "${RUNS[@]}"; do cat "$work/$r.ndjson"; done >"$FUZZ_KEEP" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The dev configuration with an operator token, so that the operators' calls are reached too.
OPERATOR_TOKEN=fuzz-operator
{
  echo "operator_token_sha256 = \"$(printf %s "$OPERATOR_TOKEN" | sha256sum | cut -d' ' -f1)\""
  # the long polls answer "still waiting" within the request timeout (10 s); the room's members,
  # who hold no socket, keep their places for the whole run (the reconnect window); node 1 has
  # static machines instead of game hosts (none runs here): a start gets a machine at once, so
  # the calls of a ready and a playing session are reached
  sed -e 's/^poll_wait_secs = .*/poll_wait_secs = 2/' -e 's/^sandbox_mismatch = .*/&\nqr_poll_wait_secs = 2/' \
    -e 's/^reconnect_secs = .*/reconnect_secs = 900/' \
    -e 's/^host_secret = "dev-host-secret-node-1"$/machines = ["f1", "f2", "f3", "f4"]/' ops/dev.toml
} >"$work/server.toml"
RUST_LOG=warn target/debug/yoo-server --config "$work/server.toml" --bind 127.0.0.1:0 --data-dir "$work/data" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
base=
for _ in $(seq 1 200); do
  base=$(sed -n 's/^yoo-server listening on \(http:\/\/[0-9.:]*\)$/\1/p' "$work/server.out")
  [ -n "$base" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err"; exit 1; }
  sleep 0.1
done
[ -n "$base" ] || { echo "the server did not print its address"; exit 1; }
echo "server at $base"

# The world the generated calls meet, built in a fresh database, so that its ids are the small
# numbers the document's examples give (`dto::Id`: 1, 2): the caller (uid 1), logged in through
# the sandbox SMS outbox, with play time, a membership and cards, hosting room 1 (ddRid 1);
# a second player (uid 2) in that room, so that the host's calls about a member reach
# someone; a third (uid 3) in it too, whom the host invites to a seat and whom the calls about a
# stranger name (blacklisting); a fourth (uid 4) in it, whom the host puts out; a fifth (uid 5)
# with session 1 on a machine of node 1 (static machines: no game host runs here), whose calls
# the player's run makes. The caller's first start makes session 2. No session yet:
# the caller's first start makes session 1.
login() {
  local phone=$1 jar=$2 code
  curl -sf -X POST "$base/api/passport/login/sendcode" -H 'content-type: application/json' -H 'x-skip-csrf: true' -d "{\"phone\":\"$phone\"}" >/dev/null
  code=$(curl -sf "$base/api/dev/sms/outbox?phone=$phone" | sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' | head -1)
  curl -sf -c "$jar" -X POST "$base/api/passport/login" -H 'content-type: application/json' -H 'x-skip-csrf: true' \
    -d "{\"cellphone\":\"$phone\",\"code\":\"$code\",\"device_no\":\"fuzz\"}" >/dev/null
}
# as_player JAR PATH BODY: a logged-in POST
as_player() {
  local jar=$1 sid csrf
  sid=$(awk '$6 == "yoo_sid" {print $7}' "$jar")
  csrf=$(awk '$6 == "_csrfToken" {print $7}' "$jar")
  curl -sf -X POST "$base$2" -H 'content-type: application/json' -H "Cookie: yoo_sid=$sid; _csrfToken=$csrf" -H "x-csrf-token: $csrf" -d "$3" >/dev/null
}
phone=13900000042
jar=$work/cookies
login "$phone" "$jar"
sid=$(awk '$6 == "yoo_sid" {print $7}' "$jar")
csrf=$(awk '$6 == "_csrfToken" {print $7}' "$jar")
[ -n "$sid" ] && [ -n "$csrf" ] || { echo "login failed"; exit 1; }
# (three time cards first, each to be given once: cards 1 and 2, the examples' ids, are used
# outside a queue; card 3 is the one given)
time_card='"kind":"time_card","minutes":60,"days":30,"count":1'
for grant in '"kind":"play_time","minutes":600' '"kind":"vip","days":30' "$time_card" "$time_card" "$time_card" '"kind":"card","count":20'; do
  curl -sf -X POST "$base/api/dev/grant" -H 'content-type: application/json' -H 'x-skip-csrf: true' -d "{\"cellphone\":\"$phone\",$grant}" >/dev/null
done
login 13900000043 "$work/second"
login 13900000044 "$work/third"
as_player "$jar" /api/japi/yoo/v2/room/relay '{"roomName":"压测房间","gameId":1,"mode":4,"isShow":1}'
as_player "$work/second" /api/japi/yoo/v2/room/login '{"ddRid":1}'
as_player "$work/third" /api/japi/yoo/v2/room/login '{"ddRid":1}'
login 13900000045 "$work/fourth"
as_player "$work/fourth" /api/japi/yoo/v2/room/login '{"ddRid":1}'
login 13900000046 "$work/player"
as_player "$work/player" /api/japi/yoo/game/start '{"gameId":2}'

started=$(date +%s)
# One worker: with two, hypothesis describes strategies by ast.parse from two threads at once, and
# this CPython 3.11 mistracks the AST recursion depth in threaded programs (python/cpython#106905):
# "SystemError: AST constructor recursion depth mismatch" stopped the run.
# fuzz_as NAME JAR EXAMPLES [ARGS...]: one Schemathesis run with the login in JAR (a curl cookie
# jar), its report in $work/NAME.ndjson and its output in $work/NAME.txt; the exit status is kept
# in `status` (the first that failed).
status=0
fuzz_as() {
  local name=$1 jar=$2 examples=$3 sid csrf s
  shift 3
  RUNS+=("$name")
  sid=$(awk '$6 == "yoo_sid" {print $7}' "$jar")
  csrf=$(awk '$6 == "_csrfToken" {print $7}' "$jar")
  set +e
  "$VENV/bin/schemathesis" --config-file ops/schemathesis.toml run "$base/api/openapi.json" \
    --url "$base" \
    -H "Cookie: yoo_sid=$sid; _csrfToken=$csrf" \
    -H "x-csrf-token: $csrf" \
    "$@" \
    --checks "${FUZZ_CHECKS:-not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance}" \
    --phases "${PHASES:-examples,coverage,fuzzing}" \
    --max-examples "$examples" \
    --seed "${FUZZ_SEED:-7}" \
    --workers 1 \
    --request-timeout 10 \
    --suppress-health-check all \
    --report ndjson --report-ndjson-path "$work/$name.ndjson" \
    --no-color 2>&1 | tee "$work/$name.txt"
  s=${PIPESTATUS[0]}
  set -e
  [ "$status" -ne 0 ] || status=$s
}
# The session's calls as the fifth player, first, while session 1 is ready: confirm it, then its
# duration, quality reports and stream tickets (leaving it and cancelling it are the caller's).
fuzz_as player "$work/player" "${FUZZ_OTHER_EXAMPLES:-10}" \
  --include-path-regex '^/api/japi/yoo/game/(confirmConnect|gameDuration|qualityReport|streamTicket)$'
# The room's calls as the viewer, while the room is as the world left it: what a
# viewer may do (take or leave a seat, apply for control, report) is refused to the host. Fewer
# cases than the caller's: the caller's run tries the inputs. Opening a room of their own or
# leaving would end the viewer's membership: those two last.
fuzz_as viewer "$work/second" "${FUZZ_OTHER_EXAMPLES:-10}" --include-path-regex '^/api/japi/yoo/(?!game/|v2/room/(relay|exit)$)'
# The room's calls as its host, while the viewer and the third player are in it (in the full run
# below, the host's game calls may end the room before its turn).
fuzz_as host "$jar" "${FUZZ_OTHER_EXAMPLES:-10}" --include-path-regex '^/api/japi/yoo/(blacklist|control|mike|mikeReq|report|room)/'
# Every operation as the caller (the room's host, an operator too) but the game change, which
# starts a session numbered past the examples whenever it is tried, so that the caller's own
# start never succeeded and its later calls named none of its sessions.
PHASES=examples,coverage,fuzzing,stateful fuzz_as events "$jar" "$EXAMPLES" -H "x-operator-token: $OPERATOR_TOKEN" --exclude-path /api/user/logout \
  --exclude-path /api/japi/yoo/game/changeGame
# The game change as the third player.
fuzz_as change "$work/third" "${FUZZ_OTHER_EXAMPLES:-10}" --include-path /api/japi/yoo/game/changeGame
# The fifth player leaves their game.
fuzz_as player_leaves "$work/player" "${FUZZ_OTHER_EXAMPLES:-10}" --include-path-regex '^/api/japi/yoo/game/over$'
# The viewer leaves.
fuzz_as leaving "$work/second" "${FUZZ_OTHER_EXAMPLES:-10}" --include-path-regex '^/api/japi/yoo/v2/room/exit$'
took=$(( $(date +%s) - started ))
cases=$(for r in "${RUNS[@]}"; do cat "$work/$r.txt"; done | sed -n 's/^ *\([0-9][0-9]*\) generated.*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
echo "fuzz: $cases cases in $took s (schemathesis exit $status)"
failures=$(for r in "${RUNS[@]}"; do cat "$work/$r.txt"; done | sed -n 's/.* \([0-9][0-9]*\) unique failures*.*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
tested=$(sed -n 's/^ *Tested: *\([0-9][0-9]*\).*/\1/p' "$work/events.txt" | tail -1)
panics=$(grep -c "panicked" "$work/server.err" || true)
# The share of operations that answered 2xx to at least one generated case (the fuzzing reaches
# the logic, not only the input checks); the operations without one are listed.
reports=()
for r in "${RUNS[@]}"; do reports+=("$work/$r.ndjson"); done
reached=$(python3 ops/fuzz_reached.py "${reports[@]}")
echo "$reached" | tail -n +2
reached_pct=$(echo "$reached" | head -1)
echo "fuzz: ${reached_pct}% of the operations answered 2xx to some case"
# The load-test harness's `command` workload (loadtest/scenarios/fuzz.toml) reads these figures.
if [ -n "${LOADTEST_FIGURES:-}" ]; then
  printf '{"figures": [{"name": "cases", "value": %d}, {"name": "operations tested", "value": %d}, {"name": "unique failures", "value": %d}, {"name": "server panics", "value": %d}, {"name": "schemathesis exit status", "value": %d}, {"name": "wall time", "value": %d, "unit": "s"}]}\n' \
    "${cases:-0}" "${tested:-0}" "${failures:-0}" "${panics:-0}" "$status" "$took" > "$LOADTEST_FIGURES"
fi
if grep -q "panicked" "$work/server.err"; then echo "the server panicked:"; grep -A3 panicked "$work/server.err"; exit 1; fi
[ "$status" -eq 0 ] || exit "$status"
# The floor of that share: 80.9–81.4% reached on 2026-11-29 (BENCHMARKS.md; the issue's target
# is 80%); runs of the same seed vary by an operation or two (one call consumes the state another
# would have answered, on the server's timing), so the floor leaves that much room.
MIN_REACHED=${FUZZ_MIN_REACHED:-79}
[ "${reached_pct%.*}" -ge "$MIN_REACHED" ] || { echo "fuzz: fewer than $MIN_REACHED% of the operations answered 2xx"; exit 1; }
[ "${cases:-0}" -ge "$MIN_CASES" ] || { echo "fuzz: only ${cases:-0} cases, fewer than $MIN_CASES"; exit 1; }
floor=$(( ${tested:-0} * MIN_PER_OP ))
[ "${cases:-0}" -ge "$floor" ] || { echo "fuzz: only ${cases:-0} cases for ${tested:-0} operations, fewer than $MIN_PER_OP each"; exit 1; }
