import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { shellLoader } from '../../vite.config'
import { keepAttribute } from '../../src/util/shell'

const here = path.dirname(fileURLToPath(import.meta.url))
const loaderSource = fs.readFileSync(path.resolve(here, '../../src/shell/loader.js'), 'utf8')
const ENTRY = './assets/index-abc.js'

// Just enough of a page for loader.js: the elements it creates and where it puts them.
class El {
  children: El[] = []
  attrs: Record<string, string> = {}
  textContent = ''
  innerHTML = ''
  type = ''
  src = ''
  crossOrigin: string | null = null
  parent: El | null = null
  constructor(public tag: string) {}
  getAttribute(n: string) {
    return n in this.attrs ? this.attrs[n] : null
  }
  setAttribute(n: string, v: string) {
    this.attrs[n] = v
  }
  appendChild(c: El) {
    c.parent = this
    this.children.push(c)
  }
  insertBefore(c: El, ref: El) {
    c.parent = this
    this.children.splice(this.children.indexOf(ref), 0, c)
  }
  remove() {
    if (this.parent) this.parent.children = this.parent.children.filter((c) => c !== this)
  }
  querySelector(sel: string) {
    return sel === 'link[rel="stylesheet"]' ? (this.children.find((c) => c.tag === 'link') ?? null) : null
  }
}

function page(opts: { desktop: boolean; storage?: Record<string, string>; dark?: boolean }) {
  const storage = { ...(opts.storage ?? {}) }
  const written: string[] = []
  const emitted: string[] = []
  const frames: (() => void)[] = []
  const timers: (() => void)[] = []
  const head = new El('head')
  head.appendChild(new El('link'))
  const app = new El('div')
  const html = new El('html')
  const script = new El('script')
  script.setAttribute('data-entry', ENTRY)
  const document = {
    currentScript: script,
    head,
    documentElement: html,
    getElementById: (id: string) => (id === 'app' ? app : null),
    createElement: (tag: string) => new El(tag),
    write: (s: string) => written.push(s),
  }
  const window: Record<string, unknown> = {
    localStorage: { getItem: (k: string) => (k in storage ? storage[k] : null) },
    matchMedia: () => ({ matches: !!opts.dark }),
    requestAnimationFrame: (f: () => void) => frames.push(f),
  }
  if (opts.desktop) window.runtime = { EventsEmit: (name: string) => emitted.push(name) }
  const run = new Function('window', 'document', 'navigator', 'requestAnimationFrame', 'setTimeout', loaderSource)
  run(window, document, { language: 'en-US' }, window.requestAnimationFrame, (f: () => void) => timers.push(f))
  const nextFrame = () => frames.splice(0).forEach((f) => f())
  const timersFire = () => timers.splice(0).forEach((f) => f())
  const entries = () => head.children.filter((c) => c.tag === 'script')
  return { window: window as { __engramShell: { fingerprint(): string; shown: boolean } }, head, app, html, written, emitted, nextFrame, timersFire, entries, storage }
}

/** The copy util/shell.ts would have kept on a page like this one. */
function keptCopy(fp: string) {
  return JSON.stringify({ fp, lang: 'zh-CN', cls: 'theme-dark', style: 'color-scheme: dark;', html: '<div inert="">copy</div>', before: ['.n-a{}'], after: ['.v-b{}'] })
}

describe('the start-up loader (src/shell/loader.js)', () => {
  it('loads the entry parser-inserted, as the build wrote it, in a browser', () => {
    const p = page({ desktop: false, storage: { 'engram.shell': keptCopy('x') } })
    expect(p.written).toEqual([`<script type="module" crossorigin src="${ENTRY}"></script>`])
    expect(p.app.innerHTML).toBe('')
    expect(p.window.__engramShell.shown).toBe(false)
  })

  it('shows a matching copy in the desktop window, then starts the app two frames later', () => {
    const fp = page({ desktop: true }).window.__engramShell.fingerprint()
    const p = page({ desktop: true, storage: { 'engram.shell': keptCopy(fp) } })
    expect(p.written).toEqual([])
    expect(p.app.innerHTML).toBe('<div inert="">copy</div>')
    expect(p.html.getAttribute('style')).toBe('color-scheme: dark;')
    expect((p.html as unknown as { lang: string }).lang).toBe('zh-CN')
    // naive-ui's sheets before the build's own, the rest after it.
    expect(p.head.children.map((c) => c.tag + ':' + c.textContent)).toEqual(['style:.n-a{}', 'link:', 'style:.v-b{}'])
    expect(p.head.children.filter((c) => c.tag === 'style').every((c) => c.getAttribute('data-engram-shell') === '')).toBe(true)
    expect(p.window.__engramShell.shown).toBe(true)
    p.nextFrame()
    expect(p.emitted).toEqual([])
    p.nextFrame()
    expect(p.emitted).toEqual(['engram:shell-painted'])
    expect(p.entries().map((e) => [e.type, e.src])).toEqual([['module', ENTRY]])
    // The fallback timer finds the app started: it is not started twice.
    p.timersFire()
    expect(p.entries()).toHaveLength(1)
  })

  it('starts the app a moment later in a window that draws no frames', () => {
    const fp = page({ desktop: true }).window.__engramShell.fingerprint()
    const p = page({ desktop: true, storage: { 'engram.shell': keptCopy(fp) } })
    expect(p.entries()).toHaveLength(0)
    p.timersFire()
    expect(p.entries().map((e) => e.src)).toEqual([ENTRY])
    p.nextFrame()
    p.nextFrame()
    expect(p.entries()).toHaveLength(1)
  })

  it.each([
    ['another build', (s: Record<string, string>) => (s['engram.shell'] = keptCopy('["other"]'))],
    ['a language changed since', (s: Record<string, string>) => (s['engram.ui'] = '{"language":"zh-CN"}')],
    ['the nav collapsed since', (s: Record<string, string>) => (s['engram.nav.collapsed'] = '1')],
    ['a copy that does not parse', (s: Record<string, string>) => (s['engram.shell'] = '{"fp":')],
    ['no copy', (s: Record<string, string>) => delete s['engram.shell']],
  ])('loads the app as before, with nothing of a copy left, on %s', (_, change) => {
    const fp = page({ desktop: true }).window.__engramShell.fingerprint()
    const storage: Record<string, string> = { 'engram.shell': keptCopy(fp) }
    change(storage)
    const p = page({ desktop: true, storage })
    expect(p.written).toHaveLength(1)
    expect(p.app.innerHTML).toBe('')
    expect(p.head.children.map((c) => c.tag)).toEqual(['link'])
    expect(p.window.__engramShell.shown).toBe(false)
  })

  it('tells the system colour scheme apart (a "system" theme follows it)', () => {
    expect(page({ desktop: true, dark: true }).window.__engramShell.fingerprint()).not.toBe(page({ desktop: true }).window.__engramShell.fingerprint())
  })
})

describe('the copy of the first frame (src/util/shell.ts)', () => {
  it.each([
    ['class', true],
    ['style', true],
    ['data-v-7ba5bd90', true],
    ['aria-label', true],
    ['id', false],
    ['data-test', false],
    ['data-state', false],
    ['data-id', false],
    ['tabindex', false],
    ['autofocus', false],
    ['onerror', false],
    ['onClick', false],
  ])('keeps the attribute %s: %s', (name, kept) => {
    expect(keepAttribute(name)).toBe(kept)
  })
})

describe('the build (shellLoader in vite.config.ts)', () => {
  const transform = (html: string) => {
    const hook = shellLoader().transformIndexHtml as unknown as { handler: (html: string) => string }
    return hook.handler(html)
  }
  const built = `<head>\n    <script type="module" crossorigin src="${ENTRY}"></script>\n    <link rel="stylesheet" crossorigin href="./assets/index.css">\n  </head>\n  <body>\n    <div id="app"></div>\n  </body>`

  it('takes the entry out of <head> and names it to the loader after #app', () => {
    const out = transform(built)
    expect(out.slice(0, out.indexOf('</head>'))).not.toContain('<script')
    // Fetched from <head> as before, run only when the loader says.
    expect(out).toContain(`<link rel="modulepreload" crossorigin href="${ENTRY}">`)
    const at = out.indexOf(`<div id="app"></div>\n    <script data-entry="${ENTRY}">`)
    expect(at).toBeGreaterThan(0)
    // The loader inline, without its whole-line comments, closed once.
    const body = out.slice(out.indexOf('>', at + 26) + 1, out.indexOf('</script>', at))
    expect(body).toContain("var KEY = 'engram.shell'")
    expect(body).not.toMatch(/^\s*\/\//m)
  })

  it('fails the build when the page is not shaped as it expects', () => {
    expect(() => transform(built.replace('type="module" ', ''))).toThrow(/entry script/)
    expect(() => transform(built.replace('<div id="app"></div>', '<main></main>'))).toThrow(/id="app"/)
  })
})
