package api

import (
	"encoding/json"

	"engram/backend/memory"
	"engram/backend/recall"
)

// RecallService is what agents use to remember: hybrid search, the Memory Index overview,
// build_context within a token budget, grep, and the MemoryManager tool. What each hands back
// is bounded by recall.Visibility: the params' workdir and agent are the caller, its scope
// may only narrow, and an empty caller sees global memories only. (People browse everything
// through memory.list and memory.search.)
type RecallService struct{ a *API }

// visibility is what the caller of a recall method sees, narrowed to scope.
func (s *RecallService) visibility(scope memory.Scope, workdir, agent string) (recall.Visibility, error) {
	if err := s.a.checkScope(scope, workdir, agent); err != nil {
		return recall.Visibility{}, err
	}
	vis, err := recall.NewVisibility(recall.Caller{Workdir: workdir, Agent: agent}, s.a.deps.Store.Projects())
	if err != nil {
		return recall.Visibility{}, s.a.fail(err)
	}
	vis, err = vis.Narrow(scope, "", "")
	return vis, s.a.fail(err)
}

// Search ranks memories for a query (and counts the access, unless no_touch).
func (s *RecallService) Search(p recall.SearchParams) (recall.SearchResult, error) {
	if err := s.a.Wait(); err != nil {
		return recall.SearchResult{}, err
	}
	r := s.a.deps.Recall
	vis, err := s.visibility(p.Scope, p.Workdir, p.Agent)
	if err != nil {
		return recall.SearchResult{}, err
	}
	res, err := r.Search(s.a.ctx, vis.Search(p))
	if err != nil {
		return res, s.a.fail(err)
	}
	// Every path that hands memories to a model re-checks each one (the store filter is the
	// first line, not the only one).
	kept := res.Hits[:0]
	for _, h := range res.Hits {
		if vis.Allows(h.Memory) {
			kept = append(kept, h)
		}
	}
	res.Hits = kept
	return res, nil
}

// Overview renders the Memory Index for a system prompt, frozen per session.
func (s *RecallService) Overview(p recall.OverviewParams) (recall.OverviewResult, error) {
	if err := s.a.Wait(); err != nil {
		return recall.OverviewResult{}, err
	}
	r := s.a.deps.Recall
	res, err := r.Overview(s.a.ctx, p)
	return res, s.a.fail(err)
}

// BuildContext retrieves and renders memories for a query within a token budget.
func (s *RecallService) BuildContext(p recall.ContextParams) (recall.ContextResult, error) {
	if err := s.a.Wait(); err != nil {
		return recall.ContextResult{}, err
	}
	r := s.a.deps.Recall
	if err := s.a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
		return recall.ContextResult{}, err
	}
	res, err := r.BuildContext(s.a.ctx, p)
	return res, s.a.fail(err)
}

// Grep finds memories matching a regular expression exactly.
func (s *RecallService) Grep(p recall.GrepParams) (recall.GrepResult, error) {
	if err := s.a.Wait(); err != nil {
		return recall.GrepResult{}, err
	}
	r := s.a.deps.Recall
	vis, err := s.visibility(p.Scope, p.Workdir, p.Agent)
	if err != nil {
		return recall.GrepResult{}, err
	}
	f := vis.Filter()
	p.Scope, p.Workdir, p.Agent = f.Scope, f.Workdir, f.Agent
	res, err := r.Grep(s.a.ctx, p)
	if err != nil {
		return res, s.a.fail(err)
	}
	kept := res.Hits[:0]
	for _, h := range res.Hits {
		if vis.Allows(h.Memory) {
			kept = append(kept, h)
		}
	}
	res.Hits = kept
	return res, nil
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
	if err := s.a.Wait(); err != nil {
		return ToolsResult{}, err
	}
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
// suggested_next_call) because a model reads them. Workdir and Agent are the caller's: they
// bound what the model sees (args may only narrow it), and whatever transport carries the
// call, the model's writes are audited as the tool's and land unreviewed.
func (s *RecallService) Tool(p ToolParams) (recall.ToolResult, error) {
	if err := s.a.Wait(); err != nil {
		return recall.ToolResult{}, err
	}
	r := s.a.deps.Recall
	return r.RunTool(s.a.ctx, recall.ToolEnv{ReadWrite: p.ReadWrite, Session: p.Session,
		Model: p.Model, Workdir: p.Workdir, Agent: p.Agent}, p.Args), nil
}

// EmbedStatus reports the embeddings settings, the provider, model and vector backend that
// run now, and how far the background (re-)embedding is.
func (s *RecallService) EmbedStatus(_ Empty) (EmbeddingStatus, error) {
	if err := s.a.Wait(); err != nil {
		return EmbeddingStatus{}, err
	}
	return s.a.embedStatus()
}
