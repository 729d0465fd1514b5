package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/api"
)

// call is one tool call being served: who calls (from the session, never the arguments) and
// the project it works in.
type call struct {
	ctx     context.Context
	ss      *sdk.ServerSession
	st      *session
	session string
}

// tool is one entry of the server's tool table.
type tool struct {
	name, desc                        string
	schema                            map[string]any
	readOnly, destructive, idempotent bool
	// agentOnly tools need an agent (KV, observe_turn: a turn is learned for its agent); memory
	// tools need one only for scope "agent".
	agentOnly bool
	run       func(s *Server, c *call, raw json.RawMessage) (any, *toolError)
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

func enum(desc string, values ...string) map[string]any {
	return map[string]any{"type": "string", "enum": values, "description": desc}
}

func strs(desc string) map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": desc}
}

// enums is a list whose items are each one of values.
func enums(desc string, values ...string) map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": values}, "description": desc}
}

func integer(desc string, lo, hi int) map[string]any {
	return map[string]any{"type": "integer", "minimum": lo, "maximum": hi, "description": desc}
}

func object(props map[string]any, required ...string) map[string]any {
	if required == nil {
		required = []string{}
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

// anyJSONValue is kv_set's value: any JSON value but null, each kind named with its own type.
// With no type at all, Gemini CLI skipped the whole tool ("missing types in its parameter
// schema") and Codex read it as a string; a list of types ("type": [...]) is refused by
// Gemini's API and by ajv's strict mode. anyOf of single types is read by all of them (a
// client that still reads it as text sends an object as JSON text, which kv_set reads back:
// kvValue). The list names what it holds ("items"): Gemini's API refuses a whole request whose
// tools have an array without items ("any_of[4].items: missing field"), and the items must be
// typed too (Gemini CLI skips a tool with an untyped schema anywhere), so they are any JSON
// value, null included, with lists inside lists named two levels deep (a schema cannot name a
// type that takes everything; the server reads deeper lists all the same).
var anyJSONValue = map[string]any{
	"description": "the value: a string, number, true/false, list or object (not null), at most 64 KiB. " +
		"Send a list or object as itself; a string holding a JSON object or list is stored as that object or list",
	"anyOf": []any{
		map[string]any{"type": "string"}, map[string]any{"type": "number"}, map[string]any{"type": "boolean"},
		map[string]any{"type": "object"}, map[string]any{"type": "array", "items": anyJSONItem(1)},
	},
}

// anyJSONItem is an element of a list: any JSON value, lists nested depth more levels.
func anyJSONItem(depth int) map[string]any {
	alts := []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}, map[string]any{"type": "boolean"},
		map[string]any{"type": "null"}, map[string]any{"type": "object"}}
	if depth > 0 {
		alts = append(alts, map[string]any{"type": "array", "items": anyJSONItem(depth - 1)})
	}
	return map[string]any{"anyOf": alts}
}

// Argument schemas shared by the memory tools; names follow the api and the CLI.
var (
	argScope    = enum("narrows to one scope: global, project (the current project) or agent (your own notes)", "global", "project", "agent")
	argType     = enum("memory type", "user", "feedback", "project", "reference", "experience", "daily")
	argWorkType = enum("memory type", "user", "feedback", "project", "reference", "experience")
	argWorkdir  = str("optional: one of the project folders this session may use (its roots); leave it out for the current project")
	argID       = str("the memory's id (instead of slug and scope)")
	argSlug     = str("the memory's slug: lowercase letters, digits and dashes")
	argCursor   = str("next_cursor from the previous page")
	argVersion  = str("the version you read; refuses to overwrite or delete a newer edit")
)

// tools is the one table of this server's tools.
func tools() []tool {
	return []tool{
		{name: "memory_search", readOnly: true, idempotent: true, run: (*Server).memorySearch,
			schema: object(map[string]any{"query": str("what to look for, in any words (English or Chinese)"), "scope": argScope,
				"type": argType, "limit": integer("hits per page (default 10)", 1, 50), "cursor": argCursor, "workdir": argWorkdir}, "query")},
		{name: "memory_read", readOnly: true, idempotent: true, run: (*Server).memoryRead,
			schema: object(map[string]any{"id": argID, "slug": argSlug, "scope": argScope, "workdir": argWorkdir})},
		{name: "memory_list", readOnly: true, idempotent: true, run: (*Server).memoryList,
			schema: object(map[string]any{"scope": argScope, "type": argType, "limit": integer("entries per page (default 20)", 1, 50),
				"cursor": argCursor, "workdir": argWorkdir})},
		{name: "memory_write", run: (*Server).memoryWrite,
			schema: object(map[string]any{"slug": argSlug, "scope": argScope, "type": argWorkType,
				"title": str("one line, at most 120 characters"), "body": str("Markdown, at most 8 KiB"),
				"confidence":   enum("how sure; bounded by the quote", "high", "medium", "low"),
				"source_quote": str("the person's words, verbatim"), "reasoning": str("why this is worth remembering"),
				"tags": strs("short labels"), "aliases": strs("other names for the same thing"), "workdir": argWorkdir},
				"slug", "scope", "type", "title", "body")},
		{name: "memory_update", destructive: true, run: (*Server).memoryUpdate,
			schema: object(map[string]any{"id": argID, "slug": argSlug, "scope": argScope,
				"title": str("the new title"), "body": str("Markdown, at most 8 KiB"),
				"mode":         enum("merge appends the body, replace rewrites it", "merge", "replace"),
				"confidence":   enum("how sure; bounded by the quote", "high", "medium", "low"),
				"source_quote": str("the person's words, verbatim"), "reasoning": str("why it changes"),
				"tags": strs("replaces the tags"), "aliases": strs("replaces the aliases"), "expected_version": argVersion,
				"workdir": argWorkdir})},
		{name: "memory_delete", destructive: true, idempotent: true, run: (*Server).memoryDelete,
			schema: object(map[string]any{"id": argID, "slug": argSlug, "scope": argScope, "expected_version": argVersion,
				"workdir": argWorkdir})},
		{name: "memory_overview", readOnly: true, idempotent: true, run: (*Server).memoryOverview,
			schema: object(map[string]any{"workdir": argWorkdir})},
		{name: "build_context", readOnly: true, idempotent: true, run: (*Server).buildContext,
			schema: object(map[string]any{"query": str("the task or question the context is for"),
				"max_tokens": integer("token budget of the block (default 1500)", 16, 32000), "scope": argScope, "type": argType,
				"workdir": argWorkdir}, "query")},
		{name: "daily_append", run: (*Server).dailyAppend,
			schema: object(map[string]any{"text": str(fmt.Sprintf("one short journal entry, at most %d bytes", api.MaxAgentDailyEntry))}, "text")},
		{name: "observe_turn", agentOnly: true, run: (*Server).observeTurn,
			schema: object(map[string]any{"session_id": str("your conversation's id"),
				"messages": map[string]any{"type": "array", "minItems": 1, "maxItems": 64, "description": "the turn's messages, oldest first",
					"items": object(map[string]any{"role": enum("who spoke", "user", "assistant"), "content": str("the message text"),
						"id": str("the message's id, if it has one")}, "role", "content")},
				"workspace_mutations": map[string]any{"type": "array", "maxItems": 200, "description": "files changed in the turn",
					"items": object(map[string]any{"tool": str("Write, Edit, Bash…"), "path": str("the file"),
						"kind": enum("what happened", "write", "edit", "delete", "command")}, "tool")},
				"workdir": argWorkdir}, "messages")},
		{name: "graph_entities", readOnly: true, idempotent: true, run: graphCall("graph_entities", "graph.entities"),
			schema: object(map[string]any{"query": str("part of a name or alias, in any language; empty lists the busiest"),
				"types": enums("entity types: person, organization, project, tool, place, concept, event", api.EntityTypes()...),
				"limit": integer("entities (default 50)", 1, 500), "scope": argScope, "workdir": argWorkdir})},
		{name: "graph_neighbors", readOnly: true, idempotent: true, run: graphCall("graph_neighbors", "graph.neighbors"),
			schema: object(map[string]any{"entity": str("the entity's id or name"), "depth": integer("hops (default 1)", 1, 3),
				"relation_types": strs("only follow these relation types"), "entity_types": enums("only reach these entity types", api.EntityTypes()...),
				"limit": integer("nodes (default 200)", 1, 1000), "scope": argScope, "workdir": argWorkdir}, "entity")},
		{name: "graph_path", readOnly: true, idempotent: true, run: graphCall("graph_path", "graph.path"),
			schema: object(map[string]any{"from": str("the first entity's id or name"), "to": str("the second entity's id or name"),
				"max_hops": integer("longest path looked for (default 4)", 1, 6), "relation_types": strs("only follow these relation types"),
				"scope": argScope, "workdir": argWorkdir}, "from", "to")},
		{name: "graph_subgraph", readOnly: true, idempotent: true, run: graphCall("graph_subgraph", "graph.subgraph"),
			schema: object(map[string]any{"entity": str("the centre's id or name; empty for the busiest part of the graph"),
				"depth": integer("hops (default 2)", 1, 3), "limit": integer("nodes (default 200)", 1, 1000),
				"relation_types": strs("only follow these relation types"), "entity_types": enums("only include these entity types", api.EntityTypes()...),
				"scope": argScope, "workdir": argWorkdir})},
		{name: "kv_get", readOnly: true, idempotent: true, agentOnly: true, run: kvCall("kv.get"),
			schema: object(map[string]any{"key": str("the key")}, "key")},
		{name: "kv_set", idempotent: true, destructive: true, agentOnly: true, run: kvCall("kv.set"),
			schema: object(map[string]any{"key": str("the key"), "value": anyJSONValue}, "key", "value")},
		{name: "kv_delete", idempotent: true, destructive: true, agentOnly: true, run: kvCall("kv.delete"),
			schema: object(map[string]any{"key": str("the key")}, "key")},
		{name: "kv_list", readOnly: true, idempotent: true, agentOnly: true, run: kvCall("kv.list"),
			schema: object(map[string]any{"prefix": str("only keys starting with this"),
				"cursor": str("next_cursor from the previous page (the last key it listed), with the same prefix"),
				"limit":  integer("keys per page (default 100)", 1, 1000)})},
	}
}

// sdkTool is t as the protocol describes it, with truthful hints: nothing here reaches an open
// world; read-only tools change nothing; destructive ones may overwrite or remove.
func (t tool) sdkTool() *sdk.Tool {
	closed := false
	ann := &sdk.ToolAnnotations{ReadOnlyHint: t.readOnly, IdempotentHint: t.idempotent, OpenWorldHint: &closed}
	if !t.readOnly {
		d := t.destructive
		ann.DestructiveHint = &d
	}
	return &sdk.Tool{Name: t.name, Description: api.MCPToolDescription(t.name), InputSchema: t.schema, Annotations: ann}
}

// decode reads a tool's arguments strictly: unknown fields and wrong types are refused with the
// fix named, so a model learns the schema from the error.
func (s *Server) decode(tool string, raw json.RawMessage, into any) *toolError {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return s.codedError(codeInvalidArguments, map[string]any{"Tool": tool, "Detail": s.decodeDetail(tool, err)},
			&nextCall{Tool: tool, Arguments: map[string]any{}})
	}
	return nil
}

// register adds every tool to the SDK server behind one wrapper: the session's identity, the
// agent check, the call record, and a panic-free error result for every failure.
func (s *Server) register() {
	s.schemas = map[string]map[string]any{}
	for _, t := range tools() {
		t := t
		s.schemas[t.name] = t.schema
		s.srv.AddTool(t.sdkTool(), func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			st := s.sessionFor(req.Session)
			c := &call{ctx: ctx, ss: req.Session, st: st, session: st.id}
			s.record(c.st, t.name)
			if t.agentOnly && c.st.agent == "" {
				return errorResult(s.refusal(t.name, nil, s.agentUnknown(t.name))), nil
			}
			if terr := s.checkKeys(t.name, req.Params.Arguments); terr != nil {
				return errorResult(s.refusal(t.name, req.Params.Arguments, terr)), nil
			}
			args := coerceArgs(t.schema, req.Params.Arguments)
			if terr := s.checkArgs(t.name, args); terr != nil {
				return errorResult(s.refusal(t.name, args, terr)), nil
			}
			res, terr := t.run(s, c, args)
			if terr != nil {
				return errorResult(s.refusal(t.name, args, terr)), nil
			}
			return okResult(res), nil
		})
	}
	s.resolveSchemas()
}

// agentUnknown refuses agent-scope work for a session that named no agent. A session revived
// after a restart has the agent its signed id carries, so it has none only when its client
// never named one.
func (s *Server) agentUnknown(tool string) *toolError {
	return s.codedError(codeAgentUnknown, map[string]any{"Tool": tool},
		&nextCall{Tool: "memory_search", Arguments: map[string]any{"scope": "global"}})
}
