import { describe, expect, it } from 'vitest'
import { formatRelative, kib, plainSnippet, utf8Bytes } from '../../src/util/format'

describe('plainSnippet', () => {
  it('strips Markdown markup for one-line previews', () => {
    expect(plainSnippet('The user prefers **dark themes**.\n\n- uses [[neovim]]\n- see [docs](https://x.test)')).toBe(
      'The user prefers dark themes. uses neovim see docs',
    )
    expect(plainSnippet('# Title\n> quoted `code`')).toBe('Title quoted code')
    expect(plainSnippet('[[acme-db|Acme DB]] 用户**不吃香菜**')).toBe('Acme DB 用户不吃香菜')
    expect(plainSnippet(undefined)).toBe('')
  })
})

describe('format helpers', () => {
  it('rounds KiB up to one decimal: a few bytes never read 0.0, a size past a limit never reads as it', () => {
    expect(kib(0)).toBe('0.0')
    expect(kib(50)).toBe('0.1')
    expect(kib(1024)).toBe('1.0')
    expect(kib(8192)).toBe('8.0')
    expect(kib(8193)).toBe('8.1')
  })

  it('counts UTF-8 bytes', () => {
    expect(utf8Bytes('abc')).toBe(3)
    expect(utf8Bytes('香菜')).toBe(6)
  })

  it('formats relative times in the given language', () => {
    const now = Date.parse('2026-01-10T12:00:00Z')
    expect(formatRelative('2026-01-10T10:00:00Z', 'en', now)).toMatch(/2 hr/)
    expect(formatRelative('2026-01-09T12:00:00Z', 'en', now)).toBe('yesterday')
    expect(formatRelative('garbage', 'en', now)).toBe('')
  })
})

describe('clampBytes', () => {
  it('cuts a query at a whole character within the byte limit', async () => {
    const { clampBytes } = await import('../../src/stores/memories')
    expect(clampBytes('abc', 1024)).toBe('abc')
    expect(clampBytes('x'.repeat(5000), 1024)).toHaveLength(1024)
    const zh = clampBytes('中'.repeat(400), 1024)
    expect(zh).toBe('中'.repeat(341))
    expect(clampBytes('😀'.repeat(300), 1024)).toBe('😀'.repeat(256))
  })
})
