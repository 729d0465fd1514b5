// Texts of extraction runs, from the codes the backend records (one catalog for Go and the UI).
import { hasKey, t, tBackend } from '@/i18n'
import type { ExtractionStatus } from '@/api'

export function statusLabel(status: ExtractionStatus | string): string {
  const key = `extraction.status.${status}`
  return hasKey(key) ? t(key) : status
}

export function reasonLabel(reason: string | undefined): string {
  if (!reason) return ''
  const key = `extraction.reason.${reason}`
  return hasKey(key) ? t(key) : t('extraction.reason.unknown')
}

/** A refusal or warning code: plan codes (extraction.code.*), store codes (error.*, warning.*). */
export function codeText(code: string, args?: Record<string, unknown>, fallback = ''): string {
  for (const key of [`extraction.code.${code}`, `error.${code}`, `warning.${code}`]) {
    if (hasKey(key)) return tBackend(key, { Detail: fallback, ...(args ?? {}) })
  }
  return fallback || code
}

/** Tone of a status for its chip. */
export function statusTone(status: string): 'ok' | 'warn' | 'bad' | 'muted' | 'live' {
  switch (status) {
    case 'done':
      return 'ok'
    case 'partial':
      return 'warn'
    case 'failed':
      return 'bad'
    case 'running':
    case 'queued':
      return 'live'
  }
  return 'muted'
}
