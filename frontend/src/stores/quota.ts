import { defineStore } from 'pinia'
import { ref } from 'vue'
import * as api from '@/api'

export const useQuota = defineStore('quota', () => {
  const summary = ref<api.QuotaSummary | null>(null)

  async function refresh() {
    try {
      summary.value = await api.quotaSummary()
    } catch {
      // The banner is advisory: keep the last known summary.
    }
  }

  return { summary, refresh }
})
