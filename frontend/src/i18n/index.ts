import { computed, ref } from 'vue'
import { catalogs, LANGUAGES, type Lang } from './catalogs'
import { makeTranslator, type Args } from './core'
import type { ApiError } from '@/api/errors'
import { CONFIDENCES, MEMORY_TYPES, SCOPES } from '@/api/types'

export { LANGUAGES, type Lang }

const lang = ref<Lang>(detect())

function detect(): Lang {
  const nav = typeof navigator !== 'undefined' ? navigator.language : 'en'
  return nav.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en'
}

export function normaliseLang(v: unknown): Lang {
  return (LANGUAGES as readonly string[]).includes(v as string) ? (v as Lang) : 'en'
}

const translator = computed(() => {
  const order = lang.value === 'en' ? [catalogs.en] : [catalogs[lang.value], catalogs.en]
  return makeTranslator(lang.value, order)
})

/** Translates key with go-i18n style {{.Name}} args in the current language. */
export function t(key: string, args?: Args): string {
  return translator.value(key, args)
}

/** Whether the catalog holds key (in the current language or English). */
export function hasKey(key: string): boolean {
  return translator.value.has(key)
}

const ARG_ENUMS: Record<string, [string, readonly string[]]> = {
  Confidence: ['ui.confidence.', CONFIDENCES],
  Scope: ['ui.scopes.', SCOPES],
  Type: ['ui.types.', MEMORY_TYPES],
}

/** Backend args carry enum values ("low"); show them in the UI language. */
export function localiseArgs(args: Args): Args {
  if (!args) return args
  const out: Record<string, unknown> = { ...args }
  for (const [name, [prefix, values]] of Object.entries(ARG_ENUMS)) {
    const v = out[name]
    if (typeof v === 'string' && values.includes(v)) out[name] = t(prefix + v)
  }
  return out
}

/** Translates a backend message key (error.*, warning.*) with its args. */
export function tBackend(key: string, args?: Args): string {
  return t(key, localiseArgs(args))
}

/** The translated text of an ApiError (or any error normalised to one). */
export function tError(e: Pick<ApiError, 'i18nKey' | 'args' | 'code' | 'message'>): string {
  if (translator.value.has(e.i18nKey)) return tBackend(e.i18nKey, e.args)
  const generic = `error.${e.code}`
  if (translator.value.has(generic)) return tBackend(generic, e.args)
  return t('ui.errors.unknown', { Message: e.message || e.code })
}

export function setLanguage(l: Lang) {
  lang.value = l
  if (typeof document !== 'undefined') document.documentElement.lang = l
}

export function useLanguage() {
  return lang
}
