// Windowing for a scrolling list of equal-height rows (util/windowing.ts does the arithmetic):
// the Memories list and the Review queue both render only the rows in view, so thousands of
// rows cost what thirty do, and the row height is measured from what is rendered (zoom, fonts).
import { computed, nextTick, onBeforeUnmount, ref, watch, type Ref } from 'vue'
import { revealTop, windowRange } from '@/util/windowing'

export interface WindowingOptions {
  /** Row pitch (height and gap) assumed until a rendered row is measured. */
  rowHeight: number
  /** Viewport height assumed until the scroller is measured. */
  viewHeight: number
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number
  /** Selector of one row inside the scroller. */
  rowSelector?: string
}

/** Windows the rows of items() inside the element bound to the returned scroller ref. */
export function useWindowing<T>(items: () => T[], opts: WindowingOptions) {
  const scroller: Ref<HTMLElement | null> = ref(null)
  const scrollTop = ref(0)
  const viewHeight = ref(opts.viewHeight)
  const rowHeight = ref(opts.rowHeight)
  // The px above the first row inside the scroller (the list's own padding), measured.
  let lead = 0
  const selector = opts.rowSelector ?? '.item'
  const win = computed(() => windowRange(scrollTop.value, viewHeight.value, rowHeight.value, items().length, opts.overscan))
  const visible = computed(() => items().slice(win.value.start, win.value.end).map((item, i) => ({ item, index: win.value.start + i })))

  // Scroll events come faster than frames: read the position once per frame.
  let raf = 0
  function onScroll() {
    if (raf) return
    raf = requestAnimationFrame(() => {
      raf = 0
      scrollTop.value = scroller.value?.scrollTop ?? 0
    })
  }

  /**
   * Reads the viewport height, the rows' pitch (from two rendered rows, else one) and the lead
   * above the first row. With no row rendered yet (the first resize report comes before the
   * first answer) the assumed pitch stays: it used to become 2 px, so the window spanned
   * hundreds of rows until the next measure.
   */
  function measure() {
    const el = scroller.value
    if (!el) return
    viewHeight.value = el.clientHeight || viewHeight.value
    const rows = el.querySelectorAll<HTMLElement>(selector)
    if (rows.length === 0) return
    // The rendered rows sit below the window's spacer, computed with the pitch used until now.
    const first = rows[0].getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop
    lead = Math.max(0, Math.round(first - win.value.before))
    const pitch = rows.length > 1 ? rows[1].offsetTop - rows[0].offsetTop : rows[0].offsetHeight + 2
    if (pitch > 0) rowHeight.value = pitch
  }

  let resize: ResizeObserver | null = null
  watch(
    scroller,
    (el) => {
      resize?.disconnect()
      if (!el) return
      // The observer reports the first size after the frame's own layout: measuring at once
      // would force a layout of the half-built page (the first view's largest cost in a profile).
      if (typeof ResizeObserver !== 'undefined') {
        resize = new ResizeObserver(() => measure())
        resize.observe(el)
      } else void nextTick(measure)
    },
    { immediate: true },
  )
  // The first rows arriving (an empty list has nothing to measure).
  watch(
    () => items().length > 0,
    (has) => has && void nextTick(measure),
  )
  onBeforeUnmount(() => {
    resize?.disconnect()
    cancelAnimationFrame(raf)
  })

  /** Scrolls the least needed to bring row index fully into view; false when it already was. */
  function reveal(index: number): boolean {
    const el = scroller.value
    if (!el || index < 0) return false
    const top = revealTop(index, el.scrollTop, el.clientHeight, rowHeight.value, lead)
    if (top === null) return false
    el.scrollTop = top
    scrollTop.value = top
    return true
  }

  return { scroller, win, visible, onScroll, measure, reveal }
}
