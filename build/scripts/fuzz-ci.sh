#!/usr/bin/env bash
# `make fuzz-ci` (run by `make test`): each CI fuzz target — one per parser of outside input —
# for FUZZ_CI_TIME (10s), printing its executions. The targets live in light packages (no
# SQLite, no LLM SDKs: see README "Fuzzing"), so their coverage-instrumented test binaries build
# in seconds on a cold cache. Each package's binary is built once (go test -c -fuzz) and run
# per target in the package's folder, as go test would. A crasher is written by Go under the
# package's testdata/fuzz/<Target>/; plain `go test` then replays it as a regression test, so it
# is kept by committing it. Budget: FUZZ_CI_BUDGET seconds (120) for the whole stage; when the
# builds ate into it, the remaining targets get an equal share of what is left (never less than
# FUZZ_CI_MIN, 2s) and the line says so. Exit status: non-zero when a target failed or a build did.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
GO="${GO:-go}"
TIME="${FUZZ_CI_TIME:-10}"
BUDGET="${FUZZ_CI_BUDGET:-120}"
MIN="${FUZZ_CI_MIN:-2}"
# package target — the parsers of outside input (DESIGN, issue 15 item 6).
TARGETS=(
  "./backend/memory/format FuzzFile"             # memory files' frontmatter (memory.Parse)
  "./backend/importer FuzzMem0"                  # mem0 export (JSON)
  "./backend/importer FuzzChatGPT"               # ChatGPT memory export
  "./backend/importer FuzzClaudeMarkdown"        # Claude Code CLAUDE.md / MEMORY.md
  "./backend/importer FuzzObsidianNote"          # basic-memory / Obsidian note
  "./backend/bridge/jsonrpc FuzzMessage"         # JSON-RPC messages from the websocket
  "./backend/transcript FuzzTranscript"          # Claude Code transcript (hook)
)
start=$(date +%s)
bins="$(mktemp -d)"
trap 'rm -rf "$bins"' EXIT
cache="$($GO env GOCACHE)/fuzz"
status=0
declare -A built
for t in "${TARGETS[@]}"; do
  pkg=${t% *}
  [ -n "${built[$pkg]:-}" ] && continue
  b0=$(date +%s)
  # -fuzz makes go test -c instrument the binary; the name only has to match a target.
  if ! $GO test -c -fuzz "^${t#* }\$" -o "$bins/$(echo "$pkg" | tr '/.' '__').test" "$pkg"; then
    echo "fuzz-ci: FAIL build $pkg"
    status=1
    built[$pkg]=failed
    continue
  fi
  built[$pkg]=ok
  echo "fuzz-ci: built $pkg in $(( $(date +%s) - b0 ))s"
done
left=${#TARGETS[@]}
for t in "${TARGETS[@]}"; do
  pkg=${t% *}
  name=${t#* }
  [ "${built[$pkg]}" = ok ] || { left=$((left - 1)); continue; }
  spent=$(( $(date +%s) - start ))
  share=$(( (BUDGET - spent) / left ))
  secs=$TIME
  [ "$share" -lt "$secs" ] && secs=$share
  [ "$secs" -lt "$MIN" ] && secs=$MIN
  note=""
  [ "$secs" -lt "$TIME" ] && note=" (cut from ${TIME}s to stay within ${BUDGET}s)"
  out="$(mktemp)"
  importpath="$($GO list "$pkg")"
  bin="$bins/$(echo "$pkg" | tr '/.' '__').test"
  inputs() { ls "$pkg/testdata/fuzz/$name" 2>/dev/null | wc -l; }
  before=$(inputs)
  (cd "$pkg" && "$bin" -test.run '^$' -test.fuzz "^${name}\$" \
    -test.fuzztime "${secs}s" -test.fuzzcachedir "$cache/$importpath" >"$out" 2>&1)
  rc=$?
  execs="$(grep -oE 'execs: [0-9]+' "$out" | tail -1 | grep -oE '[0-9]+')"
  # Go 1.26's fuzzing coordinator can report its own -fuzztime deadline as the target's failure
  # ("context deadline exceeded", no failing input written) when a loaded machine keeps a worker
  # from stopping in time (go.dev/issue/75804, fixed in Go 1.27). Only that exact case is run
  # again, by execution count, which has no deadline to race: as many executions as the timed
  # run reached, within a wall-clock guard that still fails a slow or hanging input.
  if [ "$rc" -ne 0 ] && [ "$(inputs)" -eq "$before" ] && grep -qE '^[[:space:]]*context deadline exceeded$' "$out" &&
    ! grep -qE 'panic:|Failing input written|minimizing' "$out"; then
    count=$(( ${execs:-0} > 200 ? ${execs:-0} : 200 ))
    guard=$(( secs * 6 + 30 ))
    (cd "$pkg" && timeout "$guard" "$bin" -test.run '^$' -test.fuzz "^${name}\$" \
      -test.fuzztime "${count}x" -test.fuzzcachedir "$cache/$importpath" >"$out" 2>&1)
    rc=$?
    [ "$rc" -eq 0 ] && note="$note (the timed run hit Go's fuzztime race, go.dev/issue/75804; run again for ${count} executions)"
    [ "$rc" -eq 124 ] && echo "    ${count} executions did not finish within ${guard}s: a slow or hanging input" >>"$out"
    execs="$(grep -oE 'execs: [0-9]+' "$out" | tail -1 | grep -oE '[0-9]+')"
  fi
  if [ "$rc" -eq 0 ]; then
    echo "fuzz-ci: ok   $name ($pkg) ${secs}s, ${execs:-0} execs${note}"
  else
    status=1
    echo "fuzz-ci: FAIL $name ($pkg) after ${secs}s, ${execs:-0} execs${note}"
    sed 's/^/    /' "$out" | tail -40
    echo "    (the failing input is under $pkg/testdata/fuzz/$name/: commit it, plain go test replays it)"
  fi
  rm -f "$out"
  left=$((left - 1))
done
echo "fuzz-ci: ${#TARGETS[@]} targets in $(( $(date +%s) - start ))s (budget ${BUDGET}s)"
exit $status
