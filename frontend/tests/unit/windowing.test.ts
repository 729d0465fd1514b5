import { describe, expect, it } from 'vitest'
import { nearEnd, revealTop, windowRange } from '../../src/util/windowing'

describe('windowRange', () => {
  it('renders only the rows in view plus the overscan, at 10,000 rows', () => {
    const w = windowRange(0, 700, 90, 10000, 6)
    expect(w.start).toBe(0)
    expect(w.end).toBe(0 + Math.ceil(700 / 90) + 1 + 6)
    expect(w.before).toBe(0)
    expect(w.after).toBe((10000 - w.end) * 90)
    expect(w.before + (w.end - w.start) * 90 + w.after).toBe(10000 * 90)
  })

  it('keeps the total height equal to every row, wherever it is scrolled', () => {
    for (const top of [0, 45, 90 * 5000 + 13, 90 * 9990, 90 * 20000]) {
      const w = windowRange(top, 700, 90, 10000, 4)
      expect(w.before + (w.end - w.start) * 90 + w.after).toBe(10000 * 90)
      expect(w.end - w.start).toBeLessThanOrEqual(Math.ceil(700 / 90) + 1 + 8)
      expect(w.end).toBeLessThanOrEqual(10000)
      expect(w.start).toBeGreaterThanOrEqual(0)
    }
  })

  it('shows the row under the top edge when scrolled into the middle', () => {
    const w = windowRange(90 * 5000 + 30, 700, 90, 10000, 3)
    expect(w.start).toBe(4997)
    expect(w.before).toBe(4997 * 90)
  })

  it('is empty for no rows, and renders short lists whole', () => {
    expect(windowRange(0, 700, 90, 0)).toEqual({ start: 0, end: 0, before: 0, after: 0 })
    expect(windowRange(0, 700, 90, 3)).toEqual({ start: 0, end: 3, before: 0, after: 0 })
  })
})

describe('revealTop', () => {
  it('scrolls up to a row above the viewport, down to one below, and not at all for one in view', () => {
    expect(revealTop(2, 900, 700, 90)).toBe(180)
    expect(revealTop(20, 0, 700, 90)).toBe(21 * 90 - 700)
    expect(revealTop(3, 0, 700, 90)).toBe(null)
    expect(revealTop(-1, 0, 700, 90)).toBe(null)
  })
  it('counts the lead above the first row (a list padding), both ways', () => {
    // Row 20 spans 6 + 1800 … 6 + 1890: its bottom must be at the viewport's bottom, not 6 px below.
    expect(revealTop(20, 0, 700, 90, 6)).toBe(6 + 21 * 90 - 700)
    expect(revealTop(2, 900, 700, 90, 6)).toBe(6 + 180)
    // Fully in view only with the lead counted: row 7 spans 636 … 726 of a 0 … 730 viewport.
    expect(revealTop(7, 0, 730, 90, 6)).toBe(null)
    expect(revealTop(7, 0, 720, 90, 6)).toBe(6 + 8 * 90 - 720)
  })
})

describe('nearEnd', () => {
  it('asks for more when the window reaches the last rows loaded', () => {
    expect(nearEnd({ start: 80, end: 95, before: 0, after: 0 }, 100)).toBe(true)
    expect(nearEnd({ start: 0, end: 20, before: 0, after: 0 }, 100)).toBe(false)
    expect(nearEnd({ start: 0, end: 0, before: 0, after: 0 }, 0)).toBe(false)
  })
})
