// Test-only stand-in for the Wails bindings (window.go / window.runtime), injected
// into a page by the visual checks. Never shipped: the app talks to the real Go
// services. Options come from window.__FAKE__ = {language, theme, quota, empty}.
;(() => {
  const opts = Object.assign({ language: 'en', theme: 'light', quota: 'normal', empty: false }, window.__FAKE__ || {})
  const now = Date.now()
  const ago = (h) => new Date(now - h * 3600e3).toISOString()
  const listeners = {}
  const emit = (name, data) => {
    ;(listeners[name] || []).forEach((cb) => cb(data))
    ;(listeners['*'] || []).forEach((cb) => cb(name, data))
  }
  let seq = 1
  const ver = () => 'sha256:' + (0x9f3a11c0 + seq++).toString(16)

  const mk = (o) =>
    Object.assign(
      {
        id: '01JD' + String(seq).padStart(4, '0') + 'ZQ8W3K5V7Y9B1N3M5P',
        workdir: undefined,
        agent: undefined,
        auto_downgraded: false,
        reviewed: true,
        archived: false,
        tags: [],
        aliases: [],
        supersedes: [],
        conflicts_with: [],
        source_quote: '',
        reasoning: '',
        source: { kind: 'user' },
        version: ver(),
      },
      o,
    )

  const items = opts.empty
    ? []
    : [
        mk({
          slug: 'prefers-concise-answers',
          // longTitles: a title far wider than a phone, for the layouts that must not widen with it.
          title: opts.longTitles ? 'Prefers concise answers with code first, then a short explanation of why, and never a restatement of the question' : 'Prefers concise answers with code first',
          scope: 'global',
          type: 'user',
          confidence: 'high',
          reviewed: false,
          created: ago(3),
          updated: ago(2),
          tags: ['style', 'communication'],
          aliases: ['short answers'],
          source_quote: 'Just show me the code first, explanations after — and keep it short.',
          reasoning: 'Stated directly as a standing preference for every answer, not tied to one task.',
          source: { kind: 'extractor', agent: 'claude-code', session: 'sess-7f2c', turn: 14, model: 'claude-sonnet-4' },
          body:
            'The user wants **answers that lead with code**, followed by a brief explanation.\n\n- Keep prose under five sentences\n- Skip restating the question\n- Use `diff` blocks for edits\n\nSee also [[uses-neovim]].',
        }),
        mk({
          slug: 'acme-billing-service',
          title: 'Billing service runs on Postgres 16 with logical replication',
          scope: 'project',
          workdir: '/home/ada/src/acme-billing',
          type: 'project',
          confidence: 'medium',
          created: ago(30),
          updated: ago(26),
          tags: ['postgres', 'infra'],
          source_quote: 'we replicate billing to the reporting db',
          reasoning: 'Architecture fact needed before touching migrations.',
          source: { kind: 'extractor', agent: 'codex', session: 'sess-19aa', turn: 3, model: 'gpt-5' },
          body: 'Primary database is **Postgres 16**. Logical replication feeds the reporting DB, so every migration must be replication-safe.\n\n- works_at [[Acme]]',
        }),
        mk({
          slug: 'flaky-test-fix',
          title: 'Fixing the flaky websocket test: wait for the ready event',
          scope: 'project',
          workdir: '/home/ada/src/acme-billing',
          type: 'experience',
          confidence: 'low',
          auto_downgraded: true,
          reviewed: false,
          created: ago(50),
          updated: ago(49),
          body: '**Pain:** the ws test failed one run in ten.\n\n**Solution:** wait for the `ready` event instead of sleeping.\n\n**Outcome:** 200 green runs in a row.',
          reasoning: 'Worked after two failed attempts.',
          source: { kind: 'extractor', agent: 'claude-code', session: 'sess-31bd', turn: 22, model: 'claude-sonnet-4' },
        }),
        mk({
          slug: 'uses-neovim',
          title: 'Uses Neovim with LazyVim',
          scope: 'global',
          type: 'user',
          confidence: 'high',
          created: ago(24 * 9),
          updated: ago(24 * 8),
          source_quote: 'I live in neovim (lazyvim)',
          body: 'Editor: Neovim with the LazyVim distribution. Prefers keyboard-driven workflows.',
          source: { kind: 'user' },
        }),
        mk({
          slug: 'review-feedback-tone',
          title: 'Code review comments should be direct but kind',
          scope: 'global',
          type: 'feedback',
          confidence: 'medium',
          created: ago(24 * 20),
          updated: ago(24 * 15),
          source_quote: 'be blunt, not rude',
          body: 'When reviewing, point out problems plainly and suggest a fix; avoid softening phrases.',
        }),
        mk({
          slug: 'api-docs-location',
          title: 'Internal API reference lives in docs/api.md',
          scope: 'agent',
          agent: 'codex',
          type: 'reference',
          confidence: 'high',
          created: ago(24 * 40),
          updated: ago(24 * 32),
          source_quote: 'the API reference is docs/api.md',
          body: 'See `docs/api.md` in the monorepo; it is generated from the OpenAPI spec by `make docs`.',
        }),
        mk({
          slug: 'zh-dietary-preference',
          title: '饮食偏好：不吃香菜，喜欢川菜',
          scope: 'global',
          type: 'user',
          confidence: 'high',
          reviewed: false,
          created: ago(5),
          updated: ago(5),
          source_quote: '我不吃香菜，但是特别喜欢川菜',
          reasoning: '用户明确陈述的长期饮食偏好。',
          source: { kind: 'extractor', agent: 'claude-code', session: 'sess-88c1', turn: 2, model: 'qwen-max' },
          body: '用户**不吃香菜**，喜欢**川菜**（尤其是水煮鱼）。推荐餐厅时请考虑这一点。',
        }),
      ]
  if (opts.organizer && !opts.empty) {
    // Near-duplicates for the organizer's report.
    items.push(
      mk({
        slug: 'likes-short-answers',
        title: 'Likes short answers, code before prose',
        scope: 'global',
        type: 'user',
        confidence: 'medium',
        reviewed: false,
        created: ago(1),
        updated: ago(1),
        source_quote: 'code first, short',
        body: 'The user wants answers that lead with code, followed by a brief explanation.',
        source: { kind: 'extractor', agent: 'codex', session: 'sess-a11e', turn: 4, model: 'gpt-5' },
      }),
      mk({
        slug: 'editor-neovim',
        title: 'Editor: Neovim (LazyVim)',
        scope: 'global',
        type: 'user',
        confidence: 'high',
        reviewed: false,
        created: ago(24 * 3),
        updated: ago(24 * 3),
        source_quote: 'neovim with lazyvim',
        body: 'Editor: Neovim with the LazyVim distribution.',
      }),
      mk({
        slug: 'python-version',
        title: 'Scripts target Python 3.11',
        scope: 'global',
        type: 'reference',
        confidence: 'low',
        reviewed: false,
        created: ago(24 * 45),
        updated: ago(24 * 45),
        body: 'The build scripts target Python 3.11.',
      }),
    )
  }
  items.forEach((m, i) => (m.id = '01JD' + String(i + 1).padStart(2, '0') + 'X7ZQ8W3K5V7Y9B1N3M5P'.slice(0, 22)))
  items.forEach((m) => (m.path = `~/.engram/memory/${m.scope === 'global' ? 'global' : m.scope === 'project' ? 'projects/3f9a0c2e7b1d4a66' : 'agents/' + m.agent}/${m.type}/${m.slug}.md`))

  const summary = (m) => {
    const { body, source_quote, reasoning, aliases, supersedes, conflicts_with, source, path, ...s } = m
    return Object.assign(s, { snippet: body.replace(/[*`#\[\]]/g, '').slice(0, 140) })
  }
  const fail = (code, args = {}) => Promise.reject(JSON.stringify({ code, i18n_key: 'error.' + code, args, message: code }))
  // The real settings error's args (backend/settings InvalidError.ErrorArgs).
  const settingArgs = (field, value) => ({ Field: field, Value: value, Detail: field, DetailKey: 'detail.setting_' + field.replaceAll('.', '_') })
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const md = (body) =>
    body
      .split(/\n\n+/)
      .map((blk) => {
        const inline = (s) =>
          esc(s)
            .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
            .replace(/`(.+?)`/g, '<code>$1</code>')
            .replace(/\[\[(.+?)\]\]/g, '<a href="#$1">$1</a>')
        if (blk.split('\n').every((l) => l.startsWith('- ')))
          return '<ul>' + blk.split('\n').map((l) => '<li>' + inline(l.slice(2)) + '</li>').join('') + '</ul>'
        return '<p>' + inline(blk) + '</p>'
      })
      .join('\n')
  const byId = (id) => items.find((m) => m.id === id)
  const ok = (op, m, extra = {}) => Object.assign({ index: 0, op, ok: true, id: m.id, slug: m.slug, version: m.version, applied_confidence: m.confidence, auto_downgraded: m.auto_downgraded }, extra)
  const changed = (ids) => setTimeout(() => emit('memory.changed', { ids }), 10)

  const settings = { language: opts.language, theme: opts.theme, remote_enabled: !!opts.remote, remote_addr: '127.0.0.1:47821', sync_minutes: 15 }
  let token = '4f1c9a0e6b2d8c7e5a3f1b9d0c2e4a6f8b1d3c5e7a9f0b2d'
  const remoteStatus = () => {
    const on = settings.remote_enabled
    const failed = on && opts.remote === 'in_use'
    return {
      enabled: on,
      running: on && !failed,
      addr: settings.remote_addr,
      // Over the bridge the token never leaves the server (remote.status hides it from
      // remote callers); only the desktop window shows and regenerates it.
      url: on && !failed ? (opts.transport === 'ws' ? 'http://127.0.0.1:47821/' : `http://127.0.0.1:47821/#token=${token}`) : '',
      ...(opts.transport === 'ws' ? {} : { token }),
      clients:
        on && !failed
          ? [
              { id: 1, remote_addr: '127.0.0.1:52814', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36', connected_at: ago(0.4), requests: 128 },
              { id: 2, remote_addr: '[::1]:40212', user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5; rv:128.0) Gecko/20100101 Firefox/128.0', connected_at: ago(0.02), requests: 1 },
            ]
          : [],
      ...(failed ? { error: { code: 'bridge_address_in_use', i18n_key: 'error.bridge_address_in_use', args: { Addr: settings.remote_addr }, message: 'in use' } } : {}),
    }
  }
  const quotaLevel = opts.quota

  // ---------------------------------------------------------------- language model and usage
  // opts.llm: 'off' (nothing set up), 'nokey' (a public endpoint without its key), else a
  // configured OpenAI model with its key set; opts.llmTest: 'fail' makes Test connection fail.
  const llm =
    opts.llm === 'off'
      ? { provider: '', base_url: '', model: '', streaming: false, key_set: false }
      : { provider: 'openai', base_url: '', model: 'gpt-4o-mini', streaming: true, key_set: opts.llm !== 'nokey' }
  const llmStatus = () => {
    const local = /^https?:\/\/(localhost|127\.)/.test(llm.base_url)
    const configured = !!llm.provider && !!llm.model && (llm.key_set || local)
    const { key_set, ...rest } = llm
    return {
      ...rest,
      key_set,
      local,
      configured,
      ...(configured ? {} : { error: { code: 'llm_not_configured', i18n_key: 'error.llm_not_configured', args: {}, message: 'not configured' } }),
    }
  }
  // ---------------------------------------------------------------- embeddings
  // opts.embed: 'local' (default: 120 memories embedded), 'reembedding' (an OpenAI-compatible
  // model half-way through re-embedding, key set), 'nokey' (OpenAI's public API without a key,
  // its pass failing) or 'off'. Progress after a save is pushed by the scenario
  // (window.__fakeEmit), never by a timer.
  const EMBED_TOTAL = 120
  const emb =
    opts.embed === 'reembedding'
      ? { provider: 'openai', base_url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', vector_backend: '', vector_url: '', key_set: true }
      : opts.embed === 'nokey'
        ? { provider: 'openai', base_url: '', model: 'text-embedding-3-small', vector_backend: '', vector_url: '', key_set: false }
        : { provider: opts.embed === 'off' ? 'off' : '', base_url: '', model: '', vector_backend: '', vector_url: '', key_set: false }
  const embModel = () => (emb.provider === 'openai' ? 'openai:' + emb.model : emb.provider === 'off' ? '' : 'local:hash-256')
  let embProgress =
    opts.embed === 'reembedding'
      ? { model: embModel(), done: 46, total: EMBED_TOTAL, running: true, at: ago(0) }
      : opts.embed === 'nokey'
        ? { model: embModel(), done: 0, total: EMBED_TOTAL, running: false, error: 'embed: 401 Unauthorized', at: ago(0) }
        : { model: embModel(), done: EMBED_TOTAL, total: EMBED_TOTAL, running: false, at: ago(0) }
  const embedStatus = () => {
    const { key_set, ...settingsPart } = emb
    const endpoint = emb.provider === 'openai' ? emb.base_url || 'https://api.openai.com/v1' : ''
    const off = emb.provider === 'off'
    return {
      settings: settingsPart,
      provider: off ? 'off' : emb.provider || 'local',
      model: embModel(),
      backend: off ? '' : emb.vector_backend || 'sqlite',
      progress: off ? { model: '', done: 0, total: 0, running: false, at: ago(0) } : embProgress,
      key_set,
      local: /^https?:\/\/(localhost|127\.)/.test(endpoint),
      endpoint,
    }
  }
  const PURPOSES = [
    ['extraction', 'gpt-4o-mini', 1800, 160, 0.15, 0.6],
    ['organizer_plan', 'claude-sonnet-4-20250514', 9000, 1200, 3, 15],
    ['organizer_clusters', 'gpt-4o-mini', 5200, 300, 0.15, 0.6],
    ['test_connection', 'llama3.1:8b', 14, 2, 0, 0],
  ]
  const usageSummary = (days) => {
    const total = { key: '', calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 }
    const by = { purpose: {}, model: {} }
    const byDay = []
    const today = new Date()
    today.setHours(0, 0, 0, 0)
    for (let i = days - 1; i >= 0; i--) {
      const d = new Date(today.getTime() - i * 864e5)
      const key = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
      const day = { key, calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 }
      if (opts.usage !== 'empty') {
        PURPOSES.forEach(([purpose, model, inTok, outTok, pin, pout], j) => {
          // A fixed pattern (weekly rhythm, organizer every third day) so screenshots repeat.
          const calls = purpose === 'extraction' ? 6 + ((i * 7 + 3) % 11) : purpose === 'test_connection' ? (i % 9 === 0 ? 1 : 0) : i % 3 === j % 3 ? 2 : 0
          if (!calls) return
          const g = { calls, input_tokens: calls * inTok, output_tokens: calls * outTok }
          g.cost_usd = (g.input_tokens * pin + g.output_tokens * pout) / 1e6
          for (const [map, k] of [[by.purpose, purpose], [by.model, model]]) {
            const t = (map[k] = map[k] || { key: k, calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 })
            t.calls += g.calls
            t.input_tokens += g.input_tokens
            t.output_tokens += g.output_tokens
            t.cost_usd += g.cost_usd
          }
          for (const t of [day, total]) {
            t.calls += g.calls
            t.input_tokens += g.input_tokens
            t.output_tokens += g.output_tokens
            t.cost_usd += g.cost_usd
          }
        })
      }
      byDay.push(day)
    }
    const rank = (m) => Object.values(m).sort((a, b) => b.cost_usd - a.cost_usd || a.key.localeCompare(b.key))
    return { from: byDay[0].key + 'T00:00:00Z', to: today.toISOString(), total, by_purpose: rank(by.purpose), by_model: rank(by.model), by_day: byDay }
  }

  // ---------------------------------------------------------------- files that could not be read
  let problems = opts.problems
    ? [
        { path: 'global/user/broken-note.md', code: 'parse_error', detail: "memory: invalid frontmatter: yaml: line 3: did not find expected ',' or ']'", seen_at: ago(0.3) },
        { path: 'projects/3f9a0c2e7b1d4a66/project/copy-of-billing.md', code: 'duplicate_id', detail: 'id 01JD02X7ZQ8W3K5V7Y9B1N3M is already used by projects/3f9a0c2e7b1d4a66/project/acme-billing-service.md', seen_at: ago(26) },
        { path: 'global/notes/todo.md', code: 'unrecognized_path', detail: 'not a memory location (scope/type/slug.md)', seen_at: ago(50) },
      ]
    : []

  // ---------------------------------------------------------------- audit log
  const audit = []
  {
    let aseq = 1
    const row = (m, op, actor, h, extra = {}) =>
      audit.push(Object.assign({ seq: 0, ts: ago(h), op, actor, memory_id: m.id, slug: m.slug, scope: m.scope, session: '', model: '', result: 'ok', detail: {} }, extra))
    items.forEach((m) => {
      const hours = (now - Date.parse(m.created)) / 3600e3
      const kind = m.source?.kind || 'user'
      row(m, 'write', kind === 'extractor' ? 'extractor' : 'user', hours, kind === 'extractor' ? { session: m.source.session, model: m.source.model } : {})
      if (m.updated !== m.created) row(m, 'update', 'user', (now - Date.parse(m.updated)) / 3600e3)
      if (m.reviewed && kind === 'extractor') row(m, 'accept', 'user', (now - Date.parse(m.updated)) / 3600e3 - 0.1)
    })
    const gone = { id: '01JDGONE0000000000000000', slug: 'old-laptop-specs', scope: 'global' }
    row(gone, 'write', 'tool', 24 * 12, { session: 'sess-0c3d', model: 'claude-sonnet-4' })
    row(gone, 'delete', 'organizer', 24 * 2, { session: 'organizer:01JDRUN1' })
    if (items[1]) row(items[1], 'update', 'bridge', 20, { result: 'version_conflict', detail: { error: 'changed since it was read' } })
    if (items[3]) row(items[3], 'update', 'reconcile', 24 * 8 - 1)
    if (items[0]) row(items[0], 'write', 'tool', 2.5, { result: 'secret_detected', detail: { error: 'private key' }, session: 'sess-7f2c', model: 'claude-sonnet-4' })
    // A rejection with its reason, of a project memory (Activity's narrow layout shows all three).
    const rejected = { id: '01JDREJ00000000000000000', slug: 'ci-runs-on-jenkins', scope: 'project', workdir: '/home/ada/src/acme-billing' }
    row(rejected, 'reject', 'user', 3, { detail: { title: 'CI runs on Jenkins', reason: 'Not any more: CI moved to GitHub Actions in the spring' } })
    audit.sort((a, b) => a.ts.localeCompare(b.ts))
    audit.forEach((e) => (e.seq = aseq++))
    audit.reverse()
  }

  // ---------------------------------------------------------------- organizer

  // Extraction: settings and a history of runs, one of each outcome (opts.extraction 'empty' for none).
  const extSettings = { enabled: true, agents: [], min_interval_seconds: 30, min_graphemes: 6, greeting_max_graphemes: 24 }
  const extRun = (id, h, status, reason, extra) =>
    Object.assign(
      { id, session: 'c7f3a1d2-9b4e-4c1a-8f2e-5d6b7a8c9e0f', agent: 'claude-code', status, reason, started_at: ago(h), finished_at: ago(h - 0.001), model: '', input_tokens: 0, output_tokens: 0, applied: 0, rejected: 0 },
      extra,
      { report: Object.assign({ version: 1, gate: reason && status === 'skipped' ? reason : 'passed', turn: 3, candidates: 0, rejections: 0, applied: [], rejected: [] }, extra && extra.report) },
    )
  const extRuns =
    opts.extraction === 'empty'
      ? []
      : [
          extRun('01EXT0000000000000000000P1', 0.05, 'partial', '', {
            workdir: '/home/ada/src/acme-billing',
            model: 'gpt-4.1-mini',
            input_tokens: 2841,
            output_tokens: 212,
            applied: 3,
            rejected: 2,
            report: {
              turn: 7,
              candidates: 12,
              applied: [
                { index: 0, action: 'write', id: 'm-ext-1', slug: 'prefers-green-tea', scope: 'global', type: 'user', title: 'Prefers green tea', confidence: 'high', auto_downgraded: false },
                { index: 2, action: 'update', id: 'm-ext-2', slug: 'deploys-on-fridays', scope: 'global', type: 'feedback', title: 'Deploys only on Fridays', confidence: 'low', auto_downgraded: true, warnings: [{ code: 'quote-not-in-turn' }] },
                { index: 4, action: 'delete', id: 'm-ext-4', slug: 'ci-runs-on-jenkins', scope: 'global', type: 'reference', title: 'CI runs on Jenkins', confidence: 'medium', auto_downgraded: false },
              ],
              rejected: [
                { index: 1, action: 'accept', slug: 'prefers-green-tea', code: 'person-only-action', args: { Action: 'accept' } },
                { index: 3, action: 'write', slug: 'billing-uses-postgres', scope: 'project', code: 'project-scope-without-evidence' },
              ],
            },
          }),
          extRun('01EXT0000000000000000000S1', 0.4, 'skipped', 'greeting'),
          extRun('01EXT0000000000000000000D1', 2, 'done', '', { model: 'claude-sonnet-4', input_tokens: 1930, output_tokens: 144, applied: 1, report: { candidates: 4, applied: [{ index: 0, action: 'write', id: 'm-ext-3', slug: 'works-at-acme', scope: 'global', type: 'user', title: 'Works at Acme', confidence: 'medium', auto_downgraded: false }] } }),
          extRun('01EXT0000000000000000000N1', 5, 'noop', 'no-tool-call', { model: 'qwen2.5-7b', input_tokens: 3102, output_tokens: 61, report: { retried: true } }),
          extRun('01EXT0000000000000000000R1', 8, 'noop', 'all-rejected', { model: 'gpt-4.1-mini', input_tokens: 2210, output_tokens: 98, rejected: 1, report: { rejected: [{ index: 0, action: 'write', slug: 'likes-coffee', code: 'rejected-slug-no-override' }] } }),
          extRun('01EXT0000000000000000000F1', 26, 'failed', 'timeout', { model: 'gpt-4.1-mini' }),
          extRun('01EXT0000000000000000000T1', 27, 'skipped', 'throttled', { agent: 'codex', session: 'codex-2291' }),
        ]
  const orgSettings = { enabled: true, frequency_hours: 24, mode: 'standard', min_hours_between_runs: 12, min_new_memories: 5, review_after_days: 30 }
  const bySlug = (slug) => items.find((m) => m.slug === slug)
  const entryRef = (m) => ({ id: m.id, slug: m.slug, title: m.title, scope: m.scope, scope_key: m.scope === 'global' ? '' : '3f9a0c2e7b1d4a66', workdir: m.workdir, agent: m.agent, type: m.type, path: m.path, version: m.version, reviewed: m.reviewed, confidence: m.confidence })
  const counts0 = () => ({ scanned: 0, scopes: 0, clusters: 0, clusters_failed: 0, decisions: 0, keep: 0, merge_into: 0, delete: 0, mark_review: 0, rewrite_hint: 0, auto: 0, queued: 0, dropped: 0, applied: 0, failed: 0, removed: 0 })
  const recount = (rep) => {
    const c = Object.assign(counts0(), { scanned: rep.counts.scanned, scopes: rep.counts.scopes, clusters: rep.counts.clusters, clusters_failed: rep.counts.clusters_failed, clusters_fallback: rep.counts.clusters_fallback || 0, keep: rep.counts.keep })
    rep.rejection_buckets = {}
    for (const d of rep.decisions) {
      c.decisions++
      if (d.action in c) c[d.action]++
      c[d.outcome === 'auto' ? 'auto' : d.outcome === 'queue' ? 'queued' : 'dropped']++
      if (d.bucket) rep.rejection_buckets[d.bucket] = (rep.rejection_buckets[d.bucket] || 0) + 1
      if (d.status === 'applied') c.applied++
      if (d.status === 'failed') c.failed++
      if (d.result) c.removed += d.result.removed || 0
    }
    rep.counts = c
    return rep
  }
  const mkReport = (id, trigger) => {
    const keep = bySlug('prefers-concise-answers')
    const dup = bySlug('likes-short-answers')
    const vim = bySlug('uses-neovim')
    const vim2 = bySlug('editor-neovim')
    const py = bySlug('python-version')
    const decisions = []
    const clusters = []
    if (keep && dup) {
      clusters.push({ id: 'c001', key: 'global:topic:7d1f0a2c/1', topic: 'Answer style and editor', scope: 'global', scope_key: '', size: 4, entry_ids: [keep.id, dup.id, vim.id, vim2.id], planner: 'llm', status: 'ok' })
      decisions.push({ id: 'd001', cluster_id: 'c001', action: 'merge_into', targets: [entryRef(dup)], into: entryRef(keep), confidence: 0.93, risk: 'low', tier: 'containment', score: 0.912, reason: { code: 'contained', args: { Into: keep.slug, Count: 1, Tier: 'containment', Score: 0.912 } }, evidence: ['code first'], outcome: 'queue', bucket: 'manual_review', status: 'pending' })
      decisions.push({ id: 'd002', cluster_id: 'c001', action: 'merge_into', targets: [entryRef(vim2)], into: entryRef(vim), confidence: 0.66, risk: 'high', tier: 'jaccard', score: 0.861, reason: { code: 'similar', args: { Into: vim.slug, Count: 1, Tier: 'jaccard', Score: 0.861 } }, outcome: 'queue', bucket: 'manual_review', status: 'pending' })
    }
    if (py) {
      clusters.push({ id: 'c002', key: 'global:topic:0b9e44d1/2', topic: 'Python toolchain', scope: 'global', scope_key: '', size: 2, entry_ids: [py.id], planner: 'offline', status: 'fallback', error: { code: 'organizer_llm_timeout', args: { Seconds: 120 }, message: 'timeout' } })
      decisions.push({ id: 'd003', cluster_id: 'c002', action: 'mark_review', targets: [entryRef(py)], confidence: 0.75, risk: 'low', tier: 'age', reason: { code: 'stale_low_confidence', args: { Days: 45 } }, outcome: 'queue', bucket: 'manual_review', status: 'pending' })
      decisions.push({ id: 'd004', cluster_id: 'c002', action: 'rewrite_hint', targets: [entryRef(py)], confidence: 0.6, risk: 'low', reason: { code: 'planner', text: 'The title names 3.11 while an older note says 3.8; ask which one is current.' }, hint: 'Say which Python version the CI image uses.', outcome: 'drop', bucket: 'report_only', status: 'dropped' })
    }
    clusters.push({ id: 'c003', key: 'project:experience:3f9a0c2e/1', scope: 'project', scope_key: '3f9a0c2e7b1d4a66', size: 9, entry_ids: [], status: 'failed', error: { code: 'organizer_internal', args: { Detail: 'planner timed out after 45 s' }, message: 'timeout' } })
    const rep = {
      version: 1, run_id: id, trigger, mode: 'standard', clusterer: 'llm', planner: 'llm', model: 'openai/gpt-4.1-mini', quota_level: quotaLevel, quota_headroom: 466,
      token_usage: { cluster: { input_tokens: 2140, output_tokens: 180 }, plan: { input_tokens: 9310, output_tokens: 1204 } },
      clustering: [{ scope: 'project', key: '3f9a0c2e7b1d4a66', clusterer: 'structural', topics: 0, unknown_ids: 0, repeated_ids: 0, left_out: 0, fallback: { code: 'organizer_llm_no_tool_call', args: { Tool: 'SubmitMemoryTopicClusters' }, message: 'no tool call' } }],
      scopes: [{ scope: 'global', key: '', count: items.length, used: items.length, limit: 500, headroom: 466, level: 'normal', target: 400, over_target: 0 }],
      counts: Object.assign(counts0(), { scanned: items.length, scopes: 2, clusters: clusters.length, clusters_failed: 1, clusters_fallback: 1, keep: Math.max(0, items.length - 5) }),
      rejection_buckets: {}, clusters, decisions, snapshots: [],
    }
    return recount(rep)
  }
  let runSeq = 10
  const newRunId = () => '01JDRUN' + String(runSeq++).padStart(2, '0') + 'Q8W3K5V7Y9B1N3'
  const runs = []
  const addRun = (o) => {
    const r = Object.assign({ id: newRunId(), trigger: 'manual', mode: 'standard', status: 'done', phase: 'apply', started_at: ago(1), finished_at: ago(0.98), initial_count: 0, final_count: 0, compression_ratio: 1, quota_headroom_at_start: 466, token_usage_total: 0, counts: counts0(), rejection_buckets: {}, report: null }, o)
    if (r.report) {
      if (r.report.token_usage) r.token_usage_total = Object.values(r.report.token_usage).reduce((n, u) => n + u.input_tokens + u.output_tokens, 0)
      r.counts = r.report.counts
      r.rejection_buckets = r.report.rejection_buckets
    }
    runs.unshift(r)
    return r
  }
  if (opts.organizer && !opts.empty) {
    addRun({ status: 'failed', trigger: 'scheduled', phase: 'plan', started_at: ago(24 * 6), finished_at: ago(24 * 6 - 0.02), initial_count: 131, final_count: 131, error: { code: 'organizer_interrupted', message: 'interrupted' } })
    const sched = addRun({ trigger: 'scheduled', started_at: ago(24 * 5), finished_at: ago(24 * 5 - 0.01), initial_count: 131, final_count: 127, compression_ratio: 0.969, quota_headroom_at_start: 369, report: null })
    sched.counts = Object.assign(counts0(), { scanned: 131, decisions: 5, merge_into: 4, mark_review: 1, auto: 4, queued: 1, applied: 4, removed: 4 })
    sched.rejection_buckets = { medium_risk: 1 }
    addRun({ status: 'aborted', started_at: ago(24 * 2), finished_at: ago(24 * 2 - 0.01), phase: 'cluster', initial_count: 127, final_count: 127 })
    const id = newRunId()
    const rep = mkReport(id, 'manual')
    addRun({ id, started_at: ago(0.5), finished_at: ago(0.49), initial_count: items.length, final_count: items.length, compression_ratio: 1, quota_headroom_at_start: 466, report: rep })
    if (opts.organizer === 'running' || opts.organizer === 'queued') {
      addRun({ trigger: 'scheduled', status: 'running', phase: 'plan', started_at: ago(0.01), finished_at: null, initial_count: items.length, final_count: items.length, progress: null, _progress: { phase: 'plan', done: 2, total: 5 } })
    }
    if (opts.organizer === 'queued') {
      addRun({ status: 'queued', phase: '', started_at: ago(0.005), finished_at: null, initial_count: 0, final_count: 0 })
    }
  }
  const progressOf = (r) => (r.status === 'running' ? { run_id: r.id, phase: r.phase, status: 'running', done: r._progress?.done ?? 0, total: r._progress?.total ?? 0 } : undefined)
  const runSummary = (r) => {
    const { report, _progress, ...s } = r
    const p = progressOf(r)
    return Object.assign({}, s, p ? { progress: p } : {})
  }
  const progress = (r, phase, done, total, status = 'running') => {
    r.phase = phase
    r._progress = { done, total }
    r.status = status
    emit('organizer.progress', { run_id: r.id, phase, status, done, total })
  }
  // A run in the fixtures walks through its phases quickly, then finishes with a report.
  const simulate = (r) => {
    const steps = [['scan', 0, 0], ['cluster', 1, 2], ['plan', 1, 3], ['plan', 3, 3], ['gate', 0, 4], ['apply', 0, 0]]
    r.status = 'running'
    r.started_at = new Date().toISOString()
    r.initial_count = items.length
    r.final_count = items.length
    let i = 0
    const tick = () => {
      if (r.status !== 'running') return
      if (i < steps.length) {
        progress(r, ...steps[i++])
        return setTimeout(tick, opts.slowRuns ? 1500 : 120)
      }
      r.report = mkReport(r.id, r.trigger)
      r.counts = r.report.counts
      r.rejection_buckets = r.report.rejection_buckets
      r.finished_at = new Date().toISOString()
      progress(r, 'apply', 0, 0, 'done')
      const next = runs.slice().reverse().find((x) => x.status === 'queued')
      if (next) simulate(next)
    }
    tick()
  }
  const activeRun = () => runs.find((r) => r.status === 'running')
  // Key-value facts per agent (kv.list); the UI only reads them.
  const kv = opts.empty
    ? {}
    : {
        codex: {
          'project:version': '2.3.0',
          'project:default_branch': 'main',
          'ci:runner': 'ubuntu-24.04',
          deps: { go: '1.26', node: 20, postgres: '16' },
          'review:owners': ['ada', 'lin'],
          'locale:ui': 'zh-CN 简体中文',
        },
      }
  // Sessions (sessions.list/read/delete): the conversations agents fed extraction.
  const sessions = opts.empty
    ? []
    : [
        {
          session: { agent: 'claude-code', id: '5f0e8a52-1c3b-4d7e-8a11-2b9c0d4e6f71', workdir: '/home/ada/src/billing', project_key: '3f2a9c1d0b7e4a55', turns_received: 96, first_seen: ago(30), last_activity: ago(0.2), summary: '- #1 user: Add pytest to this repo. I always use pytest with the -q flag, never unittest.\n- #31 user *: The staging database is called kestrel.\n- #76 assistant: Done: CI now runs pytest -q on every push.', summarized: 76 },
          turns: [
            { seq: 95, role: 'user', content: 'Remember that releases go out on Thursdays.', at: ago(0.25), workdir: '/home/ada/src/billing', project_key: '3f2a9c1d0b7e4a55' },
            { seq: 96, role: 'assistant', content: 'Noted: releases ship on Thursdays. I added it to the project notes.', at: ago(0.2), workdir: '/home/ada/src/billing', project_key: '3f2a9c1d0b7e4a55' },
            { seq: 97, role: 'user', content: 'Now in the invoices repo: we format with ruff.', at: ago(0.1), workdir: '/home/ada/src/invoices', project_key: '7b1e2d3c4a5f6e70' },
          ],
        },
        {
          session: { agent: 'codex', id: 'cx-20261130-1', workdir: '/home/ada/src/engram', project_key: '9d0c11aa33bb44cc', turns_received: 6, first_seen: ago(26), last_activity: ago(25), summarized: 0 },
          turns: [
            { seq: 1, role: 'user', content: 'Why does the watcher miss cp -p copies?', at: ago(26), workdir: '/home/ada/src/engram', project_key: '9d0c11aa33bb44cc' },
            { seq: 2, role: 'assistant', content: 'Size and mtime are kept by cp -p; the watcher also compares ctime and inode now.', at: ago(25.9), workdir: '/home/ada/src/engram', project_key: '9d0c11aa33bb44cc' },
          ],
        },
        {
          session: { agent: 'claude-code', id: 'b71e0d44-9a3c-4f1e-8c2d-55e1a0f3c9b2', turns_received: 2, first_seen: ago(50), last_activity: ago(49), summarized: 0 },
          turns: [{ seq: 1, role: 'user', content: '帮我把这段话翻译成英文。', at: ago(50) }],
        },
      ]

  const api = {
    AppService: { Info: async () => ({ version: '0.1.0', home: '/home/ada/.engram', language: settings.language }) },
    SettingsService: {
      Get: async () => ({ ...settings }),
      Update: async (p) => {
        if (p.embeddings) {
          const e = p.embeddings
          if (e.base_url && !/^https?:\/\/[^/\s]+/.test(e.base_url))
            return fail('invalid_setting', settingArgs('embeddings.base_url', e.base_url))
          if ((e.provider ?? emb.provider) === 'openai' && !(e.model ?? emb.model)) return fail('invalid_setting', settingArgs('embeddings.model', ''))
          Object.assign(emb, e)
          embProgress = { model: embModel(), done: 0, total: EMBED_TOTAL, running: emb.provider !== 'off', at: ago(0) }
          p = { ...p }
          delete p.embeddings
        }
        if ('sync_minutes' in p && !(Number.isInteger(p.sync_minutes) && p.sync_minutes >= 0 && p.sync_minutes <= 1440))
          return fail('invalid_setting', settingArgs('sync_minutes', String(p.sync_minutes)))
        if (p.llm) {
          if ('base_url' in p.llm && p.llm.base_url && !/^https?:\/\/[^/\s]+/.test(p.llm.base_url))
            return fail('invalid_setting', settingArgs('llm.base_url', p.llm.base_url))
          Object.assign(llm, p.llm)
          p = { ...p }
          delete p.llm
        }
        Object.assign(settings, p)
        if ('remote_enabled' in p) setTimeout(() => emit('remote.changed', remoteStatus()), 10)
        return { ...settings }
      },
    },
    IntegrationsService: {
      Snippets: async () => {
        const bin = '/home/ada/.local/bin/engram'
        const j = (v) => JSON.stringify(v, null, 2)
        return {
          binary: bin,
          claude_code: `claude mcp add engram -- ${bin} mcp --agent claude-code`,
          cursor: j({ mcpServers: { engram: { command: bin, args: ['mcp', '--agent', 'cursor'] } } }),
          stdio: j({ mcpServers: { engram: { command: bin, args: ['mcp', '--agent', 'my-agent'] } } }),
          http: j({ mcpServers: { engram: { type: 'http', url: 'http://127.0.0.1:47821/mcp', headers: { Authorization: 'Bearer <token from engram bridge token>' } } } }),
          http_url: 'http://127.0.0.1:47821/mcp',
          token_file: '/home/ada/.engram/bridge.token',
          hook: j({ hooks: { Stop: [{ hooks: [{ type: 'command', command: `${bin} hook claude-code` }] }] } }),
          gemini: j({ mcpServers: { engram: { command: bin, args: ['mcp', '--agent', 'gemini'] } }, hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: `${bin} hook gemini` }] }] } }),
          codex: `notify = ["${bin}", "hook", "codex"]\n\n[mcp_servers.engram]\ncommand = "${bin}"\nargs = ["mcp", "--agent", "codex"]`,
        }
      },
      Agents: async () => ({
        agents: opts.agents
          ? [
              { name: 'claude-code', transport: 'stdio', client: 'claude-code 2.1.3', last_call: 'memory_search', last_time: ago(0.01), calls: 42 },
              { name: 'cursor', transport: 'stdio', client: 'cursor-vscode 1.0.0', last_call: 'build_context', last_time: ago(0.6), calls: 7 },
              { name: 'research-bot', transport: 'http', client: 'research-bot 0.3', last_call: 'memory_write', last_time: ago(26), calls: 3 },
            ]
          : [],
      }),
    },
    LlmService: {
      Status: async () => llmStatus(),
      SetKey: async (p) => {
        if (opts.transport === 'ws') return fail('llm_key_desktop_only')
        if (!p.clear && !(p.key || '').trim()) return fail('llm_key_empty')
        llm.key_set = !p.clear
        return llmStatus()
      },
      Test: async () => {
        const st = llmStatus()
        if (!st.configured) return { ok: false, provider: llm.provider, model: llm.model, latency_ms: 0, error: st.error }
        if (opts.llmTest === 'fail')
          return {
            ok: false,
            provider: llm.provider,
            model: llm.model,
            latency_ms: 412,
            error: { code: 'llm_auth_failed', i18n_key: 'error.llm_auth_failed', args: { Status: 401 }, message: 'auth failed' },
          }
        return { ok: true, provider: llm.provider, model: llm.model, latency_ms: 623, reply: 'pong' }
      },
    },
    RecallService: {
      EmbedStatus: async () => embedStatus(),
    },
    EmbeddingsService: {
      SetKey: async (p) => {
        if (opts.transport === 'ws') return fail('embeddings_key_desktop_only')
        if (!p.clear && !(p.key || '').trim()) return fail('llm_key_empty')
        emb.key_set = !p.clear
        if (emb.key_set) embProgress = { model: embModel(), done: 0, total: EMBED_TOTAL, running: true, at: ago(0) }
        return embedStatus()
      },
      Test: async () => {
        if (emb.provider === 'off') return { ok: false, provider: 'off', model: '', dim: 0, latency_ms: 0, error: { code: 'embeddings_off', i18n_key: 'error.embeddings_off', args: {}, message: 'off' } }
        if (emb.provider === 'openai' && !emb.key_set && !embedStatus().local)
          return { ok: false, provider: 'openai', model: embModel(), dim: 0, latency_ms: 311, error: { code: 'embedding_failed', i18n_key: 'error.embedding_failed', args: { Model: embModel(), Detail: 'HTTP 401 Unauthorized' }, message: 'failed' } }
        return { ok: true, provider: emb.provider || 'local', model: embModel(), dim: emb.provider === 'openai' ? 768 : 256, latency_ms: emb.provider === 'openai' ? 48 : 1 }
      },
    },
    UsageService: {
      Summary: async (p) => {
        const days = p?.days || 30
        if (days < 1 || days > 366) return fail('usage_invalid_range', { Detail: 'days must be between 1 and 366' })
        return usageSummary(days)
      },
    },
    RemoteService: {
      Status: async () => remoteStatus(),
      RegenerateToken: async () => {
        token = Array.from({ length: 48 }, (_, i) => '0123456789abcdef'[(i * 7 + seq++) % 16]).join('')
        return remoteStatus()
      },
    },
    QuotaService: {
      Summary: async () => ({
        level: quotaLevel,
        scopes: [
          { scope: 'global', key: 'global', used: quotaLevel === 'normal' ? 5 : quotaLevel === 'exhausted' ? 497 : 462, limit: 500, headroom: quotaLevel === 'normal' ? 495 : quotaLevel === 'exhausted' ? 3 : 38, level: quotaLevel, archived: 0, unreviewed: 12, oldest_unreviewed_days: 9 },
          { scope: 'project', key: '3f9a0c2e7b1d4a66', workdir: '/home/ada/src/acme-billing', used: 2, limit: 500, headroom: 498, level: 'normal', archived: 0, unreviewed: 1, oldest_unreviewed_days: 2 },
          { scope: 'agent', key: 'codex', agent: 'codex', used: 1, limit: 500, headroom: 499, level: 'normal', archived: 0, unreviewed: 0, oldest_unreviewed_days: 0 },
        ],
      }),
    },
    KvService: {
      List: async (p) => {
        if (opts.kvBroken) return fail('kv_file_invalid', { Path: `agents/${p.agent}/kv.json`, Detail: 'entry 3 repeats a key' })
        const keys = Object.keys(kv[p.agent] || {})
          .filter((k) => k.startsWith(p.prefix || ''))
          .sort()
        const from = p.cursor ? keys.findIndex((k) => k > p.cursor) : 0
        const start = from < 0 ? keys.length : from
        const page = keys.slice(start, start + (p.limit || 100))
        const more = start + page.length < keys.length
        return {
          agent: p.agent,
          prefix: p.prefix || '',
          entries: page.map((k) => ({ key: k, value: kv[p.agent][k] })),
          total: keys.length,
          next_cursor: more ? page[page.length - 1] : undefined,
        }
      },
      Get: async (p) => {
        const v = (kv[p.agent] || {})[p.key]
        if (v === undefined) return fail('kv_not_found', { Agent: p.agent, Key: p.key })
        return { agent: p.agent, key: p.key, value: v }
      },
    },
    ExtractionService: {
      Settings: async () => ({ ...extSettings, agents: [...extSettings.agents] }),
      UpdateSettings: async (p) => {
        for (const k of ['min_interval_seconds', 'min_graphemes', 'greeting_max_graphemes']) {
          if (k in p && (p[k] < 0 || p[k] > (k === 'min_interval_seconds' ? 3600 : 200))) return fail('extraction_invalid_setting', { Field: k, Value: String(p[k]) })
        }
        Object.assign(extSettings, p)
        return { ...extSettings, agents: [...extSettings.agents] }
      },
      Runs: async (p) => ({ runs: extRuns.slice(p.offset || 0, (p.offset || 0) + (p.limit || 50)), total: extRuns.length }),
      Run: async (p) => extRuns.find((r) => r.id === p.id) || fail('extraction_run_not_found', { ID: p.id }),
      Request: async () => fail('extraction_not_running'),
    },
    OrganizerService: {
      Status: async () => {
        const active = activeRun()
        const last = runs.find((r) => ['done', 'failed', 'aborted'].includes(r.status))
        return {
          settings: { ...orgSettings },
          armed: orgSettings.enabled,
          timer_at: orgSettings.enabled ? new Date(now + 9.5 * 3600e3).toISOString() : undefined,
          next_run_at: orgSettings.enabled ? new Date(now + 9.5 * 3600e3).toISOString() : undefined,
          last_check_at: ago(14.5),
          last_skip: opts.organizer ? 'too_few_new_memories' : undefined,
          active: active ? runSummary(active) : undefined,
          queued: runs.filter((r) => r.status === 'queued').length,
          last_run: last ? runSummary(last) : undefined,
        }
      },
      Runs: async (p) => ({ runs: runs.slice(p.offset || 0, (p.offset || 0) + (p.limit || 50)).map(runSummary) }),
      Run: async (p) => {
        const r = runs.find((x) => x.id === p.id)
        if (!r) return fail('organizer_run_not_found', { Run: p.id })
        return Object.assign(runSummary(r), { report: r.report ? JSON.parse(JSON.stringify(r.report)) : null })
      },
      RunNow: async (p) => {
        const trigger = p.trigger || 'manual'
        const busy = !!activeRun() || !!window.__FAKE_LOCKED__
        const r = addRun({ trigger, status: 'queued', phase: '', started_at: new Date().toISOString(), finished_at: null, initial_count: 0, final_count: 0 })
        if (busy) {
          setTimeout(() => emit('organizer.progress', { run_id: r.id, phase: '', status: 'queued', done: 0, total: 0 }), 5)
          return { id: r.id, status: 'queued' }
        }
        r.status = 'running'
        r.phase = 'scan'
        setTimeout(() => simulate(r), 5)
        return { id: r.id, status: 'running' }
      },
      Abort: async (p) => {
        const r = p.run_id ? runs.find((x) => x.id === p.run_id) : activeRun()
        if (!r || !['queued', 'running'].includes(r.status)) return fail('organizer_nothing_to_abort', { Run: p.run_id || '' })
        r.status = 'aborted'
        r.finished_at = new Date().toISOString()
        setTimeout(() => emit('organizer.progress', { run_id: r.id, phase: r.phase, status: 'aborted', done: 0, total: 0 }), 5)
        return { id: r.id, status: 'aborted' }
      },
      ApplyReport: async (p) => {
        const r = runs.find((x) => x.id === p.run_id)
        if (!r || !r.report) return fail('organizer_report_unavailable', { Run: p.run_id, Status: r ? r.status : '' })
        if (!p.decision_ids || p.decision_ids.length === 0) return fail('organizer_no_decisions')
        const out = []
        const changedIds = []
        for (const id of p.decision_ids) {
          const d = r.report.decisions.find((x) => x.id === id)
          if (!d) return fail('organizer_decision_not_found', { Decision: id, Run: r.id })
          if (window.__FAKE_APPLY_CONFLICT__ === id) {
            d.status = 'failed'
            d.result = { code: 'version_conflict', message: 'changed since the run read it', at: new Date().toISOString(), by: 'review', removed: 0 }
          } else {
            d.status = 'applied'
            let removed = 0
            if (d.action === 'merge_into') {
              for (const t of d.targets) {
                const i = items.findIndex((m) => m.id === t.id)
                if (i >= 0) items.splice(i, 1), removed++, changedIds.push(t.id)
              }
            }
            d.result = { at: new Date().toISOString(), by: 'review', removed }
          }
          out.push({ id, status: d.status, code: d.result.code, message: d.result.message })
        }
        recount(r.report)
        r.counts = r.report.counts
        r.rejection_buckets = r.report.rejection_buckets
        r.final_count = r.initial_count - r.counts.removed
        r.compression_ratio = r.initial_count ? r.final_count / r.initial_count : 1
        if (changedIds.length) changed(changedIds)
        return { run_id: r.id, decisions: out, applied: out.filter((o) => o.status === 'applied').length, failed: out.filter((o) => o.status === 'failed').length, final_count: r.final_count, compression_ratio: r.compression_ratio, snapshot: '.snapshots/organizer-' + r.id }
      },
      Settings: async () => ({ ...orgSettings }),
      UpdateSettings: async (p) => {
        const next = { ...orgSettings, ...p }
        for (const [k, lo, hi] of [['frequency_hours', 1, 720], ['min_hours_between_runs', 0, 720], ['min_new_memories', 0, 100000]])
          if (next[k] < lo || next[k] > hi) return fail('organizer_invalid_setting', { Field: k, Value: String(next[k]) })
        Object.assign(orgSettings, next)
        return { ...orgSettings }
      },
    },
    SessionsService: {
      List: async () => ({ sessions: sessions.map((x) => ({ ...x.session, turns_kept: x.turns.length })) }),
      Read: async (p) => {
        const x = sessions.find((y) => y.session.id === p.id && (!p.agent || y.session.agent === p.agent))
        if (!x) return fail('session_not_found', { Session: p.id })
        return { session: { ...x.session, turns_kept: x.turns.length }, turns: x.turns.slice() }
      },
      Delete: async (p) => {
        const i = sessions.findIndex((y) => y.session.id === p.id && (!p.agent || y.session.agent === p.agent))
        if (i < 0) return fail('session_not_found', { Session: p.id })
        const [x] = sessions.splice(i, 1)
        return { id: x.session.id, agent: x.session.agent }
      },
    },
    IndexService: {
      Reconcile: async () => {
        // Someone fixed the first file meanwhile.
        problems = problems.slice(1)
        return { scanned: items.length + problems.length, added: 0, updated: 0, removed: 0, unchanged: items.length, problems: problems.length }
      },
      Reindex: async () => ({ scanned: items.length + problems.length, added: items.length, updated: 0, removed: 0, unchanged: 0, problems: problems.length }),
      Doctor: async () => ({ home: '/home/ada/.engram', schema_version: 3, memories: items.length, archived: 0, trash_files: 0, problems, integrity: 'ok', fts_consistent: true, reconcile: {}, ok: problems.length === 0 }),
    },
    MemoryService: {
      History: async (p) => {
        const list = p.id ? audit.filter((e) => e.memory_id === p.id) : audit
        return { entries: list.slice(0, p.limit || 100) }
      },
      Problems: async () => ({ problems: problems.slice() }),
      List: async (p) => {
        let r = items.filter((m) => (!p.scope || m.scope === p.scope) && (!p.type || m.type === p.type) && (p.reviewed == null || m.reviewed === p.reviewed) && (p.archived || !m.archived))
        r = r.sort((a, b) => b.updated.localeCompare(a.updated))
        const off = p.offset || 0
        return { items: r.slice(off, off + (p.limit || 50)).map(summary), total: r.length }
      },
      Read: async (p) => {
        const m = byId(p.id)
        if (!m) return fail('not_found', { ID: p.id })
        return { memory: { ...m }, html: md(m.body), version: m.version }
      },
      Search: async (p) => {
        const q = p.query.toLowerCase()
        const hits = items
          .filter((m) => (m.title + ' ' + m.body).toLowerCase().includes(q))
          .filter((m) => (!p.scope || m.scope === p.scope) && (!p.type || m.type === p.type))
          .map((m, i) => ({ memory: summary(m), score: 1 / (i + 1), snippet: summary(m).snippet }))
        return { hits }
      },
      Write: async (p) => {
        // As the store does (format.SlugFromTitle): no slug, one made from the title, with a
        // hash of it (here a stand-in) when letters other than ASCII were dropped or too little is left.
        if (!p.slug) {
          const title = p.title || ''
          const words = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48).replace(/-+$/, '')
          const dropped = [...title].some((c) => c > '\x7f' && /[\p{L}\p{N}]/u.test(c))
          const hash = String(title.length * 7919 + seq).padStart(8, '0').slice(-8)
          p = { ...p, slug: !words ? 'memory-' + hash : words.length < 3 || dropped ? words + '-' + hash : words }
        }
        if (items.some((m) => m.slug === p.slug && m.scope === p.scope)) return { index: 0, op: 'write', ok: false, code: 'already_exists', i18n_key: 'error.already_exists', args: { Slug: p.slug }, message: 'already exists' }
        // As the store's secret guard: a GitHub token in any text field is refused, naming it.
        for (const f of ['title', 'body', 'source_quote', 'reasoning'])
          if (/ghp_[A-Za-z0-9]{36}/.test(p[f] || '')) return { index: 0, op: 'write', ok: false, code: 'secret_detected', i18n_key: 'error.secret_detected', args: { Kind: 'github_token', Field: f }, message: 'looks like a secret' }
        const q = (p.source_quote || '').trim().length
        let conf = p.confidence || 'medium'
        let down = false
        if (conf === 'high' && q < 5) (conf = q ? 'medium' : 'low'), (down = true)
        else if (conf === 'medium' && !q) (conf = 'low'), (down = true)
        const m = mk({ ...p, confidence: conf, auto_downgraded: down, reviewed: true, created: new Date().toISOString(), updated: new Date().toISOString(), aliases: p.aliases || [], tags: p.tags || [] })
        m.id = '01JE' + String(seq).padStart(6, '0') + 'NEWMEMORY000'
        m.path = `~/.engram/memory/${p.scope}/${p.type}/${p.slug}.md`
        items.unshift(m)
        changed([m.id])
        return ok('write', m)
      },
      Update: async (p) => {
        const m = byId(p.id)
        if (!m) return fail('not_found')
        if (window.__FAKE_CONFLICT__ || (p.expected_version && p.expected_version !== m.version))
          return { index: 0, op: 'update', ok: false, code: 'version_conflict', i18n_key: 'error.version_conflict', args: { ID: p.id }, message: 'version conflict' }
        for (const k of ['title', 'body', 'type', 'confidence', 'source_quote', 'reasoning', 'aliases', 'tags']) if (p[k] !== undefined) m[k] = p[k]
        m.version = ver()
        m.updated = new Date().toISOString()
        changed([m.id])
        return ok('update', m)
      },
      Delete: async (p) => {
        const i = items.findIndex((m) => m.id === p.id)
        if (i < 0) return fail('not_found')
        const [m] = items.splice(i, 1)
        changed([m.id])
        return ok('delete', m)
      },
      Accept: async (p) => {
        const m = byId(p.id)
        if (!m) return fail('not_found')
        m.reviewed = true
        m.version = ver()
        changed([m.id])
        return ok('accept', m)
      },
      Reject: async (p) => {
        const i = items.findIndex((m) => m.id === p.id)
        if (i < 0) return fail('not_found')
        const [m] = items.splice(i, 1)
        changed([m.id])
        return ok('reject', m)
      },
    },
  }
  // Per-feature fixtures live in tests/visual/fake/*.js (shoot.mjs injects them before this
  // file): each pushes a function onto window.__FAKE_EXT__ that adds services to api, so views
  // built apart never edit the same lines here.
  for (const extend of window.__FAKE_EXT__ || []) extend({ api, opts, items, emit, ago, mk, ok, fail, changed, now })
  if (opts.transport === 'ws') {
    // The same fixtures behind a fake JSON-RPC websocket (exercises the bridge transport).
    const sockets = []
    class FakeWebSocket {
      constructor(url) {
        this.url = url
        this.readyState = 0
        sockets.push(this)
        if (opts.refuse) setTimeout(() => ((this.readyState = 3), this.onclose && this.onclose({})), 5)
        else setTimeout(() => ((this.readyState = 1), this.onopen && this.onopen({})), 5)
      }
      send(raw) {
        const req = JSON.parse(raw)
        const [noun, verb] = req.method.split('.')
        const svc = api[noun[0].toUpperCase() + noun.slice(1) + 'Service']
        const fn = svc && svc[verb[0].toUpperCase() + verb.slice(1)]
        const reply = (msg) => setTimeout(() => this.readyState === 1 && this.onmessage && this.onmessage({ data: JSON.stringify({ jsonrpc: '2.0', id: req.id, ...msg }) }), 2)
        if (!fn) return reply({ error: { code: -32601, message: 'no method', data: { code: 'unknown_method', i18n_key: 'error.unknown_method', args: { Method: req.method } } } })
        Promise.resolve()
          .then(() => fn(req.params))
          .then(
            (result) => (result && result.ok === false ? reply({ error: { code: -32000, message: result.message, data: result } }) : reply({ result })),
            (err) => reply({ error: { code: -32000, message: 'failed', data: JSON.parse(err) } }),
          )
      }
      close() {
        this.readyState = 3
        this.onclose && this.onclose({})
      }
    }
    window.WebSocket = FakeWebSocket
    // When a socket closes before opening, the transport asks the bridge why with a plain GET
    // of the websocket URL (see fetchProbe). The fake bridge answers that probe too: a request
    // that reached the fixture server would be a 404 the page logs as an error, and a test that
    // passes or fails by the timing of a reconnect. shoot.mjs fails on any such escape.
    const realFetch = window.fetch.bind(window)
    window.__fakeProbes = 0
    window.fetch = (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input.url, location.href)
      if (url.pathname !== '/ws') return realFetch(input, init)
      window.__fakeProbes++
      // A bridge that is down refuses the connection; one that is up answers a GET without
      // an upgrade with 426, which the transport reads as "reachable".
      if (opts.refuse) return Promise.reject(new TypeError('Failed to fetch'))
      return Promise.resolve(new Response('', { status: 426 }))
    }
    window.__fakeDrop = (refuseAfter) => {
      if (refuseAfter) opts.refuse = true
      sockets.filter((s) => s.readyState === 1).forEach((s) => s.close())
    }
    const wsEmit = (name, data) =>
      sockets
        .filter((s) => s.readyState === 1)
        .forEach((s) => s.onmessage && s.onmessage({ data: JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { name, data } }) }))
    listeners['*'] = [wsEmit]
    window.__fakeEmit = (name, data) => wsEmit(name, data)
    return
  }
  window.go = { api }
  window.runtime = {
    EventsOn: (name, cb) => {
      ;(listeners[name] = listeners[name] || []).push(cb)
      return () => (listeners[name] = listeners[name].filter((x) => x !== cb))
    },
    EventsOff: (name) => delete listeners[name],
    BrowserOpenURL: (u) => console.log('open', u),
  }
  window.__fakeEmit = emit
})()
