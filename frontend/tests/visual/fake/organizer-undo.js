// Fixtures of organizer.undo: an applied run of the report fixture taken back. ApplyReport is
// wrapped to keep the memories it took out, Undo (dry_run: the preview) puts them back and
// records the undo on the run's report, as the Go side does; window.__FAKE_UNDO_CONFLICT__
// names a change whose keeper was edited after the run, which the undo leaves as it is.
window.__FAKE_EXT__ = (window.__FAKE_EXT__ || []).concat(({ api, items, fail, changed }) => {
  const org = api.OrganizerService
  if (!org) return
  const removed = {} // run id → memories its applies took out
  const undos = {} // run id → its undo record
  const baseApply = org.ApplyReport
  org.ApplyReport = async (p) => {
    if (undos[p.run_id]) return fail('organizer_run_undone', { Run: p.run_id })
    const before = items.slice()
    const r = await baseApply(p)
    removed[p.run_id] = (removed[p.run_id] || []).concat(before.filter((m) => !items.includes(m)))
    return r
  }
  const baseRun = org.Run
  org.Run = async (p) => {
    const d = await baseRun(p)
    if (d && d.report && undos[p.id]) d.report.undo = undos[p.id]
    return d
  }
  org.Undo = async (p) => {
    if (undos[p.run_id]) return fail('organizer_undo_done', { Run: p.run_id, At: undos[p.run_id].at })
    const d = await baseRun({ id: p.run_id })
    const applied = ((d.report && d.report.decisions) || []).filter((x) => x.status === 'applied' && ['merge_into', 'delete', 'mark_review'].includes(x.action))
    if (!applied.length) return fail('organizer_nothing_to_undo', { Run: p.run_id })
    const res = { run_id: p.run_id, dry_run: !!p.dry_run, items: [], undone: 0, conflicts: 0, restored: 0, reverted: 0 }
    const back = []
    for (const x of applied) {
      const restore = x.action === 'mark_review' ? [] : x.targets
      const revert = x.action === 'delete' ? [] : x.action === 'merge_into' ? [x.into] : x.targets
      if (window.__FAKE_UNDO_CONFLICT__ === x.id) {
        const k = revert[0] || restore[0]
        res.items.push({ decision: x.id, action: x.action, status: 'conflict', restore, revert, already_back: [], problems: [{ code: 'version_conflict', i18n_key: 'organizer.undo.changed', args: { Title: k.title, Slug: k.slug, Ref: k.slug, Decision: x.id }, message: k.slug + ' was changed after the run', at: new Date().toISOString(), by: '', removed: 0 }] })
        res.conflicts++
        continue
      }
      res.items.push({ decision: x.id, action: x.action, status: p.dry_run ? 'ready' : 'undone', restore, revert, already_back: [], problems: [] })
      res.undone++
      res.restored += restore.length
      res.reverted += revert.length
      back.push(...restore.map((t) => t.id))
    }
    if (!p.dry_run && res.undone > 0) {
      for (const m of removed[p.run_id] || []) if (back.includes(m.id) && !items.includes(m)) items.push(m)
      undos[p.run_id] = { at: new Date().toISOString(), by: 'user', decisions: res.items.filter((i) => i.status === 'undone').map((i) => i.decision), conflicts: res.conflicts, restored: res.restored, reverted: res.reverted }
      changed(back)
    }
    return res
  }
})
