#!/usr/bin/env bash
# Runs every test: Rust (unit, integration, storage), frontend unit, browser end-to-end.
# Installs what it needs on a fresh machine (node modules, Debian's Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  echo "installing chromium (Debian) for the browser tests"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
fi

echo "== frontend: build and unit tests"
bash ops/frontend.sh build
bash ops/frontend.sh test

echo "== rust: build the server once, then every crate's tests"
cargo build -p facade --bin yoo-server
cargo test --workspace

echo "== vendor/actix-http: upstream's tests of the patched dispatcher, and the patch's own"
cargo test --locked --manifest-path vendor/actix-http/Cargo.toml --target-dir target/vendor-actix-http \
  --features ws --lib h1::dispatcher

echo "== browser end-to-end (Chromium)"
bash ops/frontend.sh e2e
