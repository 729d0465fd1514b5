#!/usr/bin/env bash
# Installs what building and testing Engram needs; each step is skipped when already done.
#   system packages (apt, only the missing ones), frontend node_modules (npm ci when missing or
#   older than package-lock.json), Go modules.
set -euo pipefail
cd "$(dirname "$0")/../.."

PKGS=(
  build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev # desktop build (cgo, GTK, WebKitGTK 4.1)
  xvfb xauth xdotool imagemagick python3                        # desktop smoke test under Xvfb (python3 holds locks)
  chromium                                                      # headless browser tests (playwright-core)
  fonts-wqy-microhei                                            # CJK glyphs for the Chinese UI
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Frontend packages: npm ci when node_modules is missing or older than the lock file.
stamp=frontend/node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ frontend/package-lock.json -nt "$stamp" ] || [ frontend/package.json -nt "$stamp" ]; then
  echo "deps: npm ci"
  (cd frontend && npm ci --no-audit --no-fund)
  touch "$stamp"
fi

go mod download
