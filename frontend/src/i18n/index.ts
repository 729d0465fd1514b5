import { computed, ref } from 'vue'
import { catalogs, LANGUAGES, type Lang } from './catalogs'
import { makeTranslator, type Args } from './core'
import type { ApiError } from '@/api/errors'

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

/** The translated text of an ApiError (or any error normalised to one). */
export function tError(e: Pick<ApiError, 'i18nKey' | 'args' | 'code' | 'message'>): string {
  if (translator.value.has(e.i18nKey)) return t(e.i18nKey, e.args)
  const generic = `error.${e.code}`
  if (translator.value.has(generic)) return t(generic, e.args)
  return t('ui.errors.unknown', { Message: e.message || e.code })
}

export function setLanguage(l: Lang) {
  lang.value = l
  if (typeof document !== 'undefined') document.documentElement.lang = l
}

export function useLanguage() {
  return lang
}
