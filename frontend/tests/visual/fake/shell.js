// Fixtures for the shell (keyboard, 360 px to 4K, [[links]] in the reader, a long list).
// opts.many: that many extra generated memories (the list windowing).
// opts.links: a memory whose body links to another memory and to an entity, rendered as the
// Go wikilink extension renders them (tests/visual cannot run Go).
window.__FAKE_EXT__ = (window.__FAKE_EXT__ || []).concat(({ api, opts, items, ago, mk }) => {
  if (opts.many) {
    for (let i = 0; i < opts.many; i++) {
      items.push(
        mk({
          slug: `generated-${i}`,
          title: `${opts.language === 'zh-CN' ? '生成的记忆' : 'Generated memory'} #${i + 1}`,
          scope: 'global',
          type: i % 3 === 0 ? 'project' : 'reference',
          confidence: 'medium',
          created: ago(30 + i),
          updated: ago(30 + i),
          body: `Row ${i + 1} of the long list: windowing keeps only the rows in view in the page.`,
        }),
      )
    }
  }
  if (opts.links) {
    const zh = opts.language === 'zh-CN'
    items.unshift(
      mk({
        slug: 'linked-notes',
        title: zh ? '带链接的笔记' : 'Notes with links',
        scope: 'global',
        type: 'reference',
        confidence: 'high',
        created: ago(0.5),
        updated: ago(0.5),
        body: zh
          ? '偏好见 [[prefers-concise-answers|简洁的回答]]；数据库由 [[阿里云]] 托管。代码里的 `[[不是链接]]` 保持原样。'
          : 'See [[prefers-concise-answers|the answer style]]; the database is hosted by [[Acme Cloud]]. In code, `[[not a link]]` stays as it is.',
      }),
    )
  }
  const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  const read = api.MemoryService.Read
  api.MemoryService.Read = async (p) => {
    const r = await read(p)
    if (!opts.links || !r || !r.memory || !r.memory.body.includes('[[')) return r
    // Re-render [[links]] the way backend/wikilink does (outside code only).
    const parts = r.memory.body.split(/(`[^`]*`)/)
    const inline = (s) =>
      esc(s)
        .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
        .replace(/\[\[([^\]|]+?)(?:\|([^\]]+?))?\]\]/g, (_, target, label) => {
          const tgt = target.trim()
          const text = (label || target).trim()
          const hit = items.find((m) => m.slug === tgt || m.title === tgt)
          return hit
            ? `<a class="wikilink wikilink-memory" href="#memory/${hit.id}" data-wikilink="${tgt}" data-memory-id="${hit.id}">${text}</a>`
            : `<a class="wikilink wikilink-entity" href="#entity/${encodeURIComponent(tgt)}" data-wikilink="${tgt}" data-entity="${tgt}">${text}</a>`
        })
    r.html = '<p>' + parts.map((x) => (x.startsWith('`') ? `<code>${esc(x.slice(1, -1))}</code>` : inline(x))).join('') + '</p>'
    return r
  }
})
