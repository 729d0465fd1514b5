// What the Graph view asks of a renderer. Two implementations, each loaded only when used:
// sigma.js + graphology on WebGL (the default, chosen by measurement: see README § Graph) and
// cytoscape + fcose on a 2D canvas (where WebGL is missing, e.g. a WebKitGTK window without GL).
import type { Rect } from '@/util/graphLayout'

export type RendererKind = 'sigma' | 'cytoscape'

export interface RenderNode {
  id: string
  label: string
  color: string
  size: number
}
export interface RenderEdge {
  id: string
  source: string
  target: string
  type: string
}

export interface RenderTheme {
  background: string
  text: string
  edge: string
  highlight: string
  dim: string
}

/** Styling that changes without a new layout: labels, highlight, selection, theme. */
export interface RenderStyle {
  labels: Set<string>
  /** When non-empty, everything else is dimmed. */
  highlightNodes: Set<string>
  highlightEdges: Set<string>
  /** Edges of a found path: drawn thicker, with their relation type. */
  pathEdges: Set<string>
  selected: string | null
  theme: RenderTheme
}

export interface RenderHandlers {
  node(id: string): void
  edge(id: string): void
  background(): void
  /** What covers parts of the canvas (the legend, the zoom buttons), in the canvas's pixels:
   *  a fit draws the graph beside them. */
  covered?(): Rect[]
  /** The renderer can no longer draw (its WebGL context was lost): the view mounts the other. */
  lost?(): void
}

export interface GraphRenderer {
  readonly kind: RendererKind
  /** Replaces the graph and lays it out; resolves once laid out and drawn. */
  setGraph(nodes: RenderNode[], edges: RenderEdge[], style: RenderStyle): Promise<void>
  setStyle(style: RenderStyle): void
  /** Centres the view on a node. */
  center(id: string): void
  /** Shows the whole graph, labels included, in the part of the canvas nothing covers. */
  fit(): void
  /** Follows a new size of the container (the side panel opened or closed): fitted again
   *  unless the person has zoomed or panned since the last fit. */
  resize(): void
  zoom(factor: number): void
  /** Layout positions (graph coordinates, y down) for the exports. */
  positions(): Map<string, { x: number; y: number }>
  /** Where a node is drawn, in pixels from the container's top left (tests click there). */
  screenPosition(id: string): { x: number; y: number } | null
  /** How many node labels the last frame drew (tests check a small graph labels every node). */
  labelCount(): number
  /** Moves the view by screen pixels (the bench pans with it). */
  panBy(dx: number, dy: number): void
  /** Called after every frame the renderer draws. */
  onFrame(cb: () => void): void
  destroy(): void
}

export type RendererFactory = (el: HTMLElement, h: RenderHandlers) => Promise<GraphRenderer>

/** True when this window can give sigma a WebGL context (WebKitGTK without GL cannot). */
export function webglAvailable(): boolean {
  try {
    const c = document.createElement('canvas')
    const gl = c.getContext('webgl2') || c.getContext('webgl')
    // The probe's context is let go at once: a page may hold only so many, and the engine
    // takes the oldest live one (a drawn graph's) when a new one goes over.
    gl?.getExtension('WEBGL_lose_context')?.loseContext()
    return !!gl
  } catch {
    return false
  }
}

/** The renderer to use: the one asked for (localStorage "engram.graph.renderer"), else sigma
 *  where WebGL works, else cytoscape. */
export function pickRenderer(asked: string | null, webgl: boolean): RendererKind {
  if (asked === 'cytoscape') return 'cytoscape'
  if (asked === 'sigma' && webgl) return 'sigma'
  return webgl ? 'sigma' : 'cytoscape'
}

export async function loadRenderer(kind: RendererKind): Promise<RendererFactory> {
  if (kind === 'sigma') return (await import('./sigmaRenderer')).createSigmaRenderer
  return (await import('./cyRenderer')).createCytoscapeRenderer
}

/**
 * Whether the person moved the view themselves (wheel, a drag, a pinch) since the last fit:
 * a renderer then keeps their view when its container changes size. Listens on the container,
 * so it does not matter which renderer moves the camera; returns the listener's remover.
 */
export function watchUserMoves(el: HTMLElement, moved: () => void): () => void {
  let down: { x: number; y: number } | null = null
  const wheel = () => moved()
  const pointerdown = (e: PointerEvent) => (down = { x: e.clientX, y: e.clientY })
  const pointermove = (e: PointerEvent) => {
    if (down && e.buttons && Math.hypot(e.clientX - down.x, e.clientY - down.y) > 4) {
      down = null
      moved()
    }
  }
  const pointerup = () => (down = null)
  el.addEventListener('wheel', wheel, { passive: true })
  el.addEventListener('pointerdown', pointerdown)
  el.addEventListener('pointermove', pointermove)
  window.addEventListener('pointerup', pointerup)
  return () => {
    el.removeEventListener('wheel', wheel)
    el.removeEventListener('pointerdown', pointerdown)
    el.removeEventListener('pointermove', pointermove)
    window.removeEventListener('pointerup', pointerup)
  }
}
