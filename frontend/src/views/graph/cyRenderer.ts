// cytoscape + fcose on a 2D canvas: the renderer where WebGL is missing (and the one measured
// against sigma in tests/bench/graph.mjs).
import cytoscape from 'cytoscape'
import fcose from 'cytoscape-fcose'
import { watchUserMoves, type GraphRenderer, type RenderEdge, type RenderHandlers, type RenderNode, type RenderStyle } from './renderer'
import { compactZoom, freeAreas } from '@/util/graphLayout'

let registered = false

/** Above this many edges the layout runs in draft quality and edges are drawn the cheap way. */
const LARGE = 2000
/** Up to this many nodes the layout keeps labels apart too (fcose counts them in each node's size). */
const SMALL = 150

export async function createCytoscapeRenderer(el: HTMLElement, h: RenderHandlers): Promise<GraphRenderer> {
  if (!registered) {
    cytoscape.use(fcose)
    registered = true
  }
  let cy: cytoscape.Core | null = null
  let large = false
  const frames: (() => void)[] = []
  /** The view is the last fit's (nothing the person did moved it since). */
  let fitted = true
  const stopWatching = watchUserMoves(el, () => (fitted = false))

  /** Every node and its label inside the part of the canvas nothing covers (the legend, the
   *  zoom buttons): the area that shows the graph biggest. */
  function fitView() {
    if (!cy || cy.elements().empty()) return
    const width = cy.width()
    const height = cy.height()
    if (!width || !height) return
    const bb = cy.elements().boundingBox({ includeLabels: true })
    const box = el.getBoundingClientRect()
    const covered = (h.covered?.() ?? []).map((r) => ({ ...r, x: r.x - box.left, y: r.y - box.top }))
    // A small graph is drawn compact in the middle rather than stretched to the corners (its
    // labels scale with the zoom here, so only the spacing caps it).
    const nodes = cy.nodes()
    const compact = nodes.length <= SMALL ? compactZoom(nodes.map((n) => ({ ...n.position(), left: 0, right: 0, top: 0, bottom: 0 }))) : Infinity
    let best: { zoom: number; pan: { x: number; y: number } } | null = null
    for (const a of freeAreas(width, height, covered)) {
      const zoom = Math.min(cy.maxZoom(), compact, Math.max(cy.minZoom(), Math.min(a.w / Math.max(bb.w, 1), a.h / Math.max(bb.h, 1))))
      if (best && zoom <= best.zoom) continue
      best = { zoom, pan: { x: a.x + (a.w - bb.w * zoom) / 2 - bb.x1 * zoom, y: a.y + (a.h - bb.h * zoom) / 2 - bb.y1 * zoom } }
    }
    if (best) cy.viewport(best)
    fitted = true
  }

  const sheet = (s: RenderStyle): cytoscape.StylesheetJson => [
    {
      selector: 'node',
      style: {
        'background-color': 'data(color)',
        width: 'data(d)',
        height: 'data(d)',
        'border-width': 0,
        label: '',
        color: s.theme.text,
        'font-size': 12,
        'text-valign': 'center',
        'text-halign': 'right',
        'text-margin-x': 4,
        'min-zoomed-font-size': 4,
        'text-outline-color': s.theme.background,
        'text-outline-width': 2,
      },
    },
    { selector: 'node.lab', style: { label: 'data(label)' } },
    { selector: 'node.dim', style: { 'background-color': s.theme.dim, 'text-opacity': 0.5 } },
    { selector: 'node.sel', style: { 'border-width': 3, 'border-color': s.theme.text } },
    {
      selector: 'edge',
      style: {
        'line-color': s.theme.edge,
        width: 1,
        'curve-style': large ? 'haystack' : 'straight',
        'target-arrow-shape': large ? 'none' : 'triangle',
        'target-arrow-color': s.theme.edge,
        'arrow-scale': 0.7,
      },
    },
    { selector: 'edge.dim', style: { 'line-color': s.theme.dim, 'target-arrow-color': s.theme.dim } },
    { selector: 'edge.hl', style: { 'line-color': s.theme.highlight, 'target-arrow-color': s.theme.highlight, width: 2, opacity: 1 } },
    {
      selector: 'edge.path',
      style: {
        'line-color': s.theme.highlight,
        'target-arrow-color': s.theme.highlight,
        width: 4,
        opacity: 1,
        label: 'data(type)',
        'font-size': 11,
        color: s.theme.text,
        'text-background-color': s.theme.background,
        'text-background-opacity': 0.85,
        'text-background-padding': '2px',
        'text-rotation': 'autorotate',
      },
    },
  ]

  function classes(s: RenderStyle) {
    if (!cy) return
    const dimming = s.highlightNodes.size > 0
    cy.batch(() => {
      cy!.nodes().forEach((n) => {
        const id = n.id()
        n.toggleClass('lab', s.labels.has(id))
        n.toggleClass('dim', dimming && !s.highlightNodes.has(id))
        n.toggleClass('sel', s.selected === id)
      })
      cy!.edges().forEach((e) => {
        const id = e.id()
        e.toggleClass('dim', dimming && !s.highlightEdges.has(id) && !s.pathEdges.has(id))
        e.toggleClass('hl', s.highlightEdges.has(id))
        e.toggleClass('path', s.pathEdges.has(id))
      })
    })
  }

  const r: GraphRenderer = {
    kind: 'cytoscape',
    async setGraph(nodes: RenderNode[], edges: RenderEdge[], s: RenderStyle) {
      cy?.destroy()
      large = edges.length > LARGE
      cy = cytoscape({
        container: el,
        elements: [
          // Spread on a circle to start with: fcose randomizes anyway, and edges between nodes
          // that start on one point are not drawn until restyled.
          ...nodes.map((n, i) => ({
            group: 'nodes' as const,
            data: { id: n.id, label: n.label, color: n.color, d: n.size * 2 },
            position: { x: Math.cos(i) * (50 + i), y: Math.sin(i) * (50 + i) },
          })),
          ...edges.map((e) => ({ group: 'edges' as const, data: { id: e.id, source: e.source, target: e.target, type: e.type } })),
        ],
        style: sheet(s),
        layout: { name: 'preset' },
        minZoom: 0.02,
        maxZoom: 6,
        // At scale pan and zoom move a snapshot of the picture instead of redrawing 20,000
        // edges every frame.
        textureOnViewport: large,
        hideEdgesOnViewport: false,
        pixelRatio: large ? 1 : 'auto',
        boxSelectionEnabled: false,
        // Selection is the view's (side panel, highlight): cytoscape's own would draw over labels.
        autounselectify: true,
      })
      cy.on('tap', 'node', (e) => h.node(e.target.id()))
      cy.on('tap', 'edge', (e) => h.edge(e.target.id()))
      cy.on('tap', (e) => {
        if (e.target === cy) h.background()
      })
      cy.on('render', () => frames.forEach((f) => f()))
      classes(s)
      if (nodes.length) {
        const layout = cy.layout({
          name: 'fcose',
          quality: large || nodes.length > 1000 ? 'draft' : 'default',
          randomize: true,
          animate: false,
          fit: true,
          padding: 30,
          nodeRepulsion: () => 6000,
          idealEdgeLength: () => 60,
          // A small graph: every node is labelled, so labels count in the room a node needs.
          nodeDimensionsIncludeLabels: nodes.length <= SMALL,
          numIter: large ? 600 : 2500,
        } as cytoscape.LayoutOptions)
        const done = new Promise<void>((resolve) => layout.one('layoutstop', () => resolve()))
        layout.run()
        await done
      }
      // Styles computed before the layout moved the nodes (edge paths included) are computed again.
      cy.style(sheet(s))
      fitView()
      await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()))
    },
    setStyle(s) {
      if (!cy) return
      cy.style(sheet(s))
      classes(s)
    },
    center(id) {
      const n = cy?.getElementById(id)
      if (cy && n && n.nonempty()) cy.center(n)
    },
    fit() {
      fitView()
    },
    resize() {
      cy?.resize()
      if (fitted) fitView()
    },
    zoom(factor) {
      if (!cy) return
      cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } })
      fitted = false
    },
    positions() {
      const m = new Map<string, { x: number; y: number }>()
      cy?.nodes().forEach((n) => {
        const p = n.position()
        m.set(n.id(), { x: p.x, y: p.y })
      })
      return m
    },
    screenPosition(id) {
      const n = cy?.getElementById(id)
      if (!n || n.empty()) return null
      const p = n.renderedPosition()
      return { x: p.x, y: p.y }
    },
    labelCount() {
      return cy ? cy.nodes('.lab').length : 0
    },
    panBy(dx, dy) {
      cy?.panBy({ x: dx, y: dy })
      fitted = false
    },
    onFrame(cb) {
      frames.push(cb)
    },
    destroy() {
      stopWatching()
      cy?.destroy()
      cy = null
    },
  }
  return r
}
