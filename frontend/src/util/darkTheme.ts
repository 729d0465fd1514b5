import { shallowRef } from 'vue'
import type { GlobalTheme } from 'naive-ui'

/**
 * naive-ui's dark theme (every component's dark styles), loaded the first time naive-ui is
 * needed in a dark window (naive/load.ts waits for it, so nothing naive-ui draws shows light
 * first): a light window never parses it.
 */
export const darkTheme = shallowRef<GlobalTheme | null>(null)
let loading: Promise<void> | null = null

export function loadDarkTheme(): Promise<void> {
  loading ??= import('naive-ui/es/themes/dark').then(
    (m) => {
      darkTheme.value = m.darkTheme
    },
    (e) => {
      // A chunk that could not be fetched (the server restarting) is asked for again next
      // time, not remembered as failed for the life of the page.
      loading = null
      throw e
    },
  )
  return loading
}
