// The desktop start-up bench measures launch → first paint. The UI tells Go once, after the
// first view is on screen (two animation frames after it rendered), with a Wails event; Go
// writes the time to $ENGRAM_PAINT_MARK when set and ignores it otherwise. The event is a
// no-op in a browser; afterFirstPaint works in both.
import { shallowRef } from 'vue'

const EVENT = 'engram:painted'
/** Start-up work waits at most this long for the first view (a view that failed to load). */
const LATEST_MS = 3000
let sent = false
let painted = false
let waiting: (() => void)[] = []

/**
 * True once the first view is on screen (or its wait gave up): components that the first view
 * shows but that need not work in its first frame (a tooltip, a picker's menu) mount then.
 */
export const firstPaintDone = shallowRef(false)

function flush() {
  if (painted) return
  painted = true
  firstPaintDone.value = true
  const run = waiting
  waiting = []
  for (const f of run) f()
}

export function markPainted(): void {
  if (sent) return
  sent = true
  const rt = (globalThis as { runtime?: { EventsEmit?: (name: string) => void } }).runtime
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      rt?.EventsEmit?.(EVENT)
      // Queued work starts in a task of its own: this frame is not held up by it.
      setTimeout(flush, 0)
    }),
  )
}

/**
 * Runs f once the first view is on screen (at once when it already is): start-up requests the
 * first view does not show (banners, badges) so they do not compete with its first paint.
 */
export function afterFirstPaint(f: () => void): void {
  if (painted) {
    f()
    return
  }
  if (waiting.length === 0) setTimeout(flush, LATEST_MS)
  waiting.push(f)
}
