package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"engram/backend/api"
)

// maxHookPayload bounds what a hook reads (Claude Code's payload is a few hundred bytes).
const maxHookPayload = 1 << 20

// hookCall is one agent's hook method on an opened home.
type hookCall func(a *api.API) error

// hook runs an agent CLI's after-turn hook: `engram hook claude-code` (Claude Code's Stop
// hook), `engram hook codex` (Codex CLI's notify program or its hooks) and `engram hook
// gemini` (Gemini CLI's AfterAgent hook). An agent acts on a hook's stdout and blocks or
// retries the turn on exit 2 (Go exits 2 on a panic), so this prints nothing on stdout and
// exits 0 whatever happens. Every failure is one translated line on stderr, which Gemini shows
// as a notice, and in hook.log in the home; the agent never waits past hookBound (hook_run.go).
func (r *runner) hook(ctx context.Context, args []string) (err error) {
	if asksHelp(args) || len(args) > 0 && args[0] == "help" {
		// A person asking, not an agent: before, -h was taken for a missing agent name
		// ("hook needs claude-code | codex | gemini."), logged in hook.log, exit 0.
		fmt.Fprintln(r.env.Stderr, r.t("cli.help.hook", map[string]any{"Log": filepath.Join(r.env.Home, "hook.log")}))
		return errSilentUsage
	}
	h := &hookRun{r: r, start: time.Now(), rerun: os.Getenv(hookRerunEnv) != ""}
	defer func() {
		if p := recover(); p != nil {
			// The stack is for hook.log; stderr gets the one line an agent can show.
			h.failWith(r.t("cli.hook.panic", map[string]any{"Detail": fmt.Sprint(p)}), "\n"+string(debug.Stack()))
		}
		err = nil
	}()
	if len(args) == 0 || args[0] != "claude-code" && args[0] != "codex" && args[0] != "gemini" {
		h.fail(ctx, "cli.missing_arg", map[string]any{"Command": "hook", "What": "claude-code | codex | gemini"})
		return nil
	}
	h.agent = args[0]
	if h.agent == "codex" && len(args) > 1 {
		// Codex's notify adds the notification's JSON as the last argument.
		h.payload = []byte(args[len(args)-1])
		if len(h.payload) > maxHookPayload {
			h.badPayload(ctx, "cli.hook.payload_too_large", map[string]any{"Max": maxHookPayload})
			return nil
		}
	} else {
		data, rerr := io.ReadAll(io.LimitReader(r.env.Stdin, maxHookPayload+1))
		if rerr != nil {
			h.resolveLang(ctx) // before the OS's reason is put in words
			h.fail(ctx, "cli.hook.read_failed", r.reason(nil, rerr))
			return nil
		}
		if len(data) > maxHookPayload {
			h.badPayload(ctx, "cli.hook.payload_too_large", map[string]any{"Max": maxHookPayload})
			return nil
		}
		h.payload = data
	}
	if call := h.decode(ctx); call != nil {
		h.run(ctx, call)
	}
	return nil
}

// decode reads the agent's payload and returns the call that learns its turn; nil when there
// is nothing to do (another event, a retry: the home is not even opened) or the payload was
// refused (said already).
func (h *hookRun) decode(ctx context.Context) hookCall {
	switch h.agent {
	case "codex":
		var p api.CodexPayload
		if !h.decodeInto(ctx, &p) {
			return nil
		}
		if p.Type != "agent-turn-complete" && p.HookEventName != "UserPromptSubmit" && p.HookEventName != "Stop" {
			return nil // another notification or hook event: nothing to learn
		}
		return func(a *api.API) error { _, err := a.Hook.Codex(p); return err }
	case "gemini":
		var p api.GeminiPayload
		if !h.decodeInto(ctx, &p) {
			return nil
		}
		if p.StopHookActive || p.HookEventName != "" && p.HookEventName != "AfterAgent" {
			return nil // a retry of a turn, or another event: nothing new
		}
		return func(a *api.API) error { _, err := a.Hook.Gemini(p); return err }
	}
	var p api.HookPayload
	if !h.decodeInto(ctx, &p) {
		return nil
	}
	if p.StopHookActive {
		return nil // Claude Code continues because a Stop hook asked it to: nothing new
	}
	return func(a *api.API) error { _, err := a.Hook.ClaudeCode(p); return err }
}

// decodeInto decodes the payload into v, or says why it is not the JSON the agent sends.
func (h *hookRun) decodeInto(ctx context.Context, v any) bool {
	key, args := decodePayload(h.payload, v)
	if key == "" {
		return true
	}
	h.badPayload(ctx, key, args)
	return false
}

// badPayload refuses the payload for the reason key says (cli.hook.*, with args), in the
// home's language: the language is looked up before the reason is put in words.
func (h *hookRun) badPayload(ctx context.Context, key string, args map[string]any) {
	h.resolveLang(ctx)
	h.fail(ctx, "cli.hook.bad_payload", map[string]any{"Detail": h.r.t(key, args)})
}

// codedError is backend/coded's shape, seen here by its methods alone (the CLI reaches the
// backend only through api): a failure opening the home is one.
type codedError interface {
	error
	ErrorCode() string
	ErrorArgs() map[string]any
}

// message is err in the person's words: the api's translated message, a coded error from the
// catalog (its reason translated too), else its text. One line: an agent shows one line.
func (r *runner) message(err error) string {
	msg := err.Error()
	var ae *api.Error
	var ce codedError
	switch {
	case errors.As(err, &ae):
		msg = ae.Message
	case errors.As(err, &ce) && r.env.Catalog != nil && r.env.Catalog.Has("error."+ce.ErrorCode()):
		args := map[string]any{}
		for k, v := range ce.ErrorArgs() {
			args[k] = v
		}
		if key, ok := args[api.DetailKey].(string); ok && r.env.Catalog.Has(key) {
			args["Detail"] = r.t(key, args)
		}
		msg = api.CodedText(r.env.Catalog, r.lang, "error."+ce.ErrorCode(), args)
	}
	return hookLine(msg)
}

// hookLine folds a message's line breaks into spaces.
func hookLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(c rune) bool { return c == '\n' || c == '\r' }), " ")
}
