//go:build bench

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// HookFigures are how long `engram hook claude-code` keeps Claude Code waiting, as a whole
// process, with a new turn in the transcript each time: handed to a running `engram serve`
// over its bridge, and with no Engram running (a detached `engram extract` takes the turn).
type HookFigures struct {
	Runs          int     `json:"runs"`
	ForwardP50Ms  float64 `json:"forward_p50_ms"`
	ForwardP95Ms  float64 `json:"forward_p95_ms"`
	ForwardMaxMs  float64 `json:"forward_max_ms"`
	DetachedP50Ms float64 `json:"detached_p50_ms"`
	DetachedP95Ms float64 `json:"detached_p95_ms"`
	DetachedMaxMs float64 `json:"detached_max_ms"`
}

// RunHook times runs hook calls on each path with bin, the engram binary.
func RunHook(ctx context.Context, bin string, runs int, progress io.Writer) (HookFigures, error) {
	f := HookFigures{Runs: runs}
	fwd, err := hookRuns(ctx, bin, runs, true, progress)
	if err != nil {
		return f, err
	}
	det, err := hookRuns(ctx, bin, runs, false, progress)
	if err != nil {
		return f, err
	}
	f.ForwardP50Ms, f.ForwardP95Ms, f.ForwardMaxMs = percentile(fwd, .5), percentile(fwd, .95), percentile(fwd, 1)
	f.DetachedP50Ms, f.DetachedP95Ms, f.DetachedMaxMs = percentile(det, .5), percentile(det, .95), percentile(det, 1)
	return f, nil
}

func hookRuns(ctx context.Context, bin string, runs int, forward bool, progress io.Writer) ([]time.Duration, error) {
	home, err := os.MkdirTemp("", "engram-bench-hook-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	env := append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG=en")
	if forward {
		serve := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0")
		serve.Env, serve.Stdout, serve.Stderr = env, io.Discard, io.Discard
		serve.Cancel = func() error { return serve.Process.Signal(syscall.SIGTERM) }
		if err := serve.Start(); err != nil {
			return nil, err
		}
		defer func() { _ = serve.Process.Signal(syscall.SIGTERM); _ = serve.Wait() }()
		if err := waitFile(filepath.Join(home, "bridge.json"), 60*time.Second); err != nil {
			return nil, fmt.Errorf("bench: serve never published its bridge: %w", err)
		}
	}
	cwd, transcript := filepath.Join(home, "project"), filepath.Join(home, "session.jsonl")
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		return nil, err
	}
	var out []time.Duration
	for i := 0; i < runs; i++ {
		if err := appendTurn(transcript, cwd, i); err != nil {
			return nil, err
		}
		payload, _ := json.Marshal(map[string]any{"session_id": "bench-session", "transcript_path": transcript, "cwd": cwd,
			"hook_event_name": "Stop", "stop_hook_active": false})
		cmd := exec.CommandContext(ctx, bin, "hook", "claude-code")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(payload)
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("bench: hook run %d: %w", i, err)
		}
		out = append(out, time.Since(start))
	}
	mode := "detached"
	if forward {
		mode = "forwarded to serve"
	}
	// Let the turns' extraction finish before the home goes, so no detached process is left
	// writing into a removed folder.
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		log, _ := os.ReadFile(filepath.Join(home, "hook.log"))
		if forward || strings.Count(string(log), "Extraction:") >= runs {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	fmt.Fprintf(progress, "hook: %d runs, %s\n", runs, mode)
	return out, nil
}

func appendTurn(transcript, cwd string, i int) error {
	entries := []map[string]any{
		{"type": "user", "uuid": fmt.Sprintf("u-%d", i), "sessionId": "bench-session", "cwd": cwd, "isSidechain": false,
			"message": map[string]any{"role": "user", "content": fmt.Sprintf("Remember that build %d uses the -race flag in CI.", i)}},
		{"type": "assistant", "uuid": fmt.Sprintf("a-%d", i), "sessionId": "bench-session", "cwd": cwd,
			"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "Noted."}}}},
	}
	f, err := os.OpenFile(transcript, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, e := range entries {
		b, _ := json.Marshal(e)
		if _, err := f.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

func waitFile(path string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		if b, err := os.ReadFile(path); err == nil && json.Valid(b) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not appear", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// PrintHook prints the hook figures.
func PrintHook(w io.Writer, f HookFigures, asJSON bool) {
	if asJSON {
		_ = json.NewEncoder(w).Encode(f)
		return
	}
	fmt.Fprintf(w, "hook return time over %d runs, as whole processes (ms)\n", f.Runs)
	fmt.Fprintf(w, "  %-36s p50 %7.1f  p95 %7.1f  max %7.1f\n", "forwarded to a running serve", f.ForwardP50Ms, f.ForwardP95Ms, f.ForwardMaxMs)
	fmt.Fprintf(w, "  %-36s p50 %7.1f  p95 %7.1f  max %7.1f\n", "no Engram running (detached extract)", f.DetachedP50Ms, f.DetachedP95Ms, f.DetachedMaxMs)
}
