package recall

import (
	"encoding/json"
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

// MaxToolOffset bounds how deep search and list page: a search ranks at most this many plus
// one page of hits.
const MaxToolOffset = 150

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
		"include_history": map[string]any{"type": "boolean",
			"description": "search: also return matching past messages of your own conversations in this project"},
		"offset": map[string]any{"type": "integer", "minimum": 0, "maximum": MaxToolOffset, "description": "search and list: skip this many entries (the next page)"},
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
	Action  string       `json:"action"`
	Query   string       `json:"query,omitempty"`
	ID      string       `json:"id,omitempty"`
	Slug    string       `json:"slug,omitempty"`
	Scope   memory.Scope `json:"scope,omitempty"`
	Type    memory.Type  `json:"type,omitempty"`
	Workdir string       `json:"workdir,omitempty"`
	Limit   int          `json:"limit,omitempty"`
	// Offset pages search and list: the entries before it were shown already.
	Offset          int               `json:"offset,omitempty"`
	Title           *string           `json:"title,omitempty"`
	Body            *string           `json:"body,omitempty"`
	Mode            string            `json:"mode,omitempty"`
	Confidence      memory.Confidence `json:"confidence,omitempty"`
	SourceQuote     *string           `json:"source_quote,omitempty"`
	Reasoning       *string           `json:"reasoning,omitempty"`
	Tags            []string          `json:"tags,omitempty"`
	Aliases         []string          `json:"aliases,omitempty"`
	ExpectedVersion string            `json:"expected_version,omitempty"`
	// IncludeHistory adds, to a search, the matching past messages of the caller's own
	// sessions (SessionsVisible decides which).
	IncludeHistory bool `json:"include_history,omitempty"`
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
