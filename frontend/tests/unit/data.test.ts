import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import { createPinia, setActivePinia } from 'pinia'
import * as api from '../../src/api'
import type { Transport } from '../../src/api/transport'
import type { AuditEntry, RunSummary } from '../../src/api/types'
import { setLanguage } from '../../src/i18n'
import { resultLabel, rowOpLabel } from '../../src/util/audit'
import { stubRun, withApplied } from '../../src/util/organizer'
import { exportFileName, formatBytes, historySeries, organizeParams, previewApplies, progressPercent } from '../../src/util/storage'
import { useOrganizer } from '../../src/stores/organizer'

const entry = (o: Partial<AuditEntry>): AuditEntry => ({ seq: 1, ts: '2026-01-01T00:00:00Z', op: 'write', actor: 'tool', memory_id: '', slug: 'leaky', scope: 'global', session: '', model: '', result: 'ok', detail: {}, ...o })

describe('Activity rows of refused writes', () => {
  afterEach(() => setLanguage('en'))
  it('shows a refused write as refused, never as "Created"', () => {
    const refused = entry({ result: 'secret_detected', detail: { error: 'memory: body looks like a secret (aws_access_key)', args: { Field: 'body', Kind: 'aws_access_key' } } })
    expect(rowOpLabel(entry({}))).toBe('Created')
    expect(rowOpLabel(refused)).toBe('Write refused')
    setLanguage('zh-CN')
    expect(rowOpLabel(refused)).toBe('写入被拒绝')
  })
  it('translates the refusal with the arguments the store recorded', () => {
    const refused = entry({ result: 'secret_detected', detail: { error: 'x', args: { Field: 'body', Kind: 'aws_access_key' } } })
    setLanguage('zh-CN')
    const zh = resultLabel(refused)
    expect(zh).toContain('body')
    expect(zh).toContain('aws_access_key')
    expect(zh).not.toMatch(/（\s*）/)
  })
  it('never shows a template with its arguments missing (rows from before args were kept)', () => {
    const old = entry({ result: 'secret_detected', detail: { error: 'memory: body looks like a secret (aws_access_key)' } })
    for (const l of ['en', 'zh-CN'] as const) {
      setLanguage(l)
      const s = resultLabel(old)
      expect(s).toContain('secret_detected')
      expect(s).toContain('aws_access_key')
      expect(s).not.toMatch(/（\s*）|\(\s*\)/)
    }
    // A code whose text has no placeholder is translated as such.
    setLanguage('en')
    expect(resultLabel(entry({ result: 'missing_body', detail: { error: 'memory: body is required' } }))).not.toContain('missing_body')
  })
})

describe('the edit form says a conflict once', () => {
  it('shows the conflict hint without the error text that repeats it', () => {
    const src = fs.readFileSync(path.resolve(__dirname, '../../src/components/MemoryForm.vue'), 'utf8')
    const alert = src.slice(src.indexOf('data-test="conflict"'), src.indexOf('</n-alert>', src.indexOf('data-test="conflict"')))
    expect(alert).toContain("t('ui.form.conflict_hint')")
    expect(alert).not.toContain('tError(')
  })
})

describe('storage helpers', () => {
  it('limits the banner run to the scope it sits beside', () => {
    expect(organizeParams({ scope: 'global', key: '' })).toEqual({ scope: 'global' })
    expect(organizeParams({ scope: 'project', key: 'abc', workdir: '/src/a' })).toEqual({ scope: 'project', workdir: '/src/a' })
    expect(organizeParams({ scope: 'project', key: '0123456789abcdef' })).toEqual({ scope: 'project', key: '0123456789abcdef' })
    expect(organizeParams({ scope: 'agent', key: 'codex', agent: 'codex' })).toEqual({ scope: 'agent', agent: 'codex' })
  })
  it('formats sizes, progress, file names and the history series', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB')
    expect(progressPercent(0, 0)).toBeNull()
    expect(progressPercent(50, 200)).toBe(25)
    expect(progressPercent(300, 200)).toBe(100)
    expect(exportFileName(new Date(2026, 0, 5))).toBe('engram-export-2026-01-05.jsonl')
    const s = historySeries([
      { day: '2026-01-02', at: '', memories: 5, archived: 0, bytes: 10, index_bytes: 1 },
      { day: '2026-01-01', at: '', memories: 3, archived: 0, bytes: 6, index_bytes: 1 },
    ])
    expect(s).toEqual({ days: ['2026-01-01', '2026-01-02'], memories: [3, 5], bytes: [7, 11] })
    expect(previewApplies({ new: 0, daily: 0, kv: 0 })).toBe(false)
    expect(previewApplies({ new: 0, daily: 1, kv: 0 })).toBe(true)
  })
})

describe('organizer figures after an apply', () => {
  beforeEach(() => setActivePinia(createPinia()))
  afterEach(() => api.setTransport(null))

  it('patches only the applied run', () => {
    const a = stubRun({ id: 'a', status: 'done' }, 'manual') as RunSummary
    const b = stubRun({ id: 'b', status: 'done' }, 'manual') as RunSummary
    const res = { run_id: 'a', final_count: 7, compression_ratio: 0.7 }
    expect(withApplied(a, res)).toMatchObject({ final_count: 7, compression_ratio: 0.7 })
    expect(withApplied(b, res)).toBe(b)
  })

  it('shows the new compression at once, even when a reload answered from before the apply', async () => {
    const stale = { ...(stubRun({ id: 'r1', status: 'done' }, 'manual') as RunSummary), initial_count: 10, final_count: 10, compression_ratio: 1 }
    const t: Transport = {
      kind: 'ws',
      async call(method) {
        switch (method) {
          case 'organizer.status':
            return { settings: {}, armed: false, queued: 0 }
          case 'organizer.runs':
            return { runs: [stale] }
          case 'organizer.run':
            return { ...stale, report: { decisions: [{ id: 'd1', status: 'pending', action: 'merge_into', outcome: 'queue' }] } }
          case 'organizer.applyReport':
            return { run_id: 'r1', decisions: [{ id: 'd1', status: 'applied' }], applied: 1, failed: 0, final_count: 7, compression_ratio: 0.7, snapshot: 's' }
        }
        throw new api.ApiError('unknown_method', 'error.unknown_method')
      },
      on: () => () => {},
    }
    api.setTransport(t)
    const org = useOrganizer()
    await org.refresh()
    await org.select('r1')
    org.chosen = ['d1']
    await org.applyChosen()
    expect(org.detail?.compression_ratio).toBe(0.7)
    expect(org.detail?.final_count).toBe(7)
    expect(org.runs.find((r) => r.id === 'r1')?.compression_ratio).toBe(0.7)
  })
})
void vi

describe('a reason the backend names by key', () => {
  afterEach(() => setLanguage('en'))
  it('reads in the UI language, and follows a language switch', async () => {
    const { tError } = await import('../../src/i18n')
    const err = { code: 'usage_invalid_range', i18nKey: 'error.usage_invalid_range', message: 'The usage range is not valid: days must be between 1 and 366',
      args: { Detail: 'days must be between 1 and 366', DetailKey: 'detail.days_range', Max: 366 } }
    expect(tError(err)).toContain('give 1 to 366 days')
    setLanguage('zh-CN')
    const zh = tError(err)
    expect(zh).toContain('请给出 1 到 366 天')
    expect(zh).not.toContain('days must')
    // An unknown key keeps the backend's own words rather than showing the key.
    expect(tError({ ...err, args: { ...err.args, DetailKey: 'detail.nope' } })).toContain('days must be between 1 and 366')
  })
})

describe('a field or status the backend names by key', () => {
  afterEach(() => setLanguage('en'))
  it('reads in the UI language, the raw name staying where no key came with it', async () => {
    const { tError, tCode } = await import('../../src/i18n')
    const err = { code: 'field_too_long', i18nKey: 'error.field_too_long', message: 'title is too long: at most 300 characters per value.',
      args: { Field: 'source_quote', FieldKey: 'field.source_quote', Len: 900, Max: 500 } }
    expect(tError(err)).toContain('source_quote is too long')
    setLanguage('zh-CN')
    expect(tError(err)).toContain('原文引用过长')
    expect(tError(err)).not.toContain('source_quote')
    // A refused write kept in Activity carries the key too.
    expect(tCode('secret_detected', { Field: 'body', FieldKey: 'field.body', Kind: 'aws_access_key' })).toContain('位于“内容”')
    expect(tCode('organizer_decision_not_pending', { Decision: 'd1', Status: 'applied', StatusKey: 'organizer.decision_status.applied' })).toContain('“已应用”')
    // A key of the person's own import line is quoted as it was typed.
    expect(tCode('line_unknown_field', { Field: 'titel' })).toContain('“titel”')
  })
})
