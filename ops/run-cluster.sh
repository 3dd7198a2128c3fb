#!/usr/bin/env bash
# The platform as a cluster on this machine (../shared/CLUSTER.md): a redis-server of its own on
# a free port, a fresh PostgreSQL database, three yoo-server processes (ops/dev.toml with
# [storage] on that database and [cluster] on that Redis), HAProxy in front on
# http://127.0.0.1:8080 (HTTP and WebSocket, round robin, no sticky sessions) and the dev game
# hosts (linked through the front door to whichever process owns their node). Installs redis,
# HAProxy and PostgreSQL where missing. Logs under data/cluster/; Ctrl-C stops them all.
set -euo pipefail
cd "$(dirname "$0")/.."
PROCESSES=${PROCESSES:-3}
bash ops/frontend.sh build
cargo build -p facade --bin yoo-server
bash ops/redis.sh >/dev/null
bash ops/postgres.sh >/dev/null
if ! command -v haproxy >/dev/null 2>&1; then
  echo "installing HAProxy"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
fi
hosts=()
if bash ops/host-deps.sh >/dev/null && cargo build -p gamehost --bin yoo-gamehost; then
  hosts=(ops/gamehost-dev-*.toml)
else
  echo "!! the game hosts cannot run on this machine (see above): the site is served without them" >&2
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
dir=data/cluster
rm -rf "$dir"
mkdir -p "$dir"
db="yoo_cluster_$(date +%Y%m%d%H%M%S)"
psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $db" postgres
pg_url="postgres://postgres@127.0.0.1:5432/$db"

pids=()
stop() {
  trap - EXIT INT TERM
  # hosts first (they end their games), then the front door, the processes, Redis
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[i]}" 2>/dev/null || true; done
  wait 2>/dev/null || true
  echo "stopped; the database $db is kept (drop it with: psql -h 127.0.0.1 -U postgres -c 'DROP DATABASE $db' postgres)"
}
trap stop EXIT INT TERM

redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no > "$dir/redis.log" 2>&1 &
pids+=("$!")
for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done

backends=""
for i in $(seq "$PROCESSES"); do
  port=$(free_port)
  # ops/dev.toml with this process's address, data directory, the front door as a trusted
  # proxy, the shared store and the cluster
  sed -e "s|^bind = .*|bind = \"127.0.0.1:$port\"|" \
      -e "s|^data_dir = .*|data_dir = \"$dir/p$i\"|" \
      -e "s|^trusted_proxies = .*|trusted_proxies = [\"127.0.0.1\"]|" \
      ops/dev.toml > "$dir/p$i.toml"
  cat >> "$dir/p$i.toml" <<TOML

[storage]
kind = "postgres"
url = "$pg_url"
pool_size = 8

[cluster]
redis_url = "redis://127.0.0.1:$redis_port/0"
process_id = "p$i"
TOML
  target/debug/yoo-server --config "$dir/p$i.toml" > "$dir/p$i.log" 2>&1 &
  pids+=("$!")
  for _ in $(seq 150); do
    grep -q "listening on" "$dir/p$i.log" 2>/dev/null && break
    kill -0 "${pids[-1]}" 2>/dev/null || { echo "yoo-server p$i stopped: see $dir/p$i.log" >&2; exit 1; }
    sleep 0.2
  done
  backends+="    server p$i 127.0.0.1:$port check inter 1s fall 2 rise 1"$'\n'
done

cat > "$dir/haproxy.cfg" <<CFG
global
    # a process here may hold 20,000 files: a connection through HAProxy holds two
    maxconn 9000
defaults
    mode http
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    timeout tunnel 1h
    retries 3
    option redispatch
frontend site
    bind 127.0.0.1:8080
    option forwardfor
    default_backend processes
backend processes
    balance roundrobin
    option httpchk GET /healthz
$backends
CFG
haproxy -f "$dir/haproxy.cfg" -db > "$dir/haproxy.log" 2>&1 &
pids+=("$!")
up=
for _ in $(seq 100); do
  curl -sf http://127.0.0.1:8080/healthz >/dev/null 2>&1 && { up=1; break; }
  sleep 0.1
done
[ -n "$up" ] || { echo "HAProxy did not start on 127.0.0.1:8080 (is the port taken?):" >&2; cat "$dir/haproxy.log" >&2; exit 1; }

for f in "${hosts[@]}"; do
  name=$(basename "$f" .toml)
  target/debug/yoo-gamehost --config "$f" > "$dir/$name.log" 2>&1 &
  pids+=("$!")
done

echo "the cluster: http://127.0.0.1:8080 (HAProxy) → $PROCESSES processes; Redis on 127.0.0.1:$redis_port; PostgreSQL database $db"
echo "logs: $dir/p*.log (processes), $dir/haproxy.log, $dir/redis.log, $dir/gamehost-dev-*.log"
echo "Ctrl-C stops them all"
wait
