// Fixtures of Settings → Storage / Data and the quota banner's button (issue 12): storage
// history, export, an import preview with conflicts and quota impact, and reindex / doctor
// that report progress through index.progress events before answering.
window.__FAKE_EXT__ = (window.__FAKE_EXT__ || []).concat(({ api, opts, items, emit, ok, fail }) => {
  const day = (n) => new Date(Date.now() - n * 86400e3).toISOString().slice(0, 10)
  const samples = []
  for (let i = 13; i >= 0; i--) {
    const memories = 380 + (13 - i) * 6 + (i % 3)
    samples.push({ day: day(i), at: new Date(Date.now() - i * 86400e3).toISOString(), memories, archived: 4 + (13 - i), bytes: memories * 1350, index_bytes: 2_400_000 + (13 - i) * 40_000 })
  }
  api.QuotaService.History = async (p) => {
    if (p?.days && (p.days < 1 || p.days > 400)) return fail('invalid_params', { Method: 'quota.history', Detail: 'days must be between 1 and 400' })
    return { samples: opts.storageEmpty ? samples.slice(-1) : samples.slice() }
  }
  api.MemoryService.Export = async (p) => {
    if (p && p.markdown) {
      window.__LAST_EXPORT_FOLDER__ = p
      if (!p.markdown.startsWith('/')) return fail('invalid_workdir', { Workdir: p.markdown })
      return { count: items.length, kv: 0, jsonl: '', folder: { dir: p.markdown, memories: items.length, daily: 2, gone: 0 } }
    }
    return { count: items.length, kv: 0, jsonl: items.map((m) => JSON.stringify({ slug: m.slug, title: m.title, scope: m.scope, type: m.type, body: m.body })).join('\n') + '\n' }
  }
  api.MemoryService.ImportPreview = async (p) => {
    if (!p || typeof p.jsonl !== 'string') return fail('invalid_params', { Method: 'memory.importPreview', Detail: 'jsonl' })
    window.__LAST_IMPORT_PREVIEW__ = p
    return {
      lines: 212,
      new: 180,
      duplicates: 14,
      conflicts: 3,
      daily: 6,
      kv: 0,
      invalid: 2,
      over_quota: 7,
      scopes: [
        { scope: 'global', key: '', used: 462, limit: 500, adding: 33, after: 495, refused: 7, level: 'exhausted' },
        { scope: 'project', key: '3f9a0c2e7b1d4a66', workdir: '/home/ada/src/acme-billing', used: 2, limit: 500, adding: 147, after: 149, refused: 0, level: 'normal' },
      ],
      conflict_lines: [
        { line: 4, slug: 'prefers-concise-answers', id: items[0]?.id || 'x', title: 'Prefers concise answers with code first', scope: 'global' },
        { line: 19, slug: 'uses-neovim', id: 'y', title: 'Uses Neovim with LazyVim', scope: 'global' },
        { line: 77, slug: 'acme-billing-service', id: 'z', title: 'Billing service runs on Postgres 16', scope: 'project' },
      ],
      errors: [
        { line: 31, code: 'parse_error', i18n_key: 'error.parse_error', message: opts.language === 'zh-CN' ? '无法解析：invalid JSON' : 'Could not parse: invalid JSON' },
        { line: 150, code: 'invalid_slug', i18n_key: 'error.invalid_slug', message: opts.language === 'zh-CN' ? '无效的 slug “Bad Slug”' : 'Invalid slug “Bad Slug”' },
      ],
    }
  }
  api.MemoryService.Import = async (p) => ((window.__LAST_IMPORT__ = p), { lines: 212, imported: 173, daily: 6, kv: 0, kv_unchanged: 0, kv_conflicts: 0, errors: [] })
  api.AppService.OpenFolder = async () => ({ path: '/home/ada/.engram' })

  // Reindex and doctor move through their phases by events; opts.holdIndex keeps them at the
  // given phase (a screenshot of the bar) until window.__FAKE_RELEASE_INDEX__() is called.
  let release = null
  window.__FAKE_RELEASE_INDEX__ = () => release && release()
  const runPhases = async (op, phases) => {
    for (const [phase, done, total] of phases) {
      emit('index.progress', { op, phase, done, total })
      await new Promise((r) => setTimeout(r, 5))
      if (opts.holdIndex === phase) await new Promise((r) => (release = r))
    }
  }
  api.IndexService.Reindex = async () => {
    await runPhases('reindex', [['walk', 0, 0], ['index', 120, 412], ['index', 268, 412], ['commit', 412, 412], ['done', 412, 412]])
    return { scanned: 412, added: 409, updated: 0, removed: 0, unchanged: 0, problems: 3, risky_unreviewed: 0 }
  }
  api.IndexService.Doctor = async () => {
    await runPhases('doctor', [['integrity', 0, 0], ['walk', 0, 0], ['index', 412, 412], ['checksum', 200, 409], ['done', 409, 409]])
    return {
      home: '/home/ada/.engram', schema_version: 12, memories: 409, archived: 17, trash_files: 2, integrity: 'ok', fts_consistent: true,
      problems: [{ path: 'global/user/notes-from-phone.md', code: 'parse_error', detail: 'frontmatter: yaml: line 3: did not find expected key', seen_at: new Date().toISOString() }],
      reconcile: { scanned: 412, added: 0, updated: 1, removed: 0, unchanged: 411, problems: 1, risky_unreviewed: 0 },
      quota: { level: 'normal', scopes: [] },
      checksum: { checked: 409, mismatched: ['projects/3f9a0c2e7b1d4a66/project/acme-billing-service.md'], reindexed: 1 },
      temp_files: { count: 0, paths: [] },
      headline: { code: 'attention', args: { Memories: 409, Daily: 0, Count: 2 }, message: '409 memories, index intact; 2 findings need attention (below).' },
      ok: false, read_only: false,
    }
  }
  // The banner's button: RunNow answers with the scope it was given (kept for the check).
  const runNow = api.OrganizerService.RunNow
  api.OrganizerService.RunNow = async (p) => {
    window.__FAKE_LAST_RUN_NOW__ = p
    return runNow(p)
  }
  void ok
})
