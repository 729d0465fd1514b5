import { shallowRef } from 'vue'
import type { GlobalTheme } from 'naive-ui'

/**
 * naive-ui's dark theme (every component's dark styles), loaded the first time the UI is dark:
 * a light window never parses it. main.ts waits for it before mounting a dark window, so no
 * light frame shows first.
 */
export const darkTheme = shallowRef<GlobalTheme | null>(null)
let loading: Promise<void> | null = null

export function loadDarkTheme(): Promise<void> {
  loading ??= import('naive-ui/es/themes/dark').then((m) => {
    darkTheme.value = m.darkTheme
  })
  return loading
}
