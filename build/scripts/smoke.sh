#!/usr/bin/env bash
# Desktop smoke test: the real binary under Xvfb on a temporary home seeded through the CLI.
# Passes when a window titled "Engram" appears and its screenshot is not blank (many colours).
# No fixed timings are asserted: every wait polls up to a generous deadline.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# shellcheck source=build/scripts/smoke-lib.sh
. build/scripts/smoke-lib.sh

if [ "${1:-}" = "--window" ]; then
  # The window checks, inside xvfb-run (DISPLAY set): one instance per home, geometry restore,
  # views opened from the navigation. Add a view: one open_view line below.
  shift
  BIN="$1" home="$2" other="$3"
  holder=""
  trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null || true' EXIT
  start_app "$home" first
  echo "smoke: window $WIN (pid $APP_PID)"

  # Views, by their nav item, waiting on what the page exposes (data-test / data-state):
  # open_view VIEW TEST [STATE] clicks data-test="nav-VIEW" and waits for data-test=TEST.
  # WebKitGTK's fonts are wider than headless Chromium's: the labels are checked in the window.
  check "every navigation label is whole" wait_for 30 page_eval "const l = [...document.querySelectorAll('.sider .nav-label')]; return l.length && l.every((e) => e.scrollWidth <= e.clientWidth + 1) ? 'ok' : ''"
  open_view review review-view
  open_view journal journal-view ready
  before="$FAILED"; FAILED=0
  open_view graph graph-canvas ready
  renderer="$(page_eval "return document.querySelector('[data-test=\"graph-canvas\"]').dataset.renderer || ''")" || true
  echo "smoke: the graph is drawn by ${renderer:-nothing}"
  check "the graph has a renderer" [ -n "$renderer" ]
  check "the window shows the graph's nodes (drawn by $renderer)" graph_shown
  # What a failed graph check saw, for a CI log read from afar.
  [ "$FAILED" = 0 ] || graph_diag >&2
  [ "$before" = 0 ] || FAILED=1
  open_view usage usage-view empty
  open_view agents agents-view ready
  open_view organizer organizer-view
  open_view activity activity-view

  # The window has no Back button: Alt+← returns to the view before (the nav store's history).
  xdotool windowfocus "$WIN" 2>/dev/null || true
  xdotool key alt+Left
  check "Alt+← went back to the organizer" wait_for 30 state_is organizer-view
  # Scrollbars are the page's own (base.css), painted with their element: GTK's overlay bars
  # take no width and were drawn above the page, through every dialog over the list.
  check "scrollbars are drawn by the page" page_eval "const d = document.createElement('div'); d.style.cssText = 'position:fixed;left:0;top:0;width:100px;height:40px;overflow:scroll'; document.body.appendChild(d); const w = d.offsetWidth - d.clientWidth; d.remove(); return w === 10 ? 'ok' : ''"

  # A second launch on the same home brings the first window forward and exits 0.
  set +e
  second="$(ENGRAM_HOME="$home" timeout 60 "$BIN" 2>&1)"; rc=$?
  set -e
  check "second launch exits 0 (got $rc: $second)" [ "$rc" = 0 ]
  check "second launch names the home" grep -qF "$home" <<<"$second"
  check "first window still running" kill -0 "$APP_PID"
  check "one Engram window" [ "$(count_windows)" = 1 ]
  check "first window asked to come forward" wait_for 30 grep -q "come forward" "$home.first.log"

  # A different home opens its own window.
  first_pid="$APP_PID" first_win="$WIN"
  start_app "$other" other
  check "a second home opens a second window" [ "$(count_windows)" = 2 ]
  # The window keeps a copy of its first frame for the next start (frontend/src/util/shell.ts;
  # the first start on a fresh profile may drop its copy: the language it saved changed it).
  check "the window kept a copy of its first frame" wait_for 30 page_eval "return localStorage.getItem('engram.shell') ? 'ok' : ''"
  stop_app "$APP_PID"
  APP_PID="$first_pid" WIN="$first_win" PROBE="$home.probe"

  # Size and position are saved on move/resize and restored at the next start.
  xdotool windowsize "$WIN" 1000 640
  xdotool windowmove "$WIN" 123 77
  check "geometry saved" wait_for 30 grep -q '"x":123,"y":77,"width":1000,"height":640' "$home/window.json"
  stop_app "$APP_PID"
  MARK="$home.painted" start_app "$home" again
  check "geometry restored" wait_for 30 geometry_is "$WIN" 123 77 1000 640
  # The next start shows that copy first, then the app (src/shell/loader.js).
  check "the app painted" wait_for 30 grep -q ' app$' "$home.painted"
  check "the copy painted before the app ($(tr '\n' ' ' <"$home.painted"))" [ "$(awk '{print $2}' "$home.painted" | tr '\n' ' ')" = "shell app " ]
  check "the app replaced the copy" page_eval "return document.querySelector('#app [inert]') || !document.querySelector('[data-test=\"list-scroll\"]') ? '' : 'ok'"
  stop_app "$APP_PID"

  # Closing the window while its store still opens (another process holds the store, as a
  # long write or migration does) lets the home go: a launch then opens its own window, which
  # waits for the store, instead of being told a window is open when none is.
  hold_file "$home/memory/.lock" "$home.held" & holder=$!
  check "the store's lock is held" wait_for 30 test -e "$home.held"
  start_app "$home" closing
  closing_pid="$APP_PID"
  check "the window closes while its store opens" page_eval "setTimeout(() => window.runtime.Quit(), 200); return 'ok'"
  check "the closed window is gone" wait_for 30 not window_of "$closing_pid"
  check "its process waits for the store" kill -0 "$closing_pid"
  start_app "$home" relaunch
  check "a launch meanwhile opens its own window" window_of "$APP_PID"
  check "the launch runs on (it was not told a window is open)" kill -0 "$APP_PID"
  check "one Engram window" [ "$(count_windows)" = 1 ]
  check "the waiting window says why" wait_for 30 state_is store-waiting
  kill "$holder"; wait "$holder" 2>/dev/null || true; holder=""
  set +e; wait "$closing_pid"; rc=$?; set -e
  check "the closed window's process exits 0 once its store opened (got $rc)" [ "$rc" = 0 ]
  check "and stops saying it once its store opened" wait_for 30 state_is store-waiting absent
  open_view journal journal-view ready
  stop_app "$APP_PID"

  # A store that waits, then fails (another process holds the index: SQLite's busy timeout
  # passes) saves no geometry for the window it showed meanwhile, however long it showed.
  rm -f "$other/window.json"
  hold_index "$other/memory/index.sqlite3" "$other.held" & holder=$!
  check "the index is held" wait_for 30 test -e "$other.held"
  ENGRAM_HOME="$other" "$BIN" >"$other.locked.log" 2>&1 & locked_pid=$!
  check "the window shows while its store waits" wait_for 60 window_of "$locked_pid"
  check "the start ends once its store failed" wait_for 120 not kill -0 "$locked_pid"
  kill "$locked_pid" 2>/dev/null || true
  set +e; wait "$locked_pid"; rc=$?; set -e
  kill "$holder"; wait "$holder" 2>/dev/null || true; holder=""
  check "a store that fails after a wait exits 1 (got $rc)" [ "$rc" = 1 ]
  check "a store that fails after a wait says why" grep -q "database is locked" "$other.locked.log"
  check "no geometry saved for the start that failed after a wait" [ ! -e "$other/window.json" ]

  # A store that cannot open (here its folder is a file) closes the window it opened beside
  # and exits 1 with the store's error, as when the store opened before the window.
  broken="$(mktemp -d)"
  touch "$broken/memory"
  set +e
  out="$(ENGRAM_HOME="$broken" timeout 60 "$BIN" 2>&1)"; rc=$?
  set -e
  check "a store that cannot open exits 1 (got $rc)" [ "$rc" = 1 ]
  check "a store that cannot open says why" grep -qF "memory: unable to create $broken/memory" <<<"$out"
  check "no window left by the failed start" [ "$(count_windows)" = 0 ]
  check "no geometry saved for the failed start" [ ! -e "$broken/window.json" ]
  rm -rf "$broken"
  exit "$FAILED"
fi

BIN="${ENGRAM_BIN:-build/bin/engram}"
CLI="${ENGRAM_CLI:-build/bin/engram-cli}"
MIN_COLOURS="${MIN_COLOURS:-50}"
[ -x "$BIN" ] && [ -x "$CLI" ] || make -s build cli

home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT

echo "smoke: seeding $home"
ENGRAM_HOME="$home" "$CLI" write --scope global --type user --slug smoke-test \
  --title "Smoke test" --body "hello"
# A memory with links, so the Graph view has entities to draw in the real window.
ENGRAM_HOME="$home" "$CLI" write --scope global --type reference --slug smoke-graph \
  --title "Smoke graph" --body "[[Alice]] works with [[Bob]] on [[Engram]]."

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

# The window checks run in their own Xvfb display, on the seeded home and a second empty one.
other="$(mktemp -d)"
trap 'rm -rf "$home" "$other" "$home".*.log "$home.probe" "$home.held" "$home.painted" "$other".*.log "$other.probe" "$other.held"' EXIT
if ! ENGRAM_HOME="$home" xvfb-run -a -s "-screen 0 ${SCREEN:-1280x800x24}" "$0" --window "$BIN" "$home" "$other"; then
  fail=1
fi
if [ $fail != 0 ]; then
  # What a CI log read from afar needs to tell a machine's fault from the app's: the machine
  # (a GPU device, memory, cores, load) and the end of each app log of the failed run.
  {
    echo "smoke: FAIL (the machine): $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(free -m | awk '/^Mem:/ {print $7" MB available of "$2}'), /dev/dri: $(ls /dev/dri 2>/dev/null | tr '\n' ' ' || true)"
    for log in "$home".*.log "$other".*.log; do
      [ -s "$log" ] || continue
      echo "smoke: FAIL (the end of ${log##*/}):"
      tail -n 5 "$log" | sed 's/^/    /'
    done
  } >&2
fi
[ $fail = 0 ] && echo "smoke: PASS" || echo "smoke: FAIL" >&2
exit $fail
