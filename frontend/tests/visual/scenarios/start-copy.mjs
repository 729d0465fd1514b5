// The desktop window's first frame before any of the app's script runs (src/shell/loader.js,
// src/util/shell.ts): from the second start on, the page shows a copy of the app's own first
// frame and starts the app after it. The copy must look exactly like the app's first frame
// (drawn before any answer from Go), must hold nothing of the store (the page's storage is
// shared by every home), and must not be mistaken for the app (inert, no ids, no data-test).
// Both languages and themes. The page counts as the desktop window once runtime.EventsEmit
// exists, as Wails' runtime has it.
const DESKTOP = () => {
  const rt = window.runtime || (window.runtime = {})
  rt.EventsEmit = (name) => {
    if (name === 'engram:shell-painted') window.__shellPainted = true
    if (name === 'engram:painted') window.__appPainted = true
  }
}

// Every call to Go waits until __openApi(): the app's first frame is then the one drawn before
// any answer, the frame the copy was taken from.
const HOLD_API = () => {
  let open
  const gate = new Promise((r) => (open = r))
  window.__openApi = () => open()
  const api = window.go && window.go.api
  for (const service of Object.values(api || {})) {
    for (const [name, fn] of Object.entries(service)) {
      if (typeof fn === 'function') service[name] = (...args) => gate.then(() => fn(...args))
    }
  }
}

// Per-pixel difference of two PNGs (base64), drawn in the page: how many pixels differ by more
// than one colour step in any channel, and the largest difference.
const DIFF = async ([a, b]) => {
  const load = async (s) => {
    const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${s}`)).blob())
    const c = new OffscreenCanvas(img.width, img.height)
    const ctx = c.getContext('2d')
    ctx.drawImage(img, 0, 0)
    return ctx.getImageData(0, 0, img.width, img.height)
  }
  const [x, y] = await Promise.all([load(a), load(b)])
  if (x.width !== y.width || x.height !== y.height) return { sizes: [x.width, x.height, y.width, y.height] }
  let differ = 0
  let most = 0
  for (let i = 0; i < x.data.length; i += 4) {
    let d = 0
    for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs(x.data[i + k] - y.data[i + k]))
    if (d > 1) differ++
    most = Math.max(most, d)
  }
  return { differ, most, pixels: x.width * x.height }
}

export default async function ({ open, check, settled, COMBOS }) {
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-start-copy`, { language, theme: th }, async (page) => {
      // A start as the desktop window: the app keeps a copy of its first frame once it painted.
      await page.addInitScript(DESKTOP)
      await page.reload()
      await page.waitForSelector('.list-pane .item')
      await settled(page)
      await page.waitForFunction(() => !!localStorage.getItem('engram.shell'))
      const kept = await page.evaluate(() => ({
        copy: JSON.parse(localStorage.getItem('engram.shell')),
        titles: [...document.querySelectorAll('.list-pane .item .item-title')].map((e) => e.textContent.trim()).filter(Boolean),
      }))
      await check(Promise.resolve(kept.titles.length > 0), 'the list shows memories')
      for (const title of kept.titles) await check(Promise.resolve(!kept.copy.html.includes(title)), `the copy holds no memory: "${title}"`)
      await check(Promise.resolve(!/\b(id|data-test|data-state|tabindex)=/.test(kept.copy.html)), 'the copy has no ids, data-test, data-state or tabindex')
      // No count either ("0 memories" would be wrong for every store but an empty one).
      await check(
        page.evaluate((html) => {
          const t = document.createElement('template')
          t.innerHTML = html
          const row = t.content.querySelector('.count-row')
          return !!row && !/\d/.test(row.textContent)
        }, kept.copy.html),
        'the copy shows no count',
      )

      // The next start: the entry module is held, so the copy stays on screen; every call to Go
      // waits, so the app's first frame is its first frame before any answer.
      let release
      const held = new Promise((r) => (release = r))
      await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
        await held
        await route.continue()
      })
      await page.addInitScript(HOLD_API)
      // Not until "load": the held entry (preloaded from <head>) holds the page's load event.
      await page.reload({ waitUntil: 'commit' })
      await page.waitForFunction(() => window.__shellPainted === true)
      await check(page.evaluate(() => window.__engramShell.shown === true), 'the loader showed the copy')
      await check(
        page.evaluate(() => [...document.getElementById('app').children].every((el) => el.inert && el.getAttribute('aria-hidden') === 'true')),
        'the copy is inert and hidden from assistive technology',
      )
      await check(page.locator('[data-test]').count().then((n) => n === 0), 'no element of the copy answers to a test selector')
      const copyShot = (await page.screenshot({ animations: 'disabled' })).toString('base64')

      release()
      await page.waitForFunction(() => window.__appPainted === true)
      await check(page.evaluate(() => !document.querySelector('#app [inert]') && !!document.querySelector('[data-test="list-scroll"]')), 'the app replaced the copy')
      await check(page.locator('style[data-engram-shell]').count().then((n) => n === 0), "the copy's style sheets are gone")
      const appShot = (await page.screenshot({ animations: 'disabled' })).toString('base64')
      const diff = await page.evaluate(DIFF, [copyShot, appShot])
      // Anti-aliasing may move a few edge pixels by a step or two; nothing more.
      await check(Promise.resolve(diff.differ !== undefined && diff.differ <= diff.pixels / 2000), `the copy looks like the app's first frame: ${JSON.stringify(diff)}`)

      await page.unroute(/\/assets\/index-[^/]+\.js$/)
      await page.evaluate(() => window.__openApi())
      await page.waitForSelector('.list-pane .item')
      // Later scenarios start as a browser would, without a copy.
      await page.evaluate(() => localStorage.removeItem('engram.shell'))
    })
  }
}
