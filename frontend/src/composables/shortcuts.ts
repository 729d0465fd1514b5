// The app's keyboard shortcuts, wired to the window and the nav store. The key logic lives
// in util/shortcuts.ts (unit-tested); this file only connects it to Vue: AppShell installs
// the listener once, and a view pushes its own keys (j/k/Enter/e, or Review's a/r) with
// useShortcutLayer while it is mounted.
import { nextTick, onBeforeUnmount, onMounted, ref } from 'vue'
import { ShortcutEngine, type Layer } from '@/util/shortcuts'
import { focusSoon } from '@/util/focus'
import { VIEWS, useNav, type View } from '@/stores/nav'
import { transport } from '@/api'

/** Whether the shortcuts dialog is open (the `?` key). */
export const shortcutsHelpOpen = ref(false)

let engine: ShortcutEngine | null = null

/** The one engine of this page (created on first use, bound to the nav store). */
export function shortcutEngine(): ShortcutEngine {
  if (!engine) {
    const nav = useNav()
    engine = new ShortcutEngine({
      views: () => VIEWS,
      go: (v) => nav.go(v as View),
      help: () => (shortcutsHelpOpen.value = !shortcutsHelpOpen.value),
      search: () => {
        nav.go('memories')
        void nextTick(() => focusSoon('[data-test="search"] input', 'always', 60))
      },
    })
  }
  return engine
}

/** Listens to keys on the window while the component that calls it is mounted. */
export function useShortcutListener() {
  const onKey = (ev: KeyboardEvent) => {
    if (ev.defaultPrevented || ev.isComposing) return
    if (shortcutEngine().handle(ev, ev.timeStamp || performance.now())) ev.preventDefault()
  }
  // A browser goes Back and Forward by itself (its buttons, Alt+←/→); the desktop window has
  // no such controls, so the app gives it the same keys over the history entries the nav
  // store keeps.
  const desktop = transport().kind === 'wails'
  const onHistoryKey = (ev: KeyboardEvent) => {
    if (ev.defaultPrevented || !ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return
    if (ev.key === 'ArrowLeft') history.back()
    else if (ev.key === 'ArrowRight') history.forward()
    else return
    ev.preventDefault()
  }
  onMounted(() => {
    window.addEventListener('keydown', onKey)
    if (desktop) window.addEventListener('keydown', onHistoryKey)
  })
  onBeforeUnmount(() => {
    window.removeEventListener('keydown', onKey)
    window.removeEventListener('keydown', onHistoryKey)
  })
}

/** Gives the calling view its keys while it is mounted (the latest mounted view wins). */
export function useShortcutLayer(layer: Layer) {
  let pop: (() => void) | null = null
  onMounted(() => (pop = shortcutEngine().push(layer)))
  onBeforeUnmount(() => pop?.())
}
