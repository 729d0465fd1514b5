// End-to-end: Settings → Data → Backup against the real `engram-cli serve` on a temporary
// home, in headless Chromium. A backup is written from the UI (its progress events seen by a
// raw client); a restore is previewed from the manifest and confirmed in place, the state
// before it backed up first; the same archive restored into a new home (the CLI, beside the
// running server) serves the same memories to a second server's UI; a hostile archive is
// refused with a translated message; cleanup previews then removes only the trash.
// Waits on data-state attributes, never on delays.
//   make cli && ENGRAM_CLI=build/bin/engram-cli E2E_SCRIPT=frontend/tests/e2e/backup.e2e.mjs node frontend/tests/e2e/run.mjs build/shots
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { LONG, RpcClient, Server, cli, launchBrowser, newPage, suite, tempDir, until } from './lib.mjs'

const s = suite('e2e-backup', import.meta.url)
const { CLI, problems, log, expect, shot, check } = s
let page

const rec = (slug, extra = {}) => JSON.stringify({ slug, title: `Title of ${slug}`, scope: 'global', type: 'user', body: `Body of ${slug} about lighthouses`, ...extra })

/** A gzip'd ustar archive of [name, body] entries (the hostile one names ../ paths). */
function tarGz(entries) {
  const blocks = []
  for (const [name, body] of entries) {
    const data = Buffer.from(body)
    const h = Buffer.alloc(512)
    h.write(name, 0, 100)
    h.write('0000600\0', 100)
    h.write('0000000\0', 108)
    h.write('0000000\0', 116)
    h.write(data.length.toString(8).padStart(11, '0') + '\0', 124)
    h.write('00000000000\0', 136)
    h.write('        ', 148)
    h.write('0', 156)
    h.write('ustar\0', 257)
    h.write('00', 263)
    let sum = 0
    for (const b of h) sum += b
    h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148)
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512))
  }
  blocks.push(Buffer.alloc(1024))
  return zlib.gzipSync(Buffer.concat(blocks))
}

async function openData(p) {
  await p.locator('[data-test="open-settings"]').click()
  await p.locator('[data-test="backup-settings"] [data-test="backup-list"], [data-test="backup-settings"] [data-test="backup-list-empty"]').first().waitFor({ timeout: LONG })
}

async function main() {
  const home = tempDir('engram-e2e-backup-')
  const seed = [rec('kept-one'), rec('kept-two'), rec('agent-note', { scope: 'agent', agent: 'claude-code', type: 'feedback' })]
  const seedFile = path.join(tempDir('engram-e2e-seed-'), 'seed.jsonl')
  fs.writeFileSync(seedFile, seed.join('\n') + '\n')
  cli(CLI, home, ['import', seedFile])
  cli(CLI, home, ['kv', 'set', 'editor', 'helix', '--agent', 'claude-code'])
  log('seeded 3 memories and one agent key')

  const srv = new Server(CLI, home)
  const info = await srv.start()
  const rpc = await RpcClient.open(`ws://127.0.0.1:${info.port}/ws?token=${encodeURIComponent(info.token)}`)
  const browser = await launchBrowser()
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
  page = s.page = await newPage(ctx, 'backup', problems)
  await page.goto(info.url)
  await page.locator('.list-pane[data-state="ready"]').waitFor({ timeout: LONG })
  let backupName = ''
  let backupPath = ''

  await check('back up now writes an archive, with progress, and lists it', async () => {
    await openData(page)
    await page.locator('[data-test="backup-list-empty"]').waitFor({ timeout: LONG })
    await page.locator('[data-test="backup-now"]').click()
    await page.locator('[data-test="backup-created"]').waitFor({ timeout: LONG })
    const text = await page.locator('[data-test="backup-created"]').textContent()
    expect(text.includes('3 memories') && text.includes('1 agent key files'), `created: ${text}`)
    await rpc.waitEvent((e) => e.name === 'index.progress' && e.data?.op === 'backup' && e.data?.phase === 'done', 'backup progress done')
    expect(rpc.events.some((e) => e.name === 'index.progress' && e.data?.op === 'backup' && e.data?.phase === 'files' && e.data?.total > 0), 'file progress with a total')
    await page.locator('[data-test="backup-list"] li').first().waitFor({ timeout: LONG })
    backupName = await page.locator('[data-test="backup-list"] li').first().getAttribute('data-name')
    backupPath = path.join(home, 'backups', backupName)
    expect(fs.existsSync(backupPath), `${backupPath} exists`)
    await page.locator('[data-test="backup-created"]').scrollIntoViewIfNeeded()
    await shot(page, 'created')
  })

  await check('a restore is previewed from its manifest, then confirmed in place after a backup of the current state', async () => {
    await rpc.call('memory.write', { scope: 'global', type: 'user', slug: 'written-later', title: 'Written later', body: 'after the backup about lighthouses', confidence: 'low' })
    await page.locator(`[data-test="backup-list"] li[data-name="${backupName}"] [data-test="backup-restore-pick"]`).click()
    await page.locator('[data-test="backup-restore"][data-state="preview"] [data-test="backup-manifest"]').waitFor({ timeout: LONG })
    expect((await page.locator('[data-test="manifest-memories"]').textContent()).trim() === '3', 'manifest counts 3 memories')
    // The memory written after the backup is named before the confirm as one the restore removes.
    const removed = await page.locator('[data-test="backup-home-diff"] [data-test="backup-diff-removed-file"]').allTextContents()
    expect(removed.some((f) => f.endsWith('written-later.md')), `the preview names the memory written since: ${removed}`)
    await shot(page, 'preview')
    await page.locator('[data-test="backup-restore-confirm"]').click()
    await page.locator('[data-test="backup-restore"][data-state="done"] [data-test="backup-pre"]').waitFor({ timeout: LONG })
    const slugs = (await rpc.call('memory.search', { query: 'lighthouses' })).hits.map((h) => h.memory.slug).sort()
    expect(slugs.join(',') === 'agent-note,kept-one,kept-two', `after the restore: ${slugs}`)
    const pre = (await rpc.call('backup.list', {})).backups.find((b) => !b.scheduled)
    expect(pre, 'a pre-restore backup is listed')
    const m = await rpc.call('backup.preview', { path: pre.name })
    expect(m.memories === 4, `the pre-restore backup holds ${m.memories} memories`)
    await shot(page, 'restored')
  })

  await check('the archive restored into a new home serves the same memories', async () => {
    const newHome = path.join(tempDir('engram-e2e-newhome-'), 'home')
    const out = cli(CLI, home, ['backup', 'restore', backupPath, '--home', newHome])
    expect(out.includes(newHome), `restore said: ${out}`)
    const srv2 = new Server(CLI, newHome)
    const info2 = await srv2.start()
    const p2 = await newPage(ctx, 'backup-newhome', problems)
    await p2.goto(info2.url)
    await p2.locator('.list-pane[data-state="ready"]').waitFor({ timeout: LONG })
    await p2.getByText('Title of kept-one').first().waitFor({ timeout: LONG })
    await p2.getByText('Title of kept-two').first().waitFor({ timeout: LONG })
    const rpc2 = await RpcClient.open(`ws://127.0.0.1:${info2.port}/ws?token=${encodeURIComponent(info2.token)}`)
    const kv = await rpc2.call('kv.get', { agent: 'claude-code', key: 'editor' })
    expect(JSON.stringify(kv).includes('helix'), `kv in the new home: ${JSON.stringify(kv)}`)
    const hits = await until(async () => {
      const r = (await rpc2.call('memory.search', { query: 'lighthouses' })).hits
      return r.length === 3 ? r : null
    }, 'search in the new home')
    expect(hits.length === 3, 'the three memories')
    await shot(p2, 'new-home')
    await p2.close()
    await srv2.stop()
  })

  await check('a hostile archive is refused with a translated message and nothing changes', async () => {
    const hostile = path.join(home, 'backups', 'engram-backup-20200101T000000Z.tar.gz')
    fs.writeFileSync(hostile, tarGz([['index.sqlite3', 'x'], ['memory/../../escaped.md', 'gotcha'], ['manifest.json', '{"format":"engram-backup","format_version":1,"files":[]}']]))
    await page.reload()
    await page.locator('.list-pane[data-state="ready"]').waitFor({ timeout: LONG })
    await openData(page)
    await page.locator('[data-test="backup-list"] li[data-name="engram-backup-20200101T000000Z.tar.gz"] [data-test="backup-restore-pick"]').click()
    await page.locator('[data-test="backup-restore"][data-state="failed"] [data-test="backup-restore-error"]').waitFor({ timeout: LONG })
    const msg = await page.locator('[data-test="backup-restore-error"]').textContent()
    expect(msg.includes('outside the home') && msg.includes('escaped.md'), `refusal: ${msg}`)
    expect(!fs.existsSync(path.join(home, '..', 'escaped.md')) && !fs.existsSync(path.join(home, 'escaped.md')), 'nothing escaped')
    const slugs = (await rpc.call('memory.search', { query: 'lighthouses' })).hits.map((h) => h.memory.slug).sort()
    expect(slugs.join(',') === 'agent-note,kept-one,kept-two', `after the refusal: ${slugs}`)
    await page.locator('[data-test="backup-restore"]').scrollIntoViewIfNeeded()
    await shot(page, 'hostile')
  })

  await check('cleanup previews old trash and removes only it; vacuum compacts', async () => {
    const trash = path.join(home, 'memory', '.trash', '20200101T000000.000000000Z__global__user__ancient.md')
    fs.writeFileSync(trash, 'old')
    const old = new Date(Date.now() - 400 * 86400e3)
    fs.utimesSync(trash, old, old)
    await page.locator('[data-test="maint-vacuum"]').click()
    await page.locator('[data-test="vacuum-result"]').waitFor({ timeout: LONG })
    await page.locator('[data-test="cleanup-preview"]').click()
    await page.locator('[data-test="cleanup"][data-state="preview"]').waitFor({ timeout: LONG })
    expect((await page.locator('[data-test="cleanup"] li').count()) >= 1, 'the old trash file is listed')
    expect(fs.existsSync(trash), 'the preview removed nothing')
    await page.locator('[data-test="cleanup-confirm"]').click()
    await page.locator('[data-test="cleanup-result"]').waitFor({ timeout: LONG })
    expect(!fs.existsSync(trash), 'the old trash file is gone')
    const slugs = (await rpc.call('memory.search', { query: 'lighthouses' })).hits.map((h) => h.memory.slug).sort()
    expect(slugs.join(',') === 'agent-note,kept-one,kept-two', `live memories after cleanup: ${slugs}`)
    await page.locator('[data-test="cleanup-result"]').scrollIntoViewIfNeeded()
    await shot(page, 'cleanup')
  })
  await srv.stop()
}

await s.run(main)
