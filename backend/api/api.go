// Package api is THE method table: every operation a client may call, with typed params and
// results. Wails bindings, the websocket bridge, MCP and the CLI are thin transports over it.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"engram/backend/backup"
	"engram/backend/extraction"
	"engram/backend/graph"
	"engram/backend/history"
	"engram/backend/hook"
	"engram/backend/i18n"
	"engram/backend/llm"
	"engram/backend/llm/keyring"
	"engram/backend/memory"
	"engram/backend/organizer"
	"engram/backend/recall"
	"engram/backend/settings"
	"engram/backend/vector"
)

// Deps are the services the api calls into.
type Deps struct {
	Store    *memory.Store
	Catalog  *i18n.Catalog
	Settings *settings.Service
	Events   *Hub
	Remote   Remote
	// Recall is the one ranker every search goes through; the caller builds it (wire.Open
	// does for the app), the api never makes a second one.
	Recall *recall.Service
	// Embeddings run the embedder, vector backend and background indexer; nil leaves
	// embeddings off.
	Embeddings *vector.Runtime
	Version    string
	// Organizer may be nil (its methods then answer organizer_not_running).
	Organizer *organizer.Service
	// Hook runs agent hooks (hook.claudeCode); nil answers hook_unavailable.
	Hook *hook.Service
	// SessionSummariser folds a long session's old messages into its summary (an LLM);
	// nil keeps the extractive summary.
	SessionSummariser memory.Summariser
	// OnSessionDeleted is called after sessions.delete removed a session, so state kept per
	// session elsewhere (the extraction controller's) is disposed of.
	OnSessionDeleted func(agent, id string)
	// Compactor, when Active, folds long sessions in the background: RecordTurns then records
	// without waiting for a model's summary and enqueues the session instead.
	Compactor Compactor
	// Extraction may be nil (its methods then answer extraction_not_running).
	Extraction *extraction.Service
	// LLM holds the current model client; Keys is the home's API key file. A nil LLM answers
	// llm_not_configured.
	LLM  *llm.Holder
	Keys *keyring.Ring
	// Graph answers knowledge-graph queries; nil builds one over Store.
	Graph *graph.Service
	// Backups is this process's backup scheduler (desktop, serve), woken when the schedule
	// changes; nil in one-shot processes.
	Backups *backup.Scheduler
	// History is the memory folder's git history (attached to Store by the wiring); nil
	// builds one over the store's folder.
	History *history.Repo
	// OpenPath shows a folder in the file manager (app.openFolder); nil runs xdg-open.
	OpenPath func(path string) error
}

// Compactor runs deferred session compactions (wire's background worker).
type Compactor interface {
	Active() bool
	Enqueue(agent, id string)
}

// Method is one entry of the table.
type Method struct {
	// Name is "noun.verb"; the Wails binding of it is <Noun>Service.<Verb>.
	Name string
	// ReadOnly methods change nothing; Destructive ones may remove or overwrite data.
	ReadOnly    bool
	Destructive bool
	// Params returns a pointer to a fresh params value to decode into.
	Params func() any
	// Invoke runs the method with decoded params.
	Invoke func(params any) (any, error)
}

// API binds the services for one kind of caller (actor): the desktop window and the CLI act
// as the user, the bridge as "bridge", MCP as "tool".
type API struct {
	deps  Deps
	actor string
	ctx   context.Context
	// gate holds calls back until deps exist (NewPending); lang is the language of its
	// errors while there are no settings to ask.
	gate *gate
	lang string

	App        *AppService
	Memory     *MemoryService
	Daily      *DailyService
	Quota      *QuotaService
	Index      *IndexService
	Settings   *SettingsService
	I18n       *I18nService
	Remote     *RemoteService
	Organizer  *OrganizerService
	Recall     *RecallService
	Extraction *ExtractionService
	KV         *KvService
	Sessions   *SessionsService
	Hook       *HookService
	// Integrations is Settings → Integrations (MCP snippets, connected agents).
	Integrations *IntegrationsService
	LLM          *LlmService
	Usage        *UsageService
	// Embeddings is Settings → Embeddings (key, test).
	Embeddings *EmbeddingsService
	// Profile is the person's structured profile, derived from memories.
	Profile *ProfileService
	// Graph is the knowledge graph: entities, neighbours, paths, subgraphs and edits.
	Graph *GraphService
	// AgentView is "What my agents see": the Memory Index and build_context for a chosen caller.
	AgentView *AgentViewService
	// Backup is whole-home backup and restore; Maintenance is vacuum and cleanup.
	Backup      *BackupService
	Maintenance *MaintenanceService
	// History is git history and sync of the memory folder.
	History *HistoryService

	methods []Method
	byName  map[string]*Method
}

// New builds the api for actor. ctx bounds every call (the app's lifetime).
func New(ctx context.Context, deps Deps, actor string) *API {
	if deps.Graph == nil && deps.Store != nil {
		deps.Graph = graph.New(deps.Store)
	}
	a := &API{deps: deps, actor: actor, ctx: ctx, gate: newGate()}
	a.App = &AppService{a}
	a.Memory = &MemoryService{a}
	a.Daily = &DailyService{a}
	a.Quota = &QuotaService{a}
	a.Index = &IndexService{a}
	a.Backup = &BackupService{a}
	a.Maintenance = &MaintenanceService{a}
	a.History = &HistoryService{a}
	a.Settings = &SettingsService{a}
	a.I18n = &I18nService{a}
	a.Remote = &RemoteService{a}
	a.Recall = &RecallService{a}
	a.Organizer = &OrganizerService{a}
	a.KV = &KvService{a}
	a.Sessions = &SessionsService{a}
	a.Hook = &HookService{a}
	a.Integrations = &IntegrationsService{a}
	a.Extraction = &ExtractionService{a}
	a.LLM = &LlmService{a}
	a.Usage = &UsageService{a}
	a.Embeddings = &EmbeddingsService{a}
	a.Profile = &ProfileService{a}
	a.Graph = &GraphService{a}
	a.AgentView = &AgentViewService{a}
	a.methods = a.table()
	a.byName = map[string]*Method{}
	for i := range a.methods {
		a.byName[a.methods[i].Name] = &a.methods[i]
	}
	return a
}

// Actor is who this api acts as in the audit log.
func (a *API) Actor() string { return a.actor }

// Bindings are the service objects the Wails app binds.
func (a *API) Bindings() []any {
	return []any{a.App, a.Memory, a.Daily, a.Quota, a.Index, a.Settings, a.I18n, a.Remote, a.Recall, a.Organizer, a.KV, a.Sessions, a.Hook, a.Integrations, a.Extraction, a.LLM, a.Usage, a.Embeddings, a.Profile, a.Graph, a.AgentView, a.Backup, a.Maintenance, a.History}
}

type flags struct{ readOnly, destructive bool }

var (
	ro  = flags{readOnly: true}
	rw  = flags{}
	del = flags{destructive: true}
)

func method[P, R any](name string, fn func(P) (R, error), f flags) Method {
	return Method{
		Name: name, ReadOnly: f.readOnly, Destructive: f.destructive,
		Params: func() any { return new(P) },
		Invoke: func(p any) (any, error) { return fn(*(p.(*P))) },
	}
}

// table is the one route table. The bridge allow-list, MCP and the CLI are derived from it.
func (a *API) table() []Method {
	return []Method{
		method("app.info", a.App.Info, ro),
		method("app.openFolder", a.App.OpenFolder, ro),
		method("i18n.catalog", a.I18n.Catalog, ro),
		method("settings.get", a.Settings.Get, ro),
		method("settings.update", a.Settings.Update, rw),
		method("memory.list", a.Memory.List, ro),
		method("memory.read", a.Memory.Read, ro),
		method("memory.search", a.Memory.Search, ro),
		method("memory.find", a.Memory.Find, ro),
		method("memory.history", a.Memory.History, ro),
		method("memory.problems", a.Memory.Problems, ro),
		method("memory.export", a.Memory.Export, ro),
		method("memory.write", a.Memory.Write, rw),
		method("memory.update", a.Memory.Update, del),
		method("memory.accept", a.Memory.Accept, rw),
		method("memory.reject", a.Memory.Reject, del),
		method("memory.delete", a.Memory.Delete, del),
		method("memory.archive", a.Memory.Archive, rw),
		method("memory.restore", a.Memory.Restore, rw),
		method("memory.applyBatch", a.Memory.ApplyBatch, del),
		method("memory.import", a.Memory.Import, rw),
		method("memory.importPreview", a.Memory.ImportPreview, ro),
		method("memory.project", a.Memory.Project, rw),
		method("daily.append", a.Daily.Append, rw),
		method("daily.read", a.Daily.Read, ro),
		method("daily.list", a.Daily.List, ro),
		method("daily.search", a.Daily.Search, ro),
		method("quota.summary", a.Quota.Summary, ro),
		method("quota.history", a.Quota.History, ro),
		method("index.reconcile", a.Index.Reconcile, rw),
		method("index.reindex", a.Index.Reindex, rw),
		method("index.doctor", a.Index.Doctor, ro),
		method("recall.search", a.Recall.Search, ro),
		method("recall.overview", a.Recall.Overview, ro),
		method("recall.buildContext", a.Recall.BuildContext, ro),
		method("recall.grep", a.Recall.Grep, ro),
		method("recall.tools", a.Recall.Tools, ro),
		method("recall.tool", a.Recall.Tool, del),
		method("recall.embedStatus", a.Recall.EmbedStatus, ro),
		method("remote.status", a.Remote.Status, ro),
		method("remote.regenerateToken", a.Remote.RegenerateToken, rw),
		method("organizer.status", a.Organizer.Status, ro),
		method("organizer.runs", a.Organizer.Runs, ro),
		method("organizer.run", a.Organizer.Run, ro),
		method("organizer.runNow", a.Organizer.RunNow, rw),
		method("organizer.abort", a.Organizer.Abort, rw),
		method("organizer.applyReport", a.Organizer.ApplyReport, del),
		method("organizer.undo", a.Organizer.Undo, del),
		method("organizer.settings", a.Organizer.Settings, ro),
		method("organizer.updateSettings", a.Organizer.UpdateSettings, rw),
		method("kv.get", a.KV.Get, ro),
		method("kv.list", a.KV.List, ro),
		method("kv.set", a.KV.Set, del),
		method("kv.delete", a.KV.Delete, del),
		method("sessions.list", a.Sessions.List, ro),
		method("sessions.read", a.Sessions.Read, ro),
		method("sessions.delete", a.Sessions.Delete, del),
		method("hook.claudeCode", a.Hook.ClaudeCode, rw),
		method("hook.codex", a.Hook.Codex, rw),
		method("hook.gemini", a.Hook.Gemini, rw),
		method("integrations.snippets", a.Integrations.Snippets, ro),
		method("integrations.agents", a.Integrations.Agents, ro),
		method("extraction.request", a.Extraction.Request, rw),
		method("extraction.runs", a.Extraction.Runs, ro),
		method("extraction.run", a.Extraction.Run, ro),
		method("extraction.settings", a.Extraction.Settings, ro),
		method("extraction.updateSettings", a.Extraction.UpdateSettings, rw),
		method("llm.status", a.LLM.Status, ro),
		method("llm.setKey", a.LLM.SetKey, rw),
		method("llm.test", a.LLM.Test, rw),
		method("usage.summary", a.Usage.Summary, ro),
		method("embeddings.setKey", a.Embeddings.SetKey, rw),
		method("embeddings.test", a.Embeddings.Test, rw),
		method("profile.get", a.Profile.Get, ro),
		method("graph.entities", a.Graph.Entities, ro),
		method("graph.neighbors", a.Graph.Neighbors, ro),
		method("graph.subgraph", a.Graph.Subgraph, ro),
		method("graph.path", a.Graph.Path, ro),
		method("graph.entityMemories", a.Graph.EntityMemories, ro),
		method("graph.renameEntity", a.Graph.RenameEntity, rw),
		method("graph.mergeEntities", a.Graph.MergeEntities, rw),
		method("graph.deleteEntity", a.Graph.DeleteEntity, del),
		method("graph.addRelation", a.Graph.AddRelation, rw),
		method("graph.deleteRelation", a.Graph.DeleteRelation, del),
		method("agentView.choices", a.AgentView.Choices, ro),
		method("agentView.preview", a.AgentView.Preview, ro),
		method("backup.create", a.Backup.Create, rw),
		method("backup.list", a.Backup.List, ro),
		method("backup.preview", a.Backup.Preview, ro),
		method("backup.restore", a.Backup.Restore, del),
		method("backup.schedule", a.Backup.Schedule, ro),
		method("backup.updateSchedule", a.Backup.UpdateSchedule, rw),
		method("maintenance.vacuum", a.Maintenance.Vacuum, rw),
		method("maintenance.cleanup", a.Maintenance.Cleanup, del),
		method("history.status", a.History.Status, ro),
		method("history.enable", a.History.Enable, rw),
		method("history.disable", a.History.Disable, rw),
		method("history.versions", a.History.Versions, ro),
		method("history.deleted", a.History.Deleted, ro),
		method("history.restore", a.History.Restore, rw),
		method("history.sync", a.History.Sync, rw),
	}
}

// Methods lists the table, sorted by name.
func (a *API) Methods() []Method {
	out := append([]Method{}, a.methods...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the method called name.
func (a *API) Lookup(name string) (*Method, bool) {
	m, ok := a.byName[name]
	return m, ok
}

// Call decodes raw params strictly (unknown fields are refused) and invokes the method.
func (a *API) Call(name string, raw json.RawMessage) (any, error) {
	m, ok := a.byName[name]
	if !ok {
		return nil, a.newError(CodeUnknownMethod, map[string]any{"Method": name})
	}
	p := m.Params()
	if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(p); err != nil {
			return nil, a.newError(CodeInvalidParams, map[string]any{"Method": name, "Detail": cleanDecodeError(err)})
		}
	}
	res, err := m.Invoke(p)
	if err != nil {
		return nil, a.fail(err)
	}
	return res, nil
}

// Invoke runs the method called name with params the transport built itself (the CLI from
// its flags): a pointer of the type Method.Params makes. Errors come back translated, as
// from Call.
func (a *API) Invoke(name string, params any) (any, error) {
	m, ok := a.byName[name]
	if !ok {
		return nil, a.newError(CodeUnknownMethod, map[string]any{"Method": name})
	}
	if want := m.Params(); reflect.TypeOf(params) != reflect.TypeOf(want) {
		return nil, a.fail(fmt.Errorf("api: %s takes %T, not %T", name, want, params))
	}
	res, err := m.Invoke(params)
	if err != nil {
		return nil, a.fail(err)
	}
	return res, nil
}

func cleanDecodeError(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "json: ")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// Empty is the params of methods that take none.
type Empty struct{}

// AppService answers questions about the running app.
type AppService struct{ a *API }

// AppInfo describes the running app.
type AppInfo struct {
	Version       string   `json:"version"`
	Home          string   `json:"home"`
	Language      string   `json:"language"`
	Languages     []string `json:"languages"`
	SchemaVersion int      `json:"schema_version"`
	Actor         string   `json:"actor"`
	// ReadOnly is set when the home cannot be written: reads work, changes are refused.
	ReadOnly bool `json:"read_only"`
	// Repaired is the repair of a damaged index this process made, translated, to tell the person.
	Repaired *memory.Recovery `json:"repaired,omitempty"`
}

// Info returns the version, the home folder and the current language.
func (s *AppService) Info(_ Empty) (AppInfo, error) {
	if err := s.a.Wait(); err != nil {
		return AppInfo{}, err
	}
	info := AppInfo{Version: s.a.deps.Version, Home: s.a.deps.Store.Home(), Language: s.a.language(),
		Languages: i18n.Languages, SchemaVersion: memory.SchemaVersion(), Actor: s.a.actor,
		ReadOnly: s.a.deps.Store.ReadOnly(), Repaired: s.a.deps.Store.RepairedHere()}
	if info.Repaired != nil {
		s.a.translateRecovery(info.Repaired)
	}
	return info, nil
}

// I18nService hands the message catalog to clients.
type I18nService struct{ a *API }

// CatalogParams selects a language.
type CatalogParams struct {
	Lang string `json:"lang"`
}

// CatalogResult is one language's flat key → template map.
type CatalogResult struct {
	Lang     string            `json:"lang"`
	Messages map[string]string `json:"messages"`
}

// Catalog returns the messages of one language.
func (s *I18nService) Catalog(p CatalogParams) (CatalogResult, error) {
	if err := s.a.Wait(); err != nil {
		return CatalogResult{}, err
	}
	lang := i18n.Normalize(p.Lang)
	if s.a.deps.Catalog == nil {
		return CatalogResult{}, s.a.fail(fmt.Errorf("api: no catalog loaded"))
	}
	return CatalogResult{Lang: lang, Messages: s.a.deps.Catalog.Messages(lang)}, nil
}

// SettingsService reads and changes settings.
type SettingsService struct{ a *API }

// Get returns the settings.
func (s *SettingsService) Get(_ Empty) (settings.Settings, error) {
	if err := s.a.Wait(); err != nil {
		return settings.Settings{}, err
	}
	st, err := s.a.deps.Settings.Get(s.a.ctx)
	return st, s.a.fail(err)
}

// Update applies a patch and returns the new settings. The embeddings part is the person's
// alone: a model-facing caller (MCP) could otherwise route every memory to an endpoint of its
// choosing.
func (s *SettingsService) Update(p settings.Patch) (settings.Settings, error) {
	if err := s.a.Wait(); err != nil {
		return settings.Settings{}, err
	}
	if p.Embeddings != nil && s.a.actor != ActorUser && s.a.actor != ActorBridge {
		return settings.Settings{}, s.a.newError(CodeEmbeddingsPersonOnly, nil)
	}
	if err := s.a.settingsSecret(p); err != nil {
		return settings.Settings{}, err
	}
	st, err := s.a.deps.Settings.Update(s.a.ctx, p)
	return st, s.a.fail(err)
}
