import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api'

/** The session with Go as reactive state: what App shows (login, app, banner) follows it. */
export const useConnection = defineStore('connection', () => {
  const s = api.session()
  const snap = ref<api.SessionSnapshot>(s.snapshot)
  s.onChange((v) => (snap.value = v))
  if (s.snapshot.mode === 'ws' && typeof window !== 'undefined') {
    // Back online or back to the tab: try at once instead of waiting out the backoff.
    window.addEventListener('online', () => s.retryNow())
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') s.retryNow()
    })
    // A token link pasted into the address bar of this open page changes only the hash.
    window.addEventListener('hashchange', () => {
      if (s.loginFromHash(window.location.hash)) api.forgetHashToken()
    })
  }

  const mode = computed(() => snap.value.mode)
  const state = computed(() => snap.value.state)
  const rejection = computed(() => snap.value.rejection)
  /** Why the socket cannot open for now (the bridge at its connection cap). */
  const busy = computed(() => snap.value.busy)
  /** The app is shown once connected, and stays through outages (with a banner). */
  const ready = computed(
    () => snap.value.mode === 'wails' || (snap.value.everOpen && snap.value.state !== 'rejected' && snap.value.state !== 'idle'),
  )
  /** Lost after having been open: reconnecting on its own. */
  const reconnecting = computed(() => ready.value && snap.value.state !== 'open')
  /** Trying a token that has not opened yet. */
  const checking = computed(
    () => !ready.value && snap.value.hasToken && (snap.value.state === 'connecting' || snap.value.state === 'closed'),
  )

  return {
    mode,
    state,
    rejection,
    busy,
    ready,
    reconnecting,
    checking,
    login: (input: string) => s.login(input),
    logout: () => s.logout(),
    retryNow: () => s.retryNow(),
  }
})
