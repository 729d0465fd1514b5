import { describe, expect, it } from 'vitest'
import type { Edge, Entity, GraphPathResult, Subgraph } from '@/api/graph'
import {
  colorFor,
  filterSubgraph,
  labelsFor,
  mergeSubgraphs,
  neighbourhood,
  nodeSize,
  pathHighlight,
  pathSubgraph,
  sceneFrame,
  sceneToSvg,
  typesOf,
} from '@/util/graph'
import { pickRenderer } from '@/views/graph/renderer'

const ent = (id: string, type: string, degree = 1, name = id): Entity => ({ id, name, type, aliases: [], scope: 'global', memories: 1, degree })
const edge = (source: string, type: string, target: string): Edge => ({ id: `${source}-${type}-${target}`, source, target, type, memories: [] })

const g: Subgraph = {
  nodes: [ent('alice', 'person', 3, 'Alice'), ent('zw', 'person', 1, '张伟'), ent('acme', 'organization', 2), ent('pg', 'tool', 1), ent('berlin', 'place', 1)],
  edges: [edge('alice', 'works_at', 'acme'), edge('alice', 'knows', 'zw'), edge('acme', 'uses', 'pg'), edge('alice', 'lives_in', 'berlin')],
  truncated: false,
}

describe('filterSubgraph', () => {
  it('keeps everything with no filter', () => {
    const f = filterSubgraph(g, { entityTypes: [], relationTypes: [] })
    expect(f.nodes).toHaveLength(5)
    expect(f.edges).toHaveLength(4)
  })
  it('drops nodes of other types and the edges that lose an end', () => {
    const f = filterSubgraph(g, { entityTypes: ['person'], relationTypes: [] })
    expect(f.nodes.map((n) => n.id)).toEqual(['alice', 'zw'])
    expect(f.edges.map((e) => e.id)).toEqual(['alice-knows-zw'])
  })
  it('filters relations by type and keeps the nodes', () => {
    const f = filterSubgraph(g, { entityTypes: [], relationTypes: ['works_at', 'uses'] })
    expect(f.nodes).toHaveLength(5)
    expect(f.edges.map((e) => e.type).sort()).toEqual(['uses', 'works_at'])
  })
  it('never hides what the person asked to see', () => {
    const f = filterSubgraph(g, { entityTypes: ['person'], relationTypes: [] }, ['acme'])
    expect(f.nodes.map((n) => n.id)).toContain('acme')
    expect(f.edges.map((e) => e.id)).toContain('alice-works_at-acme')
  })
  it('carries truncated through', () => {
    expect(filterSubgraph({ ...g, truncated: true }, { entityTypes: [], relationTypes: [] }).truncated).toBe(true)
  })
})

describe('typesOf and mergeSubgraphs', () => {
  it('lists the types present, sorted', () => {
    expect(typesOf(g)).toEqual({ entityTypes: ['organization', 'person', 'place', 'tool'], relationTypes: ['knows', 'lives_in', 'uses', 'works_at'] })
  })
  it('unions by id without duplicates', () => {
    const extra: Subgraph = { nodes: [ent('pg', 'tool'), ent('rust', 'tool')], edges: [edge('acme', 'uses', 'pg'), edge('rust', 'targets', 'pg')], truncated: true }
    const m = mergeSubgraphs(g, extra)
    expect(m.nodes).toHaveLength(6)
    expect(m.edges).toHaveLength(5)
    expect(m.truncated).toBe(true)
  })
})

describe('paths', () => {
  const found: GraphPathResult = {
    found: true,
    nodes: [g.nodes[1], g.nodes[0], g.nodes[2], g.nodes[3]],
    hops: [
      { from: 'zw', to: 'alice', edge: g.edges[1] },
      { from: 'alice', to: 'acme', edge: g.edges[0] },
      { from: 'acme', to: 'pg', edge: g.edges[2] },
    ],
  }
  it('highlights the entities and the edge of every hop', () => {
    const h = pathHighlight(found)
    expect([...h.nodes].sort()).toEqual(['acme', 'alice', 'pg', 'zw'])
    expect([...h.edges].sort()).toEqual(['acme-uses-pg', 'alice-knows-zw', 'alice-works_at-acme'])
  })
  it('highlights nothing when no path was found', () => {
    const h = pathHighlight({ found: false, nodes: [], hops: [] })
    expect(h.nodes.size + h.edges.size).toBe(0)
    expect(pathHighlight(null).nodes.size).toBe(0)
    expect(pathSubgraph({ found: false, nodes: [g.nodes[0]], hops: [] }).nodes).toHaveLength(0)
  })
  it('adds a path to a view that did not hold it', () => {
    const shown: Subgraph = { nodes: [g.nodes[0]], edges: [], truncated: false }
    const m = mergeSubgraphs(shown, pathSubgraph(found))
    expect(m.nodes.map((n) => n.id).sort()).toEqual(['acme', 'alice', 'pg', 'zw'])
    expect(m.edges).toHaveLength(3)
  })
  it('neighbourhood of a selection is the node, its neighbours and their edges', () => {
    const n = neighbourhood(g, 'acme')
    expect([...n.nodes].sort()).toEqual(['acme', 'alice', 'pg'])
    expect(n.edges.size).toBe(2)
  })
})

describe('labels and styling', () => {
  it('labels every node of a small graph', () => {
    expect(labelsFor(g.nodes, []).size).toBe(5)
  })
  it('labels only the important and best-connected nodes at scale', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ent('n' + i, 'concept', i % 50 === 0 ? 100 + i : 1))
    const l = labelsFor(many, ['n7', 'missing'], 10)
    expect(l.size).toBe(11)
    expect(l.has('n7')).toBe(true)
    expect(l.has('missing')).toBe(false)
    expect(l.has('n950')).toBe(true) // the highest degree
    expect(l.has('n3')).toBe(false)
  })
  it('gives known types fixed colours and others a stable one', () => {
    expect(colorFor('person')).toBe('#4f5fe8')
    expect(colorFor('写作风格')).toBe(colorFor('写作风格'))
    expect(colorFor('custom')).toMatch(/^#[0-9a-f]{6}$/)
  })
  it('sizes nodes by degree within bounds', () => {
    expect(nodeSize(0, 10)).toBe(4)
    expect(nodeSize(10, 10)).toBe(18)
    expect(nodeSize(3, 0)).toBe(6)
    expect(nodeSize(5, 100)).toBeGreaterThan(4)
  })
})

describe('export', () => {
  const scene = {
    background: '#fff',
    text: '#111',
    nodes: [
      { id: 'a', x: 0, y: 0, r: 5, color: '#4f5fe8', label: 'Alice & <Bob>' },
      { id: 'b', x: 100, y: 50, r: 5, color: '#e0920f', label: '张伟' },
      { id: 'c', x: 50, y: 100, r: 5, color: '#12a37f', dim: true },
    ],
    edges: [
      { source: 'a', target: 'b', color: '#999', width: 1 },
      { source: 'a', target: 'gone', color: '#999', width: 1 },
    ],
  }
  it('writes a standalone SVG with every node, drawn edges and escaped labels', () => {
    const svg = sceneToSvg(scene)
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect((svg.match(/<circle /g) || []).length).toBe(3)
    expect((svg.match(/<line /g) || []).length).toBe(1)
    expect(svg).toContain('Alice &amp; &lt;Bob&gt;')
    expect(svg).toContain('张伟')
    expect(svg).toContain('fill-opacity="0.25"')
  })
  it('fits large layouts into the picture and keeps small ones at scale 1', () => {
    const f = sceneFrame(scene)
    expect(f.scale).toBe(1)
    expect(f.map(-5, -5)).toEqual([40, 40])
    const big = { ...scene, nodes: [{ id: 'a', x: 0, y: 0, r: 5, color: '#000' }, { id: 'b', x: 10000, y: 0, r: 5, color: '#000' }] }
    expect(sceneFrame(big).width).toBeLessThanOrEqual(2000)
  })
})

describe('pickRenderer', () => {
  it('uses WebGL when there is some, else the canvas renderer', () => {
    expect(pickRenderer(null, true)).toBe('sigma')
    expect(pickRenderer(null, false)).toBe('cytoscape')
    expect(pickRenderer('sigma', false)).toBe('cytoscape')
    expect(pickRenderer('cytoscape', true)).toBe('cytoscape')
  })
})

describe('entity type labels', () => {
  // Every kind the store gives an entity (memory/graph_sync.go's Kind* constants, and "memory"
  // for a name only [[links]] give, graph/snapshot.go) reads in the UI's language: the legend
  // and the filter said "memory" in English in the Chinese UI.
  it('exist in both catalogs for every kind the backend assigns', async () => {
    const fs = await import('node:fs')
    const path = await import('node:path')
    const { catalog } = await import('@/i18n/catalogs')
    const backend = path.resolve(__dirname, '../../../backend')
    const kinds = new Set<string>()
    for (const m of fs.readFileSync(path.join(backend, 'memory/graph_sync.go'), 'utf8').matchAll(/^\s*Kind\w+\s*=\s*"(\w+)"/gm)) kinds.add(m[1])
    for (const m of fs.readFileSync(path.join(backend, 'graph/snapshot.go'), 'utf8').matchAll(/kinds\[i\]\["(\w+)"\]/g)) kinds.add(m[1])
    expect(kinds.has('memory') && kinds.has('person')).toBe(true)
    for (const lang of ['en', 'zh-CN'] as const) {
      const c = catalog(lang)
      for (const k of kinds) expect(c.has(`ui.graph.type.${k}`), `${lang} ui.graph.type.${k}`).toBe(true)
    }
  })
})
