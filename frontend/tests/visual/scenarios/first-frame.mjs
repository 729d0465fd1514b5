// The Memories list's first frame draws its pickers and search box with plain elements
// (SelectFacade.vue, .search-facade) and naive-ui's controls replace them right after the paint
// (util/painted.ts). The window must look the same before and after: each drawn control must
// sit where the real one does, its text where the real text is, in the real one's colours.
// The page is reloaded with the task after the paint held, measured, released, measured again.
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
  const s = document.querySelector(first ? '.search-facade' : '[data-test="search"]')
  const st = first ? s.querySelector('.search-facade-text') : s.querySelector('.n-input__placeholder span')
  const search = {
    box: r(s),
    text: text(st),
    color: css(st, 'color'),
    fill: css(s, 'background-color'),
    border: first ? getComputedStyle(s, '::after').borderTopColor : css(s.querySelector('.n-input__border'), 'border-top-color'),
    icon: r(s.querySelector('svg')),
  }
  return JSON.stringify({ pickers, search })
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
      await page.waitForSelector('.filters .n-select')
      await page.waitForSelector('[data-test="search"]')
      // naive-ui's colours settle through a short transition after mounting.
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'))
      const after = JSON.parse(await page.evaluate(MEASURE, false))
      const same = (what, a, b) => check(Promise.resolve(JSON.stringify(a) === JSON.stringify(b)), `${what}: first frame ${JSON.stringify(a)}, then ${JSON.stringify(b)}`)
      await check(Promise.resolve(after.pickers.length === 3), 'three real pickers')
      for (let i = 0; i < 3; i++) {
        for (const k of ['box', 'text', 'color', 'fill', 'border', 'arrow']) await same(`picker ${i + 1} ${k}`, first.pickers[i][k], after.pickers[i][k])
      }
      for (const k of ['box', 'text', 'color', 'fill', 'border', 'icon']) await same(`search ${k}`, first.search[k], after.search[k])
    })
  }
}
