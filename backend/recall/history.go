package recall

import (
	"context"
	"strings"
	"time"

	"engram/backend/memory"
)

// HistoryTurn is one past message the MemoryManager search returns with include_history: a
// message of one of the caller's own sessions (or, Seq 0, the summary of its older messages).
type HistoryTurn struct {
	Session string `json:"session"`
	Seq     int    `json:"seq,omitempty"`
	Role    string `json:"role"`
	Snippet string `json:"snippet"`
	At      string `json:"at"`
	// CutBytes says the stored message was itself cut when recorded (it lost that many bytes):
	// an agent must not take it for all that was said.
	CutBytes int `json:"cut_bytes,omitempty"`
}

// historySnippetChars bounds one history message as the tool shows it.
const historySnippetChars = 400

// SessionsVisible reports whether the view may see a session's messages: sessions are never
// global, so only an unnarrowed view, or one narrowed to the caller's project or agent, sees
// them, and only the caller's own sessions (its agent) in the caller's project (or, for a
// caller without one, the sessions that had none). A conversation in another project, or of
// another agent, stays out whatever the call asks.
func (v Visibility) SessionsVisible(agent, projectKey string) bool {
	if v.agent == "" || v.scope == memory.ScopeGlobal {
		return false
	}
	return agent == v.agent && projectKey == v.projectKey
}

// searchHistory returns the caller's past messages matching every word of query, newest
// first; every hit is checked again against the view.
func (s *Service) searchHistory(ctx context.Context, v Visibility, query string, limit int) ([]HistoryTurn, error) {
	out := []HistoryTurn{}
	if !v.SessionsVisible(v.agent, v.projectKey) {
		return out, nil
	}
	hits, err := s.store.SearchHistory(ctx, memory.HistoryQuery{Agent: v.agent, ProjectKey: v.projectKey,
		Terms: strings.Fields(query), Limit: limit})
	if err != nil {
		return nil, err
	}
	for _, h := range hits {
		if !v.SessionsVisible(h.Agent, h.ProjectKey) {
			continue
		}
		snippet := h.Content
		if r := []rune(snippet); len(r) > historySnippetChars {
			snippet = string(r[:historySnippetChars]) + "…"
		}
		out = append(out, HistoryTurn{Session: h.Session, Seq: h.Seq, Role: h.Role, Snippet: snippet,
			At: h.At.UTC().Format(time.RFC3339), CutBytes: h.CutBytes})
	}
	return out, nil
}
