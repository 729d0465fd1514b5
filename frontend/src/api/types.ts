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

export interface EventMap {
  'memory.changed': MemoryChangedEvent
  'quota.changed': QuotaChangedEvent
  'settings.changed': Partial<Settings>
  'remote.changed': RemoteStatus
  [name: string]: unknown
}
