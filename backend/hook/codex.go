package hook

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"engram/backend/extraction/turn"
	"engram/backend/memory"
	"engram/backend/transcript"
)

// AgentCodex is the agent name of turns from OpenAI's Codex CLI.
const AgentCodex = "codex"

// CodexTurnComplete is the only notification Codex's `notify` program is given today.
const CodexTurnComplete = "agent-turn-complete"

// StatusNotATurn: a Codex notification of another kind than a finished turn (nothing to read).
const StatusNotATurn = "not_a_turn"

// CodexPayload is what Codex hands its `notify` program (config.toml: notify = ["engram",
// "hook", "codex"]) as its last argument after each turn: the turn's own messages, not a
// transcript. thread-id and cwd came in later versions; a payload without a thread is
// learned as a session of its own turn.
type CodexPayload struct {
	Type                 string   `json:"type"`
	ThreadID             string   `json:"thread-id,omitempty"`
	TurnID               string   `json:"turn-id"`
	Cwd                  string   `json:"cwd,omitempty"`
	InputMessages        []string `json:"input-messages"`
	LastAssistantMessage string   `json:"last-assistant-message,omitempty"`
}

// Codex learns one finished Codex turn: the person's input messages and the agent's last
// answer go to the running Engram, else to a detached extraction, like Claude Code's turns.
// The turn's id is claimed first, so a notification delivered twice is learned once; when
// neither way works the claim is released for the next try.
func (s *Service) Codex(ctx context.Context, p CodexPayload) (Result, error) {
	if p.Type != CodexTurnComplete {
		return Result{Status: StatusNotATurn}, nil
	}
	if err := checkCodex(p); err != nil {
		return Result{}, err
	}
	session := p.ThreadID
	if session == "" {
		session = "turn-" + p.TurnID
	}
	workdir, err := hookWorkdir(p.Cwd)
	if err != nil {
		return Result{}, err
	}
	return s.handTurn(ctx, codexRequest(p, session, workdir), p.TurnID)
}

// handTurn hands one turn an agent delivered whole (not as a transcript) to extraction: its key
// is claimed first, so a turn delivered twice is learned once, and released when neither the
// bridge nor a detached run took it.
func (s *Service) handTurn(ctx context.Context, req turn.Request, key string) (Result, error) {
	res := Result{Status: StatusNothingNew}
	if !transcript.HasPerson(req) {
		return res, nil
	}
	claimed, err := s.o.Store.ClaimTranscriptEntries(ctx, req.Agent, req.SessionID, []string{key})
	if err != nil {
		return Result{}, err
	}
	if len(claimed) == 0 {
		return res, nil // this turn was handed over already
	}
	for _, m := range req.Messages {
		res.Messages++
		if m.Role == transcript.RoleUser {
			res.PersonMessages++
		}
	}
	if err := s.handOver(ctx, req, &res); err != nil {
		if rerr := s.o.Store.ReleaseTranscriptEntries(context.WithoutCancel(ctx), req.Agent, req.SessionID, claimed); rerr != nil {
			s.o.Logger.Warn("hook: unable to release a turn", "agent", req.Agent, "err", rerr)
		}
		return res, err
	}
	return res, nil
}

// hookWorkdir is a hook's cwd as a project folder ("" for none), or the refusal naming field.
func hookWorkdir(cwd string) (string, error) {
	if cwd == "" {
		return "", nil
	}
	w, err := memory.CanonicalWorkdir(cwd)
	if err != nil {
		return "", codeErr(CodeInvalidPayload, map[string]any{"Field": "cwd", "Detail": err.Error()}, "cwd %q is not an absolute path", cwd)
	}
	return w, nil
}

// codexRequest is the turn as an extraction request: the newest input messages that fit the
// transcript reader's bounds (each cut on a rune boundary), then the answer.
func codexRequest(p CodexPayload, session, workdir string) turn.Request {
	req := turn.Request{SessionID: session, Agent: AgentCodex, Workdir: workdir, Messages: []turn.Message{}}
	answer := cutRunes(strings.TrimSpace(p.LastAssistantMessage), transcript.MaxMessageBytes)
	total := len(answer)
	start := len(p.InputMessages)
	for i := len(p.InputMessages) - 1; i >= 0 && len(p.InputMessages)-i <= transcript.MaxPersonTurns; i-- {
		size := min(len(strings.TrimSpace(p.InputMessages[i])), transcript.MaxMessageBytes)
		if total+size > transcript.MaxRequestBytes {
			break
		}
		total += size
		start = i
	}
	for i := start; i < len(p.InputMessages); i++ {
		if text := strings.TrimSpace(p.InputMessages[i]); text != "" {
			req.Messages = append(req.Messages, turn.Message{Role: transcript.RoleUser,
				Content: cutRunes(text, transcript.MaxMessageBytes), ID: fmt.Sprintf("%s/in/%d", p.TurnID, i)})
		}
	}
	if answer != "" && len(req.Messages) > 0 {
		req.Messages = append(req.Messages, turn.Message{Role: transcript.RoleAssistant, Content: answer, ID: p.TurnID + "/out"})
	}
	return req
}

// checkCodex refuses a payload the hook cannot act on.
func checkCodex(p CodexPayload) error {
	bad := func(field, detail string) error {
		return codeErr(CodeInvalidPayload, map[string]any{"Field": field, "Detail": detail}, "%s: %s", field, detail)
	}
	printable := func(s string) bool {
		return len(s) <= memory.MaxSessionID && utf8.ValidString(s) && strings.IndexFunc(s, unicode.IsControl) < 0
	}
	if p.TurnID == "" || !printable(p.TurnID) {
		return bad("turn-id", "missing or not a printable id")
	}
	if !printable(p.ThreadID) || len("turn-"+p.TurnID) > memory.MaxSessionID && p.ThreadID == "" {
		return bad("thread-id", "not a printable id")
	}
	for _, m := range p.InputMessages {
		if !utf8.ValidString(m) {
			return bad("input-messages", "not UTF-8 text")
		}
	}
	if !utf8.ValidString(p.LastAssistantMessage) {
		return bad("last-assistant-message", "not UTF-8 text")
	}
	return nil
}

// cutRunes shortens s to at most n bytes without splitting a rune.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
