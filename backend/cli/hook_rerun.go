package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// hookRerunCommand is the command a hook hands its payload to when its time runs out: this
// executable's `hook AGENT`. Tests put a stand-in here.
var hookRerunCommand = func(agent string) ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cli: unable to find this executable: %w", err)
	}
	return []string{exe, "hook", agent}, nil
}

// spawnHookRerun starts `engram hook agent` detached (a session of its own: it outlives the
// hook and the agent's process group) with payload on its stdin — spooled to a file in the
// home (0600), unlinked once the child holds it — and hookRerunEnv set; its stdout and stderr
// are hook.log. It does not wait for it.
func spawnHookRerun(home, agent string, payload []byte) (pid int, err error) {
	command, err := hookRerunCommand(agent)
	if err != nil {
		return 0, err
	}
	in, err := os.CreateTemp(home, "hook-payload-*.json")
	if err != nil {
		return 0, fmt.Errorf("cli: unable to keep the hook's payload: %w", err)
	}
	defer os.Remove(in.Name())
	defer in.Close()
	if err := in.Chmod(0o600); err != nil {
		return 0, fmt.Errorf("cli: unable to keep the hook's payload: %w", err)
	}
	if _, err := in.Write(payload); err != nil {
		return 0, fmt.Errorf("cli: unable to keep the hook's payload: %w", err)
	}
	if _, err := in.Seek(0, 0); err != nil {
		return 0, fmt.Errorf("cli: unable to keep the hook's payload: %w", err)
	}
	log, err := os.OpenFile(filepath.Join(home, "hook.log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return 0, fmt.Errorf("cli: unable to open the hook log: %w", err)
	}
	defer log.Close()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, log, log
	cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, hookRerunEnv+"=1")
	cmd.Dir = home
	cmd.SysProcAttr = hookDetachAttr()
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("cli: unable to start %s: %w", command[0], err)
	}
	// Reaped if this process lives on (tests); the hook's own process exits long before.
	go func() { _ = cmd.Wait() }()
	return cmd.Process.Pid, nil
}
