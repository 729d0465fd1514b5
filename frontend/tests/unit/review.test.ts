import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import * as api from '../../src/api'
import type { Transport } from '../../src/api/transport'
import type { MemorySummary } from '../../src/api/types'
import { useReview } from '../../src/stores/review'

const mem = (slug: string): MemorySummary => ({ id: `id-${slug}`, slug, title: slug, version: 'v1' }) as unknown as MemorySummary

/** A store whose unreviewed list is `queue` (read on every memory.list) and whose writes succeed. */
function fakeStore(queue: { items: MemorySummary[] }) {
  const t: Transport = {
    kind: 'ws',
    async call(method, params) {
      const p = params as Record<string, unknown>
      if (method === 'memory.list') return { items: queue.items, total: queue.items.length }
      if (method === 'memory.read') return { memory: { id: p.id, source: {} }, version: 'v1' }
      if (method === 'memory.applyBatch') {
        const items = p.items as { id: string }[]
        queue.items = queue.items.filter((m) => !items.some((x) => x.id === m.id))
        return { results: items.map((x) => ({ ok: true, id: x.id })), applied: items.length, failed: 0 }
      }
      if (method === 'memory.accept' || method === 'memory.reject') {
        queue.items = queue.items.filter((m) => m.id !== p.id)
        return { ok: true, id: p.id }
      }
      throw new api.ApiError('unknown_method', 'error.unknown_method', { Method: method })
    },
    on() {
      return () => {}
    },
  }
  return t
}

describe('review queue cursor', () => {
  beforeEach(() => setActivePinia(createPinia()))
  afterEach(() => api.setTransport(null))

  it('stays on the memory being read when a batch takes memories listed above it', async () => {
    const queue = { items: ['a', 'b', 'c', 'd', 'e'].map(mem) }
    api.setTransport(fakeStore(queue))
    const review = useReview()
    await review.refresh()
    expect(review.current?.slug).toBe('a')
    review.toggle('id-a')
    review.toggle('id-b')
    review.move(1)
    review.move(1)
    expect(review.current?.slug).toBe('c')
    await review.reject(['id-a', 'id-b'])
    // Not `e` (the index the cursor had): the person still has `c` in front of them.
    expect(review.current?.slug).toBe('c')
  })

  it('stays on the memory being read when a refresh drops memories above it', async () => {
    const queue = { items: ['a', 'b', 'c', 'd'].map(mem) }
    api.setTransport(fakeStore(queue))
    const review = useReview()
    await review.refresh()
    review.select('id-c')
    // Another window accepted `a`; memory.changed refreshes the queue.
    queue.items = queue.items.filter((m) => m.slug !== 'a')
    await review.refresh()
    expect(review.current?.slug).toBe('c')
  })

  it('moves on to the memory that followed one that left, and to the last at the end', async () => {
    const queue = { items: ['a', 'b', 'c', 'd'].map(mem) }
    api.setTransport(fakeStore(queue))
    const review = useReview()
    await review.refresh()
    expect(review.current?.slug).toBe('a')
    review.select('id-b')
    await review.accept(['id-b'])
    expect(review.current?.slug).toBe('c')
    review.select('id-d')
    queue.items = queue.items.filter((m) => m.slug !== 'd' && m.slug !== 'c')
    await review.refresh()
    expect(review.current?.slug).toBe('a')
  })
})
