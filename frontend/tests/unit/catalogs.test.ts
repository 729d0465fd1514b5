import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import { asciiOnly, catalogJson } from '../../vite.config'
import { parseCatalog } from '../../src/i18n/core'
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
