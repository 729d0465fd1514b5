import { describe, expect, it } from 'vitest'
import { VIEWS } from '@/stores/nav'
import fs from 'node:fs'
import path from 'node:path'
import { keysWithPrefix, makeTranslator, parseCatalog, pickForm, substitute } from '../../src/i18n/core'
import {
  AUDIT_ACTORS,
  AUDIT_OPS,
  CONFIDENCES,
  DECISION_ACTIONS,
  DECISION_STATUSES,
  MEMORY_TYPES,
  ORGANIZER_MODES,
  ORGANIZER_TRIGGERS,
  REASON_CODES,
  REJECTION_BUCKETS,
  RISKS,
  RUN_PHASES,
  RUN_STATUSES,
  SCOPES,
  SKIP_REASONS,
  TIERS,
} from '../../src/api/types'

const front = path.resolve(__dirname, '../..')
const localesDir = process.env.ENGRAM_LOCALES_DIR
  ? path.resolve(process.env.ENGRAM_LOCALES_DIR)
  : path.resolve(front, '../locales')
const read = (f: string) => fs.readFileSync(f, 'utf8')

describe('catalog parsing', () => {
  it('flattens nested tables into dotted keys', () => {
    const c = parseCatalog(`
[ui.memories]
title = "Memories"
[ui.languages]
zh-CN = "中文"
[error]
not_found = "No memory “{{.Ref}}”."
`)
    expect(c.get('ui.memories.title')).toBe('Memories')
    expect(c.get('ui.languages.zh-CN')).toBe('中文')
    expect(c.get('error.not_found')).toBe('No memory “{{.Ref}}”.')
  })

  it('reads go-i18n plural tables as one message', () => {
    const c = parseCatalog(`
[ui.memories.count]
one = "{{.Count}} memory"
other = "{{.Count}} memories"
`)
    expect(c.get('ui.memories.count')).toEqual({ one: '{{.Count}} memory', other: '{{.Count}} memories' })
  })

  it('keeps a table with other keys as a table', () => {
    const c = parseCatalog(`
[ui.x]
other = "a"
title = "b"
`)
    expect(c.get('ui.x.other')).toBe('a')
    expect(c.get('ui.x.title')).toBe('b')
  })
})

describe('t()', () => {
  it('substitutes go-i18n placeholders', () => {
    expect(substitute('Hello {{.Name}}, {{ .Count }} left', { Name: 'Ada', Count: 3 })).toBe('Hello Ada, 3 left')
    expect(substitute('{{.Missing}}!', {})).toBe('!')
    expect(substitute('no placeholders', undefined)).toBe('no placeholders')
    expect(substitute('{{.A}}{{.A}}', { A: 'x' })).toBe('xx')
  })

  it('picks plural forms by language', () => {
    const forms = { one: '{{.Count}} memory', other: '{{.Count}} memories' }
    expect(pickForm(forms, 'en', 1)).toBe('{{.Count}} memory')
    expect(pickForm(forms, 'en', 2)).toBe('{{.Count}} memories')
    expect(pickForm({ other: '{{.Count}} 条' }, 'zh-CN', 1)).toBe('{{.Count}} 条')
  })

  it('falls back to the next catalog, then to the key', () => {
    const zh = parseCatalog('[ui]\na = "甲"\n')
    const en = parseCatalog('[ui]\na = "A"\nb = "B {{.N}}"\n[ui.n]\none = "{{.Count}} item"\nother = "{{.Count}} items"\n')
    const t = makeTranslator('zh-CN', [zh, en])
    expect(t('ui.a')).toBe('甲')
    expect(t('ui.b', { N: 2 })).toBe('B 2')
    expect(t('ui.nope')).toBe('ui.nope')
    expect(t.has('ui.b')).toBe(true)
    expect(t.has('ui.nope')).toBe(false)
    const ten = makeTranslator('en', [en])
    expect(ten('ui.n', { Count: 1 })).toBe('1 item')
    expect(ten('ui.n', { Count: 5 })).toBe('5 items')
  })
})

// Every ui.* key the sources use, as literals or as enum-driven templates.
function usedKeys(): string[] {
  const keys = new Set<string>()
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (/\.(ts|vue)$/.test(e.name)) {
        const src = read(p)
        // Whole keys only: a literal ending in "." or "_" is a prefix joined with an enum value.
        for (const m of src.matchAll(/['"`](ui\.[a-z0-9_.-]*[a-z0-9])['"`]/gi)) keys.add(m[1])
        // Go's organizer.* messages, where the UI translates them (method names look alike).
        for (const m of src.matchAll(/\b(?:t|hasKey|tBackend)\(\s*['"`](organizer\.[a-z0-9_.-]*[a-z0-9])['"`]/gi)) keys.add(m[1])
        for (const m of src.matchAll(/`((?:ui|organizer|quota)\.[a-z0-9_.-]*)\$\{/gi)) keys.add(m[1] + '*')
      }
    }
  }
  walk(path.join(front, 'src'))
  return [...keys].sort()
}

const ENUMS: Record<string, readonly string[]> = {
  'ui.types.': MEMORY_TYPES,
  'ui.scopes.': SCOPES,
  'ui.confidence.': CONFIDENCES,
  'ui.quota.': ['notice', 'degraded', 'critical', 'exhausted'],
  'ui.settings.theme_': ['light', 'dark', 'system'],
  'ui.integrations.transport_': ['stdio', 'http'],
  'ui.languages.': ['en', 'zh-CN'],
  'ui.source_kinds.': ['user', 'tool', 'extractor', 'extraction', 'organizer', 'reconcile', 'import', 'bridge'],
  'ui.activity.op.': AUDIT_OPS,
  'ui.activity.op_refused.': AUDIT_OPS,
  'ui.data.format_': ['jsonl', 'mem0', 'claude', 'obsidian', 'chatgpt'],
  'ui.data.path_': ['mem0', 'claude', 'obsidian', 'chatgpt'],
  'ui.data.phase.': ['start', 'walk', 'index', 'commit', 'integrity', 'checksum', 'done'],
  'ui.backup.op.': ['backup', 'preview', 'restore', 'vacuum', 'cleanup'],
  'ui.backup.phase.': ['index', 'files', 'verify', 'pre_backup', 'swap', 'reconcile', 'orphans', 'vacuum', 'remove', 'done'],
  'ui.activity.actor.': AUDIT_ACTORS,
  // backend/extraction/plan.go's plan actions (accept is never one a model may apply)
  'ui.extraction.action.': ['write', 'update', 'delete', 'append_daily'],
  'organizer.status.': RUN_STATUSES,
  'organizer.phase.': RUN_PHASES,
  'organizer.trigger.': ORGANIZER_TRIGGERS,
  'organizer.mode.': ORGANIZER_MODES,
  'organizer.mode_hint.': ORGANIZER_MODES,
  'organizer.action.': DECISION_ACTIONS,
  'organizer.risk.': RISKS,
  'organizer.tier.': TIERS,
  'organizer.decision_status.': DECISION_STATUSES,
  'ui.organizer.reason_plural.': ['exact_duplicate'],
  'organizer.bucket.': REJECTION_BUCKETS,
  'organizer.reason.': REASON_CODES,
  'organizer.skip.': SKIP_REASONS,
  'quota.level.': ['normal', 'notice', 'degraded', 'critical', 'exhausted'],
  'ui.llm.key_': ['set', 'missing', 'local'],
  'ui.review.risky_kind.': ['override', 'directive', 'system_prompt', 'command', 'conceal'],
  'ui.journal.weekday_': ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  'ui.shortcuts.group_': ['general', 'list', 'views'],
  'ui.nav.': VIEWS,
  'ui.review.undone_': ['accept', 'reject', 'skip'],
  'ui.llm.provider_': ['none', 'openai', 'anthropic'],
  'ui.embeddings.provider_': ['local', 'openai', 'off', 'local_hint', 'openai_hint', 'off_hint'],
  'ui.embeddings.backend_': ['sqlite', 'http', 'sqlite_hint', 'http_hint'],
  'ui.embeddings.progress_': ['running', 'done', 'error', 'idle'],
  'ui.embeddings.key_': ['set', 'missing', 'local'],
  'ui.usage.': ['by_purpose', 'by_model'],
  'ui.usage.purpose.': ['extraction', 'organizer_clusters', 'organizer_plan', 'session_summary', 'test_connection', 'unspecified'],
  'ui.reader.': ['source_kind', 'source_agent', 'source_session', 'source_turn', 'source_model', 'aliases', 'tags', 'supersedes', 'conflicts_with'],
}

function expand(keys: string[]): string[] {
  const out: string[] = []
  for (const k of keys) {
    if (!k.endsWith('*')) {
      out.push(k)
      continue
    }
    const prefix = k.slice(0, -1)
    const values = ENUMS[prefix]
    if (!values) throw new Error(`no enum known for template key ${k}; add it to ENUMS`)
    for (const v of values) out.push(prefix + v)
  }
  return out
}

function checkCatalogPair(enFile: string, zhFile: string) {
  const en = parseCatalog(read(enFile))
  const zh = parseCatalog(read(zhFile))
  expect(keysWithPrefix(zh, 'ui.')).toEqual(keysWithPrefix(en, 'ui.'))
  const missing = expand(usedKeys())
    .filter((k) => k.startsWith('ui.') || !enFile.includes('locale-keys-needed'))
    .filter((k) => !en.has(k))
  expect(missing).toEqual([])
  for (const k of keysWithPrefix(en, 'ui.')) {
    const v = en.get(k)
    expect(typeof v === 'string' ? v : v?.other, k).toBeTruthy()
    expect(zh.get(k), k).toBeTruthy()
  }
}

describe('locale completeness', () => {
  it('the UI key files for the catalogs are complete and in step', () => {
    checkCatalogPair(path.join(front, 'locale-keys-needed.en.toml'), path.join(front, 'locale-keys-needed.zh-CN.toml'))
  })

  it('locales/en.toml and locales/zh-CN.toml hold every ui key the UI uses, in both languages', () => {
    checkCatalogPair(path.join(localesDir, 'en.toml'), path.join(localesDir, 'zh-CN.toml'))
  })

  it('the catalogs hold the error keys the UI relies on', () => {
    const en = parseCatalog(read(path.join(localesDir, 'en.toml')))
    for (const k of ['error.version_conflict', 'error.not_found', 'error.unknown_method', 'error.parse_error', 'error.organizer_busy'])
      expect(en.has(k), k).toBe(true)
  })
})

describe('a failure and its reason', () => {
  // The UI glued "Could not save the setting" and the error with an ASCII ": " in every
  // language: "无法保存设置: 基础 URL…" in the Chinese UI. The catalog joins them now.
  it('are joined the way the language joins them', async () => {
    const { setLanguage, tFailed } = await import('../../src/i18n')
    const err = { code: 'nope', i18nKey: 'ui.errors.disconnected', message: '', args: {} }
    try {
      setLanguage('zh-CN')
      expect(tFailed('ui.settings.save_failed', err)).toBe('无法保存设置：与 Engram 的连接已断开，正在重新连接…')
      setLanguage('en')
      expect(tFailed('ui.settings.save_failed', err)).toBe('Could not save the setting: The connection to Engram was lost. Reconnecting…')
    } finally {
      setLanguage('en')
    }
  })
  it('are never glued with an ASCII colon in the sources', () => {
    const glued: string[] = []
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (/\.(ts|vue)$/.test(e.name))
          read(p)
            .split('\n')
            .forEach((line, i) => /\bt\('[^']+'\)\}: \$\{|\bt\('[^']+'\)\s*\+\s*': '/.test(line) && glued.push(`${path.relative(front, p)}:${i + 1}`))
      }
    }
    walk(path.join(front, 'src'))
    expect(glued).toEqual([])
  })
})
