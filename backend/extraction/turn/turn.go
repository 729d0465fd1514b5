// Package turn is one conversation turn as clients deliver it to extraction (engram extract,
// extraction.request, the Claude Code hook, MCP's observe_turn). It is a leaf so the parsers
// that produce turns (the Claude Code transcript) need not link the extraction engine; package
// extraction re-exports the types under the same names.
package turn

import "strings"

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
