// Review accept-to-next-item latency: headless Chromium against a real `engram-cli serve` on a
// temporary home seeded with ~500 unreviewed memories. Each sample presses `a` and waits until
// the next item is the current one and the queue count dropped by one (states the UI exposes).
// Reports p50/p95; never fails on the figures.
//   ENGRAM_CLI=build/bin/engram-cli [REVIEW_BENCH_N=490] [REVIEW_BENCH_SAMPLES=60] node frontend/tests/bench/review.mjs
import { Server, cleanup, cli, launchBrowser, newPage, tempDir } from '../e2e/lib.mjs'

const CLI = process.env.ENGRAM_CLI || 'build/bin/engram-cli'
const N = Number(process.env.REVIEW_BENCH_N || 490) // a scope holds 500; the last 5 are refused (quota exhausted)
const SAMPLES = Math.min(N - 1, Number(process.env.REVIEW_BENCH_SAMPLES || 60))

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

async function main() {
  const home = tempDir('engram-bench-review-')
  const lines = []
  for (let i = 0; i < N; i++) {
    const zh = i % 3 === 0
    lines.push(
      JSON.stringify({
        slug: `review-bench-${String(i).padStart(4, '0')}`,
        title: zh ? `第 ${i} 条偏好：喜欢乌龙茶` : `Preference ${i}: likes oolong tea`,
        scope: 'global',
        type: 'user',
        body: zh ? `用户提到第 ${i} 件事，需要审阅。` : `The user mentioned thing number ${i}; it needs a review.`,
        reviewed: false,
        created: new Date(Date.UTC(2026, 0, 1) + i * 60000).toISOString(),
      }),
    )
  }
  cli(CLI, home, ['import', '-'], lines.join('\n') + '\n')
  const server = new Server(CLI, home, { ENGRAM_LANG: 'en', LANG: 'C.UTF-8' })
  const srv = await server.start('127.0.0.1:0')
  const browser = await launchBrowser()
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await newPage(ctx, 'bench', [])
  await page.goto(srv.url)
  await page.click('[data-test="nav-review"]')
  await page.waitForSelector('[data-test="review-view"][data-state="ready"]')
  const total = Number(await page.locator('[data-test="review-view"]').getAttribute('data-count'))
  const ms = []
  for (let i = 0; i < SAMPLES; i++) {
    const left = total - i
    const next = await page.locator('[data-test="review-item"]').nth(1).getAttribute('data-id')
    const t0 = performance.now()
    await page.keyboard.press('a')
    await page.waitForSelector(`[data-test="review-view"][data-count="${left - 1}"] [data-test="review-item"].current[data-id="${next}"]`)
    ms.push(performance.now() - t0)
  }
  ms.sort((a, b) => a - b)
  console.log(
    `bench review: ${total} unreviewed, ${SAMPLES} accepts, accept-to-next-item p50 ${pct(ms, 50).toFixed(1)} ms, p95 ${pct(ms, 95).toFixed(1)} ms, max ${ms[ms.length - 1].toFixed(1)} ms`,
  )
}

try {
  await main()
} finally {
  await cleanup()
}
process.exit(0)
