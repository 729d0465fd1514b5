// Settings → Storage / Data and the quota banner's button: pure helpers (no Vue, no i18n
// state) so they can be unit-tested.
import type { ImportPreviewResult, RunNowParams, ScopeQuota, StorageSample } from '@/api/types'

/** The organizer.runNow params that limit a run to one scope instance (the banner's button). */
export function organizeParams(s: Pick<ScopeQuota, 'scope' | 'key' | 'workdir' | 'agent'>): RunNowParams {
  if (s.scope === 'project') return s.workdir ? { scope: 'project', workdir: s.workdir } : { scope: 'project', key: s.key }
  if (s.scope === 'agent') return { scope: 'agent', agent: s.agent || s.key }
  return { scope: 'global' }
}

/** Bytes for people: B, KB, MB, GB with one decimal from KB up (1 KB = 1024 B). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 1024) return `${Math.max(0, Math.round(n || 0))} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v.toFixed(1)} ${units[i]}`
}

/** The series of the store's size chart: one point per sampled day, oldest first. */
export function historySeries(samples: StorageSample[]): { days: string[]; memories: number[]; bytes: number[] } {
  const sorted = samples.slice().sort((a, b) => a.day.localeCompare(b.day))
  return { days: sorted.map((s) => s.day), memories: sorted.map((s) => s.memories), bytes: sorted.map((s) => s.bytes + s.index_bytes) }
}

/** Whether applying a previewed import would write or change anything at all. */
export function previewApplies(p: Pick<ImportPreviewResult, 'new' | 'daily' | 'kv'>): boolean {
  return p.new + p.daily + p.kv > 0
}

/** A progress bar's percent (0–100); null while the total is not known yet. */
export function progressPercent(done: number, total: number): number | null {
  if (!total || total <= 0) return null
  return Math.max(0, Math.min(100, Math.round((done / total) * 100)))
}

/** The file name an export downloads as: engram-export-YYYY-MM-DD.jsonl (local date). */
export function exportFileName(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0')
  return `engram-export-${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}.jsonl`
}
