package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"

	"engram/backend/api"
)

// maxHookPayload bounds what a hook reads from stdin (Claude Code's payload is a few hundred
// bytes).
const maxHookPayload = 1 << 20

// hook runs an agent CLI's after-turn hook: `engram hook claude-code`, Claude Code's Stop
// hook, its payload on stdin (`engram hook codex`: Codex CLI's notify program, below). Claude Code acts on a hook's stdout and blocks the agent on
// exit 2, so this command prints nothing on stdout and exits 0 whatever happens (a panic
// included: Go exits 2 on one); what went wrong goes to hook.log in the home.
func (r *runner) hook(ctx context.Context, args []string) (err error) {
	log := func(line string) {
		api.HookLog(r.env.Home, line)
		fmt.Fprintln(r.env.Stderr, r.t("cli.hook.failed", map[string]any{"Message": line}))
	}
	defer func() {
		if p := recover(); p != nil {
			log(fmt.Sprintf("hook: panic: %v\n%s", p, debug.Stack()))
		}
		err = nil
	}()
	if len(args) == 0 || args[0] != "claude-code" && args[0] != "codex" && args[0] != "gemini" {
		log(r.t("cli.missing_arg", map[string]any{"Command": "hook", "What": "claude-code | codex | gemini"}))
		return nil
	}
	switch args[0] {
	case "codex":
		return r.codexHook(ctx, args[1:], log)
	case "gemini":
		return r.geminiHook(ctx, log)
	}
	data, rerr := io.ReadAll(io.LimitReader(r.env.Stdin, maxHookPayload))
	var p api.HookPayload
	if rerr == nil {
		rerr = json.Unmarshal(data, &p)
	}
	if rerr != nil {
		log(r.t("cli.hook.bad_payload", map[string]any{"Detail": rerr.Error()}))
		return nil
	}
	if p.StopHookActive {
		return nil // Claude Code continues because a Stop hook asked it to: nothing new to read
	}
	a, closeFn, oerr := r.env.Open(ctx)
	if oerr != nil {
		log(oerr.Error())
		return nil
	}
	defer closeFn()
	// The api logs the outcome (and any failure) in the home's hook.log itself.
	_, _ = a.Hook.ClaudeCode(p)
	return nil
}

// codexHook runs Codex CLI's notify program: `notify = ["engram", "hook", "codex"]` in
// ~/.codex/config.toml, and Codex adds the notification's JSON as the last argument (read from
// stdin when there is none, for scripts). Codex does not wait for it; it prints nothing. The
// same command serves Codex's UserPromptSubmit and Stop hooks, their JSON on stdin.
func (r *runner) codexHook(ctx context.Context, args []string, log func(string)) error {
	var data []byte
	var rerr error
	if len(args) > 0 {
		data = []byte(args[len(args)-1])
		if len(data) > maxHookPayload {
			rerr = fmt.Errorf("the notification is over %d bytes", maxHookPayload)
		}
	} else {
		data, rerr = io.ReadAll(io.LimitReader(r.env.Stdin, maxHookPayload))
	}
	var p api.CodexPayload
	if rerr == nil {
		rerr = json.Unmarshal(data, &p)
	}
	if rerr != nil {
		log(r.t("cli.hook.bad_payload", map[string]any{"Detail": rerr.Error()}))
		return nil
	}
	if p.Type != "agent-turn-complete" && p.HookEventName != "UserPromptSubmit" && p.HookEventName != "Stop" {
		return nil // another notification or hook event: nothing to learn, no need to open the home
	}
	a, closeFn, oerr := r.env.Open(ctx)
	if oerr != nil {
		log(oerr.Error())
		return nil
	}
	defer closeFn()
	_, _ = a.Hook.Codex(p) // the api logs the outcome in hook.log
	return nil
}

// geminiHook runs Gemini CLI's AfterAgent hook (settings.json: hooks.AfterAgent → engram hook
// gemini), its payload on stdin. Gemini waits for a hook and reads its stdout (or, when that
// is empty, its stderr) as the hook's answer: this prints nothing on either when all is well,
// and exits 0 whatever happens, so the turn is never retried or blocked because of Engram.
func (r *runner) geminiHook(ctx context.Context, log func(string)) error {
	data, rerr := io.ReadAll(io.LimitReader(r.env.Stdin, maxHookPayload))
	var p api.GeminiPayload
	if rerr == nil {
		rerr = json.Unmarshal(data, &p)
	}
	if rerr != nil {
		log(r.t("cli.hook.bad_payload", map[string]any{"Detail": rerr.Error()}))
		return nil
	}
	if p.StopHookActive || p.HookEventName != "" && p.HookEventName != "AfterAgent" {
		return nil // a retry of a turn, or another event: nothing new, no need to open the home
	}
	a, closeFn, oerr := r.env.Open(ctx)
	if oerr != nil {
		log(oerr.Error())
		return nil
	}
	defer closeFn()
	_, _ = a.Hook.Gemini(p) // the api logs the outcome in hook.log
	return nil
}
