#!/usr/bin/env bash
# Builds everything and starts the platform in dev mode on http://127.0.0.1:8080:
# SQLite under ./data, the sandbox providers, the dev configuration ops/dev.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ops/frontend.sh build
cargo build -p facade --bin yoo-server
exec target/debug/yoo-server --config ops/dev.toml
