// Labels of audit log rows (memory.history), shared by the Activity view and the reader's
// History card.
import { hasKey, t, tCode } from '@/i18n'
import type { AuditEntry } from '@/api/types'

export function opLabel(op: string): string {
  return hasKey(`ui.activity.op.${op}`) ? t(`ui.activity.op.${op}`) : op
}

export function actorLabel(actor: string): string {
  return hasKey(`ui.activity.actor.${actor}`) ? t(`ui.activity.actor.${actor}`) : actor
}

export function resultOk(e: Pick<AuditEntry, 'result'>): boolean {
  return e.result === 'ok' || e.result === ''
}

export function resultLabel(e: Pick<AuditEntry, 'result' | 'detail'>): string {
  if (resultOk(e)) return t('ui.activity.ok')
  const msg = typeof e.detail?.error === 'string' ? e.detail.error : ''
  return tCode(e.result, { Detail: msg }, msg || e.result)
}

/** Session and model of a tool or extractor change, when recorded. */
export function originLine(e: Pick<AuditEntry, 'session' | 'model'>): string {
  return [e.session, e.model].filter(Boolean).join(' · ')
}
