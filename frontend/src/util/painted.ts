// The desktop start-up bench measures launch → first paint. The UI tells Go once, after the
// first view is on screen (two animation frames after it rendered), with a Wails event; Go
// writes the time to $ENGRAM_PAINT_MARK when set and ignores it otherwise. No-op in a browser.
const EVENT = 'engram:painted'
let sent = false

export function markPainted(): void {
  if (sent) return
  sent = true
  const rt = (globalThis as { runtime?: { EventsEmit?: (name: string) => void } }).runtime
  if (!rt?.EventsEmit) return
  requestAnimationFrame(() => requestAnimationFrame(() => rt.EventsEmit?.(EVENT)))
}
