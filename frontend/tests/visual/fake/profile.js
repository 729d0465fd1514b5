// Fixtures of profile.get: derived from the fixture memories the way the Go side does (the
// person-profile lines are given here; user memories become "about", experiences listed).
window.__FAKE_EXT__ = (window.__FAKE_EXT__ || []).concat(({ api, opts, items, ago }) => {
  const entry = (value, m, reviewed = false) => ({ value, memory_id: m ? m.id : 'P', slug: m ? m.slug : 'person-profile', reviewed, updated: ago(5) })
  api.ProfileService = {
    Get: async () => {
      const zh = opts.language === 'zh-CN'
      const users = items.filter((m) => m.scope === 'global' && m.type === 'user').slice(0, 24)
      const exps = items.filter((m) => m.scope === 'global' && m.type === 'experience').slice(0, 12)
      if (opts.empty || opts.profile === 'empty')
        return { role: [], industry: [], communication_style: [], recent_topics: [], pain_points: [], preferred_tools: [], about: [], experiences: [] }
      return {
        profile_id: 'P',
        role: [entry(zh ? '后端工程师' : 'Backend engineer', null, true)],
        industry: [entry(zh ? '金融科技' : 'Fintech')],
        communication_style: [entry(zh ? '先给代码，解释简短' : 'Code first, short explanations', null, true)],
        recent_topics: [entry('Postgres 16'), entry(zh ? '计费迁移' : 'billing migration')],
        pain_points: [entry(zh ? 'CI 不稳定' : 'flaky CI')],
        preferred_tools: [entry('Neovim', null, true), entry('pytest -q'), entry('ripgrep')],
        about: users.map((m) => entry(m.title, m, m.reviewed)),
        experiences: exps.map((m) => ({ memory_id: m.id, slug: m.slug, title: m.title, pain: zh ? '部署经常超时' : 'Deploys kept timing out', solution: zh ? '提高健康检查宽限期' : 'Raise the health-check grace period', outcome: zh ? '两分钟内完成' : 'Deploys finish in two minutes', reviewed: m.reviewed, updated: m.updated })),
      }
    },
  }
})
