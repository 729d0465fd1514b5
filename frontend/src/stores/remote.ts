import { defineStore } from 'pinia'
import { ref } from 'vue'
import * as api from '@/api'

/** Settings → Remote access: the bridge's state, refreshed while the section is open. */
export const useRemote = defineStore('remote', () => {
  const status = ref<api.RemoteStatus | null>(null)
  const error = ref<api.ApiError | null>(null)
  const loading = ref(false)
  let seq = 0

  async function refresh() {
    const n = ++seq
    loading.value = true
    try {
      const st = await api.remoteStatus()
      if (n !== seq) return
      status.value = st
      error.value = null
    } catch (e) {
      if (n === seq) error.value = api.normalizeError(e)
    } finally {
      if (n === seq) loading.value = false
    }
  }

  /** A remote.changed event carries the new status. */
  function apply(st: unknown) {
    const s = st as api.RemoteStatus | null
    if (s && typeof s === 'object' && typeof s.enabled === 'boolean') {
      seq++
      status.value = s
      error.value = null
      loading.value = false
    } else void refresh()
  }

  async function regenerate(): Promise<api.RemoteStatus> {
    try {
      const st = await api.regenerateRemoteToken()
      seq++
      status.value = st
      return st
    } catch (e) {
      throw api.normalizeError(e)
    }
  }

  return { status, error, loading, refresh, apply, regenerate }
})
