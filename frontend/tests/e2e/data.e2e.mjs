// End-to-end: Settings → Data and Storage and the quota banner's button against the real
// `engram-cli serve` on a temporary home, in headless Chromium. Export downloads a JSONL file;
// an import is previewed (counts, conflicts) and then applied; reindex shows its progress and
// ends with its findings; the banner's button starts an organizer run for the full scope.
// Waits on data-state attributes, never on delays.
//   make cli && ENGRAM_CLI=build/bin/engram-cli E2E_SCRIPT=frontend/tests/e2e/data.e2e.mjs node frontend/tests/e2e/run.mjs build/shots
import fs from 'node:fs'
import path from 'node:path'
import { LONG, RpcClient, Server, cli, launchBrowser, newPage, suite, tempDir, until } from './lib.mjs'

const s = suite('e2e-data', import.meta.url)
const { CLI, problems, log, expect, shot, check } = s
let page

const rec = (slug, extra = {}) => JSON.stringify({ slug, title: `Title of ${slug}`, scope: 'global', type: 'user', body: `Body of ${slug}`, ...extra })

async function main() {
  const home = tempDir('engram-e2e-data-')
  const project = tempDir('engram-e2e-proj-')
  // 401 memories in one project: headroom 99, so the quota banner shows (notice).
  const seed = [rec('kept-as-is'), rec('will-conflict')]
  for (let i = 0; i < 401; i++) seed.push(rec(`proj-note-${String(i).padStart(3, '0')}`, { scope: 'project', workdir: project, type: 'project' }))
  const seedFile = path.join(home, 'seed.jsonl')
  fs.writeFileSync(seedFile, seed.join('\n') + '\n')
  cli(CLI, home, ['import', seedFile])
  log('seeded 403 memories')

  const srv = new Server(CLI, home)
  const info = await srv.start()
  const rpc = await RpcClient.open(`ws://127.0.0.1:${info.port}/ws?token=${encodeURIComponent(info.token)}`)
  const browser = await launchBrowser()
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', acceptDownloads: true })
  page = s.page = await newPage(ctx, 'data', problems)
  await page.goto(info.url)
  await page.locator('.list-pane[data-state="ready"]').waitFor({ timeout: LONG })

  await check('the quota banner offers to organize the full scope, and its button starts a run', async () => {
    const btn = page.locator('[data-test="quota-banner"] [data-test="quota-organize"]').first()
    await btn.waitFor({ timeout: LONG })
    expect((await btn.getAttribute('data-scope'))?.startsWith('project:'), 'the button names the project scope')
    await shot('banner')
    const before = (await rpc.call('organizer.runs', { limit: 50 })).runs.length
    await btn.click()
    // The run is opened in the Organizer view.
    await page.locator('[data-test="run-detail"]').waitFor({ timeout: LONG })
    const runs = await until(async () => {
      const r = (await rpc.call('organizer.runs', { limit: 50 })).runs
      return r.length > before ? r : null
    }, 'a new organizer run')
    const detail = await until(async () => {
      const d = await rpc.call('organizer.run', { id: runs[0].id })
      return d.status === 'done' ? d : null
    }, 'the scoped run to finish')
    expect(detail.report?.scope_filter?.scope === 'project', `the run is limited to the project: ${JSON.stringify(detail.report?.scope_filter)}`)
    expect(detail.report.scopes.length === 1 && detail.report.counts.scanned === 401, `scanned only the project: ${detail.report.counts.scanned}`)
    await shot('banner-run')
    await page.locator('[data-test="nav-memories"]').click()
    await page.locator('.list-pane[data-state="ready"]').waitFor({ timeout: LONG })
  })

  await page.locator('[data-test="open-settings"]').click()
  await page.locator('[data-test="settings-data"]').scrollIntoViewIfNeeded()

  await check('Storage shows every scope and the size over time', async () => {
    await page.locator('[data-test="storage"][data-state="ready"][data-drawn="yes"]').waitFor({ timeout: LONG })
    const rows = await page.locator('[data-test="storage-table"] tbody tr').count()
    expect(rows === 2, `two scopes listed, got ${rows}`)
    const proj = await page.locator('[data-test="storage-table"] tr[data-level="notice"]').textContent()
    expect(proj.includes('401') && proj.includes('500') && proj.includes(path.basename(project)), `project row: ${proj}`)
    const full = await page.locator('[data-test="storage-table"] tr[data-level="notice"] [title]').first().getAttribute('title')
    expect(full === project || (full ?? '').includes(project), `the full folder on hover: ${full}`)
    await page.locator('[data-test="storage-history-chart"] svg').waitFor({ timeout: LONG })
    expect(/403 memories/.test(await page.locator('[data-test="storage-now"]').textContent()), 'today’s sample counts the memories')
  })

  await check('over the bridge the folder is shown with a copy button, not a dead open button', async () => {
    expect((await page.locator('[data-test="data-home"]').textContent()).trim() === home, 'the home path')
    expect((await page.locator('[data-test="data-open-folder"]').count()) === 0, 'no open-folder button over the bridge')
    await page.locator('[data-test="data-copy-home"]').waitFor({ timeout: LONG })
  })

  await check('export downloads a JSONL file of every memory', async () => {
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: LONG }), page.locator('[data-test="data-export"]').click()])
    expect(/^engram-export-\d{4}-\d{2}-\d{2}\.jsonl$/.test(dl.suggestedFilename()), `file name ${dl.suggestedFilename()}`)
    const file = path.join(tempDir('engram-e2e-dl-'), dl.suggestedFilename())
    await dl.saveAs(file)
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n')
    expect(lines.length === 403 && lines.every((l) => JSON.parse(l).slug), `exported ${lines.length} lines`)
    await page.locator('[data-test="data-export"][data-state="done"]').waitFor({ timeout: LONG })
  })

  await check('an import is previewed with its counts and conflicts, then applied', async () => {
    const file = path.join(tempDir('engram-e2e-imp-'), 'incoming.jsonl')
    fs.writeFileSync(
      file,
      [rec('kept-as-is'), rec('will-conflict', { body: 'a different body' }), rec('fresh-one'), rec('fresh-two'), '{"slug": broken'].join('\n') + '\n',
    )
    const before = (await rpc.call('quota.summary')).scopes.find((s) => s.scope === 'global').used
    await page.locator('[data-test="data-import-file"]').setInputFiles(file)
    await page.locator('[data-test="import-preview"][data-state="preview"]').waitFor({ timeout: LONG })
    const count = async (k) => Number((await page.locator(`[data-test="count-${k}"]`).textContent()).replace(/\D/g, ''))
    expect((await count('new')) === 2 && (await count('duplicates')) === 1 && (await count('conflicts')) === 1 && (await count('invalid')) === 1, 'preview counts')
    expect((await page.locator('[data-test="import-conflicts"]').textContent()).includes('will-conflict'), 'the conflict is named')
    expect((await rpc.call('quota.summary')).scopes.find((s) => s.scope === 'global').used === before, 'the preview applied nothing')
    await page.locator('[data-test="import-preview"]').scrollIntoViewIfNeeded()
    await shot('import-preview')
    await page.locator('[data-test="import-apply"]').click()
    await page.locator('[data-test="import-preview"][data-state="done"] [data-test="import-result"]').waitFor({ timeout: LONG })
    expect((await rpc.call('quota.summary')).scopes.find((s) => s.scope === 'global').used === before + 2, 'two memories imported')
    // The result counts as the preview did: the present and the conflicting line are here
    // already (kept as they were), the broken line alone is refused.
    const said = await page.locator('[data-test="import-result"]').textContent()
    expect(said.includes('1 line refused') && said.includes('2 already here'), `the result says what the preview said: ${said}`)
    const kept = await rpc.call('memory.read', { scope: 'global', slug: 'will-conflict' })
    expect(kept.memory.body === 'Body of will-conflict', 'the conflicting memory was kept as it was')
  })

  await check('reindex shows its progress and ends with what it found', async () => {
    await page.locator('[data-test="data-reindex"]').click()
    await page.locator('[data-test="maint"][data-op="reindex"]').waitFor({ timeout: LONG })
    await page.locator('[data-test="maint"][data-op="reindex"][data-state="done"] [data-test="maint-result"]').waitFor({ timeout: LONG })
    const text = await page.locator('[data-test="maint-result"]').textContent()
    expect(/Reindexed \d+ files: 405 new in the index, \d+ with a problem/.test(text), `reindex result: ${text}`)
    // The events themselves (the bar follows them): a raw client saw them too.
    await rpc.waitEvent((e) => e.name === 'index.progress' && e.data?.op === 'reindex' && e.data?.phase === 'done', 'index.progress done')
    expect(rpc.events.some((e) => e.name === 'index.progress' && e.data?.phase === 'index' && e.data?.total > 0), 'index progress with a total')
    await shot('reindex-done')
  })

  await check('doctor lists its findings', async () => {
    // A header that is not YAML (plain Markdown without a header is a note Engram indexes).
    fs.writeFileSync(path.join(home, 'memory', 'global', 'user', 'hand-broken.md'), '---\nid: [broken\n---\nbody\n')
    await page.locator('[data-test="data-doctor"]').click()
    await page.locator('[data-test="maint"][data-op="doctor"][data-state="done"] [data-test="maint-findings"]').waitFor({ timeout: LONG })
    expect((await page.locator('[data-test="maint-findings"]').textContent()).includes('hand-broken.md'), 'the broken file is listed')
    await shot('doctor-findings')
  })
  await srv.stop()
}

await s.run(main)
