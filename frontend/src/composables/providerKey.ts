// The API key and "Test connection" of a provider's settings pane (Settings → LLM and
// Settings → Embeddings share them): a key is set or cleared and never read back, the pane's
// status follows the answer, and a test's failure is shown as the test's own result (with the
// translated error) rather than a toast.
import { computed, ref, type Ref } from 'vue'
import { useMessage } from '@/composables/feedback'
import { t, tError } from '@/i18n'
import { normalizeError, type ApiError } from '@/api'

export interface ProviderKeyOptions<S, T extends { ok: boolean }> {
  /** Sets (key) or clears (clear) the key; answers with the pane's new status. */
  setKey: (p: { key?: string; clear?: boolean }) => Promise<S>
  /** Makes one tiny real call. */
  test: () => Promise<T>
  /** The test result that stands for a call that failed before answering. */
  failed: (err: ApiError) => T
  /** Receives the status a key change answered with. */
  onStatus: (s: S) => void
  /** The locale keys of the messages a saved and a cleared key show. */
  saved: string
  cleared: string
}

export function useProviderKey<S, T extends { ok: boolean }>(o: ProviderKeyOptions<S, T>) {
  const message = useMessage()
  const keyInput = ref('')
  const keyBusy = ref(false)
  const test = ref(null) as Ref<T | null>
  const testing = ref(false)
  const testState = computed(() => (testing.value ? 'testing' : !test.value ? 'idle' : test.value.ok ? 'ok' : 'error'))

  async function setKey(clear: boolean) {
    keyBusy.value = true
    try {
      o.onStatus(await o.setKey(clear ? { clear: true } : { key: keyInput.value }))
      keyInput.value = ''
      test.value = null
      message.success(t(clear ? o.cleared : o.saved))
    } catch (e) {
      message.error(tError(normalizeError(e)))
    } finally {
      keyBusy.value = false
    }
  }

  async function runTest() {
    testing.value = true
    test.value = null
    try {
      test.value = await o.test()
    } catch (e) {
      test.value = o.failed(normalizeError(e))
    } finally {
      testing.value = false
    }
  }

  return { keyInput, keyBusy, test, testing, testState, setKey, runTest }
}
