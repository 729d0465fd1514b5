// A project's folder as people tell projects apart: its last path element ("engram" for
// /home/me/src/engram), the whole path kept for a tooltip. Pure, so it can be unit-tested.

/** The last element of a path (Unix or Windows separators); the path itself when it has none. */
export function folderName(path: string | null | undefined): string {
  if (!path) return ''
  return path.split(/[\\/]/).filter(Boolean).pop() || path
}

/** A scope instance's name for labels: the folder of a project, the name of an agent. */
export function scopeDetail(s: { scope: string; key?: string; workdir?: string; agent?: string }): string {
  if (s.scope === 'project') return folderName(s.workdir) || s.key || ''
  if (s.scope === 'agent') return s.agent || s.key || ''
  return ''
}

/** The full form of scopeDetail (a tooltip): a project's whole path. */
export function scopeDetailFull(s: { scope: string; key?: string; workdir?: string; agent?: string }): string {
  if (s.scope === 'project') return s.workdir || s.key || ''
  return scopeDetail(s)
}
