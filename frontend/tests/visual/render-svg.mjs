// Renders an SVG to a PNG with a transparent background:
//   node tests/visual/render-svg.mjs in.svg out.png [size]
import fs from 'node:fs'
import { launch } from './browser.mjs'

const [input, output, sizeArg] = process.argv.slice(2)
if (!input || !output) {
  console.error('usage: render-svg.mjs in.svg out.png [size]')
  process.exit(2)
}
const size = Number(sizeArg || 1024)
const svg = fs.readFileSync(input, 'utf8')
const { ctx, close } = await launch()
try {
  const page = await ctx.newPage()
  await page.setViewportSize({ width: size, height: size })
  await page.setContent(
    `<html><body style="margin:0;background:transparent">` +
      `<img id="i" style="display:block;width:${size}px;height:${size}px" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">` +
      `</body></html>`,
  )
  await page.waitForFunction(() => document.getElementById('i').complete)
  await page.screenshot({ path: output, omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } })
} finally {
  await close()
}
console.log(output)
