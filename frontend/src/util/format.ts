// Locale-aware dates through Intl (no strings of our own).

function parse(iso: string | undefined | null): Date | null {
  if (!iso) return null
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? null : d
}

export function formatDateTime(iso: string | undefined | null, lang: string): string {
  const d = parse(iso)
  if (!d) return ''
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(d)
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
]

export function formatRelative(iso: string | undefined | null, lang: string, now = Date.now()): string {
  const d = parse(iso)
  if (!d) return ''
  const secs = (d.getTime() - now) / 1000
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto', style: 'short' })
  for (const [unit, size] of UNITS) {
    if (Math.abs(secs) >= size) return rtf.format(Math.round(secs / size), unit)
  }
  return rtf.format(0, 'minute')
}

export function utf8Bytes(s: string): number {
  return new TextEncoder().encode(s).length
}

export function kib(bytes: number): string {
  // Rounded up: a few bytes never read "0.0", and a size over a limit never reads as the limit.
  return (Math.ceil((Math.max(0, bytes) * 10) / 1024) / 10).toFixed(1)
}

/** A one-line plain-text preview of Markdown (list snippets). */
export function plainSnippet(md: string | undefined | null): string {
  if (!md) return ''
  return md
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g, (_m, a: string, b?: string) => b || a)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/\s+/g, ' ')
    .trim()
}
