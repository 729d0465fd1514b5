// Fixtures of Settings → Data → Backup and upkeep (issue 15): the backups folder, back up now,
// a restore previewed from its manifest then confirmed, the schedule, vacuum and a cleanup
// dry run, each reporting progress through index.progress events. opts.holdBackup keeps a
// run at the named phase (a screenshot of the bar) until window.__FAKE_RELEASE_BACKUP__().
// opts.backupDoctor makes doctor answer with findings and their fix commands.
window.__FAKE_EXT__ = (window.__FAKE_EXT__ || []).concat(({ api, opts, emit, ago, fail }) => {
  const dir = '/home/ada/.engram/backups'
  const stamp = (h) => new Date(Date.now() - h * 3600e3).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
  const backups = [
    { name: `engram-backup-${stamp(3)}.tar.gz`, size: 1_842_311, modified: ago(3), scheduled: true },
    { name: `engram-backup-${stamp(27)}.tar.gz`, size: 1_830_022, modified: ago(27), scheduled: true },
    { name: `engram-pre-restore-${stamp(80)}.tar.gz`, size: 1_701_540, modified: ago(80), scheduled: false },
  ].map((b) => ({ ...b, path: `${dir}/${b.name}` }))
  let schedule = { interval_hours: 24, keep: 7 }
  const manifest = (created) => ({
    format: 'engram-backup', format_version: 1, app_version: '0.9.0', schema_version: 10, created,
    memories: 409, daily: 38, archived: 17, trash: 2, kv_files: 3, bytes: 2_911_204, file_count: 470,
  })
  let release = null
  window.__FAKE_RELEASE_BACKUP__ = () => release && release()
  const phases = async (op, list) => {
    for (const [phase, done, total] of list) {
      emit('index.progress', { op, phase, done, total })
      await new Promise((r) => setTimeout(r, 5))
      if (opts.holdBackup === phase) await new Promise((r) => (release = r))
    }
  }
  api.BackupService = {
    List: async () => ({ dir, backups: opts.noBackups ? [] : backups.slice(), schedule: { ...schedule }, next_due: schedule.interval_hours ? ago(3 - schedule.interval_hours) : '' }),
    Create: async () => {
      await phases('backup', [['index', 0, 0], ['files', 120, 470], ['files', 470, 470], ['done', 471, 471]])
      const b = { name: `engram-backup-${stamp(0)}.tar.gz`, size: 1_851_004, modified: ago(0), scheduled: true }
      b.path = `${dir}/${b.name}`
      backups.unshift(b)
      return { path: b.path, size: b.size, manifest: manifest(ago(0)) }
    },
    Preview: async (p) => {
      if (!p?.path) return fail('invalid_params', { Method: 'backup.preview', Detail: 'path' })
      if (p.path.includes('hostile')) return fail('backup_unsafe_entry', { Path: '../../.ssh/authorized_keys' })
      await phases('preview', [['verify', 200, 0], ['verify', 470, 0]])
      const b = backups.find((x) => x.name === p.path || x.path === p.path)
      // What a restore in place would change here: memories written since, edits since.
      const onlyHere = ['global/user/prefers-dark-mode.md', 'global/user/花茶-绿茶.md', 'projects/engram-3f2a/feedback/run-tests-with-race.md',
        'projects/engram-3f2a/project/release-checklist.md', 'global/reference/grafana-dashboards.md', 'daily/2026-12-06.md', 'daily/2026-12-07.md']
      const home_diff = { changed: ['global/user/works-at-acme.md', 'projects/engram-3f2a/project/quota-ladder.md'], changed_count: 2,
        only_here: onlyHere, only_here_count: 9, only_in_backup: 3 }
      return { ...manifest(b ? b.modified : ago(50)), home_diff }
    },
    Restore: async (p) => {
      await phases('restore', [['verify', 470, 0], ['pre_backup', 300, 470], ['swap', 0, 0], ['done', 1, 1]])
      const home = p.home || '/home/ada/.engram'
      return { home, in_place: !p.home, manifest: manifest(ago(27)), pre_backup: p.home ? '' : `${dir}/engram-pre-restore-${stamp(0)}.tar.gz`, kept_history: !p.home, git_config_dropped: ['core.fsmonitor', 'include.path'], reindex: { scanned: 447, added: 447, updated: 0, removed: 0, unchanged: 0, problems: 0, risky_unreviewed: 0 } }
    },
    Schedule: async () => ({ ...schedule }),
    UpdateSchedule: async (p) => {
      if (p.interval_hours < 0 || p.keep < 1) return fail('backup_invalid_schedule', { MaxHours: 2160, MaxKeep: 365 })
      schedule = { interval_hours: p.interval_hours, keep: p.keep }
      return { ...schedule }
    },
  }
  api.MaintenanceService = {
    Vacuum: async () => {
      await phases('vacuum', [['orphans', 0, 0], ['vacuum', 0, 0], ['done', 1, 1]])
      return { bytes_before: 6_553_600, bytes_after: 4_194_304, orphans_removed: { vectors: 12, mentions: 3, relations: 1 }, stuck_closed: { organizer: 0, extraction: 1 } }
    },
    Cleanup: async (p) => {
      const items = [
        { path: '.trash/20260912T101500.000000000Z__global__user__old-editor.md', size: 912, modified: ago(24 * 80) },
        { path: '.trash/20260920T090000.000000000Z__global__reference__vpn-notes.md', size: 1404, modified: ago(24 * 72) },
        { path: '.snapshots/run-01JB7/global__user__tea.md', size: 640, modified: ago(24 * 60) },
        { path: '.archive/2025/global/project/legacy-billing.md', size: 2210, modified: ago(24 * 300) },
      ]
      await phases('cleanup', [['remove', items.length, items.length]])
      return { dry_run: !!p.dry_run, before: ago(24 * 30), items, bytes: items.reduce((n, i) => n + i.size, 0) }
    },
  }
  if (opts.backupDoctor) {
    const doctor = async () => {
      emit('index.progress', { op: 'doctor', phase: 'done', done: 409, total: 409 })
      const zh = opts.language === 'zh-CN'
      return {
        home: '/home/ada/.engram', schema_version: 10, memories: 409, archived: 17, trash_files: 2, integrity: 'ok', fts_consistent: true,
        problems: [], reconcile: { scanned: 410, added: 0, updated: 0, removed: 1, unchanged: 409, problems: 1, risky_unreviewed: 0 },
        quota: { level: 'normal', scopes: [] }, checksum: { checked: 409, mismatched: [], reindexed: 0 }, temp_files: { count: 0, paths: [] },
        orphans: { vectors: 12, mentions: 3, relations: 1 }, stuck_runs: { organizer: 0, extraction: 0 }, ok: false, read_only: false,
        findings: [
          { code: 'index_stale', count: 1, fix: 'engram reindex', fixed: true, message: zh ? '索引与文件不一致（新增 0，更新 0，移除 1）。' : 'The index was out of date with the files (0 added, 0 updated, 1 removed).' },
          { code: 'unparsable_file', path: 'global/user/notes-from-phone.md', fix: "$EDITOR /home/ada/.engram/memory/global/user/notes-from-phone.md && engram reindex", fixed: false, message: zh ? 'global/user/notes-from-phone.md 无法作为记忆读取：frontmatter: yaml: line 3' : 'global/user/notes-from-phone.md cannot be read as a memory: frontmatter: yaml: line 3' },
          { code: 'orphan_rows', count: 16, fix: 'engram vacuum', fixed: false, message: zh ? '16 条索引行指向已不存在的记忆（向量 12，图谱提及 3，关系 1）。' : '16 index rows point at memories that are gone (12 vectors, 3 graph mentions, 1 relations).' },
        ],
        headline: { code: 'attention', args: { Memories: 409, Daily: 0, Count: 2 }, message: zh ? '409 条记忆，索引完好；2 个问题需要处理（见下）。' : '409 memories, index intact; 2 findings need attention (below).' },
      }
    }
    // data.js (loaded after this file) sets its own doctor; this one wins when asked for.
    Object.defineProperty(api.IndexService, 'Doctor', { get: () => doctor, set: () => {}, configurable: true })
  }
})
