//go:build unix

package hook

import "syscall"

// detachAttr puts the child in a session of its own (setsid): no controlling terminal, and
// no signal to the hook's process group reaches it.
func detachAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// alive reports whether a process pid exists (signal 0).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
