// The reader's History card with git history on: versions with their diffs (the newest opened),
// and a restore that becomes the current version; git history off offers to turn it on. Both
// languages, light and dark.
export default async function ({ open, check, selectNth, COMBOS }) {
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-history-versions`, { language, theme: th, git: true }, async (page) => {
      await selectNth(1)(page)
      await page.waitForSelector('[data-test="memory-versions"][data-state="ready"] [data-test="version"][data-open="true"] [data-test="version-diff"]')
      await check(page.locator('[data-test="version"]').count().then((n) => n === 3), 'three versions listed')
      await check(page.locator('[data-test="version-diff"] .add, [data-test="version-diff"] .del').count().then((n) => n > 0), 'the diff shows changed lines')
      await check(page.locator('[data-test="version"]').first().locator('[data-test="version-restore"]').count().then((n) => n === 0), 'the current version has no restore button')
      await page.locator('[data-test="memory-versions"]').scrollIntoViewIfNeeded()
    })
  }
  await open('en-light-history-restore', { language: 'en', theme: 'light', git: true }, async (page) => {
    await selectNth(1)(page)
    await page.waitForSelector('[data-test="memory-versions"][data-state="ready"] [data-test="version"]')
    const oldest = page.locator('[data-test="version"]').last()
    const short = await oldest.getAttribute('data-commit')
    await oldest.locator('[data-test="version-restore"]').click()
    await page.locator('.n-dialog .n-button--warning-type').click()
    await page.waitForFunction(() => document.querySelectorAll('[data-test="version"]').length === 4)
    await check(page.locator('[data-test="version"]').first().getAttribute('data-commit').then((c) => c !== short), 'the restore is a new version on top')
    await page.locator('[data-test="memory-versions"]').scrollIntoViewIfNeeded()
  })
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-history-off`, { language, theme: th }, async (page) => {
      await selectNth(0)(page)
      await page.waitForSelector('[data-test="memory-versions"][data-state="off"] [data-test="versions-enable"]')
      await page.locator('[data-test="memory-history"]').scrollIntoViewIfNeeded()
    })
  }
  await open('zh-light-history-enable', { language: 'zh-CN', theme: 'light' }, async (page) => {
    await selectNth(0)(page)
    await page.click('[data-test="versions-enable"]')
    await page.waitForSelector('[data-test="memory-versions"][data-state="ready"] [data-test="version"]')
  })
  // Settings → Data: the deleted memories the history keeps, one restored from there.
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-history-deleted`, { language, theme: th, git: true }, async (page) => {
      await page.click('[data-test="open-settings"]')
      await page.waitForSelector('[data-test="git-settings"][data-state="ready"][data-enabled="true"]')
      await page.click('[data-test="git-deleted-show"]')
      await page.waitForSelector('[data-test="git-deleted"][data-state="ready"] [data-test="git-deleted-item"]')
      await check(page.locator('[data-test="git-deleted-item"]').count().then((n) => n === 2), 'two deleted memories listed')
      await page.locator('[data-test="git-deleted-item"]').first().locator('[data-test="git-deleted-restore"]').click()
      await page.waitForSelector('[data-test="git-deleted-item"][data-restored="true"] [data-test="git-deleted-restored"]')
      await page.locator('[data-test="git-deleted"]').scrollIntoViewIfNeeded()
    })
  }
  // Settings → Data: git history on with a remote; Sync now merges and lists the conflict copy.
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-history-settings-sync`, { language, theme: th, git: 'remote' }, async (page) => {
      await page.click('[data-test="open-settings"]')
      await page.waitForSelector('[data-test="git-settings"][data-state="ready"][data-enabled="true"]')
      await page.click('[data-test="git-sync"]')
      await page.waitForSelector('[data-test="git-sync-result"][data-conflicts="2"] [data-test="git-conflict"]')
      // One count by kind, and the kv key both set named with its agent and both values.
      const text = await page.locator('[data-test="git-sync-result"]').innerText()
      await check(Promise.resolve(language === 'en' ? text.includes('3 files changed here (1 memory, 1 agent key file, 1 conflict copy)') : text.includes('3 个文件')), 'the count by kind')
      await check(Promise.resolve(text.includes('1.5.0') && text.includes('1.4.2') && text.includes('claude')), 'the kv conflict names the agent and both values')
      // The merge was then sent: said below the counts (it went unsaid).
      await check(page.locator('[data-test="git-sync-sent"]').count().then((n) => n === 1), 'the merge sent is said')
      await page.locator('[data-test="git-settings"]').scrollIntoViewIfNeeded()
    })
  }
  // The next sync fast-forwards to the other machine's merge: what it replaced here is named.
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-history-settings-replaced`, { language, theme: th, git: 'remote' }, async (page) => {
      await page.click('[data-test="open-settings"]')
      await page.waitForSelector('[data-test="git-settings"][data-state="ready"][data-enabled="true"]')
      await page.click('[data-test="git-sync"]')
      await page.waitForSelector('[data-test="git-sync-result"][data-conflicts="2"]')
      await page.click('[data-test="git-sync"]')
      await page.waitForSelector('[data-test="git-sync-result"] [data-test="git-replaced"]')
      await check(page.locator('[data-test="git-replaced"]').count().then((n) => n === 2), 'both replacements listed')
      const text = await page.locator('[data-test="git-sync-result"]').innerText()
      await check(Promise.resolve(!text.includes('{{') && text.includes('1.4.2')), 'the replaced kv value names this machine\'s value')
      await page.locator('[data-test="git-sync-result"]').scrollIntoViewIfNeeded()
    })
  }
  // The sync schedule is a setting: a new interval is saved and shown, 0 means on demand only,
  // and a value out of range never reaches the server (the field clamps it).
  await open('en-light-history-settings-schedule', { language: 'en', theme: 'light', git: 'remote' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="git-settings"][data-state="ready"] [data-test="git-sync-minutes"][data-saved="15"]')
    const field = page.locator('[data-test="git-sync-minutes"] input')
    await field.fill('30')
    await field.press('Enter')
    await page.waitForSelector('[data-test="git-sync-minutes"][data-saved="30"]')
    await page.waitForFunction(() => document.querySelector('[data-test="git-schedule"]')?.textContent?.includes('30 minutes'))
    await field.fill('0')
    await field.press('Enter')
    await page.waitForSelector('[data-test="git-sync-minutes"][data-saved="0"]')
    await page.waitForFunction(() => document.querySelector('[data-test="git-schedule"]')?.textContent?.includes('only when'))
    await page.locator('[data-test="git-settings"]').scrollIntoViewIfNeeded()
  })
  await open('en-dark-history-settings-off', { language: 'en', theme: 'dark' }, async (page) => {
    await page.click('[data-test="open-settings"]')
    await page.waitForSelector('[data-test="git-settings"][data-state="ready"][data-enabled="false"]')
    await page.click('[data-test="git-toggle"]')
    await page.waitForSelector('[data-test="git-settings"][data-enabled="true"] [data-test="git-remote"]')
    await page.locator('[data-test="git-settings"]').scrollIntoViewIfNeeded()
  })
  // Review of a sync's conflict copy: the memory it conflicts with is shown beside it.
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-history-conflict-review`, { language, theme: th, git: 'conflict' }, async (page) => {
      await page.click('[data-test="nav-review"]')
      await page.waitForSelector('[data-test="review-view"][data-state="ready"]')
      await page.click('[data-test="review-item"][data-id="01JDCONFLICTCOPY00000000000"]')
      await page.waitForSelector('[data-test="review-current"][data-loaded="true"] [data-test="review-conflict-other"] .body')
      await check(page.locator('[data-test="review-conflict-other"]').count().then((n) => n === 1), 'the original is shown beside the copy')
      // A sync's copy is explained as one (an extractor's proposal or another pair reads otherwise).
      await check(page.locator('[data-test="review-conflict-hint"][data-kind="sync"]').count().then((n) => n === 1), 'the hint speaks of the other machine')
    })
  }
}
