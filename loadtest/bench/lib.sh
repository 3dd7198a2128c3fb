# Shell helpers the benchmarks source: the time in ms, a bounded wait, a free loopback port, and
# the p50/max of a list of figures.
ms() { date +%s%3N; }
# until CMD succeeds, at most UNTIL_MS (default 20 s); fails otherwise
until_ok() {
  local end=$(($(ms) + ${UNTIL_MS:-20000}))
  until "$@" >/dev/null 2>&1; do
    [ "$(ms)" -lt "$end" ] || { echo "gave up waiting for: $*" >&2; return 1; }
    sleep 0.02
  done
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "p50 %d ms, max %d ms", v[int((NR + 1) / 2)], v[NR] }'; }
# cluster_toml FILE PORT DATA_DIR DATABASE REDIS_PORT PROCESS: a dev-mode cluster process's
# configuration (node 1 with the static machine m1, no security check in front of codes, the
# shared PostgreSQL database and Redis)
cluster_toml() {
  cat >"$1" <<TOML
mode = "dev"
bind = "127.0.0.1:$2"
data_dir = "$3"
frontend_dir = "/nonexistent"
workers = 1
[sms]
captcha_phone_per_hour = 0
captcha_ip_per_hour = 0
ip_per_hour = 1000000
global_per_minute = 1000000
[game]
connect_delay_ms = 50
[[nodes]]
id = 1
name = "压测一区"
status = 1
machines = ["m1"]
[storage]
kind = "postgres"
url = "postgres://postgres@127.0.0.1:5432/$4"
pool_size = 4
[cluster]
redis_url = "redis://127.0.0.1:$5/0"
process_id = "$6"
TOML
}
