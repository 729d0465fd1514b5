// Package turn is one conversation turn as clients deliver it to extraction (engram extract,
// extraction.request, the Claude Code hook, MCP's observe_turn). It is a leaf so the parsers
// that produce turns (the Claude Code transcript) need not link the extraction engine; package
// extraction re-exports the types under the same names.
package turn

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// Request is one turn to learn from, as `engram extract`, extraction.request, the Claude Code
// hook and MCP's observe_turn deliver it.
type Request struct {
	SessionID          string     `json:"session_id"`
	Agent              string     `json:"agent"`
	Workdir            string     `json:"workdir,omitempty"`
	Messages           []Message  `json:"messages"`
	WorkspaceMutations []Mutation `json:"workspace_mutations,omitempty"`
	// SessionTurn is the session's sequence number of the newest user message, set by the api
	// when it records the turn (never read from a client): written memories name it as their
	// source turn, so a session's summary can keep the turns that produced memories.
	SessionTurn int `json:"-"`
}

// Message is one message of the conversation. Only the person's (user) messages are evidence
// of what the person said; assistant messages give context.
type Message struct {
	Role    string `json:"role"` // user | assistant
	Content string `json:"content"`
	// ID identifies the message in its source (a transcript entry's uuid), when known.
	ID string `json:"id,omitempty"`
}

// UnmarshalJSON reads a message as Engram's clients send it ({role, content: text, id}) and
// as other clients forward their own: content as a list of parts (OpenAI's and Anthropic's
// chat formats, OpenAI's Responses input) or Gemini's "parts". Before, such a message refused
// the whole turn ("messages.content must be text"). The text parts are the message's words;
// images, thinking and tool calls are left out; a message made of a tool's output
// (holding a tool_result, function_call_output or functionResponse) gets the role "tool", which
// NormalizeRoles leaves out: it is no one's words. Fields other than these are refused, as
// before.
func (m *Message) UnmarshalJSON(data []byte) error {
	var raw struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		Parts   json.RawMessage `json:"parts"`
		ID      string          `json:"id"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	*m = Message{Role: raw.Role, ID: raw.ID}
	field, list := "content", raw.Content
	if len(bytes.TrimSpace(raw.Parts)) > 0 && string(bytes.TrimSpace(raw.Parts)) != "null" {
		field, list = "parts", raw.Parts
	}
	list = bytes.TrimSpace(list)
	switch {
	case len(list) == 0 || string(list) == "null":
		return nil
	case list[0] == '"':
		return json.Unmarshal(list, &m.Content)
	case list[0] != '[':
		return notText(field, list)
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(list, &parts); err != nil {
		return notText(field, list)
	}
	var texts []string
	toolOutput := false
	for _, p := range parts {
		var s string
		if json.Unmarshal(p, &s) == nil {
			texts = append(texts, s)
			continue
		}
		var part struct {
			Type             string          `json:"type"`
			Text             *string         `json:"text"`
			FunctionResponse json.RawMessage `json:"functionResponse"`
		}
		if json.Unmarshal(p, &part) != nil {
			return notText(field, p)
		}
		switch {
		case part.Type == "tool_result" || part.Type == "function_call_output" || len(part.FunctionResponse) > 0:
			toolOutput = true
		case part.Text != nil && (part.Type == "" || part.Type == "text" || part.Type == "input_text" || part.Type == "output_text"):
			texts = append(texts, *part.Text)
		}
	}
	m.Content = strings.Join(texts, "\n\n")
	if toolOutput {
		m.Role = "tool" // as the transcript reader takes any message holding a tool_result
	}
	return nil
}

// notText is the type error of a content that is neither text nor a list of parts.
func notText(field string, v json.RawMessage) error {
	kind := "object"
	switch v[0] {
	case '[':
		kind = "array"
	case '"':
		kind = "string"
	case 't', 'f':
		kind = "bool"
	case 'n':
		kind = "null"
	default:
		if v[0] == '-' || v[0] >= '0' && v[0] <= '9' {
			kind = "number"
		}
	}
	return &json.UnmarshalTypeError{Value: kind, Type: reflect.TypeOf(""), Field: field}
}

// Mutation is a change the agent made to the workspace during the turn (a file-writing tool
// use): evidence that the turn was about this project.
type Mutation struct {
	Tool string `json:"tool"`           // Write, Edit, Bash, …
	Path string `json:"path,omitempty"` // the file written, when known
	Kind string `json:"kind,omitempty"` // write | edit | delete | command
}

// NormalizeRoles reads the roles clients other than Engram's own name messages with: any case
// ("User"), the other common names of the two sides ("human"; "ai", "bot", and Gemini's
// "model"), and the messages that are neither side — a system or developer prompt, a tool's
// output — which are left out: they are no one's words in the conversation, and a client
// that sent them had its whole turn refused. A role still unknown is kept for the caller to
// refuse by name.
func NormalizeRoles(msgs []Message) []Message {
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		switch r := strings.ToLower(strings.TrimSpace(m.Role)); r {
		case "user", "human", "person":
			m.Role = "user"
		case "assistant", "ai", "bot", "model", "agent":
			m.Role = "assistant"
		case "system", "developer", "tool", "function", "ipython":
			continue
		}
		out = append(out, m)
	}
	return out
}
