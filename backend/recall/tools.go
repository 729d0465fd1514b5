package recall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"engram/backend/memory"
	"engram/backend/prompts"
)

// ToolDef is a tool offered to a model (MCP, or an LLM tool-call loop).
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	// ReadOnly tools change nothing; Destructive ones may remove or overwrite data.
	ReadOnly    bool `json:"read_only"`
	Destructive bool `json:"destructive"`
}

// Tool actions.
const (
	ActionList   = "list"
	ActionRead   = "read"
	ActionSearch = "search"
	ActionWrite  = "write"
	ActionUpdate = "update"
	ActionDelete = "delete"
	// actionAccept is refused by name: only a person marks a memory reviewed (from the window
	// or the CLI), so no variant of the tool offers it.
	actionAccept = "accept"
)

var readActions = []string{ActionSearch, ActionList, ActionRead}
var writeActions = []string{ActionWrite, ActionUpdate, ActionDelete}

// MemoryManagerTool describes the MemoryManager tool: the read-only variant offers search,
// list and read; the read-write variant also write, update and delete. Neither offers
// accept: what a model writes stays unreviewed until a person accepts it.
func MemoryManagerTool(readWrite bool) ToolDef {
	actions := readActions
	desc := prompts.MemoryManagerRO
	if readWrite {
		actions = append(append([]string{}, readActions...), writeActions...)
		desc = prompts.MemoryManagerRW
	}
	props := map[string]any{
		"action":  map[string]any{"type": "string", "enum": actions},
		"query":   map[string]any{"type": "string", "description": "search: what to look for"},
		"id":      map[string]any{"type": "string", "description": "the entry's id (instead of slug)"},
		"slug":    map[string]any{"type": "string", "description": "the entry's slug: lowercase letters, digits and dashes"},
		"scope":   map[string]any{"type": "string", "enum": []string{"global", "project", "agent"}},
		"type":    map[string]any{"type": "string", "enum": []string{"user", "feedback", "project", "reference", "experience", "daily"}},
		"workdir": map[string]any{"type": "string", "description": "optional: only the project you work in is reachable; leave it out"},
		"limit":   map[string]any{"type": "integer", "minimum": 1, "maximum": 50},
	}
	if readWrite {
		props["title"] = map[string]any{"type": "string", "description": "one line, at most 120 characters"}
		props["body"] = map[string]any{"type": "string", "description": "Markdown, at most 8 KiB"}
		props["mode"] = map[string]any{"type": "string", "enum": []string{"merge", "replace"}}
		props["confidence"] = map[string]any{"type": "string", "enum": []string{"high", "medium", "low"}}
		props["source_quote"] = map[string]any{"type": "string", "description": "the person's words, verbatim"}
		props["reasoning"] = map[string]any{"type": "string"}
		props["tags"] = map[string]any{"type": "array", "items": map[string]any{"type": "string"}}
		props["aliases"] = map[string]any{"type": "array", "items": map[string]any{"type": "string"}}
		props["expected_version"] = map[string]any{"type": "string", "description": "the version you read; refuses to overwrite a newer edit"}
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": []string{"action"},
		"additionalProperties": false})
	return ToolDef{Name: prompts.MemoryManagerName, Description: desc, InputSchema: schema, ReadOnly: !readWrite, Destructive: readWrite}
}

// ToolCall is the arguments of one MemoryManager call.
type ToolCall struct {
	Action          string            `json:"action"`
	Query           string            `json:"query,omitempty"`
	ID              string            `json:"id,omitempty"`
	Slug            string            `json:"slug,omitempty"`
	Scope           memory.Scope      `json:"scope,omitempty"`
	Type            memory.Type       `json:"type,omitempty"`
	Workdir         string            `json:"workdir,omitempty"`
	Limit           int               `json:"limit,omitempty"`
	Title           *string           `json:"title,omitempty"`
	Body            *string           `json:"body,omitempty"`
	Mode            string            `json:"mode,omitempty"`
	Confidence      memory.Confidence `json:"confidence,omitempty"`
	SourceQuote     *string           `json:"source_quote,omitempty"`
	Reasoning       *string           `json:"reasoning,omitempty"`
	Tags            []string          `json:"tags,omitempty"`
	Aliases         []string          `json:"aliases,omitempty"`
	ExpectedVersion string            `json:"expected_version,omitempty"`
}

// ToolEnv is who calls and from where. It comes from the transport, never from the model:
// Workdir and Agent (the caller) decide what the model sees (see Visibility), and the model's
// arguments may only narrow it. Every mutation is audited as actor "tool" whatever transport
// carried it, and lands unreviewed.
type ToolEnv struct {
	// ReadWrite offers the mutating actions.
	ReadWrite bool   `json:"read_write"`
	Session   string `json:"session,omitempty"`
	Model     string `json:"model,omitempty"`
	// Workdir and Agent are the caller's project and agent name.
	Workdir string `json:"workdir,omitempty"`
	Agent   string `json:"agent,omitempty"`
}

// toolCtx is one call being run: its arguments and what its caller sees.
type toolCtx struct {
	env    ToolEnv
	c      ToolCall
	action string
	// base is everything the caller sees; view is base narrowed by the call's scope.
	base, view Visibility
}

// Candidate is an entry that exists, offered when a reference missed.
type Candidate struct {
	ID      string       `json:"id"`
	Slug    string       `json:"slug"`
	Title   string       `json:"title"`
	Scope   memory.Scope `json:"scope"`
	Type    memory.Type  `json:"type"`
	Workdir string       `json:"workdir,omitempty"`
}

// ToolError is a structured failure the model can act on.
type ToolError struct {
	Code              string         `json:"code"`
	Message           string         `json:"message"`
	Args              map[string]any `json:"args,omitempty"`
	SuggestedNextCall map[string]any `json:"suggested_next_call,omitempty"`
	Candidates        []Candidate    `json:"candidates,omitempty"`
}

// ToolResult is the answer to one call: a result or a structured error.
type ToolResult struct {
	OK     bool       `json:"ok"`
	Action string     `json:"action"`
	Result any        `json:"result,omitempty"`
	Error  *ToolError `json:"error,omitempty"`
}

// ToolHit is one search result as the tool shows it.
type ToolHit struct {
	ID         string            `json:"id"`
	Slug       string            `json:"slug"`
	Scope      memory.Scope      `json:"scope"`
	Type       memory.Type       `json:"type"`
	Title      string            `json:"title"`
	Snippet    string            `json:"snippet"`
	Confidence memory.Confidence `json:"confidence"`
	Reviewed   bool              `json:"reviewed"`
	Updated    string            `json:"updated"`
	Score      float64           `json:"score,omitempty"`
}

// ToolEntry is one entry read in full.
type ToolEntry struct {
	ToolHit
	Body    string   `json:"body"`
	Tags    []string `json:"tags,omitempty"`
	Aliases []string `json:"aliases,omitempty"`
	Version string   `json:"version"`
}

// ToolMutation is the outcome of a write, update or delete.
type ToolMutation struct {
	ID                string            `json:"id"`
	Slug              string            `json:"slug"`
	Version           string            `json:"version,omitempty"`
	AppliedConfidence memory.Confidence `json:"applied_confidence,omitempty"`
	AutoDowngraded    bool              `json:"auto_downgraded"`
	Note              string            `json:"note,omitempty"`
	Warnings          []string          `json:"warnings,omitempty"`
}

func toolHit(m *memory.Memory, snippet string, score float64) ToolHit {
	return ToolHit{ID: m.ID, Slug: m.Slug, Scope: m.Scope, Type: m.Type, Title: m.Title, Snippet: snippet,
		Confidence: m.Confidence, Reviewed: m.Reviewed, Updated: m.Updated.Format(time.RFC3339), Score: score}
}

func fail(action, code, msg string, args map[string]any) ToolResult {
	return ToolResult{Action: action, Error: &ToolError{Code: code, Message: msg, Args: args}}
}

// RunTool executes one MemoryManager call. Every failure comes back as a ToolResult with a
// code, a message, and where it helps a suggested next call and candidates; RunTool itself
// never returns a Go error to the model loop.
func (s *Service) RunTool(ctx context.Context, env ToolEnv, args json.RawMessage) ToolResult {
	var c ToolCall
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		r := fail("", CodeInvalidAction, "the arguments are not valid: "+err.Error(), nil)
		r.Error.SuggestedNextCall = map[string]any{"action": ActionSearch, "query": "…"}
		return r
	}
	action := strings.ToLower(strings.TrimSpace(c.Action))
	if action == actionAccept {
		r := fail(action, CodePersonOnly, "only the person accepts a memory, from Engram's window or command line; "+
			"what you write stays unreviewed until they do", nil)
		r.Error.SuggestedNextCall = map[string]any{"action": ActionRead, "slug": c.Slug}
		if c.ID != "" {
			r.Error.SuggestedNextCall = map[string]any{"action": ActionRead, "id": c.ID}
		}
		return r
	}
	allowed := readActions
	if env.ReadWrite {
		allowed = append(append([]string{}, readActions...), writeActions...)
	}
	known := false
	for _, a := range allowed {
		known = known || a == action
	}
	if !known {
		for _, a := range writeActions {
			if a == action {
				r := fail(action, CodeReadOnlyTool, "this MemoryManager is read-only; "+action+" is not available", nil)
				r.Error.SuggestedNextCall = map[string]any{"action": ActionSearch, "query": c.Query}
				return r
			}
		}
		r := fail(action, CodeInvalidAction, fmt.Sprintf("unknown action %q; use one of %s", c.Action, strings.Join(allowed, ", ")), nil)
		r.Error.SuggestedNextCall = map[string]any{"action": ActionList}
		return r
	}
	tc := &toolCtx{env: env, c: c, action: action}
	base, err := NewVisibility(Caller{Workdir: env.Workdir, Agent: env.Agent})
	if err != nil {
		// The caller's own context is broken: nothing the model can change.
		code, args := codeOf(err)
		return fail(action, code, "the caller's context is not valid: "+err.Error(), args)
	}
	tc.base = base
	if tc.view, err = base.Narrow(c.Scope, c.Workdir, ""); err != nil {
		return s.toolFailure(ctx, tc, err)
	}
	// From here on the call works in the caller's project, whatever the model named.
	tc.c.Workdir = tc.view.Workdir()
	switch action {
	case ActionSearch:
		return s.toolSearch(ctx, tc)
	case ActionList:
		return s.toolList(ctx, tc)
	case ActionRead:
		m, errRes := s.toolTarget(ctx, tc)
		if errRes != nil {
			return *errRes
		}
		return ToolResult{OK: true, Action: action, Result: ToolEntry{ToolHit: toolHit(m, "", 0), Body: m.Body,
			Tags: m.Tags, Aliases: m.Aliases, Version: m.Version}}
	case ActionWrite:
		return s.toolWrite(ctx, tc)
	default:
		return s.toolMutate(ctx, tc)
	}
}

func (s *Service) toolSearch(ctx context.Context, tc *toolCtx) ToolResult {
	c := tc.c
	if strings.TrimSpace(c.Query) == "" {
		r := fail(ActionSearch, CodeMissingField, "search needs a query", map[string]any{"Field": "query"})
		r.Error.SuggestedNextCall = map[string]any{"action": ActionList}
		return r
	}
	limit := c.Limit
	if limit <= 0 || limit > 50 {
		limit = 10
	}
	res, err := s.Search(ctx, tc.view.Search(SearchParams{Query: c.Query, Type: c.Type, Limit: limit, BestEffort: true}))
	if err != nil {
		return s.toolFailure(ctx, tc, err)
	}
	hits := make([]ToolHit, 0, len(res.Hits))
	for _, h := range res.Hits {
		if tc.view.Allows(h.Memory) {
			hits = append(hits, toolHit(h.Memory, h.Snippet, h.Score))
		}
	}
	out := map[string]any{"hits": hits, "intent": res.Analysis.Intent}
	if len(hits) == 0 {
		out["note"] = "nothing relevant was found; try other words, or list a scope"
	}
	return ToolResult{OK: true, Action: ActionSearch, Result: out}
}

func (s *Service) toolList(ctx context.Context, tc *toolCtx) ToolResult {
	limit := tc.c.Limit
	if limit <= 0 || limit > 50 {
		limit = 20
	}
	f := tc.view.Filter()
	f.Type, f.Limit = tc.c.Type, limit
	items, total, err := s.store.List(ctx, f)
	if err != nil {
		return s.toolFailure(ctx, tc, err)
	}
	hits := make([]ToolHit, 0, len(items))
	for _, m := range items {
		if tc.view.Allows(m) {
			hits = append(hits, toolHit(m, memory.Snippet(m.Body, "", 120), 0))
		}
	}
	return ToolResult{OK: true, Action: ActionList, Result: map[string]any{"items": hits, "total": total}}
}

// toolTarget resolves the entry a call names: by id, else by slug in the scopes of the view
// (project, agent, global). An entry outside the view is not found, whichever way it is
// named. A miss or an ambiguous slug is returned as a structured error with candidates.
func (s *Service) toolTarget(ctx context.Context, tc *toolCtx) (*memory.Memory, *ToolResult) {
	c, action := tc.c, tc.action
	if c.ID == "" && c.Slug == "" {
		r := fail(action, CodeMissingField, action+" needs a slug (with its scope) or an id", map[string]any{"Field": "slug"})
		r.Error.SuggestedNextCall = map[string]any{"action": ActionSearch, "query": c.Query}
		return nil, &r
	}
	if c.ID != "" {
		m, err := s.store.Get(ctx, c.ID)
		if err == nil && tc.view.Allows(m) {
			return m, nil
		}
		r := s.notFound(ctx, tc, c.ID)
		return nil, &r
	}
	var found []*memory.Memory
	for _, sc := range tc.view.Scopes() {
		m, err := s.store.GetBySlug(ctx, sc, tc.view.Workdir(), tc.view.Agent(), c.Slug)
		if err == nil && tc.view.Allows(m) {
			found = append(found, m)
		} else if err != nil && !errors.Is(err, memory.ErrNotFound) {
			r := s.toolFailure(ctx, tc, err)
			return nil, &r
		}
	}
	switch {
	case len(found) == 1 || (len(found) > 1 && found[0].Scope == memory.ScopeProject):
		// A project entry shadows a global one with the same slug.
		return found[0], nil
	case len(found) > 1:
		r := fail(action, CodeAmbiguousSlug, fmt.Sprintf("%q exists in more than one scope; name the scope", c.Slug), map[string]any{"Slug": c.Slug})
		for _, m := range found {
			r.Error.Candidates = append(r.Error.Candidates, candidateOf(m))
		}
		r.Error.SuggestedNextCall = map[string]any{"action": action, "slug": c.Slug, "scope": found[0].Scope}
		return nil, &r
	}
	r := s.notFound(ctx, tc, c.Slug)
	return nil, &r
}

func candidateOf(m *memory.Memory) Candidate {
	return Candidate{ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope, Type: m.Type, Workdir: m.Workdir}
}

var reSlugWords = regexp.MustCompile(`[-_]+`)

// notFound builds the not_found error: entries whose slug or title resemble the reference are
// offered, and the next call retries with the best of them (or searches). Candidates come only
// from what the caller sees, so a miss never tells a model what other scopes hold.
func (s *Service) notFound(ctx context.Context, tc *toolCtx, ref string) ToolResult {
	c, action := tc.c, tc.action
	r := fail(action, memory.CodeNotFound, fmt.Sprintf("no memory %q is visible here", ref), map[string]any{"Ref": ref})
	q := strings.TrimSpace(reSlugWords.ReplaceAllString(ref, " "))
	if c.Query != "" {
		q = c.Query
	}
	if q != "" {
		res, err := s.Search(ctx, tc.base.Search(SearchParams{Query: q, Limit: 5, NoTouch: true, BestEffort: true}))
		if err == nil {
			for _, h := range res.Hits {
				if tc.base.Allows(h.Memory) {
					r.Error.Candidates = append(r.Error.Candidates, candidateOf(h.Memory))
				}
			}
		}
	}
	if len(r.Error.Candidates) > 0 {
		best := r.Error.Candidates[0]
		r.Error.SuggestedNextCall = map[string]any{"action": action, "slug": best.Slug, "scope": best.Scope}
	} else {
		r.Error.SuggestedNextCall = map[string]any{"action": ActionList}
	}
	return r
}

// toolFailure converts a store or recall error into a structured tool error with a useful
// next step.
func (s *Service) toolFailure(ctx context.Context, tc *toolCtx, err error) ToolResult {
	c, action := tc.c, tc.action
	code, args := codeOf(err)
	var me *memory.Error
	if errors.As(err, &me) {
		code, args = me.Code, me.Args
	}
	r := fail(action, code, err.Error(), args)
	switch code {
	case CodeScopeNotVisible:
		// Retry within what the caller sees: its project when it has one, else global.
		next := map[string]any{"action": action, "scope": tc.base.Scopes()[0]}
		for k, v := range map[string]any{"slug": c.Slug, "id": c.ID, "query": c.Query} {
			if v != "" {
				next[k] = v
			}
		}
		r.Error.SuggestedNextCall = next
	case memory.CodeNotFound:
		return s.notFound(ctx, tc, firstNonEmpty(c.Slug, c.ID))
	case memory.CodeAlreadyExists:
		r.Error.SuggestedNextCall = map[string]any{"action": ActionUpdate, "slug": c.Slug, "scope": c.Scope, "mode": "merge"}
		if m, gerr := s.store.GetBySlug(ctx, c.Scope, tc.view.Workdir(), tc.view.Agent(), c.Slug); gerr == nil && tc.view.Allows(m) {
			r.Error.Candidates = []Candidate{candidateOf(m)}
			r.Error.SuggestedNextCall["expected_version"] = m.Version
		}
	case memory.CodeVersionConflict:
		r.Error.SuggestedNextCall = map[string]any{"action": ActionRead, "slug": c.Slug, "scope": c.Scope}
	case memory.CodeInvalidSlug:
		if sl := Slugify(firstNonEmpty(c.Slug, deref(c.Title))); sl != "" {
			next := map[string]any{"action": c.Action, "slug": sl}
			if c.Scope != "" {
				next["scope"] = c.Scope
			}
			r.Error.SuggestedNextCall = next
		}
	case memory.CodeQuotaExhausted:
		r.Error.SuggestedNextCall = map[string]any{"action": ActionList, "scope": c.Scope}
	case memory.CodeRejectedSlug:
		r.Error.SuggestedNextCall = map[string]any{"action": ActionSearch, "query": firstNonEmpty(deref(c.Title), c.Slug)}
	case memory.CodeInvalidScope, memory.CodeInvalidType, memory.CodeMissingTitle, memory.CodeMissingBody, memory.CodeBodyTooLarge,
		memory.CodeTitleTooLong, memory.CodeInvalidConf, memory.CodeInvalidMode:
		r.Error.SuggestedNextCall = map[string]any{"action": c.Action, "slug": c.Slug, "scope": firstNonEmpty(string(c.Scope), "global")}
	}
	return r
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

var reNonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// Slugify turns a title into a valid slug ("" when nothing usable is left).
func Slugify(s string) string {
	sl := strings.Trim(reNonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(sl) > 64 {
		sl = strings.Trim(sl[:64], "-")
	}
	if !memory.ValidSlug(sl) {
		return ""
	}
	return sl
}

// toolBatch applies one item as the model's: audited as actor "tool" whatever transport
// carried the call (a bridge caller is a person, the model behind it is not), and never
// reviewed.
func (s *Service) toolBatch(ctx context.Context, tc *toolCtx, it memory.Item) ToolResult {
	unreviewed := false
	it.Reviewed = &unreviewed
	res, err := s.store.ApplyBatch(ctx, memory.Batch{Items: []memory.Item{it}, Actor: memory.ActorTool,
		Session: tc.env.Session, Model: tc.env.Model})
	if err != nil {
		return s.toolFailure(ctx, tc, err)
	}
	r := res.Results[0]
	if !r.OK {
		return s.toolFailure(ctx, tc, &memory.Error{Code: r.Code, Args: r.Args, Msg: r.Message})
	}
	out := ToolMutation{ID: r.ID, Slug: r.Slug, Version: r.Version, AppliedConfidence: r.AppliedConfidence, AutoDowngraded: r.AutoDowngraded}
	if r.AutoDowngraded {
		out.Note = fmt.Sprintf("confidence lowered to %s: the source_quote is missing or too short", r.AppliedConfidence)
	}
	for _, w := range r.Warnings {
		out.Warnings = append(out.Warnings, w.Code)
	}
	return ToolResult{OK: true, Action: tc.action, Result: out}
}

func (s *Service) toolWrite(ctx context.Context, tc *toolCtx) ToolResult {
	c := tc.c
	for _, req := range []struct{ field, val string }{{"slug", c.Slug}, {"scope", string(c.Scope)}, {"type", string(c.Type)},
		{"title", deref(c.Title)}, {"body", deref(c.Body)}} {
		if strings.TrimSpace(req.val) == "" {
			r := fail(ActionWrite, CodeMissingField, "write needs "+req.field, map[string]any{"Field": req.field})
			next := map[string]any{"action": ActionWrite, "slug": firstNonEmpty(c.Slug, Slugify(deref(c.Title))),
				"scope": firstNonEmpty(string(c.Scope), "global"), "type": firstNonEmpty(string(c.Type), "user")}
			r.Error.SuggestedNextCall = next
			return r
		}
	}
	// The scope instance is the caller's: Narrow has refused any other project or agent.
	it := memory.Item{Op: memory.OpWrite, Slug: c.Slug, Scope: c.Scope, Type: c.Type,
		Title: c.Title, Body: c.Body, Confidence: c.Confidence, SourceQuote: c.SourceQuote, Reasoning: c.Reasoning,
		Tags: c.Tags, Aliases: c.Aliases}
	switch c.Scope {
	case memory.ScopeProject:
		it.Workdir = tc.view.Workdir()
	case memory.ScopeAgent:
		it.Agent = tc.view.Agent()
	}
	return s.toolBatch(ctx, tc, it)
}

func (s *Service) toolMutate(ctx context.Context, tc *toolCtx) ToolResult {
	m, errRes := s.toolTarget(ctx, tc)
	if errRes != nil {
		return *errRes
	}
	c, action := tc.c, tc.action
	it := memory.Item{ID: m.ID, ExpectedVersion: c.ExpectedVersion}
	switch action {
	case ActionUpdate:
		if c.Title == nil && c.Body == nil && c.SourceQuote == nil && c.Confidence == "" && c.Tags == nil && c.Aliases == nil && c.Reasoning == nil {
			r := fail(action, CodeMissingField, "update needs something to change: body, title, confidence, source_quote, tags or aliases",
				map[string]any{"Field": "body"})
			r.Error.SuggestedNextCall = map[string]any{"action": ActionRead, "slug": m.Slug, "scope": m.Scope}
			return r
		}
		// toolBatch marks the entry unreviewed: a model must not change reviewed text and keep
		// the person's mark on it.
		it.Op, it.Title, it.Body, it.Mode, it.Confidence = memory.OpUpdate, c.Title, c.Body, c.Mode, c.Confidence
		it.SourceQuote, it.Reasoning, it.Tags, it.Aliases = c.SourceQuote, c.Reasoning, c.Tags, c.Aliases
	case ActionDelete:
		it.Op = memory.OpDelete
	default:
		r := fail(action, CodeInvalidAction, fmt.Sprintf("unknown action %q", action), nil)
		r.Error.SuggestedNextCall = map[string]any{"action": ActionList}
		return r
	}
	tc.c.Slug, tc.c.Scope = m.Slug, m.Scope
	return s.toolBatch(ctx, tc, it)
}
