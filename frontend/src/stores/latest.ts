import { ref, type Ref } from 'vue'
import * as api from '@/api'

/**
 * One request slot whose answers count only while they are the latest. A newer call (another
 * selection, a refresh after an event) makes the earlier ones stale, so a slow reply never
 * overwrites what the person now looks at. `loading` follows the latest call only.
 */
export interface Latest {
  loading: Ref<boolean>
  /** Runs fetch; apply or fail only when no newer call started meanwhile. */
  run<T>(fetch: () => Promise<T>, apply: (v: T) => void, fail: (e: api.ApiError) => void): Promise<void>
}

export function latest(): Latest {
  let seq = 0
  const loading = ref(false)
  async function run<T>(fetch: () => Promise<T>, apply: (v: T) => void, fail: (e: api.ApiError) => void) {
    const n = ++seq
    loading.value = true
    try {
      const v = await fetch()
      if (n === seq) apply(v)
    } catch (e) {
      if (n === seq) fail(api.normalizeError(e))
    } finally {
      if (n === seq) loading.value = false
    }
  }
  return { loading, run }
}
