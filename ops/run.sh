#!/usr/bin/env bash
# Builds everything and starts the platform in dev mode on http://127.0.0.1:8080 (SQLite under
# ./data, the sandbox providers, ops/dev.toml) and one game host per enabled dev node
# (ops/gamehost-dev-<node>.toml: two slots each, on virtual displays). The host's Debian
# packages are installed where missing; when that fails the site is served without game hosts
# (and says so). Ctrl-C stops them all.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ops/frontend.sh build
cargo build -p facade --bin yoo-server

hosts=()
if bash ops/host-deps.sh && cargo build -p gamehost --bin yoo-gamehost; then
  hosts=(ops/gamehost-dev-*.toml)
else
  echo "!! the game hosts cannot run on this machine (see above): the site is served without them, and games will not start" >&2
fi

pids=()
stop() {
  trap - EXIT INT TERM
  # hosts first: they end their games and displays, then the platform
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[i]}" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop EXIT INT TERM

mkdir -p data
target/debug/yoo-server --config ops/dev.toml > >(tee data/yoo-server.log) 2>&1 &
server=$!
pids+=("$server")
for _ in $(seq 150); do
  grep -q "listening on" data/yoo-server.log 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { echo "yoo-server stopped" >&2; exit 1; }
  sleep 0.2
done

for f in "${hosts[@]}"; do
  name=$(basename "$f" .toml)
  echo "starting $name"
  target/debug/yoo-gamehost --config "$f" > "data/$name.log" 2>&1 &
  pids+=("$!")
done
[ ${#hosts[@]} -gt 0 ] && echo "game hosts: logs in data/gamehost-dev-*.log"

wait "$server"
