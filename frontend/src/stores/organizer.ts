import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api'
import { latest } from './latest'
import { applicableIds, applyProgress, isLive, isTerminal, mergeReloaded, mergeRunRef, withApplied } from '@/util/organizer'

export const RUNS_PAGE = 30
/** Delay that folds a burst of progress events into one reload. */
export const RELOAD_DELAY_MS = 200

/**
 * The organizer as the UI sees it: status, run history, the open run's report with the
 * decisions chosen for review, live progress (organizer.progress) and the settings.
 */
export const useOrganizer = defineStore('organizer', () => {
  const status = ref<api.OrganizerStatus | null>(null)
  const runs = ref<api.RunSummary[]>([])
  const runsLimit = ref(RUNS_PAGE)
  const moreRuns = ref(false)
  const runList = latest()
  const loading = runList.loading
  const error = ref<api.ApiError | null>(null)
  const selectedId = ref<string | null>(null)
  const detail = ref<api.RunDetail | null>(null)
  const runDetail = latest()
  const detailLoading = runDetail.loading
  const detailError = ref<api.ApiError | null>(null)
  /** Latest organizer.progress per run id. */
  const progress = ref<Record<string, api.OrganizerProgress>>({})
  const settings = ref<api.OrganizerSettings | null>(null)
  const settingsError = ref<api.ApiError | null>(null)
  /** Decision ids ticked for "Apply selected" (of the open run). */
  const chosen = ref<string[]>([])
  const applying = ref(false)
  /** What the last applyReport did, per decision id (of the run it was for). */
  const lastApply = ref<api.ApplyReportResult | null>(null)
  /** The last undo's answer: the changes it left as they are and why. */
  const lastUndo = ref<api.UndoResult | null>(null)
  const undoing = ref(false)
  const starting = ref(false)
  /** Runs Run Now reported that a reload may not list yet. */
  const pending = new Set<string>()
  let reloadTimer: ReturnType<typeof setTimeout> | undefined

  /** The running run: from the list, the status, or a progress event. */
  const active = computed<api.RunSummary | null>(() => {
    const inList = runs.value.find((r) => r.status === 'running')
    if (inList) return inList
    const st = status.value?.active
    return st && !isTerminal(progress.value[st.id]?.status) ? st : null
  })
  const queued = computed(() => runs.value.filter((r) => r.status === 'queued'))
  /** A run is under way or waiting. */
  const busy = computed(() => !!active.value || queued.value.length > 0 || (status.value?.queued ?? 0) > 0)
  const applicable = computed(() => applicableIds(detail.value))

  function progressOf(run: Pick<api.RunSummary, 'id' | 'status' | 'progress'> | null | undefined): api.OrganizerProgress | null {
    if (!run) return null
    return progress.value[run.id] ?? run.progress ?? (isLive(run.status) ? { run_id: run.id, phase: '', status: run.status, done: 0, total: 0 } : null)
  }

  async function loadStatus() {
    try {
      status.value = await api.organizerStatus()
      if (!settings.value) settings.value = status.value.settings
    } catch (e) {
      error.value = api.normalizeError(e)
    }
  }

  async function loadRuns() {
    await runList.run(
      () => api.organizerRuns({ limit: runsLimit.value }),
      (r) => {
        const fresh = r.runs ?? []
        for (const run of fresh) pending.delete(run.id)
        runs.value = mergeReloaded(fresh, runs.value, pending)
        moreRuns.value = fresh.length >= runsLimit.value
        error.value = null
        if (!selectedId.value && runs.value.length) void select(runs.value[0].id)
      },
      (e) => (error.value = e),
    )
  }

  async function refresh() {
    await Promise.all([loadStatus(), loadRuns()])
  }

  async function loadMoreRuns() {
    runsLimit.value += RUNS_PAGE
    await loadRuns()
  }

  /** Reloads status, list and the open run soon (a burst of events gives one reload). */
  function scheduleReload() {
    clearTimeout(reloadTimer)
    reloadTimer = setTimeout(() => {
      reloadTimer = undefined
      void refresh()
      if (selectedId.value) void reloadDetail()
    }, RELOAD_DELAY_MS)
  }

  async function select(id: string | null) {
    if (id !== selectedId.value) {
      chosen.value = []
      lastApply.value = null
    }
    selectedId.value = id
    if (!id) {
      detail.value = null
      detailError.value = null
      return
    }
    if (detail.value?.id !== id) detail.value = null
    await reloadDetail()
  }

  async function reloadDetail() {
    const id = selectedId.value
    if (!id) return
    await runDetail.run(
      () => api.organizerRun(id),
      (d) => {
        detail.value = d
        detailError.value = null
        // Only pending decisions stay chosen.
        const ok = new Set(applicableIds(d))
        chosen.value = chosen.value.filter((x) => ok.has(x))
      },
      (e) => (detailError.value = e),
    )
  }


  /**
   * Asks for a run. Whatever the answer (started, or queued behind the active run), the run is
   * listed and opened at once, then followed by its progress events.
   */
  async function runNow(trigger: api.OrganizerTrigger = 'manual'): Promise<api.RunRef> {
    return runNowFor({ trigger })
  }

  /** runNow with its params: the quota banner limits a run to the scope filling up. */
  async function runNowFor(params: api.RunNowParams): Promise<api.RunRef> {
    const trigger = params.trigger ?? 'manual'
    starting.value = true
    try {
      const ref = await api.organizerRunNow({ ...params, trigger })
      pending.add(ref.id)
      runs.value = mergeRunRef(runs.value, ref, trigger)
      const p = progress.value[ref.id]
      if (!p || (p.status === 'queued' && ref.status !== 'queued')) {
        progress.value = { ...progress.value, [ref.id]: { run_id: ref.id, phase: ref.status === 'running' ? 'scan' : '', status: ref.status, done: 0, total: 0 } }
      }
      // Events may have overtaken the answer: apply what is known.
      if (p) runs.value = applyProgress(runs.value, p).runs
      void select(ref.id)
      scheduleReload()
      return ref
    } catch (e) {
      throw api.normalizeError(e)
    } finally {
      starting.value = false
    }
  }

  async function abort(runId?: string): Promise<api.RunRef> {
    try {
      const ref = await api.organizerAbort(runId)
      // A queued run is stopped at once; a running one stops at its next checkpoint (events follow).
      if (ref.status === 'aborted') onProgress({ run_id: ref.id, phase: '', status: 'aborted', done: 0, total: 0 })
      scheduleReload()
      return ref
    } catch (e) {
      throw api.normalizeError(e)
    }
  }

  /** organizer.progress: move the run along; reload when it ended or is not listed. */
  function onProgress(p: api.OrganizerProgress | null | undefined) {
    if (!p || typeof p.run_id !== 'string') return
    const prev = progress.value[p.run_id]
    // A late "queued" must not hide a run that already started.
    if (prev && prev.status !== 'queued' && p.status === 'queued') return
    progress.value = { ...progress.value, [p.run_id]: p }
    const r = applyProgress(runs.value, p)
    runs.value = r.runs
    if (!r.known || isTerminal(p.status) || (prev?.status !== p.status)) scheduleReload()
  }

  function toggle(id: string, on: boolean) {
    const set = new Set(chosen.value)
    if (on) set.add(id)
    else set.delete(id)
    chosen.value = applicable.value.filter((x) => set.has(x))
  }

  function chooseAll(on: boolean) {
    chosen.value = on ? applicable.value.slice() : []
  }

  /** Applies the chosen decisions of the open run (organizer.applyReport). */
  async function applyChosen(): Promise<api.ApplyReportResult> {
    const run = selectedId.value
    if (!run) throw new api.ApiError('organizer_no_decisions', 'error.organizer_no_decisions')
    applying.value = true
    try {
      const r = await api.organizerApplyReport({ run_id: run, decision_ids: chosen.value.slice() })
      lastApply.value = r
      chosen.value = []
      // The figures the apply changed (final count, compression) are its answer: shown at once
      // and kept over reloads that answered from before it (a list read while it ran).
      const patch = () => {
        runs.value = runs.value.map((x) => withApplied(x, r))
        if (detail.value) detail.value = withApplied(detail.value, r)
      }
      patch()
      await Promise.all([reloadDetail(), refresh()])
      patch()
      return r
    } catch (e) {
      throw api.normalizeError(e)
    } finally {
      applying.value = false
    }
  }

  /** Takes the open run back (organizer.undo), or with dryRun says what would come back. */
  async function undoRun(dryRun: boolean): Promise<api.UndoResult> {
    const run = selectedId.value
    if (!run) throw new api.ApiError('organizer_nothing_to_undo', 'error.organizer_nothing_to_undo')
    if (!dryRun) undoing.value = true
    try {
      const r = await api.organizerUndo({ run_id: run, dry_run: dryRun })
      if (!dryRun) {
        lastUndo.value = r
        await Promise.all([reloadDetail(), refresh()])
      }
      return r
    } catch (e) {
      throw api.normalizeError(e)
    } finally {
      if (!dryRun) undoing.value = false
    }
  }

  async function loadSettings() {
    try {
      settings.value = await api.organizerSettings()
      settingsError.value = null
    } catch (e) {
      settingsError.value = api.normalizeError(e)
    }
  }

  async function updateSettings(patch: api.OrganizerSettingsPatch): Promise<api.OrganizerSettings> {
    try {
      const s = await api.organizerUpdateSettings(patch)
      settings.value = s
      if (status.value) status.value = { ...status.value, settings: s }
      void loadStatus() // the timer may have been re-armed
      return s
    } catch (e) {
      throw api.normalizeError(e)
    }
  }

  return {
    status,
    runs,
    runsLimit,
    moreRuns,
    loading,
    error,
    selectedId,
    detail,
    detailLoading,
    detailError,
    progress,
    settings,
    settingsError,
    chosen,
    applying,
    lastApply,
    starting,
    active,
    queued,
    busy,
    applicable,
    progressOf,
    refresh,
    loadStatus,
    loadRuns,
    loadMoreRuns,
    select,
    reloadDetail,
    runNow,
    runNowFor,
    abort,
    onProgress,
    toggle,
    chooseAll,
    applyChosen,
    undoRun,
    lastUndo,
    undoing,
    loadSettings,
    updateSettings,
  }
})
