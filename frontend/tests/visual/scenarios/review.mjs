// Review: the queue with a flagged (prompt-injection) item and its evidence and source turn,
// a reject with its Undo toast, and "all caught up"; both languages, light and dark.
export default async function ({ open, check, COMBOS }) {
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-review-flagged`, { language, theme: th, review: 'queue' }, async (page) => {
      await page.click('[data-test="nav-review"]')
      await page.waitForSelector('[data-test="review-view"][data-state="ready"]')
      await check(page.locator('[data-test="nav-review-count"]').isVisible(), 'the unreviewed count is in the navigation')
      await page.click('[data-test="review-item"][data-flagged="true"]')
      await page.waitForSelector('[data-test="review-current"][data-loaded="true"] [data-test="risky-banner"]')
      await page.waitForSelector('[data-test="review-turn"]')
    })
  }
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-review-rejected-toast`, { language, theme: th, review: 'queue' }, async (page) => {
      await page.click('[data-test="nav-review"]')
      await page.waitForSelector('[data-test="review-view"][data-state="ready"]')
      const first = await page.locator('[data-test="review-item"]').first().getAttribute('data-id')
      const n = Number(await page.locator('[data-test="review-view"]').getAttribute('data-count'))
      await page.keyboard.press('r')
      await page.waitForSelector(`[data-test="review-view"][data-count="${n - 1}"]`)
      await page.waitForSelector('[data-test="review-toast-undo"]')
      await check(page.locator(`[data-test="review-item"][data-id="${first}"]`).count().then((c) => c === 0), 'the rejected item left the queue')
      await check(page.locator('[data-test="review-item"].current').count().then((c) => c === 1), 'the selection advanced to the next item')
    })
  }
  for (const [l, th, language] of [COMBOS[1], COMBOS[2]]) {
    await open(`${l}-${th}-review-empty`, { language, theme: th, review: 'empty' }, async (page) => {
      await page.click('[data-test="nav-review"]')
      await page.waitForSelector('[data-test="review-view"][data-state="empty"] [data-test="review-empty"]')
    })
  }
}
