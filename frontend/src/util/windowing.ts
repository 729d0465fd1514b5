// Windowing for long lists of equal-height rows: only the rows in view (plus a margin) are
// in the DOM, so a list of 10,000 memories costs what a list of 30 costs to render, and
// typing in the search box never waits for thousands of rows to be built.

export interface Window {
  /** First row rendered (inclusive). */
  start: number
  /** Row after the last rendered (exclusive). */
  end: number
  /** Space above the first rendered row, in px. */
  before: number
  /** Space below the last rendered row, in px. */
  after: number
}

/**
 * The rows to render for a viewport of height px scrolled to scrollTop, over count rows of
 * rowHeight px, with overscan extra rows on each side.
 */
export function windowRange(scrollTop: number, height: number, rowHeight: number, count: number, overscan = 6): Window {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, before: 0, after: 0 }
  const top = Math.max(0, scrollTop)
  const first = Math.min(count - 1, Math.floor(top / rowHeight))
  const visible = Math.max(1, Math.ceil(Math.max(0, height) / rowHeight) + 1)
  const start = Math.max(0, first - overscan)
  const end = Math.min(count, first + visible + overscan)
  return { start, end, before: start * rowHeight, after: (count - end) * rowHeight }
}

/**
 * The scrollTop that brings row index fully into a viewport of height px (the least move),
 * or null when it is already fully in view. lead: the px above the first row inside the
 * scroller (a list's top padding): without it the row ended up that much below the viewport.
 */
export function revealTop(index: number, scrollTop: number, height: number, rowHeight: number, lead = 0): number | null {
  if (index < 0) return null
  const rowTop = lead + index * rowHeight
  const rowBottom = rowTop + rowHeight
  if (rowTop < scrollTop) return rowTop
  if (rowBottom > scrollTop + height) return Math.max(0, rowBottom - height)
  return null
}

/** Whether the window reaches within margin rows of the end of what is loaded. */
export function nearEnd(w: Window, loaded: number, margin = 10): boolean {
  return loaded > 0 && w.end >= loaded - margin
}
