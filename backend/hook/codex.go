package hook

import (
	"context"
	"fmt"
	"strings"

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
//
// Codex's hooks (its Claude Code-style `[hooks]`, JSON on stdin) are read too: a
// UserPromptSubmit hook carries the person's prompt with its session and turn, and is learned
// as that turn (the answer is not known yet; the person's words are the evidence). Its Stop
// hook names the session's rollout, and the turns not read before are read from it, with
// the answers and the files patched (transcript/codex.go); a Stop without a rollout has
// nothing to read.
type CodexPayload struct {
	Type                 string   `json:"type,omitempty"`
	ThreadID             string   `json:"thread-id,omitempty"`
	TurnID               string   `json:"turn-id,omitempty"`
	Cwd                  string   `json:"cwd,omitempty"`
	InputMessages        []string `json:"input-messages,omitempty"`
	LastAssistantMessage string   `json:"last-assistant-message,omitempty"`

	// The hook form's fields.
	HookEventName  string `json:"hook_event_name,omitempty"`
	SessionID      string `json:"session_id,omitempty"`
	HookTurnID     string `json:"turn_id,omitempty"`
	Prompt         string `json:"prompt,omitempty"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	StopHookActive bool   `json:"stop_hook_active,omitempty"`
}

// CodexStop is the Codex hook event at the end of a turn: it names the session's rollout
// (transcript_path), which is read like Claude Code's transcript.
const CodexStop = "Stop"

// CodexPromptSubmit is the Codex hook event that carries the person's prompt.
const CodexPromptSubmit = "UserPromptSubmit"

// fromHook is p in the notify form when it came from Codex's UserPromptSubmit hook.
func (p CodexPayload) fromHook() CodexPayload {
	if p.HookEventName != CodexPromptSubmit {
		return p
	}
	return CodexPayload{Type: CodexTurnComplete, ThreadID: p.SessionID, TurnID: p.HookTurnID, Cwd: p.Cwd,
		InputMessages: []string{p.Prompt}}
}

// Codex learns one finished Codex turn: the person's input messages and the agent's last
// answer go to the running Engram, else to a detached extraction, like Claude Code's turns.
// The turn's id is claimed first, so a notification delivered twice is learned once; when
// neither way works the claim is released for the next try.
func (s *Service) Codex(ctx context.Context, p CodexPayload) (Result, error) {
	if p.HookEventName == CodexStop {
		if p.TranscriptPath == "" {
			return Result{Status: StatusNotATurn}, nil
		}
		return s.transcriptTurns(ctx, AgentCodex, Payload{SessionID: p.SessionID, TranscriptPath: p.TranscriptPath,
			Cwd: p.Cwd, HookEventName: p.HookEventName, StopHookActive: p.StopHookActive})
	}
	hookForm := p.HookEventName == CodexPromptSubmit
	p = p.fromHook()
	if p.Type != CodexTurnComplete {
		return Result{Status: StatusNotATurn}, nil
	}
	if err := checkCodex(p, hookForm); err != nil {
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

// codexRequest is the turn as an extraction request: the newest input messages that fit the
// transcript reader's bounds (each cut on a rune boundary), then the answer.
func codexRequest(p CodexPayload, session, workdir string) turn.Request {
	req := turn.Request{SessionID: session, Agent: AgentCodex, Workdir: workdir, Messages: []turn.Message{}}
	answer := transcript.Cut(strings.TrimSpace(p.LastAssistantMessage), transcript.MaxMessageBytes)
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
				Content: transcript.Cut(text, transcript.MaxMessageBytes), ID: fmt.Sprintf("%s/in/%d", p.TurnID, i)})
		}
	}
	if answer != "" && len(req.Messages) > 0 {
		req.Messages = append(req.Messages, turn.Message{Role: transcript.RoleAssistant, Content: answer, ID: p.TurnID + "/out"})
	}
	return req
}

// checkCodex refuses a payload the hook cannot act on, naming the field as the form it came in
// spells it (notify's "turn-id", the UserPromptSubmit hook's "turn_id") and what it must be.
func checkCodex(p CodexPayload, hookForm bool) error {
	turnField, threadField := "turn-id", "thread-id"
	if hookForm {
		turnField, threadField = "turn_id", "session_id"
	}
	if err := checkID(turnField, p.TurnID, true); err != nil {
		return err
	}
	if err := checkID(threadField, p.ThreadID, false); err != nil {
		return err
	}
	if p.ThreadID == "" && !printableID("turn-"+p.TurnID) {
		// Without a thread the turn is a session of its own, "turn-" and its id: that name must
		// fit the store's bound too.
		max := memory.MaxSessionID - len("turn-")
		return invalid(turnField, "detail.hook_id", fmt.Sprintf("it must be printable text of at most %d bytes", max), map[string]any{"Max": max})
	}
	for _, m := range p.InputMessages {
		if err := checkText("input-messages", m); err != nil {
			return err
		}
	}
	return checkText("last-assistant-message", p.LastAssistantMessage)
}
