#!/usr/bin/env bash
# Rebuilds locales/<lang>.toml from the Go part and the UI part (frontend/locale-keys-needed.*).
set -euo pipefail
cd "$(dirname "$0")"
for lang in en zh-CN; do
  { cat go.$lang.part; echo; echo "# ---- UI ----"; cat ../frontend/locale-keys-needed.$lang.toml; } > $lang.toml
done
