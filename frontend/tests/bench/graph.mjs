// Graph view bench: the built UI (frontend/dist) over the test fake with a generated graph of
// 5,000 entities / 20,000 relations, in headless Chromium, once per renderer:
//   - cytoscape + fcose on a 2D canvas,
//   - sigma.js + graphology (ForceAtlas2) on WebGL. Headless Chromium has no GPU here: WebGL
//     runs on SwiftShader (software), only with --enable-unsafe-swiftshader, so every sigma
//     figure below is software-rendered (a real GPU draws faster; the canvas figures are CPU
//     either way).
// Figures: time to first interactive frame (click on "Graph" → the canvas reports
// data-state="ready": data loaded, laid out, drawn) and frame rate while panning (the view is
// panned a few pixels on every animation frame for 3 s; frames per second counted by
// requestAnimationFrame and by the renderer's own draw events).
//   cd frontend && npm run build && node tests/bench/graph.mjs [nodes] [edges]
// Reports numbers, never fails on them (exits non-zero only if the page breaks).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { chromiumPath } from '../visual/browser.mjs'
import { serveDist } from '../visual/serve-dist.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const vis = path.resolve(here, '../visual')
const dist = path.resolve(here, '../../dist')
const NODES = Number(process.argv[2] || 5000)
const EDGES = Number(process.argv[3] || 20000)
const PAN_MS = 3000
const RUNS = Number(process.env.GRAPH_BENCH_RUNS || 2)

const extDir = path.join(vis, 'fake')
const fake =
  fs
    .readdirSync(extDir)
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => fs.readFileSync(path.join(extDir, f), 'utf8'))
    .join('\n;\n') +
  '\n;\n' +
  fs.readFileSync(path.join(vis, 'fake-wails.js'), 'utf8')

async function browser(webgl) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-bench-'))
  const args = ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-dev-shm-usage']
  // No GPU on this machine: WebGL only through SwiftShader (software), and only when allowed.
  args.push(...(webgl ? ['--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--ignore-gpu-blocklist'] : ['--disable-gpu']))
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: chromiumPath(), headless: true, args, viewport: { width: 1280, height: 800 } })
  ctx.setDefaultTimeout(600_000)
  return { ctx, close: async () => (await ctx.close(), fs.rmSync(dir, { recursive: true, force: true })) }
}

async function measure(ctx, url, renderer) {
  const page = await ctx.newPage()
  const errors = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  await page.addInitScript(
    ({ fake, renderer, nodes, edges }) => {
      localStorage.setItem('engram.ui', JSON.stringify({ language: 'en', theme: 'light' }))
      localStorage.setItem('engram.graph.renderer', renderer)
      window.__FAKE__ = { language: 'en', theme: 'light', graph: 'big', graphNodes: nodes, graphEdges: edges }
      new Function(fake)()
    },
    { fake, renderer, nodes: NODES, edges: EDGES },
  )
  await page.goto(url)
  await page.waitForSelector('.list-pane[data-state="ready"]')
  const webgl = await page.evaluate(() => {
    const c = document.createElement('canvas')
    const gl = c.getContext('webgl2') || c.getContext('webgl')
    if (!gl) return 'none'
    const ext = gl.getExtension('WEBGL_debug_renderer_info')
    return ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)
  })
  const t0 = Date.now()
  await page.click('[data-test="nav-graph"]')
  await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"]', { timeout: 600_000 })
  const ttfi = Date.now() - t0
  const info = await page.evaluate(() => {
    const el = document.querySelector('[data-test="graph-canvas"]')
    return { renderer: el.dataset.renderer, nodes: Number(el.dataset.nodes), edges: Number(el.dataset.edges) }
  })
  // Interactive: a click on the busiest node answers with the side panel.
  const pan = await page.evaluate(
    (ms) =>
      new Promise((resolve) => {
        const el = document.querySelector('[data-test="graph-canvas"]')
        const r = el.__renderer
        let draws = 0
        r.onFrame(() => draws++)
        let ticks = 0
        let longest = 0
        let last = performance.now()
        const start = last
        let dir = 1
        const step = (now) => {
          longest = Math.max(longest, now - last)
          last = now
          ticks++
          if (ticks % 60 === 0) dir = -dir
          r.panBy(6 * dir, 3 * dir)
          if (now - start < ms) requestAnimationFrame(step)
          else resolve({ fps: (ticks * 1000) / (now - start), drawsPerSec: (draws * 1000) / (now - start), longestFrameMs: longest })
        }
        requestAnimationFrame(step)
      }),
    PAN_MS,
  )
  console.log(JSON.stringify({ renderer, webgl, ttfiMs: ttfi, ...info, ...pan }))
  // Interactive: a click on the busiest node (or whatever lies on top of it) opens the panel.
  const c0 = Date.now()
  let clickMs = null
  try {
    const at = await page.evaluate(() => {
      const el = document.querySelector('[data-test="graph-canvas"]')
      const p = el.__renderer.screenPosition('e0')
      const box = el.getBoundingClientRect()
      return { x: box.left + p.x, y: box.top + p.y }
    })
    await page.mouse.click(at.x, at.y)
    await page.waitForSelector('[data-test="graph-panel"][data-state="ready"]', { timeout: 120_000 })
    clickMs = Date.now() - c0
  } catch (e) {
    console.error(`${renderer}: click → panel: ${e.message.split('\n')[0]}`)
  }
  await page.screenshot({ path: path.join(os.tmpdir(), `engram-graph-bench-${renderer}.png`) })
  await page.close()
  if (errors.length) throw new Error(`${renderer}: ${errors.join('; ')}`)
  return { ...info, webgl, ttfiMs: ttfi, ...pan, clickToPanelMs: clickMs }
}

const server = await serveDist(dist)
const rows = []
let broken = 0
try {
  // GRAPH_BENCH_ONLY=sigma|cytoscape measures one renderer.
  const only = process.env.GRAPH_BENCH_ONLY
  for (const [renderer, webgl] of [
    ['cytoscape', false],
    ['sigma', true],
  ].filter(([r]) => !only || r === only)) {
    const b = await browser(webgl)
    try {
      for (let i = 0; i < RUNS; i++) {
        const r = await measure(b.ctx, server.url, renderer)
        if (r.renderer !== renderer) throw new Error(`asked for ${renderer}, the view used ${r.renderer} (WebGL: ${r.webgl})`)
        rows.push({ asked: renderer, run: i + 1, ...r })
        console.log(JSON.stringify(rows[rows.length - 1]))
      }
    } catch (e) {
      broken++
      console.error(`graph bench ${renderer}: ${e.message}`)
    } finally {
      await b.close()
    }
  }
} finally {
  server.close()
}
const fmt = (n) => (Math.round(n * 10) / 10).toString()
console.log(`\ngraph view, ${NODES} entities / ${EDGES} relations, headless Chromium ${os.cpus().length} cores`)
console.log('renderer   | WebGL                         | first interactive frame | pan fps (rAF) | draws/s | longest frame | click→panel')
for (const r of rows) {
  console.log(
    `${r.renderer.padEnd(10)} | ${String(r.webgl).slice(0, 29).padEnd(29)} | ${String(r.ttfiMs).padStart(20)} ms | ${fmt(r.fps).padStart(13)} | ${fmt(r.drawsPerSec).padStart(7)} | ${fmt(r.longestFrameMs).padStart(10)} ms | ${r.clickToPanelMs} ms`,
  )
}
process.exit(broken ? 1 : 0)
