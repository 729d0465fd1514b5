import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api'
import { latest } from './latest'
import { itemError } from './memories'

/** One action the person can take back with `u`. */
export type Undoable =
  | { kind: 'accept'; ids: string[]; titles: string[] }
  | { kind: 'reject'; ids: string[]; titles: string[] }
  | { kind: 'skip'; ids: string[]; titles: string[] }

/**
 * The Review queue: unreviewed memories oldest first, the cursor, the batch selection, the
 * undo stack, and the unreviewed count the navigation shows (kept live from memory.changed).
 */
export const useReview = defineStore('review', () => {
  const items = ref<api.MemorySummary[]>([])
  const total = ref(0)
  const count = ref(0)
  const loaded = ref(false)
  const list = latest()
  const loading = list.loading
  const error = ref<api.ApiError | null>(null)
  const cursor = ref(0)
  const checked = ref<Set<string>>(new Set())
  const skipped = ref<string[]>([]) // skipped ids go to the end of the queue this session
  const undoStack = ref<Undoable[]>([])
  const busy = ref(false)
  const detail = ref<api.ReadResult | null>(null)
  const turn = ref<{ id: string; text: string; role: string } | null>(null)

  const ordered = computed(() => {
    const skip = new Set(skipped.value)
    const rest = items.value.filter((m) => !skip.has(m.id))
    const later = skipped.value.map((id) => items.value.find((m) => m.id === id)).filter((m): m is api.MemorySummary => !!m)
    return rest.concat(later)
  })
  const current = computed(() => ordered.value[Math.min(cursor.value, ordered.value.length - 1)] ?? null)
  const lastUndo = computed(() => undoStack.value[undoStack.value.length - 1] ?? null)

  async function refreshCount() {
    try {
      count.value = await api.unreviewedCount()
    } catch {
      /* the badge keeps its last figure; the queue shows the error */
    }
  }

  async function refresh() {
    await list.run(
      () => api.reviewQueue(),
      (r) => {
        items.value = r.items ?? []
        total.value = r.total ?? 0
        count.value = total.value
        error.value = null
        loaded.value = true
        const live = new Set(items.value.map((m) => m.id))
        checked.value = new Set([...checked.value].filter((id) => live.has(id)))
        skipped.value = skipped.value.filter((id) => live.has(id))
        if (cursor.value >= ordered.value.length) cursor.value = Math.max(0, ordered.value.length - 1)
      },
      (e) => (error.value = e),
    )
    await loadDetail()
  }

  /** Reads the current item (evidence, source) and, when the sessions store has it, its turn. */
  async function loadDetail() {
    const m = current.value
    if (!m) {
      detail.value = null
      turn.value = null
      return
    }
    if (detail.value?.memory.id === m.id && detail.value.version === m.version) return
    try {
      const r = await api.readMemory({ id: m.id })
      if (current.value?.id !== m.id) return
      detail.value = r
    } catch {
      detail.value = null
    }
    turn.value = null
    const src = detail.value?.memory.source
    if (src?.session && src.turn) {
      try {
        const s = await api.readSession({ id: src.session, agent: src.agent || undefined })
        const t = (s.turns ?? []).find((x) => x.seq === src.turn)
        if (t && current.value?.id === m.id) turn.value = { id: m.id, text: t.content, role: t.role }
      } catch {
        /* the session was compacted or deleted: the source line says enough */
      }
    }
  }

  function move(delta: number) {
    const n = ordered.value.length
    if (!n) return
    cursor.value = Math.max(0, Math.min(n - 1, cursor.value + delta))
    void loadDetail()
  }

  function select(id: string) {
    const i = ordered.value.findIndex((m) => m.id === id)
    if (i >= 0) cursor.value = i
    void loadDetail()
  }

  /** Removes ids from the local queue at once, so the cursor lands on the next item. */
  function drop(ids: string[]) {
    const gone = new Set(ids)
    const before = cursor.value
    items.value = items.value.filter((m) => !gone.has(m.id))
    total.value = Math.max(0, total.value - ids.length)
    count.value = Math.max(0, count.value - ids.length)
    for (const id of ids) checked.value.delete(id)
    cursor.value = Math.min(before, Math.max(0, ordered.value.length - 1))
    void loadDetail()
  }

  async function accept(ids: string[]): Promise<api.BatchResult | api.ItemResult> {
    busy.value = true
    try {
      const titles = ids.map((id) => items.value.find((m) => m.id === id)?.title ?? id)
      if (ids.length === 1) {
        const r = await api.acceptMemory({ id: ids[0] })
        if (!r.ok) throw itemError(r)
        undoStack.value.push({ kind: 'accept', ids, titles })
        drop(ids)
        return r
      }
      const r = await api.applyBatch({ items: ids.map((id) => ({ op: 'accept', id })) })
      const done = (r.results ?? []).filter((x) => x.ok && x.id).map((x) => x.id as string)
      if (done.length) undoStack.value.push({ kind: 'accept', ids: done, titles })
      drop(done)
      return r
    } finally {
      busy.value = false
    }
  }

  async function reject(ids: string[], reason = ''): Promise<api.BatchResult> {
    busy.value = true
    try {
      const titles = ids.map((id) => items.value.find((m) => m.id === id)?.title ?? id)
      const r =
        ids.length === 1
          ? await api.rejectMemoryWithReason({ id: ids[0], reason }).then((x) => ({ results: [x], applied: x.ok ? 1 : 0, failed: x.ok ? 0 : 1 }))
          : await api.applyBatch({ items: ids.map((id) => ({ op: 'reject', id, reason })) })
      const done = (r.results ?? []).filter((x) => x.ok && x.id).map((x) => x.id as string)
      if (done.length) undoStack.value.push({ kind: 'reject', ids: done, titles })
      drop(done)
      return r as api.BatchResult
    } finally {
      busy.value = false
    }
  }

  function skip() {
    const m = current.value
    if (!m) return
    skipped.value = skipped.value.filter((id) => id !== m.id).concat(m.id)
    undoStack.value.push({ kind: 'skip', ids: [m.id], titles: [m.title] })
    if (cursor.value >= ordered.value.length) cursor.value = 0
    void loadDetail()
  }

  /** Takes back the last action: unaccepts, restores rejected memories (and their rejection), unskips. */
  async function undo(): Promise<Undoable | null> {
    const last = undoStack.value.pop()
    if (!last) return null
    busy.value = true
    try {
      if (last.kind === 'skip') {
        skipped.value = skipped.value.filter((id) => !last.ids.includes(id))
      } else if (last.kind === 'accept') {
        const r = await api.applyBatch({ items: last.ids.map((id) => ({ op: 'update', id, reviewed: false })) })
        const bad = (r.results ?? []).find((x) => !x.ok)
        if (bad) throw itemError(bad)
      } else {
        const r = await api.applyBatch({ items: last.ids.map((id) => ({ op: 'restore', id })) })
        const bad = (r.results ?? []).find((x) => !x.ok)
        if (bad) throw itemError(bad)
      }
      await refresh()
      select(last.ids[0])
      return last
    } finally {
      busy.value = false
    }
  }

  function toggle(id: string) {
    const s = new Set(checked.value)
    if (s.has(id)) s.delete(id)
    else s.add(id)
    checked.value = s
  }

  /** Checks every item from the current one to id (shift-click). */
  function checkRange(fromId: string, toId: string) {
    const ids = ordered.value.map((m) => m.id)
    const a = ids.indexOf(fromId)
    const b = ids.indexOf(toId)
    if (a < 0 || b < 0) return toggle(toId)
    const s = new Set(checked.value)
    for (let i = Math.min(a, b); i <= Math.max(a, b); i++) s.add(ids[i])
    checked.value = s
  }

  function clearChecked() {
    checked.value = new Set()
  }

  return {
    items, total, count, loaded, loading, error, cursor, checked, skipped, undoStack, busy, detail, turn,
    ordered, current, lastUndo,
    refresh, refreshCount, loadDetail, move, select, accept, reject, skip, undo, toggle, checkRange, clearChecked,
  }
})
