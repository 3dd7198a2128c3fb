#!/usr/bin/env bash
# Makes sure the PostgreSQL the tests use answers: `$YOO_TEST_POSTGRES`, by default the
# machine's on 127.0.0.1:5432 (user postgres, trust on the loopback). Where none runs there,
# installs Debian's postgresql if it is missing, lets the loopback in with trust, and starts it.
# The tests create and drop a database each (storage::testing::FreshPostgres).
set -euo pipefail
if [ -n "${YOO_TEST_POSTGRES:-}" ]; then
  echo "the tests use \$YOO_TEST_POSTGRES"
  exit 0
fi
up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
if up; then
  echo "PostgreSQL answers on 127.0.0.1:5432"
  exit 0
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "installing PostgreSQL"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /etc/postgresql | sort -V | tail -1)
hba=/etc/postgresql/$version/main/pg_hba.conf
if ! grep -q '^host all all 127.0.0.1/32 trust' "$hba"; then
  sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
fi
pg_ctlcluster "$version" main start 2>/dev/null || pg_ctlcluster "$version" main reload
for _ in $(seq 100); do
  if up; then
    echo "PostgreSQL $version started on 127.0.0.1:5432"
    exit 0
  fi
  sleep 0.2
done
echo "PostgreSQL did not come up on 127.0.0.1:5432" >&2
exit 1
