// Organizer view logic free of Vue and i18n state, so it can be unit-tested: progress
// arithmetic, run list bookkeeping for RunRef and progress events, decisions by cluster.

import {
  RUN_PHASES,
  type ApplyReportResult,
  type ClusterReport,
  type Decision,
  type OrganizerProgress,
  type RunCounts,
  type RunDetail,
  type RunPhase,
  type RunRef,
  type RunStatus,
  type RunSummary,
} from '@/api/types'

export const TERMINAL: readonly RunStatus[] = ['done', 'failed', 'aborted']

export function isTerminal(s: RunStatus | string | undefined): boolean {
  return TERMINAL.includes(s as RunStatus)
}

/** A run that ended without ever starting (aborted while queued): nothing to show but that. */
export function neverStarted(r: Pick<RunSummary, 'status' | 'phase'> & { report?: unknown }): boolean {
  return isTerminal(r.status) && !r.phase && !r.report
}

/** A run that has not ended yet (queued or running). */
export function isLive(s: RunStatus | string | undefined): boolean {
  return s === 'queued' || s === 'running'
}

/**
 * Overall progress of a run in percent: each of the five phases is one fifth, and inside a
 * phase done/total moves the bar. Null while the run is queued (indeterminate).
 */
export function progressPercent(p: Pick<OrganizerProgress, 'phase' | 'status' | 'done' | 'total'> | null | undefined): number | null {
  if (!p) return null
  if (p.status === 'queued') return null
  if (isTerminal(p.status)) return 100
  const i = RUN_PHASES.indexOf(p.phase as RunPhase)
  if (i < 0) return 0
  const inside = p.total > 0 ? Math.min(1, Math.max(0, p.done / p.total)) : 0
  return Math.round(((i + inside) / RUN_PHASES.length) * 100)
}

/** The 1-based step of a phase (scan = 1 … apply = 5), 0 when unknown. */
export function phaseStep(phase: string | undefined): number {
  return RUN_PHASES.indexOf(phase as RunPhase) + 1
}

/** A list row for a run known only from a RunRef (Run Now), until the list is reloaded. */
export function stubRun(ref: RunRef, trigger: RunSummary['trigger'], now: Date = new Date()): RunSummary {
  return {
    id: ref.id,
    trigger,
    mode: 'standard',
    status: ref.status,
    phase: ref.status === 'running' ? 'scan' : '',
    started_at: now.toISOString(),
    finished_at: null,
    initial_count: 0,
    final_count: 0,
    compression_ratio: 0,
    quota_headroom_at_start: 0,
    token_usage_total: 0,
    counts: null,
    rejection_buckets: null,
    error: null,
    progress: null,
  }
}

/**
 * Puts a run Run Now returned at the top of the list (or updates the row when the list already
 * has it). A run the list says has moved on (running, ended) keeps the newer state.
 */
export function mergeRunRef(runs: RunSummary[], ref: RunRef, trigger: RunSummary['trigger'], now?: Date): RunSummary[] {
  const i = runs.findIndex((r) => r.id === ref.id)
  if (i < 0) return [stubRun(ref, trigger, now), ...runs]
  const cur = runs[i]
  if (rank(cur.status) >= rank(ref.status)) return runs
  const out = runs.slice()
  out[i] = { ...cur, status: ref.status }
  return out
}

/** How far along a status is: queued < running < ended. */
function rank(s: RunStatus): number {
  return s === 'queued' ? 0 : s === 'running' ? 1 : 2
}

/**
 * Applies an organizer.progress event to the list. known is false when the list lacks the run
 * (asked for elsewhere): the caller reloads the list.
 */
export function applyProgress(runs: RunSummary[], p: OrganizerProgress): { runs: RunSummary[]; known: boolean } {
  const i = runs.findIndex((r) => r.id === p.run_id)
  if (i < 0) return { runs, known: false }
  const cur = runs[i]
  // Events can overtake a reload: never move a run backwards.
  if (rank(p.status) < rank(cur.status)) return { runs, known: true }
  const out = runs.slice()
  out[i] = { ...cur, status: p.status, phase: p.phase || cur.phase, progress: p }
  return { runs: out, known: true }
}

/** A list reloaded from the server, keeping runs Run Now added that it does not show yet. */
export function mergeReloaded(fresh: RunSummary[], old: RunSummary[], pendingIds: Set<string>): RunSummary[] {
  const have = new Set(fresh.map((r) => r.id))
  const keep = old.filter((r) => pendingIds.has(r.id) && !have.has(r.id))
  return [...keep, ...fresh]
}

export interface ClusterGroup {
  cluster: ClusterReport | null
  /** Cluster id (or "" for decisions whose cluster is not in the report). */
  key: string
  decisions: Decision[]
}

/**
 * Decisions grouped by cluster in report order. "keep" decisions are left out unless
 * withKeep (they change nothing); failed clusters are listed even without decisions.
 */
export function groupByCluster(detail: Pick<RunDetail, 'report'> | null | undefined, withKeep = false): ClusterGroup[] {
  const rep = detail?.report
  if (!rep) return []
  const clusters = rep.clusters ?? []
  const groups = new Map<string, ClusterGroup>()
  for (const c of clusters) groups.set(c.id, { cluster: c, key: c.id, decisions: [] })
  for (const d of rep.decisions ?? []) {
    if (!withKeep && d.action === 'keep') continue
    let g = groups.get(d.cluster_id)
    if (!g) {
      g = { cluster: null, key: d.cluster_id || '', decisions: [] }
      groups.set(g.key, g)
    }
    g.decisions.push(d)
  }
  return [...groups.values()].filter((g) => g.decisions.length > 0 || g.cluster?.status === 'failed')
}

/** Whether a person can still apply the decision (organizer.applyReport). */
export function isApplicable(run: (Pick<RunSummary, 'status'> & { report?: { undo?: unknown } | null }) | null | undefined, d: Decision): boolean {
  // An undone run's waiting changes were planned on memories the undo put back: the api
  // refuses them (organizer_run_undone), so they are not offered.
  return !!run && run.status === 'done' && !run.report?.undo && d.status === 'pending' && d.outcome === 'queue'
}

export function applicableIds(detail: RunDetail | null | undefined): string[] {
  if (!detail?.report) return []
  return (detail.report.decisions ?? []).filter((d) => isApplicable(detail, d)).map((d) => d.id)
}

/** Every memory a decision names: the keeper first, then the targets. */
export function involved(d: Decision): { ref: NonNullable<Decision['into']>; role: 'into' | 'target' }[] {
  const out: { ref: NonNullable<Decision['into']>; role: 'into' | 'target' }[] = []
  if (d.into) out.push({ ref: d.into, role: 'into' })
  for (const t of d.targets ?? []) out.push({ ref: t, role: 'target' })
  return out
}

/** The compression ratio as a percentage of memories removed (0 when nothing was). */
export function removedPercent(run: Pick<RunSummary, 'initial_count' | 'final_count'>): number {
  if (!run.initial_count) return 0
  return Math.max(0, Math.round(((run.initial_count - run.final_count) / run.initial_count) * 100))
}

/** Decisions of a run still waiting for a person (from the counts of a list row). */
export function pendingCount(c: Pick<RunCounts, 'decisions' | 'applied' | 'failed' | 'dropped'> | null | undefined): number {
  if (!c) return 0
  return Math.max(0, c.decisions - c.applied - c.failed - c.dropped)
}

/**
 * The run as an apply left it: its final count and compression ratio are the apply's answer
 * (the figures the Organizer view shows), other runs are returned unchanged.
 */
export function withApplied<T extends Pick<RunSummary, 'id' | 'final_count' | 'compression_ratio'>>(run: T, applied: Pick<ApplyReportResult, 'run_id' | 'final_count' | 'compression_ratio'>): T {
  if (run.id !== applied.run_id) return run
  return { ...run, final_count: applied.final_count, compression_ratio: applied.compression_ratio }
}
