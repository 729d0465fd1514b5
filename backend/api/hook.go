package api

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"engram/backend/hook"
)

// CodeHookPersonOnly refuses the hook to any caller but the person's own processes (the CLI,
// the desktop window): it reads a file named in its params, which a browser or a model must
// never choose.
const CodeHookPersonOnly = "hook_person_only"

// CodeHookUnavailable is returned when the api was built without a hook service.
const CodeHookUnavailable = "hook_unavailable"

// HookService runs the hooks agent CLIs call after each turn.
type HookService struct{ a *API }

// ClaudeCode runs Claude Code's Stop hook (its stdin payload as params): the transcript's
// turns not forwarded before go to the running Engram's bridge, else to a detached
// `engram extract -`. Every run, failed or not, leaves one line in the home's hook.log.
func (s *HookService) ClaudeCode(p hook.Payload) (hook.Result, error) {
	return s.run("claude-code session "+p.SessionID, func(h *hook.Service) (hook.Result, error) { return h.ClaudeCode(s.a.ctx, p) })
}

// Codex runs Codex CLI's notify program (its payload, the last argument, as params) or its
// UserPromptSubmit or Stop hook (the Stop's rollout read for the turns not read before): the
// turn goes to the running Engram's bridge, else to a detached `engram extract -`; other
// notifications are logged and left.
func (s *HookService) Codex(p hook.CodexPayload) (hook.Result, error) {
	turn := p.TurnID
	if turn == "" {
		turn = p.HookTurnID
	}
	return s.run("codex turn "+turn, func(h *hook.Service) (hook.Result, error) { return h.Codex(s.a.ctx, p) })
}

// Gemini runs Gemini CLI's AfterAgent hook (its stdin payload as params): the turn's request
// and answer go to the running Engram's bridge, else to a detached `engram extract -`.
func (s *HookService) Gemini(p hook.GeminiPayload) (hook.Result, error) {
	return s.run("gemini session "+p.SessionID, func(h *hook.Service) (hook.Result, error) { return h.Gemini(s.a.ctx, p) })
}

// run runs one hook for the person's own processes only, and leaves one line about it (what
// names the agent and its session or turn) in the home's hook.log, failed or not.
func (s *HookService) run(what string, call func(*hook.Service) (hook.Result, error)) (hook.Result, error) {
	if err := s.a.Wait(); err != nil {
		return hook.Result{}, err
	}
	if !s.a.personCaller() {
		return hook.Result{}, s.a.newError(CodeHookPersonOnly, nil)
	}
	h := s.a.deps.Hook
	if h == nil {
		return hook.Result{}, s.a.newError(CodeHookUnavailable, nil)
	}
	// The session id and the paths in a message are the payload's: a newline or an escape code
	// in them would forge a line of the log or drive the terminal of whoever reads it.
	what = logSafe(what)
	res, err := call(h)
	if err != nil {
		err = s.a.fail(err)
		HookLog(h.Home(), fmt.Sprintf("%s: %s", what, logSafe(err.(*Error).Message)))
		return res, err
	}
	line := fmt.Sprintf("%s: %s, %d messages (%d of the person)", what, res.Status, res.Messages, res.PersonMessages)
	if res.Status == hook.StatusNotATurn {
		line = what + ": not a finished turn, left"
	}
	if res.BridgeError != "" {
		line += "; bridge: " + logSafe(res.BridgeError)
	}
	if res.Oversized > 0 {
		line += fmt.Sprintf("; %d oversized lines skipped", res.Oversized)
	}
	HookLog(h.Home(), line)
	return res, nil
}

// logSafe writes each control character of s (a newline, an escape) as its Go escape, so a
// value a payload chose stays on its one line of the log, visibly.
func logSafe(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// HookLog appends one timestamped line to the hook log of home (hook.log, 0600, rotated past
// 1 MiB). Hooks print nothing an agent would act on; what they have to say goes here.
func HookLog(home, line string) {
	if home == "" {
		return
	}
	f, err := hook.OpenLog(home)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s\n", time.Now().UTC().Format(time.RFC3339), line)
}

// PublishBridge writes the home's bridge discovery file (bridge.json: url and pid, 0600), so
// hooks hand their turns to this process; UnpublishBridge removes it if it is still pid's.
func PublishBridge(home, url string, pid int) error {
	return hook.WriteDiscovery(home, hook.Discovery{URL: url, PID: pid})
}

// UnpublishBridge removes the discovery file PublishBridge wrote for url and pid.
func UnpublishBridge(home, url string, pid int) error {
	return hook.RemoveDiscovery(home, hook.Discovery{URL: url, PID: pid})
}

// HookPayload is what Claude Code sends a hook on stdin.
type HookPayload = hook.Payload

// CodexPayload is what Codex CLI hands its notify program after each turn.
type CodexPayload = hook.CodexPayload

// GeminiPayload is what Gemini CLI sends its AfterAgent hook on stdin.
type GeminiPayload = hook.GeminiPayload
