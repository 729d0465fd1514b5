package recall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"engram/backend/memory"
)

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
	base, err := NewVisibility(Caller{Workdir: env.Workdir, Agent: env.Agent}, s.store.Projects())
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
	offset := min(max(c.Offset, 0), MaxToolOffset)
	// A later page is the same recall read further, not another: it counts no access.
	res, err := s.Search(ctx, tc.view.Search(SearchParams{Query: c.Query, Type: c.Type, Limit: offset + limit, BestEffort: true,
		NoTouch: offset > 0}))
	if err != nil {
		return s.toolFailure(ctx, tc, err)
	}
	hits := make([]ToolHit, 0, len(res.Hits))
	for i, h := range res.Hits {
		if i >= offset && tc.view.Allows(h.Memory) {
			hits = append(hits, toolHit(h.Memory, h.Snippet, h.Score))
		}
	}
	// A full page may have more behind it; the ranker was asked for exactly this many.
	out := map[string]any{"hits": hits, "intent": res.Analysis.Intent,
		"more": len(res.Hits) == offset+limit && offset+limit < MaxToolOffset+50}
	found := len(hits) > 0
	if c.IncludeHistory {
		history, err := s.searchHistory(ctx, tc.view, c.Query, limit)
		if err != nil {
			return s.toolFailure(ctx, tc, err)
		}
		out["history"] = history
		found = found || len(history) > 0
	}
	if !found {
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
	f.Type, f.Limit, f.Offset = tc.c.Type, limit, max(tc.c.Offset, 0)
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
// (project, agent, global). An entry outside the view, or archived, is not found, whichever
// way it is named. A miss or an ambiguous slug is returned as a structured error with candidates.
func (s *Service) toolTarget(ctx context.Context, tc *toolCtx) (*memory.Memory, *ToolResult) {
	c, action := tc.c, tc.action
	if c.ID == "" && c.Slug == "" {
		r := fail(action, CodeMissingField, action+" needs a slug (with its scope) or an id", map[string]any{"Field": "slug"})
		r.Error.SuggestedNextCall = map[string]any{"action": ActionSearch, "query": c.Query}
		return nil, &r
	}
	if c.ID != "" {
		// An archived memory is the person's, set aside: out of every list, search and slug
		// lookup a model has, and so not found by its id either (the tool read and deleted it).
		m, err := s.store.Get(ctx, c.ID)
		if err == nil && tc.view.Allows(m) && !m.Archived {
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
