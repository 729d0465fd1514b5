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
  // Single accepts and rejects leave the queue at once and reach the store one after another
  // (a person pressing `a` five times in a row accepts five memories, in order, without
  // waiting on each write); pending holds their ids until the store answered, so a refresh
  // from a live event in between does not bring them back.
  const pending = ref<Set<string>>(new Set())
  // A queue read that left before a write was answered may still list what it changed: such
  // ids (answered at settledAt[id] > the read's start) are left out of that read's answer.
  let settleSeq = 0
  const settledAt = new Map<string, number>()
  let chain: Promise<unknown> = Promise.resolve()
  function enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const p = chain.then(fn)
    chain = p.catch(() => undefined)
    return p
  }
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
    const started = settleSeq
    await list.run(
      () => api.reviewQueue(),
      (r) => {
        const before = place()
        const all = r.items ?? []
        items.value = all.filter((m) => !pending.value.has(m.id) && !((settledAt.get(m.id) ?? 0) > started))
        for (const [id, at] of settledAt) if (at <= started) settledAt.delete(id)
        total.value = Math.max(0, (r.total ?? 0) - (all.length - items.value.length))
        count.value = total.value
        error.value = null
        loaded.value = true
        const live = new Set(items.value.map((m) => m.id))
        checked.value = new Set([...checked.value].filter((id) => live.has(id)))
        skipped.value = skipped.value.filter((id) => live.has(id))
        follow(before)
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

  /** Where the cursor is: the current memory and the ones listed after it, in order. */
  function place(): string[] {
    return ordered.value.slice(Math.min(cursor.value, ordered.value.length)).map((m) => m.id)
  }

  /**
   * Puts the cursor back on the memory it was on after the queue changed (a batch took items
   * above it, a refresh brought the store's list), or, when that memory left, on the first
   * one that followed it. The cursor is an index: it stayed where it was while the items
   * above moved, and the person reading one memory found another under the keys — after
   * rejecting two checked memories above it, the next `a` accepted one they had not read.
   */
  function follow(after: string[]) {
    const at = new Map(ordered.value.map((m, i) => [m.id, i]))
    const next = after.find((id) => at.has(id))
    cursor.value = next !== undefined ? at.get(next)! : Math.max(0, Math.min(cursor.value, ordered.value.length - 1))
  }

  /** Removes ids from the local queue at once, so the cursor lands on the next item. */
  function drop(ids: string[]) {
    const gone = new Set(ids)
    const before = place()
    items.value = items.value.filter((m) => !gone.has(m.id))
    total.value = Math.max(0, total.value - ids.length)
    count.value = Math.max(0, count.value - ids.length)
    for (const id of ids) checked.value.delete(id)
    follow(before)
    void loadDetail()
  }

  /**
   * Acts on one memory at once in the queue and in the store behind it: the item leaves now,
   * the write is queued; if the store refuses, the item comes back (from the store's own list)
   * and the error goes to the caller.
   */
  async function one(kind: 'accept' | 'reject', id: string, send: () => Promise<api.ItemResult>): Promise<api.ItemResult> {
    const entry: Undoable = { kind, ids: [id], titles: [items.value.find((m) => m.id === id)?.title ?? id] }
    pending.value = new Set(pending.value).add(id)
    undoStack.value.push(entry)
    drop([id])
    const settle = () => {
      const s = new Set(pending.value)
      s.delete(id)
      pending.value = s
      settledAt.set(id, ++settleSeq)
    }
    try {
      const r = await enqueue(send)
      if (!r.ok) throw itemError(r)
      settle()
      return r
    } catch (e) {
      settle()
      undoStack.value = undoStack.value.filter((u) => u !== entry)
      await refresh()
      throw e
    }
  }

  async function accept(ids: string[]): Promise<api.BatchResult | api.ItemResult> {
    if (ids.length === 1) return one('accept', ids[0], () => api.acceptMemory({ id: ids[0] }))
    busy.value = true
    try {
      const titles = ids.map((id) => items.value.find((m) => m.id === id)?.title ?? id)
      const r = await enqueue(() => api.applyBatch({ items: ids.map((id) => ({ op: 'accept', id })) }))
      const done = (r.results ?? []).filter((x) => x.ok && x.id).map((x) => x.id as string)
      if (done.length) undoStack.value.push({ kind: 'accept', ids: done, titles })
      drop(done)
      return r
    } finally {
      busy.value = false
    }
  }

  async function reject(ids: string[], reason = ''): Promise<api.BatchResult> {
    if (ids.length === 1) {
      const x = await one('reject', ids[0], () => api.rejectMemoryWithReason({ id: ids[0], reason }))
      return { results: [x], applied: 1, failed: 0 }
    }
    busy.value = true
    try {
      const titles = ids.map((id) => items.value.find((m) => m.id === id)?.title ?? id)
      const r = await enqueue(() => api.applyBatch({ items: ids.map((id) => ({ op: 'reject', id, reason })) }))
      const done = (r.results ?? []).filter((x) => x.ok && x.id).map((x) => x.id as string)
      if (done.length) undoStack.value.push({ kind: 'reject', ids: done, titles })
      drop(done)
      return r
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
      await chain // the action taken back must have reached the store first
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
    items, total, count, loaded, loading, error, cursor, checked, skipped, undoStack, busy, pending, detail, turn,
    ordered, current, lastUndo,
    refresh, refreshCount, loadDetail, move, select, accept, reject, skip, undo, toggle, checkRange, clearChecked,
  }
})
