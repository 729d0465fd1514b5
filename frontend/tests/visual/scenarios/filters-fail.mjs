// The Memories list loads naive-ui's select (its own chunk) when its pickers are wanted (the
// pointer over them, a press, a key: SelectFacade.vue). When that
// load fails (a remote browser whose page outlived an upgrade, a dropped link) the pickers must
// not stay drawn but dead: the list says the filters could not load and offers a retry, which
// brings the real pickers. Both languages and themes.
export default async function ({ open, check, COMBOS }) {
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-filters-load-failed`, { language, theme: th, empty: true, allowConsole: 'Failed to load resource' }, async (page) => {
      let refuse = true
      await page.route(/\/assets\/naiveSelect-[^/]*\.js$/, (route) => (refuse ? route.abort('failed') : route.continue()))
      await page.reload()
      await page.waitForSelector('.list-pane[data-state="ready"]')
      await page.hover('.filters')
      await page.waitForSelector('[data-test="filters-load-failed"]')
      await check(page.locator('.filters .select-facade').count().then((n) => n === 0), 'no drawn pickers once the load failed')
      const text = await page.locator('[data-test="filters-load-failed"]').innerText()
      await check(Promise.resolve(text.includes(language === 'en' ? 'Could not load the filters' : '无法加载筛选器')), `the failure is said in the page's language: ${text}`)
      await page.screenshot({ path: `${process.argv[2] || '../build/shots'}/${l}-${th}-filters-load-failed-before-retry.png` }).catch(() => {})
      refuse = false
      await page.click('[data-test="filters-retry"]')
      await page.waitForSelector('.filters .n-select')
      await check(page.locator('.filters .n-select').count().then((n) => n === 3), 'the retry brings the three real pickers')
      await check(page.locator('[data-test="filters-load-failed"]').count().then((n) => n === 0), 'the failure is gone after the retry')
    })
  }
}
