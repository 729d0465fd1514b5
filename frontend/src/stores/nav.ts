import { focusSoon } from '@/util/focus'
import { defineStore } from 'pinia'
import { ref } from 'vue'
import * as api from '@/api'
import { useMemories } from './memories'

export type View = 'memories' | 'review' | 'journal' | 'graph' | 'organizer' | 'activity' | 'usage' | 'agents'
export const VIEWS: View[] = ['memories', 'review', 'journal', 'graph', 'organizer', 'activity', 'usage', 'agents']

/** Which view the shell shows, and jumps between views (open a memory from a report). */
export const useNav = defineStore('nav', () => {
  const view = ref<View>('memories')

  function go(v: View) {
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
    view.value = 'memories'
    await useMemories().select(id)
    // From a row elsewhere (Activity, a report): the keyboard continues at the opened memory.
    focusSoon(`.list-pane .item[data-id="${id}"]`, '[data-test="activity-view"]')
    return true
  }

  /**
   * The entity the graph view should centre on, set when a `[[Name]]` link in the reader names
   * no memory. The graph view reads it (and may clear it once shown).
   */
  const graphFocus = ref<string | null>(null)

  /** Follows an entity link ([[Name]] in the reader): the Graph view focuses that entity. */
  function openEntity(name: string) {
    graphFocus.value = name
    view.value = 'graph'
  }

  return { view, go, openMemory, graphFocus, openEntity }
})
