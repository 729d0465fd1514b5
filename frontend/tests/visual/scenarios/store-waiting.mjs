// The desktop window whose store is still opening (another process holds the home, or its index
// is being upgraded): Go says so once a second (store.waiting, the seconds waited) and the page
// shows why it waits, until store.open. Both languages and themes.
export default async function ({ open, check, COMBOS }) {
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-store-waiting`, { language, theme: th }, async (page) => {
      await check(page.locator('[data-test="store-waiting"]').count().then((n) => n === 0), 'nothing said while the store is open')
      await page.evaluate(() => window.__fakeEmit('store.waiting', 12))
      await page.waitForSelector('[data-test="store-waiting"]')
      await check(page.locator('[data-test="store-waiting"]').innerText().then((s) => s.includes('12')), 'the seconds waited are shown')
      await page.evaluate(() => window.__fakeEmit('store.waiting', 13))
      await page.waitForFunction(() => document.querySelector('[data-test="store-waiting"]').innerText.includes('13'))
      await page.evaluate(() => window.__fakeEmit('store.open'))
      await page.waitForSelector('[data-test="store-waiting"]', { state: 'detached' })
      // Shown again for the screenshot.
      await page.evaluate(() => window.__fakeEmit('store.waiting', 12))
      await page.waitForSelector('[data-test="store-waiting"]')
    })
  }
}
