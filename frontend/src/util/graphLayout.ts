// Geometry both graph renderers share, pure so it is tested without a browser: where on the
// canvas a graph can be drawn (the legend and the zoom buttons cover parts of it), the zoom and
// offset that fit a picture into that area with its labels, and spreading a small graph's
// nodes until no label covers another node or label.

export interface Rect {
  x: number
  y: number
  w: number
  h: number
}

/**
 * The areas of a w × h canvas left free by the overlays covering it (rectangles in the
 * canvas's pixels), each pad px clear of them and of the edges: above every overlay on the
 * whole width, and between the left and the right overlays on the whole height. The legend
 * sits bottom left and the zoom buttons bottom right; which area shows a graph biggest
 * depends on the graph's shape, so the fit tries each. The whole canvas when nothing covers it.
 */
export function freeAreas(w: number, h: number, covered: Rect[], pad = 12): Rect[] {
  const inner = { x: pad, y: pad, w: w - 2 * pad, h: h - 2 * pad }
  const over = covered.filter((r) => r.w > 0 && r.h > 0 && r.x < w && r.y < h && r.x + r.w > 0 && r.y + r.h > 0)
  if (!over.length) return [inner]
  const top = Math.min(...over.map((r) => r.y))
  const left = Math.max(0, ...over.filter((r) => r.x + r.w / 2 < w / 2).map((r) => r.x + r.w))
  const right = Math.min(w, ...over.filter((r) => r.x + r.w / 2 >= w / 2).map((r) => r.x))
  const out: Rect[] = [
    { x: pad, y: pad, w: w - 2 * pad, h: top - 2 * pad },
    { x: left + pad, y: pad, w: right - left - 2 * pad, h: h - 2 * pad },
  ].filter((r) => r.w >= 60 && r.h >= 60)
  return out.length ? out : [inner]
}

/**
 * A node as the fit sees it: its centre in pixels at zoom 1, and how far its disc and label
 * reach from it in pixels at any zoom (labels keep their size when the view zooms).
 */
export interface FitBox {
  x: number
  y: number
  left: number
  right: number
  top: number
  bottom: number
}

function extent(boxes: FitBox[], z: number, axis: 'x' | 'y'): [number, number] {
  let lo = Infinity
  let hi = -Infinity
  for (const b of boxes) {
    const c = axis === 'x' ? b.x : b.y
    lo = Math.min(lo, z * c - (axis === 'x' ? b.left : b.top))
    hi = Math.max(hi, z * c + (axis === 'x' ? b.right : b.bottom))
  }
  return [lo, hi]
}

/**
 * The zoom (at most maxZoom) and offset that put every box inside area, centred: a point at
 * p (pixels at zoom 1) is drawn at z · p + t. The largest zoom that fits, found by bisection
 * (the picture's width grows with the zoom once past its labels' own width).
 */
export function fitBoxes(boxes: FitBox[], area: Rect, maxZoom = 1): { z: number; tx: number; ty: number } {
  if (!boxes.length) return { z: maxZoom, tx: 0, ty: 0 }
  const fits = (z: number) => {
    const [x0, x1] = extent(boxes, z, 'x')
    const [y0, y1] = extent(boxes, z, 'y')
    return x1 - x0 <= area.w && y1 - y0 <= area.h
  }
  let z = maxZoom
  if (!fits(z)) {
    let lo = maxZoom / 1000
    let hi = maxZoom
    for (let i = 0; i < 40; i++) {
      const mid = (lo + hi) / 2
      if (fits(mid)) lo = mid
      else hi = mid
    }
    z = lo
  }
  const [x0, x1] = extent(boxes, z, 'x')
  const [y0, y1] = extent(boxes, z, 'y')
  return { z, tx: area.x + (area.w - (x1 - x0)) / 2 - x0, ty: area.y + (area.h - (y1 - y0)) / 2 - y0 }
}

/** The best fit over several areas: the one that shows the graph biggest. */
export function fitInAreas(boxes: FitBox[], areas: Rect[], maxZoom = 1): { z: number; tx: number; ty: number; area: Rect } {
  let best: { z: number; tx: number; ty: number; area: Rect } | null = null
  for (const a of areas) {
    const f = fitBoxes(boxes, a, maxZoom)
    if (!best || f.z > best.z + 1e-9) best = { ...f, area: a }
  }
  return best ?? { z: maxZoom, tx: 0, ty: 0, area: areas[0] }
}

/** A node for spreadLabels: graph coordinates, its radius and its label's width in pixels. */
export interface SpreadNode {
  x: number
  y: number
  r: number
  /** Label width in pixels (0: no label). */
  w: number
}

/**
 * Moves a small graph's nodes apart until, fitted into a w × h picture (pad px from its edges),
 * no node's disc and label (drawn to its right) covers another's, or rounds run out. Works on
 * graph coordinates (x, y; mutated): the scale from graph units to pixels is the fit's, taken
 * again each round as the picture spreads. Returns how many overlaps were left.
 */
export function spreadLabels(nodes: SpreadNode[], w: number, h: number, pad = 30, rounds = 80, gap = 4, labelHalf = 8): number {
  const n = nodes.length
  if (n < 2) return 0
  let left = 0
  for (let round = 0; round < rounds; round++) {
    let x0 = Infinity
    let x1 = -Infinity
    let y0 = Infinity
    let y1 = -Infinity
    for (const p of nodes) {
      x0 = Math.min(x0, p.x)
      x1 = Math.max(x1, p.x)
      y0 = Math.min(y0, p.y)
      y1 = Math.max(y1, p.y)
    }
    const s = Math.min((w - 2 * pad) / Math.max(x1 - x0, 1e-9), (h - 2 * pad) / Math.max(y1 - y0, 1e-9))
    if (!isFinite(s) || s <= 0) return 0
    left = 0
    for (let i = 0; i < n; i++) {
      const a = nodes[i]
      const ah = Math.max(a.r, a.w ? labelHalf : 0)
      for (let j = i + 1; j < n; j++) {
        const b = nodes[j]
        const bh = Math.max(b.r, b.w ? labelHalf : 0)
        // Boxes in pixels: the disc, and the label to its right.
        const al = a.x * s - a.r
        const ar = a.x * s + a.r + (a.w ? 3 + a.w : 0)
        const bl = b.x * s - b.r
        const br = b.x * s + b.r + (b.w ? 3 + b.w : 0)
        const ox = Math.min(ar, br) - Math.max(al, bl) + gap
        const oy = Math.min(a.y * s + ah, b.y * s + bh) - Math.max(a.y * s - ah, b.y * s - bh) + gap
        if (ox <= 0 || oy <= 0) continue
        left++
        // Apart along the axis that needs the shorter move, half each.
        if (oy <= ox) {
          const d = oy / 2 / s
          const up = a.y > b.y || (a.y === b.y && i % 2 === 0) ? 1 : -1
          a.y += up * d
          b.y -= up * d
        } else {
          const d = ox / 2 / s
          const right = a.x > b.x || (a.x === b.x && i % 2 === 0) ? 1 : -1
          a.x += right * d
          b.x -= right * d
        }
      }
    }
    if (!left) return 0
  }
  return left
}

/** How far apart, in pixels, a small graph's nodes are drawn at most (median nearest neighbour). */
export const SPREAD_GAP = 180

/**
 * The largest zoom worth drawing a small graph at: its nodes' median distance to their nearest
 * neighbour at most gap px — a fit alone blew three unrelated entities up to the canvas's
 * corners — but never so small that a disc or label covers another (labels keep their size
 * when the view zooms, so overlaps only grow as it zooms out). Infinity for fewer than two.
 */
export function compactZoom(boxes: FitBox[], gap = SPREAD_GAP, margin = 4): number {
  const n = boxes.length
  if (n < 2) return Infinity
  const nearest = new Array<number>(n).fill(Infinity)
  let floor = 0
  for (let i = 0; i < n; i++) {
    const a = boxes[i]
    for (let j = i + 1; j < n; j++) {
      const b = boxes[j]
      const dx = b.x - a.x
      const dy = b.y - a.y
      const d = Math.hypot(dx, dy)
      nearest[i] = Math.min(nearest[i], d)
      nearest[j] = Math.min(nearest[j], d)
      // Apart at zoom z once either axis separates them: z·|d| ≥ the reach of both boxes.
      const sx = (dx >= 0 ? a.right + b.left : a.left + b.right) + margin
      const sy = (dy >= 0 ? a.bottom + b.top : a.top + b.bottom) + margin
      const need = Math.min(dx ? sx / Math.abs(dx) : Infinity, dy ? sy / Math.abs(dy) : Infinity)
      if (Number.isFinite(need)) floor = Math.max(floor, need)
    }
  }
  const sorted = nearest.filter((d) => d > 0 && Number.isFinite(d)).sort((x, y) => x - y)
  if (!sorted.length) return Infinity
  const median = sorted[Math.floor(sorted.length / 2)]
  return Math.max(gap / median, floor)
}

/** A node for packComponents: its id and its place in graph coordinates (mutated). */
export interface PackNode {
  id: string
  x: number
  y: number
}

/**
 * Moves a graph's connected components next to one another, biggest first, in rows about as
 * wide as they are tall, each a unit apart (the median relation's length, or for a graph without
 * relations the spacing its nodes already have). A force layout pushes unconnected parts away
 * from each other without end: a pair of entities unrelated to the rest was drawn in a far
 * corner and the fit shrank the whole picture to keep it. Within a component nothing moves.
 */
export function packComponents(nodes: PackNode[], edges: { source: string; target: string }[]): void {
  if (nodes.length < 2) return
  const index = new Map(nodes.map((n, i) => [n.id, i]))
  const parent = nodes.map((_, i) => i)
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]]
      i = parent[i]
    }
    return i
  }
  const lengths: number[] = []
  for (const e of edges) {
    const a = index.get(e.source)
    const b = index.get(e.target)
    if (a === undefined || b === undefined) continue
    parent[find(a)] = find(b)
    if (a !== b) lengths.push(Math.hypot(nodes[a].x - nodes[b].x, nodes[a].y - nodes[b].y))
  }
  const groups = new Map<number, PackNode[]>()
  nodes.forEach((n, i) => {
    const r = find(i)
    const g = groups.get(r)
    if (g) g.push(n)
    else groups.set(r, [n])
  })
  if (groups.size < 2) return
  let unit: number
  if (lengths.length) {
    lengths.sort((a, b) => a - b)
    unit = lengths[Math.floor(lengths.length / 2)]
  } else {
    const xs = nodes.map((n) => n.x)
    const ys = nodes.map((n) => n.y)
    unit = Math.hypot(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) / Math.sqrt(nodes.length) / 2
  }
  if (!(unit > 0) || !Number.isFinite(unit)) unit = 1
  const boxes = [...groups.values()].map((members) => {
    let x0 = Infinity
    let y0 = Infinity
    let x1 = -Infinity
    let y1 = -Infinity
    for (const n of members) {
      x0 = Math.min(x0, n.x)
      y0 = Math.min(y0, n.y)
      x1 = Math.max(x1, n.x)
      y1 = Math.max(y1, n.y)
    }
    return { members, x0, y0, w: x1 - x0 + unit, h: y1 - y0 + unit }
  })
  boxes.sort((a, b) => b.w * b.h - a.w * a.h || b.members.length - a.members.length)
  const area = boxes.reduce((s, b) => s + b.w * b.h, 0)
  const rowWidth = Math.max(boxes[0].w, Math.sqrt(area) * 1.2)
  let x = 0
  let y = 0
  let rowH = 0
  for (const b of boxes) {
    if (x > 0 && x + b.w > rowWidth) {
      y += rowH
      x = 0
      rowH = 0
    }
    const dx = x + unit / 2 - b.x0
    const dy = y + unit / 2 - b.y0
    for (const n of b.members) {
      n.x += dx
      n.y += dy
    }
    x += b.w
    rowH = Math.max(rowH, b.h)
  }
}
