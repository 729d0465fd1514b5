package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"engram/backend/api"
)

// The agent waits for its hook, so `engram hook` keeps within hookBound from its start to its
// exit. A running Engram that hangs (stopped, swapping) used to cost 3 s on the bridge's dial
// and 3 s more opening the home, whose open waits for that process's watcher to answer: one
// deadline now covers the open, the store and the bridge (hookWorkBudget). A run that has not
// claimed the turn by then keeps nothing of it and hands the payload to a detached `engram
// hook` (hookRerunEnv), which has all the time it needs, so no turn is lost; one that claimed
// it is given until hookWaitBudget to finish handing it over (its bridge call ends at the
// deadline and a detached extraction starts at once), and the rest is left for exiting.
const (
	hookBound      = 3 * time.Second
	hookWorkBudget = 2500 * time.Millisecond
	hookWaitBudget = 2800 * time.Millisecond
)

// hookRerunEnv marks the detached run a hook hands its turn to: no deadline, nothing on
// stderr (its stderr is hook.log), and never a hand-off of its own.
const hookRerunEnv = "ENGRAM_HOOK_RERUN"

// hookCodeDeferred is hook.CodeDeferred (the CLI reaches the backend only through api): the
// deadline passed before the turn was claimed (TestHookCodeDeferredMatches).
const hookCodeDeferred = "hook_deferred"

// hookRun is one `engram hook` invocation.
type hookRun struct {
	r       *runner
	agent   string
	payload []byte // as the agent gave it, for the detached run
	start   time.Time
	rerun   bool
	// langKnown: the home's language was looked up (or needs no lookup).
	langKnown bool
}

// hookOutcome is what the work on the home came to.
type hookOutcome struct {
	openErr error
	err     error
	lang    string
	close   func() error
	// panicked and stack are a panic of the work, for one line on stderr and the stack in
	// hook.log.
	panicked, stack string
}

// hookGate settles, once, whether the work on the home goes ahead or was given up at the
// deadline: the work begins the hook call only if the run was not abandoned, and the run is
// abandoned only if the call did not begin (it may claim the turn, which a second run would
// then find taken).
type hookGate struct {
	mu                 sync.Mutex
	started, abandoned bool
}

func (g *hookGate) begin() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.started = !g.abandoned
	return g.started
}

func (g *hookGate) abandon() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.abandoned = !g.started
	return g.abandoned
}

// run opens the home and makes call within the agent's bound (none in the detached run).
func (h *hookRun) run(ctx context.Context, call hookCall) {
	wctx, cancel := ctx, context.CancelFunc(func() {})
	var expired <-chan time.Time
	if !h.rerun {
		// The deadline reaches the hook service through the api's context (the home is opened
		// with it): its store calls and its bridge call end there.
		wctx, cancel = context.WithDeadline(ctx, h.start.Add(hookWorkBudget))
		t := time.NewTimer(time.Until(h.start.Add(hookWorkBudget)))
		defer t.Stop()
		expired = t.C
	}
	defer cancel()
	g := &hookGate{}
	done := make(chan hookOutcome, 1)
	go func() {
		defer func() {
			// A panic here would end the process with exit 2, which an agent takes as "block
			// the turn": it becomes a failure like any other (done is sent to once: the
			// panic came before the send).
			if p := recover(); p != nil {
				done <- hookOutcome{panicked: fmt.Sprint(p), stack: string(debug.Stack())}
			}
		}()
		a, closeFn, err := h.r.env.Open(wctx)
		if err != nil {
			done <- hookOutcome{openErr: err}
			return
		}
		if !g.begin() {
			_ = closeFn()
			return
		}
		o := hookOutcome{close: closeFn}
		if info, err := a.App.Info(api.Empty{}); err == nil {
			o.lang = info.Language
		}
		o.err = call(a)
		done <- o
	}()
	select {
	case o := <-done:
		h.finish(wctx, o)
		return
	case <-expired:
	}
	if g.abandon() {
		h.handOff() // the home did not open in time: nothing of the turn was kept
		return
	}
	wait := time.NewTimer(time.Until(h.start.Add(hookWaitBudget)))
	defer wait.Stop()
	select {
	case o := <-done:
		h.finish(wctx, o)
	case <-wait.C:
		h.logOnly(h.r.t("cli.hook.left", map[string]any{"Seconds": int(hookBound / time.Second)}))
	}
}

// finish says what the work came to, and closes the home within the bound.
func (h *hookRun) finish(wctx context.Context, o hookOutcome) {
	if o.lang != "" {
		h.r.lang, h.langKnown = o.lang, true
	}
	var ae *api.Error
	switch {
	case o.panicked != "":
		h.failWith(h.r.t("cli.hook.panic", map[string]any{"Detail": o.panicked}), "\n"+o.stack)
	case o.openErr != nil && wctx.Err() != nil && !h.rerun:
		h.handOff() // the open ran out of the agent's time: nothing of the turn was kept
	case o.openErr != nil:
		h.failWith(h.r.message(o.openErr), "")
	case errors.As(o.err, &ae) && ae.Code == hookCodeDeferred && !h.rerun:
		h.handOff() // the api logged the deferral; the detached run takes the turn whole
	case o.err != nil && ae != nil:
		h.say(ae.Message) // the api logged it in hook.log already
	case o.err != nil:
		h.failWith(h.r.message(o.err), "")
	}
	if o.close == nil {
		return
	}
	closed := make(chan struct{})
	go func() {
		_ = o.close()
		close(closed)
	}()
	if h.rerun {
		<-closed
		return
	}
	t := time.NewTimer(time.Until(h.start.Add(hookWaitBudget)))
	defer t.Stop()
	select {
	case <-closed:
	case <-t.C: // the process ends now; the store is safe against that, as against a kill
	}
}

// handOff gives the payload to a detached `engram hook` that has the time this run had not.
func (h *hookRun) handOff() {
	pid, err := spawnHookRerun(h.r.env.Home, h.agent, h.payload)
	if err != nil {
		h.failWith(h.r.t("cli.hook.rerun_failed", h.r.reason(nil, err)), "")
		return
	}
	h.logOnly(h.r.t("cli.hook.rerun", map[string]any{"Seconds": int(hookBound / time.Second), "PID": pid}))
}

// fail says one failure of the hook itself, in the home's language when the home can tell it.
func (h *hookRun) fail(ctx context.Context, key string, args map[string]any) {
	h.resolveLang(ctx)
	h.failWith(h.r.t(key, args), "")
}

// failWith writes line (and extra, for the log alone: a panic's stack) to hook.log, and line
// on stderr as the one line an agent shows (not in the detached run, whose stderr is hook.log).
func (h *hookRun) failWith(line, extra string) {
	api.HookLog(h.r.env.Home, hookLine(line)+extra)
	h.say(line)
}

// say writes line on stderr only: the api logged it in hook.log itself.
func (h *hookRun) say(line string) {
	if !h.rerun {
		fmt.Fprintln(h.r.env.Stderr, h.r.t("cli.hook.failed", map[string]any{"Message": hookLine(line)}))
	}
}

// logOnly writes line to hook.log alone: what happened, with nothing gone wrong.
func (h *hookRun) logOnly(line string) { api.HookLog(h.r.env.Home, hookLine(line)) }

// resolveLang takes the home's language for a failure found before the home was opened (a
// payload that is not JSON): the person chose it in Settings, and the environment's may be
// another. Only a home that exists is opened (a failure must not make one), within the bound.
func (h *hookRun) resolveLang(ctx context.Context) {
	if h.langKnown {
		return
	}
	h.langKnown = true
	if h.r.env.Open == nil || h.r.env.Home == "" {
		return
	}
	if _, err := os.Stat(filepath.Join(h.r.env.Home, "memory")); err != nil {
		return
	}
	lctx, cancel := context.WithDeadline(ctx, h.start.Add(hookWorkBudget))
	defer cancel()
	got := make(chan string, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				got <- "" // the language is only a nicety: the failure is said in the environment's
			}
		}()
		a, closeFn, err := h.r.env.Open(lctx)
		if err != nil {
			got <- ""
			return
		}
		lang := ""
		if info, err := a.App.Info(api.Empty{}); err == nil {
			lang = info.Language
		}
		_ = closeFn()
		got <- lang
	}()
	select {
	case lang := <-got:
		if lang != "" {
			h.r.lang = lang
		}
	case <-lctx.Done():
	}
}
