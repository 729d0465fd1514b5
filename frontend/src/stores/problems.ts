import { defineStore } from 'pinia'
import { ref } from 'vue'
import * as api from '@/api'

/** Files that could not be read (memory.problems); they are left untouched on disk. */
export const useProblems = defineStore('problems', () => {
  const items = ref<api.Problem[]>([])
  const loading = ref(false)
  const checking = ref(false)
  const error = ref<api.ApiError | null>(null)
  let seq = 0

  async function refresh() {
    const n = ++seq
    loading.value = true
    try {
      const r = await api.memoryProblems()
      if (n !== seq) return
      items.value = (r.problems ?? []).slice().sort((a, b) => a.path.localeCompare(b.path))
      error.value = null
    } catch (e) {
      // Advisory: keep the last known list.
      if (n === seq) error.value = api.normalizeError(e)
    } finally {
      if (n === seq) loading.value = false
    }
  }

  /** Re-reads the files from disk (index.reconcile), then the list. */
  async function recheck(): Promise<api.ReconcileReport> {
    checking.value = true
    try {
      const r = await api.indexReconcile()
      await refresh()
      return r
    } catch (e) {
      throw api.normalizeError(e)
    } finally {
      checking.value = false
    }
  }

  return { items, loading, checking, error, refresh, recheck }
})
