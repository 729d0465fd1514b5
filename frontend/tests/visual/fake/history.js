// Fixtures of history.* (git history of the memory folder): off by default, as a new home is;
// opts.git turns it on with three versions of every memory (the person's first write, the
// extractor's update, a hand edit), each with its unified diff; Restore writes the chosen
// version's body back as a new version and announces the change like the Go side.
window.__FAKE_EXT__ = (window.__FAKE_EXT__ || []).concat(({ api, opts, items, ago, mk, ok, fail, changed }) => {
  let enabled = !!opts.git
  let syncs = 0 // Sync now presses: odd ones merge, even ones fast-forward to the other's merge
  // opts.git === 'conflict': a sync left the other machine's version of a memory as an
  // unreviewed conflict copy, which Review shows beside the memory it conflicts with.
  const original = items.find((x) => x.scope === 'global' && x.type === 'user')
  if (opts.git === 'conflict' && original) {
    const zhc = opts.language === 'zh-CN'
    items.unshift(
      mk({
        id: '01JDCONFLICTCOPY00000000000',
        slug: `${original.slug}-conflict-7c1e0a9`,
        title: original.title,
        scope: 'global',
        type: original.type,
        confidence: 'medium',
        reviewed: false,
        conflicts_with: [original.slug],
        body: zhc ? '喜欢先看代码，再看两三句解释；笔记本上偏好更长的说明。' : 'Wants code first, then two or three sentences; on the laptop prefers longer explanations.',
        source: { kind: 'sync' },
        created: ago(0.2),
        updated: ago(0.2),
        path: `global/${original.type}/${original.slug}-conflict-7c1e0a9.md`,
      }),
    )
  }
  // memory.read by slug (the conflict's original), which the base fake answers by id only.
  const baseRead = api.MemoryService.Read
  api.MemoryService.Read = async (p) => {
    if (!p.id && p.slug) {
      const m = items.find((x) => x.slug === p.slug && !x.archived && (!p.scope || x.scope === p.scope))
      if (!m) return fail('not_found', { Ref: p.slug })
      return baseRead({ id: m.id })
    }
    return baseRead(p)
  }
  const extra = {} // id -> versions added by restores, newest first
  const hash = (s) => {
    let h = 2166136261
    for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0
    return (h.toString(16) + '0000000').slice(0, 8)
  }
  const zh = opts.language === 'zh-CN'
  const diffOf = (path, before, after) => {
    const a = before ? before.split('\n') : []
    const b = after.split('\n')
    const lines = [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, `@@ -1,${a.length} +1,${b.length} @@`]
    for (const l of a) if (!b.includes(l)) lines.push('-' + l)
    for (const l of b) lines.push((a.includes(l) ? ' ' : '+') + l)
    return { diff: lines.join('\n') + '\n', added: b.filter((l) => !a.includes(l)).length, removed: a.filter((l) => !b.includes(l)).length }
  }
  const bodiesOf = (m) => {
    const first = m.body.split('\n')[0]
    return [
      ['user', 80, `${m.title}\n\n${first}`, zh ? '第一次写入' : 'create'],
      ['extractor', 30, `${m.title}\n\n${first}\n${zh ? '（来自最近的对话）' : '(from a recent conversation)'}`, zh ? '更新' : 'update'],
      ['hand', 2, `${m.title}\n\n${m.body}`, zh ? '手动编辑' : 'edit'],
    ]
  }
  const versionsOf = (m) => {
    const path = m.path || `global/${m.type}/${m.slug}.md`
    const steps = bodiesOf(m)
    const out = steps.map(([actor, h, body, what], i) => {
      const d = diffOf(path, i > 0 ? steps[i - 1][2] : '', body)
      const commit = hash(m.id + actor) + hash(actor + m.id) + hash(m.slug) + hash(path) + hash(body).slice(0, 8)
      return { commit, short: commit.slice(0, 8), time: ago(h), actor, message: `${actor}: ${what} ${path.replace(/\.md$/, '')}`, ...d, body }
    })
    return [...(extra[m.id] || []), ...out.reverse()]
  }
  const status = () => ({
    enabled,
    exists: enabled,
    head: enabled ? 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678' : undefined,
    commits: enabled ? 42 : 0,
    last_commit: enabled ? ago(1) : undefined,
    remote: enabled && opts.git === 'remote' ? 'git@example.com:me/memories.git' : undefined,
    sync_minutes: enabled && opts.git === 'remote' ? 15 : 0,
  })
  const deletedList = [
    { path: 'global/user/used-emacs.md', id: '01JDDELETEDEMACS0000000000', slug: 'used-emacs', title: 'Used Emacs for a decade', commit: 'b7e1c2d3a4f5061728394a5b6c7d8e9f00112233', short: 'b7e1c2d3', deleted_at: ago(30), deleted_by: 'user' },
    { path: 'projects/acme-billing-3f2a/project/old-deploy-script.md', id: '01JDDELETEDDEPLOY000000000', slug: 'old-deploy-script', title: '部署脚本：旧的 deploy.sh 流程', commit: 'c8f2d3e4b5a6071829304a5b6c7d8e9f00112244', short: 'c8f2d3e4', deleted_at: ago(200), deleted_by: 'organizer' },
  ]
  api.HistoryService = {
    Status: async () => ({ ...status(), sync_minutes: status().sync_minutes ? (await api.SettingsService.Get()).sync_minutes : 0 }),
    Enable: async () => {
      enabled = true
      return status()
    },
    Disable: async () => {
      enabled = false
      return status()
    },
    Versions: async (p) => {
      const m = items.find((x) => x.id === p.id)
      if (!m) return fail('not_found', { Ref: p.id })
      if (!enabled) return { enabled: false, path: m.path || '', versions: [] }
      return { enabled: true, path: m.path || '', versions: versionsOf(m).map(({ body, ...v }) => v) }
    },
    // Deleted memories the history keeps: a hand-deleted one and one the organizer merged away.
    Deleted: async () => {
      if (!enabled) return { enabled: false, memories: [] }
      return { enabled: true, memories: deletedList.filter((d) => !d.back) }
    },
    Restore: async (p) => {
      if (p.path) {
        const d = deletedList.find((x) => x.path === p.path && x.commit === p.commit)
        if (!d) return fail('history_no_version', {})
        d.back = true
        return { op: 'restore', ok: true, id: d.id, slug: d.slug, path: d.path }
      }
      const m = items.find((x) => x.id === p.id)
      if (!m) return fail('not_found', { Ref: p.id })
      const vs = versionsOf(m)
      const v = vs.find((x) => x.commit === p.commit)
      if (!v) return fail('history_no_version', {})
      const before = vs[0].body
      m.body = v.body.split('\n\n').slice(1).join('\n\n') || v.body
      m.version = hash(m.body + Date.now())
      m.updated = new Date().toISOString()
      const commit = hash(m.body) + hash(p.commit) + hash(m.id) + hash(String(Date.now())) + '00000000'
      const d = diffOf(m.path || m.slug, before, v.body)
      extra[m.id] = [{ commit, short: commit.slice(0, 8), time: m.updated, actor: 'user', message: `user: update ${m.slug}`, ...d, body: v.body }, ...(extra[m.id] || [])]
      changed([m.id])
      return ok('update', m)
    },
    Sync: async () => {
      if (!enabled) return fail('history_off', {})
      if (opts.git !== 'remote') return fail('history_no_remote', {})
      const m = items.find((x) => x.scope === 'global') || items[0]
      const copy = `${m.slug}-conflict-7c1e0a9`
      syncs += 1
      if (syncs % 2 === 0) {
        // The next sync on the machine that pushed first: a fast-forward to the other's merge,
        // naming what that merge decided against this machine.
        return { remote: status().remote, fetched: true, fast_forward: true, merged: false, changed: 2, memories: 1, days: 0, kv_files: 1, copies: 0,
          pushed: false, head: status().head, conflicts: [],
          replaced: [
            { path: `global/${m.type}/${m.slug}.md`, slug: m.slug, copy },
            { path: 'agents/claude/kv.json', slug: '', key: 'project:version', agent: 'claude', value: '1.5.0', other: '1.4.2', theirs: '4cac9265aa00' },
          ] }
      }
      return { remote: status().remote, fetched: true, fast_forward: false, merged: true, changed: 3, memories: 1, days: 0, kv_files: 1, copies: 1, pushed: true, head: status().head,
        conflicts: [
          { path: `global/${m.type}/${m.slug}.md`, slug: m.slug, copy, copy_id: '01JDCONFLICTCOPY0000000000' },
          { path: 'agents/claude/kv.json', slug: '', key: 'project:version', agent: 'claude', value: '1.5.0', other: '1.4.2', theirs: '4cac9265aa00' },
        ], replaced: [] }
    },
  }
})
