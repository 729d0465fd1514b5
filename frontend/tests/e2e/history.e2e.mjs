// End-to-end: git history against the real `engram-cli serve` on a temporary home, in headless
// Chromium. History is turned on with the CLI; an update through the bridge is a commit named
// "bridge"; a hand edit of the file is committed by the server's watcher as "hand"; the reader
// lists the versions with their diffs, and Restore (confirmed) writes the first version back as
// a new one, which the index serves. Waits on data-state attributes, never on delays.
//   make cli && ENGRAM_CLI=build/bin/engram-cli E2E_SCRIPT=frontend/tests/e2e/history.e2e.mjs node frontend/tests/e2e/run.mjs build/shots
import fs from 'node:fs'
import path from 'node:path'
import { LONG, RpcClient, Server, cli, launchBrowser, newPage, suite, tempDir, until } from './lib.mjs'

const s = suite('e2e-history', import.meta.url)
const { CLI, problems, log, expect, shot, check } = s
let page

async function main() {
  const home = tempDir('engram-e2e-history-')
  cli(CLI, home, ['write', '--scope', 'global', '--type', 'user', '--slug', 'tea-pref', '--title', 'Tea preference', '--body', 'Drinks green tea in the morning.', '--quote', 'green tea', '--confidence', 'medium'])
  const on = cli(CLI, home, ['history', 'enable'])
  expect(on.includes('Git history is on'), `enable said: ${on}`)
  const srv = new Server(CLI, home)
  const info = await srv.start()
  const rpc = await RpcClient.open(`ws://127.0.0.1:${info.port}/ws?token=${encodeURIComponent(info.token)}`)
  const id = (await rpc.call('memory.read', { slug: 'tea-pref', scope: 'global' })).memory.id

  await check('an update through the bridge and a hand edit are each a commit', async () => {
    await rpc.call('memory.update', { id, mode: 'replace', body: 'Drinks black tea in the morning.' })
    const file = path.join(home, 'memory', 'global', 'user', 'tea-pref.md')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Drinks black tea in the morning.', 'Drinks oolong tea in the morning.'))
    const vs = await until(async () => {
      const r = await rpc.call('history.versions', { id })
      return r.versions.length === 3 && r.versions[0].actor === 'hand' ? r.versions : null
    }, 'the hand edit committed by the watcher')
    expect(vs[1].actor === 'bridge' && vs[2].actor === 'user', `actors: ${vs.map((v) => v.actor)}`)
    expect(vs[0].diff.includes('+Drinks oolong tea') && vs[0].diff.includes('-Drinks black tea'), `diff: ${vs[0].diff}`)
  })

  const browser = await launchBrowser()
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
  page = s.page = await newPage(ctx, 'history', problems)
  await page.goto(info.url)
  await page.locator('.list-pane[data-state="ready"]').waitFor({ timeout: LONG })

  await check('the reader lists the versions with their diffs', async () => {
    await page.getByText('Tea preference').first().click()
    await page.locator('[data-test="memory-versions"][data-state="ready"] [data-test="version"][data-open="true"] [data-test="version-diff"]').waitFor({ timeout: LONG })
    expect((await page.locator('[data-test="version"]').count()) === 3, 'three versions')
    const diff = await page.locator('[data-test="version-diff"]').first().textContent()
    expect(diff.includes('+Drinks oolong tea'), `diff shown: ${diff}`)
    await page.locator('[data-test="memory-versions"]').scrollIntoViewIfNeeded()
    await shot(page, 'versions')
  })

  await check('restore writes the first version back as a new version', async () => {
    await page.locator('[data-test="version"]').last().locator('[data-test="version-restore"]').click()
    await page.locator('.n-dialog .n-button--warning-type').click()
    await page.waitForFunction(() => document.querySelectorAll('[data-test="version"]').length === 4, null, { timeout: LONG })
    const m = await rpc.call('memory.read', { id })
    expect(m.memory.body === 'Drinks green tea in the morning.', `body after restore: ${m.memory.body}`)
    const hits = (await rpc.call('memory.search', { query: 'green tea' })).hits
    expect(hits.length === 1 && hits[0].memory.slug === 'tea-pref', 'the index serves the restored words')
    const vs = (await rpc.call('history.versions', { id })).versions
    expect(vs[0].actor === 'bridge', `restore committed as ${vs[0].actor}`)
    await page.locator('[data-test="memory-versions"]').scrollIntoViewIfNeeded()
    await shot(page, 'restored')
  })
  await check('a deleted memory is listed in Settings → Data and restored from there', async () => {
    cli(CLI, home, ['write', '--scope', 'global', '--type', 'user', '--slug', 'old-editor', '--title', 'Used Emacs once', '--body', 'Switched from Emacs years ago.', '--quote', 'emacs', '--confidence', 'medium'])
    const gone = (await rpc.call('memory.read', { slug: 'old-editor', scope: 'global' })).memory.id
    await rpc.call('memory.delete', { id: gone })
    await until(async () => ((await rpc.call('history.deleted', {})).memories || []).some((d) => d.slug === 'old-editor') || null, 'the delete committed')
    await page.locator('[data-test="open-settings"]').click()
    await page.locator('[data-test="git-settings"][data-state="ready"][data-enabled="true"]').waitFor({ timeout: LONG })
    await page.locator('[data-test="git-deleted-show"]').click()
    const row = page.locator('[data-test="git-deleted-item"][data-path="global/user/old-editor.md"]')
    await row.waitFor({ timeout: LONG })
    expect((await row.textContent()).includes('Used Emacs once'), 'the row names the memory by its title')
    await row.scrollIntoViewIfNeeded()
    await shot(page, 'deleted')
    await row.locator('[data-test="git-deleted-restore"]').click()
    await page.locator('[data-test="git-deleted-item"][data-path="global/user/old-editor.md"][data-restored="true"]').waitFor({ timeout: LONG })
    const back = (await rpc.call('memory.search', { query: 'Emacs' })).hits.map((h) => h.memory.slug)
    expect(back.includes('old-editor'), `the restored memory is served: ${back}`)
  })
  await srv.stop()
}

await s.run(main)
