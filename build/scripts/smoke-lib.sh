# Helpers of the desktop smoke test (sourced by smoke.sh; run inside xvfb-run). Every wait polls
# up to a deadline; nothing asserts a timing.
#
# The page is observed through the app's test probe (ENGRAM_SMOKE_PROBE, backend/desktop/
# probe.go): WebKitGTK under Xvfb has no automation protocol, so page_eval drops a script in
# the probe folder, the app runs it in the window and writes back what it returned.

FAILED=0
APP_PID="" WIN=""
# fd 3: notes from inside a check (which quiets its command's output) that belong in the log.
exec 3>&2

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
  # What the real window shows of each view, to look at (WebKitGTK draws text wider than the
  # visual suite's Chromium): build/smoke/view-VIEW.png.
  mkdir -p "$ROOT/build/smoke"
  import -window "$WIN" "$ROOT/build/smoke/view-$view.png" 2>/dev/null || true
}

# PPM_PY: Python that reads a binary PPM screenshot (import's ppm:-) from stdin into w, h and
# px (8-bit RGB rows), or exits 1; the graph checks below append what they count.
PPM_PY='import sys
data = sys.stdin.buffer.read()
fields, pos = [], 0
while len(fields) < 4:
    while data[pos:pos + 1].isspace():
        pos += 1
    if data[pos:pos + 1] == b"#":
        pos = data.index(b"\n", pos)
        continue
    end = pos
    while not data[end:end + 1].isspace():
        end += 1
    fields.append(data[pos:end])
    pos = end
pos += 1
if fields[0] != b"P6" or int(fields[3]) not in (255, 65535):
    sys.exit(1)
w, h = int(fields[1]), int(fields[2])
px = data[pos:]
if int(fields[3]) == 65535:
    px = px[0::2]'

# graph_painted: the real window shows the graph's nodes: pixels in the colours of the
# legend's dots inside the graph's canvas (the legend left out), read from an X screenshot of
# the window. The page can read back pixels of a WebGL canvas the window never shows
# (WebKitGTK composited nothing of sigma's canvases made with its defaults), so only the
# screen tells.
graph_painted() {
  local spec
  spec="$(page_eval "const c = document.querySelector('[data-test=\"graph-canvas\"]'), l = document.querySelector('[data-test=\"graph-legend\"]'); if (!c || !l) return ''; const d = window.devicePixelRatio || 1; const r = c.getBoundingClientRect(), q = l.getBoundingClientRect(); const cols = [...l.querySelectorAll('.dot')].map((e) => (getComputedStyle(e).backgroundColor.match(/[0-9]+/g) || []).slice(0, 3).join(',')); return [r.left, r.top, r.right, r.bottom, q.left, q.top, q.right, q.bottom].map((v) => Math.round(v * d)).join(',') + ';' + cols.join(';')")" || return 1
  import -window "$WIN" -depth 8 ppm:- 2>/dev/null | python3 -c "$PPM_PY"'
spec = sys.argv[1].split(";")
box = [int(v) for v in spec[0].split(",")]
cols = [tuple(int(v) for v in c.split(",")) for c in spec[1:] if c.count(",") == 2]
x0, y0, x1, y1, lx0, ly0, lx1, ly1 = box
n = 0
for y in range(max(y0, 0), min(y1, h)):
    row = y * w * 3
    for x in range(max(x0, 0), min(x1, w)):
        if lx0 <= x < lx1 and ly0 <= y < ly1:
            continue
        i = row + x * 3
        p = (px[i], px[i + 1], px[i + 2])
        if p != (255, 255, 255) and any(abs(p[0] - c[0]) <= 8 and abs(p[1] - c[1]) <= 8 and abs(p[2] - c[2]) <= 8 for c in cols):
            n += 1
print(n)
sys.exit(0 if n >= 12 else 1)' "$spec"
}

# graph_diag: what the Graph view shows, on stderr's behalf of a failed graph check: its state,
# renderer, any message on the page, whether the window gives WebGL, and the painted pixels.
graph_diag() {
  echo "smoke: FAIL (what the graph showed): $(page_eval "const c = document.querySelector('[data-test=\"graph-canvas\"]'); const v = document.querySelector('[data-test=\"graph-view\"]') || document.querySelector('main') || document.body; const g = document.createElement('canvas'); const gl = g.getContext('webgl') || g.getContext('experimental-webgl'); const info = gl ? gl.getParameter(gl.VERSION) + ' / ' + gl.getParameter(gl.RENDERER) : 'no WebGL'; return JSON.stringify({ state: c ? c.dataset.state || 'present' : 'absent', renderer: c ? c.dataset.renderer || '' : '', canvases: c ? c.querySelectorAll('canvas').length : 0, size: c ? [c.clientWidth, c.clientHeight] : [], webgl: info, text: (v.innerText || '').replace(/\\s+/g, ' ').slice(0, 300) })" 2>&1 || echo 'the page did not answer')"
  echo "smoke: FAIL (what the graph showed): painted pixels $(graph_painted 2>/dev/null || true)"
  # Drawn but not shown, or not drawn: what sigma's WebGL layers hold (read back from the page),
  # where the nodes are on screen, and a map of the window's graph area.
  echo "smoke: FAIL (what the graph's layers hold): $(page_eval "$GRAPH_LAYERS_JS" 2>&1 || echo 'the page did not answer')"
  echo "smoke: FAIL (the window's graph area, # a node's colour, . anything else not white):"
  graph_map 2>&1 | sed 's/^/    |/'
  # Whether another frame shows them (a first frame lost before it reached the window).
  page_eval "const c = document.querySelector('[data-test=\"graph-canvas\"]'); const r = c && c.__renderer; if (!r) return 'none'; r.fit(); return 'ok'" >/dev/null 2>&1 || true
  sleep 3
  echo "smoke: FAIL (what the graph showed): painted pixels after another frame $(graph_painted 2>/dev/null || true)"
}

# GRAPH_LAYERS_JS: page code naming each of the graph's canvases (WebGL or 2D), for a WebGL one
# whether its context is lost and how many of its pixels are drawn, and each node's place on
# the screen beside the canvas and legend boxes.
GRAPH_LAYERS_JS="const c = document.querySelector('[data-test=\"graph-canvas\"]'); if (!c) return 'no canvas';
const out = [];
for (const el of c.querySelectorAll('canvas')) {
  const cls = el.className || el.dataset.layer || '?';
  let gl = null;
  try { gl = el.getContext('webgl2') || el.getContext('webgl'); } catch (e) { gl = null; }
  if (!gl) { out.push(cls + ':2d'); continue; }
  if (gl.isContextLost()) { out.push(cls + ':lost'); continue; }
  const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  const px = new Uint8Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
  let n = 0; for (let i = 3; i < px.length; i += 4) if (px[i]) n++;
  out.push(cls + ':gl ' + w + 'x' + h + ' drawn ' + n);
}
const r = c.__renderer; const pts = [];
if (r) for (const id of r.positions().keys()) { const p = r.screenPosition(id); if (p) pts.push(Math.round(p.x) + ',' + Math.round(p.y)); }
const b = c.getBoundingClientRect(), l = document.querySelector('[data-test=\"graph-legend\"]'), q = l ? l.getBoundingClientRect() : null;
return out.join('; ') + ' | nodes at ' + pts.join(' ') + ' | canvas ' + [b.left, b.top, b.width, b.height].map(Math.round).join(',') + (q ? ' legend ' + [q.left, q.top, q.width, q.height].map(Math.round).join(',') : '') + ' | dpr ' + (window.devicePixelRatio || 1)"

# graph_map: the graph canvas's part of the window as 72×24 characters: '#' where a pixel has a
# legend dot's colour (a node), '.' where one is not white, ' ' where all are white; then the
# count of pixels not white.
graph_map() {
  local spec
  spec="$(page_eval "const c = document.querySelector('[data-test=\"graph-canvas\"]'), l = document.querySelector('[data-test=\"graph-legend\"]'); if (!c || !l) return ''; const d = window.devicePixelRatio || 1; const r = c.getBoundingClientRect(); const cols = [...l.querySelectorAll('.dot')].map((e) => (getComputedStyle(e).backgroundColor.match(/[0-9]+/g) || []).slice(0, 3).join(',')); return [r.left, r.top, r.right, r.bottom].map((v) => Math.round(v * d)).join(',') + ';' + cols.join(';')")" || return 1
  import -window "$WIN" -depth 8 ppm:- 2>/dev/null | python3 -c "$PPM_PY"'
spec = sys.argv[1].split(";")
x0, y0, x1, y1 = [int(v) for v in spec[0].split(",")]
cols = [tuple(int(v) for v in c.split(",")) for c in spec[1:] if c.count(",") == 2]
x1, y1 = min(x1, w), min(y1, h)
W, H = 72, 24
grid = [[" "] * W for _ in range(H)]
nonwhite = 0
for y in range(max(y0, 0), y1):
    for x in range(max(x0, 0), x1):
        i = (y * w + x) * 3
        p = (px[i], px[i + 1], px[i + 2])
        if p == (255, 255, 255):
            continue
        nonwhite += 1
        gx, gy = (x - x0) * W // max(x1 - x0, 1), (y - y0) * H // max(y1 - y0, 1)
        node = any(abs(p[0] - c[0]) <= 8 and abs(p[1] - c[1]) <= 8 and abs(p[2] - c[2]) <= 8 for c in cols)
        if node:
            grid[gy][gx] = "#"
        elif grid[gy][gx] == " ":
            grid[gy][gx] = "."
for row in grid:
    print("".join(row).rstrip() or "-")
print("not white:", nonwhite, "of", (x1 - x0) * (y1 - y0))' "$spec"
}

# window_flat: the window's capture is one or two colours — the GTK background with nothing of
# the page on it. Under a loaded Xvfb WebKitGTK sometimes stops presenting its frames (seen in a
# CI run: every view's DOM checks passed while each capture was flat 246,245,244); the page is
# drawn, the window is not updated.
window_flat() {
  local n
  n="$(import -window "$WIN" -depth 8 ppm:- 2>/dev/null | identify -format '%k' - 2>/dev/null)" || return 1
  [ -n "$n" ] && [ "$n" -le 2 ]
}

# nudge_repaint: what a desktop's compositor does on an expose: the window is resized by one
# pixel and back, so WebKitGTK allocates its surface again and presents a new frame. Later
# checks set the geometry they test themselves.
nudge_repaint() {
  local WIDTH HEIGHT
  eval "$(xdotool getwindowgeometry --shell "$WIN" 2>/dev/null | grep -E '^(WIDTH|HEIGHT)=')"
  [ -n "${WIDTH:-}" ] || return 1
  xdotool windowsize "$WIN" $((WIDTH + 1)) "$HEIGHT"
  wait_for 10 page_eval "return window.innerWidth === $((WIDTH + 1)) ? 'ok' : ''" || true
  xdotool windowsize "$WIN" "$WIDTH" "$HEIGHT"
  wait_for 10 page_eval "return window.innerWidth === $WIDTH ? 'ok' : ''" || true
}

# graph_shown: the graph's nodes reach the window; a window whose capture stayed flat (no frame
# presented) is nudged once, and says so, before it is judged — a flat capture says nothing of
# the graph, a capture with the page and no nodes still fails.
graph_shown() {
  wait_for 30 graph_painted && return 0
  window_flat || return 1
  echo "smoke: the window's capture is one flat colour (no frame presented): nudging a repaint" >&3
  nudge_repaint
  wait_for 30 graph_painted
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
