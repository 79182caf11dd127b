//go:build linux

package server

import "golang.org/x/sys/unix"

// tcpMSS is the maximum segment size of the TCP socket fd as the kernel
// has it (TCP_MAXSEG); 0 when fd is not a TCP socket or cannot say.
func tcpMSS(fd int) int {
	mss, err := unix.GetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_MAXSEG)
	if err != nil {
		return 0
	}
	return mss
}
