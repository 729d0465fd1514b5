// Settings → Storage (charts of every scope and of the size over time), Settings → Data with
// an import preview and reindex progress, and the quota banner's organize button — both
// languages, light and dark.
export default async function ({ open, check, COMBOS }) {
  const openSettings = async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="storage"][data-state="ready"][data-drawn="yes"]')
  }
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-data-storage`, { language, theme: th, quota: 'degraded' }, async (page) => {
      await openSettings(page)
      await page.waitForSelector('[data-test="storage-scopes-chart"] svg')
      await page.waitForSelector('[data-test="storage-history-chart"] svg')
      await check(page.locator('[data-test="storage-table"] tbody tr').count().then((n) => n === 3), 'three scopes in the table')
      await page.locator('[data-test="settings-storage"]').scrollIntoViewIfNeeded()
    })
    // On a phone the drawer is the window's width: every column of the table shows whole, no
    // sideways scroll (in English "Unreviewed" and its numbers were cut at the edge).
    await open(`${l}-${th}-data-storage-360`, { language, theme: th, quota: 'degraded' }, async (page) => {
      await page.setViewportSize({ width: 360, height: 740 })
      await page.click('[data-test="nav-menu"]')
      await page.waitForSelector('.shell.nav-open .sider')
      await openSettings(page)
      await page.locator('[data-test="storage-table"]').scrollIntoViewIfNeeded()
      const fit = await page.locator('[data-test="storage-table"]').evaluate((t) => {
        const wrap = t.parentElement
        return { scroll: wrap.scrollWidth, client: wrap.clientWidth }
      })
      await check(fit.scroll <= fit.client + 1, `the storage table is wider than the drawer: ${fit.scroll} > ${fit.client}`)
    })
    await open(`${l}-${th}-data-import-preview`, { language, theme: th }, async (page) => {
      await openSettings(page)
      await page.locator('[data-test="data-import-file"]').setInputFiles({ name: 'engram-export-2026-11-30.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from('{"slug":"x"}\n') })
      await page.waitForSelector('[data-test="import-preview"][data-state="preview"]')
      await check(page.locator('[data-test="count-new"]').textContent().then((s) => s.trim() === '180'), 'new count shown')
      await check(page.locator('[data-test="import-conflicts"] li').count().then((n) => n === 3), 'conflicts listed')
      await page.locator('[data-test="import-preview"]').scrollIntoViewIfNeeded()
    })
    // Another tool's memories from a path (desktop window): the format picked, the path and
    // project given, previewed, then applied with the same source.
    await open(`${l}-${th}-data-import-other`, { language, theme: th }, async (page) => {
      await openSettings(page)
      await page.locator('[data-test="import-format"]').scrollIntoViewIfNeeded()
      await page.click('[data-test="import-format"]')
      await page.waitForSelector('.n-base-select-option--pending:visible')
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('Enter')
      await page.waitForSelector('[data-test="import-source"][data-format="mem0"]')
      await page.locator('[data-test="import-path"] input').fill('/home/ada/Downloads/mem0-export.json')
      await page.locator('[data-test="import-workdir"] input').fill('/home/ada/src/acme-billing')
      await page.click('[data-test="import-preview-path"]')
      await page.waitForSelector('[data-test="import-preview"][data-state="preview"]')
      const sent = await page.evaluate(() => window.__LAST_IMPORT_PREVIEW__)
      await check(sent?.format === 'mem0' && sent?.path === '/home/ada/Downloads/mem0-export.json' && sent?.workdir === '/home/ada/src/acme-billing', `preview asked for the path: ${JSON.stringify(sent)}`)
      await page.locator('[data-test="import-preview"]').scrollIntoViewIfNeeded()
      if (l === 'en' && th === 'light') {
        await page.click('[data-test="import-apply"]')
        await page.waitForSelector('[data-test="import-preview"][data-state="done"] [data-test="import-result"]')
        const applied = await page.evaluate(() => window.__LAST_IMPORT__)
        await check(applied?.format === 'mem0' && applied?.path === '/home/ada/Downloads/mem0-export.json', `apply used the previewed source: ${JSON.stringify(applied)}`)
      }
    })
    // The memories as a Markdown folder (desktop window): the path sent, the counts shown.
    await open(`${l}-${th}-data-export-folder`, { language, theme: th }, async (page) => {
      await openSettings(page)
      await page.locator('[data-test="export-folder"]').scrollIntoViewIfNeeded()
      await page.locator('[data-test="export-folder-path"] input').fill('/home/ada/engram-vault')
      await page.click('[data-test="export-folder-run"]')
      await page.waitForSelector('[data-test="export-folder"][data-state="done"]')
      await page.waitForSelector('[data-test="export-folder-done"]')
      const sent = await page.evaluate(() => window.__LAST_EXPORT_FOLDER__)
      await check(sent?.markdown === '/home/ada/engram-vault', `export asked for the folder: ${JSON.stringify(sent)}`)
      await check(page.locator('[data-test="export-folder-done"]').textContent().then((s) => s.includes('/home/ada/engram-vault')), 'the folder is named')
    })
    await open(`${l}-${th}-data-reindex-progress`, { language, theme: th, holdIndex: 'index' }, async (page) => {
      await openSettings(page)
      await page.click('[data-test="data-reindex"]')
      await page.waitForSelector('[data-test="maint"][data-state="running"][data-phase="index"]')
      await page.locator('[data-test="maint"]').scrollIntoViewIfNeeded()
    })
    await open(`${l}-${th}-data-banner`, { language, theme: th, quota: 'critical' }, async (page) => {
      await page.waitForSelector('[data-test="quota-banner"] [data-test="quota-organize"][data-state="idle"]')
    })
  }
  // The run ends and its findings are listed (doctor), and the banner's button starts a run
  // for the scope it sits beside and shows it in the Organizer.
  await open('en-light-data-doctor-findings', { language: 'en', theme: 'light' }, async (page) => {
    await openSettings(page)
    await page.click('[data-test="data-doctor"]')
    await page.waitForSelector('[data-test="maint"][data-op="doctor"][data-state="done"] [data-test="maint-findings"] li')
    await check(page.locator('[data-test="maint-findings"] li').count().then((n) => n === 2), 'two findings listed')
    await page.locator('[data-test="maint"]').scrollIntoViewIfNeeded()
  })
  await open('zh-dark-data-reindex-done', { language: 'zh-CN', theme: 'dark' }, async (page) => {
    await openSettings(page)
    await page.click('[data-test="data-reindex"]')
    await page.waitForSelector('[data-test="maint"][data-op="reindex"][data-state="done"] [data-test="maint-result"]')
    await page.locator('[data-test="maint"]').scrollIntoViewIfNeeded()
  })
  await open('en-light-data-banner-run', { language: 'en', theme: 'light', quota: 'critical' }, async (page) => {
    await page.click('[data-test="quota-organize"][data-scope="global:global"]')
    await page.waitForSelector('[data-test="run-detail"]')
    await check(page.evaluate(() => window.__FAKE_LAST_RUN_NOW__?.scope === 'global'), 'runNow asked for the global scope')
  })
}
