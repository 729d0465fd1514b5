//go:build unix

package history

import (
	"errors"
	"os"
	"syscall"
)

// tryFlock takes an exclusive flock on f without waiting.
func tryFlock(f *os.File) flockState {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return flockHeld
	case errors.Is(err, syscall.EWOULDBLOCK), errors.Is(err, syscall.EINTR):
		return flockBusy
	}
	return flockNone // ENOTSUP, ENOLCK, EINVAL: a file system without flock
}
