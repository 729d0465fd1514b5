// Fixture of memory.find (the memory list's search as you type) over the base fake: it asks
// the base memory.search fixture and pages its hits the way memory.find does, with the
// review filter applied. Every other MemoryService method stays the base one.
window.__FAKE_EXT__ = (window.__FAKE_EXT__ || []).concat(({ api }) => {
  const base = api.MemoryService
  api.MemoryService = Object.assign({}, base, {
    Find: async (p) => {
      const r = await api.MemoryService.Search({ query: (p && p.query) || '', scope: p && p.scope, type: p && p.type })
      const all = ((r && r.hits) || [])
        .map((h) => Object.assign({}, h.memory, { snippet: h.snippet }))
        .filter((m) => p.reviewed == null || m.reviewed === p.reviewed)
      const off = p.offset || 0
      return { items: all.slice(off, off + (p.limit || 100)), total: all.length, more: false }
    },
  })
})
