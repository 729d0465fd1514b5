// The only place in the UI that talks to Go. Every wrapper has the same
// signature over either transport (Wails bindings or the websocket bridge).

import type { EventCallback, Transport, Unsubscribe } from './transport'
import { WailsTransport, hasWails, type WailsWindow } from './wails'
import { WsTransport, bridgeUrl, fetchProbe, resolveToken, type WebSocketLike } from './ws'
import { Session } from './session'
import type {
  AgentsParams,
  AgentsResult,
  AppInfo,
  ApplyReportParams,
  ApplyReportResult,
  UndoParams,
  UndoResult,
  DoctorReport,
  EventMap,
  ExtractionRequestParams,
  ExtractionRun,
  ExtractionRunsParams,
  ExtractionRunsResult,
  ExtractionSettings,
  ExtractionSettingsPatch,
  HistoryParams,
  HistoryResult,
  OrganizerSettings,
  OrganizerSettingsPatch,
  OrganizerStatus,
  ProblemsResult,
  ReconcileReport,
  RunDetail,
  RunNowParams,
  RunRef,
  RunsParams,
  RunsResult,
  IdParams,
  ItemResult,
  KVListParams,
  KVListResult,
  LLMStatus,
  EmbeddingStatus,
  SetEmbeddingsKeyParams,
  EmbeddingsTestResult,
  LLMTestResult,
  SetKeyParams,
  UsageParams,
  UsageSummary,
  ListParams,
  ListResult,
  QuotaSummary,
  ReadParams,
  RemoteStatus,
  ReadResult,
  SearchParams,
  SearchResult,
  SessionDeleted,
  SessionDetail,
  SessionList,
  SessionListParams,
  SessionRef,
  Settings,
  SettingsUpdate,
  Snippets,
  UpdateParams,
  WriteParams,
  Profile,
  RejectParams,
  BatchParams,
  BatchResult,
  StorageHistoryParams,
  StorageHistoryResult,
  ExportParams,
  ExportResult,
  ImportPreviewParams,
  ImportPreviewResult,
  ImportParams,
  ImportResult,
  OpenFolderResult,
} from './types'

export * from './types'
export { ApiError, errorField, normalizeError } from './errors'
export type { Transport } from './transport'
export { Session, type SessionSnapshot } from './session'
export { parseTokenInput } from './ws'

let initialToken = ''

type BrowserGlobals = {
  location?: Location
  localStorage?: Storage
  history?: Pick<History, 'replaceState'>
  WebSocket?: new (url: string) => WebSocketLike
  fetch?: typeof fetch
}

/** Picks the Wails transport inside the desktop window, else the bridge. */
export function selectTransport(w: unknown = globalThis): Transport {
  if (hasWails(w)) return new WailsTransport(w as WailsWindow)
  const g = w as BrowserGlobals
  const loc = g.location ?? { protocol: 'http:', host: '127.0.0.1', hash: '' }
  const token = resolveToken(loc, g.localStorage)
  initialToken = token
  forgetHashToken(g)
  const WS = g.WebSocket
  const fetcher = g.fetch
  const t = new WsTransport({
    url: token ? bridgeUrl(loc, token) : '',
    factory: WS ? (url) => new WS(url) : undefined,
    probe: fetcher ? fetchProbe(fetcher.bind(w)) : undefined,
  })
  t.connect()
  return t
}

/** Takes "#token=…" out of the address bar once read (it is kept in localStorage). */
export function forgetHashToken(g: BrowserGlobals = globalThis as BrowserGlobals) {
  const loc = g.location
  if (!loc || !/(?:^#|[#&])token=/.test(loc.hash || '') || !g.history) return
  try {
    g.history.replaceState(null, '', `${loc.pathname}${loc.search}`)
  } catch {
    /* not allowed here */
  }
}

let current: Transport | null = null
let currentSession: Session | null = null

export function transport(): Transport {
  if (!current) current = selectTransport()
  return current
}

/** Replaces the transport (tests). */
export function setTransport(t: Transport | null): void {
  current = t
  currentSession = null
}

/** The session over the current transport: token, connection state, log in/out. */
export function session(): Session {
  if (!currentSession) {
    const t = transport()
    const g = globalThis as BrowserGlobals
    currentSession = new Session(t, { location: g.location, localStorage: g.localStorage }, initialToken)
  }
  return currentSession
}

export function call<T>(method: string, params: object = {}): Promise<T> {
  return transport().call(method, params) as Promise<T>
}

export const appInfo = () => call<AppInfo>('app.info')
export const getSettings = () => call<Settings>('settings.get')
export const updateSettings = (p: SettingsUpdate) => call<Settings>('settings.update', p)

export const listMemories = (p: ListParams) => call<ListResult>('memory.list', p)
export const readMemory = (p: ReadParams) => call<ReadResult>('memory.read', p)
export const searchMemories = (p: SearchParams) => call<SearchResult>('memory.search', p)
export const writeMemory = (p: WriteParams) => call<ItemResult>('memory.write', p)
export const updateMemory = (p: UpdateParams) => call<ItemResult>('memory.update', p)
export const deleteMemory = (p: IdParams) => call<ItemResult>('memory.delete', p)
export const acceptMemory = (p: IdParams) => call<ItemResult>('memory.accept', p)
export const rejectMemory = (p: IdParams) => call<ItemResult>('memory.reject', p)

export const memoryHistory = (p: HistoryParams) => call<HistoryResult>('memory.history', p)
export const memoryProblems = () => call<ProblemsResult>('memory.problems')

export const quotaSummary = () => call<QuotaSummary>('quota.summary')

/** One page of an agent's key-value facts, sorted by key (the UI only reads them). */
export const kvList = (p: KVListParams) => call<KVListResult>('kv.list', p)

export const indexReconcile = () => call<ReconcileReport>('index.reconcile')
export const indexReindex = () => call<ReconcileReport>('index.reindex')
export const indexDoctor = () => call<DoctorReport>('index.doctor')

export const organizerStatus = () => call<OrganizerStatus>('organizer.status')
export const organizerRuns = (p: RunsParams = {}) => call<RunsResult>('organizer.runs', p)
export const organizerRun = (id: string) => call<RunDetail>('organizer.run', { id })
export const organizerRunNow = (p: RunNowParams = {}) => call<RunRef>('organizer.runNow', p)
/** Stops the active run, or the named (queued or running) one. */
export const organizerAbort = (runId?: string) => call<RunRef>('organizer.abort', runId ? { run_id: runId } : {})
export const organizerApplyReport = (p: ApplyReportParams) => call<ApplyReportResult>('organizer.applyReport', p)
/** Takes an applied run back (dry_run: what would come back, nothing changed). Person only. */
export const organizerUndo = (p: UndoParams) => call<UndoResult>('organizer.undo', p)
export const organizerSettings = () => call<OrganizerSettings>('organizer.settings')
export const organizerUpdateSettings = (p: OrganizerSettingsPatch) => call<OrganizerSettings>('organizer.updateSettings', p)

export const listSessions = (p: SessionListParams = {}) => call<SessionList>('sessions.list', p)
export const readSession = (p: SessionRef) => call<SessionDetail>('sessions.read', p)
export const deleteSession = (p: SessionRef) => call<SessionDeleted>('sessions.delete', p)
export const extractionRequest = (p: ExtractionRequestParams) => call<ExtractionRun>('extraction.request', p)
export const extractionRuns = (p: ExtractionRunsParams = {}) => call<ExtractionRunsResult>('extraction.runs', p)
export const extractionRun = (id: string) => call<ExtractionRun>('extraction.run', { id })
export const extractionSettings = () => call<ExtractionSettings>('extraction.settings')
export const extractionUpdateSettings = (p: ExtractionSettingsPatch) => call<ExtractionSettings>('extraction.updateSettings', p)

export const remoteStatus = () => call<RemoteStatus>('remote.status')
export const regenerateRemoteToken = () => call<RemoteStatus>('remote.regenerateToken')

export const integrationSnippets = () => call<Snippets>('integrations.snippets')
export const connectedAgents = (p: AgentsParams = {}) => call<AgentsResult>('integrations.agents', p)
export const llmStatus = () => call<LLMStatus>('llm.status')
/** Files (or with clear, removes) the API key of the configured endpoint; desktop window only. */
export const llmSetKey = (p: SetKeyParams) => call<LLMStatus>('llm.setKey', p)
/** One tiny real call: ok with latency, or the translated error in the result. */
export const llmTest = () => call<LLMTestResult>('llm.test')
/** Settings → Embeddings: what runs now, the saved choice, key set or not, progress. */
export const embedStatus = () => call<EmbeddingStatus>('recall.embedStatus')
/** Files (or with clear, removes) the key of the embeddings endpoint; desktop window only. */
export const embeddingsSetKey = (p: SetEmbeddingsKeyParams) => call<EmbeddingStatus>('embeddings.setKey', p)
/** Embeds one short text with the running embedder: ok with its width, or the translated error. */
export const embeddingsTest = () => call<EmbeddingsTestResult>('embeddings.test')
export const usageSummary = (p: UsageParams = {}) => call<UsageSummary>('usage.summary', p)
/** The person's profile, derived from the global user and experience memories. */
export const getProfile = () => call<Profile>('profile.get')

export type { ConnectionState } from './ws'

/** Opens a link in the system browser (desktop) or a new tab (bridge). */
export function openExternal(url: string): void {
  const rt = (globalThis as { runtime?: { BrowserOpenURL?: (u: string) => void } }).runtime
  if (transport().kind === 'wails' && rt?.BrowserOpenURL) rt.BrowserOpenURL(url)
  else globalThis.open?.(url, '_blank', 'noopener,noreferrer')
}

export function onEvent<K extends keyof EventMap & string>(name: K, cb: (data: EventMap[K]) => void): Unsubscribe {
  return transport().on(name, cb as EventCallback)
}

// ---- review
// The Review queue: unreviewed memories oldest first, the person's accept / reject (with an
// optional reason) / undo, and bulk actions through apply_batch (which refuses to accept a
// memory flagged as an instruction to the agent together with others).
export const reviewQueue = (p: { limit?: number; offset?: number } = {}) =>
  call<ListResult>('memory.list', { reviewed: false, order: 'oldest', limit: p.limit ?? 1000, offset: p.offset ?? 0 })
/** The number of unreviewed memories (the navigation badge). */
export const unreviewedCount = () => call<ListResult>('memory.list', { reviewed: false, limit: 1 }).then((r) => r.total ?? 0)
export const rejectMemoryWithReason = (p: RejectParams) => call<ItemResult>('memory.reject', p)
/** Brings a rejected (trashed) or archived memory back; after a reject it also takes the rejection back. */
export const restoreMemory = (p: IdParams) => call<ItemResult>('memory.restore', p)
export const applyBatch = (p: BatchParams) => call<BatchResult>('memory.applyBatch', p)
// ---- data (Settings → Storage / Data, the quota banner's organizer button)
/** Daily samples of the store's size (memories, bytes), oldest first. */
export const quotaHistory = (p: StorageHistoryParams = {}) => call<StorageHistoryResult>('quota.history', p)
/** Every live memory as JSONL (download it in the browser). */
export const exportMemories = (p: ExportParams = {}) => call<ExportResult>('memory.export', p)
/** What memory.import would do with this JSONL: counts, conflicts, quota impact; applies nothing. */
export const importPreview = (p: ImportPreviewParams) => call<ImportPreviewResult>('memory.importPreview', p)
export const importMemories = (p: ImportParams) => call<ImportResult>('memory.import', p)
/** Opens the home folder in the file manager; refused over remote access (show the path). */
export const openHomeFolder = () => call<OpenFolderResult>('app.openFolder')
// ---- journal
import type {
  AgentChoices,
  AgentPreview,
  AgentPreviewParams,
  AppendParams,
  DayListParams,
  DayListResult,
  DayParams,
  DayResult,
  DaySearchParams,
  DaySearchResult,
} from './types'

/** The days that have journal entries (live and archived), their sizes and today's date. */
export const journalDays = (p: DayListParams = {}) => call<DayListResult>('daily.list', p)
/** One journal day rendered whole and entry by entry, with its author per entry. */
export const journalDay = (p: DayParams = {}) => call<DayResult>('daily.read', p)
/** Adds an entry to today's journal as the caller (the person, from the UI). */
export const journalAppend = (p: AppendParams) => call<ItemResult>('daily.append', p)
/** Full text over the journal; a date ("2026-11-30", "11-30", "11月30日") finds its day. */
export const journalSearch = (p: DaySearchParams) => call<DaySearchResult>('daily.search', p)
/** The agents and project folders "What my agents see" offers. */
export const agentChoices = () => call<AgentChoices>('agentView.choices')
/** The Memory Index and build_context the chosen agent would receive in the chosen project. */
export const agentPreview = (p: AgentPreviewParams) => call<AgentPreview>('agentView.preview', p)
// ---- list search
import type { FindParams, FindResult } from './types'

/** The memory list's search as you type: one bounded lexical query, paged (memory.find). */
export const findMemories = (p: FindParams) => call<FindResult>('memory.find', p)
// ---- backup (Settings → Data: backup, restore, schedule, vacuum, cleanup)
import type {
  BackupCreateParams,
  BackupListResult,
  BackupPreview,
  BackupPathParams,
  BackupRestoreParams,
  BackupRestoreResult,
  BackupResult,
  BackupSchedule,
  CleanupParams,
  CleanupReport,
  VacuumReport,
} from './types'

/** Writes a whole-home backup now (to the backups folder unless `to` names a file; desktop only). */
export const backupCreate = (p: BackupCreateParams = {}) => call<BackupResult>('backup.create', p)
/** The backups folder's backups (newest first), the schedule and the next due time. */
export const backupList = () => call<BackupListResult>('backup.list')
/** Checks an archive completely and returns its manifest; restores nothing. */
export const backupPreview = (p: BackupPathParams) => call<BackupPreview>('backup.preview', p)
/** Restores in place (the current state is backed up first) or, with home, into a new home. */
export const backupRestore = (p: BackupRestoreParams) => call<BackupRestoreResult>('backup.restore', p)
export const backupUpdateSchedule = (p: BackupSchedule) => call<BackupSchedule>('backup.updateSchedule', p)
/** Drops orphan rows, closes stuck runs and compacts the index. */
export const maintenanceVacuum = () => call<VacuumReport>('maintenance.vacuum')
/** Removes (or with dry_run lists) trash, snapshots and archives older than older_than. */
export const maintenanceCleanup = (p: CleanupParams) => call<CleanupReport>('maintenance.cleanup', p)
// ---- git history (history.*: versions with diffs, restore, sync)
import type { HistoryStatus, HistorySyncParams, RestoreVersionParams, SyncResult, VersionsParams, VersionsResult } from './types'

/** Whether the memory folder is a git repository, its head and commit count, the sync remote. */
export const historyStatus = () => call<HistoryStatus>('history.status')
export const historyEnable = () => call<HistoryStatus>('history.enable')
export const historyDisable = () => call<HistoryStatus>('history.disable')
/** Every version of one memory from git, newest first, each with the diff from the one before. */
export const historyVersions = (p: VersionsParams) => call<VersionsResult>('history.versions', p)
/** Memories git history saw deleted (purged from the trash too) that are not back, newest first. */
export const historyDeleted = (p: import('./types').DeletedParams = {}) => call<import('./types').DeletedResult>('history.deleted', p)
/** Writes an earlier version back as a new update (the person only). */
export const historyRestore = (p: RestoreVersionParams) => call<ItemResult>('history.restore', p)
/** Fetches, merges and pushes; a memory both machines changed comes back as a conflict copy. */
export const historySync = (p: HistorySyncParams = {}) => call<SyncResult>('history.sync', p)
/** One memory named by slug in a scope (a conflict copy's original, shown beside it in Review). */
export const readMemoryRef = (p: import('./types').RefParams) => call<ReadResult>('memory.read', p)
