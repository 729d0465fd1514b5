import { describe, expect, it } from 'vitest'
import { memoryLabel, originLine, resultLabel, resultTitle, rowActorLabel, rowOpLabel } from '../../src/util/audit'
import type { AuditEntry } from '../../src/api/types'

function row(over: Partial<AuditEntry>): AuditEntry {
  return { seq: 1, ts: '', op: 'update', actor: 'user', memory_id: 'm1', slug: 'a-slug', scope: 'global', session: '', model: '', result: 'ok', detail: {}, ...over } as AuditEntry
}

describe('Activity rows', () => {
  it('names an accept taken back for what it did, not as an edit', () => {
    expect(rowOpLabel(row({ detail: { unreviewed: true } }))).toBe('Back to review')
    expect(rowOpLabel(row({}))).toBe('Edited')
    expect(rowOpLabel(row({ op: 'reconcile' }))).toBe('Changed on disk')
  })

  it('names the agent a journal entry was written for', () => {
    expect(rowActorLabel(row({ op: 'append_daily', detail: { agent: 'codex' } }))).toBe('codex')
    expect(rowActorLabel(row({ op: 'append_daily' }))).toBe('You')
  })

  it('shows a memory by its title and slug, once when they are the same', () => {
    expect(memoryLabel(row({ title: 'Prefers tea' }))).toBe('Prefers tea (a-slug)')
    expect(memoryLabel(row({ slug: '2026-12-03', title: '2026-12-03' }))).toBe('2026-12-03')
    expect(memoryLabel(row({ slug: '', memory_id: '', detail: { title: 'Refused write' } }))).toBe('Refused write')
  })
})

describe('Activity result', () => {
  it('reads a refusal in words and keeps its code for the tooltip only', () => {
    const refused = row({ op: 'write', result: 'secret_detected', detail: { args: { Kind: 'AWS access key' } } })
    expect(resultLabel(refused)).not.toContain('secret_detected')
    expect(resultLabel(refused).length).toBeGreaterThan(0)
    expect(resultTitle(refused)).toBe(`${resultLabel(refused)} (secret_detected)`)
    expect(resultTitle(row({}))).toBe(resultLabel(row({})))
  })
})

describe('Activity origin', () => {
  it('names an organizer run by when it started, not by its id', () => {
    // 01HZZZZZZZ… is a ULID; its first ten characters are the time in milliseconds.
    const line = originLine({ session: 'organizer:01J9Z3QX0000000000000000AA', model: '' }, 'en')
    expect(line.startsWith('run of ')).toBe(true)
    expect(line).not.toContain('01J9Z3QX')
    expect(originLine({ session: 'sess-7f2c', model: 'claude-sonnet-4' }, 'en')).toBe('sess-7f2c · claude-sonnet-4')
    // The person's undo of that run (session "organizer-undo:<run>") read as its raw id.
    const undo = originLine({ session: 'organizer-undo:01J9Z3QX0000000000000000AA', model: '' }, 'en')
    expect(undo.startsWith('undo of the run of ')).toBe(true)
    expect(undo).not.toContain('01J9Z3QX')
  })
})
