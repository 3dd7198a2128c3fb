#!/usr/bin/env bash
# Installs the frontend's node modules when missing or stale, then runs one npm script.
set -euo pipefail
cd "$(dirname "$0")/../frontend"
stamp=node_modules/.lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
npm run "$@"
