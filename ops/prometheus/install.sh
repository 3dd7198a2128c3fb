#!/usr/bin/env bash
# Installs Debian's prometheus package (prometheus and promtool) where either is missing.
set -euo pipefail
command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1 && exit 0
echo "installing Prometheus from Debian's packages"
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=(sudo -n); else
    echo "cannot install prometheus: not root and no sudo without a password (apt-get install prometheus)" >&2
    exit 1
  fi
fi
"${SUDO[@]}" apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends prometheus >/dev/null
# The package's own service is not wanted: ops/prometheus/run.sh starts Prometheus itself.
if command -v service >/dev/null 2>&1; then "${SUDO[@]}" service prometheus stop >/dev/null 2>&1 || true; fi
