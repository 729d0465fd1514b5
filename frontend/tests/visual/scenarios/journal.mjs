// Journal and "What my agents see": calendar with today's entries and their authors, the day
// near the 28 KiB warning, [[links]] to a memory and to an entity (followed by a click), search
// (a date and words), archived day, an unreviewed day accepted from its page, the 04:00 rollover
// in an open window, keyboard navigation, the
// empty journal, and the agents view with a query — both languages, light and dark.
export default async function ({ open, check, COMBOS }) {
  const toJournal = async (page) => {
    await page.click('[data-test="nav-journal"]')
    await page.waitForSelector('[data-test="journal-view"][data-state="ready"]')
    await page.waitForSelector('[data-test="journal-day"][data-state="ready"]')
  }
  const day = (page, date) => page.waitForSelector(`[data-test="journal-day"][data-date="${date}"][data-state="ready"]`)

  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-journal-calendar`, { language, theme: th }, async (page) => {
      await toJournal(page)
      await day(page, '2026-11-30')
      await check(page.locator('[data-test="journal-entry"]').count().then((n) => n === 4), 'four entries today')
      await check(page.locator('[data-test="journal-entry"][data-author="claude"]').count().then((n) => n === 1), 'claude is the author of one entry')
      await check(page.locator('[data-test="journal-entry"][data-author-kind="person"]').count().then((n) => n === 1), 'one entry is the person’s')
      await check(page.locator('[data-test="journal-cell"][data-date="2026-11-27"][data-heat="4"]').count().then((n) => n === 1), 'the big day is the hottest')
    })
    await open(`${l}-${th}-journal-warning`, { language, theme: th }, async (page) => {
      await toJournal(page)
      await page.click('[data-test="journal-cell"][data-date="2026-11-27"]')
      await day(page, '2026-11-27')
      await page.waitForSelector('[data-test="journal-size-warning"]')
      await check(page.locator('[data-test="journal-day"][data-size="warn"]').count().then((n) => n === 1), 'the size meter warns')
    })
    // A day 300 bytes short of its limit still takes a short entry (the box was closed in the
    // last 512 bytes, which the server accepted); an entry longer than the room left says so.
    await open(`${l}-${th}-journal-no-room`, { language, theme: th, journalNearlyFull: true }, async (page) => {
      await toJournal(page)
      await day(page, '2026-11-30')
      await check(page.locator('[data-test="journal-day"][data-size="warn"]').count().then((n) => n === 1), 'a day with room left is not full')
      await page.fill('[data-test="journal-draft"]', 'Short note.')
      await check(page.locator('[data-test="journal-append"]').isEnabled(), 'a short entry can be added')
      await page.fill('[data-test="journal-draft"]', 'A much longer note. '.repeat(20))
      await page.waitForSelector('[data-test="journal-no-room"]')
      await check(page.locator('[data-test="journal-append"]').isDisabled(), 'an entry longer than the room cannot be added')
    })
    // A day an agent's entry left unreviewed says so on its page, and the person accepts it
    // there (the Review queue lists memories, not journal days).
    await open(`${l}-${th}-journal-unreviewed`, { language, theme: th }, async (page) => {
      await toJournal(page)
      await check(page.locator('[data-test="journal-unreviewed"]').count().then((n) => n === 0), 'a reviewed day shows no notice')
      await page.click('[data-test="journal-cell"][data-date="2026-11-26"]')
      await day(page, '2026-11-26')
      await page.waitForSelector('[data-test="journal-unreviewed"] [data-test="journal-accept"]')
    })
    // In an 800 px window (a narrow day pane) the notice lines up with the entries under it,
    // as the size warning does: it kept the wide pane's 20 px margins beside their 14.
    await open(`${l}-${th}-journal-unreviewed-800`, { language, theme: th }, async (page) => {
      await page.setViewportSize({ width: 800, height: 700 })
      await toJournal(page)
      await page.click('[data-test="journal-cell"][data-date="2026-11-26"]')
      await day(page, '2026-11-26')
      await page.waitForSelector('[data-test="journal-unreviewed"] [data-test="journal-accept"]')
      const x = await page.evaluate(() => {
        const box = (sel) => document.querySelector(sel).getBoundingClientRect()
        return { notice: box('[data-test="journal-unreviewed"]'), entry: box('[data-test="journal-entry"]') }
      })
      await check(Math.abs(x.notice.left - x.entry.left) < 1 && Math.abs(x.notice.right - x.entry.right) < 1, `the notice lines up with the entries: ${JSON.stringify(x)}`)
    })
    await open(`${l}-${th}-journal-unreviewed-accepted`, { language, theme: th }, async (page) => {
      await toJournal(page)
      await page.click('[data-test="journal-cell"][data-date="2026-11-26"]')
      await day(page, '2026-11-26')
      await page.click('[data-test="journal-accept"]')
      await page.waitForSelector('[data-test="journal-unreviewed"]', { state: 'detached' })
    })
    // A window left open past 04:00: back to it, the page on the old today follows the new
    // one (Today, the calendar's mark and the note box had stayed on yesterday).
    await open(`${l}-${th}-journal-rollover`, { language, theme: th }, async (page) => {
      await toJournal(page)
      await day(page, '2026-11-30')
      await page.evaluate(() => {
        window.__journalToday = '2026-12-01'
        window.dispatchEvent(new Event('focus'))
      })
      await day(page, '2026-12-01')
      await page.waitForSelector('[data-test="journal-cell"][data-date="2026-12-01"].today')
      await page.waitForSelector('[data-test="journal-draft"]')
      await check(page.locator('[data-test="journal-cell"].today').count().then((n) => n === 1), 'one day is today')
    })
    await open(`${l}-${th}-journal-search`, { language, theme: th }, async (page) => {
      await toJournal(page)
      await page.fill('[data-test="journal-search"]', language === 'en' ? '11-30' : '11月30日')
      await page.waitForSelector('[data-test="journal-hits"][data-state="done"][data-count="2"]')
      await page.click('[data-test="journal-hit"][data-date="2025-11-30"]')
      await day(page, '2025-11-30')
      await page.waitForSelector('[data-test="journal-archived"]')
    })
    // [[links]] in a day: a memory link opens the memory in Memories, a name opens the Graph
    // view focused on its entity (as in the reader).
    const toLinks = async (page) => {
      await toJournal(page)
      await page.click('[data-test="journal-cell"][data-date="2026-11-29"]')
      await day(page, '2026-11-29')
    }
    await open(`${l}-${th}-journal-links`, { language, theme: th }, async (page) => {
      await toLinks(page)
      const entry = page.locator('[data-test="journal-entry"][data-author="claude"]')
      await check(entry.locator('a.wikilink-memory[data-memory-id]').count().then((n) => n === 1), 'a [[link]] to a memory is a memory link')
      await check(entry.locator('a.wikilink-entity[data-entity="Postgres"]').count().then((n) => n === 1), 'a [[link]] to a name is an entity link')
      await check(entry.textContent().then((s) => !s.includes('[[')), 'no literal [[brackets]] are left')
    })
    await open(`${l}-${th}-journal-link-memory`, { language, theme: th }, async (page) => {
      await toLinks(page)
      const link = page.locator('[data-test="journal-entry"] a.wikilink-memory').first()
      const id = await link.getAttribute('data-memory-id')
      await link.click()
      await page.waitForSelector(`.reader article.doc[data-id="${id}"]`)
      await check(page.locator('.reader .doc-head').textContent().then((s) => s.includes('acme-billing-service')), 'the linked memory is open in the reader')
    })
    await open(`${l}-${th}-journal-link-entity`, { language, theme: th }, async (page) => {
      await toLinks(page)
      await page.locator('[data-test="journal-entry"] a.wikilink-entity[data-entity="Postgres"]').click()
      await page.waitForSelector('[data-test="graph-canvas"][data-state="ready"][data-focus="postgres"]')
    })
    await open(`${l}-${th}-agents`, { language, theme: th }, async (page) => {
      await page.click('[data-test="nav-agents"]')
      await page.waitForSelector('[data-test="agents-view"][data-state="ready"]')
      await page.fill('[data-test="agents-query"]', 'postgres migration replication')
      await page.click('[data-test="agents-workdir"]')
      await page.locator('.n-base-select-option', { hasText: 'acme-billing' }).first().click()
      await page.waitForSelector('[data-test="agents-view"][data-state="ready"] [data-test="agents-context-text"]')
      await check(page.locator('[data-test="agents-index-text"]').textContent().then((s) => s.includes('acme-billing')), 'the project’s memories are in the index')
    })
  }
  // 1280 × 800, English: every nav label on one line and whole (the chosen "What my agents see"
  // broke onto two), and the Agent box shows its whole placeholder (it read "Any agent (typ…").
  for (const [name, language, theme] of [['en-light-agents-fit', 'en', 'light'], ['zh-dark-agents-fit', 'zh-CN', 'dark']]) {
    await open(name, { language, theme }, async (page) => {
      await page.click('[data-test="nav-agents"]')
      await page.waitForSelector('[data-test="agents-view"][data-state="ready"]')
      await page.waitForSelector('[data-test="agents-agent"] .n-base-selection-placeholder')
      const cut = await page.evaluate(() => {
        const out = []
        for (const el of document.querySelectorAll('.sider .nav-label')) {
          if (el.scrollWidth > el.clientWidth + 1 || el.getClientRects().length > 1 || el.getBoundingClientRect().height > 24) out.push(`nav "${el.textContent.trim()}"`)
        }
        const ph = document.querySelector('[data-test="agents-agent"] .n-base-selection-placeholder__inner') || document.querySelector('[data-test="agents-agent"] .n-base-selection-placeholder')
        if (ph && ph.scrollWidth > ph.clientWidth + 1) out.push(`agent placeholder "${ph.textContent.trim()}"`)
        return out
      })
      await check(cut.length === 0, `cut or wrapped: ${cut.join('; ')}`)
    })
  }
  await open('en-light-journal-search-words', { language: 'en', theme: 'light' }, async (page) => {
    await toJournal(page)
    await page.fill('[data-test="journal-search"]', 'birthday')
    await page.waitForSelector('[data-test="journal-hits"][data-state="done"][data-count="3"]')
  })
  await open('en-light-journal-keys', { language: 'en', theme: 'light' }, async (page) => {
    await toJournal(page)
    await page.keyboard.press('ArrowLeft')
    await day(page, '2026-11-29')
    await page.keyboard.press('[')
    await day(page, '2026-11-27')
    await page.keyboard.press(']')
    await day(page, '2026-11-29')
    // `/` goes to the search box and Escape leaves it (as the ? list says) for the day keys: the
    // box kept the focus and ← moved its cursor.
    await page.keyboard.press('/')
    await check(page.evaluate(() => document.activeElement?.matches('[data-test="journal-search"]')), '/ puts the cursor in the search box')
    await page.keyboard.type('zz')
    await page.keyboard.press('Escape')
    await check(page.evaluate(() => !document.activeElement?.closest('[data-test="journal-view"] .search')), 'Escape left the search box')
    await page.keyboard.press('ArrowLeft')
    await day(page, '2026-11-27')
  })
  await open('zh-dark-journal-empty', { language: 'zh-CN', theme: 'dark', journal: 'empty' }, async (page) => {
    await toJournal(page)
    await page.waitForSelector('[data-test="journal-day-empty"]')
    await page.fill('[data-test="journal-draft"]', '第一条日记')
    await page.click('[data-test="journal-append"]')
    await page.waitForSelector('[data-test="journal-entry"][data-author-kind="person"]')
  })
  // 800 × 600: the sidebar leaves the view ~590 px. The day's arrows stay beside its name and
  // the note box keeps a usable width (it was squeezed to ~120 px, its placeholder on 3 lines).
  for (const [name, language, theme] of [['en-light-journal-800', 'en', 'light'], ['zh-dark-journal-800', 'zh-CN', 'dark']]) {
    await open(name, { language, theme }, async (page) => {
      await page.setViewportSize({ width: 800, height: 600 })
      await toJournal(page)
      await page.waitForSelector('[data-test="journal-draft"]')
      const m = await page.evaluate(() => {
        const box = (sel) => document.querySelector(sel).getBoundingClientRect()
        const title = box('[data-test="journal-day-title"]')
        const prev = box('[data-test="journal-prev-day"]')
        const next = box('[data-test="journal-next-day"]')
        const mid = (b) => b.top + b.height / 2
        return { prev: Math.abs(mid(prev) - mid(title)), next: Math.abs(mid(next) - mid(title)), nextLeft: next.left - title.right, draft: box('[data-test="journal-draft"]').width }
      })
      await check(m.prev < 4 && m.next < 4 && m.nextLeft >= 0, `the day's arrows on its title's line: ${JSON.stringify(m)}`)
      await check(m.draft >= 240, `the note box is ${Math.round(m.draft)} px wide`)
      // A phone (360 px): the search box's placeholder is read whole (the long one, with its date
      // forms, stopped at "…（2026-11"); the box's label keeps the long one.
      for (const width of [800, 360]) {
        await page.setViewportSize({ width, height: 740 })
        await page.waitForFunction((w) => document.documentElement.clientWidth === w, width)
        const measure = () => {
          const input = document.querySelector('[data-test="journal-search"]')
          const cs = getComputedStyle(input)
          const ctx = document.createElement('canvas').getContext('2d')
          ctx.font = cs.font
          const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)
          return { text: input.placeholder, need: Math.ceil(ctx.measureText(input.placeholder).width), room, label: input.getAttribute('aria-label') }
        }
        // The box follows its width after a resize (an observer): wait for a placeholder that fits.
        await page.waitForFunction(`((m) => m.text && m.need <= m.room)((${measure})())`, undefined, { timeout: 15_000 }).catch(() => {})
        const ph = await page.evaluate(`(${measure})()`)
        await check(ph.need <= ph.room, `at ${width} px the journal search's placeholder is cut: "${ph.text}" needs ${ph.need} px, has ${ph.room}`)
        await check(ph.label.length >= ph.text.length, `the search box's label keeps the whole hint: ${ph.label}`)
      }
      // Stacked, with a search listing something: the calendar shows whole (squeezed with the
      // day, it was cut after its third week) and the day keeps room for its entries.
      await page.fill('[data-test="journal-search"]', language === 'en' ? 'birthday' : '生日')
      await page.waitForSelector('[data-test="journal-hits"][data-state="done"][data-count="3"]')
      const stack = await page.evaluate(() => {
        const side = document.querySelector('[data-test="journal-view"] .side')
        const cal = document.querySelector('[data-test="journal-calendar"]').getBoundingClientRect()
        const s = side.getBoundingClientRect()
        return { cut: side.scrollHeight > side.clientHeight + 1 || cal.bottom > s.bottom + 1, day: Math.round(document.querySelector('[data-test="journal-day"]').getBoundingClientRect().height) }
      })
      await check(!stack.cut && stack.day >= 400, `at 360 px the calendar shows whole and the day keeps its room: ${JSON.stringify(stack)}`)
      // A hit opens its day, brought on screen from under the hits and the calendar.
      await page.locator('[data-test="journal-hit"]').nth(1).click()
      const date = await page.locator('[data-test="journal-hit"]').nth(1).getAttribute('data-date')
      await day(page, date)
      const top = await page.evaluate(() => document.querySelector('[data-test="journal-day-title"]').getBoundingClientRect().top)
      await check(top >= 0 && top < 740 - 60, `the opened day's title is on screen: top ${Math.round(top)}`)
    })
  }
  await open('en-narrow-journal', { language: 'en', theme: 'light' }, async (page) => {
    await page.setViewportSize({ width: 700, height: 800 })
    // Under 800 px the navigation sits behind the menu button.
    await page.click('[data-test="nav-menu"]')
    await toJournal(page)
  })
}
