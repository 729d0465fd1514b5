import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import { asciiOnly, catalogJson } from '../../vite.config'
import { makeTranslator, parseCatalog } from '../../src/i18n/core'
import { catalog } from '../../src/i18n/catalogs'

const localesDir = path.resolve(__dirname, '../../../locales')

// The hooks as Rollup calls them (this: a plugin context; only addWatchFile is used).
type Hook = (this: unknown, ...args: unknown[]) => { code: string } | null
const ctx = { addWatchFile() {} }

describe('catalogs built into the page', () => {
  it('hold, as JSON text, exactly what the TOML catalog says', () => {
    const load = catalogJson().load as unknown as Hook
    for (const lang of ['en', 'zh-CN']) {
      const file = path.join(localesDir, `${lang}.toml`)
      const out = load.call(ctx, `${file}?catalog`)!
      const text = new Function(out.code.replace(/^export default /, 'return '))() as string
      expect(new Map(JSON.parse(text))).toEqual(parseCatalog(fs.readFileSync(file, 'utf8')))
    }
    expect(load.call(ctx, path.join(localesDir, 'en.toml'))).toBeNull()
  })

  it('are parsed on first use, every ui key in both languages', () => {
    const en = catalog('en')
    const zh = catalog('zh-CN')
    expect(catalog('en')).toBe(en)
    const uiKeys = [...en.keys()].filter((k) => k.startsWith('ui.'))
    expect(uiKeys.length).toBeGreaterThan(100)
    for (const k of uiKeys) expect(zh.has(k), k).toBe(true)
    expect(zh.get('ui.nav.memories')).not.toEqual(en.get('ui.nav.memories'))
  })
})

describe('English counts', () => {
  // "1 entries" in the Journal's calendar, "1 flagged memories were left out" in Review, "A path
  // of 1 hops" in the Graph: a message that counts a noun has a singular form.
  const NOUNS = /\{\{\.(Count|PluralCount)\}\}\s+(?:[A-Za-z-]+\s+){0,3}?(memories|entries|files|messages|hops|days|items|runs|changes|rows|lines|results|turns|entities|relations|versions|commits|sessions|backups|findings)\b/
  it('read in the singular for one', () => {
    const en = catalog('en')
    const plain = [...en.keys()].filter((k) => k.startsWith('ui.') && typeof en.get(k) === 'string' && NOUNS.test(en.get(k) as string))
    expect(plain).toEqual([])
    const t = makeTranslator('en', [en])
    expect(t('ui.journal.entries', { Count: 1 })).toBe('1 entry')
    expect(t('ui.journal.entries', { Count: 2 })).toBe('2 entries')
    expect(t('ui.review.flagged_left_out', { Count: 1 })).toMatch(/^1 flagged memory was left out/)
    expect(t('ui.data.exported', { Count: '1' })).toBe('Exported 1 memory')
    expect(t('ui.graph.path_found', { Count: 1 })).toBe('A path of 1 hop')
    const zh = makeTranslator('zh-CN', [catalog('zh-CN')])
    expect(zh('ui.journal.entries', { Count: 1 })).toBe('1 条记录')
  })
})

describe('ASCII-only chunks', () => {
  it('escape what is left beyond ASCII and mean the same', () => {
    const src = 'const r=/^(第\\s*)?\\d+(日|时)?/i, c=/[一二三四]刻/, s="中文 😀", t=`前${1}`; return [r.test("第 3日"), r.test("x"), c.test("三刻"), s, t]'
    const render = asciiOnly().renderChunk as unknown as Hook
    const out = render.call(ctx, src)!.code
    expect(out).toMatch(/^[\x00-\x7f]*$/)
    expect(new Function(out)()).toEqual(new Function(src)())
    expect(render.call(ctx, 'const a = 1')).toBeNull()
  })
})
