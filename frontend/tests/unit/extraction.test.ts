import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import { parseCatalog } from '../../src/i18n/core'
import { statusTone } from '../../src/util/extraction'

const root = path.resolve(__dirname, '../../..')
const catalog = (lang: string) => parseCatalog(fs.readFileSync(path.join(root, 'locales', `${lang}.toml`), 'utf8'))

// The codes the backend records (backend/extraction); each must read in both languages.
const STATUSES = ['queued', 'running', 'done', 'partial', 'noop', 'skipped', 'failed']
const REASONS = [
  'disabled', 'agent-off', 'empty', 'too-short', 'greeting', 'thanks', 'throttled', 'already-covered', 'superseded', 'disposed',
  'plan-noop', 'no-tool-call', 'malformed-plan', 'plan-cut', 'model-refused', 'all-rejected', 'no-planner', 'nothing-applied',
  'timeout', 'canceled', 'planner-error', 'context-error', 'apply-error', 'interrupted', 'unknown',
]
const CODES = [
  'invalid-action', 'person-only-action', 'missing-slug', 'invalid-scope', 'project-scope-without-evidence',
  'duplicate-slug-in-plan', 'already-written-this-turn', 'rejected-slug-no-override', 'body-too-large', 'empty-daily-body',
  'missing-description-for-write', 'missing-body-for-write', 'quota-exhausted', 'too-many-items', 'quote-not-in-turn', 'invalid-relation',
]

describe('extraction texts', () => {
  for (const lang of ['en', 'zh-CN']) {
    it(`reads every status, reason and code in ${lang}`, () => {
      const c = catalog(lang)
      const missing = [
        ...STATUSES.map((s) => `extraction.status.${s}`),
        ...REASONS.map((r) => `extraction.reason.${r}`),
        ...CODES.map((k) => `extraction.code.${k}`),
      ].filter((k) => !c.has(k))
      expect(missing).toEqual([])
    })
  }
  it('gives each status a tone', () => {
    expect(STATUSES.map(statusTone)).toEqual(['live', 'live', 'ok', 'warn', 'muted', 'muted', 'bad'])
  })
})
