// Normalises errors from either transport to one ApiError.
//
// Wails: the bound method rejects with a string holding JSON
//   {"code","i18n_key","args","message"}
// WebSocket JSON-RPC: {code:int, message, data:{code, i18n_key, args, message}}

export type ErrorArgs = Record<string, unknown>

export class ApiError extends Error {
  readonly code: string
  readonly i18nKey: string
  readonly args: ErrorArgs

  constructor(code: string, i18nKey: string, args: ErrorArgs = {}, message = '') {
    super(message || code)
    this.name = 'ApiError'
    this.code = code
    this.i18nKey = i18nKey
    this.args = args
  }
}

/** Key used when an error carries no i18n key of its own. */
export const UNKNOWN_ERROR_KEY = 'ui.errors.unknown'

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function fromPayload(p: Record<string, unknown>, fallbackMessage = ''): ApiError | null {
  const code = typeof p.code === 'string' ? p.code : ''
  const key = typeof p.i18n_key === 'string' ? p.i18n_key : ''
  if (!code && !key) return null
  const args = isObject(p.args) ? p.args : {}
  const message = typeof p.message === 'string' ? p.message : fallbackMessage
  return new ApiError(code || 'unknown', key || (code ? `error.${code}` : UNKNOWN_ERROR_KEY), args, message)
}

function unknown(message: string): ApiError {
  return new ApiError('unknown', UNKNOWN_ERROR_KEY, { Message: message }, message)
}

/** Turns whatever a transport rejected with into an ApiError. */
export function normalizeError(err: unknown): ApiError {
  if (err instanceof ApiError) return err
  if (typeof err === 'string') {
    const s = err.trim()
    if (s.startsWith('{')) {
      try {
        return normalizeError(JSON.parse(s))
      } catch {
        /* not JSON: fall through */
      }
    }
    return unknown(err)
  }
  if (isObject(err)) {
    // JSON-RPC error object: data carries the structured payload.
    if (isObject(err.data)) {
      const e = fromPayload(err.data, typeof err.message === 'string' ? err.message : '')
      if (e) return e
    }
    // Already the structured payload (e.g. parsed Wails string).
    const e = fromPayload(err)
    if (e) return e
    if (typeof err.message === 'string') return unknown(err.message)
  }
  if (err instanceof Error) return unknown(err.message)
  return unknown(String(err))
}

/** Codes that are about one field whatever their args say. */
const CODE_FIELDS: Record<string, string> = {
  body_too_large: 'body',
  missing_title: 'title',
  title_too_long: 'title',
  invalid_slug: 'slug',
  already_exists: 'slug',
  rejected_slug: 'slug',
}

/**
 * The field of a form an error is about, among the ones the form has: the error's Field
 * argument (secret_detected, field_too_long, control_character, …: "body", "source_quote", …)
 * or its code. null when it names none of them.
 */
export function errorField<F extends string>(err: ApiError | null | undefined, fields: readonly F[]): F | null {
  if (!err) return null
  const named = typeof err.args?.Field === 'string' ? err.args.Field : CODE_FIELDS[err.code]
  return named && (fields as readonly string[]).includes(named) ? (named as F) : null
}
