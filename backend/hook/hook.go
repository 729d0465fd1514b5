// Package hook feeds extraction from agent CLIs that run a command after each turn: Claude
// Code's Stop hook hands over its transcript's path; the hook reads the turns it has not
// forwarded before and gives them to the running Engram (its bridge) or, when none runs, to a
// detached `engram extract -`. It never blocks the agent: the work happens elsewhere.
package hook

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"engram/backend/coded"
	"engram/backend/extraction"
	"engram/backend/extraction/turn"
	"engram/backend/memory"
	"engram/backend/transcript"
)

// AgentClaudeCode is the agent name of turns from Claude Code.
const AgentClaudeCode = "claude-code"

// Payload is what Claude Code sends on a hook's stdin (the Stop event's fields Engram reads).
type Payload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd,omitempty"`
	HookEventName  string `json:"hook_event_name,omitempty"`
	StopHookActive bool   `json:"stop_hook_active,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
}

// FirstReadBytes is how much of the end of a transcript the first run on a session reads.
const FirstReadBytes = 2 << 20

// Outcomes of a hook run.
const (
	// StatusStopHookActive: Claude Code is continuing because of a Stop hook; nothing to do.
	StatusStopHookActive = "stop_hook_active"
	// StatusNothingNew: no message of the person the hook had not forwarded already.
	StatusNothingNew = "nothing_new"
	// StatusForwarded: handed to the running Engram's bridge.
	StatusForwarded = "forwarded"
	// StatusDetached: handed to a detached `engram extract -`.
	StatusDetached = "detached"
)

// Result is what one hook run did.
type Result struct {
	Status string `json:"status"`
	// Messages and PersonMessages count what was handed over.
	Messages       int `json:"messages"`
	PersonMessages int `json:"person_messages"`
	// Skipped counts new entries left out of the request (older than its window).
	Skipped int `json:"skipped"`
	// Oversized and Partial are the transcript reader's counts (lines over 4 MiB, a last
	// line still being written).
	Oversized int  `json:"oversized"`
	Partial   bool `json:"partial"`
	// PID is the detached extraction's process, when one was started.
	PID int `json:"pid,omitempty"`
	// BridgeError is why the running bridge was not used, when the turn was detached.
	BridgeError string `json:"bridge_error,omitempty"`
}

// Options build a Service.
type Options struct {
	Store *memory.Store
	Home  string
	// Command runs the extraction when no bridge takes the turn, the request JSON on its
	// stdin; nil means this executable with "extract -".
	Command []string
	// Env is added to the detached command's environment.
	Env []string
	// Timeout bounds the hand-over to a running bridge (3 s when zero). A deadline on the
	// context a hook method is given bounds the whole run (`engram hook` sets the agent's): the
	// bridge gets what is left of it, and a run whose deadline passes before the turn is
	// claimed keeps nothing and answers CodeDeferred.
	Timeout time.Duration
	Logger  *slog.Logger
}

// Service runs hooks for one home.
type Service struct {
	o     Options
	alive func(int) bool
}

// New builds the hook service.
func New(o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if o.Timeout <= 0 {
		o.Timeout = defaultTimeout
	}
	if o.Command == nil {
		if exe, err := os.Executable(); err == nil {
			o.Command = []string{exe, "extract", "-"}
		}
	}
	return &Service{o: o, alive: alive}
}

// Home is the home the service hands turns over in.
func (s *Service) Home() string { return s.o.Home }

// ClaudeCode runs Claude Code's Stop hook: the turns of p's transcript not forwarded before
// go to the running Engram, else to a detached extraction. Entries are claimed before they
// are handed over, so two hooks racing on one transcript forward each once; when neither way
// works the claims are released and the next run tries again.
func (s *Service) ClaudeCode(ctx context.Context, p Payload) (Result, error) {
	return s.transcriptTurns(ctx, AgentClaudeCode, p)
}

// transcriptTurns forwards the turns of a Stop hook's transcript (Claude Code's, or a Codex
// rollout) not forwarded before, as agent's.
func (s *Service) transcriptTurns(ctx context.Context, agent string, p Payload) (Result, error) {
	if p.StopHookActive {
		return Result{Status: StatusStopHookActive}, nil
	}
	if !finishedTurn(p.HookEventName) {
		return Result{Status: StatusNotATurn}, nil
	}
	if err := checkPayload(p); err != nil {
		return Result{}, err
	}
	fi, err := os.Lstat(p.TranscriptPath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && p.HookEventName == "SessionEnd":
		// Claude Code writes the transcript at a session's first message: a session opened
		// and left has none, and that is nothing to read, not a failure.
		return Result{Status: StatusNothingNew}, nil
	case err != nil:
		return Result{}, unreadable(p.TranscriptPath, err)
	case fi.IsDir():
		return Result{}, unreadable(p.TranscriptPath, syscall.EISDIR)
	case !fi.Mode().IsRegular():
		// A link, a pipe or a device: the hook reads only the file Claude Code writes, never
		// what a link or a fifo would hand it instead.
		return Result{}, codeErr(CodeTranscript, map[string]any{"Path": p.TranscriptPath, "Detail": "not a regular file",
			detailKey: "detail.not_regular_file"}, "unable to read the transcript %s: not a regular file", p.TranscriptPath)
	}
	// Each run reads on from where the last one stopped; the uuid claims below still guard
	// against a turn read twice (a rewritten file is read whole again).
	offset, err := s.o.Store.TranscriptOffset(ctx, agent, p.SessionID, p.TranscriptPath)
	if err != nil {
		return Result{}, deferred(ctx, err)
	}
	skippedBig := 0
	if offset == 0 {
		// The first read of a long session begins near its end: a request carries only the
		// newest turns, and parsing megabytes of history would hold the agent up.
		if offset, skippedBig, err = transcript.TailStart(p.TranscriptPath, FirstReadBytes); err != nil {
			return Result{}, unreadable(p.TranscriptPath, err)
		}
	}
	parsed, err := transcript.ReadFileFrom(p.TranscriptPath, offset)
	if err != nil {
		return Result{}, unreadable(p.TranscriptPath, err)
	}
	// Lines over transcript.MaxLine are dropped: the count goes to hook.log with the run.
	res := Result{Oversized: parsed.Oversized + skippedBig, Partial: parsed.Partial}
	workdir := p.Cwd
	if workdir == "" {
		workdir = parsed.Cwd
	}
	if workdir, err = hookWorkdir(workdir); err != nil {
		return Result{}, err
	}
	uuids := make([]string, len(parsed.Entries))
	for i, e := range parsed.Entries {
		uuids[i] = e.UUID
	}
	// The claim is the one durable step before the hand-over: when the agent's deadline (ctx)
	// stops it, nothing was kept and the caller gives the turn to a run with time (deferred).
	claimed, err := s.o.Store.ClaimTranscriptEntries(ctx, agent, p.SessionID, uuids)
	if err != nil {
		return Result{}, deferred(ctx, err)
	}
	isNew := make(map[string]bool, len(claimed))
	for _, u := range claimed {
		isNew[u] = true
	}
	var fresh []transcript.Entry
	for _, e := range parsed.Entries {
		if isNew[e.UUID] {
			fresh = append(fresh, e)
		}
	}
	req, skipped := transcript.Request(fresh, p.SessionID, agent, workdir)
	res.Skipped = skipped
	done := func() (Result, error) {
		// The turn is handed over by now, even when the agent's deadline has passed: the offset
		// is only a shortcut (the claims still keep a turn from going twice), so it gets at
		// least a moment of its own, and a failure costs the next run a longer read.
		octx := ctx
		if deadline, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			octx, cancel = context.WithDeadline(context.WithoutCancel(ctx), later(deadline, time.Now().Add(afterDeadline)))
			defer cancel()
		}
		if err := s.o.Store.SetTranscriptOffset(octx, agent, p.SessionID, p.TranscriptPath, parsed.End); err != nil {
			s.o.Logger.Warn("hook: unable to record how far the transcript was read", "err", err)
		}
		return res, nil
	}
	if !transcript.HasPerson(req) {
		res.Status = StatusNothingNew
		return done()
	}
	for _, m := range req.Messages {
		res.Messages++
		if m.Role == transcript.RoleUser {
			res.PersonMessages++
		}
	}
	if err := s.handOver(ctx, req, &res); err != nil {
		if rerr := s.o.Store.ReleaseTranscriptEntries(context.WithoutCancel(ctx), agent, p.SessionID, claimed); rerr != nil {
			s.o.Logger.Warn("hook: unable to release transcript entries", "err", rerr)
		}
		return res, err
	}
	return done()
}

// handOver gives req to the running bridge, else to a detached extraction.
func (s *Service) handOver(ctx context.Context, req extraction.Request, res *Result) error {
	fctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	berr := forwardToBridge(fctx, s.o.Home, req, s.alive)
	cancel()
	if berr == nil || errors.Is(berr, errUnanswered) {
		res.Status = StatusForwarded
		if berr != nil {
			res.BridgeError = berr.Error()
		}
		return nil
	}
	if !errors.Is(berr, fs.ErrNotExist) {
		res.BridgeError = berr.Error()
	}
	pid, err := detach(s.o.Home, s.o.Command, s.o.Env, req)
	if err != nil {
		return codeErr(CodeNotDelivered, coded.Reason(nil, err),
			"the turn could not be handed over (bridge: %v; detached run: %v)", berr, err)
	}
	res.Status, res.PID = StatusDetached, pid
	return nil
}

// checkPayload refuses a payload the hook cannot act on, naming the field and what it must be.
func checkPayload(p Payload) error {
	if err := checkID("session_id", p.SessionID, true); err != nil {
		return err
	}
	if p.TranscriptPath == "" {
		return missing("transcript_path")
	}
	if !filepath.IsAbs(p.TranscriptPath) {
		return notAbsolute("transcript_path", p.TranscriptPath)
	}
	return nil
}

// finishedTurn reports whether a Claude Code hook event is one after which the transcript is
// read: Stop (the main agent's turn ended; an older Claude Code sent no event name) and
// SessionEnd (the session's last event: a turn the person interrupted with Esc fires no Stop,
// so a message typed before it and then /exit or /clear was never read). The uuid claims make a
// second read of the same turns a no-op. Every other event is left alone, as the Codex and
// Gemini hooks leave theirs: SubagentStop fires while the main agent's turn goes on (its
// transcript_path is the main session's) — read then, the person's message went alone and the
// files the agent wrote after it came with the Stop, which had no message of the person and was
// dropped, so a project memory lost its evidence; PreCompact may fire mid-turn too (an
// automatic compaction) and the file keeps the turns for the Stop; UserPromptSubmit,
// SessionStart, PreToolUse… hold no finished turn.
func finishedTurn(event string) bool {
	return event == "" || event == "Stop" || event == "SessionEnd"
}

// checkID refuses an id field that is not printable text within the store's bound (or is
// missing, when required).
func checkID(field, id string, required bool) error {
	if id == "" {
		if required {
			return missing(field)
		}
		return nil
	}
	if !printableID(id) {
		return invalid(field, "detail.hook_id", fmt.Sprintf("it must be printable text of at most %d bytes", memory.MaxSessionID),
			map[string]any{"Max": memory.MaxSessionID})
	}
	return nil
}

// checkText refuses a text field that is not UTF-8.
func checkText(field, text string) error {
	if !utf8.ValidString(text) {
		return invalid(field, "detail.not_utf8", "not UTF-8 text", nil)
	}
	return nil
}

// notAbsolute refuses a path field that is not absolute: a hook runs in whatever folder the
// agent started it in, so a relative path names nothing certain.
func notAbsolute(field, value string) error {
	return invalid(field, "detail.hook_not_absolute", fmt.Sprintf("%q is not an absolute path", value), map[string]any{"Value": value})
}

// afterDeadline is how long recording how far a transcript was read may take once the agent's
// deadline has passed: `engram hook` waits a little past its deadline for a claimed turn.
const afterDeadline = 250 * time.Millisecond

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
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
		return Result{}, deferred(ctx, err)
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
		if !utf8.ValidString(cwd) {
			return "", checkText("cwd", cwd)
		}
		return "", notAbsolute("cwd", cwd)
	}
	return w, nil
}

// printableID reports whether s can be a session or turn id: UTF-8, no control characters,
// within the store's bound.
func printableID(s string) bool {
	return len(s) <= memory.MaxSessionID && utf8.ValidString(s) && strings.IndexFunc(s, unicode.IsControl) < 0
}
