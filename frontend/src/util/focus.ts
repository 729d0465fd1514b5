/**
 * Focuses the first element matching selector once it is in the page (a view may still be
 * rendering), within a few frames — unless the person has put the focus somewhere meanwhile
 * (only a focus left on <body>, or inside `from`, is moved; `always` moves it regardless, for a
 * shortcut the person pressed). After an action removes what had
 * the focus (a dialog, a deleted row), keyboard users would otherwise start again from <body>.
 */
export function focusSoon(selector: string, from?: string | 'always', frames = 30) {
  const free = () => {
    if (from === 'always') return true // the person asked for this focus (a shortcut)
    const a = document.activeElement
    return !a || a === document.body || (!!from && !!a.closest(from))
  }
  const tick = (left: number) => {
    if (!free()) return
    const el = document.querySelector<HTMLElement>(selector)
    if (el) {
      el.focus()
      return
    }
    if (left > 0) requestAnimationFrame(() => tick(left - 1))
  }
  tick(frames)
}
