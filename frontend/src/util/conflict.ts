// What kind of pair a memory marked `conflicts_with` is, for Review's hint: each is decided
// differently (keep one machine's words, take or refuse a proposal, keep what is right).

/** `sync`: a sync's conflict copy (the other machine's version of a memory both changed);
 *  `proposal`: the extractor's change to a memory the person reviewed, written beside it as
 *  `<slug>-proposed[-n]`; `other`: any other pair marked conflicting (an identity fact restated). */
export type ConflictKind = 'sync' | 'proposal' | 'other'

export function conflictKind(m: { slug: string; source?: { kind?: string } | null }): ConflictKind {
  const k = m.source?.kind ?? ''
  if (k === 'sync') return 'sync'
  if (k === 'extractor' && /-proposed(-\d+)?$/.test(m.slug)) return 'proposal'
  return 'other'
}
