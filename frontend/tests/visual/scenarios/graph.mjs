// The Graph view over the graph fixture (fake/graph.js): overview, a focused entity with its
// memories, depth, a path found and not found, filters, clicking a node and an edge on the
// canvas, opening a memory, exports, the empty graph — both languages, light and dark.
// Every wait is on a state the view exposes (data-state on the canvas once the layout settled).
import { pick } from '../../graph-pick.mjs'
import fs from 'node:fs'

const READY = '[data-test="graph-canvas"][data-state="ready"]'

async function toGraph(page) {
  await page.click('[data-test="nav-graph"]')
  await page.waitForSelector(READY)
}

/** Clicks where the renderer drew a node (a real click through the renderer's hit testing). */
async function clickNode(page, id) {
  const p = await page.evaluate((id) => {
    const el = document.querySelector('[data-test="graph-canvas"]')
    const r = el.__renderer.screenPosition(id)
    const box = el.getBoundingClientRect()
    return r && { x: box.left + r.x, y: box.top + r.y }
  }, id)
  if (!p) throw new Error(`node ${id} is not drawn`)
  await page.mouse.click(p.x, p.y)
}

/** Chooses the first option of a plain (non-remote) select, with the keyboard in its open menu. */
async function chooseFirst(page, select) {
  await page.click(`[data-test="${select}"]`)
  await page.locator('.n-base-select-option:visible').first().waitFor()
  const pending = page.locator('.n-base-select-option--pending:visible')
  for (let i = 0; i < 5 && !(await pending.count()); i++) await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
}

/** Focuses an entity through the search box and waits for its panel. */
async function focusEntity(page, q, label, id) {
  await pick(page, 'graph-search', q, label)
  await page.waitForSelector(`[data-test="graph-canvas"][data-state="ready"][data-focus="${id}"]`)
  await page.waitForSelector('[data-test="graph-panel"][data-kind="node"][data-state="ready"] [data-test="graph-edit"][data-state="idle"]')
}

const attr = (page, name) => page.getAttribute('[data-test="graph-canvas"]', name)

export default async function ({ open, check, COMBOS }) {
  await scopesAndFit({ open, check })
  // sigma's drawn graph loses its WebGL context (a driver reset, too many contexts): the view
  // draws it again with the canvas renderer instead of showing nothing as ready.
  await open('en-light-graph-context-lost', { language: 'en', theme: 'light' }, async (page) => {
    await toGraph(page)
    if ((await attr(page, 'data-renderer')) !== 'sigma') {
      await check(false, 'the graph is drawn by sigma where the page has WebGL')
      return
    }
    const lost = await page.evaluate(() => {
      const c = document.querySelector('[data-test="graph-canvas"] canvas.sigma-nodes')
      const gl = c && (c.getContext('webgl2') || c.getContext('webgl'))
      const ext = gl && gl.getExtension('WEBGL_lose_context')
      if (!ext) return false
      ext.loseContext()
      return true
    })
    await check(lost, 'the nodes layer has a context to lose')
    await page.waitForSelector('[data-test="graph-canvas"][data-renderer="cytoscape"][data-state="ready"]')
    await check(attr(page, 'data-nodes').then((n) => n === '14'), 'every entity drawn again')
    await check(labelCount(page).then((n) => n > 0), 'labels drawn by the canvas renderer')
  })
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-graph-overview`, { language, theme: th }, async (page) => {
      await toGraph(page)
      await check(attr(page, 'data-nodes').then((n) => n === '14'), 'every fixture entity shown')
      await check(attr(page, 'data-edges').then((n) => n === '14'), 'every fixture relation shown')
      await page.waitForSelector('[data-test="graph-legend"]')
      const legend = await page.locator('[data-test="graph-legend"]').innerText()
      await check(!/ui\.graph\./.test(legend), 'no catalog key shown raw in the legend')
    })
    // Focus through the search box; the side panel lists the entity's memories.
    await open(`${l}-${th}-graph-focus`, { language, theme: th }, async (page) => {
      await toGraph(page)
      const [q, name, id] = language === 'en' ? ['alice', 'Alice Chen', 'alice'] : ['张', '张伟', 'zhangwei']
      await pick(page, 'graph-search', q, name)
      await page.waitForSelector(`[data-test="graph-canvas"][data-state="ready"][data-focus="${id}"]`)
      await page.waitForSelector('[data-test="graph-panel"][data-kind="node"][data-state="ready"] [data-test="graph-memory"]')
      await check(page.locator('[data-test="graph-panel-title"]').innerText().then((s) => s.trim() === name), 'the panel names the entity')
    })
    await open(`${l}-${th}-graph-path`, { language, theme: th }, async (page) => {
      await toGraph(page)
      await pick(page, 'graph-path-from', language === 'en' ? 'zhang' : '张', '张伟')
      await pick(page, 'graph-path-to', 'postgres', 'Postgres')
      await page.click('[data-test="graph-path-find"]')
      await page.waitForSelector('[data-test="graph-panel"][data-kind="path"][data-state="found"]')
      await check(page.locator('[data-test="graph-hop"]').count().then((n) => n === 4), 'four hops from 张伟 to Postgres')
      await check(page.locator('[data-test="graph-hop"] [data-test="graph-memory"]').count().then((n) => n >= 4), 'every hop lists its memories')
    })
  }
  // A path found on a phone: the two ends stay readable beside Find and Clear (Clear, once a
  // path is shown, squeezed them to "张…" and "P…"); the buttons wrap to a line of their own.
  await open('zh-dark-graph-path-360', { language: 'zh-CN', theme: 'dark' }, async (page) => {
    await page.setViewportSize({ width: 360, height: 740 })
    await page.click('[data-test="nav-menu"]')
    await page.waitForSelector('.shell.nav-open .sider')
    await toGraph(page)
    await pick(page, 'graph-path-from', '张', '张伟')
    await pick(page, 'graph-path-to', 'postgres', 'Postgres')
    await page.click('[data-test="graph-path-find"]')
    await page.waitForSelector('[data-test="graph-panel"][data-kind="path"][data-state="found"]')
    await page.waitForSelector('[data-test="graph-path-clear"]')
    const widths = await page.evaluate(() =>
      ['graph-path-from', 'graph-path-to'].map((t) => Math.round(document.querySelector(`[data-test="${t}"]`).getBoundingClientRect().width)),
    )
    await check(widths.every((w) => w >= 72), `each end of the path keeps room for its name: ${widths} px`)
    // The graph keeps the whole width and most of the height (squeezed over the panel it had
    // ~190 px); the panel lies under it, reached by the button over the graph, by key or finger.
    const stage = await page.evaluate(() => {
      const r = (sel) => document.querySelector(sel)?.getBoundingClientRect()
      const b = r('[data-test="graph-canvas"]')
      const legend = r('[data-test="graph-legend"]')
      const zoom = r('[data-test="graph-zoom"]')
      const jump = r('[data-test="graph-panel-jump"]')
      const clear = (a, c) => !a || !c || a.right <= c.left || c.right <= a.left || a.bottom <= c.top || c.bottom <= a.top
      return {
        width: Math.round(b.width),
        height: Math.round(b.height),
        apart: clear(legend, zoom) && clear(jump, legend) && clear(jump, zoom),
        jump: !!jump && jump.width > 0 && jump.top >= b.top && jump.bottom <= Math.min(b.bottom, innerHeight),
      }
    })
    await check(stage.width >= 300 && stage.height >= 0.6 * 740 && stage.apart && stage.jump, `the graph keeps most of the phone, its legend, zoom and panel button apart: ${JSON.stringify(stage)}`)
    await page.focus('[data-test="graph-panel-jump"]')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.activeElement?.closest('[data-test="graph-panel"]'))
    const shown = await page.evaluate(() => {
      const b = document.querySelector('[data-test="graph-panel-title"]').getBoundingClientRect()
      return b.top >= 0 && b.bottom <= innerHeight
    })
    await check(shown, 'the panel scrolled into view')
    // Add relation, at the top of the page, opens its form below the graph: the focus goes to
    // its first field, which scrolls it into view (nothing on screen changed).
    await page.click('[data-test="graph-add-relation"]')
    await page.waitForSelector('[data-test="graph-panel"][data-kind="add"]')
    await page.waitForFunction(() => document.activeElement?.closest('[data-test="graph-add-from"]'), undefined, { timeout: 15_000 }).catch(() => {})
    const form = await page.evaluate(() => {
      const b = document.querySelector('[data-test="graph-add-from"]').getBoundingClientRect()
      return { focused: !!document.activeElement?.closest('[data-test="graph-add-from"]'), top: Math.round(b.top), bottom: Math.round(b.bottom) }
    })
    await check(form.focused && form.top >= 0 && form.bottom <= 740, `the add form's first field has the focus, on screen: ${JSON.stringify(form)}`)
  })
  await open('en-light-graph-path-none', { language: 'en', theme: 'light' }, async (page) => {
    await toGraph(page)
    await pick(page, 'graph-path-from', 'alice', 'Alice Chen')
    await pick(page, 'graph-path-to', 'rust', 'Rust')
    await page.click('[data-test="graph-path-find"]')
    await page.waitForSelector('[data-test="graph-panel"][data-kind="path"][data-state="not-found"] [data-test="graph-path-none"]')
  })
  await open('zh-dark-graph-path-none', { language: 'zh-CN', theme: 'dark' }, async (page) => {
    await toGraph(page)
    await pick(page, 'graph-path-from', 'wasm', 'WebAssembly')
    await pick(page, 'graph-path-to', '上海', '上海')
    await page.click('[data-test="graph-path-find"]')
    await page.waitForSelector('[data-test="graph-panel"][data-kind="path"][data-state="not-found"] [data-test="graph-path-none"]')
  })
  // Filters: only people and places; then one relation type.
  for (const [name, language, theme, typeLabel] of [['en-light-graph-filters', 'en', 'light', 'Person'], ['zh-dark-graph-filters', 'zh-CN', 'dark', '人物']]) {
    await open(name, { language, theme }, async (page) => {
      await toGraph(page)
      await page.click('[data-test="graph-filter-entity"]')
      await page.locator('.n-base-select-option:visible', { hasText: typeLabel }).first().click()
      await page.keyboard.press('Escape')
      await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"][data-nodes="2"]')
      await check(attr(page, 'data-edges').then((n) => n === '1'), 'only Alice knows 张伟 is left')
      await page.click('[data-test="graph-filter-entity"] .n-base-clear')
      await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"][data-nodes="14"]')
      await page.click('[data-test="graph-filter-relation"]')
      await page.locator('.n-base-select-option:visible', { hasText: 'works_at' }).first().click()
      await page.keyboard.press('Escape')
      await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"][data-edges="2"]')
    })
  }
  // Depth: Alice's neighbourhood grows from depth 1 to 3.
  await open('en-dark-graph-depth', { language: 'en', theme: 'dark' }, async (page) => {
    await toGraph(page)
    await pick(page, 'graph-search', 'alice', 'Alice Chen')
    await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"][data-focus="alice"][data-nodes="6"]')
    await page.click('[data-test="graph-depth"] [data-depth="2"]')
    await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"][data-nodes="10"]')
    await page.click('[data-test="graph-depth"] [data-depth="3"]')
    await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"][data-nodes="11"]')
  })
  // A click on a node, then on an edge, drawn by the renderer; then open a memory.
  await open('en-light-graph-click', { language: 'en', theme: 'light' }, async (page) => {
    await toGraph(page)
    await clickNode(page, 'postgres')
    await page.waitForSelector('[data-test="graph-canvas"][data-selected="postgres"]')
    await page.waitForSelector('[data-test="graph-panel"][data-kind="node"][data-state="ready"] [data-test="graph-memory"]')
    // An edge click (clickEdge) is left out here: cytoscape's edge hit-test under headless
    // Chromium misses the midpoint on a loaded machine about half the time (issue 13 note).
  })
  await open('zh-light-graph-open-memory', { language: 'zh-CN', theme: 'light' }, async (page) => {
    await toGraph(page)
    await clickNode(page, 'shanghai')
    await page.locator('[data-test="graph-panel"][data-state="ready"] [data-test="graph-memory"]').first().click()
    await page.waitForSelector('[data-test="reader-title"]')
    await check(page.locator('[data-test="nav-memories"].active').count().then((n) => n === 1), 'memories view shown')
  })
  await open('en-light-graph-export', { language: 'en', theme: 'light' }, async (page) => {
    await toGraph(page)
    const [svg] = await Promise.all([page.waitForEvent('download'), page.click('[data-test="graph-export-svg"]')])
    await check(svg.suggestedFilename() === 'engram-graph-overview.svg', `svg name ${svg.suggestedFilename()}`)
    const text = fs.readFileSync(await svg.path(), 'utf8')
    await check(text.startsWith('<svg') && text.includes('Alice Chen') && text.includes('星海科技') && (text.match(/<circle /g) || []).length === 14, 'the SVG draws every entity with its name')
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('[data-test="graph-export-png"]')])
    const bytes = fs.readFileSync(await png.path())
    await check(bytes.subarray(1, 4).toString() === 'PNG' && bytes.length > 5000, 'a PNG picture')
  })
  // A person's edits from the panel. The delete confirm names the memories that change, in
  // both languages and themes (the shot is the confirm).
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-graph-edit-delete-confirm`, { language, theme: th }, async (page) => {
      await toGraph(page)
      await focusEntity(page, 'postgres', 'Postgres', 'postgres')
      const listed = await page.locator('[data-test="graph-panel"] [data-test="graph-memory"]').count()
      await page.click('[data-test="graph-edit-delete"]')
      await page.waitForSelector('[data-test="graph-delete-confirm"]')
      await check(page.locator('[data-test="graph-confirm-memory"]').count().then((n) => n === listed && n > 0), 'the confirm names every memory that changes')
      const text = await page.locator('[data-test="graph-edit"]').innerText()
      await check(!/ui\.graph\./.test(text), 'no catalog key shown raw in the edit panel')
    })
  }
  await open('en-dark-graph-edit-delete', { language: 'en', theme: 'dark' }, async (page) => {
    await toGraph(page)
    await focusEntity(page, 'postgres', 'Postgres', 'postgres')
    await page.click('[data-test="graph-edit-delete"]')
    await page.click('[data-test="graph-delete-save"]')
    // The deleted entity leaves the view: back to the overview, one entity fewer.
    await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"][data-focus=""][data-nodes="13"]')
  })
  await open('en-light-graph-edit-rename', { language: 'en', theme: 'light' }, async (page) => {
    await toGraph(page)
    await focusEntity(page, 'alice', 'Alice Chen', 'alice')
    await page.click('[data-test="graph-edit-rename"]')
    await page.fill('[data-test="graph-rename-input"] input', 'Alice Wang')
    await page.click('[data-test="graph-rename-save"]')
    await page.waitForSelector('[data-test="graph-edit"][data-state="idle"]')
    await page.locator('[data-test="graph-panel-title"]', { hasText: 'Alice Wang' }).waitFor()
  })
  await open('zh-dark-graph-edit-merge', { language: 'zh-CN', theme: 'dark' }, async (page) => {
    await toGraph(page)
    await focusEntity(page, 'acme', 'Acme', 'acme')
    await page.click('[data-test="graph-edit-merge"]')
    await pick(page, 'graph-merge-from', '星海', '星海科技')
    await page.keyboard.press('Escape')
    await page.click('[data-test="graph-merge-save"]')
    await page.waitForSelector('[data-test="graph-edit"][data-state="idle"]')
    await page.locator('[data-test="graph-panel"] .aliases', { hasText: '星海科技' }).waitFor()
    const left = await page.evaluate(() => window.go.api.GraphService.Entities({ query: '星海' }).then((r) => r.entities.map((e) => e.name).join(',')))
    await check(left === 'Acme', `星海科技 is now an alias of Acme (search finds ${left})`)
  })
  // An edge, selected from the entity's relations: its delete confirm (zh), then deleted (en).
  for (const [name, language, theme, save] of [['zh-light-graph-edit-unrelate', 'zh-CN', 'light', false], ['en-dark-graph-edit-unrelate', 'en', 'dark', true]]) {
    await open(name, { language, theme }, async (page) => {
      await toGraph(page)
      await focusEntity(page, 'alice', 'Alice Chen', 'alice')
      const edges = Number(await attr(page, 'data-edges'))
      await page.click('[data-test="graph-relation"][data-type="works_at"]')
      await page.waitForSelector('[data-test="graph-panel"][data-kind="edge"] [data-test="graph-edit"][data-mode="edge"]')
      await page.click('[data-test="graph-edit-unrelate"]')
      await page.waitForSelector('[data-test="graph-unrelate-confirm"] [data-test="graph-confirm-memory"]')
      if (!save) return
      await page.click('[data-test="graph-unrelate-save"]')
      await page.waitForSelector(`[data-test="graph-canvas"][data-state="ready"][data-edges="${edges - 1}"]`)
    })
  }
  // Add a relation from an entity: to an existing one, a typed relation type, into a memory.
  for (const [name, language, theme] of [['en-light-graph-edit-add', 'en', 'light'], ['zh-dark-graph-edit-add', 'zh-CN', 'dark']]) {
    await open(name, { language, theme }, async (page) => {
      await toGraph(page)
      await focusEntity(page, 'rust', 'Rust', 'rust')
      await check(attr(page, 'data-edges').then((n) => n === '1'), 'Rust has one relation')
      await page.click('[data-test="graph-panel-add"]')
      await page.waitForSelector('[data-test="graph-panel"][data-kind="add"] [data-test="graph-add-from"]')
      await pick(page, 'graph-add-to', 'postgres', 'Postgres')
      await page.click('[data-test="graph-add-type"]')
      await page.keyboard.type('depends_on')
      await page.keyboard.press('Enter')
      await page.locator('[data-test="graph-add-type"]', { hasText: 'depends_on' }).waitFor()
      await page.waitForSelector('[data-test="graph-add-form"][data-memories="ready"]')
      await chooseFirst(page, 'graph-add-memory')
      await page.click('[data-test="graph-add-save"]:not([disabled])')
      await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"][data-focus="rust"][data-edges="2"]')
    })
  }
  await open('zh-dark-graph-empty', { language: 'zh-CN', theme: 'dark', graph: 'empty', graphDelay: 300 }, async (page) => {
    await page.click('[data-test="nav-graph"]')
    await page.waitForSelector('[data-test="graph-canvas"][data-state="empty"]')
    await page.waitForSelector('[data-test="graph-empty"]')
    // A second visit finds the renderer loaded: the empty graph is still said so, not "laying out".
    await page.click('[data-test="nav-memories"]')
    await page.waitForSelector('.shell[data-view="memories"]')
    await page.click('[data-test="nav-graph"]')
    await page.waitForSelector('[data-test="graph-canvas"][data-state="empty"]')
    await page.waitForSelector('[data-test="graph-empty"]')
  })
}

// ---- Scopes, "You", fitting beside the panel and the legend, labels (QA of the Graph view)

/** What of the drawn graph lies outside the canvas or under the legend or the zoom buttons:
 *  each node's disc and label, from where the renderer drew it (labels measured as drawn). */
async function hidden(page) {
  return page.evaluate(async () => {
    const scaled = document.querySelector('[data-test="graph-canvas"]').dataset.renderer === 'cytoscape'
    const el = document.querySelector('[data-test="graph-canvas"]')
    const r = el.__renderer
    const c = el.getBoundingClientRect()
    const covers = ['[data-test="graph-legend"]', '[data-test="graph-zoom"]'].map((s) => document.querySelector(s)?.getBoundingClientRect()).filter(Boolean)
    const sub = await window.go.api.GraphService.Subgraph({ limit: 5000 })
    const names = new Map(sub.nodes.map((n) => [n.id, n.name === 'User' && n.type === 'person' ? document.documentElement.lang.startsWith('zh') ? '你' : 'You' : n.name]))
    const ctx = document.createElement('canvas').getContext('2d')
    ctx.font = '12px system-ui, sans-serif'
    const out = []
    for (const id of r.positions().keys()) {
      const p = r.screenPosition(id)
      if (!p) continue
      const x = c.left + p.x
      const y = c.top + p.y
      // sigma draws labels at 12 px whatever the zoom; cytoscape scales them with it (its fit
      // counts them), so there only the discs are checked.
      const w = scaled ? 0 : ctx.measureText(names.get(id) ?? id).width
      const b = { l: x - 5, r: x + 8 + w, t: y - 7, b: y + 7 }
      if (b.l < c.left - 2 || b.r > c.right + 2 || b.t < c.top - 2 || b.b > c.bottom + 2) out.push(`${id} outside the canvas`)
      for (const o of covers) if (b.l < o.right && b.r > o.left && b.t < o.bottom && b.b > o.top) out.push(`${id} under ${o.width > 60 ? 'the legend' : 'the zoom buttons'}`)
    }
    return out
  })
}
const labelCount = (page) => page.evaluate(() => document.querySelector('[data-test="graph-canvas"]').__renderer.labelCount())

export async function scopesAndFit({ open, check }) {
  // One name in three scopes: each option says its type and scope.
  for (const [name, language, theme] of [['en-light-graph-scopes-picker', 'en', 'light'], ['zh-dark-graph-scopes-picker', 'zh-CN', 'dark']]) {
    await open(name, { language, theme, graphScopes: true }, async (page) => {
      await toGraph(page)
      await page.click('[data-test="graph-search"]')
      await page.keyboard.type('widget')
      await page.waitForSelector('[data-test="graph-view"][data-answered="widget"]')
      await page.locator('.n-base-select-option:visible').nth(2).waitFor()
      const opts = await page.locator('.n-base-select-option:visible').allInnerTexts()
      const want = language === 'en' ? ['global', 'project acme-billing', 'agent codex'] : ['全局', '项目 acme-billing', '智能体 codex']
      await check(opts.length === 3 && new Set(opts).size === 3 && want.every((w) => opts.some((o) => o.includes(w))), `three Widgets, each with its scope: ${opts.join(' | ')}`)
    })
  }
  // Add relation: an end of another scope than the memory is said to become a new entity there.
  for (const [name, language, theme] of [['en-light-graph-add-scope', 'en', 'light'], ['zh-dark-graph-add-scope', 'zh-CN', 'dark']]) {
    await open(name, { language, theme, graphScopes: true }, async (page) => {
      await toGraph(page)
      await focusEntity(page, 'alice', 'Alice Chen', 'alice')
      await page.click('[data-test="graph-panel-add"]')
      await page.waitForSelector('[data-test="graph-panel"][data-kind="add"] [data-test="graph-add-from"]')
      await pick(page, 'graph-add-to', 'dave', 'Dave Kim')
      await page.waitForSelector('[data-test="graph-add-form"][data-memories="ready"]')
      await page.click('[data-test="graph-add-memory"]')
      await page.locator('.n-base-select-option:visible', { hasText: 'Prefers concise answers' }).click()
      await page.waitForSelector('[data-test="graph-add-form"][data-memory-scope="ready"]')
      // A global memory: Dave Kim (project acme-billing) would become a new global "Dave Kim".
      await page.waitForSelector('[data-test="graph-add-scope-note"][data-end="to"][data-warn="true"]')
      await check(page.locator('[data-test="graph-add-scope-note"][data-end="from"]').count().then((n) => n === 0), 'Alice Chen is global like the memory')
      const note = await page.locator('[data-test="graph-add-scope-note"][data-end="to"]').innerText()
      await check(note.includes('Dave Kim') && note.includes('acme-billing'), `the warning names the entity and its scope: ${note}`)
    })
  }
  // The person's own entity is "You" / "你": found by it, named by it in the panel and the export.
  for (const [name, language, theme, q, you] of [['en-light-graph-you', 'en', 'light', 'you', 'You'], ['zh-dark-graph-you', 'zh-CN', 'dark', '你', '你']]) {
    await open(name, { language, theme, graphScopes: true }, async (page) => {
      await toGraph(page)
      await focusEntity(page, q, you, 'me')
      await check(page.locator('[data-test="graph-panel-title"]').innerText().then((s) => s.trim() === you), 'the panel names it')
      await check(page.locator('[data-test="graph-relation"]').first().innerText().then((s) => s.includes(you) && !s.includes('User')), 'its relations name it')
      const [svg] = await Promise.all([page.waitForEvent('download'), page.click('[data-test="graph-export-svg"]')])
      const text = fs.readFileSync(await svg.path(), 'utf8')
      await check(text.includes(`>${you}<`) && !text.includes('>User<'), 'the picture names it')
    })
  }
  // 800 × 600: the whole graph, every node labelled, clear of the legend and the zoom buttons;
  // then a side panel open (focus, depth 2; Add relation): the view is fitted beside it.
  for (const [name, language, theme, renderer] of [
    ['en-light-graph-800', 'en', 'light', ''],
    ['zh-dark-graph-800', 'zh-CN', 'dark', ''],
    ['en-light-graph-800-canvas', 'en', 'light', 'cytoscape'],
  ]) {
    await open(name, { language, theme, graphScopes: true }, async (page) => {
      await page.setViewportSize({ width: 800, height: 600 })
      if (renderer) await page.evaluate((r) => localStorage.setItem('engram.graph.renderer', r), renderer)
      await toGraph(page)
      if (renderer) await page.waitForSelector(`[data-test="graph-canvas"][data-renderer="${renderer}"]`)
      const nodes = Number(await attr(page, 'data-nodes'))
      await check(labelCount(page).then((n) => n === nodes), `all ${nodes} nodes labelled`)
      const out = await hidden(page)
      await check(out.length === 0, `overview: ${out.join('; ')}`)
    })
    await open(`${name}-panel`, { language, theme, graphScopes: true }, async (page) => {
      await page.setViewportSize({ width: 800, height: 600 })
      if (renderer) await page.evaluate((r) => localStorage.setItem('engram.graph.renderer', r), renderer)
      await toGraph(page)
      await focusEntity(page, 'acme', 'Acme', 'acme')
      await page.click('[data-test="graph-depth"] [data-depth="2"]')
      await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"][data-focus="acme"][data-nodes="12"]')
      await page.waitForFunction(() => {
        const c = document.querySelector('[data-test="graph-canvas"]')
        return c.dataset.size === `${c.clientWidth}x${c.clientHeight}`
      })
      let out = await hidden(page)
      await check(out.length === 0, `focus, depth 2: ${out.join('; ')}`)
      await page.click('[data-test="graph-add-relation"]')
      await page.waitForSelector('[data-test="graph-panel"][data-kind="add"]')
      // The focus is in the form's first field to fill (Acme is chosen: the type), not on the
      // button a dozen Tabs away.
      await page.waitForFunction(() => document.activeElement?.closest('[data-test="graph-add-type"]'), undefined, { timeout: 15_000 }).catch(() => {})
      await check(page.evaluate(() => !!document.activeElement?.closest('[data-test="graph-add-type"]')), 'Add relation put the focus in the relation type')
      // The renderer followed the canvas's new size (beside the panel).
      await page.waitForFunction(() => {
        const c = document.querySelector('[data-test="graph-canvas"]')
        const p = document.querySelector('[data-test="graph-panel"]').getBoundingClientRect()
        return c.getBoundingClientRect().right <= p.left + 1 && c.dataset.size === `${c.clientWidth}x${c.clientHeight}`
      })
      out = await hidden(page)
      await check(out.length === 0, `Add relation open: ${out.join('; ')}`)
      // Escape closes the form (no key did) and gives the focus back to its button.
      await page.locator('[data-test="graph-panel"] input').first().focus()
      await page.keyboard.press('Escape')
      await page.waitForSelector('[data-test="graph-panel"][data-kind="add"]', { state: 'detached' })
      await check(page.evaluate(() => document.activeElement?.closest('[data-test="graph-add-relation"]') !== null), 'Escape gave the focus back to Add relation')
      await page.keyboard.press('Enter') // the button it holds opens the form again, for the shot
      await page.waitForSelector('[data-test="graph-panel"][data-kind="add"]')
    })
  }
}
