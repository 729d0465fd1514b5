import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import * as api from '../../src/api'
import type { Transport } from '../../src/api/transport'
import type { Decision, OrganizerProgress, RunDetail, RunSummary } from '../../src/api/types'
import {
  applyProgress,
  groupByCluster,
  isApplicable,
  mergeReloaded,
  mergeRunRef,
  neverStarted,
  pendingCount,
  progressPercent,
  removedPercent,
  stubRun,
} from '../../src/util/organizer'
import { RELOAD_DELAY_MS, useOrganizer } from '../../src/stores/organizer'
import { useProblems } from '../../src/stores/problems'
import { ACTIVITY_PAGE, useActivity } from '../../src/stores/activity'

const run = (o: Partial<RunSummary>): RunSummary => ({ ...stubRun({ id: 'r', status: 'done' }, 'manual'), ...o })
const prog = (o: Partial<OrganizerProgress>): OrganizerProgress => ({ run_id: 'r', phase: 'scan', status: 'running', done: 0, total: 0, ...o })

describe('progress arithmetic', () => {
  it('moves one fifth per phase and inside a phase by done/total', () => {
    expect(progressPercent(prog({ phase: 'scan' }))).toBe(0)
    expect(progressPercent(prog({ phase: 'cluster', done: 1, total: 2 }))).toBe(30)
    expect(progressPercent(prog({ phase: 'plan', done: 3, total: 3 }))).toBe(60)
    expect(progressPercent(prog({ phase: 'apply' }))).toBe(80)
    expect(progressPercent(prog({ phase: 'apply', status: 'done' }))).toBe(100)
  })

  it('is indeterminate while queued and unknown without progress', () => {
    expect(progressPercent(prog({ phase: '', status: 'queued' }))).toBeNull()
    expect(progressPercent(null)).toBeNull()
  })

  it('reports the share of memories removed', () => {
    expect(removedPercent({ initial_count: 8, final_count: 6 })).toBe(25)
    expect(removedPercent({ initial_count: 0, final_count: 0 })).toBe(0)
  })

  it('knows a run stopped before it started', () => {
    expect(neverStarted(run({ status: 'aborted', phase: '' }))).toBe(true)
    expect(neverStarted(run({ status: 'aborted', phase: 'scan' }))).toBe(false)
    expect(neverStarted(run({ status: 'queued', phase: '' }))).toBe(false)
  })

  it('counts decisions still waiting for review', () => {
    expect(pendingCount({ decisions: 5, applied: 1, failed: 1, dropped: 1 })).toBe(2)
    expect(pendingCount(null)).toBe(0)
  })
})

describe('run list bookkeeping', () => {
  it('lists a queued Run Now at once, at the top', () => {
    const runs = [run({ id: 'a', status: 'running' })]
    const out = mergeRunRef(runs, { id: 'b', status: 'queued' }, 'manual')
    expect(out.map((r) => [r.id, r.status])).toEqual([
      ['b', 'queued'],
      ['a', 'running'],
    ])
    expect(out[0].trigger).toBe('manual')
  })

  it('never moves a run backwards', () => {
    const runs = [run({ id: 'b', status: 'running' })]
    expect(mergeRunRef(runs, { id: 'b', status: 'queued' }, 'manual')).toBe(runs)
    expect(applyProgress(runs, prog({ run_id: 'b', status: 'queued', phase: '' })).runs[0].status).toBe('running')
  })

  it('follows progress events and says when a run is unknown', () => {
    const runs = [run({ id: 'b', status: 'queued', phase: '' })]
    const r = applyProgress(runs, prog({ run_id: 'b', phase: 'plan', done: 1, total: 2 }))
    expect(r.known).toBe(true)
    expect(r.runs[0]).toMatchObject({ status: 'running', phase: 'plan', progress: { done: 1, total: 2 } })
    expect(applyProgress(runs, prog({ run_id: 'zzz' })).known).toBe(false)
  })

  it('keeps runs Run Now added that a reload does not list yet', () => {
    const old = [run({ id: 'new', status: 'queued' }), run({ id: 'a' })]
    const out = mergeReloaded([run({ id: 'a' })], old, new Set(['new']))
    expect(out.map((r) => r.id)).toEqual(['new', 'a'])
    expect(mergeReloaded([run({ id: 'a' })], old, new Set()).map((r) => r.id)).toEqual(['a'])
  })
})

const ref = (id: string, slug = id) => ({ id, slug, title: slug, scope: 'global' as const, scope_key: '', type: 'user' as const, path: `global/user/${slug}.md`, version: 'v', reviewed: false, confidence: 'low' as const })
const decision = (o: Partial<Decision>): Decision => ({
  id: 'd001',
  cluster_id: 'c001',
  action: 'merge_into',
  targets: [ref('m2')],
  into: ref('m1'),
  confidence: 0.95,
  risk: 'low',
  reason: { code: 'contained', args: { Into: 'm1', Count: 1 } },
  outcome: 'queue',
  bucket: 'manual_review',
  status: 'pending',
  ...o,
})

function detailWith(decisions: Decision[], status: RunSummary['status'] = 'done'): RunDetail {
  return {
    ...run({ id: 'r1', status }),
    report: {
      version: 1,
      run_id: 'r1',
      trigger: 'manual',
      mode: 'standard',
      clusterer: 'structural',
      planner: 'offline',
      quota_level: 'normal',
      quota_headroom: 498,
      scopes: [],
      counts: { scanned: 3, scopes: 1, clusters: 2, clusters_failed: 1, decisions: decisions.length, keep: 0, merge_into: 1, delete: 0, mark_review: 0, rewrite_hint: 0, auto: 0, queued: 1, dropped: 0, applied: 0, failed: 0, removed: 0 },
      rejection_buckets: { manual_review: 1 },
      clusters: [
        { id: 'c001', key: 'global:user:x/1', scope: 'global', scope_key: '', size: 2, entry_ids: ['m1', 'm2'], status: 'ok' },
        { id: 'c002', key: 'global:user:x/2', scope: 'global', scope_key: '', size: 1, entry_ids: ['m3'], status: 'failed', error: { code: 'organizer_internal', message: 'x' } },
        { id: 'c003', key: 'global:user:x/3', scope: 'global', scope_key: '', size: 1, entry_ids: ['m4'], status: 'ok' },
      ],
      decisions,
      snapshots: [],
    },
  }
}

describe('report grouping', () => {
  it('groups decisions by cluster and keeps failed clusters', () => {
    const g = groupByCluster(detailWith([decision({}), decision({ id: 'd002', cluster_id: 'c001', action: 'mark_review', into: null })]))
    expect(g.map((x) => [x.key, x.decisions.map((d) => d.id)])).toEqual([
      ['c001', ['d001', 'd002']],
      ['c002', []],
    ])
  })

  it('offers only pending, queued decisions of finished runs', () => {
    const d = decision({})
    expect(isApplicable(run({ status: 'done' }), d)).toBe(true)
    expect(isApplicable(run({ status: 'running' }), d)).toBe(false)
    expect(isApplicable(run({ status: 'done' }), decision({ status: 'applied' }))).toBe(false)
    expect(isApplicable(run({ status: 'done' }), decision({ outcome: 'drop', status: 'dropped' }))).toBe(false)
    // An undone run's waiting changes are not offered (the api refuses them).
    const undone = { ...run({ status: 'done' }), report: { undo: { at: '2026-01-01T00:00:00Z' } } }
    expect(isApplicable(undone, d)).toBe(false)
  })
})

/** A transport answering api methods from a table, recording calls, with events on demand. */
function fakeTransport(handlers: Record<string, (p: Record<string, unknown>) => unknown>) {
  const calls: [string, Record<string, unknown>][] = []
  const subs: Record<string, ((d: unknown) => void)[]> = {}
  const t: Transport = {
    kind: 'ws',
    async call(method, params) {
      calls.push([method, params as Record<string, unknown>])
      const h = handlers[method]
      if (!h) throw new api.ApiError('unknown_method', 'error.unknown_method', { Method: method })
      return h(params as Record<string, unknown>)
    },
    on(name, cb) {
      ;(subs[name] ??= []).push(cb)
      return () => {}
    },
  }
  return { t, calls, emit: (name: string, d: unknown) => (subs[name] ?? []).forEach((cb) => cb(d)) }
}

const settings = { enabled: true, frequency_hours: 24, mode: 'standard', min_hours_between_runs: 12, min_new_memories: 5, review_after_days: 30 }

describe('organizer store', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
    api.setTransport(null)
  })

  it('shows a Run Now made while a run is active as queued at once, then follows it', async () => {
    const active = run({ id: 'a', status: 'running', phase: 'plan' })
    let serverRuns: RunSummary[] = [active]
    const { t, calls } = fakeTransport({
      'organizer.status': () => ({ settings, armed: true, queued: serverRuns.filter((r) => r.status === 'queued').length, active: serverRuns.find((r) => r.status === 'running') }),
      // The list lags behind: the new run is not in it yet.
      'organizer.runs': () => ({ runs: serverRuns }),
      'organizer.runNow': () => ({ id: 'b', status: 'queued' }),
      'organizer.run': (p) => ({ ...(serverRuns.find((r) => r.id === p.id) ?? run({ id: String(p.id), status: 'queued' })), report: null }),
    })
    api.setTransport(t)
    const org = useOrganizer()
    await org.refresh()
    expect(org.active?.id).toBe('a')

    const res = await org.runNow()
    expect(res.status).toBe('queued')
    expect(calls.find(([m]) => m === 'organizer.runNow')?.[1]).toEqual({ trigger: 'manual' })
    // Listed and opened before any reload.
    expect(org.runs.map((r) => [r.id, r.status])).toEqual([
      ['b', 'queued'],
      ['a', 'running'],
    ])
    expect(org.selectedId).toBe('b')
    expect(org.progressOf(org.runs[0])?.status).toBe('queued')

    // A reload that does not list it yet keeps it.
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS + 10)
    expect(org.runs.map((r) => r.id)).toEqual(['b', 'a'])

    // The active run ends, the queued one starts: its progress shows.
    serverRuns = [run({ id: 'b', status: 'running', phase: 'scan' }), { ...active, status: 'done' }]
    org.onProgress(prog({ run_id: 'a', status: 'done', phase: 'apply' }))
    org.onProgress(prog({ run_id: 'b', status: 'running', phase: 'cluster', done: 1, total: 3 }))
    expect(org.runs.find((r) => r.id === 'b')?.status).toBe('running')
    expect(org.progressOf(org.runs.find((r) => r.id === 'b'))).toMatchObject({ phase: 'cluster', done: 1, total: 3 })
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS + 10)
    expect(org.active?.id).toBe('b')
    // A late "queued" event never hides a run that started.
    org.onProgress(prog({ run_id: 'b', status: 'queued', phase: '' }))
    expect(org.runs.find((r) => r.id === 'b')?.status).toBe('running')
  })

  it('reloads the list for a run it did not know (asked for elsewhere)', async () => {
    const { t, calls } = fakeTransport({
      'organizer.status': () => ({ settings, armed: false, queued: 1 }),
      'organizer.runs': () => ({ runs: [run({ id: 'x', status: 'queued' })] }),
      'organizer.run': () => ({ ...run({ id: 'x', status: 'queued' }), report: null }),
    })
    api.setTransport(t)
    const org = useOrganizer()
    org.onProgress(prog({ run_id: 'x', status: 'queued', phase: '' }))
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS + 10)
    expect(calls.filter(([m]) => m === 'organizer.runs').length).toBe(1)
    expect(org.runs.map((r) => r.id)).toEqual(['x'])
    expect(org.busy).toBe(true)
  })

  it('applies the chosen pending decisions and reloads the report', async () => {
    let det = detailWith([decision({}), decision({ id: 'd002', status: 'applied', outcome: 'auto', bucket: '' })])
    const { t, calls } = fakeTransport({
      'organizer.status': () => ({ settings, armed: true, queued: 0 }),
      'organizer.runs': () => ({ runs: [det] }),
      'organizer.run': () => det,
      'organizer.applyReport': (p) => {
        det = detailWith([decision({ status: 'applied', result: { at: '2026-01-01T00:00:00Z', by: 'review', removed: 1 } }), decision({ id: 'd002', status: 'applied', outcome: 'auto' })])
        return { run_id: p.run_id, decisions: [{ id: 'd001', status: 'applied' }], applied: 1, failed: 0, final_count: 2, compression_ratio: 0.67, snapshot: 's' }
      },
    })
    api.setTransport(t)
    const org = useOrganizer()
    await org.select('r1')
    expect(org.applicable).toEqual(['d001'])
    org.toggle('d002', true) // not pending: ignored
    org.toggle('d001', true)
    expect(org.chosen).toEqual(['d001'])
    const r = await org.applyChosen()
    expect(r.applied).toBe(1)
    expect(calls.find(([m]) => m === 'organizer.applyReport')?.[1]).toEqual({ run_id: 'r1', decision_ids: ['d001'] })
    expect(org.detail?.report?.decisions?.[0].status).toBe('applied')
    expect(org.applicable).toEqual([])
    expect(org.chosen).toEqual([])
  })

  it('saves a settings patch and keeps the status in step', async () => {
    const { t, calls } = fakeTransport({
      'organizer.status': () => ({ settings: { ...settings, mode: 'aggressive' }, armed: true, queued: 0 }),
      'organizer.updateSettings': (p) => ({ ...settings, ...p }),
    })
    api.setTransport(t)
    const org = useOrganizer()
    const s = await org.updateSettings({ mode: 'aggressive' })
    expect(s.mode).toBe('aggressive')
    expect(org.settings?.mode).toBe('aggressive')
    expect(calls[0]).toEqual(['organizer.updateSettings', { mode: 'aggressive' }])
  })

  it('previews an undo without changing anything, then undoes and reloads the run', async () => {
    let det = detailWith([decision({ status: 'applied', outcome: 'auto', bucket: '' })])
    const { t, calls } = fakeTransport({
      'organizer.status': () => ({ settings, armed: true, queued: 0 }),
      'organizer.runs': () => ({ runs: [det] }),
      'organizer.run': () => det,
      'organizer.undo': (p) => {
        if (!p.dry_run) det = { ...det, report: { ...det.report!, undo: { at: '2026-01-01T00:00:00Z', by: 'user', decisions: ['d001'], conflicts: 0, restored: 1, reverted: 1 } } }
        return { run_id: p.run_id, dry_run: p.dry_run, items: [], undone: 1, conflicts: 0, restored: 1, reverted: 1 }
      },
    })
    api.setTransport(t)
    const org = useOrganizer()
    await org.select('r1')
    const pre = await org.undoRun(true)
    expect(pre.dry_run).toBe(true)
    expect(org.lastUndo).toBeNull()
    expect(org.detail?.report?.undo).toBeFalsy()
    await org.undoRun(false)
    expect(calls.filter(([m]) => m === 'organizer.undo').map(([, p]) => p)).toEqual([
      { run_id: 'r1', dry_run: true },
      { run_id: 'r1', dry_run: false },
    ])
    expect(org.lastUndo?.undone).toBe(1)
    expect(org.detail?.report?.undo?.decisions).toEqual(['d001'])
    expect(org.undoing).toBe(false)
  })

  it('turns a refused apply into an ApiError', async () => {
    const { t } = fakeTransport({
      'organizer.run': () => detailWith([decision({})]),
      'organizer.status': () => ({ settings, armed: true, queued: 0 }),
      'organizer.runs': () => ({ runs: [] }),
      'organizer.applyReport': () => {
        throw { code: -32000, message: 'busy', data: { code: 'organizer_busy', i18n_key: 'error.organizer_busy', args: {} } }
      },
    })
    api.setTransport(t)
    const org = useOrganizer()
    await org.select('r1')
    org.chooseAll(true)
    await expect(org.applyChosen()).rejects.toMatchObject({ code: 'organizer_busy' })
    expect(org.applying).toBe(false)
  })
})

describe('problems and activity stores', () => {
  beforeEach(() => setActivePinia(createPinia()))
  afterEach(() => api.setTransport(null))

  it('re-checks the files, then lists what still cannot be read', async () => {
    let problems = [{ path: 'global/user/b.md', code: 'parse_error', detail: 'yaml', seen_at: '' }, { path: 'global/user/a.md', code: 'duplicate_id', detail: 'x', seen_at: '' }]
    const { t, calls } = fakeTransport({
      'memory.problems': () => ({ problems }),
      'index.reconcile': () => {
        problems = problems.slice(0, 1)
        return { scanned: 9, added: 0, updated: 0, removed: 0, unchanged: 8, problems: 1 }
      },
    })
    api.setTransport(t)
    const p = useProblems()
    await p.refresh()
    expect(p.items.map((x) => x.path)).toEqual(['global/user/a.md', 'global/user/b.md'])
    const r = await p.recheck()
    expect(r.scanned).toBe(9)
    expect(calls.map(([m]) => m)).toEqual(['memory.problems', 'index.reconcile', 'memory.problems'])
    expect(p.items.map((x) => x.path)).toEqual(['global/user/b.md'])
  })

  it('pages the audit log back by sequence number', async () => {
    const all = Array.from({ length: 120 }, (_, i) => ({ seq: 120 - i, ts: '', op: 'write', actor: 'user', memory_id: `m${i}`, slug: `s${i}`, scope: 'global', session: '', model: '', result: 'ok', detail: {} }))
    const { t, calls } = fakeTransport({
      'memory.history': (p) =>
        ({ entries: all.filter((e) => !p.before_seq || e.seq < Number(p.before_seq)).slice(0, Number(p.limit)) }),
    })
    api.setTransport(t)
    const a = useActivity()
    await a.refresh()
    expect(a.entries.length).toBe(ACTIVITY_PAGE)
    expect(calls[0][1]).toEqual({ limit: ACTIVITY_PAGE })
    expect(a.canLoadMore).toBe(true)
    await a.loadMore()
    await a.loadMore()
    expect(a.entries.length).toBe(120)
    expect(a.entries.map((e) => e.seq)).toEqual(all.map((e) => e.seq))
    expect(calls[1][1]).toEqual({ limit: ACTIVITY_PAGE, before_seq: 71 })
    expect(a.canLoadMore).toBe(false)
    expect(calls.every(([, p]) => !('id' in p))).toBe(true)
  })
})
