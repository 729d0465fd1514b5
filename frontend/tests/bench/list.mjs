// UI bench: the memory list against a real `engram-cli serve` on a temporary home seeded with
// 10,000 memories (one `engram import` of generated JSONL, 400 per agent scope since a scope
// holds 500), in headless Chromium.
//   E2E_DEADLINE_MS=600000 E2E_SCRIPT=frontend/tests/bench/list.mjs ENGRAM_CLI=build/bin/engram-cli node frontend/tests/e2e/run.mjs [count]
// (the 10,000-line import takes longer than the default 25 s deadline of lib.mjs cli())
// Prints: first paint of the list (navigation to the first row shown), keystroke-to-results
// latency of search (p50/p95 over several queries; from the keydown to the list showing that
// query's results), and memory.list page times at the start and the end of the store.
// Reports numbers, never fails on them.
import path from 'node:path'
import { ROOT, RpcClient, Server, cleanup, cli, launchBrowser, tempDir } from '../e2e/lib.mjs'

const CLI = process.env.ENGRAM_CLI ? path.resolve(process.env.ENGRAM_CLI) : path.join(ROOT, 'build/bin/engram-cli')
const COUNT = Number(process.argv[2] || 10000)
const WORDS = ['postgres', 'neovim', 'kubernetes', 'coffee', 'python', 'rust', 'review', 'deploy', 'budget', 'travel', '香菜', '川菜', '数据库', '部署']

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}
const ms = (x) => `${x.toFixed(1)} ms`

async function main() {
  const home = tempDir('engram-bench-list-')
  const lines = []
  for (let i = 0; i < COUNT; i++) {
    const w = WORDS[i % WORDS.length]
    const v = WORDS[(i * 7 + 3) % WORDS.length]
    lines.push(JSON.stringify({ slug: `m-${i}`, title: `Memory ${i} about ${w}`, scope: 'agent', agent: `bench-${Math.floor(i / 400)}`, type: i % 4 ? 'reference' : 'project', body: `Note ${i}: ${w} and ${v}. Line two of the body for the snippet.`, reviewed: i % 5 !== 0 }))
  }
  let t = performance.now()
  cli(CLI, home, ['import', '-'], lines.join('\n') + '\n')
  console.log(`bench list: seeded ${COUNT} memories with engram import in ${ms(performance.now() - t)}`)

  const server = new Server(CLI, home, { ENGRAM_LANG: 'en', LANG: 'C.UTF-8' })
  const srv = await server.start('127.0.0.1:0')
  const raw = await RpcClient.open(`ws://127.0.0.1:${srv.port}/ws?token=${encodeURIComponent(srv.token)}`)
  for (const offset of [0, Math.max(0, COUNT - 100)]) {
    const times = []
    for (let i = 0; i < 5; i++) {
      t = performance.now()
      await raw.call('memory.list', { limit: 100, offset })
      times.push(performance.now() - t)
    }
    console.log(`bench list: memory.list limit 100 offset ${offset}: p50 ${ms(pct(times, 50))}`)
  }

  const browser = await launchBrowser()
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await ctx.newPage()
  // First visit stores the token; the measured visit is a fresh navigation with it.
  await page.goto(srv.url)
  await page.locator('.list-pane[data-state="ready"] .item').first().waitFor()
  const paints = []
  for (let i = 0; i < 3; i++) {
    await page.goto(srv.origin + '/?n=' + i)
    await page.locator('.list-pane[data-state="ready"] .item').first().waitFor()
    paints.push(await page.evaluate(() => performance.now()))
  }
  console.log(`bench list: first paint of the list (${COUNT} memories): p50 ${ms(pct(paints, 50))}, max ${ms(Math.max(...paints))}`)

  const input = page.locator('[data-test="search"] input')
  const lat = []
  for (const q of [...WORDS, ...WORDS.map((w) => w.slice(0, 3))]) {
    await input.fill('')
    await page.locator('.list-pane[data-state="ready"][data-query=""]').waitFor()
    await input.fill(q.slice(0, -1))
    // The clock starts at the keystroke: keydown for a key of the layout, beforeinput for text
    // that arrives without one (a Chinese character typed here, or committed by an input
    // method). Before this, the clock of a Chinese query never started and its "latency" was
    // the page's age (the 14.9 s p95 of issue 12).
    await page.evaluate(() => {
      window.__t0 = 0
      const el = document.querySelector('[data-test="search"] input')
      const start = () => (window.__t0 = window.__t0 || performance.now())
      el.addEventListener('keydown', start, { once: true })
      el.addEventListener('beforeinput', start, { once: true })
    })
    await input.pressSequentially(q.slice(-1)) // types any character (press() knows only key names)
    await page.waitForFunction((q) => {
      const l = document.querySelector('.list-pane')
      return l?.getAttribute('data-query') === q && l.getAttribute('data-state') === 'ready'
    }, q)
    const t0 = await page.evaluate(() => window.__t0)
    if (!t0) throw new Error(`bench list: no keystroke seen for ${q}`)
    lat.push(await page.evaluate(() => performance.now() - window.__t0))
  }
  const worst = [...WORDS, ...WORDS.map((w) => w.slice(0, 3))].map((q, i) => [q, lat[i]]).sort((a, b) => b[1] - a[1]).slice(0, 3)
  console.log(`bench list: slowest queries: ${worst.map(([q, v]) => `${q} ${ms(v)}`).join(', ')}`)
  console.log(`bench list: keystroke-to-results in search (${lat.length} queries, 80 ms typing pause included): p50 ${ms(pct(lat, 50))}, p95 ${ms(pct(lat, 95))}`)
  const rows = await page.locator('.list-pane .item').count()
  console.log(`bench list: rows in the DOM at ${COUNT} memories: ${rows}`)
  raw.close()
  await server.stop()
}

try {
  await main()
} finally {
  await cleanup()
}
process.exit(0)
