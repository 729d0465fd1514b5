// The hand-written part of the api/ contract: unions and constants of the Go enums, the params
// the UI narrows, settings, error payloads and events. The JSON shapes of the Go structs are
// generated into types.ts (make types), which re-exports this file; import from './types'.

import type {
  EmbeddingProgress,
  EmbeddingsSettings,
  EmbeddingsSettingsPatch,
  ExtractionStatusEvent,
  IndexProgress,
  LLMSettings,
  LLMSettingsPatch,
  OrganizerProgress,
  RemoteStatus,
} from './types'

export type Scope = 'global' | 'project' | 'agent'
export type MemoryType = 'user' | 'feedback' | 'project' | 'reference' | 'experience' | 'daily'
export type WritableType = Exclude<MemoryType, 'daily'>
export type Confidence = 'high' | 'medium' | 'low'
export type Language = 'en' | 'zh-CN'
export type Theme = 'light' | 'dark' | 'system'
export type QuotaLevel = 'normal' | 'notice' | 'degraded' | 'critical' | 'exhausted'

export const SCOPES: Scope[] = ['global', 'project', 'agent']
export const WRITABLE_TYPES: WritableType[] = ['user', 'feedback', 'project', 'reference', 'experience']
export const MEMORY_TYPES: MemoryType[] = [...WRITABLE_TYPES, 'daily']
export const CONFIDENCES: Confidence[] = ['high', 'medium', 'low']
/**
 * A slug as the store takes it (format.ValidSlug): 3–64 bytes of lowercase ASCII letters,
 * digits, dashes and Chinese characters that every file system names alike (unchanged by
 * NFKC and NFD), neither starting nor ending with a dash.
 */
export function validSlug(s: string): boolean {
  const bytes = new TextEncoder().encode(s).length
  if (bytes < 3 || bytes > 64 || s.startsWith('-') || s.endsWith('-')) return false
  return [...s].every(
    (c) => /[a-z0-9-]/.test(c) || (/\p{Script=Han}/u.test(c) && /[\p{L}\p{N}]/u.test(c) && c.normalize('NFKC') === c && c.normalize('NFD') === c),
  )
}
export const TITLE_MAX = 120
export const BODY_MAX_BYTES = 8 * 1024

export interface Settings {
  language: Language
  theme: Theme
  /** The desktop app runs the localhost bridge (Settings → Remote access). */
  remote_enabled?: boolean
  /** Where that bridge listens (loopback host:port). */
  remote_addr?: string
  /** Settings → LLM (the key is not a setting). */
  llm?: LLMSettings
  /** Settings → Embeddings (the key is not a setting). */
  embeddings?: EmbeddingsSettings
  /** Git sync with the remote every N minutes while Engram runs (0: only on demand). */
  sync_minutes?: number
  [key: string]: unknown
}

export interface SettingsUpdate {
  language?: Language
  theme?: Theme
  remote_enabled?: boolean
  remote_addr?: string
  llm?: LLMSettingsPatch
  embeddings?: EmbeddingsSettingsPatch
  sync_minutes?: number
}

export interface ReadParams {
  id: string
}

export interface IdParams {
  id: string
}

/** The api error payload as it travels inside results ({code, i18n_key, args, message}). */
export interface ErrorPayload {
  code: string
  i18n_key: string
  args?: Record<string, unknown> | null
  message?: string
}

export interface MemoryChangedEvent {
  ids: string[]
}

/** An agent's key-value namespace changed; keys is empty when its file changed on disk. */
export interface KVChangedEvent {
  agent: string
  keys: string[]
}

export interface QuotaChangedEvent {
  level: QuotaLevel
}

// ---------------------------------------------------------------- files, audit, index

export type AuditOp = 'write' | 'update' | 'delete' | 'accept' | 'reject' | 'append_daily' | 'archive' | 'restore'
export type AuditActor = 'user' | 'tool' | 'extractor' | 'organizer' | 'reconcile' | 'import' | 'bridge'
export const AUDIT_OPS: AuditOp[] = ['write', 'update', 'delete', 'accept', 'reject', 'append_daily', 'archive', 'restore']
export const AUDIT_ACTORS: AuditActor[] = ['user', 'tool', 'extractor', 'organizer', 'reconcile', 'import', 'bridge']

// ---------------------------------------------------------------- organizer (backend/organizer)

export type OrganizerMode = 'conservative' | 'standard' | 'aggressive'
export type OrganizerTrigger = 'scheduled' | 'manual'
export type RunStatus = 'queued' | 'running' | 'done' | 'failed' | 'aborted'
export type RunPhase = 'scan' | 'cluster' | 'plan' | 'gate' | 'apply'
export type DecisionAction = 'keep' | 'merge_into' | 'delete' | 'mark_review' | 'rewrite_hint'
export type Risk = 'low' | 'medium' | 'high'
export type Tier = 'exact' | 'containment' | 'cosine' | 'jaccard' | 'age'
export type DecisionOutcome = 'auto' | 'queue' | 'drop'
export type DecisionStatus = 'pending' | 'applied' | 'failed' | 'dropped'

export const ORGANIZER_MODES: OrganizerMode[] = ['conservative', 'standard', 'aggressive']
export const ORGANIZER_TRIGGERS: OrganizerTrigger[] = ['scheduled', 'manual']
export const RUN_STATUSES: RunStatus[] = ['queued', 'running', 'done', 'failed', 'aborted']
export const RUN_PHASES: RunPhase[] = ['scan', 'cluster', 'plan', 'gate', 'apply']
export const DECISION_ACTIONS: DecisionAction[] = ['keep', 'merge_into', 'delete', 'mark_review', 'rewrite_hint']
export const RISKS: Risk[] = ['low', 'medium', 'high']
export const TIERS: Tier[] = ['exact', 'containment', 'cosine', 'jaccard', 'age']
export const DECISION_STATUSES: DecisionStatus[] = ['pending', 'applied', 'failed', 'dropped']
export const REJECTION_BUCKETS = [
  'manual_review',
  'high_risk',
  'medium_risk',
  'below_confidence',
  'conservative_mode',
  'report_only',
  'invalid_target',
  'conflicting_decision',
  'body_too_large',
  'nothing_to_merge',
  'batch_limit',
  'invalid_proposal',
  'outside_cluster',
  'cross_scope',
  'cross_type',
  'self_merge',
  'fields_too_large',
  'evidence_lost',
  'deferred',
  'restored_by_person',
  'oversized_plan',
] as const
export const SKIP_REASONS = ['busy', 'too_soon', 'too_few_new_memories', 'gate_failed', 'nothing_to_free'] as const
export const REASON_CODES = [
  'exact_duplicate',
  'contained',
  'similar',
  'similar_numbers_or_negation_differ',
  'same_words_symbols_differ',
  'similar_key_words_differ',
  'similar_meaning_words_differ',
  'contained_meaning_changed',
  'stale_low_confidence',
  'planner',
  'malformed_decision',
  'unknown_action',
  'bad_confidence',
  'bad_ids',
  'merge_without_into',
  'misplaced_field',
  'rewrite_without_hint',
  'deferred_over_limit',
] as const

export interface EventMap {
  'memory.changed': MemoryChangedEvent
  'quota.changed': QuotaChangedEvent
  'settings.changed': Partial<Settings>
  'remote.changed': RemoteStatus
  'organizer.progress': OrganizerProgress
  /** An extraction run started, waits or ended (extraction.runs has the record). */
  'extraction.status': ExtractionStatusEvent
  /** The set of unreadable files changed (memory.problems has the list). */
  'memory.problems': unknown
  'kv.changed': KVChangedEvent
  /** Background (re-)embedding progress of the current model (recall.embedStatus has it too). */
  'embedding.progress': EmbeddingProgress
  /** How far index.reindex / index.doctor are (Settings → Data draws a bar). */
  'index.progress': IndexProgress
  /** The desktop window's store is still opening: the seconds waited (once a second). */
  'store.waiting': number
  /** The desktop window's store opened (after store.waiting). */
  'store.open': undefined
  [name: string]: unknown
}
