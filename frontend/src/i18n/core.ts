// go-i18n compatible catalog handling, free of Vue so it can be unit-tested.
//
// A catalog is TOML with nested tables: `[ui.memories]` + `title = "Memories"`
// gives the key "ui.memories.title". A table whose keys are go-i18n message
// fields (one/other/…) is a single message with plural forms. Placeholders are
// go-i18n templates: {{.Name}}.

import { parse } from 'smol-toml'

export type PluralForms = Partial<Record<'zero' | 'one' | 'two' | 'few' | 'many' | 'other', string>>
export type Message = string | PluralForms
export type Catalog = Map<string, Message>
export type Args = Record<string, unknown> | undefined

const PLURAL_KEYS = new Set(['zero', 'one', 'two', 'few', 'many', 'other'])
const META_KEYS = new Set(['id', 'description', 'hash', 'leftdelim', 'rightdelim'])

function isPluralTable(v: Record<string, unknown>): boolean {
  const keys = Object.keys(v)
  return (
    keys.includes('other') &&
    keys.every((k) => (PLURAL_KEYS.has(k) || META_KEYS.has(k)) && typeof v[k] === 'string')
  )
}

/** Parses a TOML catalog into a flat key → message map. */
export function parseCatalog(text: string): Catalog {
  const out: Catalog = new Map()
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${k}` : k
      if (typeof v === 'string') out.set(key, v)
      else if (v && typeof v === 'object' && !Array.isArray(v)) {
        const table = v as Record<string, unknown>
        if (isPluralTable(table)) {
          const forms: PluralForms = {}
          for (const p of PLURAL_KEYS) if (typeof table[p] === 'string') forms[p as keyof PluralForms] = table[p] as string
          out.set(key, forms)
        } else walk(table, key)
      }
    }
  }
  walk(parse(text) as Record<string, unknown>, '')
  return out
}

const TEMPLATE = /\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}/g

function stringify(v: unknown): string {
  if (v === undefined || v === null) return ''
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

/** Substitutes {{.Name}} placeholders with args.Name. */
export function substitute(template: string, args: Args): string {
  if (!template.includes('{{')) return template
  return template.replace(TEMPLATE, (_m, name: string) => stringify(args?.[name]))
}

function pluralCount(args: Args): number | undefined {
  const c = args?.PluralCount ?? args?.Count
  if (typeof c === 'number') return c
  if (typeof c === 'string' && c.trim() !== '' && !Number.isNaN(Number(c))) return Number(c)
  return undefined
}

/** Chooses a plural form for lang and count (Intl.PluralRules, like CLDR). */
export function pickForm(forms: PluralForms, lang: string, count: number | undefined): string {
  if (count !== undefined) {
    if (count === 0 && forms.zero !== undefined) return forms.zero
    try {
      const cat = new Intl.PluralRules(lang).select(count) as keyof PluralForms
      if (forms[cat] !== undefined) return forms[cat]!
    } catch {
      /* unknown locale */
    }
  }
  return forms.other ?? forms.one ?? ''
}

export interface Translator {
  (key: string, args?: Args): string
  has(key: string): boolean
}

/**
 * Builds t() over catalogs in order of preference: the first catalog holding
 * the key wins; a key no catalog holds is returned as is.
 */
export function makeTranslator(lang: string, catalogs: Pick<Catalog, 'get' | 'has'>[]): Translator {
  const t = ((key: string, args?: Args) => {
    for (const c of catalogs) {
      const m = c.get(key)
      if (m === undefined) continue
      const tpl = typeof m === 'string' ? m : pickForm(m, lang, pluralCount(args))
      return substitute(tpl, args)
    }
    return key
  }) as Translator
  t.has = (key: string) => catalogs.some((c) => c.has(key))
  return t
}

/** Keys with the given prefix, sorted. */
export function keysWithPrefix(c: Catalog, prefix: string): string[] {
  return [...c.keys()].filter((k) => k.startsWith(prefix)).sort()
}
