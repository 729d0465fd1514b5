package mcp

import (
	"encoding/json"
	"slices"
	"strings"

	"engram/backend/api"
)

// recallTool runs one MemoryManager action for the session's caller: the agent from the
// session and the project resolved from --workdir, the roots and the call's workdir. The
// tool's own visibility check then bounds what the model sees (arguments narrow, never widen).
// An argument that is nil, "" or 0 is left out (the model did not set it), except those named
// in keep: memory_update's "" clears a field.
func (s *Server) recallTool(c *call, workdirArg string, readWrite bool, args map[string]any, keep ...string) (any, *toolError) {
	if sc, _ := args["scope"].(string); sc == "agent" && c.st.agent == "" {
		return nil, s.agentUnknown(actionTools[args["action"].(string)])
	}
	workdir, terr := s.resolveWorkdir(c.ctx, c.ss, c.st, workdirArg)
	if terr != nil {
		return nil, terr
	}
	for k, v := range args {
		if (v == nil || v == "" || v == 0) && !slices.Contains(keep, k) {
			delete(args, k)
		}
	}
	raw, _ := json.Marshal(args)
	res, err := s.api.Invoke("recall.tool", &api.ToolParams{ReadWrite: readWrite, Session: c.session, Model: c.st.client,
		Workdir: workdir, Agent: c.st.agent, Args: raw})
	if err != nil {
		return nil, s.apiError(err, nil)
	}
	tr := res.(api.ToolResult)
	if !tr.OK || tr.Error != nil {
		return nil, s.recallError(tr.Error)
	}
	return tr.Result, nil
}

type searchArgs struct {
	Query   string `json:"query"`
	Scope   string `json:"scope"`
	Type    string `json:"type"`
	Limit   int    `json:"limit"`
	Cursor  string `json:"cursor"`
	Workdir string `json:"workdir"`
}

func (s *Server) memorySearch(c *call, raw json.RawMessage) (any, *toolError) {
	var a searchArgs
	if e := s.decode("memory_search", raw, &a); e != nil {
		return nil, e
	}
	if strings.TrimSpace(a.Query) == "" {
		return nil, s.required("memory_search", "query", &nextCall{Tool: "memory_list", Arguments: map[string]any{}})
	}
	limit := a.Limit
	if limit <= 0 || limit > 50 {
		limit = 10
	}
	hash := argsHash(a.Query, a.Scope, a.Type, a.Workdir)
	offset, terr := s.decodeCursor(a.Cursor, "memory_search", hash)
	if terr != nil {
		return nil, terr
	}
	// The ranking may move between pages (new vectors, other writers): a later page is read
	// from a few places earlier and skips what this session was shown already, so no hit comes
	// twice.
	const slack = 5
	from := max(offset-slack, 0)
	res, terr := s.recallTool(c, a.Workdir, false, map[string]any{"action": "search", "query": a.Query, "scope": a.Scope,
		"type": a.Type, "limit": min(limit+offset-from+slack, 50), "offset": from})
	if terr != nil {
		return nil, terr
	}
	m := res.(map[string]any)
	all, _ := m["hits"].([]api.ToolHit)
	more, _ := m["more"].(bool)
	shown := c.st.shownFor(hash, offset == 0)
	hits := make([]api.ToolHit, 0, limit)
	for _, h := range all {
		if !shown[h.ID] && len(hits) < limit {
			hits = append(hits, h)
		}
	}
	more = more || len(hits) == limit
	out := s.page(len(hits), more, "memory_search", hash, offset, func(keep int, next string) any {
		out := map[string]any{"hits": hits[:keep], "intent": m["intent"]}
		if next != "" {
			out["next_cursor"] = next
		}
		if note, ok := m["note"]; ok {
			out["note"] = note
		}
		return withNotice{out}
	})
	var ids []string
	for _, h := range out.(withNotice).fields.(map[string]any)["hits"].([]api.ToolHit) {
		ids = append(ids, h.ID)
	}
	c.st.markShown(hash, ids)
	return out, nil
}

type listArgs struct {
	Scope   string `json:"scope"`
	Type    string `json:"type"`
	Limit   int    `json:"limit"`
	Cursor  string `json:"cursor"`
	Workdir string `json:"workdir"`
}

func (s *Server) memoryList(c *call, raw json.RawMessage) (any, *toolError) {
	var a listArgs
	if e := s.decode("memory_list", raw, &a); e != nil {
		return nil, e
	}
	limit := a.Limit
	if limit <= 0 || limit > 50 {
		limit = 20
	}
	hash := argsHash(a.Scope, a.Type, a.Workdir)
	offset, terr := s.decodeCursor(a.Cursor, "memory_list", hash)
	if terr != nil {
		return nil, terr
	}
	res, terr := s.recallTool(c, a.Workdir, false, map[string]any{"action": "list", "scope": a.Scope, "type": a.Type,
		"limit": limit, "offset": offset})
	if terr != nil {
		return nil, terr
	}
	m := res.(map[string]any)
	items, _ := m["items"].([]api.ToolHit)
	total, _ := m["total"].(int)
	return s.page(len(items), offset+len(items) < total, "memory_list", hash, offset, func(keep int, next string) any {
		out := map[string]any{"items": items[:keep], "total": total}
		if next != "" {
			out["next_cursor"] = next
		}
		return withNotice{out}
	}), nil
}

type refArgs struct {
	ID              string `json:"id"`
	Slug            string `json:"slug"`
	Scope           string `json:"scope"`
	ExpectedVersion string `json:"expected_version"`
	Workdir         string `json:"workdir"`
}

func (s *Server) memoryRead(c *call, raw json.RawMessage) (any, *toolError) {
	var a struct {
		ID      string `json:"id"`
		Slug    string `json:"slug"`
		Scope   string `json:"scope"`
		Workdir string `json:"workdir"`
	}
	if e := s.decode("memory_read", raw, &a); e != nil {
		return nil, e
	}
	res, terr := s.recallTool(c, a.Workdir, false, map[string]any{"action": "read", "id": a.ID, "slug": a.Slug, "scope": a.Scope})
	if terr != nil {
		return nil, terr
	}
	return withNotice{res}, nil
}

type writeArgs struct {
	Slug        string   `json:"slug"`
	Scope       string   `json:"scope"`
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Body        string   `json:"body"`
	Confidence  string   `json:"confidence"`
	SourceQuote string   `json:"source_quote"`
	Reasoning   string   `json:"reasoning"`
	Tags        []string `json:"tags"`
	Aliases     []string `json:"aliases"`
	Workdir     string   `json:"workdir"`
}

func (s *Server) memoryWrite(c *call, raw json.RawMessage) (any, *toolError) {
	var a writeArgs
	if e := s.decode("memory_write", raw, &a); e != nil {
		return nil, e
	}
	args := map[string]any{"action": "write", "slug": a.Slug, "scope": a.Scope, "type": a.Type, "title": a.Title,
		"body": a.Body, "confidence": a.Confidence, "source_quote": a.SourceQuote, "reasoning": a.Reasoning}
	if a.Tags != nil {
		args["tags"] = a.Tags
	}
	if a.Aliases != nil {
		args["aliases"] = a.Aliases
	}
	return s.recallTool(c, a.Workdir, true, args)
}

func (s *Server) memoryDelete(c *call, raw json.RawMessage) (any, *toolError) {
	var a refArgs
	if e := s.decode("memory_delete", raw, &a); e != nil {
		return nil, e
	}
	return s.recallTool(c, a.Workdir, true, map[string]any{"action": "delete", "id": a.ID, "slug": a.Slug,
		"scope": a.Scope, "expected_version": a.ExpectedVersion})
}
