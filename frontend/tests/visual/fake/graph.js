// Graph fixtures for the visual checks and the graph bench: the graph.* contract (GraphService)
// over a small fixed graph with English and Chinese names (opts.graph unset), no entities
// (opts.graph = 'empty'), or a generated one (opts.graph = 'big', opts.graphNodes/graphEdges,
// default 5,000 / 20,000) for tests/bench/graph.mjs.
window.__FAKE_EXT__ = (window.__FAKE_EXT__ || []).concat(({ api, opts, items, fail }) => {
  const ref = (i) => {
    const m = items.length ? items[i % items.length] : null
    return m ? { id: m.id, slug: m.slug, title: m.title, scope: m.scope } : { id: 'none', slug: 'none', title: 'none', scope: 'global' }
  }
  const nodes = []
  const edges = []
  if (opts.graph === 'big') {
    // Preferential attachment with a seeded generator: a few hubs, many leaves, like real notes.
    let s = 20261202
    const rnd = () => {
      s ^= s << 13
      s ^= s >>> 17
      s ^= s << 5
      return (s >>> 0) / 4294967296
    }
    const N = opts.graphNodes || 5000
    const E = opts.graphEdges || 20000
    const types = ['person', 'organization', 'project', 'tool', 'place', 'concept', 'event']
    const rels = ['works_at', 'uses', 'knows', 'part_of', 'located_in', 'depends_on', 'mentions']
    for (let i = 0; i < N; i++) nodes.push({ id: 'e' + i, name: (i % 5 === 0 ? '实体 ' : 'Entity ') + i, type: types[i % types.length], aliases: [], scope: 'global', memories: 1, degree: 0 })
    const ends = []
    for (let i = 1; i < N; i++) {
      const j = ends.length && rnd() < 0.7 ? ends[Math.floor(rnd() * ends.length)] : Math.floor(rnd() * i)
      edges.push({ id: 'r' + edges.length, source: 'e' + i, target: 'e' + j, type: rels[edges.length % rels.length], memories: [ref(edges.length)] })
      ends.push(i, j)
    }
    while (edges.length < E) {
      const a = Math.floor(rnd() * N)
      const b = ends[Math.floor(rnd() * ends.length)]
      if (a === b) continue
      edges.push({ id: 'r' + edges.length, source: 'e' + a, target: 'e' + b, type: rels[edges.length % rels.length], memories: [ref(edges.length)] })
      ends.push(a, b)
    }
  } else if (opts.graph !== 'empty') {
    const E = (id, name, type, aliases = [], scope = 'global', where = {}) => nodes.push({ id, name, type, aliases, scope, ...where, memories: 0, degree: 0 })
    const billingDir = { workdir: '/home/ada/src/acme-billing' }
    E('alice', 'Alice Chen', 'person', ['Alice', '陈爱丽'])
    E('zhangwei', '张伟', 'person', ['Zhang Wei'])
    E('acme', 'Acme', 'organization', ['Acme Corp'])
    E('xinghai', '星海科技', 'organization', ['Xinghai Tech'])
    E('billing', 'Billing service', 'project', [], 'project', billingDir)
    E('engram', 'Engram', 'project')
    E('postgres', 'Postgres', 'tool', ['PostgreSQL'])
    E('neovim', 'Neovim', 'tool')
    E('golang', 'Go', 'tool', ['Golang'])
    E('berlin', 'Berlin', 'place')
    E('shanghai', '上海', 'place', ['Shanghai'])
    E('replication', '逻辑复制', 'concept', ['Logical replication'])
    E('rust', 'Rust', 'tool')
    E('wasm', 'WebAssembly', 'concept', ['Wasm'])
    const R = (source, type, target, ...mem) => edges.push({ id: `${source}-${type}-${target}`, source, target, type, memories: mem.map(ref) })
    R('alice', 'works_at', 'acme', 1, 0)
    R('alice', 'uses', 'neovim', 2)
    R('alice', 'lives_in', 'berlin', 0)
    R('alice', 'knows', 'zhangwei', 5)
    R('zhangwei', 'works_at', 'xinghai', 5)
    R('zhangwei', 'lives_in', 'shanghai', 5)
    R('acme', 'owns', 'billing', 1)
    R('billing', 'uses', 'postgres', 1)
    R('postgres', 'supports', 'replication', 1, 4)
    R('billing', 'written_in', 'golang', 3)
    R('engram', 'written_in', 'golang', 3)
    R('alice', 'maintains', 'engram', 0)
    R('xinghai', 'partner_of', 'acme', 5)
    R('rust', 'targets', 'wasm', 6)
    // opts.graphScopes: one name in three scopes, a person of a project, and the person's own
    // entity (stored as "User": the UI calls it "You").
    if (opts.graphScopes) {
      E('widget-g', 'Widget', 'concept')
      E('widget-p', 'Widget', 'project', [], 'project', billingDir)
      E('widget-a', 'Widget', 'tool', [], 'agent', { agent: 'codex' })
      E('dave', 'Dave Kim', 'person', [], 'project', billingDir)
      E('me', 'User', 'person')
      R('dave', 'works_on', 'widget-p', 1)
      R('me', 'works_at', 'acme', 0)
      R('me', 'uses', 'widget-g', 0)
      R('widget-a', 'uses', 'rust', 6)
    }
  }
  // Degrees, mentions and adjacency are derived from nodes and edges, again after each edit.
  const byId = new Map()
  const mentions = new Map()
  const adj = new Map()
  const derive = () => {
    byId.clear()
    mentions.clear()
    adj.clear()
    for (const n of nodes) {
      byId.set(n.id, n)
      n.degree = 0
      adj.set(n.id, [])
    }
    for (const e of edges) {
      byId.get(e.source).degree++
      byId.get(e.target).degree++
      adj.get(e.source).push(e)
      adj.get(e.target).push(e)
      for (const end of [e.source, e.target]) {
        const list = mentions.get(end) || new Map()
        for (const m of e.memories) list.set(m.id, m)
        mentions.set(end, list)
      }
    }
    for (const n of nodes) n.memories = mentions.get(n.id) ? mentions.get(n.id).size : 0
  }
  derive()
  const fold = (s) => String(s || '').toLowerCase().normalize('NFKC')
  /** An entity by id, name or alias (case-insensitive); the contract's "id or name". */
  const resolve = (key) => {
    if (byId.has(key)) return byId.get(key)
    const k = fold(key)
    return nodes.find((n) => fold(n.name) === k || n.aliases.some((a) => fold(a) === k))
  }
  const relOk = (p) => (e) => !p.relation_types || !p.relation_types.length || p.relation_types.includes(e.type)
  const typeOk = (p) => (n) => !p.entity_types || !p.entity_types.length || p.entity_types.includes(n.type)
  const byDegree = (a, b) => b.degree - a.degree || a.name.localeCompare(b.name)
  const induced = (ids, p, truncated) => {
    const set = new Set(ids)
    return {
      nodes: ids.map((id) => byId.get(id)),
      edges: edges.filter((e) => set.has(e.source) && set.has(e.target) && relOk(p)(e)),
      truncated,
    }
  }
  const around = (p) => {
    const start = resolve(p.entity)
    if (!start) return fail('not_found', { Entity: p.entity })
    const depth = Math.min(3, Math.max(1, p.depth || 1))
    const limit = p.limit || 500
    const seen = [start.id]
    const at = new Map([[start.id, 0]])
    for (let i = 0; i < seen.length; i++) {
      const id = seen[i]
      if (at.get(id) >= depth) continue
      for (const e of adj.get(id).filter(relOk(p))) {
        const other = e.source === id ? e.target : e.source
        if (at.has(other) || !typeOk(p)(byId.get(other))) continue
        at.set(other, at.get(id) + 1)
        seen.push(other)
      }
    }
    return Promise.resolve(induced(seen.slice(0, limit), p, seen.length > limit))
  }
  api.GraphService = {
    Entities: async (p = {}) => {
      const q = fold(p.query)
      const hits = nodes.filter((n) => (!q || fold(n.name).includes(q) || n.aliases.some((a) => fold(a).includes(q))) && typeOk({ entity_types: p.types })(n))
      return { entities: hits.sort(byDegree).slice(0, p.limit || 50) }
    },
    Neighbors: (p = {}) => around(p),
    Subgraph: (p = {}) => {
      if (p.entity) return around(p)
      const all = nodes.filter(typeOk(p)).sort(byDegree)
      const limit = p.limit || 500
      const answer = induced(all.slice(0, limit).map((n) => n.id), p, all.length > limit)
      // opts.graphDelay: answer as slowly as a real connection can, after the renderer is up.
      return opts.graphDelay ? new Promise((ok) => setTimeout(() => ok(answer), opts.graphDelay)) : Promise.resolve(answer)
    },
    Path: async (p = {}) => {
      const a = resolve(p.from)
      const b = resolve(p.to)
      if (!a) return fail('not_found', { Entity: p.from })
      if (!b) return fail('not_found', { Entity: p.to })
      const max = Math.min(6, Math.max(1, p.max_hops || 4))
      const prev = new Map([[a.id, null]])
      let frontier = [a.id]
      for (let d = 0; d < max && !prev.has(b.id); d++) {
        const next = []
        for (const id of frontier) {
          for (const e of adj.get(id).filter(relOk(p))) {
            const other = e.source === id ? e.target : e.source
            if (prev.has(other)) continue
            prev.set(other, { from: id, edge: e })
            next.push(other)
          }
        }
        frontier = next
      }
      if (!prev.has(b.id)) return { found: false, nodes: [], hops: [] }
      const hops = []
      for (let id = b.id; prev.get(id); id = prev.get(id).from) hops.unshift({ from: prev.get(id).from, to: id, edge: prev.get(id).edge })
      return { found: true, nodes: [a, ...hops.map((h) => byId.get(h.to))], hops }
    },
    EntityMemories: async (p = {}) => {
      const n = resolve(p.entity)
      if (!n) return fail('not_found', { Entity: p.entity })
      return { memories: [...(mentions.get(n.id) || new Map()).values()] }
    },
    // A person's edits, applied to the fixture the way the store's rewrites change the graph.
    RenameEntity: async (p = {}) => {
      const n = resolve(p.entity)
      if (!n) return fail('graph_entity_not_found', { Entity: p.entity })
      const changed = [...(mentions.get(n.id) || new Map()).values()]
      n.name = p.name
      return { changed }
    },
    MergeEntities: async (p = {}) => {
      const into = resolve(p.into)
      if (!into) return fail('graph_entity_not_found', { Entity: p.into })
      const changed = new Map()
      for (const ref of p.from || []) {
        const f = resolve(ref)
        if (!f) return fail('graph_entity_not_found', { Entity: ref })
        if (f === into) continue
        for (const m of (mentions.get(f.id) || new Map()).values()) changed.set(m.id, m)
        for (const e of edges) {
          if (e.source === f.id) e.source = into.id
          if (e.target === f.id) e.target = into.id
        }
        into.aliases = [...new Set([...into.aliases, f.name, ...f.aliases])]
        nodes.splice(nodes.indexOf(f), 1)
      }
      for (let i = edges.length - 1; i >= 0; i--) if (edges[i].source === edges[i].target) edges.splice(i, 1)
      derive()
      return { changed: [...changed.values()] }
    },
    DeleteEntity: async (p = {}) => {
      const n = resolve(p.entity)
      if (!n) return fail('graph_entity_not_found', { Entity: p.entity })
      const changed = [...(mentions.get(n.id) || new Map()).values()]
      for (let i = edges.length - 1; i >= 0; i--) if (edges[i].source === n.id || edges[i].target === n.id) edges.splice(i, 1)
      nodes.splice(nodes.indexOf(n), 1)
      derive()
      return { changed }
    },
    AddRelation: async (p = {}) => {
      // The api takes the memory's id or slug in memory (memory_id is the older name).
      const ref = p.memory ?? p.memory_id
      const m = items.find((x) => x.id === ref || x.slug === ref)
      if (!m) return fail('not_found', { Ref: ref })
      const end = (name) => {
        let n = resolve(name)
        if (!n) {
          n = { id: 'new-' + fold(name), name, type: 'concept', aliases: [], scope: m.scope, memories: 0, degree: 0 }
          nodes.push(n)
        }
        return n
      }
      const a = end(p.from)
      const b = end(p.to)
      const r = { id: m.id, slug: m.slug, title: m.title, scope: m.scope }
      edges.push({ id: `${a.id}-${p.type}-${b.id}`, source: a.id, target: b.id, type: p.type, memories: [r] })
      derive()
      return { changed: [r] }
    },
    DeleteRelation: async (p = {}) => {
      const i = edges.findIndex((e) => e.id === p.edge_id)
      if (i < 0) return fail('graph_edge_not_found', { Edge: p.edge_id })
      const [e] = edges.splice(i, 1)
      derive()
      return { changed: e.memories }
    },
  }
})
