// Screenshots of the built UI over the test-only fake Wails bindings:
//   npm run build && node tests/visual/shoot.mjs [outDir]
// Writes PNGs (both languages, both themes, forms, banner, empty state) and
// fails on any console error or page error.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { launch } from './browser.mjs'
import { serveDist } from './serve-dist.mjs'
import { reportSuite } from '../report.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const dist = path.resolve(here, '../../dist')
const outDir = path.resolve(process.argv[2] || path.resolve(here, '../../../build/shots'))
fs.mkdirSync(outDir, { recursive: true })
// Per-feature fixture extensions (fake/*.js) run before the base fake, which applies them.
const extDir = path.join(here, 'fake')
const extFiles = fs.existsSync(extDir) ? fs.readdirSync(extDir).filter((f) => f.endsWith('.js')).sort() : []
const fake = extFiles.map((f) => fs.readFileSync(path.join(extDir, f), 'utf8')).join('\n;\n') + '\n;\n' + fs.readFileSync(path.join(here, 'fake-wails.js'), 'utf8')

const server = await serveDist(dist)
const { ctx, close } = await launch()
const problems = []
const shots = []

/**
 * Waits until the page is still: the memory list shows what was asked and is not loading,
 * fonts are in, and no finite animation or transition is running (infinite ones, such as a
 * spinner or a live dot, never end and are frozen by the screenshot instead).
 */
async function settled(page) {
  await page.waitForFunction(() => {
    const list = document.querySelector('.list-pane')
    if (list && list.getAttribute('data-state') !== 'ready') return false
    return document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity)
  })
  await page.evaluate(() => document.fonts.ready.then(() => true))
}

let passed = 0
let failed = 0

/** One scenario: a fresh page over the fake, an action, a screenshot. A scenario that throws or
 *  logs an error fails; the others still run, so one report shows every broken scenario. */
async function open(name, opts, act) {
  // SHOTS_ONLY=usage shoots only the scenarios whose name holds it (a quick look while working).
  if (process.env.SHOTS_ONLY && !name.includes(process.env.SHOTS_ONLY)) return
  const before = problems.length
  const page = await ctx.newPage()
  try {
    await scenario(page, name, opts, act)
  } catch (e) {
    problems.push(`${name}: ${e.message}`)
    await page.screenshot({ path: path.join(outDir, `fail-${name}.png`) }).catch(() => {})
  } finally {
    await page.close()
  }
  if (problems.length > before) failed++
  else passed++
}

async function scenario(page, name, opts, act) {
  await page.setViewportSize({ width: 1280, height: 800 })
  page.on('pageerror', (e) => problems.push(`${name}: pageerror ${e.message}`))
  // allowConsole: a console error the scenario itself causes (a chunk it makes fail to load).
  page.on('console', (m) => m.type() === 'error' && !(opts.allowConsole && m.text().includes(opts.allowConsole)) && problems.push(`${name}: console ${m.text()}`))
  // Everything the app asks of Go goes through the fake bindings: a request for the bridge's
  // websocket URL means something escaped the fake (it would hit the fixture server).
  page.on('request', (r) => new URL(r.url()).pathname === '/ws' && problems.push(`${name}: a request escaped the fake bridge: ${r.method()} ${r.url()}`))
  await page.addInitScript(
    ({ opts, fake }) => {
      localStorage.setItem('engram.ui', JSON.stringify({ language: opts.language, theme: opts.theme }))
      if (opts.transport === 'ws' && !opts.noToken) localStorage.setItem('engram.token', 'fixture-token')
      else localStorage.removeItem('engram.token')
      // One browser context holds every page: a scenario that chose the canvas renderer left
      // it chosen for every graph scenario after it (their sigma went untested).
      localStorage.removeItem('engram.graph.renderer')
      window.__FAKE__ = opts
      // eslint-disable-next-line no-new-func
      new Function(fake)()
    },
    { opts, fake },
  )
  await page.goto(server.url)
  await page.waitForSelector(opts.noToken ? '[data-test="login"]' : '.list-pane')
  await settled(page)
  if (act) await act(page)
  await settled(page)
  const file = path.join(outDir, `${name}.png`)
  await page.screenshot({ path: file, animations: 'disabled' })
  shots.push(file)
}

const selectNth = (n) => async (page) => {
  await page.locator('.item').nth(n).click()
  await page.waitForSelector('[data-test="reader-title"]')
}

const toOrganizer = async (page) => {
  await page.click('[data-test="nav-organizer"]')
  await page.waitForSelector('[data-test="run-detail"]')
}
const check = async (cond, msg) => {
  if (!(await cond)) throw new Error(`expectation failed: ${msg}`)
}
const COMBOS = [
  ['en', 'light', 'en'],
  ['en', 'dark', 'en'],
  ['zh', 'light', 'zh-CN'],
  ['zh', 'dark', 'zh-CN'],
]

try {
  // ---- Organizer: a report to review, a running run, Run Now while it runs (queued), apply
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-organizer-report`, { language, theme: th, organizer: 'report' }, async (page) => {
      await toOrganizer(page)
      await page.waitForSelector('[data-test="decision"]')
      await page.locator('[data-test="decision"][data-decision="d001"] [data-test="decision-check"]').click()
      await page.waitForSelector('[data-test="apply-bar"]')
    })
  }
  await open('en-light-organizer-report-scrolled', { language: 'en', theme: 'light', organizer: 'report' }, async (page) => {
    await toOrganizer(page)
    await page.locator('[data-cluster="c003"]').scrollIntoViewIfNeeded()
  })
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-organizer-running`, { language, theme: th, organizer: 'running' }, async (page) => {
      await toOrganizer(page)
      await page.waitForSelector('[data-test="run-live"] [data-test="run-progress"][data-phase="plan"]')
      await page.waitForSelector('[data-test="organizer-active"]')
    })
  }
  for (const [l, th, language] of [COMBOS[1], COMBOS[2]]) {
    await open(`${l}-${th}-organizer-queued`, { language, theme: th, organizer: 'running' }, async (page) => {
      await toOrganizer(page)
      const before = await page.locator('[data-test="runs"] .run').count()
      await page.click('[data-test="run-now"]')
      // Shown at once as queued, opened, and counted in the status card.
      await page.waitForSelector('[data-test="runs"] .run[data-status="queued"].selected')
      await page.waitForSelector('[data-test="run-detail"][data-status="queued"] [data-test="run-progress"][data-status="queued"]')
      await page.waitForSelector('[data-test="organizer-queued"]')
      await check(page.locator('[data-test="runs"] .run').count().then((n) => n === before + 1), 'one more run listed')
      await page.waitForFunction(() => document.querySelectorAll('.n-message').length === 0)
    })
  }
  await open('en-light-organizer-cancel-queued', { language: 'en', theme: 'light', organizer: 'queued' }, async (page) => {
    await toOrganizer(page)
    await page.waitForSelector('[data-test="run-detail"][data-status="queued"]')
    await page.click('[data-test="run-abort"]')
    await page.waitForSelector('[data-test="runs"] .run.selected[data-status="aborted"]')
    await page.waitForSelector('[data-test="run-detail"][data-status="aborted"]')
    await page.waitForSelector('[data-test="organizer-queued"]', { state: 'detached' })
    await page.waitForFunction(() => document.querySelectorAll('.n-message').length === 0)
  })
  await open('en-light-organizer-run-now', { language: 'en', theme: 'light', organizer: 'report' }, async (page) => {
    await toOrganizer(page)
    await page.click('[data-test="run-now"]')
    // The fixture run walks through its phases and ends with a report.
    await page.waitForSelector('[data-test="runs"] .run.selected[data-status="done"]')
    await page.waitForSelector('[data-test="run-detail"][data-status="done"] [data-test="decision"]')
    await page.waitForFunction(() => document.querySelectorAll('.n-message').length === 0)
  })
  await open('en-light-organizer-applied', { language: 'en', theme: 'light', organizer: 'report' }, async (page) => {
    await toOrganizer(page)
    await page.evaluate(() => (window.__FAKE_APPLY_CONFLICT__ = 'd002'))
    await page.click('[data-test="choose-all"]')
    await page.click('[data-test="apply-selected"]')
    await page.waitForSelector('.n-dialog')
    await page.locator('.n-dialog__action .n-button').last().click()
    await page.waitForSelector('[data-test="decision"][data-decision="d001"][data-status="applied"]')
    await page.waitForSelector('[data-test="decision"][data-decision="d002"][data-status="failed"] [data-test="decision-result"]')
    await check(page.locator('[data-test="apply-bar"]').count().then((n) => n === 0), 'nothing left to apply')
  })
  await open('zh-light-organizer-open-memory', { language: 'zh-CN', theme: 'light', organizer: 'report' }, async (page) => {
    await toOrganizer(page)
    await page.locator('[data-decision="d001"] [data-test="decision-memory"]').first().click()
    await page.waitForSelector('[data-test="reader-title"]')
    await check(page.locator('[data-test="nav-memories"].active').count().then((n) => n === 1), 'memories view shown')
  })
  await open('en-light-organizer-settings', { language: 'en', theme: 'light', organizer: 'report' }, async (page) => {
    await toOrganizer(page)
    await page.click('[data-test="organizer-settings-open"]')
    await page.waitForSelector('[data-test="organizer-settings"] [data-test="org-mode"]')
    await page.click('[data-test="org-mode"] [data-mode="conservative"]')
    await page.waitForSelector('[data-test="org-mode"] [data-mode="conservative"].n-radio--checked')
  })
  await open('zh-dark-settings-organizer', { language: 'zh-CN', theme: 'dark', organizer: 'report' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="settings-organizer"] [data-test="org-enabled"]')
  })
  await open('en-light-organizer-empty', { language: 'en', theme: 'light', empty: true }, async (page) => {
    await page.click('[data-test="nav-organizer"]')
    await page.waitForSelector('[data-test="no-runs"]')
  })
  // No runs yet on a phone: "No runs yet" and its hint show whole (the runs pane kept 42% of the
  // height and cut them under the schedule; the rest said "select a run" with none to select).
  await open('zh-dark-organizer-empty-360', { language: 'zh-CN', theme: 'dark', empty: true }, async (page) => {
    await page.setViewportSize({ width: 360, height: 740 })
    await page.click('[data-test="nav-menu"]')
    await page.waitForSelector('.shell.nav-open .sider')
    await page.click('[data-test="nav-organizer"]')
    await page.waitForSelector('[data-test="no-runs"] .state-detail')
    await page.waitForFunction(() => !document.querySelector('.shell.nav-open'))
    const cut = await page.evaluate(() => {
      const hint = document.querySelector('[data-test="no-runs"] .state-detail').getBoundingClientRect()
      const pane = document.querySelector('.organizer-view .side').getBoundingClientRect()
      return hint.bottom > pane.bottom + 1 || hint.bottom > innerHeight ? `hint ends at ${hint.bottom}, pane at ${pane.bottom}` : ''
    })
    await check(!cut, `the no-runs hint is cut: ${cut}`)
  })

  // ---- Settings → LLM and the Usage view
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-settings-llm`, { language, theme: th }, async (page) => {
      await page.click('[data-test="open-settings"]')
      await page.waitForSelector('[data-test="llm-settings"][data-state="ready"] [data-test="llm-key-state"][data-key="set"]')
      await page.click('[data-test="llm-test-run"]')
      await page.waitForSelector('[data-test="llm-test"][data-state="ok"] [data-test="llm-test-result"]')
    })
  }
  await open('en-light-settings-llm-key', { language: 'en', theme: 'light', llm: 'nokey', llmTest: 'fail' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="llm-settings"][data-state="off"] [data-test="llm-status-error"]')
    await page.waitForSelector('[data-test="llm-key-state"][data-key="missing"]')
    await page.fill('[data-test="llm-key-input"] input', 'sk-proj-visual-fixture')
    await page.click('[data-test="llm-key-save"]')
    await page.waitForSelector('[data-test="llm-settings"][data-state="ready"] [data-test="llm-key-state"][data-key="set"]')
    await check(page.locator('[data-test="llm-key-input"] input').inputValue().then((v) => v === ''), 'the key field is emptied once saved')
    await page.click('[data-test="llm-test-run"]')
    await page.waitForSelector('[data-test="llm-test"][data-state="error"] [data-test="llm-test-result"]')
    await page.locator('[data-test="llm-test-result"]').scrollIntoViewIfNeeded()
    await page.waitForFunction(() => document.querySelectorAll('.n-message').length === 0)
  })
  await open('zh-dark-settings-llm-local', { language: 'zh-CN', theme: 'dark', llm: 'off' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="llm-settings"][data-state="off"]')
    await page.click('[data-test="llm-provider"]')
    await page.click('.n-base-select-option >> text=OpenAI')
    await page.fill('[data-test="llm-base-url"] input', 'http://127.0.0.1:11434/v1')
    await page.fill('[data-test="llm-model"] input', 'qwen2.5:7b')
    await page.click('[data-test="llm-save"]')
    await page.waitForSelector('[data-test="llm-settings"][data-state="ready"] [data-test="llm-key-state"][data-key="local"]')
    await page.waitForFunction(() => document.querySelectorAll('.n-message').length === 0)
  })
  // ---- Settings → Embeddings: live re-embedding progress, switching provider, key, bridge
  const toEmbeddings = async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="embedding-settings"]:not([data-state="loading"])')
    await page.locator('[data-test="settings-embeddings"]').scrollIntoViewIfNeeded()
  }
  const pushProgress = (page, p) => page.evaluate((p) => window.__fakeEmit('embedding.progress', { at: new Date().toISOString(), ...p }), p)
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-settings-embeddings`, { language, theme: th, embed: 'reembedding' }, async (page) => {
      await toEmbeddings(page)
      await page.waitForSelector('[data-test="embeddings-progress"][data-state="running"]')
      await pushProgress(page, { model: 'openai:nomic-embed-text', done: 80, total: 120, running: true })
      await page.waitForSelector('[data-test="embeddings-progress-count"] >> text=80 / 120')
      await page.locator('[data-test="embeddings-progress"]').scrollIntoViewIfNeeded()
    })
  }
  await open('en-light-settings-embeddings-switch', { language: 'en', theme: 'light' }, async (page) => {
    await toEmbeddings(page)
    await page.waitForSelector('[data-test="embedding-settings"][data-state="on"] [data-test="embeddings-progress"][data-state="done"]')
    await page.click('[data-test="embeddings-provider"]')
    await page.click('.n-base-select-option >> text=OpenAI')
    await page.fill('[data-test="embeddings-base-url"] input', 'http://127.0.0.1:11434/v1')
    await page.fill('[data-test="embeddings-model"] input', 'nomic-embed-text')
    await page.click('[data-test="embeddings-save"]')
    await page.waitForSelector('[data-test="embeddings-progress"][data-state="running"]')
    await page.waitForSelector('[data-test="embeddings-key-state"][data-key="local"]')
    for (const done of [40, 120]) await pushProgress(page, { model: 'openai:nomic-embed-text', done, total: 120, running: done < 120 })
    await page.waitForSelector('[data-test="embeddings-progress"][data-state="done"] [data-test="embeddings-progress-count"] >> text=120 / 120')
    await page.click('[data-test="embeddings-test-run"]')
    await page.waitForSelector('[data-test="embeddings-test"][data-state="ok"] [data-test="embeddings-test-result"]')
    await page.locator('[data-test="embeddings-test-result"]').scrollIntoViewIfNeeded()
    await page.waitForFunction(() => document.querySelectorAll('.n-message').length === 0)
  })
  await open('zh-dark-settings-embeddings-key', { language: 'zh-CN', theme: 'dark', embed: 'nokey' }, async (page) => {
    await toEmbeddings(page)
    await page.waitForSelector('[data-test="embeddings-progress"][data-state="error"]')
    await page.waitForSelector('[data-test="embeddings-key-state"][data-key="missing"]')
    await page.click('[data-test="embeddings-test-run"]')
    await page.waitForSelector('[data-test="embeddings-test"][data-state="error"]')
    await page.fill('[data-test="embeddings-key-input"] input', 'sk-visual-embeddings-fixture')
    await page.click('[data-test="embeddings-key-save"]')
    await page.waitForSelector('[data-test="embeddings-key-state"][data-key="set"]')
    await check(page.locator('[data-test="embeddings-key-input"] input').inputValue().then((v) => v === ''), 'the key field is emptied once saved')
    await page.waitForSelector('[data-test="embeddings-progress"][data-state="running"]')
    await page.locator('[data-test="embeddings-key-state"]').scrollIntoViewIfNeeded()
    await page.waitForFunction(() => document.querySelectorAll('.n-message').length === 0)
  })
  await open('en-dark-settings-embeddings-bridge', { language: 'en', theme: 'dark', embed: 'nokey', transport: 'ws' }, async (page) => {
    await toEmbeddings(page)
    await page.waitForSelector('[data-test="embeddings-key-desktop-only"]')
    await check(page.locator('[data-test="embeddings-key-input"]').count().then((n) => n === 0), 'no key field over the bridge')
    await page.locator('[data-test="embeddings-key-desktop-only"]').scrollIntoViewIfNeeded()
  })
  await open('zh-light-settings-embeddings-off', { language: 'zh-CN', theme: 'light', embed: 'off' }, async (page) => {
    await toEmbeddings(page)
    await page.waitForSelector('[data-test="embedding-settings"][data-state="off"]')
    await check(page.locator('[data-test="embeddings-progress"]').count().then((n) => n === 0), 'no progress bar while off')
  })
  await open('en-light-settings-llm-bad-url', { language: 'en', theme: 'light' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="llm-settings"][data-state="ready"]')
    await page.fill('[data-test="llm-base-url"] input', 'not a url')
    await page.click('[data-test="llm-save"]')
    await page.waitForSelector('.n-message')
  })
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-usage`, { language, theme: th }, async (page) => {
      await page.click('[data-test="nav-usage"]')
      await page.waitForSelector('[data-test="usage-view"][data-state="ready"] [data-test="usage-chart"] svg')
      await check(page.locator('[data-test="usage-by_purpose"] tbody tr').count().then((n) => n === 4), 'four purposes')
    })
  }
  await open('en-light-usage-7-days', { language: 'en', theme: 'light' }, async (page) => {
    await page.click('[data-test="nav-usage"]')
    await page.waitForSelector('[data-test="usage-view"][data-state="ready"] [data-test="usage-chart"] svg')
    await page.click('[data-test="usage-range"] >> text=Last 7 days')
    await page.waitForFunction(() => document.querySelectorAll('[data-test="usage-chart"] svg g').length > 0 && document.querySelector('[data-test="usage-range"] .n-radio-button--checked')?.textContent?.includes('7'))
    await page.waitForSelector('[data-test="usage-refresh"]:not(.n-button--loading)')
  })
  await open('zh-dark-usage-empty', { language: 'zh-CN', theme: 'dark', usage: 'empty' }, async (page) => {
    await page.click('[data-test="nav-usage"]')
    await page.waitForSelector('[data-test="usage-view"][data-state="empty"] [data-test="usage-empty"]')
  })

  // ---- Files that could not be read: banner, list, check again
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-problems`, { language, theme: th, problems: true }, async (page) => {
      await page.waitForSelector('[data-test="problems-banner"]')
      if (th === 'light' || l === 'zh') {
        await page.click('[data-test="problems-show"]')
        await page.waitForSelector('[data-test="problems-list"] .problem')
      }
    })
  }
  await open('en-light-problems-rechecked', { language: 'en', theme: 'light', problems: true }, async (page) => {
    await page.click('[data-test="problems-show"]')
    await page.click('[data-test="problems-recheck"]')
    await page.waitForFunction(() => document.querySelectorAll('[data-test="problems-list"] .problem').length === 2)
  })

  // ---- An agent's key-value facts under the agent filter (read-only)
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-agent-facts`, { language, theme: th }, async (page) => {
      await page.locator('.filters :is(.n-select, .select-facade)').first().click()
      await page.locator('.n-base-select-option').nth(2).click() // global, project, agent
      await page.waitForSelector('[data-test="agent-facts"][data-agent="codex"][data-state="ready"]')
      await check(page.locator('[data-test="agent-fact"]').count().then((n) => n === 6), 'six facts listed')
      await check(
        page.locator('[data-test="agent-fact"]').first().getAttribute('data-key').then((k) => k === 'ci:runner'),
        'sorted by key',
      )
    })
  }

  await open('en-light-agent-facts-broken', { language: 'en', theme: 'light', kvBroken: true }, async (page) => {
    await page.locator('.filters :is(.n-select, .select-facade)').first().click()
    await page.locator('.n-base-select-option').nth(2).click()
    await page.waitForSelector('[data-test="agent-facts"][data-state="error"]')
    await check(
      page.locator('[data-test="agent-facts-error"]').textContent().then((s) => s.includes('agents/codex/kv.json') && s.includes('repeats a key')),
      'the translated error names the file and what is wrong',
    )
  })

  // ---- Activity and the reader's history
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-activity`, { language, theme: th }, async (page) => {
      await page.click('[data-test="nav-activity"]')
      await page.waitForSelector('[data-test="activity-row"]')
    })
  }
  // An 800 × 600 window: the sidebar leaves the log ~590 px, so it takes its narrow layout by its
  // own width (a container query), not the window's. Every memory's name keeps room, the
  // rejection's reason sits under its name, nothing runs past the row.
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-activity-800`, { language, theme: th }, async (page) => {
      await page.setViewportSize({ width: 800, height: 600 })
      await page.click('[data-test="nav-activity"]')
      await page.waitForSelector('[data-test="activity-row"][data-op="reject"] [data-test="activity-reason"]')
      await check(page.locator('.sider').isVisible(), 'the sidebar is shown at 800 px')
      const bad = await page.evaluate(() => {
        const out = []
        for (const row of document.querySelectorAll('[data-test="activity-row"]')) {
          const r = row.getBoundingClientRect()
          const slug = row.querySelector('.slug').getBoundingClientRect()
          const name = row.querySelector('.slug')
          if (name.scrollWidth > name.clientWidth + 1 && slug.width < 200) out.push(`name cut at ${Math.round(slug.width)} px`)
          for (const el of row.querySelectorAll('.when, .op, .slug, .scope-chip, .actor, .result, .reason')) {
            const b = el.getBoundingClientRect()
            if (b.right > r.right + 0.5 || b.left < r.left - 0.5) out.push(`${el.className} outside its row`)
          }
          const reason = row.querySelector('.reason')
          if (reason && reason.getBoundingClientRect().top < slug.bottom - 0.5) out.push('the reason overlaps the name')
        }
        return out
      })
      await check(bad.length === 0, `narrow log: ${[...new Set(bad)].join('; ')}`)
    })
  }
  await open('en-light-activity-open', { language: 'en', theme: 'light' }, async (page) => {
    await page.click('[data-test="nav-activity"]')
    // A deleted memory's Deleted row offers it back (cancelled here); its other rows stay
    // where we are, with a note.
    await page.locator('[data-test="activity-row"][data-op="delete"]', { hasText: 'old-laptop-specs' }).first().click()
    await page.waitForSelector('.n-dialog')
    await page.locator('.n-dialog .n-dialog__action .n-button').first().click()
    await page.waitForSelector('.n-dialog', { state: 'detached' })
    await page.locator('[data-test="activity-row"][data-op="write"]', { hasText: 'old-laptop-specs' }).first().click()
    await page.waitForSelector('.n-message')
    await check(page.locator('[data-test="nav-activity"].active').count().then((n) => n === 1), 'still on Activity')
    await page.locator('[data-test="activity-row"]', { hasText: 'uses-neovim' }).first().click()
    await page.waitForSelector('[data-test="reader-title"]')
    await page.locator('[data-test="memory-history"]').scrollIntoViewIfNeeded()
  })
  // ---- Sessions (a tab of Activity): list, open one, delete one; empty
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-sessions`, { language, theme: th }, async (page) => {
      await page.click('[data-test="nav-activity"]')
      await page.click('[data-test="activity-tab-sessions"]')
      await page.waitForSelector('[data-test="sessions"][data-state="ready"] [data-test="session-row"]')
      await check(page.locator('[data-test="session-row"]').count().then((n) => n === 3), 'three sessions')
    })
  }
  await open('en-light-sessions-open-delete', { language: 'en', theme: 'light' }, async (page) => {
    await page.click('[data-test="nav-activity"]')
    await page.click('[data-test="activity-tab-sessions"]')
    const first = page.locator('[data-test="session-row"]').first()
    await first.locator('.row').click()
    await page.waitForSelector('[data-test="session-detail"] .summary')
    await check(page.locator('[data-test="session-detail"] .turn').count().then((n) => n === 3), 'three recent messages')
    await check(page.locator('[data-test="turn-elsewhere"]').count().then((n) => n === 1), 'the message of another project says so')
    const second = page.locator('[data-test="session-row"][data-session="cx-20261130-1"]')
    await second.locator('[data-test="session-delete"]').click()
    await page.locator('.n-popconfirm .n-button--primary-type, .n-popconfirm__action .n-button:last-child').first().click()
    await page.waitForFunction(() => document.querySelectorAll('[data-test="session-row"]').length === 2)
    await page.waitForSelector('.n-message')
  })
  await open('zh-dark-sessions-empty', { language: 'zh-CN', theme: 'dark', empty: true }, async (page) => {
    await page.click('[data-test="nav-activity"]')
    await page.click('[data-test="activity-tab-sessions"]')
    await page.waitForSelector('[data-test="sessions"][data-state="empty"]')
  })
  // ---- Extraction: runs in Activity (gate decision, model, tokens, applied and refused items with
  // their codes, translated) and Settings → Extraction
  const toExtractionRuns = async (page) => {
    await page.click('[data-test="nav-activity"]')
    await page.click('[data-test="activity-tab-extraction"]')
    await page.waitForSelector('[data-test="extraction-runs"][data-state="ready"]')
  }
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-extraction-runs`, { language, theme: th }, async (page) => {
      await toExtractionRuns(page)
      await page.locator('[data-test="extraction-run"][data-run="01EXT0000000000000000000P1"] .row').click()
      await page.waitForSelector('[data-test="extraction-detail"] [data-test="extraction-rejected"]')
      const texts = await page.locator('[data-test="extraction-runs"]').innerText()
      await check(!/extraction\.(code|reason|status)\.|ui\.extraction\./.test(texts), 'no catalog key shown raw')
      await check(page.locator('[data-test="extraction-rejected"] [data-code="person-only-action"]').count().then((n) => n === 1), 'the accept item is listed with its code')
      await check(page.locator('[data-test="extraction-run"]').count().then((n) => n === 7), 'every run listed')
      // A model's delete reads as one, not as a write with a check mark.
      const del = page.locator('[data-test="extraction-applied"] [data-action="delete"]')
      await check(del.innerText().then((s) => s.includes(language === 'en' ? 'Moved to the trash' : '已移到回收站')), 'an applied delete says it moved the memory to the trash')
      await check(page.locator('[data-test="extraction-applied"] [data-action="write"]').innerText().then((s) => s.includes(language === 'en' ? 'Written' : '已写入')), 'an applied write says it was written')
    })
  }
  // Narrow Activity (a phone, and an 800 px window beside the sidebar): a run's and a session's
  // parts neither overlap nor leave the screen, and the agent, the status and the counts are
  // whole (at 360 px "claude-code" was drawn over the model and the sessions' agents had no width).
  for (const [[l, th, language], w, h] of [
    [COMBOS[0], 360, 740],
    [COMBOS[3], 360, 740],
    [COMBOS[0], 800, 600],
  ]) {
    await open(`${l}-${th}-activity-runs-sessions-${w}`, { language, theme: th }, async (page) => {
      await page.setViewportSize({ width: w, height: h })
      if (w < 800) {
        await page.click('[data-test="nav-menu"]')
        await page.waitForSelector('.shell.nav-open .sider')
      }
      await toExtractionRuns(page)
      await page.waitForFunction(() => !document.querySelector('.shell.nav-open'))
      const layout = (rowSel, partSels, wholeSels) =>
        page.evaluate(
          ([rowSel, partSels, wholeSels]) => {
            const bad = []
            for (const row of document.querySelectorAll(rowSel)) {
              const boxes = partSels
                .map((sel) => [sel, row.querySelector(sel)])
                .filter(([, el]) => el && el.getClientRects().length)
                .map(([sel, el]) => [sel, el.getBoundingClientRect()])
              for (const [sel, b] of boxes) if (b.right > innerWidth + 1 || b.left < -1) bad.push(`${sel} off screen (${Math.round(b.left)}–${Math.round(b.right)})`)
              for (let i = 0; i < boxes.length; i++)
                for (let j = i + 1; j < boxes.length; j++) {
                  const [a, x] = [boxes[i][1], boxes[j][1]]
                  if (a.left < x.right - 1 && x.left < a.right - 1 && a.top < x.bottom - 1 && x.top < a.bottom - 1) bad.push(`${boxes[i][0]} meets ${boxes[j][0]}`)
                }
              for (const sel of wholeSels) {
                const el = row.querySelector(sel)
                if (el && el.scrollWidth > el.clientWidth + 1) bad.push(`${sel} cut (${el.clientWidth} of ${el.scrollWidth} px)`)
                if (el && el.getClientRects().length > 1) bad.push(`${sel} broken over lines`)
              }
            }
            return [...new Set(bad)]
          },
          [rowSel, partSels, wholeSels],
        )
      const runs = await layout('[data-test="extraction-run"] .row', ['.when', '.chip', '.agent', '.model .mono', '.applied', '.refused'], ['.chip', '.agent', '.applied', '.refused'])
      await check(runs.length === 0, `extraction runs at ${w} px: ${runs.join('; ')}`)
      await page.locator('[data-test="extraction-run"][data-run="01EXT0000000000000000000P1"] .row').click()
      await page.waitForSelector('[data-test="extraction-detail"] [data-test="extraction-rejected"]')
      const detail = await page.locator('[data-test="extraction-detail"]').evaluate((e) => {
        const text = e.querySelector('.facts').getBoundingClientRect().left
        return text - e.closest('[data-test="extraction-run"]').getBoundingClientRect().left
      })
      await check(w >= 800 || detail < 40, `a run's detail starts near the row's left edge, not under a column: ${detail}`)
      await page.click('[data-test="activity-tab-sessions"]')
      await page.waitForSelector('[data-test="sessions"][data-state="ready"] [data-test="session-row"]')
      const sessions = await layout('[data-test="session-row"] .row', ['.agent', '.sid', '.project', '.count', '.when', '[data-test="session-delete"]'], ['.agent', '.when'])
      await check(sessions.length === 0, `sessions at ${w} px: ${sessions.join('; ')}`)
    })
  }
  await open('en-light-extraction-empty', { language: 'en', theme: 'light', extraction: 'empty' }, async (page) => {
    await page.click('[data-test="nav-activity"]')
    await page.click('[data-test="activity-tab-extraction"]')
    await page.waitForSelector('[data-test="extraction-runs"][data-state="empty"]')
  })
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-settings-extraction`, { language, theme: th }, async (page) => {
      await page.click('[data-test="open-settings"]')
      await page.waitForSelector('[data-test="extraction-settings"][data-state="ready"]')
      await page.locator('[data-test="ext-agents"] button').first().click()
      await page.keyboard.type('claude-code')
      await page.keyboard.press('Enter')
      await page.waitForFunction(() => document.querySelector('[data-test="ext-agents-summary"]')?.textContent?.includes('claude-code'))
    })
  }
  await open('zh-dark-reader-history', { language: 'zh-CN', theme: 'dark' }, async (page) => {
    await selectNth(1)(page)
    await page.locator('[data-test="memory-history"]').scrollIntoViewIfNeeded()
  })

  await open('en-light-reader', { language: 'en', theme: 'light' }, selectNth(0))
  await open('en-dark-reader', { language: 'en', theme: 'dark' }, selectNth(2))
  await open('zh-light-reader', { language: 'zh-CN', theme: 'light' }, selectNth(1))
  await open('zh-dark-reader', { language: 'zh-CN', theme: 'dark' }, selectNth(0))
  await open('en-light-quota', { language: 'en', theme: 'light', quota: 'degraded' }, selectNth(3))
  await open('zh-dark-quota-exhausted', { language: 'zh-CN', theme: 'dark', quota: 'exhausted' })
  await open('en-light-empty', { language: 'en', theme: 'light', empty: true })
  await open('en-light-search', { language: 'en', theme: 'light' }, async (page) => {
    await page.fill('[data-test="search"] input', 'postgres')
    await page.waitForSelector('.list-pane[data-state="ready"][data-query="postgres"]')
    await check(page.locator('.list-pane .item').count().then((n) => n === 1), 'one hit for postgres')
  })
  // Typing into the search box right after saving a memory: the form's leave transition is
  // still running (slowed here to what a busy machine does by itself). Focus and keystrokes
  // must stay in the search box when the form goes away, and the search must run.
  await open('en-light-search-after-save', { language: 'en', theme: 'light' }, async (page) => {
    await page.addStyleTag({ content: '.fade-in-scale-up-transition-leave-active { transition-duration: 1.5s !important; }' })
    await page.click('[data-test="new-memory"]')
    await page.fill('[data-test="slug"] input', 'likes-walrus-facts')
    await page.fill('[data-test="title"] input', 'Likes walrus facts')
    await page.fill('[data-test="body"] textarea', 'Collects facts about walruses.')
    await page.click('[data-test="submit"]')
    await page.waitForSelector('[data-test="reader-title"]:has-text("Likes walrus facts")')
    // Hold the form's leave transition where it is, however busy the machine: the typing below
    // lands while the form is still on screen, then the transition ends and the form unmounts.
    // (Finite ones only: a spinner or a caret blink never ends and cannot be finished.)
    const finite = () => document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
    await page.evaluate(`(${finite})().forEach((a) => a.pause())`)
    await check(page.locator('.memory-form-modal').count().then((n) => n === 1), 'the form is still leaving while we type')
    await page.fill('[data-test="search"] input', 'walrus')
    await page.evaluate(`(${finite})().forEach((a) => a.finish())`)
    await page.waitForSelector('.memory-form-modal', { state: 'detached' })
    await page.keyboard.type(' facts')
    const typed = await page.locator('[data-test="search"] input').inputValue()
    await check(typed === 'walrus facts', `the search box kept what was typed (${JSON.stringify(typed)})`)
    await page.waitForSelector('.list-pane[data-state="ready"][data-query="walrus facts"]')
    await check(page.locator('.list-pane .item').count().then((n) => n === 1), 'one hit')
  })
  // A refusal that names a field (a token in the body) draws that field as wrong and puts the
  // cursor in it; changing it clears the mark. A short body's size reads in bytes, not "0.0".
  for (const [name, language, theme, edit] of [['en-light-create-secret', 'en', 'light', true], ['zh-dark-create-secret', 'zh-CN', 'dark', false]]) {
    await open(name, { language, theme }, async (page) => {
      await page.click('[data-test="new-memory"]')
      await page.fill('[data-test="title"] input', 'Deploy key')
      await page.fill('[data-test="body"] textarea', 'token ghp_Q8mZ2rT7vK1pX9cL4nB6wE3yH5jF0dS2aG7u')
      await page.waitForSelector('[data-test="body-size"][data-bytes="46"]')
      const size = (await page.locator('[data-test="body-size"]').innerText()).trim()
      await check(size === (language === 'en' ? '46 bytes / 8 KiB' : '46 字节 / 8 KiB'), `the body's size reads "${size}"`)
      await page.click('[data-test="submit"]')
      await page.waitForSelector('[data-test="form-error"]')
      await page.waitForSelector('[data-field="body"][data-invalid="true"]')
      await check(page.locator('[data-field][data-invalid="true"]').count().then((n) => n === 1), 'only the body is marked')
      await check(page.evaluate(() => document.activeElement?.matches('[data-test="body"] textarea')), 'the cursor is in the body')
      if (!edit) return
      await page.keyboard.press('End')
      await page.keyboard.type(' (revoked)')
      await page.waitForSelector('[data-field="body"][data-invalid]', { state: 'detached' })
    })
  }
  await open('en-light-create', { language: 'en', theme: 'light' }, async (page) => {
    await page.click('[data-test="new-memory"]')
    await page.fill('[data-test="slug"] input', 'Bad_Slug!')
    await page.click('[data-test="submit"]')
  })
  // A new memory's slug follows its title until one is typed; a Chinese title leaves it empty
  // and the store makes one (memory-<hash>) when the form is saved.
  await open('en-light-create-slug-from-title', { language: 'en', theme: 'light' }, async (page) => {
    await page.click('[data-test="new-memory"]')
    const slug = page.locator('[data-test="slug"] input')
    await page.fill('[data-test="title"] input', 'Prefers green tea!')
    await check(slug.inputValue().then((v) => v === 'prefers-green-tea'), 'the slug follows the title')
    await slug.fill('tea-habit')
    await page.fill('[data-test="title"] input', 'Prefers green tea in the afternoon')
    await check(slug.inputValue().then((v) => v === 'tea-habit'), 'a typed slug stays when the title changes')
    await slug.fill('')
    await page.fill('[data-test="title"] input', 'Prefers oolong')
    await check(slug.inputValue().then((v) => v === 'prefers-oolong'), 'an emptied slug follows the title again')
  })
  await open('zh-light-create-chinese-title', { language: 'zh-CN', theme: 'light' }, async (page) => {
    await page.click('[data-test="new-memory"]')
    await page.fill('[data-test="title"] input', '喜欢川菜')
    await page.fill('[data-test="body"] textarea', '尤其是水煮鱼。')
    await check(page.locator('[data-test="slug"] input').inputValue().then((v) => v === ''), 'a Chinese title suggests no slug')
    await page.click('[data-test="submit"]')
    await page.waitForSelector('[data-test="reader-title"]:has-text("喜欢川菜")')
  })
  await open('zh-dark-create', { language: 'zh-CN', theme: 'dark' }, async (page) => {
    await page.click('[data-test="new-memory"]')
    await page.fill('[data-test="slug"] input', 'likes-sichuan-food')
    await page.fill('[data-test="title"] input', '喜欢川菜')
  })
  // A phone through the bridge (360 × 740): the form stacks its columns, every field keeps a
  // usable width and nothing is cut off at the card's edge (side by side the title box held a
  // word and the confidence buttons ran past the card).
  for (const [name, language, theme] of [['en-light-create-360', 'en', 'light'], ['zh-dark-create-360', 'zh-CN', 'dark']]) {
    await open(name, { language, theme }, async (page) => {
      await page.setViewportSize({ width: 360, height: 740 })
      await page.click('[data-test="new-memory"]')
      await page.waitForSelector('.memory-form-modal [data-test="title"] input')
      await page.fill('[data-test="title"] input', language === 'en' ? 'Prefers green tea' : '喜欢川菜')
      const fit = await page.evaluate(() => {
        const card = document.querySelector('.memory-form-modal').getBoundingClientRect()
        const out = [...document.querySelectorAll('.memory-form-modal button, .memory-form-modal input, .memory-form-modal textarea, .memory-form-modal .n-radio-button, .memory-form-modal .n-base-selection')]
          .filter((el) => el.getClientRects().length)
          .filter((el) => {
            const b = el.getBoundingClientRect()
            return b.left < card.left - 1 || b.right > card.right + 1
          })
          .map((el) => `${el.tagName.toLowerCase()}.${el.className.split(' ')[0]} "${(el.textContent || el.getAttribute('placeholder') || '').trim().slice(0, 20)}"`)
        const title = document.querySelector('[data-test="title"]').getBoundingClientRect().width
        return { out, title, cardRight: card.right }
      })
      await check(fit.cardRight <= 360, `the card fits the window: ends at ${fit.cardRight}`)
      await check(fit.out.length === 0, `controls past the card's edge: ${fit.out.join('; ')}`)
      await check(fit.title >= 240, `the title box keeps a usable width: ${fit.title} px`)
    })
  }
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
    // Try at once: the socket closes before opening, the transport probes the bridge (answered
    // by the fake, never by the fixture server) and goes back to waiting.
    const probes = await page.evaluate(() => window.__fakeProbes)
    await page.click('[data-test="retry-now"]')
    await page.waitForFunction((n) => window.__fakeProbes > n, probes)
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
  await open('en-light-settings-integrations', { language: 'en', theme: 'light', agents: true }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="agents"][data-state="loaded"]')
    await page.locator('[data-test="settings-integrations"]').scrollIntoViewIfNeeded()
  })
  await open('en-dark-settings-integrations-codex', { language: 'en', theme: 'dark' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="agents"][data-state="empty"]')
    await page.click('[data-test="integrations-tabs"] >> text=Codex')
    await page.waitForSelector('[data-test="snippet-codex"]')
    await page.locator('[data-test="snippet-codex"]').scrollIntoViewIfNeeded()
  })
  await open('zh-light-settings-integrations-gemini', { language: 'zh-CN', theme: 'light' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="agents"][data-state="empty"]')
    await page.click('[data-test="integrations-tabs"] >> text=Gemini')
    await page.waitForSelector('[data-test="snippet-gemini"]')
    await page.locator('[data-test="snippet-gemini"]').scrollIntoViewIfNeeded()
  })
  await open('zh-dark-settings-integrations-http', { language: 'zh-CN', theme: 'dark' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="agents"][data-state="empty"]')
    await page.click('[data-test="integrations-tabs"] >> text=其他客户端')
    await page.waitForSelector('[data-test="snippet-http"]')
    await page.locator('[data-test="snippet-http"]').scrollIntoViewIfNeeded()
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
  // Per-feature scenarios (scenarios/*.mjs), each exporting default async ({ open, check, ... }).
  const scenDir = path.join(here, 'scenarios')
  const scenFiles = fs.existsSync(scenDir) ? fs.readdirSync(scenDir).filter((f) => f.endsWith('.mjs')).sort() : []
  for (const f of scenFiles) {
    const mod = await import(path.join(scenDir, f))
    await mod.default({ open, check, settled, selectNth, COMBOS })
  }
} finally {
  await close()
  server.close()
}

for (const s of shots) console.log(s)
reportSuite('visual', passed, failed)
if (problems.length) {
  console.error(problems.join('\n'))
  process.exit(1)
}
