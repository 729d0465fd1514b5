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

/** A row's memory as people know it: its title (recorded with a reject or delete, when the
 *  memory is gone) or slug, and the raw id only when nothing else was recorded. */
export function memoryLabel(e: Pick<AuditEntry, 'slug' | 'memory_id' | 'detail'>): string {
  const title = typeof e.detail?.title === 'string' ? e.detail.title : ''
  const slug = e.slug || (typeof e.detail?.slug === 'string' ? e.detail.slug : '')
  if (title && slug) return `${title} (${slug})`
  return title || slug || e.memory_id
}

/** The reason a person gave for a reject, when they gave one. */
export function reasonOf(e: Pick<AuditEntry, 'op' | 'detail'>): string {
  return e.op === 'reject' && typeof e.detail?.reason === 'string' ? e.detail.reason : ''
}
