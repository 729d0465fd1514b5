// End-to-end for the shell against the real `engram-cli serve` on a temporary home:
// a token link pasted into the address bar of the open login page logs in without a reload;
// keyboard only (/ type, Esc, j, Enter, e); a list of many memories scrolls (windowed) and
// keeps its query and selection across a memory.changed from another client; [[links]]
// rendered by the Go wikilink extension open their memory. Started through run.mjs.
import fs from 'node:fs'
import path from 'node:path'
import { reportSuite } from '../report.mjs'
import { LONG, ROOT, RpcClient, Server, cleanup, cli, launchBrowser, newPage, tempDir, until } from './lib.mjs'

const CLI = process.env.ENGRAM_CLI ? path.resolve(process.env.ENGRAM_CLI) : path.join(ROOT, 'build/bin/engram-cli')
const SHOTS = process.argv[2] ? path.resolve(process.argv[2]) : path.join(ROOT, 'build/shots')
fs.mkdirSync(SHOTS, { recursive: true })
if (!fs.existsSync(CLI)) {
  console.error(`e2e-shell: ${CLI} is missing; run make cli`)
  process.exit(2)
}

const problems = []
let passed = 0
let failed = 0
async function step(name, fn) {
  try {
    await fn()
    passed++
    console.log(`e2e-shell: ok   ${name}`)
  } catch (e) {
    failed++
    console.error(`e2e-shell: FAIL ${name}: ${e.stack || e}`)
    throw Object.assign(e, { __step: true })
  }
}
const expect = (cond, msg) => {
  if (!cond) throw new Error(`expectation failed: ${msg}`)
}
const shot = (page, name) => page.screenshot({ path: path.join(SHOTS, `e2e-shell-${name}.png`), animations: 'disabled' })

const MANY = 1200

async function main() {
  const home = tempDir('engram-e2e-shell-')
  const rows = [
    { slug: 'linked-notes', title: 'Notes with links', scope: 'global', type: 'reference', body: 'Answers follow [[answer-style|the answer style]]; hosting by [[Acme Cloud]]. Code: `[[not a link]]`.', reviewed: true },
    { slug: 'answer-style', title: 'Answer style', scope: 'global', type: 'feedback', body: 'Lead with code, then a short explanation.', reviewed: true },
  ]
  // A scope holds 500 memories: the bulk rows go to agent scopes, 400 each (the list shows all).
  for (let i = 0; i < MANY; i++) rows.push({ slug: `bulk-${i}`, title: `Bulk memory ${i}`, scope: 'agent', agent: `bulk-${Math.floor(i / 400)}`, type: 'reference', body: `Bulk row ${i} about zebra${i % 7}.`, reviewed: true })
  cli(CLI, home, ['import', '-'], rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
  const server = new Server(CLI, home, { ENGRAM_LANG: 'en', LANG: 'C.UTF-8' })
  const srv = await server.start('127.0.0.1:0')
  const raw = await RpcClient.open(`ws://127.0.0.1:${srv.port}/ws?token=${encodeURIComponent(srv.token)}`)

  const browser = await launchBrowser()
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' })
  const page = await newPage(ctx, 'shell', problems)

  await step('a token link pasted over the open login page logs in without a reload', async () => {
    await page.goto(srv.origin + '/')
    await page.locator('[data-test="login"][data-state="ask"]').waitFor({ timeout: LONG })
    await page.evaluate(() => (window.__noReload = true))
    await page.goto(srv.url) // same document, only the hash changes
    await page.locator('.list-pane[data-state="ready"]').waitFor({ timeout: LONG })
    expect(await page.evaluate(() => window.__noReload === true), 'the page was not reloaded')
    expect((await page.evaluate(() => localStorage.getItem('engram.token'))) === srv.token, 'token kept')
    expect(!(await page.evaluate(() => location.hash.includes('token'))), 'token taken out of the address bar')
  })

  await step('keyboard only: / type, Esc, j, Enter, e', async () => {
    await page.locator('body').press('/')
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-test="search"]')), '/ focuses the search')
    await page.keyboard.type('answer style')
    await page.locator('.list-pane[data-state="ready"][data-query="answer style"]').waitFor({ timeout: LONG })
    // The navigation counts the store, not the matches, and keeps counting while a search narrows the list.
    const count = await page.locator('[data-test="nav-memories-count"]').textContent()
    expect(Number(count?.replace(/\D/g, '')) === MANY + 2, `navigation count while searching: ${count}`)
    await page.keyboard.press('Escape')
    await page.keyboard.press('j')
    await page.keyboard.press('Enter')
    await page.locator('[data-test="reader-title"]').waitFor({ timeout: LONG })
    await page.keyboard.press('e')
    await page.locator('.memory-form-modal .memory-form').waitFor({ timeout: LONG })
    await shot(page, 'keyboard-edit')
    await page.keyboard.press('Escape')
    await page.locator('.memory-form-modal .memory-form').waitFor({ state: 'detached', timeout: LONG })
  })

  await step('[[links]] from the Go renderer: a memory link opens it, code stays literal', async () => {
    const { items } = await raw.call('memory.list', { limit: 5 })
    const linked = (await raw.call('memory.read', { slug: 'linked-notes', scope: 'global' })).memory
    expect(linked && items, 'read the linked memory')
    await page.evaluate(() => document.querySelector('[data-test="search"] input')?.focus())
    await page.keyboard.press('Control+A')
    await page.keyboard.type('Notes with links')
    await page.locator('.list-pane[data-state="ready"][data-query="Notes with links"]').waitFor({ timeout: LONG })
    await page.locator(`.item[data-id="${linked.id}"]`).click()
    await page.locator('.markdown-body a.wikilink-memory[data-wikilink="answer-style"]').waitFor({ timeout: LONG })
    await page.locator('.markdown-body a.wikilink-entity[data-entity="Acme Cloud"]').waitFor({ timeout: LONG })
    expect((await page.locator('.markdown-body code').first().textContent()) === '[[not a link]]', 'code span literal')
    await shot(page, 'links')
    await page.locator('.markdown-body a.wikilink-memory').click()
    await page.locator('[data-test="reader-title"]', { hasText: 'Answer style' }).waitFor({ timeout: LONG })
  })

  await step('Back after following a [[link]] or switching views returns to where it was, inside the app', async () => {
    const linked = (await raw.call('memory.read', { slug: 'linked-notes', scope: 'global' })).memory
    const origin = new URL(page.url()).origin
    await page.goBack()
    await page.locator('[data-test="reader-title"]', { hasText: linked.title }).waitFor({ timeout: LONG })
    expect(new URL(page.url()).origin === origin, `Back stayed in the app (at ${page.url()})`)
    await page.goForward()
    await page.locator('[data-test="reader-title"]', { hasText: 'Answer style' }).waitFor({ timeout: LONG })
    await page.click('[data-test="nav-activity"]')
    await page.locator('[data-test="activity-view"]').waitFor({ timeout: LONG })
    await page.goBack()
    await page.locator('[data-test="nav-memories"].active').waitFor({ timeout: LONG })
    await page.locator('[data-test="reader-title"]', { hasText: 'Answer style' }).waitFor({ timeout: LONG })
    // Moving through the list is not a step of its own: one Back from here goes past it.
    const { items } = await raw.call('memory.list', { limit: 5 })
    const other = items.find((m) => m.id !== linked.id && m.slug !== 'answer-style')
    await page.evaluate(() => document.querySelector('[data-test="search"] input')?.focus())
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Backspace')
    await page.locator(`.item[data-id="${other.id}"]`).click()
    await page.locator('[data-test="reader-title"]', { hasText: other.title }).waitFor({ timeout: LONG })
    await page.goBack()
    await page.locator('[data-test="reader-title"]', { hasText: linked.title }).waitFor({ timeout: LONG })
    expect(new URL(page.url()).origin === origin, 'still in the app')
  })

  await step('a long list scrolls windowed; query and selection survive a memory.changed from another client', async () => {
    await page.evaluate(() => document.querySelector('[data-test="search"] input')?.focus())
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Backspace')
    await page.locator('.list-pane[data-state="ready"][data-query=""]').waitFor({ timeout: LONG })
    const scroller = page.locator('[data-test="list-scroll"]')
    for (let i = 0; i < 30; i++) {
      const n = Number(await scroller.getAttribute('data-rows'))
      if (n >= 600) break
      await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight))
      await until(async () => (await page.locator('.list-pane').getAttribute('data-state')) === 'ready', 'list ready')
    }
    const loaded = Number(await scroller.getAttribute('data-rows'))
    expect(loaded >= 600, `pages load while scrolling (${loaded})`)
    const inDom = await page.locator('.list-pane .item').count()
    expect(inDom < 80, `only a window of rows in the page (${inDom} of ${loaded})`)
    // Pick a row deep in the list with the keyboard, then type a query without waiting.
    await page.locator('.list-pane .item').nth(3).click()
    const selected = await page.locator('.list-pane .item.selected').getAttribute('data-id')
    await page.locator('[data-test="reader-title"]').waitFor({ timeout: LONG })
    await page.evaluate(() => document.querySelector('[data-test="search"] input')?.focus())
    await page.keyboard.type('zebra3')
    // Another client changes a memory while the person is searching.
    const other = (await raw.call('memory.read', { slug: 'bulk-3', scope: 'agent', agent: 'bulk-0' })).memory
    await raw.call('memory.update', { id: other.id, body: 'Bulk row 3 about zebra3, edited elsewhere.' })
    await page.locator('.list-pane[data-state="ready"][data-query="zebra3"]').waitFor({ timeout: LONG })
    await page.locator('.markdown-body').waitFor({ timeout: LONG })
    await until(async () => (await page.locator('[data-test="search"] input').inputValue()) === 'zebra3', 'the typed query is kept')
    expect((await page.locator('[data-test="search"] input').inputValue()) === 'zebra3', 'query kept')
    expect((await page.locator('article.doc').getAttribute('data-id')) === selected, 'the reader still shows the selection')
    await shot(page, 'long-list')
  })

  await step('an edit saved after another client deleted the memory says so and brings nothing back; Activity restores it', async () => {
    const m = (await raw.call('memory.read', { slug: 'answer-style', scope: 'global' })).memory
    await page.evaluate(() => document.querySelector('[data-test="search"] input')?.focus())
    await page.keyboard.press('Control+A')
    await page.keyboard.type('Answer style')
    await page.locator('.list-pane[data-state="ready"][data-query="Answer style"]').waitFor({ timeout: LONG })
    await page.locator(`.item[data-id="${m.id}"]`).click()
    await page.locator('[data-test="reader-title"]', { hasText: 'Answer style' }).waitFor({ timeout: LONG })
    await page.locator('body').press('e')
    await page.locator('.memory-form-modal .memory-form').waitFor({ timeout: LONG })
    await raw.call('memory.applyBatch', { items: [{ op: 'delete', id: m.id }] })
    await page.locator('[data-test="reader-title"]').waitFor({ state: 'detached', timeout: LONG })
    await page.locator('.n-message', { hasText: 'was deleted elsewhere' }).waitFor({ timeout: LONG })
    await page.locator('.memory-form textarea').first().fill('Lead with code, then one sentence.')
    await page.locator('.memory-form-modal .n-button--primary-type').last().click()
    await page.locator('[data-test="form-error"]', { hasText: 'deleted elsewhere' }).waitFor({ timeout: LONG })
    const { items } = await raw.call('memory.list', { scope: 'global', limit: 50 })
    expect(!items.some((x) => x.slug === 'answer-style' || x.title === 'Answer style'), 'the deleted memory was not written again')
    await shot(page, 'edit-deleted')
    await page.keyboard.press('Escape')
    await page.locator('.memory-form-modal').waitFor({ state: 'detached', timeout: LONG })
    await page.locator('[data-test="nav-activity"]').click()
    await page.locator(`[data-test="activity-row"][data-op="delete"]`, { hasText: 'Answer style' }).first().click()
    await page.locator('.n-dialog .n-dialog__action .n-button', { hasText: 'Restore' }).click()
    await page.locator('[data-test="reader-title"]', { hasText: 'Answer style' }).waitFor({ timeout: LONG })
    expect((await raw.call('memory.read', { id: m.id })).memory?.id === m.id, 'restored under its own id')
  })

  await step('at 360 px a view chosen from the menu with the keyboard takes the focus, and Tab goes on inside it', async () => {
    await page.setViewportSize({ width: 360, height: 740 })
    await page.locator('[data-test="nav-menu"]').focus()
    await page.keyboard.press('Enter')
    await page.locator('.shell.nav-open .sider').waitFor({ timeout: LONG })
    await page.locator('[data-test="nav-journal"]').focus()
    await page.keyboard.press('Enter')
    await page.locator('[data-test="journal-view"]').waitFor({ timeout: LONG })
    await page.waitForFunction(() => !document.querySelector('.shell.nav-open'))
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-test') === 'main')
    await page.keyboard.press('Tab')
    const where = await page.evaluate(() => (document.activeElement?.closest('[data-test="main"]') ? document.activeElement.tagName : `outside: ${document.activeElement?.outerHTML.slice(0, 80)}`))
    expect(where !== 'MAIN' && !where.startsWith('outside'), `Tab after choosing a view from the menu goes into the view: ${where}`)
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  await step('at 360 px a memory opened with Enter puts the focus on the way back, and Escape goes back to its row', async () => {
    await page.setViewportSize({ width: 360, height: 740 })
    await page.evaluate(() => document.activeElement?.blur()) // the step before left it in the Journal's box
    await page.keyboard.press('g')
    await page.keyboard.press('m')
    // The memory an earlier step opened takes the list's place at this width.
    if (await page.locator('[data-test="reader-back"]').isVisible()) await page.locator('[data-test="reader-back"]').click()
    await page.locator('.list-pane[data-state="ready"] .item').first().waitFor({ timeout: LONG })
    await page.locator('[data-test="main"]').focus()
    await page.keyboard.press('j')
    const id = await page.evaluate(() => document.querySelector('.list-pane .item.cursor, .list-pane .item[aria-current="true"], .list-pane .item[data-cursor="true"]')?.getAttribute('data-id') ?? '')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-test') === 'reader-back', null, { timeout: LONG })
    await page.keyboard.press('Escape')
    await page.locator('.list-pane .item').first().waitFor({ state: 'visible', timeout: LONG })
    await page.waitForFunction((want) => {
      const el = document.activeElement
      return !!el?.closest('.list-pane .item') && (!want || el.closest('.item')?.getAttribute('data-id') === want)
    }, id, { timeout: LONG })
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  raw.close()
  await server.stop()
}

try {
  await main()
} catch (e) {
  // A failed step already counted itself; anything else (seeding, the server) fails here.
  if (!e.__step) {
    failed++
    console.error(`e2e-shell: FAIL setup: ${e.stack || e}`)
  }
} finally {
  await cleanup()
}
if (problems.length) {
  failed++
  console.error('e2e-shell: errors in the page:\n  ' + problems.join('\n  '))
}
reportSuite('e2e-shell', passed, failed)
process.exit(failed ? 1 : 0)
