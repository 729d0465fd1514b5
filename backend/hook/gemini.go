package hook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"engram/backend/extraction/turn"
	"engram/backend/transcript"
)

// AgentGemini is the agent name of turns from Google's Gemini CLI.
const AgentGemini = "gemini"

// GeminiAfterAgent is the Gemini CLI hook event that ends a turn.
const GeminiAfterAgent = "AfterAgent"

// GeminiPayload is what Gemini CLI sends an AfterAgent hook on stdin (settings.json:
// hooks.AfterAgent → engram hook gemini): the base fields every hook gets, the person's
// request and the agent's final answer.
type GeminiPayload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	Cwd            string `json:"cwd,omitempty"`
	HookEventName  string `json:"hook_event_name,omitempty"`
	Timestamp      string `json:"timestamp,omitempty"`
	Prompt         string `json:"prompt"`
	PromptResponse string `json:"prompt_response,omitempty"`
	StopHookActive bool   `json:"stop_hook_active,omitempty"`
}

// Gemini learns one finished Gemini CLI turn, the request and the answer its AfterAgent hook
// carries, as Codex's turns are learned. A turn Gemini runs again because a hook asked for a
// retry (stop_hook_active) is left: the first answer's turn was learned already. The same
// request and answer delivered twice in a session are learned once.
func (s *Service) Gemini(ctx context.Context, p GeminiPayload) (Result, error) {
	if p.StopHookActive {
		return Result{Status: StatusStopHookActive}, nil
	}
	if p.HookEventName != "" && p.HookEventName != GeminiAfterAgent {
		return Result{Status: StatusNotATurn}, nil
	}
	if err := checkGemini(p); err != nil {
		return Result{}, err
	}
	workdir, err := hookWorkdir(p.Cwd)
	if err != nil {
		return Result{}, err
	}
	req := turn.Request{SessionID: p.SessionID, Agent: AgentGemini, Workdir: workdir, Messages: []turn.Message{}}
	prompt := strings.TrimSpace(p.Prompt)
	answer := strings.TrimSpace(p.PromptResponse)
	sum := sha256.Sum256([]byte(prompt + "\x00" + answer))
	key := "turn-" + hex.EncodeToString(sum[:8])
	if prompt != "" {
		req.Messages = append(req.Messages, turn.Message{Role: transcript.RoleUser, Content: transcript.Cut(prompt, transcript.MaxMessageBytes), ID: key + "/in"})
		if answer != "" {
			req.Messages = append(req.Messages, turn.Message{Role: transcript.RoleAssistant, Content: transcript.Cut(answer, transcript.MaxMessageBytes), ID: key + "/out"})
		}
	}
	return s.handTurn(ctx, req, key)
}

// checkGemini refuses a payload the hook cannot act on, naming the field and what it must be.
func checkGemini(p GeminiPayload) error {
	if err := checkID("session_id", p.SessionID, true); err != nil {
		return err
	}
	if err := checkText("prompt", p.Prompt); err != nil {
		return err
	}
	return checkText("prompt_response", p.PromptResponse)
}
