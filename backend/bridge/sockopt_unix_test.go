//go:build unix

package bridge

import (
	"context"
	"net"
	"syscall"
)

// smallSendBuffer shrinks the bridge's side of an accepted connection to a 4 KiB send buffer.
func smallSendBuffer(c net.Conn) {
	if sc, ok := c.(syscall.Conn); ok {
		if rc, err := sc.SyscallConn(); err == nil {
			_ = rc.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 4096) })
		}
	}
}

// smallReceiveBuffer dials with a 4 KiB receive buffer, so a client that does not read backs
// up the bridge's writes after a few replies instead of after megabytes.
func smallReceiveBuffer() func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	return d.DialContext
}
