// Types of the api/ contract (JSON, snake_case). Kept in step with backend/api.

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
export const SLUG_RE = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/
export const TITLE_MAX = 120
export const BODY_MAX_BYTES = 8 * 1024

export interface AppInfo {
  version: string
  home: string
  language: Language
}

export interface Settings {
  language: Language
  theme: Theme
  /** The desktop app runs the localhost bridge (Settings → Remote access). */
  remote_enabled?: boolean
  /** Where that bridge listens (loopback host:port). */
  remote_addr?: string
  [key: string]: unknown
}

export interface SettingsUpdate {
  language?: Language
  theme?: Theme
  remote_enabled?: boolean
  remote_addr?: string
}

export interface MemorySummary {
  id: string
  slug: string
  title: string
  scope: Scope
  workdir?: string
  agent?: string
  type: MemoryType
  confidence: Confidence
  auto_downgraded: boolean
  reviewed: boolean
  archived: boolean
  tags: string[] | null
  updated: string
  created: string
  version: string
  snippet?: string
}

export interface MemorySource {
  kind?: string
  agent?: string
  session?: string
  turn?: number | string
  model?: string
}

export interface Memory extends MemorySummary {
  body: string
  source_quote: string
  reasoning: string
  aliases: string[] | null
  supersedes: string[] | null
  conflicts_with: string[] | null
  source: MemorySource | null
  path: string
}

export interface ListParams {
  scope?: Scope
  workdir?: string
  agent?: string
  type?: MemoryType
  reviewed?: boolean | null
  archived?: boolean
  limit?: number
  offset?: number
}

export interface ListResult {
  items: MemorySummary[]
  total: number
}

export interface ReadParams {
  id: string
}

export interface ReadResult {
  memory: Memory
  html: string
  version: string
}

export interface SearchParams {
  query: string
  scope?: Scope
  workdir?: string
  agent?: string
  type?: MemoryType
  limit?: number
}

export interface SearchHit {
  memory: MemorySummary
  score: number
  snippet: string
}

export interface SearchResult {
  hits: SearchHit[]
}

export interface WriteParams {
  scope: Scope
  workdir?: string
  agent?: string
  type: WritableType
  slug: string
  title: string
  body: string
  confidence?: Confidence
  source_quote?: string
  reasoning?: string
  aliases?: string[]
  tags?: string[]
}

export interface UpdateParams {
  id: string
  expected_version?: string
  mode: 'merge' | 'replace'
  title?: string
  body?: string
  type?: WritableType
  confidence?: Confidence
  source_quote?: string
  reasoning?: string
  aliases?: string[]
  tags?: string[]
}

export interface IdParams {
  id: string
}

export interface Warning {
  code: string
  i18n_key: string
  args?: Record<string, unknown>
}

export interface ItemResult {
  index: number
  op: string
  ok: boolean
  code?: string
  i18n_key?: string
  args?: Record<string, unknown>
  message?: string
  id?: string
  slug?: string
  version?: string
  applied_confidence?: Confidence
  auto_downgraded?: boolean
  warnings?: Warning[] | null
}

export interface ScopeQuota {
  scope: Scope
  key: string
  workdir?: string
  agent?: string
  used: number
  limit: number
  headroom: number
  level: QuotaLevel
  archived: number
  unreviewed: number
  oldest_unreviewed_days: number
}

export interface QuotaSummary {
  level: QuotaLevel
  scopes: ScopeQuota[] | null
}

/** The api error payload as it travels inside results ({code, i18n_key, args, message}). */
export interface ErrorPayload {
  code: string
  i18n_key: string
  args?: Record<string, unknown> | null
  message?: string
}

/** One browser (or other client) connected through the bridge. */
export interface RemoteClient {
  id: number
  remote_addr: string
  user_agent: string
  connected_at: string
  requests: number
}

/** State of remote access (the localhost bridge). */
export interface RemoteStatus {
  enabled: boolean
  running: boolean
  addr: string
  url: string
  token: string
  clients: RemoteClient[] | null
  /** Why the bridge is not running although enabled (address in use…). */
  error?: ErrorPayload | null
}

export interface MemoryChangedEvent {
  ids: string[]
}

export interface QuotaChangedEvent {
  level: QuotaLevel
}

// ---------------------------------------------------------------- files, audit, index

/** A file that could not be indexed; it is left untouched on disk (memory.problems). */
export interface Problem {
  path: string
  code: string
  detail: string
  seen_at: string
}

export interface ProblemsResult {
  problems: Problem[] | null
}

export type AuditOp = 'write' | 'update' | 'delete' | 'accept' | 'reject' | 'append_daily' | 'archive' | 'restore'
export type AuditActor = 'user' | 'tool' | 'extractor' | 'organizer' | 'reconcile' | 'import' | 'bridge'
export const AUDIT_OPS: AuditOp[] = ['write', 'update', 'delete', 'accept', 'reject', 'append_daily', 'archive', 'restore']
export const AUDIT_ACTORS: AuditActor[] = ['user', 'tool', 'extractor', 'organizer', 'reconcile', 'import', 'bridge']

/** One row of the audit log, newest first (memory.history). */
export interface AuditEntry {
  seq: number
  ts: string
  op: string
  actor: string
  memory_id: string
  slug: string
  scope: string
  session: string
  model: string
  /** "ok" or an error code. */
  result: string
  detail: Record<string, unknown> | null
}

export interface HistoryParams {
  /** One memory's history; empty for the whole log. */
  id?: string
  limit?: number
  /** Pages back: only entries older than this sequence number. */
  before_seq?: number
}

export interface HistoryResult {
  entries: AuditEntry[] | null
}

export interface ReconcileReport {
  scanned: number
  added: number
  updated: number
  removed: number
  unchanged: number
  problems: number
}

export interface DoctorReport {
  home: string
  schema_version: number
  memories: number
  archived: number
  trash_files: number
  problems: Problem[] | null
  integrity: string
  fts_consistent: boolean
  reconcile: ReconcileReport
  ok: boolean
}

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
] as const
export const SKIP_REASONS = ['busy', 'too_soon', 'too_few_new_memories', 'gate_failed'] as const
export const REASON_CODES = [
  'exact_duplicate',
  'contained',
  'similar',
  'similar_numbers_or_negation_differ',
  'stale_low_confidence',
  'planner',
] as const

export interface OrganizerSettings {
  enabled: boolean
  frequency_hours: number
  mode: OrganizerMode
  min_hours_between_runs: number
  min_new_memories: number
  review_after_days: number
}

export type OrganizerSettingsPatch = Partial<OrganizerSettings>

/** One organizer.progress event: where a run stands. */
export interface OrganizerProgress {
  run_id: string
  phase: RunPhase | ''
  status: RunStatus
  done: number
  total: number
}

/** A coded failure recorded in a run (i18n key error.<code>). */
export interface RunError {
  code: string
  args?: Record<string, unknown> | null
  message: string
}

export interface RunCounts {
  scanned: number
  scopes: number
  clusters: number
  clusters_failed: number
  decisions: number
  keep: number
  merge_into: number
  delete: number
  mark_review: number
  rewrite_hint: number
  auto: number
  queued: number
  dropped: number
  applied: number
  failed: number
  removed: number
}

export interface RunSummary {
  id: string
  trigger: OrganizerTrigger
  mode: OrganizerMode
  status: RunStatus
  phase: RunPhase | ''
  /** When it started, or for a queued run when it was asked for. */
  started_at: string
  finished_at?: string | null
  initial_count: number
  final_count: number
  /** final_count / initial_count: 1 when nothing was removed. */
  compression_ratio: number
  quota_headroom_at_start: number
  token_usage_total: number
  counts?: RunCounts | null
  rejection_buckets?: Record<string, number> | null
  error?: RunError | null
  /** Set for the run the serving process is executing. */
  progress?: OrganizerProgress | null
}

/** A memory as the run saw it at scan time. */
export interface EntryRef {
  id: string
  slug: string
  title: string
  scope: Scope
  scope_key: string
  workdir?: string
  agent?: string
  type: MemoryType
  path: string
  version: string
  reviewed: boolean
  confidence: Confidence
}

export interface DecisionReason {
  code: string
  args?: Record<string, unknown> | null
  /** Free text from a planner (an LLM's reasoning), shown as is. */
  text?: string
}

export interface DecisionResult {
  code?: string
  message?: string
  at: string
  /** "run" (applied by the run itself) or "review" (applyReport). */
  by: string
  removed: number
}

export interface Preserved {
  body: string
  aliases: string[] | null
  tags: string[] | null
  supersedes: string[] | null
  source_quote: string
  confidence: Confidence
  unreview?: boolean
}

export interface Decision {
  id: string
  cluster_id: string
  action: DecisionAction
  /** The entries acted on; for merge_into, the ones folded into `into` and removed. */
  targets: EntryRef[] | null
  into?: EntryRef | null
  confidence: number
  risk: Risk
  tier?: Tier | ''
  score?: number
  reason: DecisionReason
  hint?: string
  preserved?: Preserved | null
  outcome: DecisionOutcome
  bucket?: string
  status: DecisionStatus
  result?: DecisionResult | null
}

export interface ClusterReport {
  id: string
  key: string
  scope: Scope
  scope_key: string
  size: number
  entry_ids: string[] | null
  status: string
  error?: RunError | null
}

export interface ScopeScan {
  scope: Scope
  key: string
  workdir?: string
  agent?: string
  count: number
  used: number
  limit: number
  headroom: number
  level: QuotaLevel
  target: number
  over_target: number
}

export interface RunReport {
  version: number
  run_id: string
  trigger: OrganizerTrigger
  mode: OrganizerMode
  clusterer: string
  planner: string
  cluster_fallback?: RunError | null
  quota_level: QuotaLevel
  quota_headroom: number
  scopes: ScopeScan[] | null
  counts: RunCounts
  rejection_buckets: Record<string, number> | null
  clusters: ClusterReport[] | null
  decisions: Decision[] | null
  snapshots: string[] | null
  error?: RunError | null
}

export interface RunDetail extends RunSummary {
  /** Null for a queued run or an unreadable report. */
  report: RunReport | null
  report_error?: RunError | null
}

export interface OrganizerStatus {
  settings: OrganizerSettings
  /** A timer is set in the serving process; timer_at is when it fires. */
  armed: boolean
  timer_at?: string | null
  next_run_at?: string | null
  last_check_at?: string | null
  last_skip?: string
  /** The run under way on the home, if any. */
  active?: RunSummary | null
  queued: number
  last_run?: RunSummary | null
}

export interface RunsParams {
  limit?: number
  offset?: number
}

export interface RunsResult {
  runs: RunSummary[] | null
}

/** A run and where it stands after runNow / abort. */
export interface RunRef {
  id: string
  status: RunStatus
}

export interface RunNowParams {
  trigger?: OrganizerTrigger
}

export interface ApplyReportParams {
  run_id: string
  decision_ids: string[]
}

export interface DecisionApplyOutcome {
  id: string
  status: DecisionStatus
  code?: string
  message?: string
}

export interface ApplyReportResult {
  run_id: string
  decisions: DecisionApplyOutcome[] | null
  applied: number
  failed: number
  final_count: number
  compression_ratio: number
  snapshot: string
}

export interface EventMap {
  'memory.changed': MemoryChangedEvent
  'quota.changed': QuotaChangedEvent
  'settings.changed': Partial<Settings>
  'remote.changed': RemoteStatus
  'organizer.progress': OrganizerProgress
  /** The set of unreadable files changed (memory.problems has the list). */
  'memory.problems': unknown
  [name: string]: unknown
}
