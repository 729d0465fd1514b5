import { afterEach, describe, expect, it, vi } from 'vitest'
import { FONT_CACHE_KEY, UI_FONT_STACK, applyUiFont, fromFirstInstalled, probesFonts, uiFont, validCachedStack } from '@/util/fonts'

describe('fromFirstInstalled', () => {
  const cases: [string, string[], string][] = [
    ['macOS: the system font first', ['-apple-system'], '-apple-system'],
    ['Linux with DejaVu only', ['"DejaVu Sans"', '"WenQuanYi Micro Hei"'], '"DejaVu Sans"'],
    ['GNOME: Cantarell before DejaVu', ['Cantarell', '"DejaVu Sans"'], 'Cantarell'],
    ['Ubuntu: the Ubuntu font', ['Ubuntu', '"DejaVu Sans"', '"Noto Sans"'], 'Ubuntu'],
    ['only a Chinese family', ['"WenQuanYi Micro Hei"'], '"WenQuanYi Micro Hei"'],
    ['nothing found: the whole stack', [], '-apple-system'],
  ]
  it.each(cases)('%s', (_name, installed, first) => {
    const got = fromFirstInstalled(UI_FONT_STACK, (f) => installed.includes(f))
    expect(got[0]).toBe(first)
    // What is kept is the stack's own tail, in its order: the fallbacks behind stay.
    expect(got).toEqual(UI_FONT_STACK.slice(UI_FONT_STACK.indexOf(first)))
    expect(got.at(-1)).toBe('sans-serif')
  })

  it('never asks about the generic family at the end', () => {
    const asked: string[] = []
    fromFirstInstalled(UI_FONT_STACK, (f) => (asked.push(f), false))
    expect(asked).not.toContain('sans-serif')
    expect(asked).toEqual(UI_FONT_STACK.slice(0, -1))
  })
})

describe('probesFonts', () => {
  const cases: [string, string, boolean][] = [
    ['WebKitGTK (the Linux desktop window)', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Safari/605.1.15', true],
    ['Chromium on Linux', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', true],
    ['Android (says Linux too)', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', false],
    ['macOS (WKWebView)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)', false],
    ['Windows (WebView2)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0', false],
    ['no user agent', '', false],
  ]
  it.each(cases)('%s', (_name, ua, want) => {
    expect(probesFonts(ua)).toBe(want)
  })
})

describe('validCachedStack', () => {
  const cases: [string, string | null, string | null][] = [
    ['the whole stack', UI_FONT_STACK.join(', '), UI_FONT_STACK.join(', ')],
    ['a tail of it', '"DejaVu Sans", "Helvetica Neue", Arial, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif', '"DejaVu Sans", "Helvetica Neue", Arial, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif'],
    ['a stack from another build', '"DejaVu Sans", sans-serif', null],
    ['anything else', 'url(x)', null],
    ['nothing kept', null, null],
    ['empty', '', null],
  ]
  it.each(cases)('%s', (_name, kept, want) => {
    expect(validCachedStack(kept)).toBe(want)
  })
})

describe('applyUiFont', () => {
  const linux = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko)'
  const dejavu = UI_FONT_STACK.slice(UI_FONT_STACK.indexOf('"DejaVu Sans"')).join(', ')
  function fakeRoot() {
    const props = new Map<string, string>()
    return { props, root: { style: { setProperty: (k: string, v: string) => void props.set(k, v) } } as unknown as HTMLElement }
  }
  function fakeStorage(init: Record<string, string>) {
    const m = new Map(Object.entries(init))
    return { m, storage: { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) } }
  }
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('starts from the kept stack, then keeps what a new probe finds', () => {
    vi.useFakeTimers()
    vi.stubGlobal('navigator', { userAgent: linux })
    const { m, storage } = fakeStorage({ [FONT_CACHE_KEY]: dejavu })
    vi.stubGlobal('localStorage', storage)
    const { props, root } = fakeRoot()
    applyUiFont(root)
    expect(props.get('--font-ui')).toBe(dejavu)
    expect(uiFont.value).toBe(dejavu)
    // Once the first view is on screen (at the latest after 3 s) the fonts are probed again:
    // here nothing can be measured (no canvas), so the whole stack replaces the kept one.
    vi.advanceTimersByTime(3000)
    expect(props.get('--font-ui')).toBe(UI_FONT_STACK.join(', '))
    expect(uiFont.value).toBe(UI_FONT_STACK.join(', '))
    expect(m.get(FONT_CACHE_KEY)).toBe(UI_FONT_STACK.join(', '))
  })

  it('probes and keeps the answer when nothing valid is kept', () => {
    vi.stubGlobal('navigator', { userAgent: linux })
    const { m, storage } = fakeStorage({ [FONT_CACHE_KEY]: 'garbage' })
    vi.stubGlobal('localStorage', storage)
    const { props, root } = fakeRoot()
    applyUiFont(root)
    expect(props.get('--font-ui')).toBe(UI_FONT_STACK.join(', '))
    expect(m.get(FONT_CACHE_KEY)).toBe(UI_FONT_STACK.join(', '))
  })

  it('uses the whole stack and keeps nothing off Linux', () => {
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15' })
    const { m, storage } = fakeStorage({ [FONT_CACHE_KEY]: dejavu })
    vi.stubGlobal('localStorage', storage)
    const { props, root } = fakeRoot()
    applyUiFont(root)
    expect(props.get('--font-ui')).toBe(UI_FONT_STACK.join(', '))
    expect(m.get(FONT_CACHE_KEY)).toBe(dejavu)
  })
})
