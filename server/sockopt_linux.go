//go:build linux

package server

import "golang.org/x/sys/unix"

// tuneFD sets on a freshly accepted TCP socket what tuneConn sets on a
// net.Conn: TCP_NODELAY, keepalive and, when sendBuf > 0, SO_SNDBUF.
func tuneFD(fd, sendBuf int) {
	unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
	unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_KEEPALIVE, 1)
	unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_KEEPIDLE, int(KeepAliveIdle.Seconds()))
	unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_KEEPINTVL, int(KeepAliveInterval.Seconds()))
	unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_KEEPCNT, KeepAliveCount)
	if sendBuf > 0 {
		unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, sendBuf)
	}
}

// sendQueuedFD is the socket's unacknowledged output (SIOCOUTQ): bytes the
// kernel holds because the peer has not taken them into its own buffer.
func sendQueuedFD(fd int) int {
	n, err := unix.IoctlGetInt(fd, unix.SIOCOUTQ)
	if err != nil {
		return 0
	}
	return n
}
