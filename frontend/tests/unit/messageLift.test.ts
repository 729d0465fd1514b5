import { describe, expect, it } from 'vitest'
import { messageLift } from '../../src/composables/messageLift'

describe('messageLift', () => {
  it.each([
    { name: 'no bar: messages at the bottom', tops: [], h: 800, want: 0 },
    { name: 'one bar: clear of its top, plus the gap', tops: [742], h: 800, want: 66 },
    { name: 'the highest of several bars counts (the toast above the actions)', tops: [742, 690.4], h: 800, want: 118 },
    { name: 'a bar scrolled below the window lifts nothing', tops: [900], h: 800, want: 0 },
    { name: 'never more than half the window', tops: [100], h: 740, want: 370 },
    { name: 'a missing measure is ignored', tops: [Number.NaN, 700], h: 740, want: 48 },
  ])('$name', ({ tops, h, want }) => {
    expect(messageLift(tops, h)).toBe(want)
  })
})
