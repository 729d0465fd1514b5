import { describe, expect, it } from 'vitest'
import { ShortcutEngine, isTyping, step, viewKeys, type KeyLike } from '../../src/util/shortcuts'

function setup(views: string[] = ['memories', 'organizer', 'activity', 'usage']) {
  const log: string[] = []
  const engine = new ShortcutEngine({
    views: () => views,
    go: (v) => log.push(`go:${v}`),
    help: () => log.push('help'),
    search: () => log.push('search:fallback'),
  })
  let now = 1000
  const press = (key: string, extra: Partial<KeyLike> = {}, dt = 10) => {
    now += dt
    return engine.handle({ key, ...extra }, now)
  }
  return { engine, log, press, views }
}

const input = { tagName: 'INPUT' }
const textarea = { tagName: 'textarea' }
const editable = { tagName: 'DIV', isContentEditable: true }
const combobox = { tagName: 'DIV', getAttribute: (n: string) => (n === 'role' ? 'combobox' : null) }
const button = { tagName: 'BUTTON', getAttribute: () => null, closest: () => null }
const inDialog = { tagName: 'BUTTON', getAttribute: () => null, closest: () => ({}) }

describe('view keys', () => {
  it('gives each existing view its letter, in the order of VIEWS', () => {
    expect(viewKeys(['memories', 'review', 'journal', 'graph', 'organizer', 'activity', 'usage', 'agents'])).toEqual([
      { view: 'memories', key: 'm' },
      { view: 'review', key: 'r' },
      { view: 'journal', key: 'j' },
      { view: 'graph', key: 'g' },
      { view: 'organizer', key: 'o' },
      { view: 'activity', key: 'a' },
      { view: 'usage', key: 'u' },
      { view: 'agents', key: 's' },
    ])
  })

  it('gives a view it does not know the first free letter of its id, and none to a view without one', () => {
    expect(viewKeys(['memories', 'mailbox', 'timeline', '42'])).toEqual([
      { view: 'memories', key: 'm' },
      { view: 'mailbox', key: 'a' },
      { view: 'timeline', key: 't' },
    ])
  })
})

describe('shortcut engine', () => {
  it('switches views with g then a letter, only for views that exist', () => {
    const views = ['memories', 'organizer']
    const { press, log } = setup(views)
    expect(press('g')).toBe(true)
    expect(press('o')).toBe(true)
    expect(press('g')).toBe(true)
    expect(press('r')).toBe(false) // no review view yet
    views.push('review')
    press('g')
    press('r')
    expect(log).toEqual(['go:organizer', 'go:review'])
  })

  it('g g opens the graph when it exists', () => {
    const { press, log } = setup(['memories', 'graph'])
    press('g')
    press('g')
    expect(log).toEqual(['go:graph'])
  })

  it('forgets a g after the sequence time, so the next key is a plain key', () => {
    const { engine, press, log } = setup()
    const keys: string[] = []
    engine.push({ keys: { m: () => keys.push('m') } })
    press('g')
    press('m', {}, 5000)
    expect(log).toEqual([])
    expect(keys).toEqual(['m'])
  })

  it('sends list keys to the layer on top, and back to the one below once it is removed', () => {
    const { engine, press } = setup()
    const got: string[] = []
    engine.push({ keys: { j: () => got.push('list:j'), Enter: () => got.push('list:enter') } })
    const pop = engine.push({ keys: { j: () => got.push('review:j'), a: () => got.push('review:a') } })
    press('j')
    press('a')
    expect(press('Enter')).toBe(false) // the top layer does not handle it
    pop()
    press('j')
    press('Enter')
    expect(got).toEqual(['review:j', 'review:a', 'list:j', 'list:enter'])
  })

  it('/ goes to the layer search, else to the fallback; ? opens the help', () => {
    const { engine, press, log } = setup()
    press('/')
    engine.push({ keys: { '/': () => log.push('search:layer') } })
    press('/')
    press('?')
    expect(log).toEqual(['search:fallback', 'search:layer', 'help'])
  })

  it('never fires while typing in an input, textarea, editor or combobox', () => {
    const { engine, press, log } = setup()
    const got: string[] = []
    engine.push({ keys: { j: () => got.push('j'), e: () => got.push('e') } })
    for (const target of [input, textarea, editable, combobox]) {
      expect(press('j', { target })).toBe(false)
      expect(press('/', { target })).toBe(false)
      expect(press('?', { target })).toBe(false)
      expect(press('g', { target })).toBe(false)
      expect(press('m', { target })).toBe(false)
    }
    expect(got).toEqual([])
    expect(log).toEqual([])
    expect(isTyping(button)).toBe(false)
    expect(press('j', { target: button })).toBe(true)
    expect(got).toEqual(['j'])
  })

  it('leaves Enter to a focused button, link or row, which act on it themselves', () => {
    const { engine, press } = setup()
    const got: string[] = []
    engine.push({ keys: { Enter: () => got.push('enter') } })
    const option = { tagName: 'LI', getAttribute: (n: string) => (n === 'role' ? 'option' : null), closest: () => null }
    expect(press('Enter', { target: button })).toBe(false)
    expect(press('Enter', { target: { tagName: 'A', closest: () => null } })).toBe(false)
    expect(press('Enter', { target: option })).toBe(false)
    expect(press('Enter', { target: { tagName: 'BODY', getAttribute: () => null, closest: () => null } })).toBe(true)
    expect(got).toEqual(['enter'])
  })

  it('a g typed into an input does not arm the sequence for the next key outside it', () => {
    const { press, log } = setup()
    press('g', { target: input })
    press('m', { target: button })
    expect(log).toEqual([])
  })

  it('leaves keys with Ctrl, Alt or Meta to the browser', () => {
    const { engine, press, log } = setup()
    const got: string[] = []
    engine.push({ keys: { j: () => got.push('j') } })
    expect(press('j', { ctrlKey: true })).toBe(false)
    expect(press('/', { metaKey: true })).toBe(false)
    expect(press('g', { altKey: true })).toBe(false)
    expect(press('m')).toBe(false)
    expect(got).toEqual([])
    expect(log).toEqual([])
  })

  it('does not reach the page behind a dialog, except for the help key', () => {
    const { engine, press, log } = setup()
    const got: string[] = []
    engine.push({ keys: { j: () => got.push('j') } })
    expect(press('j', { target: inDialog })).toBe(false)
    expect(press('?', { target: inDialog })).toBe(true)
    expect(got).toEqual([])
    expect(log).toEqual(['help'])
  })

  it('lists help rows for the views that exist and the keys the top layer adds', () => {
    const { engine } = setup(['memories', 'review'])
    engine.push({ keys: { a: () => {} }, help: [{ keys: ['a'], label: 'ui.review.accept', group: 'list' }] })
    const rows = engine.helpRows()
    expect(rows.filter((r) => r.group === 'views').map((r) => r.keys.join(' '))).toEqual(['g m', 'g r'])
    expect(rows.map((r) => r.label)).toContain('ui.review.accept')
    expect(rows.map((r) => r.keys[0])).toEqual(expect.arrayContaining(['/', '?']))
  })

  it('lists the common list keys only where the view on top answers them', () => {
    const { engine } = setup(['memories', 'review'])
    const listed = () => engine.helpRows().filter((r) => r.group === 'list').map((r) => r.keys[0])
    // No layer (Usage, Graph): j, k, Enter and e do nothing, and are not listed.
    expect(listed()).toEqual([])
    const noop = () => {}
    const popList = engine.push({ keys: { j: noop, k: noop, Enter: noop, e: noop } })
    expect(listed()).toEqual(['j', 'k', 'Enter', 'e'])
    // Review: j, k and e, and its own a; no Enter.
    const popReview = engine.push({ keys: { j: noop, k: noop, e: noop, a: noop }, help: [{ keys: ['a'], label: 'ui.review.key_accept', group: 'list' }] })
    expect(listed()).toEqual(['j', 'k', 'e', 'a'])
    popReview()
    popList()
    // Journal: its own day keys, no list keys.
    engine.push({ keys: { ArrowLeft: noop, ArrowRight: noop }, help: [{ keys: ['←'], label: 'ui.journal.prev_day', group: 'list' }] })
    expect(listed()).toEqual(['←'])
  })
})

describe('step', () => {
  const ids = ['a', 'b', 'c']
  it('moves down and up, stopping at the ends', () => {
    expect(step(ids, 'a', 1)).toBe('b')
    expect(step(ids, 'c', 1)).toBe('c')
    expect(step(ids, 'b', -1)).toBe('a')
    expect(step(ids, 'a', -1)).toBe('a')
  })
  it('starts at the first row for j and the last for k when nothing (or a gone row) is current', () => {
    expect(step(ids, null, 1)).toBe('a')
    expect(step(ids, null, -1)).toBe('c')
    expect(step(ids, 'gone', 1)).toBe('a')
    expect(step([], null, 1)).toBe(null)
  })
})
