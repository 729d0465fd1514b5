// Organizer → an applied run → Undo run: the confirmation lists what comes back (from the
// trash, put back as before) and a change left because its keeper was edited after the run,
// in both languages; once confirmed, the run says it was undone and offers no second undo.
export default async function ({ open, check, COMBOS }) {
  const applyAll = async (page) => {
    await page.click('[data-test="nav-organizer"]')
    await page.waitForSelector('[data-test="run-detail"] [data-test="decision"]')
    await page.click('[data-test="choose-all"]')
    await page.click('[data-test="apply-selected"]')
    await page.waitForSelector('.n-dialog')
    await page.locator('.n-dialog__action .n-button').last().click()
    await page.waitForSelector('[data-test="decision"][data-decision="d001"][data-status="applied"]')
    await page.waitForSelector('.n-dialog', { state: 'detached' })
  }
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-organizer-undo-confirm`, { language, theme: th, organizer: 'report' }, async (page) => {
      await applyAll(page)
      await page.evaluate(() => (window.__FAKE_UNDO_CONFLICT__ = 'd002'))
      await page.click('[data-test="run-undo"]')
      await page.waitForSelector('.n-dialog [data-test="undo-preview"]')
      await check(page.locator('[data-test="undo-restore"]').count().then((n) => n === 1), 'the merged-away memory is listed as coming back')
      await check(page.locator('[data-test="undo-revert"]').count().then((n) => n === 2), 'the keeper and the memory sent to review are put back')
      await check(page.locator('[data-test="undo-left"]').count().then((n) => n === 1), 'the change whose keeper was edited is left, said why')
      await check(page.locator('[data-test="undo-left"]').innerText().then((s) => !s.includes('{{') && !s.includes('organizer.')), 'the reason is translated')
    })
  }
  await open('en-light-organizer-undone', { language: 'en', theme: 'light', organizer: 'report' }, async (page) => {
    await applyAll(page)
    await page.evaluate(() => (window.__FAKE_UNDO_CONFLICT__ = 'd002'))
    await page.click('[data-test="run-undo"]')
    await page.waitForSelector('.n-dialog [data-test="undo-preview"]')
    await page.locator('.n-dialog__action .n-button').last().click()
    await page.waitForSelector('[data-test="run-undone"] [data-test="undo-left"]')
    await check(page.locator('[data-test="run-undo"]').count().then((n) => n === 0), 'an undone run offers no second undo')
    await page.waitForSelector('.n-dialog', { state: 'detached' })
  })
}
