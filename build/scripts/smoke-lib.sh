# Helpers of the desktop smoke test (sourced by smoke.sh; run inside xvfb-run). Every wait polls
# up to a deadline; nothing asserts a timing.
#
# The page is observed through the app's test probe (ENGRAM_SMOKE_PROBE, backend/desktop/
# probe.go): WebKitGTK under Xvfb has no automation protocol, so page_eval drops a script in
# the probe folder, the app runs it in the window and writes back what it returned.

FAILED=0
APP_PID="" WIN=""

# check DESC CMD...: runs CMD, prints ok/FAIL, remembers failures in FAILED.
check() {
  local desc="$1"; shift
  if "$@" >/dev/null 2>&1; then echo "smoke: ok: $desc"; else echo "smoke: FAIL: $desc" >&2; FAILED=1; fi
}

# wait_for SECONDS CMD...: polls CMD until it succeeds or SECONDS pass.
wait_for() {
  local deadline=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 0.2
  done
}

# count_windows: how many windows are titled exactly "Engram" (xdotool matches loosely).
count_windows() {
  local n=0 w
  for w in $(xdotool search --name '^engram$' 2>/dev/null || true); do
    [ "$(xdotool getwindowname "$w" 2>/dev/null)" = "Engram" ] && n=$((n + 1))
  done
  echo "$n"
}

# window_of PID: the Engram window of that process (--all: xdotool's default matches windows
# meeting either condition, any Engram window).
window_of() {
  local w
  for w in $(xdotool search --all --pid "$1" --name '^engram$' 2>/dev/null || true); do
    [ "$(xdotool getwindowname "$w" 2>/dev/null)" = "Engram" ] && { echo "$w"; return 0; }
  done
  return 1
}

# start_app HOME NAME: launches the app on HOME (log HOME.NAME.log), waits for its window and
# for the page to answer the probe. Sets APP_PID and WIN. MARK, when set, is the paint mark file
# (ENGRAM_PAINT_MARK).
start_app() {
  local home="$1" name="$2"
  PROBE="$home.probe"
  mkdir -p "$PROBE"
  rm -f "$PROBE/out" "$PROBE/cmd.js"
  ENGRAM_HOME="$home" ENGRAM_SMOKE_PROBE="$PROBE" ENGRAM_PAINT_MARK="${MARK:-}" "$BIN" >"$home.$name.log" 2>&1 &
  APP_PID=$!
  if ! wait_for "${WAIT_SECONDS:-60}" window_of "$APP_PID"; then
    echo "smoke: FAIL: no window for $name; log:" >&2
    cat "$home.$name.log" >&2
    FAILED=1
    return 1
  fi
  WIN="$(window_of "$APP_PID")"
  # The page answers once it has loaded.
  wait_for "${WAIT_SECONDS:-60}" page_eval "return document.readyState === 'complete' ? 'ok' : ''" || true
}

# stop_app PID: ends the app and waits for it.
stop_app() {
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# page_eval JS: runs the body of an async function in the current app's page; prints what it
# returned and succeeds when that is non-empty and not an error.
page_eval() {
  local deadline=$((SECONDS + 20)) out
  rm -f "$PROBE/out"
  printf '%s' "$1" >"$PROBE/cmd.js.tmp" && mv "$PROBE/cmd.js.tmp" "$PROBE/cmd.js"
  while [ ! -e "$PROBE/out" ]; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 0.1
  done
  out="$(cat "$PROBE/out")"
  rm -f "$PROBE/out"
  echo "$out"
  [ -n "$out" ] && [ "${out#error:}" = "$out" ]
}

# state_is SELECTOR_TEST [STATE]: the element [data-test=…] exists (and has data-state STATE).
state_is() {
  local got
  got="$(page_eval "const e = document.querySelector('[data-test=\"$1\"]'); return e ? (e.dataset.state || 'present') : 'absent'")" || return 1
  [ "$got" = "${2:-present}" ] || { [ -z "${2:-}" ] && [ "$got" != absent ]; }
}

# open_view VIEW TEST [STATE]: clicks the nav item data-test="nav-VIEW" once it is on the page
# (a loaded document may not have mounted the shell yet: on a loaded machine the first check
# after start_app found no nav item), then waits until the element data-test=TEST is on the page
# (with data-state STATE when given).
open_view() {
  local view="$1" test="$2" state="${3:-}"
  check "nav-$view clicked" wait_for "${WAIT_SECONDS:-60}" page_eval "const b = document.querySelector('[data-test=\"nav-$view\"]'); if (!b) return ''; b.click(); return 'ok'"
  check "view $view shows $test${state:+ ($state)}" wait_for "${WAIT_SECONDS:-60}" state_is "$test" "$state"
}

# geometry_is WIN X Y W H: the window is at X,Y with size W×H.
geometry_is() {
  local X Y WIDTH HEIGHT
  eval "$(xdotool getwindowgeometry --shell "$1" 2>/dev/null | grep -E '^(X|Y|WIDTH|HEIGHT)=')"
  [ "${X:-}" = "$2" ] && [ "${Y:-}" = "$3" ] && [ "${WIDTH:-}" = "$4" ] && [ "${HEIGHT:-}" = "$5" ]
}

# not CMD...: succeeds when CMD fails (for wait_for).
not() { ! "$@"; }

# hold_file FILE MARK: holds FILE's flock (as another Engram process holds the store's lock)
# until killed; MARK is created once it is held.
hold_file() {
  exec python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(3600)' "$1" "$2"
}

# hold_index DB MARK: holds the SQLite index DB exclusively (no other connection reads or
# writes it) until killed; MARK is created once it is held.
hold_index() {
  exec python3 -c 'import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA locking_mode=EXCLUSIVE")
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(3600)' "$1" "$2"
}
