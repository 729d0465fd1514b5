// The shell: narrow (360 px) and 4K layouts, the shortcuts dialog, [[links]] in the reader,
// a long windowed list, keyboard-only use. Both languages and themes.
export default async function ({ open, check, settled, COMBOS }) {
  const size = (w, h) => async (page) => page.setViewportSize({ width: w, height: h })

  for (const [l, th, language] of COMBOS) {
    // 360 × 740: the list alone, then a memory with its way back.
    await open(`${l}-${th}-shell-360-list`, { language, theme: th }, async (page) => {
      await size(360, 740)(page)
      await check(page.locator('[data-test="nav-menu"]').isVisible(), 'menu button shown at 360 px')
      // The nav slides out of view (a short transition) once the page is narrow.
      await page.waitForFunction(() => getComputedStyle(document.querySelector('.sider')).visibility === 'hidden')
      // The Review count was only in the hidden navigation: the bar shows it, and opens Review.
      await page.waitForSelector('[data-test="top-review-count"]')
      await check(page.locator('[data-test="top-review-count"]').innerText().then((s) => s.trim() === '3'), 'the bar shows the three memories to review')
    })
    await open(`${l}-${th}-shell-360-reader`, { language, theme: th, links: true }, async (page) => {
      await size(360, 740)(page)
      await page.locator('.item').first().click()
      await page.waitForSelector('[data-test="reader-title"]')
      await page.waitForSelector('[data-test="reader-back"]')
      await check(page.locator('.list-pane').isHidden(), 'list hidden while reading at 360 px')
      await page.waitForSelector('.markdown-body a.wikilink-memory')
    })
    // An unreviewed memory at 360 px: the "Not reviewed yet" card puts Reject / Accept under its
    // words and the title has Edit / Delete under it (beside them, the words had 50–90 px and
    // broke every few characters, the title ~130 px).
    await open(`${l}-${th}-shell-360-unreviewed`, { language, theme: th }, async (page) => {
      await size(360, 740)(page)
      await page.locator('.item:has(.dot)').first().click()
      await page.waitForSelector('[data-test="review-card"] [data-test="review-hint"]')
      const w = await page.locator('[data-test="review-hint"]').evaluate((e) => e.getBoundingClientRect().width)
      await check(w >= 220, `the hint of an unreviewed memory keeps the card's width: ${w} px`)
      const title = await page.locator('[data-test="reader-title"]').evaluate((e) => e.getBoundingClientRect().width)
      await check(title >= 240, `the title keeps the reader's width: ${title} px`)
    })
    await open(`${l}-${th}-shell-360-menu`, { language, theme: th }, async (page) => {
      await size(360, 740)(page)
      await page.click('[data-test="nav-menu"]')
      await page.waitForSelector('.shell.nav-open .sider')
      await page.waitForFunction(() => document.getAnimations().length === 0 || document.getAnimations().every((a) => a.playState !== 'running'))
    })
    // 360 × 740, Settings → Integrations: every client's tab can be reached (none is cut off).
    await open(`${l}-${th}-shell-360-integrations`, { language, theme: th }, async (page) => {
      await size(360, 740)(page)
      await page.click('[data-test="nav-menu"]')
      await page.click('[data-test="open-settings"]')
      await page.waitForSelector('[data-test="integrations"][data-state="ready"]')
      const tabs = page.locator('[data-test="integrations-tabs"] .n-tabs-tab[data-name]')
      await page.locator('[data-test="integrations-tabs"]').scrollIntoViewIfNeeded()
      const n = await tabs.count()
      for (let i = 0; i < n; i++) {
        await tabs.nth(i).click()
        const box = await tabs.nth(i).boundingBox()
        await check(box && box.x >= 0 && box.x + box.width <= 360 && box.width >= 24, `integrations tab ${i} on screen at 360 px: ${JSON.stringify(box)}`)
      }
      await tabs.nth(Math.min(2, n - 1)).click()
    })
    // 2560 × 1440 with a memory open.
    await open(`${l}-${th}-shell-4k`, { language, theme: th, links: true }, async (page) => {
      await size(2560, 1440)(page)
      await page.locator('.item').first().click()
      await page.waitForSelector('[data-test="reader-title"]')
    })
    // 1280 × 800 with memories to review: every navigation label is whole (none cut to "…").
    await open(`${l}-${th}-shell-nav-labels`, { language, theme: th }, async (page) => {
      await page.waitForSelector('.list-pane[data-state="ready"]')
      const cut = await page.evaluate(() =>
        [...document.querySelectorAll('.sider .nav-label')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent.trim()),
      )
      await check(cut.length === 0, `navigation labels cut: ${cut.join(', ')}`)
    })
    // The ? dialog.
    await open(`${l}-${th}-shell-shortcuts`, { language, theme: th }, async (page) => {
      await page.locator('body').press('?')
      await page.waitForSelector('[data-test="shortcuts-dialog"] [data-keys="g m"]')
      await check(page.locator('[data-test="shortcuts-dialog"] [data-keys="g o"]').count().then((n) => n === 1), 'g o listed')
      // naive-ui's own close button is named in the person's language (its English "close" is
      // replaced at build time: naiveLabels in vite.config.ts).
      const closeName = await page.locator('.shortcuts-dialog .n-base-close').first().getAttribute('aria-label')
      await check(closeName === (language === 'en' ? 'Close' : '关闭'), `close button named "${closeName}"`)
    })
    // The list focused from the keyboard: its focus ring keeps clear of the keys and words.
    await open(`${l}-${th}-shell-shortcuts-focus`, { language, theme: th }, async (page) => {
      await page.locator('body').press('?')
      await page.waitForSelector('[data-test="shortcuts-dialog"] [data-keys="g m"]')
      await page.focus('[data-test="shortcuts-groups"]')
      await page.keyboard.press('Shift')
      await check(page.evaluate(() => document.activeElement?.matches('[data-test="shortcuts-groups"]:focus-visible')), 'the list has a visible focus ring')
      const gap = await page.evaluate(() => {
        const g = document.querySelector('[data-test="shortcuts-groups"]').getBoundingClientRect()
        let min = Infinity
        for (const el of document.querySelectorAll('[data-test="shortcuts-groups"] h3, [data-test="shortcuts-groups"] kbd, [data-test="shortcuts-groups"] dd')) {
          const b = el.getBoundingClientRect()
          min = Math.min(min, b.left - g.left, g.right - b.right, b.top - g.top, g.bottom - b.bottom)
        }
        return min
      })
      await check(gap >= 6, `the focus ring is ${gap} px from the content`)
    })
    // Links in the reader: a memory link and an entity link; code stays literal.
    await open(`${l}-${th}-shell-links`, { language, theme: th, links: true }, async (page) => {
      await page.locator('.item').first().click()
      await page.waitForSelector('.markdown-body a.wikilink-memory')
      await page.waitForSelector('.markdown-body a.wikilink-entity')
      await check(page.locator('.markdown-body code').first().textContent().then((s) => s.includes('[[')), 'code keeps its brackets')
      await page.locator('.markdown-body a.wikilink-memory').focus()
    })
  }

  // Following a memory link opens that memory; an entity link (no graph yet) searches for it.
  await open('en-light-shell-link-follow', { language: 'en', theme: 'light', links: true }, async (page) => {
    await page.locator('.item').first().click()
    const from = await page.locator('[data-test="reader-title"]').textContent()
    await page.click('.markdown-body a.wikilink-memory')
    await page.waitForFunction(() => document.querySelector('[data-test="reader-title"]')?.textContent?.includes('concise'))
    // The desktop window has no Back button: Alt+← returns to the memory the link was on,
    // Alt+→ follows it again.
    await page.keyboard.press('Alt+ArrowLeft')
    await page.waitForFunction((t) => document.querySelector('[data-test="reader-title"]')?.textContent === t, from)
    await page.keyboard.press('Alt+ArrowRight')
    await page.waitForFunction(() => document.querySelector('[data-test="reader-title"]')?.textContent?.includes('concise'))
    await page.locator('.item[data-id]').first().click()
    await page.waitForSelector('.markdown-body a.wikilink-entity')
    await page.click('.markdown-body a.wikilink-entity')
    // The graph exists: an entity link opens the Graph view on that entity.
    await page.waitForSelector('[data-test="nav-graph"].active')
    await page.waitForSelector('[data-test="graph-view"]')
  })

  // Keyboard only: / types a search, Esc, j moves, Enter opens, e edits.
  for (const [l, th, language] of [COMBOS[0], COMBOS[3]]) {
    await open(`${l}-${th}-shell-keyboard`, { language, theme: th }, async (page) => {
      await page.locator('body').press('/')
      await check(page.evaluate(() => !!document.activeElement?.closest('[data-test="search"]')), 'search focused by /')
      await page.keyboard.type(language === 'en' ? 'neovim' : '香菜')
      await page.waitForSelector(`.list-pane[data-state="ready"][data-query="${language === 'en' ? 'neovim' : '香菜'}"]`)
      await page.keyboard.press('Escape')
      await page.keyboard.press('j')
      await page.keyboard.press('Enter')
      await page.waitForSelector('[data-test="reader-title"]')
      await page.keyboard.press('e')
      await page.waitForSelector('.memory-form-modal .memory-form')
      // An alias added by keyboard: Enter keeps the focus at the field's "+", not on the page.
      await page.locator('[data-test="aliases-field"] .n-button').focus()
      await page.keyboard.press('Enter')
      await page.waitForSelector('[data-test="aliases-field"] input')
      await page.keyboard.type('kbd-alias')
      await page.keyboard.press('Enter')
      await page.waitForFunction(() => document.activeElement?.closest('[data-test="aliases-field"]')?.tagName === 'DIV' && document.activeElement.tagName === 'BUTTON')
      await check(page.locator('[data-test="aliases-field"] .n-tag', { hasText: 'kbd-alias' }).count().then((n) => n === 1), 'alias added')
      await settled(page)
    })
  }

  // A long list: only a window of rows is in the page, scrolled far down, g o / g m switch.
  await open('en-dark-shell-long-list', { language: 'en', theme: 'dark', many: 3000 }, async (page) => {
    await page.waitForSelector('[data-test="list-scroll"][data-rows]')
    const rows = await page.locator('.list-pane .item').count()
    await check(rows < 60, `only a window of rows rendered (${rows})`)
    for (let i = 0; i < 6; i++) {
      await page.locator('[data-test="list-scroll"]').evaluate((el) => (el.scrollTop = el.scrollHeight))
      await page.waitForFunction(() => document.querySelector('.list-pane')?.getAttribute('data-state') === 'ready')
    }
    await check(page.locator('[data-test="list-scroll"]').getAttribute('data-rows').then((n) => Number(n) > 500), 'more pages loaded on scroll')
    await page.locator('body').press('g')
    await page.locator('body').press('o')
    await page.waitForSelector('[data-test="nav-organizer"].active')
    await page.locator('body').press('g')
    await page.locator('body').press('m')
    await page.waitForSelector('.list-pane')
  })

  // Every other view at 360 px, at 800 × 600 (the smallest window with the sidebar beside the
  // view: views lay out by their own width, not the window's) and 4K.
  for (const [w, h, tag] of [
    [360, 740, '360'],
    [800, 600, '800'],
    [2560, 1440, '4k'],
  ]) {
    for (const v of ['organizer', 'activity', 'usage', 'review', 'journal', 'graph', 'agents']) {
      await open(`en-light-shell-${tag}-${v}`, { language: 'en', theme: 'light', organizer: 'report', longTitles: true }, async (page) => {
        await size(w, h)(page)
        if (w < 800) {
          await page.click('[data-test="nav-menu"]')
          await page.waitForSelector('.shell.nav-open .sider')
        }
        await page.click(`[data-test="nav-${v}"]`)
        await page.waitForSelector(`.shell[data-view="${v}"]`)
        // The view's own chunk is in (its root is drawn), not only the nav's choice.
        await page.waitForSelector(`[data-test="${v}-view"]`)
        await page.waitForFunction(() => !document.querySelector('.shell.nav-open'))
        // Nothing a person must reach lies past the screen's right edge (a long title once
        // widened Review to 720 px at 360, and its buttons were cut off with no way to scroll).
        const out = await page.evaluate(() => {
          const scrolls = (el) => {
            for (let p = el.parentElement; p; p = p.parentElement) {
              const o = getComputedStyle(p).overflowX
              if (o === 'auto' || o === 'scroll') return p.scrollWidth > p.clientWidth
            }
            return false
          }
          return [...document.querySelectorAll('.shell button, .shell h2, .shell input')]
            .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.sider'))
            .filter((el) => el.getBoundingClientRect().right > innerWidth + 1 && !scrolls(el))
            .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}" ends at ${Math.round(el.getBoundingClientRect().right)}`)
        })
        await check(out.length === 0, `${v} at ${w} px: ${out.join('; ')}`)
      })
    }
  }
}
