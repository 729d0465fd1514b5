// Review: the queue with a flagged (prompt-injection) item and its evidence and source turn,
// a reject with its Undo toast, messages and the toast clear of the actions (1280 and 360 px),
// and "all caught up"; both languages, light and dark.
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
  // A message (a flagged memory left out of a bulk accept) and the toast show above the actions,
  // not over Accept and Reject: at 1280 px the message sat on Accept, at 360 px (actions on two
  // rows) the toast covered Edit and Skip.
  for (const [[l, th, language], w, h] of [
    [COMBOS[0], 1280, 800],
    [COMBOS[3], 360, 740],
  ]) {
    await open(`${l}-${th}-review-message-${w}`, { language, theme: th, review: 'queue' }, async (page) => {
      await page.setViewportSize({ width: w, height: h })
      if (w < 800) {
        await page.click('[data-test="nav-menu"]')
        await page.waitForSelector('.shell.nav-open .sider')
      }
      await page.click('[data-test="nav-review"]')
      await page.waitForSelector('[data-test="review-view"][data-state="ready"]')
      await page.click('[data-test="review-item"][data-flagged="true"] [data-test="review-check"]')
      await page.click('[data-test="review-item"]:not([data-flagged="true"]) [data-test="review-check"] >> nth=0')
      await page.click('[data-test="review-accept-selected"]')
      await page.waitForSelector('.n-message')
      await page.waitForSelector('[data-test="review-toast-undo"]')
      const boxes = await page.evaluate(() => {
        const r = (el) => {
          const b = el.getBoundingClientRect()
          return { top: b.top, bottom: b.bottom, left: b.left, right: b.right }
        }
        return {
          messages: [...document.querySelectorAll('.n-message')].map(r),
          toast: r(document.querySelector('[data-test="review-toast"]')),
          buttons: [...document.querySelectorAll('[data-test="review-view"] .actions .n-button')].map(r),
        }
      })
      const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
      await check(boxes.messages.every((m) => !boxes.buttons.some((b) => meet(m, b))), `a message covers an action: ${JSON.stringify(boxes)}`)
      await check(!boxes.buttons.some((b) => meet(boxes.toast, b)), `the toast covers an action: ${JSON.stringify(boxes)}`)
      await check(boxes.messages.every((m) => !meet(m, boxes.toast)), `a message covers the toast: ${JSON.stringify(boxes)}`)
      if (w < 480) {
        // The key legend leaves a phone's screen to the memory.
        await check(page.locator('[data-test="review-view"] .keys').isHidden(), 'no key legend on a phone')
        const h = await page.locator('[data-test="review-current"]').evaluate((e) => e.getBoundingClientRect().height)
        await check(h >= 240, `the memory under review keeps room on a phone: ${h} px`)
      }
    })
  }
  // A keyboard user's focus outlives the control it was on: the reason box closed (Esc or
  // Enter), the batch bar gone (Accept selected, Reject selected, Clear), Undo used (header or
  // toast). Each left the focus on <body>, and Tab started again from the top of the page.
  await open('zh-dark-review-focus-kept', { language: 'zh-CN', theme: 'dark', review: 'queue' }, async (page) => {
    await page.click('[data-test="nav-review"]')
    await page.waitForSelector('[data-test="review-view"][data-state="ready"]')
    const onAction = async (what) => {
      await page.waitForFunction(() => !!document.activeElement?.closest('[data-test="review-view"] .actions'), null, { timeout: 5000 }).catch(() => {})
      const at = await page.evaluate(() => document.activeElement?.getAttribute('data-test') || document.activeElement?.tagName)
      await check(page.evaluate(() => !!document.activeElement?.closest('[data-test="review-view"] .actions')), `${what}: the focus is on ${at}, not on the item's actions`)
    }
    const count = () => page.locator('[data-test="review-view"]').getAttribute('data-count').then(Number)
    // e with nothing focused, then Esc in the edit form: the focus was handed back to <body>.
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur())
    await page.keyboard.press('e')
    await page.waitForSelector('.memory-form-modal .memory-form')
    await page.keyboard.press('Escape')
    await page.waitForSelector('.memory-form-modal .memory-form', { state: 'detached' })
    await onAction('Esc in the edit form')
    await page.keyboard.press('Shift+R')
    await page.waitForSelector('[data-test="review-reason-input"] input:focus')
    await page.keyboard.press('Escape')
    await onAction('Esc in the reason box')
    const n = await count()
    await page.keyboard.press('Shift+R')
    await page.waitForSelector('[data-test="review-reason-input"] input:focus')
    await page.keyboard.type('重复了')
    await page.keyboard.press('Enter')
    await page.waitForSelector(`[data-test="review-view"][data-count="${n - 1}"]`)
    await onAction('Enter in the reason box')
    await page.focus('[data-test="review-undo"]')
    await page.keyboard.press('Enter')
    await page.waitForSelector(`[data-test="review-view"][data-count="${n}"]`)
    await onAction('Undo')
    for (const button of ['review-reject-selected', 'review-clear-selection']) {
      await page.locator('[data-test="review-item"]:not([data-flagged="true"]) [data-test="review-check"] >> nth=0').click()
      await page.focus(`[data-test="${button}"]`)
      await page.keyboard.press('Enter')
      await page.waitForSelector('[data-test="review-batch"]', { state: 'detached' })
      await onAction(button)
    }
    await page.waitForSelector('[data-test="review-toast-undo"]')
    await page.focus('[data-test="review-toast-undo"]')
    await page.keyboard.press('Enter')
    await page.waitForSelector(`[data-test="review-view"][data-count="${n}"]`)
    await onAction('Undo in the toast')
  })
  for (const [l, th, language] of [COMBOS[1], COMBOS[2]]) {
    await open(`${l}-${th}-review-empty`, { language, theme: th, review: 'empty' }, async (page) => {
      await page.click('[data-test="nav-review"]')
      await page.waitForSelector('[data-test="review-view"][data-state="empty"] [data-test="review-empty"]')
    })
  }
}
