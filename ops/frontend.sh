#!/usr/bin/env bash
# Installs the frontend's node modules when missing or stale, then runs one npm script
# (`--install`: only installs them).
set -euo pipefail
cd "$(dirname "$0")/../frontend"
stamp=node_modules/.lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  # npm ci refuses this lock: npm leaves the other platforms' optional buf binaries out of it.
  npm install --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
[ "${1:-}" = --install ] && exit 0
npm run "$@"
