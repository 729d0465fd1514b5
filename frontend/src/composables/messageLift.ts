// Messages show at the bottom of the window (naive/scope.ts). A view with a bar of controls
// along the bottom (Review's Accept / Reject, the Journal's note box) lifts them above it:
// otherwise "Changes saved" or "Added to today's journal" covered Accept or the note box for
// as long as it showed. The lift is a CSS variable on the root (base.css reads it) that the view
// sets while it is mounted and keeps up to date as its bar changes size.
import { onBeforeUnmount, onMounted } from 'vue'

const VAR = '--message-lift'

/**
 * How far above the window's bottom edge the messages start: clear of the highest bar's top
 * (tops in viewport pixels), plus a gap; 0 without a bar on screen. A bar scrolled out of view
 * (its top below the window) lifts nothing, and the lift never exceeds half the window.
 */
export function messageLift(tops: number[], windowHeight: number, gap = 8): number {
  const onScreen = tops.filter((t) => Number.isFinite(t) && t < windowHeight)
  if (!onScreen.length) return 0
  const lift = Math.ceil(windowHeight - Math.min(...onScreen)) + gap
  return Math.min(lift, Math.floor(windowHeight / 2))
}

/**
 * Keeps the messages above what bars() returns (the elements along the window's bottom, any of
 * them missing while hidden). Returns update(), for changes a resize does not show (a bar that
 * appears or goes).
 */
export function useMessageLift(bars: () => (Element | null | undefined)[]): () => void {
  let ro: ResizeObserver | null = null
  const watched = new Set<Element>()
  const update = () => {
    const els = bars().filter((e): e is Element => !!e)
    for (const e of els) {
      if (!watched.has(e)) {
        watched.add(e)
        ro?.observe(e)
      }
    }
    const lift = messageLift(
      els.map((e) => e.getBoundingClientRect().top),
      window.innerHeight,
    )
    document.documentElement.style.setProperty(VAR, `${lift}px`)
  }
  onMounted(() => {
    ro = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null
    window.addEventListener('resize', update)
    update()
  })
  onBeforeUnmount(() => {
    ro?.disconnect()
    window.removeEventListener('resize', update)
    document.documentElement.style.removeProperty(VAR)
  })
  return update
}
