//go:build linux

package main

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// bindNoPort leaves an attacker's source port to connect(2), as package
// bench/load does: bound first, a socket gets its port at bind(2), where
// the kernel counts every port in TIME_WAIT as taken, and thousands of
// short connections run out of ports.
func bindNoPort(_, _ string, c syscall.RawConn) error {
	var serr error
	if err := c.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.IPPROTO_IP, unix.IP_BIND_ADDRESS_NO_PORT, 1)
	}); err != nil {
		return err
	}
	return serr
}
