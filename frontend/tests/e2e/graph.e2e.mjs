// ============================================================================================
// NEEDS THE GRAPH BACKEND (graph.* in backend/api, branch h-graph). Written against the graph
// api contract before that branch was merged; the lead runs it after merging:
//   make cli && ENGRAM_CLI=build/bin/engram-cli E2E_SCRIPT=frontend/tests/e2e/graph.e2e.mjs \
//     node frontend/tests/e2e/run.mjs build/shots
// ============================================================================================
// End-to-end: memories with [[links]] and relation lines ("- works_at [[Acme]]") imported
// through the CLI into a temporary home; the real `engram-cli serve`; the Graph view in headless
// Chromium shows the entities, focuses one with its memories, finds a path, follows a memory
// written while it is open (graph.changed), and renames an entity (the Markdown on disk changes). Screenshots: build/shots/e2e-graph-*.png.
import fs from 'node:fs'
import path from 'node:path'
import { reportSuite } from '../report.mjs'
import { LONG, ROOT, RpcClient, Server, cleanup, cli, launchBrowser, newPage, tempDir, until } from './lib.mjs'
import { pick } from '../graph-pick.mjs'

const CLI = process.env.ENGRAM_CLI ? path.resolve(process.env.ENGRAM_CLI) : path.join(ROOT, 'build/bin/engram-cli')
const SHOTS = process.argv[2] ? path.resolve(process.argv[2]) : path.join(ROOT, 'build/shots')
fs.mkdirSync(SHOTS, { recursive: true })
if (!fs.existsSync(CLI)) {
  console.error(`e2e-graph: ${CLI} is missing; run make cli`)
  process.exit(2)
}

const SEED = [
  {
    slug: 'alice-at-acme',
    title: 'Alice works at Acme',
    scope: 'global',
    type: 'reference',
    subject: 'Alice Chen',
    body: 'Alice Chen leads the billing team.\n\n- works_at [[Acme]]\n- uses [[Neovim]]\n',
  },
  {
    slug: 'acme-billing',
    title: 'Acme owns the billing service',
    scope: 'global',
    type: 'reference',
    body: 'Notes on [[Billing service]].\n\n- [[Acme]] owns [[Billing service]]\n- [[Billing service]] uses [[Postgres]]\n',
  },
  {
    slug: 'zhang-wei-shanghai',
    title: '张伟在上海',
    scope: 'global',
    type: 'reference',
    subject: '张伟',
    body: '张伟是 Alice 的同事。\n\n- lives_in [[上海]]\n- [[张伟]] knows [[Alice Chen]]\n',
  },
  {
    slug: 'code-is-not-a-link',
    title: 'Links inside code are not links',
    scope: 'global',
    type: 'reference',
    body: 'Example:\n\n```\n- works_at [[NotAnEntity]]\n```\n',
  },
]

const problems = []
let passed = 0
let failed = 0
async function step(name, fn) {
  try {
    await fn()
    passed++
    console.log(`e2e-graph ok   ${name}`)
  } catch (e) {
    failed++
    problems.push(`${name}: ${e.message}`)
    console.log(`e2e-graph FAIL ${name}: ${e.message}`)
    throw e
  }
}
const expect = (cond, msg) => {
  if (!cond) throw new Error(`expected: ${msg}`)
}

async function main() {
  const home = tempDir('engram-e2e-graph-')
  cli(CLI, home, ['import', '-'], SEED.map((r) => JSON.stringify(r)).join('\n') + '\n')
  const server = new Server(CLI, home, { ENGRAM_LANG: 'en', LANG: 'C.UTF-8' })
  const srv = await server.start('127.0.0.1:0')
  const rpc = await RpcClient.open(`ws://127.0.0.1:${srv.port}/ws?token=${encodeURIComponent(srv.token)}`)

  await step('the api knows the entities of the seeded memories', async () => {
    const { entities } = await until(async () => {
      const r = await rpc.call('graph.entities', { limit: 100 })
      return r.entities?.some((e) => e.name === 'Acme') ? r : null
    }, 'Acme among the entities')
    const names = entities.map((e) => e.name)
    for (const n of ['Acme', 'Alice Chen', 'Billing service', 'Postgres', '张伟', '上海']) expect(names.includes(n), `${n} in ${names.join(', ')}`)
    expect(!names.includes('NotAnEntity'), 'a link inside a code block is no entity')
  })

  const browser = await launchBrowser()
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', acceptDownloads: true })
  const page = await newPage(ctx, 'graph', problems)
  await page.goto(srv.url)
  await page.locator('.list-pane[data-state="ready"]').waitFor({ timeout: LONG })

  await step('the Graph view draws the entities', async () => {
    await page.click('[data-test="nav-graph"]')
    await page.locator('[data-test="graph-canvas"][data-state="ready"]').waitFor({ timeout: LONG })
    const nodes = Number(await page.getAttribute('[data-test="graph-canvas"]', 'data-nodes'))
    const edges = Number(await page.getAttribute('[data-test="graph-canvas"]', 'data-edges'))
    expect(nodes >= 7, `at least 7 entities drawn (${nodes})`)
    expect(edges >= 6, `at least 6 relations drawn (${edges})`)
    await page.screenshot({ path: path.join(SHOTS, 'e2e-graph-overview.png') })
  })

  await step('focus Acme: its neighbours and the memories that mention it', async () => {
    await pick(page, 'graph-search', 'Acme', 'Acme', 2 * LONG)
    await page.locator('[data-test="graph-canvas"][data-state="ready"][data-focus]:not([data-focus=""])').waitFor({ timeout: LONG })
    await page.locator('[data-test="graph-panel"][data-kind="node"][data-state="ready"]').waitFor({ timeout: LONG })
    const slugs = await page.locator('[data-test="graph-panel"] [data-test="graph-memory"] .mem-slug').allInnerTexts()
    expect(slugs.some((s) => s.startsWith('alice-at-acme')) && slugs.some((s) => s.startsWith('acme-billing')), `both memories listed: ${slugs.join(' | ')}`)
    await page.screenshot({ path: path.join(SHOTS, 'e2e-graph-focus.png') })
  })

  await step('a path from 张伟 to Postgres, each hop with its memories', async () => {
    // The options come from a debounced entity search: wait for them as long as anything else.
    await pick(page, 'graph-path-from', '张伟', '张伟', 2 * LONG)
    await pick(page, 'graph-path-to', 'Postgres', 'Postgres', 2 * LONG)
    await page.click('[data-test="graph-path-find"]')
    await page.locator('[data-test="graph-panel"][data-kind="path"][data-state="found"]').waitFor({ timeout: LONG })
    const hops = await page.locator('[data-test="graph-hop"]').count()
    expect(hops === 4, `张伟 → Alice Chen → Acme → Billing service → Postgres (${hops} hops)`)
    await page.screenshot({ path: path.join(SHOTS, 'e2e-graph-path.png') })
  })

  await step('a memory written while the view is open shows up (graph.changed)', async () => {
    await page.click('[data-test="graph-overview"]').catch(() => {})
    await page.click('[data-test="graph-path-clear"]')
    const before = Number(await page.getAttribute('[data-test="graph-canvas"]', 'data-nodes'))
    await rpc.call('memory.write', { slug: 'acme-in-berlin', title: 'Acme is in Berlin', scope: 'global', type: 'reference', body: '- [[Acme]] located_in [[Berlin]]\n' })
    await until(async () => Number(await page.getAttribute('[data-test="graph-canvas"]', 'data-nodes')) > before, 'Berlin drawn')
  })

  await step('renaming an entity from the panel rewrites the Markdown of its memories', async () => {
    const file = path.join(home, 'memory', 'global', 'reference', 'acme-billing.md')
    expect(fs.readFileSync(file, 'utf8').includes('- [[Acme]] owns [[Billing service]]'), 'the seeded line is on disk')
    await page.click('[data-test="graph-search"]')
    await page.keyboard.type('Billing')
    await page.locator('[data-test="graph-view"][data-answered="Billing"]').waitFor({ timeout: 2 * LONG })
    // Chosen with the keyboard in the open menu (hidden menus of the other pickers hold the same options).
    const pending = page.locator('.n-base-select-option--pending:visible', { hasText: 'Billing service' })
    await page.locator('.n-base-select-option:visible', { hasText: 'Billing service' }).first().waitFor({ timeout: LONG })
    for (let i = 0; i < 25 && !(await pending.count()); i++) await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await page.locator('[data-test="graph-panel"][data-kind="node"][data-state="ready"] [data-test="graph-edit"][data-state="idle"]').waitFor({ timeout: LONG })
    await page.click('[data-test="graph-edit-rename"]')
    await page.fill('[data-test="graph-rename-input"] input', 'Billing platform')
    await page.click('[data-test="graph-rename-save"]')
    await page.locator('[data-test="graph-panel-title"]', { hasText: 'Billing platform' }).waitFor({ timeout: LONG })
    const md = fs.readFileSync(file, 'utf8')
    expect(md.includes('Notes on [[Billing platform]].') && md.includes('- [[Acme]] owns [[Billing platform]]') && md.includes('- [[Billing platform]] uses [[Postgres]]'), `every link rewritten on disk:\n${md}`)
    expect(!md.includes('[[Billing service]]'), 'no link to the old name is left')
    await page.screenshot({ path: path.join(SHOTS, 'e2e-graph-rename.png') })
  })

  await step('opening a memory from the panel shows it in Memories', async () => {
    await pick(page, 'graph-search', 'Berlin', 'Berlin', 2 * LONG)
    await page.locator('[data-test="graph-panel"][data-kind="node"][data-state="ready"] [data-test="graph-memory"]').first().click()
    await page.locator('[data-test="reader-title"]', { hasText: 'Acme is in Berlin' }).waitFor({ timeout: LONG })
  })
  await step('the person\'s own entity ("User" in the store) is "You", found and named so', async () => {
    await rpc.call('memory.write', { slug: 'prefers-neovim', title: 'Prefers Neovim', scope: 'global', type: 'user', body: 'Edits in Neovim.\n\n- uses [[Neovim]]\n' })
    const { entities } = await until(async () => {
      const r = await rpc.call('graph.entities', { query: 'User', limit: 10 })
      return r.entities?.some((e) => e.name === 'User') ? r : null
    }, 'the person\'s entity')
    expect(entities.find((e) => e.name === 'User').type === 'person', 'stored as the person "User"')
    await page.click('[data-test="nav-graph"]')
    await page.locator('[data-test="graph-canvas"][data-state="ready"]').waitFor({ timeout: LONG })
    await pick(page, 'graph-search', 'you', 'You', 2 * LONG)
    await page.locator('[data-test="graph-panel"][data-kind="node"][data-state="ready"]').waitFor({ timeout: LONG })
    const title = (await page.locator('[data-test="graph-panel-title"]').innerText()).trim()
    expect(title === 'You', `the panel names it "You" (${title})`)
    const rel = await page.locator('[data-test="graph-relation"]').allInnerTexts()
    expect(rel.some((r) => r.includes('You') && r.includes('Neovim')) && !rel.some((r) => r.includes('User')), `its relations name it: ${rel.join(' | ')}`)
  })

  let proj = ''
  await step('one name in two scopes: each option says its scope; a relation across scopes is warned of', async () => {
    proj = tempDir('engram-e2e-graph-proj-')
    await rpc.call('memory.write', { slug: 'staging-on-acme', title: 'Staging runs on Acme', scope: 'project', workdir: proj, type: 'reference', body: 'Staging is hosted by [[Acme]].\n' })
    await until(async () => {
      const r = await rpc.call('graph.entities', { query: 'Acme', limit: 10 })
      return (r.entities ?? []).filter((e) => e.name === 'Acme').length === 2 ? r : null
    }, 'two entities named Acme')
    await page.click('[data-test="graph-search"]')
    await page.keyboard.press('Control+a')
    await page.keyboard.type('Acme')
    await page.locator('[data-test="graph-view"][data-answered="Acme"]').waitFor({ timeout: 2 * LONG })
    await page.locator('.n-base-select-option:visible').nth(1).waitFor({ timeout: LONG })
    const opts = (await page.locator('.n-base-select-option:visible').allInnerTexts()).filter((o) => o.startsWith('Acme ·'))
    const folder = path.basename(proj)
    expect(opts.length === 2 && opts.some((o) => o.endsWith('· global')) && opts.some((o) => o.includes(`project ${folder}`)), `two Acmes told apart: ${opts.join(' | ')}`)
    await page.keyboard.press('Escape')
    // Relate Alice Chen to the project's Acme inside a global memory: said to make a new Acme.
    await page.click('[data-test="graph-add-relation"]')
    await pick(page, 'graph-add-from', 'Alice', 'Alice Chen', 2 * LONG)
    await page.click('[data-test="graph-add-to"]')
    await page.keyboard.type('Acme')
    await page.locator('[data-test="graph-view"][data-answered="Acme"]').waitFor({ timeout: 2 * LONG })
    const pending = page.locator('.n-base-select-option--pending:visible', { hasText: `project ${folder}` })
    await page.locator('.n-base-select-option:visible', { hasText: `project ${folder}` }).first().waitFor({ timeout: LONG })
    for (let i = 0; i < 25 && !(await pending.count()); i++) await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await page.locator('[data-test="graph-add-form"][data-memories="ready"]').waitFor({ timeout: LONG })
    await page.click('[data-test="graph-add-memory"]')
    await page.locator('.n-base-select-option:visible', { hasText: 'Alice works at Acme' }).first().click()
    await page.locator('[data-test="graph-add-form"][data-memory-scope="ready"]').waitFor({ timeout: LONG })
    const note = await page.locator('[data-test="graph-add-scope-note"][data-end="to"][data-warn="true"]').innerText({ timeout: LONG })
    expect(note.includes(`project ${folder}`) && note.includes('global'), `the warning names both scopes: ${note}`)
    await page.screenshot({ path: path.join(SHOTS, 'e2e-graph-add-scope.png') })
  })

  // The link carried only the name, and the Graph view looked it up in every scope: the
  // project memory's [[Acme]] opened the global Acme (the busier one).
  await step('a [[link]] in a project memory opens that project\'s entity, not the global one of its name', async () => {
    const { entities } = await rpc.call('graph.entities', { query: 'Acme', limit: 10 })
    const projAcme = entities.find((e) => e.name === 'Acme' && e.scope === 'project')
    const globalAcme = entities.find((e) => e.name === 'Acme' && e.scope === 'global')
    expect(projAcme && globalAcme && projAcme.id !== globalAcme.id, `two Acmes: ${JSON.stringify(entities)}`)
    const staging = (await rpc.call('memory.read', { slug: 'staging-on-acme', scope: 'project', workdir: proj })).memory
    await page.click('[data-test="nav-memories"]')
    await page.locator('.list-pane[data-state="ready"]').waitFor({ timeout: LONG })
    await page.evaluate(() => document.querySelector('[data-test="search"] input')?.focus())
    await page.keyboard.type('Staging runs on Acme')
    await page.locator('.list-pane[data-state="ready"][data-query="Staging runs on Acme"]').waitFor({ timeout: LONG })
    await page.locator(`.item[data-id="${staging.id}"]`).click()
    const link = page.locator('.markdown-body a.wikilink-entity[data-entity="Acme"]')
    await link.waitFor({ timeout: LONG })
    await link.click()
    await page.locator('[data-test="graph-canvas"][data-state="ready"]').waitFor({ timeout: LONG })
    await until(async () => (await page.getAttribute('[data-test="graph-canvas"]', 'data-focus')) || null, 'a focused entity')
    const focused = await page.getAttribute('[data-test="graph-canvas"]', 'data-focus')
    expect(focused === projAcme.id, `focused ${focused}: the project's Acme is ${projAcme.id}, the global one ${globalAcme.id}`)
    await page.screenshot({ path: path.join(SHOTS, 'e2e-graph-link-scope.png') })
  })

  // The view asked for 4 hops and said "not connected within 4 hops" of two entities five apart.
  await step('a path longer than 4 hops is found (up to 6); a longer one is said to be longer', async () => {
    await rpc.call('memory.write', { slug: 'animal-chain', title: 'Animal chain', scope: 'global', type: 'reference',
      body: 'Who knows whom.\n\n- [[Ant]] knows [[Bee]]\n- [[Bee]] knows [[Cat]]\n- [[Cat]] knows [[Dog]]\n- [[Dog]] knows [[Eel]]\n- [[Eel]] knows [[Fox]]\n' +
        '- [[Gnu]] knows [[Hen]]\n- [[Hen]] knows [[Ibis]]\n- [[Ibis]] knows [[Jay]]\n- [[Jay]] knows [[Kiwi]]\n- [[Kiwi]] knows [[Lark]]\n- [[Lark]] knows [[Mole]]\n- [[Mole]] knows [[Newt]]\n' })
    await until(async () => ((await rpc.call('graph.entities', { query: 'Newt', limit: 5 })).entities ?? []).length > 0 || null, 'the chain in the graph')
    await page.click('[data-test="nav-graph"]')
    await page.locator('[data-test="graph-canvas"][data-state="ready"]').waitFor({ timeout: LONG })
    await pick(page, 'graph-path-from', 'Ant', 'Ant', 2 * LONG)
    await pick(page, 'graph-path-to', 'Fox', 'Fox', 2 * LONG)
    await page.click('[data-test="graph-path-find"]')
    await page.locator('[data-test="graph-panel"][data-kind="path"][data-state="found"]').waitFor({ timeout: LONG })
    const hops = await page.locator('[data-test="graph-hop"]').count()
    expect(hops === 5, `Ant → Bee → Cat → Dog → Eel → Fox (${hops} hops)`)
    await page.click('[data-test="graph-path-clear"]')
    await pick(page, 'graph-path-from', 'Gnu', 'Gnu', 2 * LONG)
    await pick(page, 'graph-path-to', 'Newt', 'Newt', 2 * LONG)
    await page.click('[data-test="graph-path-find"]')
    const longer = await page.locator('[data-test="graph-panel"][data-kind="path"][data-state="not-found"] [data-test="graph-path-longer"]').innerText({ timeout: LONG })
    expect(longer.includes('7 hops'), `the 7-hop path is said to be longer: ${longer}`)
    await page.screenshot({ path: path.join(SHOTS, 'e2e-graph-path-longer.png') })
  })
  await server.stop()
}

try {
  await main()
} catch (e) {
  if (!problems.some((p) => p.includes(e.message))) {
    failed++
    problems.push(e.message)
  }
} finally {
  await cleanup()
}
if (problems.length) console.error(problems.join('\n'))
reportSuite('e2e-graph', passed, failed)
process.exit(failed || problems.length ? 1 : 0)
