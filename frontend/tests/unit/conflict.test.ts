import { describe, expect, it } from 'vitest'
import { conflictKind } from '@/util/conflict'

describe('conflictKind', () => {
  it.each([
    [{ slug: 'editor-conflict-7c1e0a9', source: { kind: 'sync' } }, 'sync'],
    [{ slug: 'user-location-proposed', source: { kind: 'extractor' } }, 'proposal'],
    [{ slug: 'user-location-proposed-2', source: { kind: 'extractor' } }, 'proposal'],
    [{ slug: 'user-location-proposed', source: { kind: 'user' } }, 'other'],
    [{ slug: 'user-location', source: { kind: 'extractor' } }, 'other'],
    [{ slug: 'user-location', source: null }, 'other'],
  ] as const)('%o is %s', (m, want) => {
    expect(conflictKind(m)).toBe(want)
  })
})
