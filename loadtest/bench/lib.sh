# Shell helpers the benchmarks source: the time in ms, a bounded wait, a free loopback port, and
# the p50/max of a list of figures.
ms() { date +%s%3N; }
# until CMD succeeds, at most 20 s; fails otherwise
until_ok() {
  local end=$(($(ms) + 20000))
  until "$@" >/dev/null 2>&1; do
    [ "$(ms)" -lt "$end" ] || { echo "gave up waiting for: $*" >&2; return 1; }
    sleep 0.02
  done
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "p50 %d ms, max %d ms", v[int((NR + 1) / 2)], v[NR] }'; }
