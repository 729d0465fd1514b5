import { focusSoon } from '@/util/focus'
import { defineStore } from 'pinia'
import { ref, watch } from 'vue'
import * as api from '@/api'
import { useMemories } from './memories'

export type View = 'memories' | 'review' | 'journal' | 'graph' | 'organizer' | 'activity' | 'usage' | 'agents'
export const VIEWS: View[] = ['memories', 'review', 'journal', 'graph', 'organizer', 'activity', 'usage', 'agents']

/** Where the person is, as kept in the window's history entries (history.state.engram). */
export interface Place {
  view: View
  id: string | null
}

function samePlace(a: Place | undefined, b: Place): boolean {
  return !!a && a.view === b.view && a.id === b.id
}

function isPlace(v: unknown): v is Place {
  const p = v as Place | null
  return !!p && typeof p === 'object' && VIEWS.includes(p.view) && (p.id === null || typeof p.id === 'string')
}

/** Which view the shell shows, and jumps between views (open a memory from a report). */
export const useNav = defineStore('nav', () => {
  const view = ref<View>('memories')
  // The next change of place is a step the person may want to go Back from (a view switched, a
  // link followed, a memory opened from another view): it gets a history entry of its own.
  // Moving through the list (a click, j/k) only updates the current entry, so Back is not a
  // replay of every row looked at.
  let stepPending = false

  function go(v: View) {
    if (v !== view.value) stepPending = true
    view.value = v
  }

  /**
   * Shows the memory in the Memories view (the reader reads it by id, whatever the filters).
   * False, staying where we are, when it is no longer in the store (merged away, deleted).
   */
  async function openMemory(id: string): Promise<boolean> {
    try {
      await api.readMemory({ id })
    } catch (e) {
      if (api.normalizeError(e).code === 'not_found') return false
      // Anything else: let the reader show the error.
    }
    stepPending = true
    view.value = 'memories'
    await useMemories().select(id)
    // From a row elsewhere (Activity, a report): the keyboard continues at the opened memory.
    focusSoon(`.list-pane .item[data-id="${id}"]`, '[data-test="activity-view"]')
    return true
  }

  /**
   * The entity the graph view should centre on, set when a `[[Name]]` link in the reader names
   * no memory: its name, and the id of the entity of that name in the link's own scope when the
   * link carries one. The graph view reads it (and may clear it once shown).
   */
  const graphFocus = ref<{ name: string; id?: string } | null>(null)

  /** Follows an entity link ([[Name]] in the reader): the Graph view focuses that entity. */
  function openEntity(name: string, id?: string) {
    graphFocus.value = { name, id }
    go('graph')
  }

  /**
   * Ties the view and the open memory to the window's history, so Back (the browser's button, or
   * Alt+← in the desktop window) returns to where the person was
   * after following a [[link]] or switching views, instead of leaving the app. Called once by
   * the shell; the history entries keep the page's URL as it is.
   */
  function trackHistory() {
    if (typeof window === 'undefined' || !window.history) return
    const memories = useMemories()
    const here = (): Place => ({ view: view.value, id: memories.selectedId })
    const write = (push: boolean) => {
      const state = { ...(history.state ?? {}), engram: here() }
      if (push) history.pushState(state, '')
      else history.replaceState(state, '')
    }
    write(false)
    watch([view, () => memories.selectedId], () => {
      const push = stepPending
      stepPending = false
      // Arriving at the place an entry already holds (Back, Forward) writes nothing.
      if (samePlace(history.state?.engram, here())) return
      write(push)
    })
    window.addEventListener('popstate', (ev) => {
      const to = (ev.state as { engram?: unknown } | null)?.engram
      if (!isPlace(to)) return
      stepPending = false
      view.value = to.view
      if (to.id !== memories.selectedId) void memories.select(to.id)
    })
  }

  return { view, go, openMemory, graphFocus, openEntity, trackHistory }
})
