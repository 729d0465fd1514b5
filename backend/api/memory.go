package api

import (
	"bytes"
	"strings"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/wikilink"
)

// MemoryService is list/read/search and every mutation of memories.
type MemoryService struct{ a *API }

// Summary is a memory without its body, for lists.
type Summary struct {
	ID             string            `json:"id"`
	Slug           string            `json:"slug"`
	Title          string            `json:"title"`
	Scope          memory.Scope      `json:"scope"`
	Workdir        string            `json:"workdir,omitempty"`
	Agent          string            `json:"agent,omitempty"`
	Type           memory.Type       `json:"type"`
	Confidence     memory.Confidence `json:"confidence"`
	AutoDowngraded bool              `json:"auto_downgraded"`
	Reviewed       bool              `json:"reviewed"`
	Archived       bool              `json:"archived"`
	Tags           []string          `json:"tags"`
	Created        time.Time         `json:"created"`
	Updated        time.Time         `json:"updated"`
	Version        string            `json:"version"`
	Snippet        string            `json:"snippet,omitempty"`
	// Risky is set when the title or body reads like an instruction to the agent (prompt
	// injection): the UI flags it and no bulk action may accept it.
	Risky *memory.Risk `json:"risky,omitempty"`
}

func summarize(m *memory.Memory) Summary {
	tags := m.Tags
	if tags == nil {
		tags = []string{}
	}
	return Summary{ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope, Workdir: m.Workdir, Agent: m.Agent,
		Type: m.Type, Confidence: m.Confidence, AutoDowngraded: m.AutoDowngraded, Reviewed: m.Reviewed,
		Archived: m.Archived, Tags: tags, Created: m.Created, Updated: m.Updated, Version: m.Version,
		Snippet: memory.PlainSnippet(m.Body, "", 160), Risky: memory.RiskOfMemory(m)}
}

// ListParams filter a listing.
type ListParams struct {
	Scope    memory.Scope `json:"scope,omitempty"`
	Workdir  string       `json:"workdir,omitempty"`
	Agent    string       `json:"agent,omitempty"`
	Type     memory.Type  `json:"type,omitempty"`
	Reviewed *bool        `json:"reviewed,omitempty"`
	Archived bool         `json:"archived,omitempty"`
	Limit    int          `json:"limit,omitempty"`
	Offset   int          `json:"offset,omitempty"`
	// Order "oldest" lists the oldest created first (the Review queue); otherwise the most
	// recently updated come first.
	Order string `json:"order,omitempty"`
}

// ListResult is one page of summaries and the total count.
type ListResult struct {
	Items []Summary `json:"items"`
	Total int       `json:"total"`
}

func (p ListParams) filter() memory.Filter {
	limit := p.Limit
	if limit <= 0 || limit > 1000 {
		limit = 200
	}
	// Journal days have their own view (daily.*): a listing shows them only when asked for
	// type daily, or for what waits for review — a day a risky entry or a hand-written file
	// left unreviewed waits for the person's accept, and the Review queue (and its count) is
	// where the person sees it: left out, no screen of the app ever showed it.
	unreviewed := p.Reviewed != nil && !*p.Reviewed
	return memory.Filter{Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent, Type: p.Type, Reviewed: p.Reviewed,
		Archived: p.Archived, Oldest: p.Order == "oldest", NoDaily: p.Type == "" && !unreviewed, Limit: limit, Offset: max(p.Offset, 0)}
}

// checkWorkdir refuses project-scope calls that do not say which project.
func (a *API) checkWorkdir(scope memory.Scope, workdir string) error {
	return a.checkScope(scope, workdir, "x")
}

// checkScope refuses scope-instance calls that do not say which instance: a project call
// without its workdir, an agent call without the agent, would otherwise reach every one.
func (a *API) checkScope(scope memory.Scope, workdir, agent string) error {
	if scope == memory.ScopeProject && strings.TrimSpace(workdir) == "" {
		return a.newError(CodeWorkdirMissing, nil)
	}
	if scope == memory.ScopeAgent && strings.TrimSpace(agent) == "" {
		return a.newError(CodeAgentMissing, nil)
	}
	return nil
}

// List returns memories, newest first.
func (s *MemoryService) List(p ListParams) (ListResult, error) {
	if err := s.a.Wait(); err != nil {
		return ListResult{}, err
	}
	if err := s.a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
		return ListResult{}, err
	}
	items, total, err := s.a.deps.Store.List(s.a.ctx, p.filter())
	if err != nil {
		return ListResult{}, s.a.fail(err)
	}
	out := ListResult{Items: make([]Summary, 0, len(items)), Total: total}
	for _, m := range items {
		out.Items = append(out.Items, summarize(m))
	}
	return out, nil
}

// RefParams name one memory: by id, or by slug within a scope instance.
type RefParams struct {
	ID              string       `json:"id,omitempty"`
	Slug            string       `json:"slug,omitempty"`
	Scope           memory.Scope `json:"scope,omitempty"`
	Workdir         string       `json:"workdir,omitempty"`
	Agent           string       `json:"agent,omitempty"`
	ExpectedVersion string       `json:"expected_version,omitempty"`
}

// ScopeNamed is the scope instance the fields name for one memory: scope when given, else an
// agent alone names agent scope and a folder alone project scope, else global (`show --agent
// bot SLUG` and relate looked for a slug among global memories). The CLI writes by it too.
func ScopeNamed(scope memory.Scope, workdir, agent string) memory.Scope {
	workdir, agent = strings.TrimSpace(workdir), strings.TrimSpace(agent)
	switch {
	case scope != "":
		return scope
	case agent != "" && workdir == "":
		return memory.ScopeAgent
	case workdir != "" && agent == "":
		return memory.ScopeProject
	}
	return memory.ScopeGlobal
}

func (a *API) resolve(p RefParams) (*memory.Memory, error) {
	if p.ID != "" {
		return a.getInScope(p)
	}
	if p.Slug == "" {
		return nil, a.newError(CodeInvalidParams, map[string]any{"Method": "memory", "Detail": "id or slug is required"})
	}
	scope := ScopeNamed(p.Scope, p.Workdir, p.Agent)
	if err := a.checkScope(scope, p.Workdir, p.Agent); err != nil {
		return nil, err
	}
	return a.deps.Store.GetBySlug(a.ctx, scope, p.Workdir, p.Agent, p.Slug)
}

// getInScope reads a memory by id within the scope fields sent with it, as memory.list reads
// them: a scope (with its workdir or agent) selects that instance; a workdir or agent alone
// selects what a caller there sees (global, that project, that agent). An id outside is
// not_found, the same answer as an id that does not exist, so an id leaks nothing. With no
// scope field the call is unscoped, like an unscoped list.
func (a *API) getInScope(p RefParams) (*memory.Memory, error) {
	m, err := a.deps.Store.Get(a.ctx, p.ID)
	if err != nil || (p.Scope == "" && strings.TrimSpace(p.Workdir) == "" && strings.TrimSpace(p.Agent) == "") {
		return m, err
	}
	if err := a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
		return nil, err
	}
	f := memory.Filter{Scope: p.Scope, Workdir: strings.TrimSpace(p.Workdir), Agent: strings.TrimSpace(p.Agent), Archived: m.Archived}
	match, err := f.Matcher(a.deps.Store.Projects())
	if err != nil {
		return nil, err
	}
	if !match.Allows(m.Scope, m.ScopeKey(), m.Type, m.Archived, m.Reviewed) {
		return nil, &memory.Error{Code: memory.CodeNotFound, Args: map[string]any{"Ref": p.ID}, Msg: "no memory with id " + p.ID}
	}
	return m, nil
}

// ReadResult is a memory with its body rendered to HTML.
type ReadResult struct {
	Memory  *memory.Memory `json:"memory"`
	HTML    string         `json:"html"`
	Version string         `json:"version"`
	// Risky flags text that reads like an instruction to the agent (see Summary.Risky).
	Risky *memory.Risk `json:"risky,omitempty"`
}

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM, wikilink.Extension))

// RenderMarkdown renders a body to HTML; raw HTML in the body is escaped, never passed on.
func RenderMarkdown(body string) string {
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(body), &buf); err != nil {
		return ""
	}
	return buf.String()
}

// Read returns one memory with rendered HTML.
func (s *MemoryService) Read(p RefParams) (ReadResult, error) {
	if err := s.a.Wait(); err != nil {
		return ReadResult{}, err
	}
	m, err := s.a.resolve(p)
	if err != nil {
		return ReadResult{}, s.a.fail(err)
	}
	return ReadResult{Memory: m, HTML: s.a.renderLinked(m), Version: m.Version, Risky: memory.RiskOfMemory(m)}, nil
}

// SearchParams is a ranked search.
type SearchParams struct {
	Query   string       `json:"query"`
	Scope   memory.Scope `json:"scope,omitempty"`
	Workdir string       `json:"workdir,omitempty"`
	Agent   string       `json:"agent,omitempty"`
	Type    memory.Type  `json:"type,omitempty"`
	Limit   int          `json:"limit,omitempty"`
}

// SearchHit is one ranked result.
type SearchHit struct {
	Memory  Summary  `json:"memory"`
	Score   float64  `json:"score"`
	Snippet string   `json:"snippet"`
	Via     []string `json:"via"`
}

// SearchResult lists hits, best first.
type SearchResult struct {
	Hits []SearchHit `json:"hits"`
}

// Search ranks memories for a query.
func (s *MemoryService) Search(p SearchParams) (SearchResult, error) {
	if err := s.a.Wait(); err != nil {
		return SearchResult{}, err
	}
	if err := s.a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
		return SearchResult{}, err
	}
	limit := p.Limit
	if limit <= 0 || limit > 200 {
		limit = 20
	}
	// People searching from the window, browser or CLI get the same ranking agents get,
	// without counting as a recall.
	res, err := s.a.deps.Recall.Search(s.a.ctx, recall.SearchParams{Query: p.Query, Scope: p.Scope, Workdir: p.Workdir,
		Agent: p.Agent, Type: p.Type, Limit: limit, NoTouch: true, BestEffort: true, NoDaily: p.Type == ""})
	if err != nil {
		return SearchResult{}, s.a.fail(err)
	}
	out := SearchResult{Hits: make([]SearchHit, 0, len(res.Hits))}
	for _, h := range res.Hits {
		// People read the preview as text, not as Markdown syntax (a table's pipes, a link's URL).
		out.Hits = append(out.Hits, SearchHit{Memory: summarize(h.Memory), Score: h.Score,
			Snippet: memory.PlainSnippet(h.Memory.Body, p.Query, 160), Via: h.Via})
	}
	return out, nil
}

// ItemResult is the outcome of one mutation, with its failure translated.
type ItemResult struct {
	Index             int               `json:"index"`
	Op                memory.Op         `json:"op"`
	OK                bool              `json:"ok"`
	Code              string            `json:"code,omitempty"`
	I18nKey           string            `json:"i18n_key,omitempty"`
	Args              map[string]any    `json:"args,omitempty"`
	Message           string            `json:"message,omitempty"`
	ID                string            `json:"id,omitempty"`
	Slug              string            `json:"slug,omitempty"`
	Path              string            `json:"path,omitempty"`
	Version           string            `json:"version,omitempty"`
	AppliedConfidence memory.Confidence `json:"applied_confidence,omitempty"`
	AutoDowngraded    bool              `json:"auto_downgraded"`
	Warnings          []Warning         `json:"warnings,omitempty"`
}

// Warning is a translated non-fatal note.
type Warning struct {
	Code    string         `json:"code"`
	I18nKey string         `json:"i18n_key"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message"`
}

func (a *API) itemResult(r memory.ItemResult) ItemResult {
	out := ItemResult{Index: r.Index, Op: r.Op, OK: r.OK, Code: r.Code, Args: r.Args, ID: r.ID, Slug: r.Slug, Path: r.Path,
		Version: r.Version, AppliedConfidence: r.AppliedConfidence, AutoDowngraded: r.AutoDowngraded}
	if !r.OK {
		e := a.newError(r.Code, r.Args)
		out.I18nKey, out.Message, out.Args = e.I18nKey, e.Message, e.Args
	}
	for _, w := range r.Warnings {
		key := "warning." + w.Code
		out.Warnings = append(out.Warnings, Warning{Code: w.Code, I18nKey: key, Args: w.Args, Message: a.codedText(key, w.Args)})
	}
	return out
}

// BatchParams is an apply_batch call.
type BatchParams struct {
	Items   []memory.Item `json:"items"`
	Session string        `json:"session,omitempty"`
	Model   string        `json:"model,omitempty"`
}

// BatchResult is one result per item.
type BatchResult struct {
	Results []ItemResult `json:"results"`
	Applied int          `json:"applied"`
	Failed  int          `json:"failed"`
}

// ApplyBatch applies items; one bad item never sinks the rest.
func (s *MemoryService) ApplyBatch(p BatchParams) (BatchResult, error) {
	if err := s.a.Wait(); err != nil {
		return BatchResult{}, err
	}
	for _, it := range p.Items {
		if err := s.a.checkScope(it.Scope, it.Workdir, it.Agent); err != nil && it.ID == "" {
			return BatchResult{}, err
		}
	}
	res, err := s.a.deps.Store.ApplyBatch(s.a.ctx, memory.Batch{Items: p.Items, Actor: s.a.actor, Session: p.Session, Model: p.Model})
	if err != nil {
		return BatchResult{}, s.a.fail(err)
	}
	out := BatchResult{Results: make([]ItemResult, len(res.Results)), Applied: res.Applied, Failed: res.Failed}
	for i, r := range res.Results {
		out.Results[i] = s.a.itemResult(r)
	}
	return out, nil
}

// one applies a single item and returns its result; a failed item is an error so callers
// that do one thing at a time (the UI form, the CLI) can show it.
func (s *MemoryService) one(it memory.Item) (ItemResult, error) {
	res, err := s.ApplyBatch(BatchParams{Items: []memory.Item{it}})
	if err != nil {
		return ItemResult{}, err
	}
	r := res.Results[0]
	if !r.OK {
		return r, &Error{Code: r.Code, I18nKey: r.I18nKey, Args: r.Args, Message: r.Message}
	}
	return r, nil
}

// WriteParams create one memory.
type WriteParams struct {
	Scope         memory.Scope      `json:"scope"`
	Workdir       string            `json:"workdir,omitempty"`
	Agent         string            `json:"agent,omitempty"`
	Type          memory.Type       `json:"type"`
	Slug          string            `json:"slug"`
	Title         string            `json:"title"`
	Body          string            `json:"body"`
	Confidence    memory.Confidence `json:"confidence,omitempty"`
	SourceQuote   string            `json:"source_quote,omitempty"`
	Reasoning     string            `json:"reasoning,omitempty"`
	Aliases       []string          `json:"aliases,omitempty"`
	Tags          []string          `json:"tags,omitempty"`
	Supersedes    []string          `json:"supersedes,omitempty"`
	ConflictsWith []string          `json:"conflicts_with,omitempty"`
}

// Write creates a memory (without a slug, the store makes one from the title).
func (s *MemoryService) Write(p WriteParams) (ItemResult, error) {
	if err := s.a.Wait(); err != nil {
		return ItemResult{}, err
	}
	return s.one(memory.Item{Op: memory.OpWrite, Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent, Type: p.Type,
		Slug: p.Slug, Title: &p.Title, Body: &p.Body, Confidence: p.Confidence, SourceQuote: &p.SourceQuote,
		Reasoning: &p.Reasoning, Aliases: p.Aliases, Tags: p.Tags, Supersedes: p.Supersedes, ConflictsWith: p.ConflictsWith})
}

// UpdateParams change one memory; absent fields stay as they are.
type UpdateParams struct {
	ID              string            `json:"id"`
	ExpectedVersion string            `json:"expected_version,omitempty"`
	Mode            string            `json:"mode,omitempty"`
	Title           *string           `json:"title,omitempty"`
	Body            *string           `json:"body,omitempty"`
	Type            memory.Type       `json:"type,omitempty"`
	NewSlug         string            `json:"new_slug,omitempty"`
	Confidence      memory.Confidence `json:"confidence,omitempty"`
	SourceQuote     *string           `json:"source_quote,omitempty"`
	Reasoning       *string           `json:"reasoning,omitempty"`
	Aliases         []string          `json:"aliases,omitempty"`
	Tags            []string          `json:"tags,omitempty"`
}

// Update changes a memory (merge or replace).
func (s *MemoryService) Update(p UpdateParams) (ItemResult, error) {
	if err := s.a.Wait(); err != nil {
		return ItemResult{}, err
	}
	if p.ID == "" {
		return ItemResult{}, s.a.newError(CodeInvalidParams, map[string]any{"Method": "memory.update", "Detail": "id is required"})
	}
	return s.one(memory.Item{Op: memory.OpUpdate, ID: p.ID, ExpectedVersion: p.ExpectedVersion, Mode: p.Mode,
		Title: p.Title, Body: p.Body, Type: p.Type, NewSlug: p.NewSlug, Confidence: p.Confidence,
		SourceQuote: p.SourceQuote, Reasoning: p.Reasoning, Aliases: p.Aliases, Tags: p.Tags})
}

func (s *MemoryService) refOp(op memory.Op, p RefParams) (ItemResult, error) {
	if p.ID == "" {
		if err := s.a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
			return ItemResult{}, err
		}
	}
	return s.one(memory.Item{Op: op, ID: p.ID, Slug: p.Slug, Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent,
		ExpectedVersion: p.ExpectedVersion})
}

// Accept marks a memory reviewed.
func (s *MemoryService) Accept(p RefParams) (ItemResult, error) {
	if err := s.a.Wait(); err != nil {
		return ItemResult{}, err
	}
	return s.refOp(memory.OpAccept, p)
}

// RejectParams name the memory a person rejects and, optionally, why (kept in the audit log
// and shown in Activity).
type RejectParams struct {
	RefParams
	Reason string `json:"reason,omitempty"`
}

// Reject deletes a memory and remembers its slug for 7 days; Restore by id takes both back.
func (s *MemoryService) Reject(p RejectParams) (ItemResult, error) {
	if err := s.a.Wait(); err != nil {
		return ItemResult{}, err
	}
	if p.ID == "" {
		if err := s.a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
			return ItemResult{}, err
		}
	}
	return s.one(memory.Item{Op: memory.OpReject, ID: p.ID, Slug: p.Slug, Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent,
		ExpectedVersion: p.ExpectedVersion, Reason: p.Reason})
}

// Delete moves a memory to the trash.
func (s *MemoryService) Delete(p RefParams) (ItemResult, error) {
	if err := s.a.Wait(); err != nil {
		return ItemResult{}, err
	}
	return s.refOp(memory.OpDelete, p)
}

// Archive moves a memory out of the quota into the archive.
func (s *MemoryService) Archive(p RefParams) (ItemResult, error) {
	if err := s.a.Wait(); err != nil {
		return ItemResult{}, err
	}
	return s.refOp(memory.OpArchive, p)
}

// Restore brings back an archived or deleted memory.
func (s *MemoryService) Restore(p RefParams) (ItemResult, error) {
	if err := s.a.Wait(); err != nil {
		return ItemResult{}, err
	}
	return s.refOp(memory.OpRestore, p)
}
