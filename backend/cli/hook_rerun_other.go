//go:build !unix

package cli

import "syscall"

// hookDetachAttr: no session to leave where there is no setsid; the child still outlives the hook.
func hookDetachAttr() *syscall.SysProcAttr { return nil }
