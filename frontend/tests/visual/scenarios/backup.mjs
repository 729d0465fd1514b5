// Settings → Data → Backup and upkeep: the backups list and schedule, a backup running (its
// progress bar), a restore previewed from its manifest, a refused hostile archive, the cleanup
// dry run, and doctor's findings with their fix commands — both languages, light and dark.
export default async function ({ open, check, COMBOS }) {
  const openData = async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="backup-settings"] [data-test="backup-list"] li, [data-test="backup-settings"] [data-test="backup-list-empty"]')
  }
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-backup-list`, { language, theme: th }, async (page) => {
      await openData(page)
      await check(page.locator('[data-test="backup-list"] li').count().then((n) => n === 3), 'three backups listed')
      await page.waitForSelector('[data-test="backup-next"]')
      await page.locator('[data-test="backup-schedule"]').scrollIntoViewIfNeeded()
    })
    await open(`${l}-${th}-backup-running`, { language, theme: th, holdBackup: 'files' }, async (page) => {
      await openData(page)
      await page.click('[data-test="backup-now"]')
      await page.waitForSelector('[data-test="backup-progress"][data-op="backup"][data-phase="files"]')
      await page.locator('[data-test="backup-progress"]').scrollIntoViewIfNeeded()
    })
    await open(`${l}-${th}-backup-restore-preview`, { language, theme: th }, async (page) => {
      await openData(page)
      await page.locator('[data-test="backup-restore-pick"]').nth(1).click()
      await page.waitForSelector('[data-test="backup-restore"][data-state="preview"] [data-test="backup-manifest"]')
      await check(page.locator('[data-test="manifest-memories"]').textContent().then((s) => s.trim() === '409'), 'manifest memories shown')
      // What the restore would remove or put back here is said before the confirm: the first
      // six files of each list, then how many more.
      await check(page.locator('[data-test="backup-diff-removed-file"]').count().then((n) => n === 6), 'six removed files listed')
      await check(page.locator('[data-test="backup-diff-changed-file"]').count().then((n) => n === 2), 'two changed files listed')
      await check(page.locator('[data-test="backup-diff-removed"]').textContent().then((s) => s.includes('9')), 'the removed count is whole')
      await page.locator('[data-test="backup-restore"]').scrollIntoViewIfNeeded()
    })
    await open(`${l}-${th}-backup-doctor-fixes`, { language, theme: th, backupDoctor: true }, async (page) => {
      await openData(page)
      await page.click('[data-test="data-doctor"]')
      await page.waitForSelector('[data-test="maint"][data-op="doctor"][data-state="done"] [data-test="maint-findings"]')
      await check(page.locator('[data-test="finding-fix"]').count().then((n) => n === 3), 'three fix commands')
      await page.locator('[data-test="maint"]').scrollIntoViewIfNeeded()
    })
  }
  // Cancel on a restore preview gives the focus back to the Restore button that opened it (it
  // was left on <body>, outside the Settings drawer: Tab then started from the page's top).
  await open('zh-dark-backup-restore-cancel-focus', { language: 'zh-CN', theme: 'dark' }, async (page) => {
    await openData(page)
    const name = await page.locator('[data-test="backup-list"] li').nth(1).getAttribute('data-name')
    await page.locator('[data-test="backup-restore-pick"]').nth(1).focus()
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-test="backup-restore"][data-state="preview"] [data-test="backup-manifest"]')
    await page.locator('[data-test="backup-restore-cancel"]').focus()
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-test="backup-restore"]', { state: 'detached' })
    const at = () => page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('data-name') ?? document.activeElement?.tagName)
    await page.waitForFunction((n) => document.activeElement?.closest('li')?.getAttribute('data-name') === n, name, { timeout: 5000 }).catch(() => {})
    await check(at().then((a) => a === name), `the focus is back on the backup's Restore button (${name})`)
  })
  // A restore confirmed in place says where the previous state went; a hostile archive is
  // refused with its translated message; the cleanup preview lists what would go, then goes.
  await open('en-light-backup-restored', { language: 'en', theme: 'light' }, async (page) => {
    await openData(page)
    await page.locator('[data-test="backup-restore-pick"]').first().click()
    await page.waitForSelector('[data-test="backup-restore"][data-state="preview"]')
    await page.click('[data-test="backup-restore-confirm"]')
    await page.waitForSelector('[data-test="backup-restore"][data-state="done"] [data-test="backup-pre"]')
    // What the restore kept of this home's history and left out of the backup's git settings.
    await check(page.locator('[data-test="backup-kept-history"]').count().then((n) => n === 1), 'the kept history is said')
    await check(page.locator('[data-test="backup-git-config-dropped"]').textContent().then((s) => s.includes('core.fsmonitor, include.path')), 'the git settings left out are named')
    await page.locator('[data-test="backup-restore"]').scrollIntoViewIfNeeded()
  })
  for (const [name, language, theme] of [['en-light-backup-hostile', 'en', 'light'], ['zh-dark-backup-hostile', 'zh-CN', 'dark']]) {
    await open(name, { language, theme }, async (page) => {
      await openData(page)
      await page.fill('[data-test="backup-restore-path"] input', '/tmp/hostile.tar.gz')
      await page.click('[data-test="backup-restore-preview"]')
      await page.waitForSelector('[data-test="backup-restore"][data-state="failed"] [data-test="backup-restore-error"]')
      await check(page.locator('[data-test="backup-restore-error"]').textContent().then((s) => s.includes('authorized_keys') && !s.includes('error.')), 'translated refusal')
      await page.locator('[data-test="backup-restore"]').scrollIntoViewIfNeeded()
    })
  }
  for (const [name, language, theme] of [['en-dark-backup-cleanup', 'en', 'dark'], ['zh-light-backup-cleanup', 'zh-CN', 'light']]) {
    await open(name, { language, theme }, async (page) => {
      await openData(page)
      await page.click('[data-test="maint-vacuum"]')
      await page.waitForSelector('[data-test="vacuum-result"]')
      await page.click('[data-test="cleanup-preview"]')
      await page.waitForSelector('[data-test="cleanup"][data-state="preview"]')
      await check(page.locator('[data-test="cleanup"] li').count().then((n) => n === 4), 'four files listed')
      await page.locator('[data-test="cleanup"]').scrollIntoViewIfNeeded()
    })
  }
}
