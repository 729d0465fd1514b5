package hook

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"engram/backend/extraction"
)

// LogFile, in the home, collects what the hook and the extractions it detaches have to say:
// Claude Code must see nothing on the hook's stdout.
const LogFile = "hook.log"

// maxLog is the size past which the log is rotated to hook.log.1.
const maxLog = 1 << 20

// OpenLog opens the home's hook log for appending (0600), rotating it once it grew past 1 MiB.
func OpenLog(home string) (*os.File, error) {
	p := filepath.Join(home, LogFile)
	if fi, err := os.Stat(p); err == nil && fi.Size() > maxLog {
		_ = os.Rename(p, p+".1")
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("hook: unable to open %s: %w", p, err)
	}
	return f, nil
}

// detach starts command (the extraction, `engram extract -`) in its own session, so it
// outlives the hook and Claude Code's process group: its stdin is req as JSON (a temp file
// in the home, unlinked once the child holds it), its stdout and stderr the hook log. The
// hook does not wait for it.
func detach(home string, command, env []string, req extraction.Request) (pid int, err error) {
	if len(command) == 0 {
		return 0, errNoCommand
	}
	data, err := json.Marshal(req)
	if err != nil {
		return 0, err
	}
	in, err := os.CreateTemp(home, "hook-request-*.json")
	if err != nil {
		return 0, fmt.Errorf("hook: unable to hand the turn over: %w", err)
	}
	defer os.Remove(in.Name())
	defer in.Close()
	if err := in.Chmod(0o600); err != nil {
		return 0, fmt.Errorf("hook: unable to hand the turn over: %w", err)
	}
	if _, err := in.Write(data); err != nil {
		return 0, fmt.Errorf("hook: unable to hand the turn over: %w", err)
	}
	if _, err := in.Seek(0, 0); err != nil {
		return 0, fmt.Errorf("hook: unable to hand the turn over: %w", err)
	}
	log, err := OpenLog(home)
	if err != nil {
		return 0, err
	}
	defer log.Close()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, log, log
	cmd.Env = append(append(os.Environ(), env...), "ENGRAM_HOME="+home)
	cmd.Dir = home
	cmd.SysProcAttr = detachAttr()
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("hook: unable to start %s: %w", command[0], err)
	}
	pid = cmd.Process.Pid
	// Reap the child when it ends if this process is still alive then (a long-running test or
	// server); the hook's own process exits long before and leaves it to init.
	go func() { _ = cmd.Wait() }()
	return pid, nil
}
