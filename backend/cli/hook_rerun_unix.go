//go:build unix

package cli

import "syscall"

// hookDetachAttr puts the hook's detached run in a session of its own (setsid): no
// controlling terminal, and no signal to the agent's process group reaches it.
func hookDetachAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
