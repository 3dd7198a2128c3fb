#!/usr/bin/env bash
# Installs the Debian packages the game host needs (virtual displays, GStreamer and the headers
# its Rust bindings build against, the games, CJK fonts) where they are missing. Exits 0 when
# they are all there, 1 (after saying why) when they could not be installed: `make run` then
# serves the site without game hosts, `make test` stops.
set -uo pipefail

PACKAGES=(
  xvfb
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-ugly gstreamer1.0-x
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  neverball supertux ltris
  fonts-noto-cjk
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing the game host's packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "cannot install them: not root and no sudo without a password (install them with apt-get)" >&2
    exit 1
  fi
else
  SUDO=()
fi
if ! "${SUDO[@]}" apt-get update -qq >/dev/null 2>&1; then
  echo "apt-get update failed: the game host's packages cannot be installed" >&2
  exit 1
fi
if ! DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
  echo "apt-get install failed for: ${missing[*]}" >&2
  exit 1
fi
exit 0
