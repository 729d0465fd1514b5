// sigma.js + graphology on WebGL, laid out by ForceAtlas2 (Barnes–Hut at scale).
import Graph from 'graphology'
import Sigma from 'sigma'
import forceAtlas2 from 'graphology-layout-forceatlas2'
import { watchUserMoves, type GraphRenderer, type RenderEdge, type RenderHandlers, type RenderNode, type RenderStyle } from './renderer'
import { compactZoom, fitInAreas, freeAreas, packComponents, spreadLabels, type FitBox } from '@/util/graphLayout'

/** Above this many edges edges are plain lines (no arrow heads) and the layout runs fewer rounds. */
const LARGE = 2000
/** Up to this many nodes every label is drawn and the layout is spread until none covers another. */
const SMALL = 150
const LABEL_SIZE = 12
const LABEL_FONT = 'system-ui, sans-serif'
/** The side panel's width (GraphView): a small graph is spread for the canvas beside it, so it
 *  stays readable when the panel opens. */
const PANEL = 320

type NodeAttrs = { x: number; y: number; size: number; color: string; label: string }
type EdgeAttrs = { rel: string }

/** sigma with its drawing buffers kept between frames. WebKitGTK (the desktop window, seen
 *  under Xvfb on Mesa) composites nothing of a WebGL canvas made with `antialias: false` and
 *  `preserveDrawingBuffer: false` — sigma's defaults — although the page reads the pixels back:
 *  the window showed the labels and no node or edge. Keeping the buffer (sigma clears it at
 *  every render anyway) is drawn by every engine; the picking layers draw off screen and keep
 *  what they ask for. */
class KeptBufferSigma extends Sigma<NodeAttrs, EdgeAttrs> {
  override createWebGLContext(id: string, options: Parameters<Sigma['createWebGLContext']>[1] = {}): WebGLRenderingContext {
    return super.createWebGLContext(id, { preserveDrawingBuffer: true, ...options })
  }
}

/** Deterministic starting positions (same picture for the same graph). */
function seeded(seed: number) {
  let s = seed >>> 0 || 1
  return () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return (s >>> 0) / 4294967296
  }
}

export async function createSigmaRenderer(el: HTMLElement, h: RenderHandlers): Promise<GraphRenderer> {
  let graph = new Graph<NodeAttrs, EdgeAttrs>({ multi: true, type: 'directed', allowSelfLoops: true })
  let sigma: Sigma<NodeAttrs, EdgeAttrs> | null = null
  let style: RenderStyle | null = null
  let large = false
  const frames: (() => void)[] = []
  /** The view is the last fit's (nothing the person did moved it since). */
  let fitted = true
  /** How much further out than a plain fit the last fit drew a small graph: node sizes follow
   *  the camera from there, so a compact view does not draw them smaller. */
  let sizeBase = 1
  const stopWatching = watchUserMoves(el, () => (fitted = false))
  // A WebGL context of the drawn graph lost for good (a driver reset, the engine's limit on
  // contexts): sigma would go on drawing into nothing, the view saying it is ready. The event
  // is heard while its canvas is in the container: a killed sigma's canvases leave it first.
  let killing = false
  const onLost = (e: Event) => {
    if (killing) return
    e.preventDefault()
    h.lost?.()
  }
  const kill = () => {
    killing = true
    try {
      sigma?.kill()
    } finally {
      killing = false
    }
  }
  el.addEventListener('webglcontextlost', onLost, true)
  const measure = document.createElement('canvas').getContext('2d')
  const textWidth = (label: string) => {
    if (!measure || !label) return 0
    measure.font = `normal ${LABEL_SIZE}px ${LABEL_FONT}`
    return measure.measureText(label).width
  }
  /** Labels drawn now (sigma draws a label only where its node has one). */
  const labelled = (id: string) => !!style?.labels.has(id)

  /** Every node and its label inside the part of the canvas nothing covers (the legend, the
   *  zoom buttons), with the camera sigma's own fit starts from. */
  function fitView() {
    if (!sigma || !graph.order) return
    const { width, height } = sigma.getDimensions()
    if (!width || !height) return
    const base = { x: 0.5, y: 0.5, ratio: 1, angle: 0 }
    // Graph → viewport at that camera is affine (no rotation): three points give it, rather
    // than a matrix per node.
    const o = sigma.graphToViewport({ x: 0, y: 0 }, { cameraState: base })
    const ux = sigma.graphToViewport({ x: 1, y: 0 }, { cameraState: base })
    const uy = sigma.graphToViewport({ x: 0, y: 1 }, { cameraState: base })
    const boxes: FitBox[] = []
    graph.forEachNode((id, a) => {
      const p = { x: o.x + a.x * (ux.x - o.x) + a.y * (uy.x - o.x), y: o.y + a.x * (ux.y - o.y) + a.y * (uy.y - o.y) }
      const w = labelled(id) ? textWidth(a.label) : 0
      const half = Math.max(a.size, w ? LABEL_SIZE / 2 + 2 : 0)
      boxes.push({ x: p.x, y: p.y, left: a.size + 2, right: a.size + (w ? 3 + w : 0) + 2, top: half, bottom: half })
    })
    const box = el.getBoundingClientRect()
    const covered = (h.covered?.() ?? []).map((r) => ({ ...r, x: r.x - box.left, y: r.y - box.top }))
    // A small graph is drawn compact in the middle rather than stretched to the corners; its
    // discs keep the size a plain fit gives them (sigma shrinks them as the camera zooms out).
    const areas = freeAreas(width, height, covered)
    const plain = fitInAreas(boxes, areas)
    const f = graph.order <= SMALL ? fitInAreas(boxes, areas, Math.min(1, compactZoom(boxes))) : plain
    sizeBase = f.z > 0 ? Math.max(1, plain.z / f.z) : 1
    // At ratio 1/z around the middle a point at p is drawn at z·p + (size/2)(1 − z); the rest
    // of the way to z·p + t is a pan.
    const ratio = 1 / f.z
    const dx = f.tx - (width / 2) * (1 - f.z)
    const dy = f.ty - (height / 2) * (1 - f.z)
    const zoomed = { ...base, ratio }
    const a = sigma.viewportToFramedGraph({ x: 0, y: 0 }, { cameraState: zoomed })
    const b = sigma.viewportToFramedGraph({ x: dx, y: dy }, { cameraState: zoomed })
    sigma.getCamera().setState({ x: 0.5 - (b.x - a.x), y: 0.5 - (b.y - a.y), ratio, angle: 0 })
    fitted = true
  }

  /** A small graph's nodes moved apart until no label covers another node or label, at the
   *  size the canvas has beside the legend and an open side panel. */
  function spreadOut() {
    const box = el.getBoundingClientRect()
    const legend = (h.covered?.() ?? []).reduce((m, r) => (r.x - box.left < box.width / 2 ? Math.max(m, r.x - box.left + r.w) : m), 0)
    let w = box.width - legend
    if (w - PANEL >= 360) w -= PANEL
    const ids: string[] = []
    const pts = graph.mapNodes((id, a) => {
      ids.push(id)
      return { x: a.x, y: a.y, r: a.size, w: labelled(id) ? textWidth(a.label) : 0 }
    })
    spreadLabels(pts, Math.max(w, 200), Math.max(box.height, 200))
    pts.forEach((p, i) => graph.mergeNodeAttributes(ids[i], { x: p.x, y: p.y }))
  }

  function mount() {
    kill()
    const s = style as RenderStyle
    sigma = new KeptBufferSigma(graph, el, {
      allowInvalidContainer: true,
      renderEdgeLabels: true,
      enableEdgeEvents: true,
      zIndex: true,
      defaultEdgeType: large ? 'line' : 'arrow',
      labelRenderedSizeThreshold: 0,
      zoomToSizeRatioFunction: (ratio) => Math.sqrt(ratio / sizeBase),
      // At scale sigma's label grid keeps the biggest nodes' labels where they crowd (sizes
      // follow the degree: hubs before leaves); a small graph forces every one (nodeReducer).
      labelDensity: 0.5,
      labelFont: LABEL_FONT,
      labelSize: LABEL_SIZE,
      labelColor: { color: s.theme.text },
      // A halo of the background's colour around each label: one drawn across an edge or
      // another node stays readable.
      defaultDrawNodeLabel: (ctx, data, settings) => {
        if (!data.label) return
        const st = style as RenderStyle
        ctx.font = `${settings.labelWeight} ${settings.labelSize}px ${settings.labelFont}`
        const x = data.x + data.size + 3
        const y = data.y + settings.labelSize / 3
        ctx.lineJoin = 'round'
        ctx.lineWidth = 3
        ctx.strokeStyle = st.theme.background
        ctx.strokeText(data.label, x, y)
        ctx.fillStyle = st.theme.text
        ctx.fillText(data.label, x, y)
      },
      // sigma's own hover and selection box is white whatever the theme: the selected node's
      // label, drawn in the dark theme's light text, was white on white.
      defaultDrawNodeHover: (ctx, data, settings) => {
        const st = style as RenderStyle
        const size = settings.labelSize
        ctx.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`
        const pad = 3
        const r = Math.max(data.size, size / 2) + pad
        ctx.fillStyle = st.theme.background
        ctx.strokeStyle = st.theme.highlight
        ctx.lineWidth = 1.5
        ctx.beginPath()
        if (typeof data.label === 'string' && data.label) {
          const w = ctx.measureText(data.label).width + 2 * pad
          const h = size + 2 * pad
          const half = Math.max(r, h / 2)
          if (typeof ctx.roundRect === 'function') ctx.roundRect(data.x - r, data.y - half, 2 * r + w, 2 * half, half)
          else ctx.rect(data.x - r, data.y - half, 2 * r + w, 2 * half)
        } else {
          ctx.arc(data.x, data.y, r, 0, Math.PI * 2)
        }
        ctx.fill()
        ctx.stroke()
        if (typeof data.label === 'string' && data.label) {
          ctx.fillStyle = st.theme.text
          ctx.fillText(data.label, data.x + data.size + pad, data.y + size / 3)
        }
      },
      edgeLabelColor: { color: s.theme.text },
      edgeLabelSize: 11,
      stagePadding: 30,
      minCameraRatio: 0.02,
      maxCameraRatio: 8,
      nodeReducer: (id, d) => {
        const st = style as RenderStyle
        const dim = st.highlightNodes.size > 0 && !st.highlightNodes.has(id)
        const important = st.selected === id || st.highlightNodes.has(id)
        return {
          ...d,
          color: dim ? st.theme.dim : d.color,
          label: st.labels.has(id) ? d.label : null,
          // A small graph labels every node (sigma's grid dropped hubs' labels where nodes
          // crowd and kept lone dots'); at scale the grid picks, the important ones forced.
          forceLabel: st.labels.has(id) && (important || graph.order <= SMALL),
          highlighted: st.selected === id,
          zIndex: important ? 1 : 0,
        }
      },
      edgeReducer: (id, d) => {
        const st = style as RenderStyle
        const onPath = st.pathEdges.has(id)
        const hl = onPath || st.highlightEdges.has(id)
        const dim = st.highlightNodes.size > 0 && !hl
        return {
          ...d,
          color: hl ? st.theme.highlight : dim ? st.theme.dim : st.theme.edge,
          size: onPath ? 4 : hl ? 2 : 1,
          label: onPath ? d.rel : null,
          forceLabel: onPath,
          zIndex: hl ? 1 : 0,
        }
      },
    })
    sigma.on('clickNode', ({ node }) => h.node(node))
    sigma.on('clickEdge', ({ edge }) => h.edge(edge))
    sigma.on('clickStage', () => h.background())
    sigma.on('afterRender', () => frames.forEach((f) => f()))
  }

  const r: GraphRenderer = {
    kind: 'sigma',
    async setGraph(nodes: RenderNode[], edges: RenderEdge[], s: RenderStyle) {
      style = s
      large = edges.length > LARGE
      graph = new Graph<NodeAttrs, EdgeAttrs>({ multi: true, type: 'directed', allowSelfLoops: true })
      const rnd = seeded(nodes.length * 7919 + edges.length)
      const spread = Math.sqrt(nodes.length) * 10
      for (const n of nodes) graph.addNode(n.id, { x: (rnd() - 0.5) * spread, y: (rnd() - 0.5) * spread, size: n.size * 0.8, color: n.color, label: n.label })
      for (const e of edges) if (graph.hasNode(e.source) && graph.hasNode(e.target)) graph.addEdgeWithKey(e.id, e.source, e.target, { rel: e.type })
      if (nodes.length > 1) {
        const settings = { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: nodes.length > 500, adjustSizes: false }
        // Rounds in small batches so the window keeps answering while it lays out.
        const rounds = large ? 120 : 300
        for (let done = 0; done < rounds; done += 20) {
          forceAtlas2.assign(graph, { iterations: 20, settings })
          await new Promise((resolve) => setTimeout(resolve, 0))
        }
        // Unconnected parts side by side, not pushed to the far corners.
        const placed = graph.mapNodes((id, a) => ({ id, x: a.x, y: a.y }))
        packComponents(placed, graph.mapEdges((_e, _a, source, target) => ({ source, target })))
        for (const p of placed) graph.mergeNodeAttributes(p.id, { x: p.x, y: p.y })
        if (nodes.length <= SMALL) spreadOut()
      }
      mount()
      fitView()
      await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()))
    },
    setStyle(s) {
      const themeChanged = !style || style.theme.text !== s.theme.text
      style = s
      if (!sigma) return
      if (themeChanged) {
        sigma.setSetting('labelColor', { color: s.theme.text })
        sigma.setSetting('edgeLabelColor', { color: s.theme.text })
      }
      sigma.refresh({ skipIndexation: true })
    },
    center(id) {
      if (!sigma || !graph.hasNode(id)) return
      const d = sigma.getNodeDisplayData(id)
      if (d) sigma.getCamera().setState({ x: d.x, y: d.y })
    },
    fit() {
      fitView()
    },
    resize() {
      if (!sigma) return
      sigma.resize()
      if (fitted) fitView()
      sigma.refresh({ skipIndexation: true })
    },
    zoom(factor) {
      const c = sigma?.getCamera()
      if (c) c.setState({ ratio: c.getState().ratio / factor })
      fitted = false
    },
    positions() {
      const m = new Map<string, { x: number; y: number }>()
      // graphology's y grows upwards on screen; the exports draw y downwards.
      graph.forEachNode((id, a) => m.set(id, { x: a.x, y: -a.y }))
      return m
    },
    screenPosition(id) {
      if (!sigma || !graph.hasNode(id)) return null
      const a = graph.getNodeAttributes(id)
      return sigma.graphToViewport({ x: a.x, y: a.y })
    },
    labelCount() {
      // sigma keeps the nodes whose label it drew in the last frame (not in its typings).
      return (sigma as unknown as { displayedNodeLabels?: Set<string> } | null)?.displayedNodeLabels?.size ?? 0
    },
    panBy(dx, dy) {
      if (!sigma) return
      const c = sigma.getCamera()
      const a = sigma.viewportToFramedGraph({ x: 0, y: 0 })
      const b = sigma.viewportToFramedGraph({ x: dx, y: dy })
      const st = c.getState()
      c.setState({ x: st.x - (b.x - a.x), y: st.y - (b.y - a.y) })
      fitted = false
    },
    onFrame(cb) {
      frames.push(cb)
    },
    destroy() {
      stopWatching()
      el.removeEventListener('webglcontextlost', onLost, true)
      kill()
      sigma = null
    },
  }
  return r
}
