package main

import (
	"encoding/json"
	"reflect"

	"engram/backend/api"
	"engram/backend/backup"
	"engram/backend/extraction"
	"engram/backend/graph"
	"engram/backend/history"
	"engram/backend/memory"
	"engram/backend/organizer"
	"engram/backend/recall"
	"engram/backend/settings"
	"engram/backend/vector"
)

// entry is one interface to write: its TypeScript name, the Go struct whose JSON it describes,
// and a comment.
type entry struct {
	name string
	typ  reflect.Type
	doc  string
	// extends names a generated interface whose fields this struct also carries, so that the
	// UI may use one where the other is expected.
	extends string
}

func t[T any]() reflect.Type { return reflect.TypeOf((*T)(nil)).Elem() }

// section is a commented group of entries.
type section struct {
	title   string
	entries []entry
}

// sections are the generated interfaces, in file order.
var sections = []section{
	{"app and memories (backend/api, backend/memory)", []entry{
		{"AppInfo", t[api.AppInfo](), "", ""},
		{"MemorySummary", t[api.Summary](), "A memory as lists and search show it.", ""},
		{"MemorySource", t[memory.Source](), "Where a memory came from.", ""},
		{"Memory", t[memory.Memory](), "One memory: its frontmatter, body and file.", "MemorySummary"},
		{"ListParams", t[api.ListParams](), "", ""},
		{"ListResult", t[api.ListResult](), "", ""},
		{"RefParams", t[api.RefParams](), "Names one memory by id, or by slug in a scope.", ""},
		{"RejectParams", t[api.RejectParams](), "A person's reject, with an optional reason kept in the audit log.", ""},
		{"RiskFlag", t[memory.Risk](), "Why a memory reads like an instruction to the agent (prompt injection).", ""},
		{"BatchItem", t[memory.Item](), "One apply_batch operation (memory.applyBatch).", ""},
		{"BatchParams", t[api.BatchParams](), "", ""},
		{"BatchResult", t[api.BatchResult](), "", ""},
		{"ReadResult", t[api.ReadResult](), "", ""},
		{"SearchParams", t[api.SearchParams](), "", ""},
		{"SearchHit", t[api.SearchHit](), "", ""},
		{"SearchResult", t[api.SearchResult](), "", ""},
		{"FindParams", t[api.FindParams](), "The list's search as you type (memory.find).", ""},
		{"FindResult", t[api.FindResult](), "", ""},
		{"WriteParams", t[api.WriteParams](), "", ""},
		{"UpdateParams", t[api.UpdateParams](), "", ""},
		{"Warning", t[api.Warning](), "A non-fatal note on an item (i18n key warning.<code>).", ""},
		{"ItemResult", t[api.ItemResult](), "", ""},
		{"ScopeQuota", t[memory.ScopeQuota](), "", ""},
		{"QuotaSummary", t[memory.QuotaSummary](), "", ""},
		{"RemoteClient", t[api.RemoteClient](), "One browser (or other client) connected through the bridge.", ""},
		{"RemoteStatus", t[api.RemoteStatus](), "State of remote access (the localhost bridge).", ""},
	}},
	{"files, audit, index", []entry{
		{"Problem", t[memory.Problem](), "A file that could not be indexed; it is left untouched on disk (memory.problems).", ""},
		{"ProblemsResult", t[api.ProblemsResult](), "", ""},
		{"AuditEntry", t[memory.AuditEntry](), "One row of the audit log, newest first (memory.history).", ""},
		{"HistoryParams", t[api.HistoryParams](), "", ""},
		{"HistoryResult", t[api.HistoryResult](), "", ""},
		{"ReconcileReport", t[memory.ReconcileReport](), "", ""},
		{"ChecksumPass", t[memory.ChecksumPass](), "Doctor's re-hash of every indexed file against the index.", ""},
		{"HeaderDisagreement", t[memory.HeaderDisagreement](), "A memory file whose header names another type, slug or scope than its place.", ""},
		{"TempFiles", t[memory.TempFiles](), "Temp files interrupted writes left behind, removed at open or by doctor.", ""},
		{"SalvagedTable", t[memory.SalvagedTable](), "What a repair kept of one table the files cannot rebuild.", ""},
		{"Recovery", t[memory.Recovery](), "The last repair of a damaged index.", ""},
		{"Orphans", t[memory.Orphans](), "Index rows pointing at memories that are gone (engram vacuum removes them).", ""},
		{"StuckRuns", t[memory.StuckRuns](), "Runs still running after an hour.", ""},
		{"DoctorFinding", t[memory.Finding](), "One doctor finding, translated, with the engram command that fixes it.", ""},
		{"DoctorReport", t[memory.DoctorReport](), "", ""},
	}},
	{"per-agent key-value namespaces (kv.*)", []entry{
		{"KVKeyParams", t[api.KVKeyParams](), "Names one key of one agent's namespace (kv.get, kv.delete).", ""},
		{"KVSetParams", t[api.KVSetParams](), "", ""},
		{"KVListParams", t[api.KVListParams](), "", ""},
		{"KVEntry", t[api.KVEntry](), "One key and its JSON value.", ""},
		{"KVGetResult", t[api.KVGetResult](), "", ""},
		{"KVSetResult", t[api.KVSetResult](), "", ""},
		{"KVDeleteResult", t[api.KVDeleteResult](), "", ""},
		{"KVListResult", t[api.KVListResult](), "One page of keys, sorted; next_cursor reads the next.", ""},
	}},
	{"organizer (backend/organizer)", []entry{
		{"OrganizerSettings", t[organizer.Settings](), "", ""},
		{"OrganizerProgress", t[organizer.Progress](), "One organizer.progress event: where a run stands.", ""},
		{"RunError", t[organizer.RunError](), "A coded failure recorded in a run (i18n key error.<code>).", ""},
		{"RunCounts", t[organizer.Counts](), "", ""},
		{"RunSummary", t[organizer.RunSummary](), "", ""},
		{"EntryRef", t[organizer.EntryRef](), "A memory as the run saw it at scan time.", ""},
		{"DecisionReason", t[organizer.Reason](), "", ""},
		{"DecisionResult", t[organizer.DecisionResult](), "", ""},
		{"Preserved", t[organizer.Preserved](), "", ""},
		{"Decision", t[organizer.Decision](), "", ""},
		{"ClusterReport", t[organizer.ClusterReport](), "", ""},
		{"ScopeScan", t[organizer.ScopeScan](), "", ""},
		{"ScopeClustering", t[organizer.ScopeClustering](), "How one scope instance was split when a topic clusterer (the model) was configured.", ""},
		{"PhaseUsage", t[organizer.Usage](), "Tokens the model calls of one phase used.", ""},
		{"ScopeInstance", t[organizer.ScopeInstance](), "One scope instance (a run limited to it, the quota banner's button).", ""},
		{"RunReport", t[organizer.Report](), "", ""},
		{"RunDetail", t[organizer.RunDetail](), "", ""},
		{"OrganizerStatus", t[organizer.StatusResult](), "", ""},
		{"RunsParams", t[organizer.RunsParams](), "", ""},
		{"RunsResult", t[organizer.RunsResult](), "", ""},
		{"RunRef", t[organizer.RunRef](), "A run and where it stands after runNow / abort.", ""},
		{"RunNowParams", t[organizer.RunNowParams](), "", ""},
		{"ApplyReportParams", t[organizer.ApplyParams](), "", ""},
		{"DecisionApplyOutcome", t[organizer.DecisionOutcome](), "", ""},
		{"ApplyReportResult", t[organizer.ApplyResult](), "", ""},
	}},
	{"sessions (backend/memory sessions, api sessions.*)", []entry{
		{"AgentSession", t[memory.Session](), "One conversation an agent fed extraction.", ""},
		{"AgentSessionTurn", t[memory.SessionTurn](), "One stored message of a session.", ""},
		{"SessionListParams", t[api.SessionListParams](), "", ""},
		{"SessionList", t[api.SessionList](), "", ""},
		{"SessionRef", t[api.SessionRef](), "Names a session; agent only when two agents share the id.", ""},
		{"SessionDetail", t[api.SessionDetail](), "", ""},
		{"SessionDeleted", t[api.SessionDeleted](), "", ""},
	}},
	{"integrations (MCP)", []entry{
		{"Snippets", t[api.Snippets](), "Configuration that connects each kind of MCP client, with the binary's real path.", ""},
		{"ConnectedAgent", t[api.ConnectedAgent](), "One agent that called the MCP server (integrations.agents).", ""},
		{"AgentsParams", t[api.AgentsParams](), "", ""},
		{"AgentsResult", t[api.AgentsResult](), "", ""},
	}},
	{"extraction (backend/extraction)", []entry{
		{"ExtractionMessage", t[extraction.Message](), "", ""},
		{"ExtractionMutation", t[extraction.Mutation](), "A file change the agent made during the turn.", ""},
		{"ExtractionRequest", t[extraction.Request](), "One turn to learn from.", ""},
		{"ExtractionRequestParams", t[api.ExtractionRequestParams](), "", ""},
		{"ExtractionSettings", t[extraction.Settings](), "", ""},
		{"ExtractionStatusEvent", t[extraction.StatusEvent](), "One extraction.status event: a run started, waits or ended.", ""},
		{"ExtractionWarning", t[extraction.Warning](), "A note on an applied item (extraction.code.<code> or warning.<code>).", ""},
		{"ExtractionAppliedItem", t[extraction.AppliedItem](), "", ""},
		{"ExtractionRejectedItem", t[extraction.RejectedItem](), "A refused plan item (extraction.code.<code> or error.<code>).", ""},
		{"ExtractionProfileSignal", t[extraction.ProfileSignal](), "", ""},
		{"ExtractionReport", t[extraction.Report](), "", ""},
		{"ExtractionRunSummary", t[extraction.RunSummary](), "", ""},
		{"ExtractionRun", t[extraction.RunDetail](), "A run with its report (Activity).", ""},
		{"ExtractionRunsParams", t[extraction.RunsParams](), "", ""},
		{"ExtractionRunsResult", t[extraction.RunsResult](), "", ""},
		{"ExtractionRunParams", t[api.ExtractionRunParams](), "", ""},
	}},
	{"language model and usage (backend/llm, backend/api/llm.go)", []entry{
		{"LLMSettings", t[settings.LLM](), "Settings → LLM (the key is not a setting).", ""},
		{"LLMSettingsPatch", t[settings.LLMPatch](), "", ""},
		{"LLMStatus", t[api.LLMStatus](), "The configured model; key_set says whether a key is filed, never the key.", ""},
		{"SetKeyParams", t[api.SetKeyParams](), "", ""},
		{"LLMTestResult", t[api.LLMTestResult](), "", ""},
		{"UsageParams", t[api.UsageParams](), "", ""},
		{"UsageGroup", t[memory.UsageGroup](), "Calls, tokens and cost sharing one key (purpose, model or day).", ""},
		{"UsageSummary", t[memory.UsageSummary](), "", ""},
	}},
	{"embeddings (backend/embed, backend/vector, backend/api/embeddings.go)", []entry{
		{"EmbeddingsSettings", t[settings.Embeddings](), "Settings → Embeddings (the key is not a setting).", ""},
		{"EmbeddingsSettingsPatch", t[settings.EmbeddingsPatch](), "", ""},
		{"EmbeddingProgress", t[vector.Progress](), "How far the background (re-)embedding is for model (event embedding.progress).", ""},
		{"EmbeddingStatus", t[api.EmbeddingStatus](), "What runs now and the saved choice; key_set says whether a key is filed, never the key.", ""},
		{"SetEmbeddingsKeyParams", t[api.SetEmbeddingsKeyParams](), "", ""},
		{"EmbeddingsTestResult", t[api.EmbeddingsTestResult](), "", ""},
	}},
	{"profile (backend/extraction/profile_view.go)", []entry{
		{"ProfileEntry", t[extraction.ProfileEntry](), "One thing the profile says, with the memory that says it.", ""},
		{"ProfileExperience", t[extraction.Experience](), "An experience memory read as pain → solution → outcome.", ""},
		{"Profile", t[extraction.Profile](), "The person's profile, derived from the memories (profile.get).", ""},
	}},
	{"the knowledge graph (graph.*)", []entry{
		{"GraphScope", t[api.GraphScope](), "Scope arguments of every graph method.", ""},
		{"GraphEntity", t[graph.Entity](), "One entity: a name in one scope instance, with its memories and relations counted.", ""},
		{"GraphMemoryRef", t[graph.MemoryRef](), "A memory behind a node or an edge.", ""},
		{"GraphEdge", t[graph.Edge](), "A typed relation with the memories that state it.", ""},
		{"GraphSubgraph", t[graph.Subgraph](), "", ""},
		{"GraphHop", t[graph.Hop](), "", ""},
		{"GraphPath", t[graph.Path](), "", ""},
		{"GraphEntitiesParams", t[api.GraphEntitiesParams](), "", ""},
		{"GraphEntitiesResult", t[api.GraphEntitiesResult](), "", ""},
		{"GraphNeighborsParams", t[api.GraphNeighborsParams](), "", ""},
		{"GraphSubgraphParams", t[api.GraphSubgraphParams](), "", ""},
		{"GraphPathParams", t[api.GraphPathParams](), "", ""},
		{"GraphEntityParams", t[api.GraphEntityParams](), "", ""},
		{"GraphMemoriesResult", t[api.GraphMemoriesResult](), "", ""},
		{"GraphRenameParams", t[api.GraphRenameParams](), "", ""},
		{"GraphMergeParams", t[api.GraphMergeParams](), "", ""},
		{"GraphAddRelationParams", t[api.GraphAddRelationParams](), "", ""},
		{"GraphDeleteRelationParams", t[api.GraphDeleteRelationParams](), "", ""},
		{"GraphEditResult", t[api.GraphEditResult](), "", ""},
	}},
	{"storage and data (Settings → Storage / Data, backend/api/data.go)", []entry{
		{"StorageSample", t[memory.StorageSample](), "The store's size on one local day.", ""},
		{"StorageHistoryParams", t[api.StorageHistoryParams](), "", ""},
		{"StorageHistoryResult", t[api.StorageHistoryResult](), "", ""},
		{"ImportParams", t[api.ImportParams](), "", ""},
		{"ImportLineError", t[api.ImportLineError](), "One refused import line, translated.", ""},
		{"ImportResult", t[api.ImportResult](), "", ""},
		{"ImportPreviewParams", t[api.ImportPreviewParams](), "", ""},
		{"ImportScopeImpact", t[memory.ImportScopeImpact](), "What an import would do to one scope instance's quota.", ""},
		{"ImportConflict", t[memory.ImportConflict](), "A line naming a memory the store holds with other content.", ""},
		{"ImportPreviewResult", t[api.ImportPreviewResult](), "What memory.import would do with the same JSONL; nothing applied.", ""},
		{"ExportParams", t[api.ExportParams](), "", ""},
		{"FolderExport", t[memory.FolderExport](), "A Markdown folder export: where, and what was written.", ""},
		{"ExportResult", t[api.ExportResult](), "", ""},
		{"OpenFolderResult", t[api.OpenFolderResult](), "", ""},
		{"IndexProgress", t[api.IndexProgress](), "One index.progress event while reindex or doctor runs.", ""},
		{"BackupFile", t[backup.File](), "One archived file and its SHA-256.", ""},
		{"BackupManifest", t[backup.Manifest](), "What a backup holds; every entry is checked against it before a restore.", ""},
		{"BackupResult", t[backup.Result](), "", ""},
		{"BackupEntry", t[backup.Entry](), "One backup in the home's backups folder.", ""},
		{"BackupSchedule", t[backup.Schedule](), "Scheduled backups: every interval_hours (0 off), keeping the newest keep.", ""},
		{"BackupListResult", t[api.BackupListResult](), "", ""},
		{"BackupCreateParams", t[api.BackupCreateParams](), "", ""},
		{"BackupPathParams", t[api.BackupPathParams](), "", ""},
		{"BackupRestoreParams", t[api.BackupRestoreParams](), "", ""},
		{"BackupRestoreResult", t[backup.RestoreResult](), "", ""},
		{"VacuumReport", t[memory.VacuumReport](), "", ""},
		{"CleanupParams", t[api.CleanupParams](), "", ""},
		{"CleanupItem", t[memory.CleanupItem](), "", ""},
		{"CleanupReport", t[memory.CleanupReport](), "", ""},
		{"HistoryStatus", t[api.HistoryStatus](), "Git history of the memory folder: on or off, head, commits, the sync remote.", ""},
		{"VersionsParams", t[api.VersionsParams](), "", ""},
		{"MemoryVersion", t[history.Version](), "One version of a memory in git, with the unified diff from the version before.", ""},
		{"VersionsResult", t[api.VersionsResult](), "A memory's versions, newest first; enabled is false while git history is off.", ""},
		{"RestoreVersionParams", t[api.RestoreVersionParams](), "", ""},
		{"HistorySyncParams", t[api.HistorySyncParams](), "", ""},
		{"SyncConflict", t[history.Conflict](), "A memory both machines changed: ours stays, theirs became copy (unreviewed).", ""},
		{"SyncResult", t[history.SyncResult](), "", ""},
	}},
	{"journal (daily.*) and what my agents see (agentView.*)", []entry{
		{"AppendParams", t[api.AppendParams](), "", ""},
		{"DayParams", t[api.DayParams](), "", ""},
		{"DayEntry", t[api.DayEntry](), "One journal entry and who wrote it (author_kind person | agent | extractor | other).", ""},
		{"DayResult", t[api.DayResult](), "One journal day; memory is null for a day without entries.", ""},
		{"DayListParams", t[api.DayListParams](), "", ""},
		{"DaySummary", t[api.DaySummary](), "", ""},
		{"DayListResult", t[api.DayListResult](), "", ""},
		{"DaySearchParams", t[api.DaySearchParams](), "", ""},
		{"DayHit", t[api.DayHit](), "", ""},
		{"DaySearchResult", t[api.DaySearchResult](), "", ""},
		{"AgentChoices", t[api.AgentChoices](), "", ""},
		{"AgentPreviewParams", t[api.AgentPreviewParams](), "", ""},
		{"RecallWarning", t[recall.Warning](), "A non-fatal note on a recall result (warning.<code>).", ""},
		{"ContextEntry", t[recall.ContextEntry](), "", ""},
		{"ContextResult", t[recall.ContextResult](), "The build_context block and its token estimate.", ""},
		{"AgentPreview", t[api.AgentPreview](), "The Memory Index and build_context block a chosen caller receives.", ""},
	}},
}

// named maps Go types to the hand-written TypeScript types (types.manual.ts) they encode as.
var named = map[reflect.Type]string{
	t[memory.Scope]():             "Scope",
	t[memory.Type]():              "MemoryType",
	t[memory.Confidence]():        "Confidence",
	t[organizer.Mode]():           "OrganizerMode",
	t[organizer.Trigger]():        "OrganizerTrigger",
	t[organizer.Status]():         "RunStatus",
	t[organizer.Phase]():          "RunPhase | ''",
	t[organizer.Action]():         "DecisionAction",
	t[organizer.Risk]():           "Risk",
	t[organizer.Tier]():           "Tier | ''",
	t[organizer.Outcome]():        "DecisionOutcome",
	t[organizer.DecisionStatus](): "DecisionStatus",
	t[api.Error]():                "ErrorPayload",
	t[json.RawMessage]():          "unknown",
}

// fields overrides what a field's Go type cannot say: a string that holds one of a union's
// values, a slice or pointer the api never leaves nil, a parameter the UI may leave out. The key
// is "<TS interface>.<json name>"; the value replaces the rendered ": type" part, with a leading
// "?" to make the field optional.
var fields = map[string]string{
	"AppInfo.language":  "Language",
	"ListResult.items":  "MemorySummary[]",
	"ReadResult.memory": "Memory",
	"SearchResult.hits": "SearchHit[]",
	"WriteParams.type":  "WritableType",
	"UpdateParams.mode": "?'merge' | 'replace'",
	"UpdateParams.type": "?WritableType",
	"ScopeQuota.level":  "QuotaLevel",
	// Settings → Storage / Data: the api never leaves these nil.
	"StorageHistoryResult.samples":       "StorageSample[]",
	"BackupListResult.backups":           "BackupEntry[]",
	"CleanupReport.items":                "CleanupItem[]",
	"DoctorReport.findings":              "DoctorFinding[]",
	"ImportResult.errors":                "ImportLineError[]",
	"ImportPreviewResult.scopes":         "ImportScopeImpact[]",
	"ImportPreviewResult.conflict_lines": "ImportConflict[]",
	"ImportPreviewResult.errors":         "ImportLineError[]",
	"QuotaSummary.level":                 "QuotaLevel",
	"AuditEntry.detail":                  "Record<string, unknown> | null",
	"HistoryParams.id":                   "?string",
	"KVListResult.entries":               "KVEntry[]",
	"ApplyReportParams.decision_ids":     "string[]",
	"ScopeScan.level":                    "QuotaLevel",
	"RunReport.quota_level":              "QuotaLevel",
	// A run known only from a RunRef is shown as a stub without counts (util/organizer.ts).
	"RunSummary.counts":     "?RunCounts | null",
	"SessionList.sessions":  "AgentSession[]",
	"SessionDetail.turns":   "AgentSessionTurn[]",
	"AgentSessionTurn.role": "'user' | 'assistant'",
	// The api never leaves these lists nil.
	"ExtractionReport.applied":               "ExtractionAppliedItem[]",
	"ExtractionReport.rejected":              "ExtractionRejectedItem[]",
	"ExtractionRunsResult.runs":              "ExtractionRun[]",
	"ExtractionSettings.agents":              "string[]",
	"ExtractionRequest.messages":             "ExtractionMessage[]",
	"ExtractionRunSummary.status":            "ExtractionStatus",
	"ExtractionStatusEvent.status":           "ExtractionStatus",
	"LLMSettings.provider":                   "LLMProvider",
	"LLMSettingsPatch.provider":              "?LLMProvider",
	"LLMStatus.provider":                     "LLMProvider",
	"UsageSummary.by_purpose":                "UsageGroup[]",
	"Profile.role":                           "ProfileEntry[]",
	"DayResult.entries":                      "DayEntry[]",
	"DayListResult.days":                     "DaySummary[]",
	"DaySearchResult.days":                   "DayHit[]",
	"AgentChoices.agents":                    "string[]",
	"AgentChoices.workdirs":                  "string[]",
	"ContextResult.entries":                  "ContextEntry[]",
	"Profile.industry":                       "ProfileEntry[]",
	"Profile.communication_style":            "ProfileEntry[]",
	"Profile.recent_topics":                  "ProfileEntry[]",
	"Profile.pain_points":                    "ProfileEntry[]",
	"Profile.preferred_tools":                "ProfileEntry[]",
	"Profile.about":                          "ProfileEntry[]",
	"Profile.experiences":                    "ProfileExperience[]",
	"EmbeddingsSettings.provider":            "EmbeddingsProvider",
	"EmbeddingsSettings.vector_backend":      "VectorBackend",
	"EmbeddingsSettingsPatch.provider":       "?EmbeddingsProvider",
	"EmbeddingsSettingsPatch.vector_backend": "?VectorBackend",
	"EmbeddingStatus.provider":               "'local' | 'openai' | 'off'",
	"EmbeddingStatus.backend":                "'sqlite' | 'http' | ''",
	"UsageSummary.by_model":                  "UsageGroup[]",
	"UsageSummary.by_day":                    "UsageGroup[]",
}

// aliases are written after the interfaces.
var aliases = []string{
	"export type OrganizerSettingsPatch = Partial<OrganizerSettings>",
	"export type ExtractionSettingsPatch = Partial<ExtractionSettings>",
	"export type ExtractionStatus = 'queued' | 'running' | 'done' | 'partial' | 'noop' | 'skipped' | 'failed'",
	"export type LLMProvider = '' | 'openai' | 'anthropic'",
	"export type EmbeddingsProvider = '' | 'local' | 'openai' | 'off'",
	"export type VectorBackend = '' | 'sqlite' | 'http'",
}
