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
          title: 'Prefers concise answers with code first',
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
  items.forEach((m, i) => (m.id = '01JD' + String(i + 1).padStart(2, '0') + 'X7ZQ8W3K5V7Y9B1N3M5P'.slice(0, 22)))
  items.forEach((m) => (m.path = `~/.engram/memory/${m.scope === 'global' ? 'global' : m.scope === 'project' ? 'projects/3f9a0c2e7b1d4a66' : 'agents/' + m.agent}/${m.type}/${m.slug}.md`))

  const summary = (m) => {
    const { body, source_quote, reasoning, aliases, supersedes, conflicts_with, source, path, ...s } = m
    return Object.assign(s, { snippet: body.replace(/[*`#\[\]]/g, '').slice(0, 140) })
  }
  const fail = (code, args = {}) => Promise.reject(JSON.stringify({ code, i18n_key: 'error.' + code, args, message: code }))
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

  const settings = { language: opts.language, theme: opts.theme, remote_enabled: !!opts.remote, remote_addr: '127.0.0.1:47821' }
  let token = '4f1c9a0e6b2d8c7e5a3f1b9d0c2e4a6f8b1d3c5e7a9f0b2d'
  const remoteStatus = () => {
    const on = settings.remote_enabled
    const failed = on && opts.remote === 'in_use'
    return {
      enabled: on,
      running: on && !failed,
      addr: settings.remote_addr,
      url: on && !failed ? `http://127.0.0.1:47821/#token=${token}` : '',
      token,
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
  const api = {
    AppService: { Info: async () => ({ version: '0.1.0', home: '/home/ada/.engram', language: settings.language }) },
    SettingsService: {
      Get: async () => ({ ...settings }),
      Update: async (p) => {
        Object.assign(settings, p)
        if ('remote_enabled' in p) setTimeout(() => emit('remote.changed', remoteStatus()), 10)
        return { ...settings }
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
        ],
      }),
    },
    MemoryService: {
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
        if (items.some((m) => m.slug === p.slug && m.scope === p.scope)) return { index: 0, op: 'write', ok: false, code: 'duplicate_slug', i18n_key: 'error.duplicate_slug', args: { Slug: p.slug }, message: 'duplicate' }
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
