package load

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// BindNoPort is the dialer's Control when a client dials from a source
// address of its own. Bound before connect(2), a socket gets its port at
// bind(2), where the kernel knows no destination and counts every port held
// by a socket in TIME_WAIT as taken: after one phase of the bench closed
// 19,800 connections, the next daemon's idle phase ran out of ports ("bind:
// address already in use") although they were free for its new
// destination. IP_BIND_ADDRESS_NO_PORT leaves the port to connect(2), which
// picks one unique for the whole four-tuple.
func BindNoPort(_, _ string, c syscall.RawConn) error {
	var serr error
	if err := c.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.IPPROTO_IP, unix.IP_BIND_ADDRESS_NO_PORT, 1)
	}); err != nil {
		return err
	}
	return serr
}
