// End-to-end: the real web UI served by `engram-cli serve` on a temporary home, driven in
// headless Chromium, with a second browser and a raw websocket client changing things at the
// same time, and a server restart in the middle. Asserts on DOM state with generous deadlines
// (never on timing). Screenshots: build/shots/e2e-*.png. Started through run.mjs.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { reportSuite } from '../report.mjs'
import { LONG, ROOT, RpcClient, Server, cleanup, cli, launchBrowser, newPage, tempDir, track, until } from './lib.mjs'
import { startOpenAI } from './llmfake.mjs'

/** One MCP session with `engram mcp` over its stdin and stdout, as an agent CLI runs it: the
 * handshake, then a memory_list; it waits for each answer before closing. */
async function mcpSession(home, agent) {
  const p = track(spawn(CLI, ['mcp', '--agent', agent, '--workdir', home], { env: { ...process.env, ENGRAM_HOME: home }, stdio: ['pipe', 'pipe', 'inherit'] }))
  let out = ''
  p.stdout.on('data', (d) => (out += d))
  const send = (o) => p.stdin.write(JSON.stringify(o) + '\n')
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } })
  await until(() => out.includes('"id":1'), 'engram mcp answered initialize')
  send({ jsonrpc: '2.0', method: 'notifications/initialized' })
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_list', arguments: {} } })
  await until(() => out.includes('"id":2'), 'engram mcp answered tools/call')
  expect(!out.includes('"isError":true'), `memory_list over MCP: ${out}`)
  const exited = new Promise((r) => p.on('exit', r))
  p.stdin.end()
  await exited
}

const CLI = process.env.ENGRAM_CLI ? path.resolve(process.env.ENGRAM_CLI) : path.join(ROOT, 'build/bin/engram-cli')
const SHOTS = process.argv[2] ? path.resolve(process.argv[2]) : path.join(ROOT, 'build/shots')
fs.mkdirSync(SHOTS, { recursive: true })
if (!fs.existsSync(CLI)) {
  console.error(`e2e: ${CLI} is missing; run make cli`)
  process.exit(2)
}

const problems = []
const pages = {}
let step = ''
/** Steps begun; every one but a failing last one passed. The steps never reached count as
 *  failed too, so a run that stops early shows as partial in the summary. */
let stepsBegun = 0
const STEPS = (fs.readFileSync(new URL(import.meta.url), 'utf8').match(/^\s*begin\('/gm) || []).length
function begin(name) {
  step = name
  stepsBegun++
}
const started = Date.now()

function log(msg) {
  console.log(`e2e [${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}`)
}

async function shot(page, name) {
  // Finite CSS transitions (toasts, drawers) are fast-forwarded and spinners frozen by the
  // screenshot itself, so it shows a still page whatever the machine's speed.
  const file = path.join(SHOTS, `e2e-${name}.png`)
  await page.screenshot({ path: file, animations: 'disabled' })
  log(`screenshot ${path.relative(ROOT, file)}`)
}

function expect(cond, msg) {
  if (!cond) throw new Error(`expectation failed: ${msg}`)
}

// ---------------------------------------------------------------- DOM helpers

const item = (page, title) => page.locator('.item', { has: page.locator('.item-title', { hasText: exact(title) }) })
const exact = (s) => new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`)
const readerTitle = (page) => page.locator('[data-test="reader-title"]')

async function waitTitle(page, title) {
  await page.locator('[data-test="reader-title"]', { hasText: exact(title) }).waitFor({ timeout: LONG })
}

async function openMemory(page, title) {
  await item(page, title).first().click({ timeout: LONG })
  await waitTitle(page, title)
}

/** The confirm button of the naive-ui dialog on screen (the last action button). */
async function confirmDialog(page) {
  const btn = page.locator('.n-dialog__action .n-button').last()
  await btn.waitFor({ timeout: LONG })
  await btn.click()
  await page.locator('.n-dialog').waitFor({ state: 'detached', timeout: LONG })
}

async function toast(page, text) {
  await page.locator('.n-message', { hasText: text }).first().waitFor({ timeout: LONG })
}

/** Waits until the toasts are gone (their English text would clutter a Chinese screenshot). */
async function noToasts(page) {
  await until(async () => (await page.locator('.n-message').count()) === 0, 'toasts to close')
}

async function closeDrawer(page) {
  await page.keyboard.press('Escape')
  await page.locator('.n-drawer').waitFor({ state: 'detached', timeout: LONG })
}

async function login(page, input) {
  await page.locator('[data-test="token-input"] input').fill(input)
  await page.locator('[data-test="token-submit"]').click()
}

const storedToken = (page) => page.evaluate(() => localStorage.getItem('engram.token'))

// ---------------------------------------------------------------- the run

const SEED = [
  { slug: 'prefers-tabs', title: 'Prefers tabs over spaces', scope: 'global', type: 'user', confidence: 'medium', source_quote: 'tabs, please', body: 'Indent with **tabs** in every language except YAML.', reviewed: false },
  { slug: 'old-thinkpad', title: 'Works on an old ThinkPad', scope: 'global', type: 'user', body: 'A ThinkPad X220 with 8 GB of memory.', reviewed: false },
  { slug: 'uses-python-38', title: 'Uses Python 3.8', scope: 'global', type: 'reference', body: 'The build scripts target Python 3.8.', reviewed: true },
  { slug: 'drinks-coffee', title: 'Drinks coffee black', scope: 'global', type: 'user', body: 'No milk.', reviewed: true },
]

async function main() {
  const home = tempDir('engram-e2e-home-')
  begin('seed the home')
  const jsonl = SEED.map((r) => JSON.stringify(r)).join('\n') + '\n'
  const out = cli(CLI, home, ['import', '-'], jsonl)
  log(`seeded ${SEED.length} memories: ${out.trim()}`)
  // A file edited by hand into something that cannot be read: reported, never touched.
  const broken = path.join(home, 'memory', 'global', 'user', 'hand-edited.md')
  const brokenText = '---\ntitle: [unclosed\nslug: hand-edited\n---\nEdited by hand and broken.\n'
  fs.writeFileSync(broken, brokenText)

  begin('start the server')
  const server = new Server(CLI, home, { ENGRAM_LANG: 'en', LANG: 'C.UTF-8' })
  let srv = await server.start('127.0.0.1:0')
  log(`serving ${srv.origin}`)
  const wsUrl = (token) => `ws://127.0.0.1:${srv.port}/ws?token=${encodeURIComponent(token)}`

  const raw = await RpcClient.open(wsUrl(srv.token))
  const { items: seeded } = await raw.call('memory.list', { limit: 50 })
  expect(seeded.length === SEED.length, `the seeded memories are listed (${seeded.length})`)
  const idOf = (slug, list = seeded) => list.find((m) => m.slug === slug)?.id

  const browser = await launchBrowser()
  const ctxA = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' })
  await ctxA.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.origin })
  const a = (pages.a = await newPage(ctxA, 'A', problems))

  // ---- 1. no token → login card; a wrong token → rejected; the right link → the app
  begin('login card without a token')
  await a.goto(`${srv.origin}/`)
  await a.locator('[data-test="login"][data-state="ask"]').waitFor({ timeout: LONG })
  expect((await a.locator('[data-test="login"] h1').textContent()).includes('Connect to Engram'), 'English login title')
  await shot(a, '01-login')

  begin('wrong token is rejected')
  await login(a, 'f'.repeat(48))
  await a.locator('[data-test="login-rejected"]').waitFor({ timeout: LONG })
  const rejectedText = await a.locator('[data-test="login-rejected"]').textContent()
  expect(/Token rejected/.test(rejectedText) && /token is missing or wrong/.test(rejectedText), `translated rejection: ${rejectedText}`)
  expect((await storedToken(a)) === null, 'a rejected token is not kept')
  await shot(a, '02-login-rejected')

  begin('right link opens the app')
  await login(a, srv.url)
  await a.locator('.list-pane .item').nth(SEED.length - 1).waitFor({ timeout: LONG })
  expect((await storedToken(a)) === srv.token, 'the token is kept in localStorage')
  begin('reload goes straight in')
  await a.reload()
  await a.locator('.list-pane .item').nth(SEED.length - 1).waitFor({ timeout: LONG })
  expect((await a.locator('[data-test="login"]').count()) === 0, 'no login card after reload')
  await shot(a, '03-app')

  // ---- 1b. the file that could not be read: banner, list, check again
  begin('problems banner lists the broken file')
  await a.locator('[data-test="problems-banner"]', { hasText: '1 file could not be read and was left untouched' }).waitFor({ timeout: LONG })
  await a.locator('[data-test="problems-show"]').click()
  const firstProblem = a.locator('[data-test="problems-list"] .problem[data-path="global/user/hand-edited.md"]')
  await firstProblem.waitFor({ timeout: LONG })
  expect((await firstProblem.getAttribute('data-code')) === 'parse_error', 'the problem carries its code')
  expect((await firstProblem.textContent()).includes('The file could not be read'), `the code is translated: ${await firstProblem.textContent()}`)
  begin('a second broken file, then Check again')
  fs.writeFileSync(path.join(home, 'memory', 'global', 'user', 'also-broken.md'), '---\ntags: {oops\n---\nx\n')
  await a.locator('[data-test="problems-recheck"]').click()
  await a.locator('[data-test="problems-list"] .problem[data-path="global/user/also-broken.md"]').waitFor({ timeout: LONG })
  await a.locator('[data-test="problems-banner"]', { hasText: '2 files could not be read' }).waitFor({ timeout: LONG })
  expect(fs.readFileSync(broken, 'utf8') === brokenText, 'the broken file is left untouched on disk')
  await shot(a, '03b-problems')
  await a.locator('[data-test="problems-modal"] .n-card__action .n-button').last().click()
  await a.locator('[data-test="problems-modal"]').waitFor({ state: 'detached', timeout: LONG })
  await noToasts(a)

  // ---- 2. create, search, open, edit
  begin('create a memory through the form')
  await a.locator('[data-test="new-memory"]').click()
  await a.locator('[data-test="slug"] input').fill('e2e-created')
  await a.locator('[data-test="title"] input').fill('Created from the browser')
  await a.locator('[data-test="body"] textarea').fill('Written by the end-to-end test through the **form**.')
  // Saved from the keyboard, where the text is typed (the edit below uses the button).
  await a.locator('[data-test="body"] textarea').press('Control+Enter')
  await waitTitle(a, 'Created from the browser')
  await item(a, 'Created from the browser').waitFor({ timeout: LONG })
  await raw.waitEvent((e) => e.name === 'memory.changed', 'memory.changed at the raw client')

  begin('search for it')
  await a.locator('[data-test="search"] input').fill('browser')
  await until(async () => (await a.locator('.list-pane .item').count()) === 1 && (await item(a, 'Created from the browser').count()) === 1, 'one search hit')
  await shot(a, '04-search')
  await a.locator('[data-test="search"] input').fill('')
  await until(async () => (await a.locator('.list-pane .item').count()) === SEED.length + 1, 'the full list again')

  begin('open and edit it')
  await openMemory(a, 'Created from the browser')
  await a.locator('[data-test="edit"]').click()
  await a.locator('[data-test="title"] input').fill('Created and edited in the browser')
  await a.locator('[data-test="submit"]').click()
  await waitTitle(a, 'Created and edited in the browser')
  await item(a, 'Created and edited in the browser').waitFor({ timeout: LONG })

  // ---- 3. review: accept one, reject one, delete one
  begin('accept an unreviewed memory')
  await openMemory(a, 'Prefers tabs over spaces')
  await a.locator('[data-test="review-card"]').waitFor({ timeout: LONG })
  await shot(a, '05-unreviewed')
  await a.locator('[data-test="accept"]').click()
  await a.locator('[data-test="review-card"]').waitFor({ state: 'detached', timeout: LONG })
  const accepted = await raw.call('memory.read', { id: idOf('prefers-tabs') })
  expect(accepted.memory.reviewed === true, 'accepted memory is reviewed in the store')

  begin('reject one')
  await openMemory(a, 'Works on an old ThinkPad')
  await a.locator('[data-test="reject"]').click()
  await confirmDialog(a)
  await item(a, 'Works on an old ThinkPad').waitFor({ state: 'detached', timeout: LONG })

  begin('delete one')
  await openMemory(a, 'Uses Python 3.8')
  await a.locator('[data-test="delete"]').click()
  await confirmDialog(a)
  await item(a, 'Uses Python 3.8').waitFor({ state: 'detached', timeout: LONG })
  const { items: afterReview } = await raw.call('memory.list', { limit: 50 })
  expect(!afterReview.some((m) => m.slug === 'old-thinkpad' || m.slug === 'uses-python-38'), 'rejected and deleted memories are gone from the store')

  // ---- 4. a second browser and a raw client change things; the first page follows live
  begin('second browser edits a memory')
  const ctxB = await browser.newContext({ viewport: { width: 1100, height: 760 }, locale: 'en-US' })
  const b = (pages.b = await newPage(ctxB, 'B', problems))
  await b.goto(srv.url)
  await b.locator('.list-pane .item').first().waitFor({ timeout: LONG })
  expect(!(await b.evaluate(() => location.hash.includes('token'))), 'the token is taken out of the address bar')
  await openMemory(a, 'Drinks coffee black')
  await openMemory(b, 'Drinks coffee black')
  await b.locator('[data-test="edit"]').click()
  await b.locator('[data-test="title"] input').fill('Drinks coffee black, no sugar')
  await b.locator('[data-test="submit"]').click()
  await waitTitle(b, 'Drinks coffee black, no sugar')
  // Page A was not reloaded: the list and the open reader follow the event.
  await waitTitle(a, 'Drinks coffee black, no sugar')
  await item(a, 'Drinks coffee black, no sugar').waitFor({ timeout: LONG })

  begin('raw websocket client writes and updates')
  const w = await raw.call('memory.write', { scope: 'global', type: 'reference', slug: 'raw-client-note', title: 'Written by a raw websocket client', body: 'Sent as JSON-RPC over /ws.' })
  expect(w.ok && w.id, `raw write ok: ${JSON.stringify(w)}`)
  await item(a, 'Written by a raw websocket client').waitFor({ timeout: LONG })
  await item(b, 'Written by a raw websocket client').waitFor({ timeout: LONG })
  // The list shows the review state the store holds (the policy for bridge writes is Go's).
  const written = await raw.call('memory.read', { id: w.id })
  const dots = await item(a, 'Written by a raw websocket client').locator('.dot').count()
  expect(dots === (written.memory.reviewed ? 0 : 1), `unreviewed dot (${dots}) matches reviewed=${written.memory.reviewed}`)
  await openMemory(a, 'Written by a raw websocket client')
  const u = await raw.call('memory.update', { id: w.id, mode: 'merge', title: 'Updated by a raw websocket client' })
  expect(u.ok, `raw update ok: ${JSON.stringify(u)}`)
  await waitTitle(a, 'Updated by a raw websocket client')
  await shot(a, '06-live-update')

  // ---- 4a. an agent's key-value facts: set over the bridge, shown read-only, followed live
  begin('key-value facts of an agent')
  const agentNote = await raw.call('memory.write', { scope: 'agent', agent: 'e2e-agent', type: 'reference', slug: 'agent-notes', title: 'Notes of the e2e agent', body: 'Kept by the e2e agent.' })
  expect(agentNote.ok, `agent memory written: ${JSON.stringify(agentNote)}`)
  const kvSet = await raw.call('kv.set', { agent: 'e2e-agent', key: 'project:version', value: '1.4.2' })
  expect(kvSet.created && kvSet.changed, `kv.set over the bridge: ${JSON.stringify(kvSet)}`)
  // In a browser over the bridge the real pickers are there once the first view is on screen
  // (the desktop window draws them until touched: MemoryList.vue).
  await a.locator('.filters .n-select').first().click()
  await a.locator('.n-base-select-option').nth(2).click() // global, project, agent
  const facts = a.locator('[data-test="agent-facts"][data-agent="e2e-agent"][data-state="ready"]')
  await facts.locator('[data-test="agent-fact"][data-key="project:version"]', { hasText: '1.4.2' }).waitFor({ timeout: LONG })
  await raw.call('kv.set', { agent: 'e2e-agent', key: 'deps', value: { go: '1.26' } })
  await raw.waitEvent((e) => e.name === 'kv.changed' && e.data?.agent === 'e2e-agent', 'kv.changed at the raw client')
  await facts.locator('[data-test="agent-fact"][data-key="deps"]', { hasText: '{"go":"1.26"}' }).waitFor({ timeout: LONG })
  expect(fs.readFileSync(path.join(home, 'memory', 'agents', 'e2e-agent', 'kv.json'), 'utf8').includes('"project:version": "1.4.2"'), 'the facts are in the agent folder')
  await shot(a, '06a-agent-facts')
  await a.locator('.count-row .clear').click()
  await until(async () => (await a.locator('[data-test="agent-facts"]').count()) === 0, 'the facts close with the filter')

  // ---- 4b. the organizer: a manual run proposes a merge, applying it leaves one memory
  begin('organizer: two near-duplicates from a raw client')
  const dupA = await raw.call('memory.write', { scope: 'global', type: 'user', slug: 'prefers-dark-mode', title: 'Prefers dark mode', body: 'The user prefers dark mode in every editor and terminal they use.' })
  const dupB = await raw.call('memory.write', { scope: 'global', type: 'user', slug: 'likes-dark-mode', title: 'Likes dark mode', body: 'The user prefers dark mode in every editor and terminal they use daily.' })
  expect(dupA.ok && dupB.ok, `near-duplicates written: ${JSON.stringify([dupA, dupB])}`)
  await item(a, 'Prefers dark mode').waitFor({ timeout: LONG })
  await item(a, 'Likes dark mode').waitFor({ timeout: LONG })

  begin('organizer: Run Now in the browser')
  await a.locator('[data-test="nav-organizer"]').click()
  await a.locator('[data-test="organizer-view"]').waitFor({ timeout: LONG })
  await a.locator('[data-test="organizer-status"]').waitFor({ timeout: LONG })
  await a.locator('[data-test="run-now"]').click()
  const firstRun = a.locator('[data-test="runs"] .run.selected')
  await firstRun.waitFor({ timeout: LONG })
  const firstRunId = await firstRun.getAttribute('data-run')
  await a.locator(`[data-test="runs"] .run[data-run="${firstRunId}"][data-status="done"]`).waitFor({ timeout: LONG })
  await a.locator(`[data-test="run-detail"][data-run="${firstRunId}"][data-status="done"]`).waitFor({ timeout: LONG })
  const merge = a.locator('[data-test="decision"][data-action="merge_into"]', { hasText: 'prefers-dark-mode' }).filter({ hasText: 'likes-dark-mode' })
  await merge.waitFor({ timeout: LONG })
  expect((await merge.getAttribute('data-status')) === 'pending', 'the merge waits for review (manual run)')
  const runRow = await raw.call('organizer.run', { id: firstRunId })
  expect(runRow.trigger === 'manual' && runRow.status === 'done', `a manual run that finished: ${runRow.trigger} ${runRow.status}`)
  await raw.waitEvent((e) => e.name === 'organizer.progress' && e.data?.run_id === firstRunId && e.data?.status === 'done', 'organizer.progress done')
  await noToasts(a)
  await shot(a, '06b-organizer-report')

  begin('organizer: apply the merge')
  await merge.locator('[data-test="decision-check"]').click()
  await a.locator('[data-test="apply-selected"]').click()
  await a.locator('.n-dialog', { hasText: 'Apply 1 change?' }).waitFor({ timeout: LONG })
  await confirmDialog(a)
  await a.locator('[data-test="decision"][data-action="merge_into"][data-status="applied"]', { hasText: 'likes-dark-mode' }).waitFor({ timeout: LONG })
  await toast(a, 'Applied 1 change')
  const { items: afterMerge } = await raw.call('memory.list', { limit: 100 })
  const left = afterMerge.filter((m) => m.slug === 'prefers-dark-mode' || m.slug === 'likes-dark-mode')
  expect(left.length === 1, `one of the two is left in the store: ${left.map((m) => m.slug)}`)
  await shot(a, '06c-organizer-applied')
  begin('organizer: open the kept memory from the report')
  await a.locator('[data-test="decision"][data-status="applied"] .ref.keeper').first().click()
  await waitTitle(a, left[0].title)
  expect((await item(a, 'Prefers dark mode').count()) + (await item(a, 'Likes dark mode').count()) === 1, 'the list shows one memory')
  await noToasts(a)

  // ---- 4c. Run Now while another process holds the organizer's run lock: queued, never dropped
  begin('organizer: hold the run lock from outside')
  const lockFile = path.join(home, 'memory', '.organizer.lock')
  expect(fs.existsSync(lockFile), `the organizer's lock file exists (${lockFile})`)
  // -o: the lock stays with flock itself (not sleep); detached: one process group to stop.
  const holder = track(spawn('flock', ['-o', lockFile, 'sleep', '120'], { stdio: 'ignore', detached: true }), true)
  const held = () => spawnSync('flock', ['-n', lockFile, 'true']).status === 1
  await until(async () => held(), 'the run lock held by flock')
  const releaseLock = () => {
    try {
      process.kill(-holder.pid, 'SIGKILL')
    } catch {
      /* gone */
    }
  }
  try {
    begin('organizer: Run Now while the lock is held')
    await a.locator('[data-test="nav-organizer"]').click()
    await a.locator('[data-test="organizer-view"]').waitFor({ timeout: LONG })
    await a.locator('[data-test="run-now"]').click()
    await toast(a, 'Queued: the run starts when the current one ends.')
    const queuedRow = a.locator('[data-test="runs"] .run.selected[data-status="queued"]')
    await queuedRow.waitFor({ timeout: LONG })
    const queuedId = await queuedRow.getAttribute('data-run')
    expect(queuedId && queuedId !== firstRunId, 'a new run is listed')
    await a.locator(`[data-test="run-detail"][data-run="${queuedId}"][data-status="queued"] [data-test="run-progress"][data-status="queued"]`).waitFor({ timeout: LONG })
    expect((await queuedRow.textContent()).includes('Queued'), 'the row says Queued')
    await a.locator('[data-test="organizer-queued"]', { hasText: '1 run waiting' }).waitFor({ timeout: LONG })
    const listed = (await raw.call('organizer.runs', { limit: 10 })).runs.find((r) => r.id === queuedId)
    expect(listed?.status === 'queued', `the server lists it as queued: ${listed?.status}`)
    await raw.waitEvent((e) => e.name === 'organizer.progress' && e.data?.run_id === queuedId && e.data?.status === 'queued', 'organizer.progress queued')
    await noToasts(a)
    await shot(a, '06d-organizer-queued')

    begin('organizer: lock released → the queued run starts and finishes')
    releaseLock()
    await until(async () => !held(), 'the run lock released')
    // The serving process takes queued runs at its next look (a minute) or the next Run Now.
    await a.locator('[data-test="run-now"]').click()
    await a.locator(`[data-test="runs"] .run[data-run="${queuedId}"][data-status="done"]`).waitFor({ timeout: LONG })
    await until(async () => (await a.locator('[data-test="runs"] .run[data-status="queued"], [data-test="runs"] .run[data-status="running"]').count()) === 0, 'every run ended')
    const runs = (await raw.call('organizer.runs', { limit: 10 })).runs
    expect(runs.length === 3 && runs.every((r) => r.status === 'done'), `three runs, all done: ${runs.map((r) => r.status)}`)
    await a.locator(`[data-test="runs"] .run[data-run="${queuedId}"]`).click()
    await a.locator(`[data-test="run-detail"][data-run="${queuedId}"][data-status="done"] [data-test="run-decisions"]`).waitFor({ timeout: LONG })
    await noToasts(a)
    await shot(a, '06e-organizer-queued-done')
  } finally {
    releaseLock()
  }
  await a.locator('[data-test="nav-memories"]').click()
  await a.locator('.list-pane').waitFor({ timeout: LONG })

  // ---- 5. Settings → Remote access over the bridge: URL and clients; the token never leaves
  //         the server (only the desktop window and the CLI show or replace it)
  begin('remote access section')
  await a.locator('[data-test="open-settings"]').click()
  await a.locator('[data-test="remote-state"]', { hasText: `127.0.0.1:${srv.port}` }).waitFor({ timeout: LONG })
  expect((await a.locator('[data-test="remote-toggle"] ').getAttribute('class')).includes('n-switch--disabled'), 'the switch cannot turn off the bridge this page uses')
  await a.locator('[data-test="remote-web-hint"]').waitFor({ timeout: LONG })
  // A, B and the raw client (the list refreshes every few seconds while open).
  await until(async () => (await a.locator('[data-test="remote-clients"] .client').count()) >= 3, 'three connected clients')
  const names = await a.locator('[data-test="remote-clients"] .client-name').allTextContents()
  expect(names.filter((n) => /Chrome/.test(n)).length >= 2, `two browsers listed: ${names}`)
  const urlText = await a.locator('[data-test="remote-url"]').textContent()
  expect(urlText.includes(`127.0.0.1:${srv.port}`) && !urlText.includes(srv.token) && !urlText.includes('token='), `URL shown without the token: ${urlText}`)
  await a.locator('[data-test="remote-token-elsewhere"]').waitFor({ timeout: LONG })
  expect((await a.locator('[data-test="remote-token"], [data-test="regenerate-token"], [data-test="copy-token"]').count()) === 0, 'no token and no regenerate button over the bridge')
  expect(!(await a.content()).includes(srv.token), 'the token appears nowhere in the page')
  await a.locator('[data-test="copy-url"]').click()
  await until(async () => (await a.evaluate(() => navigator.clipboard.readText())) === `${srv.origin}/`, 'the URL (without token) on the clipboard')
  const status = await raw.call('remote.status', {})
  expect(!('token' in status) && !String(status.url).includes(srv.token), `remote.status hides the token: ${JSON.stringify(status)}`)
  const regen = await raw.call('remote.regenerateToken', {}).then(() => null, (e) => e.rpc)
  expect(regen?.data?.code === 'remote_regenerate_desktop_only', `regenerateToken is refused over the bridge: ${JSON.stringify(regen)}`)
  await a.locator('[data-test="remote-clients"]').scrollIntoViewIfNeeded()
  await shot(a, '07-settings-remote')

  // ---- 5b. Settings → Integrations: the snippets name the real binary, and an agent that
  //          talks to `engram mcp` (a raw JSON-RPC client over its stdin) is listed live.
  begin('integrations section')
  await a.locator('[data-test="integrations"][data-state="ready"]').waitFor({ timeout: LONG }).catch(async (e) => {
    // Say what the section showed instead (still loading, or the error it got).
    const el = a.locator('[data-test="integrations"]')
    const state = await el.getAttribute('data-state').catch(() => 'absent')
    const text = ((await el.textContent().catch(() => '')) || '').slice(0, 200)
    throw new Error(`integrations section ${state}: ${text} (${e.message})`)
  })
  const claudeCmd = await a.locator('[data-test="snippet-claude"] pre').textContent()
  expect(claudeCmd.startsWith('claude mcp add engram -- ') && claudeCmd.endsWith(' mcp --agent claude-code'), `Claude Code command: ${claudeCmd}`)
  await a.click('[data-test="integrations-tabs"] >> text=Codex')
  const codexToml = await a.locator('[data-test="snippet-codex"] pre').textContent()
  expect(codexToml.startsWith('notify = ["/') && codexToml.includes('", "hook", "codex"]') && codexToml.includes('args = ["mcp", "--agent", "codex"]'),
    `Codex config: ${codexToml}`)
  await a.click('[data-test="integrations-tabs"] >> text=Claude Code')
  await mcpSession(home, 'e2e-agent')
  await a.locator('[data-test="agents"] [data-agent="e2e-agent"]', { hasText: 'memory_list' }).waitFor({ timeout: LONG })
  await a.locator('[data-test="settings-integrations"]').scrollIntoViewIfNeeded()
  await shot(a, '07b-settings-integrations')
  await closeDrawer(a)

  // ---- 6. a new token from the CLI, then a restart on the same port: every browser that held
  //         the old one is refused and logs in again with the new link
  begin('server restart with a new token')
  raw.close()
  await server.stop()
  log('server stopped')
  await a.locator('[data-test="offline"]').waitFor({ timeout: LONG })
  await noToasts(a)
  expect((await a.locator('[data-test="offline"]').count()) === 1, 'still reconnecting while the server is down')
  await shot(a, '08-reconnecting')
  const regenOut = cli(CLI, home, ['bridge', 'token', '--regenerate'])
  const oldToken = srv.token
  srv = await server.start(`127.0.0.1:${srv.port}`)
  log(`server restarted on ${srv.origin}`)
  expect(srv.token !== oldToken && regenOut.includes(srv.token), 'the restarted server uses the regenerated token')
  begin('first browser: old token refused, the new link logs in')
  await a.locator('[data-test="login-rejected"]').waitFor({ timeout: LONG })
  expect((await storedToken(a)) === null, 'A forgot the refused token')
  await login(a, srv.url)
  await a.locator('.list-pane .item').first().waitFor({ timeout: LONG })
  expect((await storedToken(a)) === srv.token, 'A keeps the new token')
  const raw2 = await RpcClient.open(wsUrl(srv.token))
  await raw2.call('memory.write', { scope: 'global', type: 'user', slug: 'after-restart', title: 'Written after the restart', body: 'The page reconnected by itself.' })
  await item(a, 'Written after the restart').waitFor({ timeout: LONG })
  await shot(a, '09-reconnected')
  begin('second browser: old token rejected after the restart')
  await b.locator('[data-test="login-rejected"]').waitFor({ timeout: LONG })
  expect((await storedToken(b)) === null, 'B forgot the refused token')
  await shot(b, '10-b-token-rejected')

  // ---- 6b. extraction: a turn sent over the bridge is gated, recorded and listed in Activity,
  // the list following extraction.status events
  begin('extraction runs in Activity')
  const greet = await raw2.call('extraction.request', { session_id: 'e2e-session', agent: 'claude-code', wait: true, messages: [{ role: 'user', content: 'Hi there!' }] })
  expect(greet.status === 'skipped' && greet.reason === 'greeting' && greet.reason_text === 'The last message is a greeting.', `a greeting is skipped, translated: ${JSON.stringify(greet)}`)
  await a.locator('[data-test="nav-activity"]').click()
  await a.locator('[data-test="activity-tab-extraction"]').click()
  await a.locator('[data-test="extraction-runs"][data-state="ready"] [data-test="extraction-run"][data-status="skipped"]').waitFor({ timeout: LONG })
  const turn = await raw2.call('extraction.request', { session_id: 'e2e-session', agent: 'claude-code', messages: [{ role: 'user', content: 'Remember that I deploy the billing service on Fridays only.' }] })
  expect(turn.status !== 'skipped' && !!turn.id, `a turn passes the gates and runs in the background: ${turn.status}`)
  await a.locator(`[data-test="extraction-run"][data-run="${turn.id}"]:not([data-status="running"]):not([data-status="queued"])`).waitFor({ timeout: LONG })
  const ended = await raw2.call('extraction.run', { id: turn.id })
  expect(['done', 'partial', 'noop'].includes(ended.status) && (ended.status !== 'noop' || !!ended.reason_text), `the run ended with its reason: ${ended.status} ${ended.reason}`)
  await shot(a, '09b-extraction-runs')
  // ---- 6b. a language model on this computer (a loopback OpenAI-compatible server)
  begin('LLM: set up a local model and test the connection')
  const model = await startOpenAI('pong')
  await a.locator('[data-test="open-settings"]').click()
  await a.locator('[data-test="llm-settings"][data-state="off"]').waitFor({ timeout: LONG })
  await a.locator('[data-test="llm-provider"]').click()
  await a.locator('.n-base-select-option', { hasText: 'OpenAI-compatible' }).click()
  await a.locator('[data-test="llm-base-url"] input').fill(model.url)
  await a.locator('[data-test="llm-model"] input').fill('llama3.1:8b')
  await a.locator('[data-test="llm-streaming"]').click()
  await a.locator('[data-test="llm-save"]').click()
  await a.locator('[data-test="llm-settings"][data-state="ready"] [data-test="llm-key-state"][data-key="local"]').waitFor({ timeout: LONG })
  // Over the bridge no key can be set: the field is replaced by where to set one.
  await a.locator('[data-test="llm-key-desktop-only"]').waitFor({ timeout: LONG })
  await a.locator('[data-test="llm-test-run"]').click()
  await a.locator('[data-test="llm-test"][data-state="ok"] [data-test="llm-test-result"]', { hasText: 'llama3.1:8b' }).waitFor({ timeout: LONG })
  expect(model.requests.length === 1 && model.requests[0].body.stream === true, 'one streamed call reached the model')
  expect(!model.requests[0].headers.authorization, 'no credential sent to a keyless local model')
  await noToasts(a)
  await a.locator('[data-test="llm-test-result"]').scrollIntoViewIfNeeded()
  await shot(a, 'llm-settings')
  await closeDrawer(a)
  begin('LLM: the call shows in Usage and in engram usage')
  await a.locator('[data-test="nav-usage"]').click()
  await a.locator('[data-test="usage-view"][data-state="ready"] [data-test="usage-chart"] svg').waitFor({ timeout: LONG })
  await a.locator('[data-test="usage-calls"]', { hasText: '1' }).waitFor({ timeout: LONG })
  await shot(a, 'usage')
  const usage = JSON.parse(cli(CLI, home, ['usage', '--json', '--days', '7']))
  expect(usage.total.calls === 1 && usage.by_purpose[0].key === 'test_connection' && usage.total.input_tokens === 14, `engram usage counts the call: ${JSON.stringify(usage.total)}`)
  await a.locator('[data-test="nav-memories"]').click()
  // ---- 6c. embeddings switched to the same loopback server: every memory re-embedded
  begin('Embeddings: switch to an OpenAI-compatible endpoint, re-embedded in the background')
  await a.locator('[data-test="open-settings"]').click()
  const emb = a.locator('[data-test="embedding-settings"]')
  await a.locator('[data-test="embedding-settings"][data-state="on"] [data-test="embeddings-progress"][data-state="done"]').waitFor({ timeout: LONG })
  await a.locator('[data-test="settings-embeddings"]').scrollIntoViewIfNeeded()
  await emb.locator('[data-test="embeddings-provider"]').click()
  await a.locator('.n-base-select-option', { hasText: 'OpenAI-compatible' }).last().click()
  await emb.locator('[data-test="embeddings-base-url"] input').fill(model.url)
  await emb.locator('[data-test="embeddings-model"] input').fill('nomic-embed-text')
  await emb.locator('[data-test="embeddings-save"]').click()
  await a.locator('[data-test="embeddings-progress"][data-state="done"]', { hasText: 'openai:nomic-embed-text' }).waitFor({ timeout: LONG })
  const embStatus = await raw2.call('recall.embedStatus', {})
  expect(embStatus.provider === 'openai' && embStatus.model === 'openai:nomic-embed-text' && embStatus.progress.total > 0 && embStatus.progress.done === embStatus.progress.total,
    `every memory embedded by the new model: ${JSON.stringify(embStatus.progress)}`)
  const embedded = model.requests.filter((r) => r.path === '/v1/embeddings').reduce((n, r) => n + [].concat(r.body.input).length, 0)
  expect(embedded >= embStatus.progress.total, `the endpoint embedded ${embedded} texts for ${embStatus.progress.total} memories`)
  await emb.locator('[data-test="embeddings-key-desktop-only"]').waitFor({ timeout: LONG })
  await emb.locator('[data-test="embeddings-test-run"]').click()
  await a.locator('[data-test="embeddings-test"][data-state="ok"] [data-test="embeddings-test-result"]', { hasText: '32-dimension' }).waitFor({ timeout: LONG })
  const found = await raw2.call('memory.search', { query: SEED[0].title })
  expect(found.hits.length > 0, `search answers after the switch: ${found.hits.length} hits`)
  await noToasts(a)
  await a.locator('[data-test="embeddings-test-result"]').scrollIntoViewIfNeeded()
  await shot(a, 'embeddings-settings')
  // Back to the built-in embedder for the steps that follow.
  await raw2.call('settings.update', { embeddings: { provider: 'local' } })
  await a.locator('[data-test="embeddings-progress"][data-state="done"]', { hasText: 'local' }).waitFor({ timeout: LONG })
  await closeDrawer(a)
  await model.close()

  // ---- 7. Chinese UI
  begin('Chinese UI')
  await a.locator('[data-test="open-settings"]').click()
  await a.locator('[data-test="language"] >> text=中文').click()
  await a.locator('[data-test="nav-memories"]', { hasText: '记忆' }).waitFor({ timeout: LONG })
  await a.locator('[data-test="settings-remote"] h4', { hasText: '远程访问' }).waitFor({ timeout: LONG })
  await a.locator('[data-test="remote-state"]', { hasText: '运行于' }).waitFor({ timeout: LONG })
  await until(async () => (await a.locator('[data-test="remote-clients"] .client').count()) >= 2, 'clients after the restart')
  await noToasts(a)
  await shot(a, '11-zh-settings')
  const ctxC = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' })
  const c = (pages.c = await newPage(ctxC, 'C', problems))
  await c.goto(`${srv.origin}/`)
  await c.locator('[data-test="login"] h1', { hasText: '连接到 Engram' }).waitFor({ timeout: LONG })
  await login(c, 'not-the-token')
  await c.locator('[data-test="login-rejected"]', { hasText: '令牌被拒绝' }).waitFor({ timeout: LONG })
  await shot(c, '12-zh-login-rejected')

  // ---- 8. log out from Settings
  begin('log out')
  await a.locator('[data-test="logout"]').click()
  await confirmDialog(a)
  await a.locator('[data-test="login"][data-state="ask"]').waitFor({ timeout: LONG })
  expect((await storedToken(a)) === null, 'log out forgets the token')
  await a.reload()
  await a.locator('[data-test="login"][data-state="ask"]').waitFor({ timeout: LONG })
  await shot(a, '13-logged-out')

  begin('stop')
  await server.stop()
}

let failed = false
let threw = false
try {
  await main()
} catch (e) {
  failed = threw = true
  console.error(`e2e: FAIL at "${step}": ${e.stack || e}`)
  for (const [name, page] of Object.entries(pages)) {
    try {
      await shot(page, `fail-${name}`)
    } catch {
      /* page gone */
    }
  }
} finally {
  await cleanup()
}
if (problems.length) {
  failed = true
  console.error('e2e: errors in the pages:\n  ' + problems.join('\n  '))
}
log(failed ? 'FAILED' : 'all scenarios passed')
// A step that threw failed and the ones before it passed; errors logged by the pages fail one
// more check of their own.
const stepsPassed = Math.max(0, threw ? stepsBegun - 1 : stepsBegun)
reportSuite('e2e', stepsPassed, STEPS - stepsPassed + (problems.length ? 1 : 0))
process.exit(failed ? 1 : 0)
