import { useMessage } from '@/composables/feedback'
import { t } from '@/i18n'
import { openExternal } from '@/api'
import { useNav } from '@/stores/nav'

/**
 * The click handler for goldmark HTML from the backend (the reader's memory, the Journal's days):
 * a [[link]] to a memory opens it in Memories (a warning when it is gone), a [[link]] to any
 * other name opens the Graph view focused on that entity (the one of the scope the link is
 * written in, by the id the backend gives it: the name alone found another scope's) and no other
 * link navigates the app window away (web links open outside; #anchors stay).
 */
export function useMarkdownLinks(): (ev: MouseEvent) => void {
  const nav = useNav()
  const message = useMessage()
  return (ev: MouseEvent) => {
    const a = (ev.target as HTMLElement | null)?.closest?.('a')
    if (!a) return
    if (a.classList.contains('wikilink')) {
      ev.preventDefault()
      const id = a.getAttribute('data-memory-id')
      const entity = a.getAttribute('data-entity')
      if (id) void nav.openMemory(id).then((ok) => ok || message.warning(t('ui.reader.links.gone')))
      else if (entity) nav.openEntity(entity, a.getAttribute('data-entity-id') ?? undefined)
      return
    }
    const href = a.getAttribute('href') || ''
    if (href.startsWith('#')) return
    ev.preventDefault()
    if (/^(https?:|mailto:)/i.test(href)) openExternal(href)
  }
}
