import { defineStore } from 'pinia'
import { computed, reactive, ref } from 'vue'
import * as api from '@/api'
import { latest } from './latest'
import { t } from '@/i18n'
import { useMessage } from '@/composables/feedback'

export type ReviewFilter = 'all' | 'reviewed' | 'unreviewed'

export interface Filters {
  scope: api.Scope | null
  type: api.MemoryType | null
  review: ReviewFilter
  workdir: string
  agent: string
  query: string
}

export interface ListEntry {
  memory: api.MemorySummary
  snippet?: string
  score?: number
}

/** First page, and each page loaded as the list scrolls (memory.list answers up to 1000). */
const PAGE = 100
const MAX_PAGE = 1000

function emptyFilters(): Filters {
  return { scope: null, type: null, review: 'all', workdir: '', agent: '', query: '' }
}

/** Turns a failed ItemResult into an ApiError. */
export function itemError(r: api.ItemResult): api.ApiError {
  return new api.ApiError(r.code || 'unknown', r.i18n_key || (r.code ? `error.${r.code}` : 'ui.errors.unknown'), r.args || {}, r.message || '')
}

/** memory.find refuses a longer query; a pasted page searches by its start instead of failing. */
const FIND_MAX_BYTES = 1024

/** s cut at a whole character to at most max UTF-8 bytes. */
export function clampBytes(s: string, max: number): string {
  if (s.length * 3 <= max) return s // no UTF-16 unit takes more than three bytes
  let bytes = 0
  let out = ''
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0
    const n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4
    if (bytes + n > max) break
    bytes += n
    out += ch
  }
  return out
}

export const useMemories = defineStore('memories', () => {
  const filters = reactive<Filters>(emptyFilters())
  const entries = ref<ListEntry[]>([])
  const total = ref(0)
  /** A search matched more than total (memory.find counts up to a cap). */
  const more = ref(false)
  const list = latest()
  const loading = list.loading
  /** The list has been answered (or failed) once: before that, it is neither empty nor failed. */
  const answered = ref(false)
  const error = ref<api.ApiError | null>(null)
  const selectedId = ref<string | null>(null)
  const detail = ref<api.ReadResult | null>(null)
  const read = latest()
  const detailLoading = read.loading
  const detailError = ref<api.ApiError | null>(null)

  const searching = computed(() => filters.query.trim() !== '')
  const filtered = computed(
    () => searching.value || filters.scope !== null || filters.type !== null || filters.review !== 'all',
  )
  const canLoadMore = computed(() => entries.value.length < total.value)
  /** How many memories the unfiltered list holds: the navigation's count, which must not
   *  vanish (or shrink to the matches) while a search or filter narrows the list. */
  const storeTotal = ref(0)
  const counter = latest()

  function scopeParams() {
    const p: { scope?: api.Scope; workdir?: string; agent?: string; type?: api.MemoryType } = {}
    if (filters.scope) p.scope = filters.scope
    if (filters.scope === 'project' && filters.workdir.trim()) p.workdir = filters.workdir.trim()
    if (filters.scope === 'agent' && filters.agent.trim()) p.agent = filters.agent.trim()
    if (filters.type) p.type = filters.type
    return p
  }

  function reviewedParam(): boolean | null {
    return filters.review === 'all' ? null : filters.review === 'reviewed'
  }

  async function fetchPage(offset: number, limit = PAGE): Promise<{ list: ListEntry[]; total: number; more: boolean }> {
    const lp = scopeParams()
    // A project or agent view must name its instance (the bridge refuses it otherwise):
    // until one is picked there is nothing to list.
    if ((lp.scope === 'project' && !lp.workdir) || (lp.scope === 'agent' && !lp.agent)) return { list: [], total: 0, more: false }
    if (searching.value) {
      // Search as you type: memory.find is one bounded lexical query (word prefixes, Chinese
      // words and characters) paged like the list, not recall; the list's filters apply.
      const r = await api.findMemories({ query: clampBytes(filters.query.trim(), FIND_MAX_BYTES), ...lp, reviewed: reviewedParam(), limit, offset })
      return { list: (r.items ?? []).map((m) => ({ memory: m, snippet: m.snippet })), total: r.total ?? 0, more: !!r.more }
    }
    const r = await api.listMemories({ ...lp, reviewed: reviewedParam(), limit, offset })
    return { list: (r.items ?? []).map((m) => ({ memory: m, snippet: m.snippet })), total: r.total ?? 0, more: false }
  }

  /** The first rows up to count, in pages memory.list accepts (a live refresh keeps what was loaded). */
  async function fetchFirst(count: number): Promise<{ list: ListEntry[]; total: number; more: boolean }> {
    const first = await fetchPage(0, Math.min(Math.max(count, PAGE), MAX_PAGE))
    let list = first.list
    while (list.length < count && list.length < first.total) {
      const next = await fetchPage(list.length, Math.min(count - list.length, MAX_PAGE))
      if (next.list.length === 0) break
      const seen = new Set(list.map((e) => e.memory.id))
      list = list.concat(next.list.filter((e) => !seen.has(e.memory.id)))
    }
    return { list, total: first.total, more: first.more }
  }

  /**
   * Reloads the list from the start. keep: as many rows as are loaded now (a live refresh,
   * so the person's scroll position and cursor stay where they are); else the first page.
   */
  async function refresh(keep = false) {
    const count = keep ? entries.value.length : PAGE
    if (filtered.value) void refreshStoreTotal()
    await list.run(
      () => fetchFirst(count),
      (r) => {
        entries.value = r.list
        total.value = r.total
        if (!filtered.value) storeTotal.value = r.total
        more.value = r.more
        error.value = null
        answered.value = true
      },
      (e) => {
        error.value = e
        answered.value = true
      },
    )
  }

  async function refreshStoreTotal() {
    await counter.run(
      () => api.listMemories({ limit: 1, offset: 0 }),
      (r) => (storeTotal.value = r.total ?? 0),
      () => {}, // the count keeps its last value; the list reports its own failure
    )
  }

  async function loadMore() {
    if (!canLoadMore.value || loading.value) return
    await list.run(
      () => fetchPage(entries.value.length, entries.value.length >= 1000 ? MAX_PAGE / 2 : PAGE * 2),
      (r) => {
        const seen = new Set(entries.value.map((e) => e.memory.id))
        entries.value = entries.value.concat(r.list.filter((e) => !seen.has(e.memory.id)))
        total.value = r.total
      },
      (e) => (error.value = e),
    )
  }

  function clearFilters() {
    Object.assign(filters, emptyFilters())
  }

  async function select(id: string | null) {
    selectedId.value = id
    if (!id) {
      detail.value = null
      detailError.value = null
      return
    }
    await reload()
  }

  /** Re-reads the selected memory (fromEvent: because another client changed it). */
  async function reload(fromEvent = false) {
    const id = selectedId.value
    if (!id) return
    await read.run(
      () => api.readMemory({ id }),
      (r) => {
        detail.value = r
        detailError.value = null
      },
      (err) => {
        if (err.code === 'not_found') {
          // Gone while on screen (another client, the CLI, an agent): said, not just blanked.
          const shown = detail.value?.memory
          const onScreen = !!document.querySelector(`[data-test="reader"] [data-test="reader-title"], article.doc[data-id="${id}"]`)
          if (fromEvent && onScreen && shown?.id === id && !removing.has(id)) {
            useMessage().warning(t('ui.reader.deleted_elsewhere', { Title: shown.title || shown.slug }))
          }
          selectedId.value = null
          detail.value = null
          detailError.value = null
        } else {
          detailError.value = err
        }
      },
    )
  }

  /** Runs one mutation; a failed item throws as ApiError. */
  async function mutate(fn: () => Promise<api.ItemResult>): Promise<api.ItemResult> {
    let r: api.ItemResult
    try {
      r = await fn()
    } catch (e) {
      throw api.normalizeError(e)
    }
    if (!r.ok) throw itemError(r)
    return r
  }

  async function create(p: api.WriteParams) {
    const r = await mutate(() => api.writeMemory(p))
    await refresh()
    if (r.id) await select(r.id)
    return r
  }

  async function update(p: api.UpdateParams) {
    const r = await mutate(() => api.updateMemory(p))
    await Promise.all([refresh(true), reload()])
    return r
  }

  /** Deletes made here, whose memory.changed must not read as "deleted elsewhere". */
  const removing = new Set<string>()

  /** Runs a change that takes memory id out of the live store (a delete, a reject). */
  async function takeOut(id: string, fn: () => Promise<api.ItemResult>) {
    removing.add(id)
    try {
      const r = await mutate(fn)
      if (selectedId.value === id) await select(null)
      await refresh()
      return r
    } finally {
      setTimeout(() => removing.delete(id), 5000) // its event may come after the answer
    }
  }

  async function remove(id: string) {
    return takeOut(id, () => api.deleteMemory({ id }))
  }

  /** Brings a deleted (or archived) memory back and refreshes the list. */
  async function restore(id: string) {
    const r = await mutate(() => api.restoreMemory({ id }))
    await refresh()
    return r
  }

  async function accept(id: string) {
    const r = await mutate(() => api.acceptMemory({ id }))
    await Promise.all([refresh(true), reload()])
    return r
  }

  async function reject(id: string) {
    return takeOut(id, () => api.rejectMemory({ id }))
  }

  /** memory.changed: refresh the list, and the reader if it shows a changed id. */
  async function onChanged(ids: string[] | undefined) {
    await refresh(true)
    const id = selectedId.value
    if (id && (!ids || ids.length === 0 || ids.includes(id))) await reload(true)
  }

  return {
    filters,
    entries,
    total,
    storeTotal,
    more,
    loading,
    answered,
    error,
    selectedId,
    detail,
    detailLoading,
    detailError,
    searching,
    filtered,
    canLoadMore,
    refresh,
    loadMore,
    clearFilters,
    select,
    reload,
    create,
    update,
    remove,
    restore,
    accept,
    reject,
    onChanged,
  }
})
