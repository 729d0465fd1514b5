package api

import (
	"encoding/json"

	"engram/backend/recall"
	"engram/backend/vector"
)

// RecallService is what agents use to remember: hybrid search, the Memory Index overview,
// build_context within a token budget, grep, and the MemoryManager tool.
type RecallService struct{ a *API }

// Search ranks memories for a query (and counts the access, unless no_touch).
func (s *RecallService) Search(p recall.SearchParams) (recall.SearchResult, error) {
	r := s.a.deps.Recall
	if err := s.a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
		return recall.SearchResult{}, err
	}
	res, err := r.Search(s.a.ctx, p)
	return res, s.a.fail(err)
}

// Overview renders the Memory Index for a system prompt, frozen per session.
func (s *RecallService) Overview(p recall.OverviewParams) (recall.OverviewResult, error) {
	r := s.a.deps.Recall
	res, err := r.Overview(s.a.ctx, p)
	return res, s.a.fail(err)
}

// BuildContext retrieves and renders memories for a query within a token budget.
func (s *RecallService) BuildContext(p recall.ContextParams) (recall.ContextResult, error) {
	r := s.a.deps.Recall
	if err := s.a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
		return recall.ContextResult{}, err
	}
	res, err := r.BuildContext(s.a.ctx, p)
	return res, s.a.fail(err)
}

// Grep finds memories matching a regular expression exactly.
func (s *RecallService) Grep(p recall.GrepParams) (recall.GrepResult, error) {
	r := s.a.deps.Recall
	if err := s.a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
		return recall.GrepResult{}, err
	}
	res, err := r.Grep(s.a.ctx, p)
	return res, s.a.fail(err)
}

// ToolsParams choose the MemoryManager variant.
type ToolsParams struct {
	ReadWrite bool `json:"read_write,omitempty"`
}

// ToolsResult lists tool definitions for a model.
type ToolsResult struct {
	Tools []recall.ToolDef `json:"tools"`
}

// Tools returns the MemoryManager tool definition (read-only or read-write).
func (s *RecallService) Tools(p ToolsParams) (ToolsResult, error) {
	return ToolsResult{Tools: []recall.ToolDef{recall.MemoryManagerTool(p.ReadWrite)}}, nil
}

// ToolParams is one MemoryManager call from a model.
type ToolParams struct {
	ReadWrite bool            `json:"read_write,omitempty"`
	Session   string          `json:"session,omitempty"`
	Model     string          `json:"model,omitempty"`
	Workdir   string          `json:"workdir,omitempty"`
	Agent     string          `json:"agent,omitempty"`
	Args      json.RawMessage `json:"args"`
}

// Tool runs one MemoryManager call; its failures are structured in the result (with
// suggested_next_call) because a model reads them.
func (s *RecallService) Tool(p ToolParams) (recall.ToolResult, error) {
	r := s.a.deps.Recall
	return r.RunTool(s.a.ctx, recall.ToolEnv{ReadWrite: p.ReadWrite, Actor: s.a.actor, Session: p.Session,
		Model: p.Model, Workdir: p.Workdir, Agent: p.Agent}, p.Args), nil
}

// EmbedStatus reports the background embedding progress.
func (s *RecallService) EmbedStatus(_ Empty) (vector.Progress, error) {
	if s.a.deps.Indexer == nil {
		return vector.Progress{}, nil
	}
	return s.a.deps.Indexer.Progress(), nil
}
