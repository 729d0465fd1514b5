import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api'

export const ACTIVITY_PAGE = 50

/** The audit log (memory.history without an id), newest first, paged back by sequence number. */
export const useActivity = defineStore('activity', () => {
  const entries = ref<api.AuditEntry[]>([])
  const loading = ref(false)
  const error = ref<api.ApiError | null>(null)
  /** The last page came back full: there may be more. */
  const full = ref(false)
  let seq = 0

  const canLoadMore = computed(() => full.value && entries.value.length > 0)

  async function fetch(beforeSeq?: number) {
    const n = ++seq
    loading.value = true
    try {
      const r = await api.memoryHistory(beforeSeq ? { limit: ACTIVITY_PAGE, before_seq: beforeSeq } : { limit: ACTIVITY_PAGE })
      if (n !== seq) return
      const page = r.entries ?? []
      entries.value = beforeSeq ? [...entries.value, ...page] : page
      full.value = page.length >= ACTIVITY_PAGE
      error.value = null
    } catch (e) {
      if (n === seq) error.value = api.normalizeError(e)
    } finally {
      if (n === seq) loading.value = false
    }
  }

  async function refresh() {
    await fetch()
  }

  async function loadMore() {
    if (!canLoadMore.value || loading.value) return
    await fetch(entries.value[entries.value.length - 1].seq)
  }

  return { entries, loading, error, canLoadMore, refresh, loadMore }
})
