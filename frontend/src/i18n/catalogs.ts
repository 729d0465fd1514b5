// The one catalog shared with Go: repo-root locales/ (alias @locales). The build turns each
// TOML catalog into its flattened key → message table as JSON text (vite.config.ts,
// catalogJson): reading a string literal costs the page next to nothing, and only the
// language shown is parsed (JSON.parse, a few milliseconds) — the other one the first time
// it is asked for, at a language switch, synchronously, so the switch is immediate. The
// TOML parser stays out of the page.
import enJson from '@locales/en.toml?catalog'
import zhJson from '@locales/zh-CN.toml?catalog'
import type { Catalog, Message } from './core'

export const LANGUAGES = ['en', 'zh-CN'] as const
export type Lang = (typeof LANGUAGES)[number]

const sources: Record<Lang, string> = { en: enJson, 'zh-CN': zhJson }
const parsed = new Map<Lang, Catalog>()

/** The catalog of lang, parsed on first use. */
export function catalog(lang: Lang): Catalog {
  let c = parsed.get(lang)
  if (!c) {
    c = new Map(JSON.parse(sources[lang]) as [string, Message][])
    parsed.set(lang, c)
  }
  return c
}

/**
 * The catalog of lang, parsed when a key is first looked up in it: the English fallback
 * behind Chinese costs nothing while Chinese holds every key.
 */
export function lazyCatalog(lang: Lang): Pick<Catalog, 'get' | 'has'> {
  return { get: (k) => catalog(lang).get(k), has: (k) => catalog(lang).has(k) }
}
