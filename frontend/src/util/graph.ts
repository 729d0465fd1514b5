// Pure helpers of the Graph view: what to draw from a Subgraph (filters, colours, sizes, which
// labels), what a path highlights, and the exported picture (SVG text, or drawn on a canvas for
// PNG). Renderer-independent so both renderers and the exports agree, and testable without a
// browser.

import type { Edge, Entity, GraphPathResult, Subgraph } from '@/api/graph'

export interface GraphFilters {
  /** Entity types to show; empty shows every type. */
  entityTypes: string[]
  /** Relation types to show; empty shows every type. */
  relationTypes: string[]
}

/**
 * The part of a subgraph the filters let through. Nodes in `keep` (the focused entity, a path's
 * ends) stay whatever their type, so a filter never hides what the person asked to see. Edges
 * need both ends shown.
 */
export function filterSubgraph(sub: Subgraph, f: GraphFilters, keep: Iterable<string> = []): Subgraph {
  const kept = new Set(keep)
  const et = new Set(f.entityTypes)
  const rt = new Set(f.relationTypes)
  const nodes = sub.nodes.filter((n) => kept.has(n.id) || et.size === 0 || et.has(n.type))
  const ids = new Set(nodes.map((n) => n.id))
  const edges = sub.edges.filter((e) => ids.has(e.source) && ids.has(e.target) && (rt.size === 0 || rt.has(e.type)))
  return { nodes, edges, truncated: sub.truncated }
}

/** Entity and relation types present, sorted, for the filter pickers and the legend. */
export function typesOf(sub: Subgraph): { entityTypes: string[]; relationTypes: string[] } {
  const et = new Set(sub.nodes.map((n) => n.type))
  const rt = new Set(sub.edges.map((e) => e.type))
  return { entityTypes: [...et].sort(), relationTypes: [...rt].sort() }
}

/** Union of two subgraphs by id (a found path added to what is shown). */
export function mergeSubgraphs(a: Subgraph, b: Subgraph): Subgraph {
  const nodes = new Map<string, Entity>()
  for (const n of a.nodes) nodes.set(n.id, n)
  for (const n of b.nodes) if (!nodes.has(n.id)) nodes.set(n.id, n)
  const edges = new Map<string, Edge>()
  for (const e of a.edges) edges.set(e.id, e)
  for (const e of b.edges) if (!edges.has(e.id)) edges.set(e.id, e)
  return { nodes: [...nodes.values()], edges: [...edges.values()], truncated: a.truncated || b.truncated }
}

/** A path as a subgraph: its entities and the edge of every hop. */
export function pathSubgraph(p: GraphPathResult): Subgraph {
  if (!p.found) return { nodes: [], edges: [], truncated: false }
  return { nodes: p.nodes, edges: p.hops.map((h) => h.edge), truncated: false }
}

/** What a path highlights: its entities and the edges of its hops (none when not found). */
export function pathHighlight(p: GraphPathResult | null): { nodes: Set<string>; edges: Set<string> } {
  if (!p || !p.found) return { nodes: new Set(), edges: new Set() }
  const nodes = new Set(p.nodes.map((n) => n.id))
  for (const h of p.hops) nodes.add(h.from).add(h.to)
  return { nodes, edges: new Set(p.hops.map((h) => h.edge.id)) }
}

/** A selection's highlight: the entity and its direct neighbours and edges. */
export function neighbourhood(sub: Subgraph, id: string): { nodes: Set<string>; edges: Set<string> } {
  const nodes = new Set([id])
  const edges = new Set<string>()
  for (const e of sub.edges) {
    if (e.source === id || e.target === id) {
      nodes.add(e.source).add(e.target)
      edges.add(e.id)
    }
  }
  return { nodes, edges }
}

/** The name the person's own entity is stored under (memory.PersonSubject in the Go store):
 *  subject-less relation lines of user and feedback memories are about it. */
export const PERSON_SUBJECT = 'User'

/** Whether an entity is the person's own: shown as "You" in the person's language wherever the
 *  UI names it, while its stored name (what edits write) stays "User". */
export function isPersonSubject(e: { name: string; type: string } | null | undefined): boolean {
  return !!e && e.name === PERSON_SUBJECT && e.type === 'person'
}

/** The scope instance of an entity or a memory: global, one project (by folder), one agent. */
export interface ScopeRef {
  scope: string
  workdir?: string
  agent?: string
}

/** A project folder's last part ("/home/ada/src/acme-billing" → "acme-billing"). */
export function folderName(workdir: string | undefined): string {
  const parts = (workdir ?? '').split(/[\\/]/).filter(Boolean)
  return parts.length ? parts[parts.length - 1] : (workdir ?? '')
}

/**
 * Whether two things live in the same scope instance: a [[Name]] written into a memory names
 * the entity of that name in the memory's own scope (a new one when there is none there).
 * Projects compare by folder; the trailing separator aside.
 */
export function sameScope(a: ScopeRef, b: ScopeRef): boolean {
  if (a.scope !== b.scope) return false
  const trim = (s: string | undefined) => (s ?? '').trim().replace(/[\\/]+$/, '')
  if (a.scope === 'project') return trim(a.workdir) === trim(b.workdir)
  if (a.scope === 'agent') return trim(a.agent) === trim(b.agent)
  return true
}

/** Up to this many nodes every label is drawn; above it only the ones labelsFor picks. */
export const ALL_LABELS_UP_TO = 150
/** How many of the best-connected nodes keep a label in a large graph. */
export const TOP_LABELS = 40

/**
 * Which nodes carry a label. Small graphs: all. At scale only the ones that matter: the focused
 * and selected entities, the highlighted ones (path, neighbours of the selection) and the
 * best-connected nodes — thousands of labels would cover the picture and cost every frame.
 */
export function labelsFor(nodes: Entity[], important: Iterable<string>, top = TOP_LABELS, allUpTo = ALL_LABELS_UP_TO): Set<string> {
  if (nodes.length <= allUpTo) return new Set(nodes.map((n) => n.id))
  const out = new Set<string>()
  const present = new Set(nodes.map((n) => n.id))
  for (const id of important) if (present.has(id)) out.add(id)
  const byDegree = [...nodes].sort((a, b) => b.degree - a.degree || a.name.localeCompare(b.name))
  for (let i = 0; i < byDegree.length && i < top; i++) out.add(byDegree[i].id)
  return out
}

// Mid-tone colours readable on light and dark backgrounds.
const TYPE_COLORS: Record<string, string> = {
  person: '#4f5fe8',
  organization: '#e0920f',
  project: '#12a37f',
  tool: '#8b5cf6',
  place: '#e2556f',
  concept: '#0ea5b7',
  event: '#c2410c',
}
const EXTRA = ['#64748b', '#a16207', '#0891b2', '#be185d', '#4d7c0f', '#7c3aed', '#b45309', '#0f766e']

/** The colour of an entity type: fixed for the known types, stable by name for the others. */
export function colorFor(type: string): string {
  const c = TYPE_COLORS[type]
  if (c) return c
  let h = 0
  for (const ch of type) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0
  return EXTRA[h % EXTRA.length]
}

/** Node radius in pixels by degree: 4 for a leaf, growing with the square root, at most 18. */
export function nodeSize(degree: number, maxDegree: number): number {
  if (maxDegree <= 0) return 6
  return Math.round((4 + 14 * Math.sqrt(Math.max(0, degree) / maxDegree)) * 10) / 10
}

/** Everything an exported picture needs: positions from the renderer, styling from the view. */
export interface Scene {
  background: string
  text: string
  nodes: { id: string; x: number; y: number; r: number; color: string; label?: string; dim?: boolean; ring?: boolean }[]
  edges: { source: string; target: string; color: string; width: number }[]
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string)

/** Picture bounds: the scene fitted into a box of at most `max` px on its longest side. */
export function sceneFrame(scene: Scene, max = 2000, pad = 40): { width: number; height: number; map: (x: number, y: number) => [number, number]; scale: number } {
  let x0 = Infinity
  let y0 = Infinity
  let x1 = -Infinity
  let y1 = -Infinity
  for (const n of scene.nodes) {
    x0 = Math.min(x0, n.x - n.r)
    y0 = Math.min(y0, n.y - n.r)
    x1 = Math.max(x1, n.x + n.r)
    y1 = Math.max(y1, n.y + n.r)
  }
  if (!scene.nodes.length) {
    x0 = y0 = 0
    x1 = y1 = 1
  }
  const w = Math.max(1, x1 - x0)
  const h = Math.max(1, y1 - y0)
  const scale = Math.min(1, (max - 2 * pad) / Math.max(w, h)) || 1
  const width = Math.ceil(w * scale + 2 * pad)
  const height = Math.ceil(h * scale + 2 * pad)
  return { width, height, scale, map: (x, y) => [pad + (x - x0) * scale, pad + (y - y0) * scale] }
}

/** The scene as a standalone SVG document. */
export function sceneToSvg(scene: Scene): string {
  const f = sceneFrame(scene)
  const pos = new Map(scene.nodes.map((n) => [n.id, f.map(n.x, n.y)]))
  const out: string[] = []
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${f.width}" height="${f.height}" viewBox="0 0 ${f.width} ${f.height}">`)
  out.push(`<rect width="100%" height="100%" fill="${escapeXml(scene.background)}"/>`)
  out.push('<g stroke-linecap="round">')
  for (const e of scene.edges) {
    const a = pos.get(e.source)
    const b = pos.get(e.target)
    if (!a || !b) continue
    out.push(`<line x1="${a[0].toFixed(1)}" y1="${a[1].toFixed(1)}" x2="${b[0].toFixed(1)}" y2="${b[1].toFixed(1)}" stroke="${escapeXml(e.color)}" stroke-width="${e.width}"/>`)
  }
  out.push('</g><g>')
  for (const n of scene.nodes) {
    const [x, y] = pos.get(n.id) as [number, number]
    const r = Math.max(1.5, n.r * Math.max(f.scale, 0.5))
    const ring = n.ring ? ` stroke="${escapeXml(scene.text)}" stroke-width="2"` : ''
    out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r.toFixed(1)}" fill="${escapeXml(n.color)}"${n.dim ? ' fill-opacity="0.25"' : ''}${ring}/>`)
  }
  out.push(`</g><g font-family="sans-serif" font-size="12" fill="${escapeXml(scene.text)}">`)
  for (const n of scene.nodes) {
    if (!n.label) continue
    const [x, y] = pos.get(n.id) as [number, number]
    const r = Math.max(1.5, n.r * Math.max(f.scale, 0.5))
    out.push(`<text x="${(x + r + 3).toFixed(1)}" y="${(y + 4).toFixed(1)}">${escapeXml(n.label)}</text>`)
  }
  out.push('</g></svg>')
  return out.join('\n')
}

/** Draws the scene on a 2D canvas (the PNG export); returns the canvas size used. */
export function drawScene(canvas: HTMLCanvasElement, scene: Scene, ratio = 2): void {
  const f = sceneFrame(scene)
  canvas.width = Math.ceil(f.width * ratio)
  canvas.height = Math.ceil(f.height * ratio)
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new Error('graph: no 2d canvas')
  ctx.scale(ratio, ratio)
  ctx.fillStyle = scene.background
  ctx.fillRect(0, 0, f.width, f.height)
  const pos = new Map(scene.nodes.map((n) => [n.id, f.map(n.x, n.y)]))
  ctx.lineCap = 'round'
  for (const e of scene.edges) {
    const a = pos.get(e.source)
    const b = pos.get(e.target)
    if (!a || !b) continue
    ctx.strokeStyle = e.color
    ctx.lineWidth = e.width
    ctx.beginPath()
    ctx.moveTo(a[0], a[1])
    ctx.lineTo(b[0], b[1])
    ctx.stroke()
  }
  for (const n of scene.nodes) {
    const [x, y] = pos.get(n.id) as [number, number]
    const r = Math.max(1.5, n.r * Math.max(f.scale, 0.5))
    ctx.globalAlpha = n.dim ? 0.25 : 1
    ctx.fillStyle = n.color
    ctx.beginPath()
    ctx.arc(x, y, r, 0, Math.PI * 2)
    ctx.fill()
    ctx.globalAlpha = 1
    if (n.ring) {
      ctx.strokeStyle = scene.text
      ctx.lineWidth = 2
      ctx.stroke()
    }
  }
  ctx.fillStyle = scene.text
  ctx.font = '12px sans-serif'
  for (const n of scene.nodes) {
    if (!n.label) continue
    const [x, y] = pos.get(n.id) as [number, number]
    const r = Math.max(1.5, n.r * Math.max(f.scale, 0.5))
    ctx.fillText(n.label, x + r + 3, y + 4)
  }
}
