#!/usr/bin/env bash
# Desktop start-up, finer than bench-desktop.sh for an A/B of two builds: launches each binary
# in turn on a fresh home under Xvfb, RUNS times, and prints per launch when the page's
# navigation started (performance.timeOrigin, read through the smoke probe) and when it
# painted, both in ms after exec, and the CPU ms the Go process and WebKit's web process had
# used at the paint; then the medians per binary. Reports numbers; never fails on them.
#
#   build/scripts/desktop-nav.sh /tmp/base/build/bin/engram build/bin/engram
#
# Env: RUNS (default 8), SCREEN (default 1280x800x24).
set -euo pipefail
if [ "${1:-}" = "--inner" ]; then
  shift
  runs="$1"; shift
  for _ in $(seq 1 "$runs"); do
    for bin in "$@"; do
      home="$(mktemp -d)"; probe="$(mktemp -d)"; mark="$home.painted"
      t0="$(date +%s%N)"
      ENGRAM_HOME="$home" ENGRAM_PAINT_MARK="$mark" ENGRAM_SMOKE_PROBE="$probe" "$bin" >"$home.log" 2>&1 &
      pid=$!
      deadline=$((SECONDS + 60))
      while [ ! -s "$mark" ] && [ $SECONDS -lt $deadline ] && kill -0 "$pid" 2>/dev/null; do sleep 0.01; done
      if [ -s "$mark" ]; then
        go="$(awk '{print ($14 + $15) * 10}' "/proc/$pid/stat")" web=0
        for k in $(ps -o pid= --ppid "$pid"); do
          [ "$(cat "/proc/$k/comm" 2>/dev/null)" = WebKitWebProces ] && web="$(awk '{print ($14 + $15) * 10}' "/proc/$k/stat")"
        done
        echo 'return performance.timeOrigin' >"$probe/cmd.js"
        for _ in $(seq 1 200); do [ -s "$probe/out" ] && break; sleep 0.05; done
        nav="$(awk -v o="$(cat "$probe/out" 2>/dev/null || echo 0)" -v t="$t0" 'BEGIN {printf "%d", o - t / 1e6}')"
        echo "$bin nav $nav painted $(( ($(head -1 "$mark" | cut -d" " -f1) - t0) / 1000000 )) go $go web $web"
      else
        echo "desktop-nav: $bin did not paint; log:" >&2
        cat "$home.log" >&2
      fi
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      rm -rf "$home" "$probe" "$mark" "$home.log"
    done
  done
  exit 0
fi
[ $# -gt 0 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
load0="$(cut -d' ' -f1-3 /proc/loadavg)"
xvfb-run -a -s "-screen 0 ${SCREEN:-1280x800x24}" "$0" --inner "${RUNS:-8}" "$@" | tee "$out"
echo "desktop-nav: load average $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after"
for bin in "$@"; do
  printf 'desktop-nav: %s medians:' "$bin"
  for f in nav painted go web; do
    printf ' %s %s' "$f" "$(awk -v b="$bin" -v f="$f" '$1 == b { for (i = 2; i < NF; i++) if ($i == f) print $(i + 1) }' "$out" |
      sort -n | awk '{a[NR] = $1} END {if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else print int((a[NR / 2] + a[NR / 2 + 1]) / 2)}')"
  done
  echo
done
