#!/usr/bin/env bash
# Runs the desktop binary under Xvfb and saves a screenshot of the screen once the window
# exists and has painted. Stops the app afterwards.
#
#   build/scripts/screenshot.sh [OUT.png] [ENGRAM_HOME]
#
# OUT defaults to build/smoke/desktop.png; ENGRAM_HOME defaults to a fresh temporary home.
# Prints the PNG path; writes the window title next to it (OUT.title) and the app log (OUT.log).
# Env: ENGRAM_BIN (default build/bin/engram), WAIT_SECONDS (default 30), MIN_COLOURS (default 50),
#      SCREEN (default 1280x800x24), CLICKS ("x,y x,y": clicks before the last frame).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"

if [ "${1:-}" = "--inner" ]; then
  # Runs inside xvfb-run: DISPLAY is set.
  shift
  out="$1" bin="$2" wait="$3" min="$4"
  log="${out%.png}.log"
  "$bin" >"$log" 2>&1 &
  app=$!
  trap 'kill "$app" 2>/dev/null || true; wait "$app" 2>/dev/null || true' EXIT
  deadline=$((SECONDS + wait))
  win=""
  while [ $SECONDS -lt $deadline ]; do
    if ! kill -0 "$app" 2>/dev/null; then
      echo "screenshot: the app exited early; log follows" >&2
      cat "$log" >&2
      exit 1
    fi
    # xdotool matches names case-insensitively: keep the window titled exactly "Engram".
    for w in $(xdotool search --name '^engram$' 2>/dev/null || true); do
      if [ "$(xdotool getwindowname "$w" 2>/dev/null)" = "Engram" ]; then win="$w"; break; fi
    done
    [ -n "$win" ] && break
    sleep 0.25
  done
  if [ -z "$win" ]; then
    echo "screenshot: no window named Engram within ${wait}s; log follows" >&2
    cat "$log" >&2
    exit 1
  fi
  xdotool getwindowname "$win" >"${out%.png}.title"
  # Poll until the web view has painted the UI (a blank window has a handful of colours).
  colours=0
  while [ $SECONDS -lt $deadline ]; do
    /usr/bin/import -window root "$out" 2>/dev/null || true
    if [ -s "$out" ]; then
      colours="$(identify -format '%k' "$out" 2>/dev/null || echo 0)"
      [ "$colours" -ge "$min" ] && break
    fi
    sleep 0.5
  done
  # One more frame once the first paint is there, so late content (the list) is in the picture.
  sleep 1
  # Optional clicks before the final frame, in screen coordinates: CLICKS="300,200 640,90".
  for c in ${CLICKS:-}; do
    xdotool mousemove "${c%,*}" "${c#*,}" click 1
    sleep 1
  done
  /usr/bin/import -window root "$out"
  exit 0
fi

out="${1:-$ROOT/build/smoke/desktop.png}"
home="${2:-}"
bin="${ENGRAM_BIN:-$ROOT/build/bin/engram}"
wait="${WAIT_SECONDS:-30}"
min="${MIN_COLOURS:-50}"
screen="${SCREEN:-1280x800x24}"
[ -x "$bin" ] || { echo "screenshot: $bin is missing; run 'make build'" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
rm -f "$out"
cleanup_home=""
if [ -z "$home" ]; then
  home="$(mktemp -d)"
  cleanup_home="$home"
fi
trap '[ -n "$cleanup_home" ] && rm -rf "$cleanup_home"' EXIT
ENGRAM_HOME="$home" xvfb-run -a -s "-screen 0 $screen" "$0" --inner "$out" "$bin" "$wait" "$min"
echo "$out"
