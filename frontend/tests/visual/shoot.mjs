// Screenshots of the built UI over the test-only fake Wails bindings:
//   npm run build && node tests/visual/shoot.mjs [outDir]
// Writes PNGs (both languages, both themes, forms, banner, empty state) and
// fails on any console error or page error.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { launch } from './browser.mjs'
import { serveDist } from './serve-dist.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const dist = path.resolve(here, '../../dist')
const outDir = path.resolve(process.argv[2] || path.resolve(here, '../../../build/shots'))
fs.mkdirSync(outDir, { recursive: true })
const fake = fs.readFileSync(path.join(here, 'fake-wails.js'), 'utf8')

const server = await serveDist(dist)
const { ctx, close } = await launch()
const problems = []
const shots = []

async function open(name, opts, act) {
  const page = await ctx.newPage()
  await page.setViewportSize({ width: 1280, height: 800 })
  page.on('pageerror', (e) => problems.push(`${name}: pageerror ${e.message}`))
  page.on('console', (m) => m.type() === 'error' && problems.push(`${name}: console ${m.text()}`))
  await page.addInitScript(
    ({ opts, fake }) => {
      localStorage.setItem('engram.ui', JSON.stringify({ language: opts.language, theme: opts.theme }))
      if (opts.transport === 'ws' && !opts.noToken) localStorage.setItem('engram.token', 'fixture-token')
      else localStorage.removeItem('engram.token')
      window.__FAKE__ = opts
      // eslint-disable-next-line no-new-func
      new Function(fake)()
    },
    { opts, fake },
  )
  await page.goto(server.url)
  await page.waitForSelector(opts.noToken ? '[data-test="login"]' : '.list-pane')
  await page.waitForTimeout(200)
  if (act) await act(page)
  await page.waitForTimeout(350)
  const file = path.join(outDir, `${name}.png`)
  await page.screenshot({ path: file })
  shots.push(file)
  await page.close()
}

const selectNth = (n) => async (page) => {
  await page.locator('.item').nth(n).click()
  await page.waitForSelector('[data-test="reader-title"]')
}

try {
  await open('en-light-reader', { language: 'en', theme: 'light' }, selectNth(0))
  await open('en-dark-reader', { language: 'en', theme: 'dark' }, selectNth(2))
  await open('zh-light-reader', { language: 'zh-CN', theme: 'light' }, selectNth(1))
  await open('zh-dark-reader', { language: 'zh-CN', theme: 'dark' }, selectNth(0))
  await open('en-light-quota', { language: 'en', theme: 'light', quota: 'degraded' }, selectNth(3))
  await open('zh-dark-quota-exhausted', { language: 'zh-CN', theme: 'dark', quota: 'exhausted' })
  await open('en-light-empty', { language: 'en', theme: 'light', empty: true })
  await open('en-light-search', { language: 'en', theme: 'light' }, async (page) => {
    await page.fill('[data-test="search"] input', 'postgres')
    await page.waitForTimeout(600)
  })
  await open('en-light-create', { language: 'en', theme: 'light' }, async (page) => {
    await page.click('[data-test="new-memory"]')
    await page.fill('[data-test="slug"] input', 'Bad_Slug!')
    await page.click('[data-test="submit"]')
  })
  await open('zh-dark-create', { language: 'zh-CN', theme: 'dark' }, async (page) => {
    await page.click('[data-test="new-memory"]')
    await page.fill('[data-test="slug"] input', 'likes-sichuan-food')
    await page.fill('[data-test="title"] input', '喜欢川菜')
  })
  await open('en-light-conflict', { language: 'en', theme: 'light' }, async (page) => {
    await selectNth(1)(page)
    await page.click('[data-test="edit"]')
    await page.evaluate(() => (window.__FAKE_CONFLICT__ = true))
    await page.click('[data-test="submit"]')
    await page.waitForSelector('[data-test="conflict"]')
  })
  await open('zh-light-delete-confirm', { language: 'zh-CN', theme: 'light' }, async (page) => {
    await selectNth(1)(page)
    await page.click('[data-test="delete"]')
  })
  await open('zh-light-settings', { language: 'zh-CN', theme: 'light' }, async (page) => {
    await page.click('[data-test="open-settings"]')
  })
  await open('en-light-ws-reader', { language: 'en', theme: 'light', transport: 'ws' }, async (page) => {
    await selectNth(1)(page)
    // A change pushed as a JSON-RPC event notification refreshes the list.
    await page.click('[data-test="accept"]')
    await page.waitForSelector('[data-test="review-card"]', { state: 'detached' })
  })
  await open('zh-light-ws-offline', { language: 'zh-CN', theme: 'light', transport: 'ws' }, async (page) => {
    await page.evaluate(() => window.__fakeDrop(true))
    await page.waitForSelector('[data-test="offline"]')
  })
  await open('switch-en-light-to-zh-dark', { language: 'en', theme: 'light' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.click('[data-test="language"] >> text=中文')
    await page.waitForFunction(() => document.querySelector('[data-test="nav-memories"]')?.textContent?.includes('记忆'))
    await page.click('[data-test="theme"] >> text=深色')
    await page.waitForFunction(() => document.documentElement.classList.contains('theme-dark'))
    const stored = await page.evaluate(() => localStorage.getItem('engram.ui'))
    if (!stored.includes('zh-CN') || !stored.includes('dark')) throw new Error(`settings not kept: ${stored}`)
  })
  await open('en-dark-settings', { language: 'en', theme: 'dark' }, async (page) => {
    await page.click('[data-test="open-settings"]')
  })
  await open('en-light-settings-remote', { language: 'en', theme: 'light', remote: true }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="remote-clients"]')
  })
  await open('zh-dark-settings-remote-error', { language: 'zh-CN', theme: 'dark', remote: 'in_use' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="remote-error"]')
  })
  await open('en-light-settings-remote-toggle', { language: 'en', theme: 'light' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="remote-state"]')
    await page.click('[data-test="remote-toggle"]')
    await page.waitForSelector('[data-test="remote-url"]')
    await page.click('[data-test="regenerate-token"]')
    await page.waitForSelector('.n-dialog')
  })
  await open('en-light-login', { language: 'en', theme: 'light', transport: 'ws', noToken: true }, async (page) => {
    await page.fill('[data-test="token-input"] input', 'not a token')
    await page.click('[data-test="token-submit"]')
    await page.waitForSelector('[data-test="token-invalid"]')
  })
  await open('zh-dark-login', { language: 'zh-CN', theme: 'dark', transport: 'ws', noToken: true })
  await open('en-light-ws-settings', { language: 'en', theme: 'light', transport: 'ws', remote: true }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="remote-clients"]')
  })
} finally {
  await close()
  server.close()
}

for (const s of shots) console.log(s)
if (problems.length) {
  console.error(problems.join('\n'))
  process.exit(1)
}
