// Labels of audit log rows (memory.history), shared by the Activity view and the reader's
// History card.
import { hasKey, t, tCode } from '@/i18n'
import { formatDateTime } from '@/util/format'
import type { AuditEntry, MemorySource } from '@/api/types'

export function opLabel(op: string): string {
  return hasKey(`ui.activity.op.${op}`) ? t(`ui.activity.op.${op}`) : op
}

/**
 * What a row of the log did: a refused op reads as refused ("Write refused"), never as the
 * op it tried ("Created"), so a refused write is not mistaken for a new memory.
 */
export function rowOpLabel(e: Pick<AuditEntry, 'op' | 'result' | 'detail'>): string {
  // An update that took a memory back to review (Review's undo of an accept) is not an edit.
  if (resultOk(e) && e.op === 'update' && e.detail?.unreviewed === true) return opLabel('unaccept')
  if (resultOk(e)) return opLabel(e.op)
  return hasKey(`ui.activity.op_refused.${e.op}`) ? t(`ui.activity.op_refused.${e.op}`) : t('ui.activity.refusal.op', { Op: opLabel(e.op) })
}

export function actorLabel(actor: string): string {
  return hasKey(`ui.activity.actor.${actor}`) ? t(`ui.activity.actor.${actor}`) : actor
}

/** Who a row names as its author: the agent a journal entry was written for (the journal
 *  shows the same name), else the actor that carried the change. */
export function rowActorLabel(e: Pick<AuditEntry, 'actor' | 'detail'>): string {
  const agent = e.detail?.agent
  return typeof agent === 'string' && agent ? agent : actorLabel(e.actor)
}

export function resultOk(e: Pick<AuditEntry, 'result'>): boolean {
  return e.result === 'ok' || e.result === ''
}

/**
 * The result of a row: "Done", or the refusal translated with the arguments the store
 * recorded (detail.args). A row recorded before those were kept has only the English message:
 * its translation would show empty placeholders ("looks like a secret ( )"), so the generic
 * refusal and the recorded message are shown instead. The code itself is in resultTitle.
 */
export function resultLabel(e: Pick<AuditEntry, 'result' | 'detail'>): string {
  if (resultOk(e)) return t('ui.activity.ok')
  const msg = typeof e.detail?.error === 'string' ? e.detail.error : ''
  const args = e.detail?.args
  if (args && typeof args === 'object' && !Array.isArray(args)) return tCode(e.result, args as Record<string, unknown>, msg || e.result)
  if (hasKey(`error.${e.result}`) && !placeholders(`error.${e.result}`)) return tCode(e.result, {}, msg || e.result)
  return msg ? t('ui.activity.refusal.detail', { Code: e.result, Detail: msg.replace(/^memory: /, '') }) : e.result
}

/**
 * The row result's tooltip: its text, and for a refusal the store's code after it, which a
 * person quoting the row in a report needs but the row itself need not show.
 */
export function resultTitle(e: Pick<AuditEntry, 'result' | 'detail'>): string {
  const label = resultLabel(e)
  if (resultOk(e) || label.includes(e.result)) return label
  return `${label} (${e.result})`
}

/** Whether the catalog text of key has {{.Arg}} placeholders. */
function placeholders(key: string): boolean {
  const probe = new Proxy({}, { get: () => '\u0000' })
  return t(key, probe).includes('\u0000')
}

const ULID_TIME = /^organizer(-undo)?:([0-9A-HJKMNP-TV-Z]{10})[0-9A-HJKMNP-TV-Z]{16}$/
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** The start of the organizer run a session names ("organizer:<ULID>", or the undo of that run:
 *  "organizer-undo:<ULID>"), and whether it is the undo; null for any other session. */
function organizerRunTime(session: string): { at: Date; undo: boolean } | null {
  const m = ULID_TIME.exec(session)
  if (!m) return null
  let ms = 0
  for (const c of m[2]) ms = ms * 32 + CROCKFORD.indexOf(c)
  return { at: new Date(ms), undo: !!m[1] }
}

/** Session and model of a tool or extractor change, when recorded. An organizer run (and a
 *  person's undo of one) is named by when the run started, not by its 26-character id. */
export function originLine(e: Pick<AuditEntry, 'session' | 'model'>, lang = 'en'): string {
  const run = organizerRunTime(e.session)
  const key = run?.undo ? 'ui.activity.organizer_undo' : 'ui.activity.organizer_run'
  const session = run ? t(key, { When: formatDateTime(run.at.toISOString(), lang) }) : e.session
  return [session, e.model].filter(Boolean).join(' · ')
}

/** A row's memory as people know it: its title (recorded with a reject or delete, when the
 *  memory is gone) or slug, and the raw id only when nothing else was recorded. */
export function memoryLabel(e: Pick<AuditEntry, 'slug' | 'memory_id' | 'detail' | 'title'>): string {
  // The title recorded with the row (a reject, a delete, a refused write), else the title the
  // memory has now: every row reads "Title (slug)" alike.
  const title = typeof e.detail?.title === 'string' && e.detail.title ? e.detail.title : (e.title ?? '')
  const slug = e.slug || (typeof e.detail?.slug === 'string' ? e.detail.slug : '')
  if (title && slug && title !== slug) return `${title} (${slug})`
  return title || slug || e.memory_id
}

/** The reason a person gave for a reject, when they gave one. */
export function reasonOf(e: Pick<AuditEntry, 'op' | 'detail'>): string {
  return e.op === 'reject' && typeof e.detail?.reason === 'string' ? e.detail.reason : ''
}

/**
 * The rows of a memory's source (where it came from) that say something, as [label key, value]:
 * the reader's evidence and Review's evidence pane show the same rows.
 */
export function sourceRows(s: MemorySource | undefined | null): [string, unknown][] {
  if (!s) return []
  return (
    [
      ['source_kind', s.kind && hasKey(`ui.source_kinds.${s.kind}`) ? t(`ui.source_kinds.${s.kind}`) : s.kind],
      ['source_agent', s.agent],
      ['source_session', s.session],
      ['source_turn', s.turn],
      ['source_model', s.model],
    ] as [string, unknown][]
  ).filter(([, v]) => v !== undefined && v !== null && v !== '' && v !== 0)
}
