// The UI's font stack, settled once at start-up: main.ts sets --font-ui (base.css's body font)
// before the app mounts, and naive-ui gets the same stack in App.vue.
//
// Why: WebKitGTK (the Linux desktop window) asks fontconfig for each family of the stack in
// turn until one is installed, separately for every size and weight the page uses, and a family
// that is not installed is the costly case (a full match, then rejected). The stack names three
// macOS and Windows families, and Ubuntu's, GNOME's and KDE's, before DejaVu Sans: on a machine
// with only DejaVu, each missing family cost 15–20 ms of the web process's CPU before the first
// view painted, ~110 ms in all (build/scripts/bench-desktop.sh). On Linux the page therefore
// asks once, at one size, which of the leading families are installed, and drops those that are
// not: the browser would have skipped them anyway, so the text is drawn in the same font. The
// answer is kept for the next start (checked again once the first view is on screen).
import { ref } from 'vue'
import { afterFirstPaint } from './painted'

/** The stack as written: the first installed family wins (system UI fonts first). */
export const UI_FONT_STACK = [
  '-apple-system',
  'BlinkMacSystemFont',
  '"Segoe UI"',
  'Ubuntu',
  'Cantarell',
  '"Noto Sans"',
  '"DejaVu Sans"',
  '"Helvetica Neue"',
  'Arial',
  '"PingFang SC"',
  '"Microsoft YaHei"',
  '"Noto Sans CJK SC"',
  '"WenQuanYi Micro Hei"',
  'sans-serif',
]

/**
 * The stack from its first installed family on: the families before it are ones the browser
 * would skip. The whole stack when none is found installed (installed may be unable to tell).
 */
export function fromFirstInstalled(stack: string[], installed: (family: string) => boolean): string[] {
  for (let i = 0; i < stack.length - 1; i++) {
    if (installed(stack[i])) return stack.slice(i)
  }
  return stack
}

/** Whether this platform's web view pays for missing families (see the top of this file). */
export function probesFonts(userAgent: string): boolean {
  // Android says Linux too, and is not a WebKitGTK window.
  return /\bLinux\b/.test(userAgent) && !/\bAndroid\b/.test(userAgent)
}

const SAMPLE = 'mmmmmmmmmmlli WQ 0123456789'

/**
 * A family is installed when text set in it, with a generic family behind, measures other than
 * in the generic family alone, for one of two generics (a family could match one of them).
 * One size and weight: one font look-up per family.
 */
function canvasProbe(): ((family: string) => boolean) | null {
  const ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d')
  if (!ctx) return null
  const width = (font: string) => {
    ctx.font = font
    return ctx.measureText(SAMPLE).width
  }
  const base = ['monospace', 'serif'].map((g) => [g, width(`40px ${g}`)] as const)
  return (family) => base.some(([g, w]) => width(`40px ${family}, ${g}`) !== w)
}

/** Where the stack found last time is kept (the families installed rarely change). */
export const FONT_CACHE_KEY = 'engram.font'

/** The stack for this page, probed (the whole stack where probing is not needed or possible). */
export function probeUiFont(): string {
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent
  const probe = probesFonts(ua) ? canvasProbe() : null
  return (probe ? fromFirstInstalled(UI_FONT_STACK, probe) : UI_FONT_STACK).join(', ')
}

/** A kept stack, when it is still one this build could have chosen (a tail of UI_FONT_STACK). */
export function validCachedStack(v: string | null): string | null {
  if (!v) return null
  for (let i = 0; i < UI_FONT_STACK.length; i++) if (UI_FONT_STACK.slice(i).join(', ') === v) return v
  return null
}

function readCache(): string | null {
  try {
    return validCachedStack(localStorage.getItem(FONT_CACHE_KEY))
  } catch {
    return null
  }
}

function writeCache(v: string) {
  try {
    localStorage.setItem(FONT_CACHE_KEY, v)
  } catch {
    /* storage unavailable: probed again next time */
  }
}

/** The stack in use (App.vue hands it to naive-ui; a re-check may change it once). */
export const uiFont = ref(UI_FONT_STACK.join(', '))

/**
 * Settles the stack before the app mounts (main.ts): the one kept from the last start when
 * there is one (the probe costs 10–25 ms of the first frame), probed and kept otherwise.
 * A kept stack is probed again once the first view is on screen, and replaced if the fonts
 * installed changed meanwhile (the text then restyles once).
 */
export function applyUiFont(root: HTMLElement = document.documentElement): void {
  const set = (v: string) => {
    uiFont.value = v
    root.style.setProperty('--font-ui', v)
  }
  if (!probesFonts(typeof navigator === 'undefined' ? '' : navigator.userAgent)) {
    set(UI_FONT_STACK.join(', '))
    return
  }
  const cached = readCache()
  if (!cached) {
    const v = probeUiFont()
    set(v)
    writeCache(v)
    return
  }
  set(cached)
  afterFirstPaint(() => {
    const v = probeUiFont()
    if (v === cached) return
    writeCache(v)
    set(v)
  })
}
