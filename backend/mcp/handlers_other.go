package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"engram/backend/api"
)

func (s *Server) memoryOverview(c *call, raw json.RawMessage) (any, *toolError) {
	var a struct {
		Workdir string `json:"workdir"`
	}
	if e := s.decode("memory_overview", raw, &a); e != nil {
		return nil, e
	}
	workdir, terr := s.resolveWorkdir(c.ctx, c.ss, c.st, a.Workdir)
	if terr != nil {
		return nil, terr
	}
	return s.overview(workdir, c.st.agent)
}

// overview is the Memory Index of what the caller sees (no session: each call is whole).
func (s *Server) overview(workdir, agent string) (any, *toolError) {
	res, err := s.api.Invoke("recall.overview", &api.OverviewParams{Workdir: workdir, Agent: agent})
	if err != nil {
		return nil, s.apiError(err, nil)
	}
	return res, nil
}

func (s *Server) buildContext(c *call, raw json.RawMessage) (any, *toolError) {
	var a struct {
		Query     string `json:"query"`
		MaxTokens int    `json:"max_tokens"`
		Scope     string `json:"scope"`
		Type      string `json:"type"`
		Workdir   string `json:"workdir"`
	}
	if e := s.decode("build_context", raw, &a); e != nil {
		return nil, e
	}
	if strings.TrimSpace(a.Query) == "" {
		return nil, s.required("build_context", "query", &nextCall{Tool: "memory_overview", Arguments: map[string]any{}})
	}
	if a.Scope == string(api.ScopeAgent) && c.st.agent == "" {
		return nil, s.agentUnknown("build_context")
	}
	workdir, terr := s.resolveWorkdir(c.ctx, c.ss, c.st, a.Workdir)
	if terr != nil {
		return nil, terr
	}
	// The block is part of the answer, so the answer's budget bounds it too.
	if a.MaxTokens > s.cfg.BudgetTokens-200 {
		a.MaxTokens = max(s.cfg.BudgetTokens-200, 16)
	}
	res, err := s.api.Invoke("recall.buildContext", &api.ContextParams{Query: a.Query, MaxTokens: a.MaxTokens,
		Scope: api.Scope(a.Scope), Type: api.Type(a.Type), Workdir: workdir, Agent: c.st.agent})
	if err != nil {
		return nil, s.apiError(err, &nextCall{Tool: "build_context", Arguments: map[string]any{"query": a.Query, "max_tokens": 1500}})
	}
	return res, nil
}

func (s *Server) dailyAppend(c *call, raw json.RawMessage) (any, *toolError) {
	var a struct {
		Text string `json:"text"`
	}
	if e := s.decode("daily_append", raw, &a); e != nil {
		return nil, e
	}
	if strings.TrimSpace(a.Text) == "" {
		return nil, s.required("daily_append", "text", &nextCall{Tool: "daily_append", Arguments: map[string]any{"text": "…"}})
	}
	res, err := s.api.Invoke("daily.append", &api.AppendParams{Text: a.Text, Agent: c.st.agent})
	if err != nil {
		// An entry too long, or a day with no room left for agents: what is worth keeping
		// can still be a memory.
		return nil, s.apiError(err, &nextCall{Tool: "memory_write", Arguments: map[string]any{}})
	}
	return res, nil
}

// turnMessage and turnMutation are observe_turn's items, decoded strictly like every argument.
type turnMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	ID      string `json:"id,omitempty"`
}

type turnMutation struct {
	Tool string `json:"tool"`
	Path string `json:"path,omitempty"`
	Kind string `json:"kind,omitempty"`
}

// Bounds of one observed turn: extraction reads the last few user turns, so more is noise.
const (
	maxTurnMessages  = 64
	maxTurnMutations = 200
	maxMessageBytes  = 64 << 10
)

// turnFault is the first thing wrong with a turn: a catalog detail key and its arguments.
type turnFault struct {
	key  string
	args map[string]any
}

// checkTurn names the first thing wrong with a turn (nil when it is well formed).
func checkTurn(msgs []turnMessage, muts []turnMutation) *turnFault {
	at := func(list string, i int, field string) string { return fmt.Sprintf("%s[%d].%s", list, i, field) }
	switch {
	case len(msgs) == 0:
		return &turnFault{"detail.mcp_field_required", map[string]any{"Field": "messages"}}
	case len(msgs) > maxTurnMessages:
		return &turnFault{"detail.mcp_too_many", map[string]any{"Field": "messages", "Max": maxTurnMessages}}
	case len(muts) > maxTurnMutations:
		return &turnFault{"detail.mcp_too_many", map[string]any{"Field": "workspace_mutations", "Max": maxTurnMutations}}
	}
	for i, m := range msgs {
		if m.Role != "user" && m.Role != "assistant" {
			return &turnFault{"detail.mcp_field_one_of", map[string]any{"Field": at("messages", i, "role"), "Allowed": "user, assistant"}}
		}
		if len(m.Content) > maxMessageBytes {
			return &turnFault{"detail.mcp_field_too_long", map[string]any{"Field": at("messages", i, "content"), "Max": maxMessageBytes}}
		}
	}
	for i, m := range muts {
		if strings.TrimSpace(m.Tool) == "" {
			return &turnFault{"detail.mcp_field_required", map[string]any{"Field": at("workspace_mutations", i, "tool")}}
		}
		switch m.Kind {
		case "", "write", "edit", "delete", "command":
		default:
			return &turnFault{"detail.mcp_field_one_of", map[string]any{"Field": at("workspace_mutations", i, "kind"),
				"Allowed": "write, edit, delete, command"}}
		}
	}
	return nil
}

// observeTurn feeds extraction through the api method extraction.request, looked up when
// called: a build without it answers extraction_unavailable rather than pretending.
func (s *Server) observeTurn(c *call, raw json.RawMessage) (any, *toolError) {
	var a struct {
		SessionID          string         `json:"session_id"`
		Messages           []turnMessage  `json:"messages"`
		WorkspaceMutations []turnMutation `json:"workspace_mutations"`
		Workdir            string         `json:"workdir"`
	}
	if e := s.decode("observe_turn", raw, &a); e != nil {
		return nil, e
	}
	if bad := checkTurn(a.Messages, a.WorkspaceMutations); bad != nil {
		return nil, s.codedError(codeInvalidArguments, map[string]any{"Tool": "observe_turn", "Detail": s.detail(bad.key, bad.args)},
			&nextCall{Tool: "observe_turn", Arguments: map[string]any{"messages": []any{map[string]any{"role": "user", "content": "…"}}}})
	}
	if _, ok := s.api.Lookup("extraction.request"); !ok {
		return nil, s.codedError(codeExtractionUnavailable, nil, &nextCall{Tool: "memory_write", Arguments: map[string]any{}})
	}
	workdir, terr := s.resolveWorkdir(c.ctx, c.ss, c.st, a.Workdir)
	if terr != nil {
		return nil, terr
	}
	session := a.SessionID
	if session == "" {
		session = c.session
	}
	// The extraction input of DESIGN §6; the agent and the project are the session's.
	in := map[string]any{"session_id": session, "agent": c.st.agent, "messages": a.Messages}
	if workdir != "" {
		in["workdir"] = workdir
	}
	if len(a.WorkspaceMutations) > 0 {
		in["workspace_mutations"] = a.WorkspaceMutations
	}
	res, err := s.api.Call("extraction.request", mustJSON(in))
	if err != nil {
		return nil, s.apiError(err, nil)
	}
	return res, nil
}

// kvCall serves one kv_* tool through the api method of that name, looked up when called (the
// store lives in another part of Engram): the agent is always the session's, never an argument.
func kvCall(method string) func(s *Server, c *call, raw json.RawMessage) (any, *toolError) {
	tool := strings.Replace(method, ".", "_", 1)
	return func(s *Server, c *call, raw json.RawMessage) (any, *toolError) {
		p := map[string]any{}
		var err *toolError
		fromText := false // kv_set's value came as JSON text (kvValue)
		switch method {
		case "kv.get", "kv.delete":
			var a struct {
				Key string `json:"key"`
			}
			err, p["key"] = s.decode(tool, raw, &a), a.Key
		case "kv.set":
			// The value is any JSON value, passed on as sent: the api checks it (null, size,
			// secrets) as it does for every caller.
			var a struct {
				Key   string          `json:"key"`
				Value json.RawMessage `json:"value"`
			}
			err, p["key"] = s.decode(tool, raw, &a), a.Key
			p["value"], fromText = kvValue(a.Value)
		default:
			var a struct {
				Prefix string `json:"prefix"`
				Cursor string `json:"cursor"`
				Limit  int    `json:"limit"`
			}
			err, p["prefix"], p["cursor"], p["limit"] = s.decode(tool, raw, &a), a.Prefix, a.Cursor, a.Limit
		}
		if err != nil {
			return nil, err
		}
		if k, ok := p["key"].(string); ok && strings.TrimSpace(k) == "" {
			return nil, s.required(tool, "key", &nextCall{Tool: "kv_list", Arguments: map[string]any{}})
		}
		if _, ok := s.api.Lookup(method); !ok {
			return nil, s.codedError(codeKVUnavailable, map[string]any{"Method": method}, nil)
		}
		// The agent is the session's; a model never names it.
		p["agent"] = c.st.agent
		res, cerr := s.api.Call(method, mustJSON(p))
		if cerr != nil {
			return nil, s.apiError(cerr, nil)
		}
		if d, ok := res.(api.KVDeleteResult); ok && !d.Deleted {
			// Removing a key that is not there changes nothing (the api says deleted: false);
			// the model is told so in words.
			return map[string]any{"agent": d.Agent, "key": d.Key, "deleted": false,
				"notice": s.api.Text("notice.mcp_kv_nothing_deleted", map[string]any{"Key": d.Key})}, nil
		}
		if page, ok := res.(api.KVListResult); ok {
			page.Prefix = cutEcho(page.Prefix, maxEcho) // no key is longer than 256 bytes
			return s.fitKVPage(page), nil
		}
		if set, ok := res.(api.KVSetResult); ok && fromText {
			// The model is told what was stored, so that it does not read its kv_get back as a
			// surprise.
			return map[string]any{"agent": set.Agent, "key": set.Key, "created": set.Created, "changed": set.Changed,
				"value_from_text": true, "notice": s.api.Text("notice.mcp_kv_value_from_text", nil)}, nil
		}
		return res, nil
	}
}

// fitKVPage keeps a kv_list page within the result budget as fit keeps every list: entries
// from the front (at least one, so paging moves on), and a shortened page's next_cursor is the
// last key kept, which the store reads as "after this key"; a whole page keeps the api's.
func (s *Server) fitKVPage(page api.KVListResult) any {
	n := len(page.Entries)
	cursorAt := func(keep int) string {
		if keep == n {
			return page.NextCursor
		}
		return page.Entries[keep-1].Key
	}
	return s.fit(n, page.NextCursor != "", cursorAt, func(keep int, next string) any {
		p := page
		p.Entries, p.NextCursor = page.Entries[:keep], next
		return p
	})
}

// kvValue is the value kv_set stores for what was sent: a JSON string whose text is itself a
// JSON object or list becomes that object or list (fromText); anything else is stored as sent
// (a string stays a string, "42" and "true" included). Clients that build the call from a form
// or give the value a string type (older Codex CLI, Gemini CLI's forms) send an object as its
// JSON text, and kv_get then gave the agent back a string where it had meant an object.
func kvValue(raw json.RawMessage) (json.RawMessage, bool) {
	var text string
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '"' || json.Unmarshal(t, &text) != nil {
		return raw, false
	}
	inner := bytes.TrimSpace([]byte(text))
	if len(inner) == 0 || (inner[0] != '{' && inner[0] != '[') || !json.Valid(inner) {
		return raw, false
	}
	return inner, true
}
