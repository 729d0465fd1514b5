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
    await open(`${l}-${th}-data-import-preview`, { language, theme: th }, async (page) => {
      await openSettings(page)
      await page.locator('[data-test="data-import-file"]').setInputFiles({ name: 'engram-export-2026-11-30.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from('{"slug":"x"}\n') })
      await page.waitForSelector('[data-test="import-preview"][data-state="preview"]')
      await check(page.locator('[data-test="count-new"]').textContent().then((s) => s.trim() === '180'), 'new count shown')
      await check(page.locator('[data-test="import-conflicts"] li').count().then((n) => n === 3), 'conflicts listed')
      await page.locator('[data-test="import-preview"]').scrollIntoViewIfNeeded()
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
