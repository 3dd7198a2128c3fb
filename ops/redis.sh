#!/usr/bin/env bash
# Makes sure `redis-server` is installed (Debian's redis-server where it is missing): the tests
# that need a Redis start their own on a free port (cluster::testing::RedisServer), keeping
# nothing on disk, and stop it when they end. `make run-cluster` starts one the same way.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
  echo "redis-server: $(command -v redis-server) ($(redis-server --version | sed -n 's/.* v=\([^ ]*\).*/\1/p'))"
  exit 0
fi
echo "installing redis-server (Debian)"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
command -v redis-server >/dev/null
