import { describe, expect, it } from 'vitest'
import { formatRelative, plainSnippet, utf8Bytes } from '../../src/util/format'

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
