// Loads naive-ui's side of the UI (naive/scope.ts) once, when something first needs it: a view
// other than the first, a drawer, a dialog, a message, or the first view's pickers once touched.
import { defineAsyncComponent, defineComponent, h, markRaw, shallowRef, type Component } from 'vue'
import { useSettings } from '@/stores/settings'
import { loadDarkTheme } from '@/util/darkTheme'

type Scope = typeof import('./scope')
let loading: Promise<Scope> | null = null

/** True once naive-ui's chunk has arrived (components may swap their plain stand-ins then). */
export const naiveLoaded = shallowRef(false)

export function loadNaive(): Promise<Scope> {
  // A dark window waits for the dark theme too, so nothing naive-ui draws shows light first.
  const dark = useSettings().dark
  loading ??= Promise.all([import('./scope'), dark ? loadDarkTheme() : null]).then(
    ([m]) => {
      naiveLoaded.value = true
      return m
    },
    (e) => {
      // A failed fetch (a dropped bridge) is tried again by the next caller.
      loading = null
      throw e
    },
  )
  return loading
}

/**
 * An async component that loads naive-ui and the component's module together and mounts the
 * component under naive-ui's config provider; props, listeners and slots pass through. then
 * runs once both have arrived (a view tells the start-up bench it painted).
 */
export function withNaive(load: () => Promise<{ default: Component }>, then?: () => void): Component {
  return defineAsyncComponent(() =>
    Promise.all([loadNaive(), load()]).then(([scope, mod]) => {
      const inner = markRaw(mod.default)
      then?.()
      return defineComponent({
        name: 'WithNaive',
        inheritAttrs: false,
        setup(_, { attrs, slots }) {
          return () => h(scope.NaiveScope, null, { default: () => h(inner, attrs, slots) })
        },
      })
    }),
  )
}
