#!/usr/bin/env bash
# Desktop start-up bench: under Xvfb, launches the real desktop binary on a fresh temporary
# home and, in the same run, a hello-world Wails window (build/hello, built with the same tags),
# alternating, RUNS times each. Reports per app the median time from exec to the window
# painted and the idle RSS after SETTLE seconds (VmRSS summed over the process tree: WebKit
# runs its web and network processes as children). Reports numbers; never fails on them.
#
#   build/scripts/bench-desktop.sh            (make bench runs it)
#
# "Painted": the page emits the Wails event engram:painted two animation frames after its
# first view rendered; the app writes the time to $ENGRAM_PAINT_MARK ("<Unix ns> app"). From its
# second start on, Engram's window first shows a copy of its first frame drawn without script
# (frontend/src/shell/loader.js) and reports it two frames after it was laid out
# ("<Unix ns> shell"): "painted" is the first line of the file, the window's first frame, and
# "app" the app's own first view, reported beside it. The hello-world writes a bare "<Unix ns>".
# Also reported: the CPU time the process tree had used when the paint was seen (user + system,
# 10 ms ticks; on a shared, loaded machine far steadier than the wall-clock time) and, per
# process, idle VmRSS / anonymous / file-backed MB.
# Env: ENGRAM_BIN (default build/bin/engram), HELLO_BIN (default build/bin/engram-hello, built
#      here when missing or older than build/hello), RUNS (default 3), SETTLE (default 5),
#      WAIT_SECONDS (default 60), SCREEN (default 1280x800x24), DESKTOP_TAGS.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"

# rss_tree PID: kB of VmRSS of PID and all its descendants.
rss_tree() {
  local pids=("$1") all=() p kids total=0 kb
  while [ ${#pids[@]} -gt 0 ]; do
    p="${pids[0]}"; pids=("${pids[@]:1}")
    all+=("$p")
    kids="$(ps -o pid= --ppid "$p" 2>/dev/null || true)"
    for k in $kids; do pids+=("$k"); done
  done
  for p in "${all[@]}"; do
    kb="$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || true)"
    total=$((total + ${kb:-0}))
  done
  echo "$total"
}

# tree_pids PID: PID and all its descendants.
tree_pids() {
  local pids=("$1") p kids
  while [ ${#pids[@]} -gt 0 ]; do
    p="${pids[0]}"; pids=("${pids[@]:1}")
    echo "$p"
    kids="$(ps -o pid= --ppid "$p" 2>/dev/null || true)"
    for k in $kids; do pids+=("$k"); done
  done
}

# cpu_tree PID: ms of CPU (user + system) used so far by PID and its descendants, and the
# share of each process ("name:ms").
cpu_tree() {
  local total=0 per="" p t
  for p in $(tree_pids "$1"); do
    t="$(awk '{print ($14 + $15) * 10}' "/proc/$p/stat" 2>/dev/null || true)"
    [ -n "$t" ] || continue
    total=$((total + t)); per="$per $(cat "/proc/$p/comm" 2>/dev/null):$t"
  done
  echo "$total$per"
}

# rss_detail PID: per process of the tree, "name VmRSS/anonymous/file MB".
rss_detail() {
  local p out=""
  for p in $(tree_pids "$1"); do
    out="$out, $(cat "/proc/$p/comm" 2>/dev/null) $(awk '/^Rss:/ {r=$2} /^Anonymous:/ {a=$2} END {printf "%d/%d/%d", r/1024, a/1024, (r-a)/1024}' "/proc/$p/smaps_rollup" 2>/dev/null)"
  done
  echo "${out#, }"
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2)}'; }

# app_ns MARK: the app's own paint in a mark file: a line marked app, or the hello-world's bare one.
app_ns() { awk 'NF == 1 || $2 == "app" {print $1; exit}' "$1" 2>/dev/null; }

# launch NAME BIN LABEL: one start of BIN on a fresh home; prints "first-frame-kind painted rss
# cpu app" (nothing when it did not paint) and a line for people on stderr.
launch() {
  local name="$1" bin="$2" label="$3" home mark t0 pid deadline cpu cpus painted app first rss
  home="$(mktemp -d)"
  mark="$home.painted"
  t0="$(date +%s%N)"
  ENGRAM_HOME="$home" ENGRAM_PAINT_MARK="$mark" "$bin" >"$home.log" 2>&1 &
  pid=$!
  deadline=$((SECONDS + wait))
  while [ -z "$(app_ns "$mark")" ] && [ $SECONDS -lt $deadline ] && kill -0 "$pid" 2>/dev/null; do sleep 0.02; done
  if [ -n "$(app_ns "$mark")" ]; then
    read -r cpu cpus <<<"$(cpu_tree "$pid")"
    painted=$(( ($(head -1 "$mark" | cut -d' ' -f1) - t0) / 1000000 ))
    app=$(( ($(app_ns "$mark") - t0) / 1000000 ))
    first="$(head -1 "$mark" | awk '{print ($2 == "" ? "app" : $2)}')"
    sleep "$settle"
    rss=$(( $(rss_tree "$pid") / 1024 ))
    echo "$first $painted $rss $cpu $app"
    echo "bench desktop: $label $name: painted ${painted} ms (first frame: $first; the app's view ${app} ms; CPU until the app's ${cpu} ms:${cpus}), idle RSS ${rss} MB ($(rss_detail "$pid"))" >&2
  else
    echo "bench desktop: $label $name: no paint within ${wait}s; log:" >&2
    cat "$home.log" >&2
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$home" "$mark" "$home.log"
}

if [ "${1:-}" = "--inner" ]; then
  shift
  engram="$1" hello="$2" runs="$3" settle="$4" wait="$5" out="$6"
  # Launches first, not counted, as on any start after the first: the binaries' pages in the
  # page cache for both, and Engram's copy of its first frame kept for this build (on a fresh
  # web profile the first start's copy is dropped once it saves the language, so it takes two).
  launch hello "$hello" "warm-up (not counted)" >/dev/null
  for w in 1 2 3; do
    r="$(launch engram "$engram" "warm-up $w (not counted)")"
    [ "${r%% *}" = shell ] && break
  done
  for i in $(seq 1 "$runs"); do
    for name in hello engram; do
      bin="$hello"; [ "$name" = engram ] && bin="$engram"
      r="$(launch "$name" "$bin" "run $i")"
      [ -n "$r" ] && echo "$name ${r#* }" >>"$out" && echo "$name-first ${r%% *}" >>"$out"
    done
  done
  exit 0
fi

ENGRAM="${ENGRAM_BIN:-$ROOT/build/bin/engram}"
HELLO="${HELLO_BIN:-$ROOT/build/bin/engram-hello}"
TAGS="${DESKTOP_TAGS:-desktop,production,webkit2_41}"
[ -x "$ENGRAM" ] || { echo "bench desktop: $ENGRAM is missing; run make build" >&2; exit 1; }
if [ -z "${HELLO_BIN:-}" ] && { [ ! -x "$HELLO" ] || [ -n "$(find build/hello -newer "$HELLO" -print -quit)" ]; }; then
  CGO_ENABLED=1 "${GO:-go}" build -tags "$TAGS" -o "$HELLO" ./build/hello
fi
out="$(mktemp)"
# The web views' storage (the copy of Engram's first frame among it) in a profile of this run's
# own: the person's is neither read nor overwritten.
profile="$(mktemp -d)"
trap 'rm -rf "$out" "$profile"' EXIT
load0="$(cut -d' ' -f1-3 /proc/loadavg)"
XDG_DATA_HOME="$profile" xvfb-run -a -s "-screen 0 ${SCREEN:-1280x800x24}" "$0" --inner "$ENGRAM" "$HELLO" "${RUNS:-3}" "${SETTLE:-5}" "${WAIT_SECONDS:-60}" "$out"

hp="$(awk '$1=="hello" {print $2}' "$out" | median)"; hr="$(awk '$1=="hello" {print $3}' "$out" | median)"
ep="$(awk '$1=="engram" {print $2}' "$out" | median)"; er="$(awk '$1=="engram" {print $3}' "$out" | median)"
hc="$(awk '$1=="hello" {print $4}' "$out" | median)"; ec="$(awk '$1=="engram" {print $4}' "$out" | median)"
ha="$(awk '$1=="hello" {print $5}' "$out" | median)"; ea="$(awk '$1=="engram" {print $5}' "$out" | median)"
echo "bench desktop: load average $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after"

echo "bench desktop: hello-world window  painted ${hp} ms (its view ${ha} ms, CPU ${hc} ms), idle RSS ${hr} MB (median of ${RUNS:-3})"
copies="$(awk '$1=="engram-first" && $2=="shell"' "$out" | wc -l)"; counted="$(awk '$1=="engram-first"' "$out" | wc -l)"
echo "bench desktop: engram's first frame was the copy of its view in $copies of $counted runs"
echo "bench desktop: engram window       painted ${ep} ms (its view ${ea} ms, CPU ${ec} ms), idle RSS ${er} MB (median of ${RUNS:-3})"
if [ "$hp" != "-" ] && [ "$ep" != "-" ] && [ "$hp" -gt 0 ]; then
  awk -v e="$ep" -v h="$hp" -v ea="$ea" -v er="$er" -v hr="$hr" -v ec="$ec" -v hc="$hc" 'BEGIN {
    printf "bench desktop: painted %.2f x hello-world (goal <= 1.30; the app\047s own view %.2f x; CPU until it %.2f x), RSS hello-world %+d MB (goal <= +30)\n", e/h, ea/h, (hc > 0 ? ec/hc : 0), er-hr }'
fi
