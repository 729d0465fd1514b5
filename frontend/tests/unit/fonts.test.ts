import { describe, expect, it } from 'vitest'
import { UI_FONT_STACK, fromFirstInstalled, probesFonts } from '@/util/fonts'

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
