#!/usr/bin/env bash
# Runs every test: formatting and lints, the arrows between feature folders (ops/arrows.py), Rust
# (unit, integration, storage), frontend unit, the contract (generated types, Schemathesis),
# browser end-to-end.
# Installs what it needs on a fresh machine (node modules, Debian's Chromium, the game host's
# packages, Schemathesis).
#
# Each step prints `== name` as it starts and `-- name: N s` as it ends; a table of every step's
# time closes the run, also when a step fails (BENCHMARKS.md, "The test suite's time").
#
# One Rust build serves the lints, the tests and the browser tests: the workspace's crates are
# compiled by clippy-driver, the way `cargo clippy` runs it (RUSTC_WORKSPACE_WRAPPER, and
# CLIPPY_ARGS joined by __CLIPPY_HACKERY__), so the build that makes the test binaries,
# yoo-server and yoo-gamehost also lints every target they come from, warnings as errors.
# The wrapper is part of cargo's fingerprint: a `cargo build` without it (by hand) makes its own
# artifacts and does not hide a warning from this one.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

STEP_NAMES=()
STEP_SECS=()
STEP_CPU=()
STEP_CURRENT=
declare -A BG_PID=()
SUITE_STARTED=$(date +%s.%N)
# seconds since `from` (date +%s.%N), rounded
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }'; }
# CPU seconds (user + system) of every waited-for child of this shell so far (/proc/PID/stat:
# cutime and cstime, fields 16 and 17, in clock ticks; the command name before them has no spaces)
children_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($16 + $17) / hz }' "/proc/$$/stat"; }
# step NAME COMMAND...: runs one step and keeps its wall time (and CPU time) for the table. On a
# 2-core machine a wall time far above the CPU time / 2 of a build says the machine was busy.
step() {
  local name=$1 t0 c0
  shift
  echo "== $name"
  STEP_CURRENT=$name
  t0=$(date +%s.%N)
  c0=$(children_cpu)
  "$@"
  STEP_NAMES+=("$name")
  STEP_SECS+=("$(since "$t0")")
  STEP_CPU+=("$(awk -v a="$c0" -v b="$(children_cpu)" 'BEGIN { printf "%.0f", b - a }')")
  STEP_CURRENT=
  echo "-- $name: ${STEP_SECS[-1]} s (CPU ${STEP_CPU[-1]} s)"
}
step_table() {
  local status=$? i
  echo "== step times: wall s, CPU s (user + system)"
  for i in "${!STEP_NAMES[@]}"; do printf '%6s %6s  %s\n' "${STEP_SECS[$i]}" "${STEP_CPU[$i]}" "${STEP_NAMES[$i]}"; done
  [ -z "$STEP_CURRENT" ] || printf '%13s  %s\n' failed "$STEP_CURRENT"
  # a failed run leaves nothing of its own running (the background installs and build)
  for i in "${BG_PID[@]}"; do
    if kill -0 "$i" 2>/dev/null; then pkill -TERM -P "$i" 2>/dev/null || true; kill "$i" 2>/dev/null || true; fi
  done
  printf '%6s %6s  %s\n' "$(since "$SUITE_STARTED")" "$(children_cpu | awk '{ printf "%.0f", $1 }')" total
  exit "$status"
}
trap step_table EXIT

# Installs and a build that need no CPU the steps before them use run in the background: each
# `background NAME COMMAND...` writes target/suite-logs/NAME.log, and `step "wait: ..."
# foreground NAME` prints that log and fails as the command did.
mkdir -p target/suite-logs
background() {
  local name=$1
  shift
  echo "== (background) $name"
  ( t0=$(date +%s.%N); status=0; "$@" || status=$?; echo "-- (background) $name: $(since "$t0") s, exit $status"; exit $status ) \
    >"target/suite-logs/$name.log" 2>&1 </dev/null &
  BG_PID[$name]=$!
}
foreground() {
  local name=$1 status=0
  wait "${BG_PID[$name]}" || status=$?
  cat "target/suite-logs/$name.log"
  return "$status"
}

packages() {
  if ! command -v chromium >/dev/null 2>&1; then
    echo "installing chromium (Debian) for the browser tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
  fi
  # the game host's crate builds against GStreamer; its tests run games
  bash ops/host-deps.sh
  # promtool for the operators' checks
  bash ops/prometheus/install.sh
}
step "packages: Chromium, the game host's Debian packages, Prometheus" packages

# the node modules and Schemathesis download while the Rust build below compiles
background node-modules bash ops/frontend.sh --install
background schemathesis bash ops/fuzz.sh --install

step "rust: formatting" cargo fmt --all --check

arrows() {
  python3 ops/arrows.py
  python3 -m unittest discover -s ops/tests
}
step "the arrows between feature folders (ops/arrows.toml)" arrows

CLIPPY_DRIVER=$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver || true)
[ -x "$CLIPPY_DRIVER" ] || { echo "clippy-driver not found (rustup component add clippy)"; exit 1; }
export RUSTC_WORKSPACE_WRAPPER=$CLIPPY_DRIVER
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
# The binaries that build makes, for the frontend's types, Schemathesis and the browser tests
# (without these, gen-api.mjs would `cargo run -p facade`, another feature set, another build).
export YOO_SERVER_BIN=$ROOT/target/debug/yoo-server
export YOO_GAMEHOST_BIN=$ROOT/target/debug/yoo-gamehost
export YOO_LOADTEST_BIN=$ROOT/target/debug/loadtest

# Each crate's integration tests are one binary, tests/it/main.rs: a file left out of its list would
# never run, so that is an error.
declared() {
  local main f m
  for main in */tests/it/main.rs; do
    for f in "$(dirname "$main")"/*.rs; do
      m=$(basename "$f" .rs)
      [ "$m" = main ] || grep -qx "mod $m;" "$main" || { echo "$f is not declared in $main"; return 1; }
    done
  done
}
step "rust: every integration test file declared in its tests/it/main.rs" declared

# What `cargo clippy --workspace --all-targets` checked, compiled for real: every crate's lib,
# bins, tests and examples (the workspace has no benches), with yoo-server, yoo-gamehost and
# loadtest.
step "rust: build every target, linted by clippy (warnings are errors)" cargo test --workspace --no-run

# vendor/actix-http's tests build on one core while the frontend's build and lint (mostly one
# node process at a time, and no test with a timeout) use the other; no test runs beside it.
# Upstream's code is not linted: without the wrapper.
VENDOR_TEST=(env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS cargo test --locked --manifest-path vendor/actix-http/Cargo.toml
  --target-dir target/vendor-actix-http --features ws --lib)
background vendor-build "${VENDOR_TEST[@]}" --no-run -j 1

step "wait: the frontend's node modules" foreground node-modules
step "frontend: build (types generated, type check, bundle, home-route size check)" bash ops/frontend.sh build
step "frontend: lint" bash ops/frontend.sh lint
step "wait: vendor/actix-http's build" foreground vendor-build
# `build` generated the types: the unit tests need not generate them again
step "frontend: unit tests" bash ops/frontend.sh test:unit
step "contract: a field renamed on the server fails the frontend's type check" bash ops/frontend.sh check:contract


rust_tests() {
  if cargo nextest --version >/dev/null 2>&1; then
    # every test in its own process, two at a time across all the binaries (.config/nextest.toml)
    cargo nextest run --workspace
    # nextest does not run doc tests
    cargo test --workspace --doc
  else
    echo "cargo-nextest is not installed: cargo test"
    cargo test --workspace
  fi
}
step "PostgreSQL for the storage tests (installed and started where missing)" bash ops/postgres.sh
step "redis-server for the cluster tests (installed where missing)" bash ops/redis.sh
step "rust: every crate's tests" rust_tests


step "operators: Prometheus rules and their tests, dashboards, the live /metrics and every query" \
  bash ops/prometheus/check.sh

step "wait: Schemathesis installed" foreground schemathesis
step "contract: Schemathesis against the server's own document" bash ops/fuzz.sh

step "vendor/actix-http: upstream's tests of the patched dispatcher, and the patch's own" \
  "${VENDOR_TEST[@]}" h1::dispatcher

# The browser tests wait on real time far more than they compute (a file of them uses about half
# a core): three files at a time (E2E_WORKERS), each with its own server, browser and temp dir,
# the longest first (package.json). Alone: beside Schemathesis or the Rust stress tests their
# waits timed out (BENCHMARKS.md, "The test suite's time").
export E2E_WORKERS=${E2E_WORKERS:-3}
step "browser end-to-end (Chromium), three files at a time" bash ops/frontend.sh e2e
