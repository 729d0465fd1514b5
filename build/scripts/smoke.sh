#!/usr/bin/env bash
# Desktop smoke test: the real binary under Xvfb on a temporary home seeded through the CLI.
# Passes when a window titled "Engram" appears and its screenshot is not blank (many colours).
# No fixed timings are asserted: every wait polls up to a generous deadline.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"

BIN="${ENGRAM_BIN:-build/bin/engram}"
CLI="${ENGRAM_CLI:-build/bin/engram-cli}"
MIN_COLOURS="${MIN_COLOURS:-50}"
[ -x "$BIN" ] && [ -x "$CLI" ] || make -s build cli

home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT

echo "smoke: seeding $home"
ENGRAM_HOME="$home" "$CLI" write --scope global --type user --slug smoke-test \
  --title "Smoke test" --body "hello"

shot="build/smoke/desktop.png"
ENGRAM_BIN="$BIN" MIN_COLOURS="$MIN_COLOURS" build/scripts/screenshot.sh "$shot" "$home" >/dev/null

title="$(cat "${shot%.png}.title")"
colours="$(identify -format '%k' "$shot")"
size="$(identify -format '%wx%h' "$shot")"
echo "smoke: window title \"$title\", screenshot $size with $colours colours"
echo "smoke: screenshot $ROOT/$shot"
fail=0
if [ "$title" != "Engram" ]; then
  echo "smoke: FAIL: expected the window title \"Engram\"" >&2
  fail=1
fi
if [ "$colours" -lt "$MIN_COLOURS" ]; then
  echo "smoke: FAIL: the screenshot looks blank ($colours colours, want >= $MIN_COLOURS); app log:" >&2
  cat "${shot%.png}.log" >&2
  fail=1
fi
exit $fail
