// The Memories list draws its pickers with plain elements (SelectFacade.vue) and its search box
// is a plain input: a window left on its first view runs no naive-ui (src/naive/). naive-ui's
// selects replace the drawn ones when wanted (the pointer over them, a click, a key). The window
// must look the same before and after: each drawn picker must sit where the real one does, its
// text where the real text is, in the real one's colours. The page is reloaded with the task
// after the paint held, measured, released, checked for naive-ui, hovered, measured again.
// Both languages and themes (the pickers' labels differ in width).
const HOLD = () => {
  const realTimeout = window.setTimeout.bind(window)
  const held = []
  window.__hold = false
  window.setTimeout = (f, ms, ...args) => (window.__hold ? (held.push(() => f(...args)), 0) : realTimeout(f, ms, ...args))
  window.__release = () => {
    window.__hold = false
    held.splice(0).forEach((f) => f())
  }
  // The page tells Go it has painted through runtime.EventsEmit; the first-paint work is queued
  // with setTimeout right after it.
  const rt = window.runtime || (window.runtime = {})
  const emit = rt.EventsEmit
  rt.EventsEmit = (name, ...args) => {
    if (name === 'engram:painted') {
      window.__painted = true
      window.__hold = true
    }
    return emit?.(name, ...args)
  }
}

// What is compared, per control: its box, its text's box and colours, its border and fill.
const MEASURE = (first) => {
  const r = (el) => {
    const b = el.getBoundingClientRect()
    return [b.x, b.y, b.width, b.height].map((v) => Math.round(v * 2) / 2)
  }
  const text = (el) => {
    const range = document.createRange()
    range.selectNodeContents(el)
    const b = range.getBoundingClientRect()
    return [b.x, b.y, b.width].map((v) => Math.round(v * 2) / 2)
  }
  const textNode = (root) => {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, (n) => (n.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP))
    return walk.nextNode()?.parentElement
  }
  const css = (el, p) => getComputedStyle(el).getPropertyValue(p)
  const pickers = first
    ? [...document.querySelectorAll('.filters .select-facade')].map((el) => {
        const t = el.querySelector('.select-facade-text')
        return { box: r(el), text: text(t), color: css(t, 'color'), fill: css(el, 'background-color'), border: getComputedStyle(el, '::after').borderTopColor, arrow: r(el.querySelector('svg')) }
      })
    : [...document.querySelectorAll('.filters .n-select')].map((el) => {
        const t = textNode(el.querySelector('.n-base-selection-label'))
        return {
          box: r(el),
          text: text(t),
          color: css(t, 'color'),
          fill: css(el.querySelector('.n-base-selection-label'), 'background-color'),
          border: css(el.querySelector('.n-base-selection__border'), 'border-top-color'),
          arrow: r(el.querySelector('.n-base-suffix__arrow')),
        }
      })
  return JSON.stringify({ pickers })
}

export default async function ({ open, check, COMBOS }) {
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-first-frame`, { language, theme: th, empty: true }, async (page) => {
      await page.addInitScript(HOLD)
      await page.reload()
      await page.waitForFunction(() => window.__painted)
      await check(page.locator('.filters .select-facade').count().then((n) => n === 3), 'the first frame draws three pickers')
      const first = JSON.parse(await page.evaluate(MEASURE, true))
      await page.evaluate(() => window.__release())
      // The work queued for after the first paint has run (a frame, then a task after it)...
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))))
      await page.waitForSelector('.list-pane[data-state="ready"]')
      // ...and a window left on its first view has run no naive-ui: no real picker, none of
      // naive-ui's generated style sheets, none of its chunks fetched.
      await check(page.locator('.filters .select-facade').count().then((n) => n === 3), 'still the drawn pickers while nothing touched them')
      await check(page.locator('.n-select').count().then((n) => n === 0), 'no naive-ui select mounted')
      await check(page.evaluate(() => document.querySelectorAll('style[cssr-id]').length === 0), 'no naive-ui style sheet injected')
      await check(
        page.evaluate(() => !performance.getEntriesByType('resource').some((e) => /\/(scope|naiveSelect)-[^/]*\.js$/.test(e.name))),
        'naive-ui chunks not fetched',
      )
      // The pointer over the pickers brings the real ones, in the drawn ones' places and colours.
      await page.hover('.filters')
      await page.waitForFunction(() => document.querySelectorAll('.filters .n-select').length === 3)
      // naive-ui's colours settle through a short transition after mounting.
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'))
      const after = JSON.parse(await page.evaluate(MEASURE, false))
      const same = (what, a, b) => check(Promise.resolve(JSON.stringify(a) === JSON.stringify(b)), `${what}: first frame ${JSON.stringify(a)}, then ${JSON.stringify(b)}`)
      await check(Promise.resolve(after.pickers.length === 3), 'three real pickers')
      await check(page.locator('.n-base-select-menu').count().then((n) => n === 0), 'no picker opened by the pointer passing over')
      for (let i = 0; i < 3; i++) {
        for (const k of ['box', 'text', 'color', 'fill', 'border', 'arrow']) await same(`picker ${i + 1} ${k}`, first.pickers[i][k], after.pickers[i][k])
      }
    })
    // A drawn picker clicked, or opened from the keyboard, opens the real one in its place.
    await open(`${l}-${th}-first-frame-open`, { language, theme: th, empty: true }, async (page) => {
      await page.reload()
      await page.waitForSelector('.list-pane[data-state="ready"]')
      await page.locator('[data-test="filter-type"]').dispatchEvent('pointerdown')
      await page.waitForSelector('.n-base-select-menu .n-base-select-option')
      await check(page.locator('.n-base-select-menu').count().then((n) => n === 1), 'the type picker opened')
      await page.keyboard.press('Escape')
      await page.reload()
      await page.waitForSelector('.list-pane[data-state="ready"]')
      await page.focus('[data-test="filter-scope"]')
      await page.keyboard.press('Enter')
      await page.waitForSelector('.n-base-select-menu .n-base-select-option')
      await check(page.locator('.filters .select-facade').count().then((n) => n === 0), 'the real pickers replaced the drawn ones')
    })
  }
}
