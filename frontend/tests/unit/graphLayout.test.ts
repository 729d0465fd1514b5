import { describe, expect, it } from 'vitest'
import { compactZoom, fitBoxes, packComponents, fitInAreas, freeAreas, spreadLabels, type FitBox, type SpreadNode } from '@/util/graphLayout'
import { folderName, isPersonSubject, sameScope } from '@/util/graph'

describe('freeAreas', () => {
  it('is the whole canvas, padded, when nothing covers it', () => {
    expect(freeAreas(600, 400, [])).toEqual([{ x: 12, y: 12, w: 576, h: 376 }])
  })
  it('offers the band above the overlays and the band between them', () => {
    const legend = { x: 12, y: 250, w: 150, h: 138 }
    const zoom = { x: 560, y: 300, w: 28, h: 88 }
    expect(freeAreas(600, 400, [legend, zoom])).toEqual([
      { x: 12, y: 12, w: 576, h: 226 },
      { x: 174, y: 12, w: 374, h: 376 },
    ])
  })
})

const box = (x: number, y: number, label = 0, r = 5): FitBox => ({ x, y, left: r, right: r + label, top: r, bottom: r })

describe('fitBoxes', () => {
  it('keeps zoom 1 when everything fits, centred in the area', () => {
    const f = fitBoxes([box(0, 0), box(100, 50)], { x: 0, y: 0, w: 400, h: 300 })
    expect(f.z).toBe(1)
    // 110 × 60 picture centred in 400 × 300
    expect(f.tx).toBeCloseTo(145 + 5)
    expect(f.ty).toBeCloseTo(120 + 5)
  })
  it('zooms out until the labels fit too (they keep their size)', () => {
    const f = fitBoxes([box(0, 0), box(1000, 0, 100)], { x: 0, y: 0, w: 500, h: 300 })
    // 1000·z + 5 + 105 ≤ 500
    expect(f.z).toBeCloseTo(0.39, 2)
    const right = f.z * 1000 + f.tx + 105
    expect(right).toBeLessThanOrEqual(500 + 1e-6)
    expect(f.tx - 5).toBeGreaterThanOrEqual(-1e-6)
  })
  it('picks the area that shows the graph biggest', () => {
    const tall = [box(0, 0), box(0, 600)]
    const areas = [
      { x: 0, y: 0, w: 800, h: 200 },
      { x: 200, y: 0, w: 400, h: 600 },
    ]
    expect(fitInAreas(tall, areas).area).toBe(areas[1])
  })
})

describe('spreadLabels', () => {
  it('moves apart nodes whose labels cover each other, and leaves none', () => {
    const nodes: SpreadNode[] = [
      { x: 0, y: 0, r: 6, w: 60 },
      { x: 1, y: 0.2, r: 6, w: 60 },
      { x: 10, y: 10, r: 6, w: 60 },
      { x: 0, y: 10, r: 6, w: 60 },
    ]
    expect(spreadLabels(nodes, 400, 300)).toBe(0)
  })
  it('leaves a graph with room to spare as it is', () => {
    const nodes: SpreadNode[] = [
      { x: 0, y: 0, r: 4, w: 30 },
      { x: 100, y: 100, r: 4, w: 30 },
    ]
    spreadLabels(nodes, 800, 600)
    expect(nodes).toEqual([
      { x: 0, y: 0, r: 4, w: 30 },
      { x: 100, y: 100, r: 4, w: 30 },
    ])
  })
})

describe('the person', () => {
  it('is known by the stored name and type', () => {
    expect(isPersonSubject({ name: 'User', type: 'person' })).toBe(true)
    expect(isPersonSubject({ name: 'User', type: 'tool' })).toBe(false)
    expect(isPersonSubject({ name: 'Alice', type: 'person' })).toBe(false)
  })
})

describe('scopes', () => {
  it('compares scope instances: projects by folder, agents by name', () => {
    expect(sameScope({ scope: 'global' }, { scope: 'global' })).toBe(true)
    expect(sameScope({ scope: 'project', workdir: '/a/widget' }, { scope: 'project', workdir: '/a/widget/' })).toBe(true)
    expect(sameScope({ scope: 'project', workdir: '/a/widget' }, { scope: 'project', workdir: '/a/billing' })).toBe(false)
    expect(sameScope({ scope: 'agent', agent: 'codex' }, { scope: 'agent', agent: 'claude' })).toBe(false)
    expect(sameScope({ scope: 'global' }, { scope: 'project', workdir: '/a' })).toBe(false)
    expect(folderName('/home/ada/src/acme-billing')).toBe('acme-billing')
    expect(folderName('C:\\src\\widget\\')).toBe('widget')
  })
})

describe('compactZoom', () => {
  const box = (x: number, y: number, w = 0) => ({ x, y, left: 5, right: 5 + (w ? 3 + w : 0), top: 8, bottom: 8 })
  it('draws three scattered entities near each other: nearest neighbours at most the gap apart', () => {
    const boxes = [box(0, 0, 40), box(900, 50, 40), box(400, 600, 40)]
    const z = compactZoom(boxes, 180)
    // Nearest-neighbour distances at zoom z: the median is the gap.
    const d = (a: number, b: number) => Math.hypot(boxes[a].x - boxes[b].x, boxes[a].y - boxes[b].y) * z
    const nn = [Math.min(d(0, 1), d(0, 2)), Math.min(d(1, 0), d(1, 2)), Math.min(d(2, 0), d(2, 1))].sort((a, b) => a - b)
    expect(nn[1]).toBeCloseTo(180, 5)
    expect(z).toBeLessThan(1)
  })
  it('never zooms out so far that a label covers the next node', () => {
    // Two nodes 100 px apart on a line, the first with a 300 px label: its label (reaching 308 px
    // right) and the second disc (5 px left) apart only from zoom 3.13 on.
    const boxes = [box(0, 0, 300), box(100, 0)]
    const z = compactZoom(boxes, 50)
    expect(z * 100).toBeGreaterThanOrEqual(5 + 3 + 300 + 5)
  })
  it('places no cap on a single node', () => {
    expect(compactZoom([box(0, 0)])).toBe(Infinity)
  })
})

describe('packComponents', () => {
  it('brings a far pair next to the main part, keeping each part as it was laid out', () => {
    const nodes = [
      { id: 'a', x: 0, y: 0 },
      { id: 'b', x: 10, y: 0 },
      { id: 'c', x: 5, y: 8 },
      { id: 'p', x: 5000, y: -4000 },
      { id: 'q', x: 5010, y: -4000 },
      { id: 'lone', x: -3000, y: 9000 },
    ]
    const edges = [
      { source: 'a', target: 'b' },
      { source: 'b', target: 'c' },
      { source: 'p', target: 'q' },
    ]
    const before = new Map(nodes.map((n) => [n.id, { ...n }]))
    packComponents(nodes, edges)
    const at = (id: string) => nodes.find((n) => n.id === id)!
    // Inside a part the offsets are unchanged.
    expect(at('b').x - at('a').x).toBeCloseTo(before.get('b')!.x - before.get('a')!.x)
    expect(at('c').y - at('a').y).toBeCloseTo(before.get('c')!.y - before.get('a')!.y)
    expect(at('q').x - at('p').x).toBeCloseTo(10)
    // The whole picture is a few relations wide, not thousands of units.
    const xs = nodes.map((n) => n.x)
    const ys = nodes.map((n) => n.y)
    expect(Math.max(...xs) - Math.min(...xs)).toBeLessThan(60)
    expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(60)
    // Parts do not overlap: the pair's box is clear of the main part's.
    const main = ['a', 'b', 'c'].map(at)
    const pair = ['p', 'q'].map(at)
    const box = (ns: { x: number; y: number }[]) => [Math.min(...ns.map((n) => n.x)), Math.max(...ns.map((n) => n.x)), Math.min(...ns.map((n) => n.y)), Math.max(...ns.map((n) => n.y))]
    const [m0, m1, m2, m3] = box(main)
    const [p0, p1, p2, p3] = box(pair)
    expect(p0 > m1 || p1 < m0 || p2 > m3 || p3 < m2).toBe(true)
  })
  it('leaves a connected graph where it was', () => {
    const nodes = [
      { id: 'a', x: 1, y: 2 },
      { id: 'b', x: 300, y: 400 },
    ]
    packComponents(nodes, [{ source: 'a', target: 'b' }])
    expect(nodes).toEqual([
      { id: 'a', x: 1, y: 2 },
      { id: 'b', x: 300, y: 400 },
    ])
  })
})
