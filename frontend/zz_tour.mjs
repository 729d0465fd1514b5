import { chromium } from 'playwright-core'
const url = process.argv[2]
const out = '/tmp/shots'
const browser = await chromium.launch({ executablePath: '/usr/lib/chromium/chromium', args: ['--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync','--disable-dev-shm-usage'] })
const errors = []
async function tour(w, h, tag) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h } })
  const page = await ctx.newPage()
  page.on('console', m => { if (m.type() === 'error') errors.push(tag + ': ' + m.text()) })
  page.on('pageerror', e => errors.push(tag + ' pageerror: ' + e.message))
  await page.goto(url)
  await page.waitForTimeout(1500)
  await page.screenshot({ path: `${out}/${tag}-memories.png` })
  for (const [keys, name] of [[['g','r'], 'review'], [['g','j'], 'journal'], [['g','m'], 'memories2']]) {
    await page.keyboard.press('Escape')
    for (const k of keys) await page.keyboard.press(k)
    await page.waitForTimeout(1200)
    await page.screenshot({ path: `${out}/${tag}-${name}.png` })
  }
  await page.keyboard.press('?')
  await page.waitForTimeout(600)
  await page.screenshot({ path: `${out}/${tag}-help.png` })
  await ctx.close()
}
await tour(1280, 800, 'wide')
await tour(360, 740, 'phone')
console.log(errors.join('\n'))
await browser.close()
