import { computed, ref } from 'vue'
import { catalog, lazyCatalog, LANGUAGES, type Lang } from './catalogs'
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
  const order = lang.value === 'en' ? [catalog('en')] : [catalog(lang.value), lazyCatalog('en')]
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
  // A quota's level ("critical") reads in words, as the backend's own message has it.
  if (typeof out.Level === 'string' && hasKey(`quota.level.${out.Level}`)) out.Level = t(`quota.level.${out.Level}`)
  // A field or a status the backend names by key (FieldKey field.*, StatusKey) reads in the
  // UI's language; Field stays as the code spells it where no key came with it (a key of the
  // person's own file, an MCP argument).
  for (const name of ['Field', 'Status']) {
    const k = out[`${name}Key`]
    if (typeof k === 'string' && hasKey(k)) out[name] = t(k)
  }
  // A reason the backend names by key (DetailKey, detail.*) reads in the UI's language.
  const dk = out.DetailKey
  if (typeof dk === 'string' && dk.startsWith('detail.') && hasKey(dk)) out.Detail = t(dk, out as Args)
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

/**
 * "Could not save the setting: <why>" — what failed and the error's text, joined the way the
 * language joins them (a full-width colon in Chinese). The UI glued them with an ASCII ": ",
 * which read "无法保存设置: 基础 URL…" in the Chinese UI.
 */
export function tFailed(whatKey: string, e: Pick<ApiError, 'i18nKey' | 'args' | 'code' | 'message'>): string {
  return t('ui.errors.failed_because', { What: t(whatKey), Error: tError(e) })
}

/** The text of a coded failure carried in a result (run error, problem, decision result). */
export function tCode(code: string | undefined, args?: Args, fallback = ''): string {
  if (!code) return fallback
  const key = `error.${code}`
  if (translator.value.has(key)) return tBackend(key, args ?? { Detail: fallback })
  return fallback || code
}

/** Formats a 0–1 score or confidence with two decimals in the UI language. */
export function formatScore(v: unknown): string {
  const n = typeof v === 'number' ? v : Number(v)
  if (!Number.isFinite(n)) return String(v ?? '')
  return new Intl.NumberFormat(lang.value, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)
}

/** Why the organizer proposed a decision: organizer.reason.<code> with its args, localised. */
export function tReason(reason: { code: string; args?: Record<string, unknown> | null; text?: string } | null | undefined): string {
  if (!reason) return ''
  const key = `organizer.reason.${reason.code}`
  if (!reason.code || !translator.value.has(key)) return reason.text ?? reason.code ?? ''
  const args: Record<string, unknown> = { ...(reason.args ?? {}) }
  const tier = args.Tier
  if (typeof tier === 'string' && translator.value.has(`organizer.tier.${tier}`)) args.Tier = t(`organizer.tier.${tier}`)
  if (args.Score !== undefined) args.Score = formatScore(args.Score)
  return t(key, localiseArgs(args))
}

export function setLanguage(l: Lang) {
  lang.value = l
  if (typeof document !== 'undefined') document.documentElement.lang = l
}

export function useLanguage() {
  return lang
}
