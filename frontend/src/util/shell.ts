// Keeps a copy of the desktop window's first frame for the next start (src/shell/loader.js shows
// it before any script of the app has run, and says why). main.ts calls takeShell right after
// the app mounted: the DOM is then exactly what the first frame draws, before any answer from Go
// has arrived, so it holds no memory, no count and no path (the page's storage is shared by every
// home the window opens). The copy is written once the first view is on screen, so the first
// frame does not wait for it; it is dropped rather than written when it is too large or when it
// holds a list row or an open memory (which would mean an answer had arrived first).
import { afterFirstPaint } from './painted'

/** The loader's helpers (loader.js defines them before the app's script runs). */
interface ShellLoader {
  key: string
  fingerprint: () => string
  desktop: () => boolean
  shown: boolean
}

/** What loader.js reads back: see show() there. */
export interface ShellCopy {
  fp: string
  lang: string
  cls: string
  style: string | null
  html: string
  before: string[]
  after: string[]
}

/** A copy larger than this is not kept (localStorage is small, and the page parses it at start). */
export const SHELL_MAX_CHARS = 600_000

/**
 * Attributes the copy keeps: everything but ids, tests' and state hooks, focus order and event
 * handlers (the copy is inserted as HTML at the next start: nothing in it may run).
 */
export function keepAttribute(name: string): boolean {
  if (name === 'id' || name === 'tabindex' || name === 'autofocus' || /^on/i.test(name)) return false
  if (name.startsWith('data-')) return name.startsWith('data-v-')
  return true
}

/**
 * The copy of the app's DOM, from a detached clone of it (changed in place): inert and hidden
 * from assistive technology, with nothing a test or a script could take for the app (ids,
 * data-test, data-state) and nothing focusable. Null when an answer from Go had already
 * rendered (a row of the list or an open memory).
 */
export function shellHtml(copy: Element): string | null {
  if (copy.querySelector('.list-pane .item, [data-test="reader-title"]')) return null
  for (const el of copy.querySelectorAll('script, iframe, object, embed, template')) el.remove()
  for (const el of [copy, ...copy.querySelectorAll('*')]) {
    for (const a of [...el.attributes]) if (!keepAttribute(a.name)) el.removeAttribute(a.name)
  }
  for (const el of copy.children) {
    el.setAttribute('inert', '')
    el.setAttribute('aria-hidden', 'true')
  }
  return copy.innerHTML
}

/**
 * The style sheets injected at run time (naive-ui's, when the first view mounts any), before and
 * after the build's own sheet.
 */
function injectedStyles(): { before: string[]; after: string[] } {
  const before: string[] = []
  const after: string[] = []
  let seenLink = false
  for (const el of document.head.children) {
    if (el instanceof HTMLLinkElement && el.rel === 'stylesheet') seenLink = true
    else if (el instanceof HTMLStyleElement && !el.hasAttribute('data-engram-shell')) (seenLink ? after : before).push(el.textContent ?? '')
  }
  return { before, after }
}

function loader(): ShellLoader | null {
  const l = (window as { __engramShell?: ShellLoader }).__engramShell
  return l && l.desktop() ? l : null
}

/**
 * Takes the copy of the first frame now and keeps it once the first view is on screen; takes
 * away the style sheets of a copy the loader showed (the app's mount has replaced its DOM).
 */
export function takeShell(): void {
  for (const s of document.head.querySelectorAll('style[data-engram-shell]')) s.remove()
  const l = loader()
  const app = document.getElementById('app')
  if (!l || !app || !app.querySelector('.memories-view')) return
  // Only the clone and the style texts are taken before the first frame; cleaning and
  // serialising them waits until the frame is on screen, as the write does.
  const dom = app.cloneNode(true) as Element
  const { before, after } = injectedStyles()
  const root = document.documentElement
  const at = { fp: l.fingerprint(), lang: root.lang, cls: root.className, style: root.getAttribute('style') }
  afterFirstPaint(() => {
    try {
      // The fingerprint as it is now: what the next start will compare with. A setting written
      // since the mount (the language Go answered) means this copy no longer matches it.
      const html = shellHtml(dom)
      if (html === null || l.fingerprint() !== at.fp) return localStorage.removeItem(l.key)
      const copy: ShellCopy = { ...at, html, before, after }
      const text = JSON.stringify(copy)
      if (text.length > SHELL_MAX_CHARS) return localStorage.removeItem(l.key)
      if (localStorage.getItem(l.key) !== text) localStorage.setItem(l.key, text)
    } catch {
      /* storage full or unavailable: the next start loads the app as before */
    }
  })
}
