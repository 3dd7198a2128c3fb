#!/usr/bin/env bash
# Runs every test: formatting and lints, the arrows between feature folders (ops/arrows.py), Rust
# (unit, integration, storage), frontend unit, the contract (generated types, Schemathesis),
# browser end-to-end.
# Installs what it needs on a fresh machine (node modules, Debian's Chromium, the game host's
# packages, Schemathesis).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  echo "installing chromium (Debian) for the browser tests"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
fi

echo "== the game host's Debian packages (its crate builds against GStreamer; its tests run games)"
bash ops/host-deps.sh

echo "== rust: formatting and clippy (warnings are errors)"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings

echo "== the arrows between feature folders"
python3 ops/arrows.py
python3 -m unittest discover -s ops/tests

echo "== rust: build the server once (the frontend's REST types come from its OpenAPI document) and the game host"
cargo build -p facade --bin yoo-server
cargo build -p gamehost --bin yoo-gamehost

echo "== frontend: build (types generated, type check, bundle, home-route size check), lint, unit tests"
bash ops/frontend.sh build
bash ops/frontend.sh lint
bash ops/frontend.sh test
echo "== contract: a field renamed on the server fails the frontend's type check"
bash ops/frontend.sh check:contract

echo "== rust: every crate's tests"
# Each crate's integration tests are one binary, tests/it/main.rs: a file left out of its list would
# never run, so that is an error.
for main in */tests/it/main.rs; do
  for f in "$(dirname "$main")"/*.rs; do
    m=$(basename "$f" .rs)
    [ "$m" = main ] || grep -qx "mod $m;" "$main" || { echo "$f is not declared in $main"; exit 1; }
  done
done
cargo test --workspace

echo "== operators: Prometheus rules and their tests, dashboards, the live /metrics and every query"
bash ops/prometheus/check.sh

echo "== contract: Schemathesis against the server's own document"
bash ops/fuzz.sh

echo "== vendor/actix-http: upstream's tests of the patched dispatcher, and the patch's own"
cargo test --locked --manifest-path vendor/actix-http/Cargo.toml --target-dir target/vendor-actix-http \
  --features ws --lib h1::dispatcher

echo "== browser end-to-end (Chromium)"
bash ops/frontend.sh e2e
