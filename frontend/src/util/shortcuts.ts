// Keyboard-first use of the app: one window-level listener turns keys into actions. Global
// keys (`/`, `?`, `g` + a letter to switch views) are bound here; list keys (`j`, `k`, Enter,
// `e`, and whatever a view adds, such as `a`/`r` in Review) come from "layers" that a mounted
// view pushes and pops, so the topmost view owns them. Nothing fires while the person types
// in an input, textarea, select or contenteditable, or with Ctrl/Alt/Meta held (the browser's
// and the system's own shortcuts stay theirs).

/** The part of a KeyboardEvent the engine reads (tests pass plain objects). */
export interface KeyLike {
  key: string
  ctrlKey?: boolean
  metaKey?: boolean
  altKey?: boolean
  target?: unknown
}

/** One entry of the shortcuts dialog: the keys to press (a sequence) and what it does. */
export interface ShortcutHelp {
  keys: string[]
  /** Locale key of the description. */
  label: string
  labelArgs?: Record<string, unknown>
  group: 'general' | 'list' | 'views'
}

/** Keys a view handles while it is on top, by KeyboardEvent.key ("j", "Enter"). */
export interface Layer {
  keys: Record<string, () => void>
  /** Help rows for the dialog (only for keys the layer adds beyond the common list keys). */
  help?: ShortcutHelp[]
}

/**
 * The letter after `g` for each view. A view not listed gets the first letter of its id
 * that no other view uses, so a view added to VIEWS is reachable without editing this file.
 */
export const VIEW_LETTERS: Record<string, string> = {
  memories: 'm',
  review: 'r',
  journal: 'j',
  graph: 'g',
  organizer: 'o',
  activity: 'a',
  usage: 'u',
  agents: 's',
}

/** Second keys of the `g` sequence for views, derived from the views that exist. */
export function viewKeys(views: readonly string[]): { view: string; key: string }[] {
  const used = new Set<string>()
  const out: { view: string; key: string }[] = []
  const later: string[] = []
  for (const v of views) {
    const k = VIEW_LETTERS[v]
    if (k && !used.has(k)) {
      used.add(k)
      out.push({ view: v, key: k })
    } else later.push(v)
  }
  for (const v of later) {
    const k = [...v.toLowerCase()].find((c) => /[a-z]/.test(c) && !used.has(c))
    if (!k) continue
    used.add(k)
    out.push({ view: v, key: k })
  }
  return out
}

interface ElementLike {
  tagName?: string
  isContentEditable?: boolean
  getAttribute?: (n: string) => string | null
  closest?: (sel: string) => unknown
}

/** Whether keys typed at target are text for it (an input, a textarea, an editor). */
export function isTyping(target: unknown): boolean {
  const el = target as ElementLike | null
  if (!el || typeof el !== 'object') return false
  const tag = (el.tagName || '').toUpperCase()
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (el.isContentEditable) return true
  const role = el.getAttribute?.('role')
  return role === 'textbox' || role === 'combobox' || role === 'searchbox'
}

/** Whether Enter at target already does something of its own (a button, a link, a row). */
export function isInteractive(target: unknown): boolean {
  const el = target as ElementLike | null
  if (!el || typeof el !== 'object') return false
  const tag = (el.tagName || '').toUpperCase()
  if (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY') return true
  const role = el.getAttribute?.('role') ?? ''
  return ['button', 'link', 'option', 'tab', 'menuitem', 'checkbox', 'switch', 'radio', 'treeitem'].includes(role)
}

/** Whether target sits in a dialog or drawer: the page behind it must not react. */
function inOverlay(target: unknown): boolean {
  const el = target as ElementLike | null
  if (!el || typeof el.closest !== 'function') return false
  return !!el.closest('[role="dialog"], .n-drawer, .n-modal, [aria-modal="true"]')
}

export interface EngineOptions {
  /** Views that exist now (read on every key, so views added later get their key). */
  views: () => readonly string[]
  go: (view: string) => void
  /** `?`: shows the shortcuts dialog. */
  help: () => void
  /** `/` when the view on top has no search of its own: go to Memories and focus its search. */
  search: () => void
  /** How long `g` waits for its second key. */
  sequenceMs?: number
}

/** The list keys most views share, with their help labels, listed for a layer that has them. */
const LIST_KEYS: [string, string][] = [
  ['j', 'ui.shortcuts.next'],
  ['k', 'ui.shortcuts.prev'],
  ['Enter', 'ui.shortcuts.open'],
  ['e', 'ui.shortcuts.edit'],
]

/** Turns keys into actions. Pure: the caller feeds keys and the clock. */
export class ShortcutEngine {
  private layers: Layer[] = []
  private pending: { key: string; at: number } | null = null
  private readonly seqMs: number

  constructor(private readonly opts: EngineOptions) {
    this.seqMs = opts.sequenceMs ?? 1500
  }

  /** Puts a layer on top; the returned function removes it (from wherever it is). */
  push(layer: Layer): () => void {
    this.layers.push(layer)
    return () => {
      const i = this.layers.lastIndexOf(layer)
      if (i >= 0) this.layers.splice(i, 1)
    }
  }

  /** The layer whose keys answer now. */
  top(): Layer | undefined {
    return this.layers[this.layers.length - 1]
  }

  /** Handles one key; true when it did something (the caller then prevents the default). */
  handle(ev: KeyLike, now: number): boolean {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) {
      this.pending = null
      return false
    }
    if (isTyping(ev.target)) {
      this.pending = null
      return false
    }
    const key = ev.key
    if (this.pending && now - this.pending.at <= this.seqMs) {
      const first = this.pending.key
      this.pending = null
      if (first === 'g') {
        const hit = viewKeys(this.opts.views()).find((v) => v.key === key.toLowerCase())
        if (hit) {
          this.opts.go(hit.view)
          return true
        }
        return false
      }
    }
    this.pending = null
    if (inOverlay(ev.target) && key !== '?') return false
    if (key === '?') {
      this.opts.help()
      return true
    }
    if (key === 'g') {
      this.pending = { key, at: now }
      return true
    }
    // Enter on a focused control is that control's: the layer gets it only from the page.
    if (key === 'Enter' && isInteractive(ev.target)) return false
    const fn = this.top()?.keys[key]
    if (fn) {
      fn()
      return true
    }
    if (key === '/') {
      this.opts.search()
      return true
    }
    return false
  }

  /**
   * Rows of the shortcuts dialog for the views that exist and the layer on top: the common
   * list keys (j, k, Enter, e) only where that layer answers them — the dialog listed all four
   * on every view, Enter in Review and j/k in the Journal or Usage, where they do nothing.
   */
  helpRows(): ShortcutHelp[] {
    const rows: ShortcutHelp[] = [
      { keys: ['/'], label: 'ui.shortcuts.search', group: 'general' },
      { keys: ['?'], label: 'ui.shortcuts.help', group: 'general' },
      { keys: ['Esc'], label: 'ui.shortcuts.escape', group: 'general' },
      { keys: ['Ctrl+Enter'], label: 'ui.shortcuts.save', group: 'general' },
      { keys: ['Alt+←'], label: 'ui.shortcuts.back', group: 'general' },
      { keys: ['Alt+→'], label: 'ui.shortcuts.forward', group: 'general' },
    ]
    const top = this.top()
    for (const [key, label] of LIST_KEYS) if (top?.keys[key]) rows.push({ keys: [key], label, group: 'list' })
    for (const h of top?.help ?? []) rows.push(h)
    for (const v of viewKeys(this.opts.views())) {
      rows.push({ keys: ['g', v.key], label: 'ui.shortcuts.go', labelArgs: { View: v.view }, group: 'views' })
    }
    return rows
  }
}

/**
 * Moves a cursor through ids: +1 (j) or -1 (k) from current, clamped to the ends. With no
 * current (or one no longer listed), j starts at the first row and k at the last.
 */
export function step(ids: readonly string[], current: string | null, delta: 1 | -1): string | null {
  if (ids.length === 0) return null
  const i = current === null ? -1 : ids.indexOf(current)
  if (i < 0) return delta > 0 ? ids[0] : ids[ids.length - 1]
  return ids[Math.min(ids.length - 1, Math.max(0, i + delta))]
}
