package server

import (
	"net"
	"syscall"
	"time"
)

// TCP keepalive on every accepted game socket (and WebSocket): a peer that
// vanished without a word (a host switched off, a cable pulled, a NAT that
// forgot the flow) is probed after KeepAliveIdle of silence, every
// KeepAliveInterval, and its connection is closed after KeepAliveCount
// unanswered probes: within 2 minutes. A peer whose kernel still answers
// (a frozen client process) is not detected this way.
const (
	KeepAliveIdle     = 60 * time.Second
	KeepAliveInterval = 15 * time.Second
	KeepAliveCount    = 4
)

// DefaultSendBuffer is the most SO_SNDBUF given to a socket when
// Config.SendBuffer is 0 (a quarter of MaxOutput when that is less). The
// kernel doubles it for its own bookkeeping. Left to the kernel, it grows
// a send buffer up to net.ipv4.tcp_wmem's maximum (4 MiB by default), which
// a client that never reads fills: 15 times the output bound, held for a
// minute before the client was closed.
const DefaultSendBuffer = 64 << 10

// sendBuffer is the SO_SNDBUF for a new socket under c: c.SendBuffer, or
// when 0 a quarter of c.MaxOutput, at most DefaultSendBuffer; 0 (the
// kernel's own, autotuned) when negative.
func (c *Config) sendBuffer() int {
	switch {
	case c.SendBuffer < 0:
		return 0
	case c.SendBuffer > 0:
		return c.SendBuffer
	}
	return max(min(c.MaxOutput/4, DefaultSendBuffer), 4096)
}

// tuneConn sets TCP keepalive, TCP_NODELAY and, when sendBuf > 0, SO_SNDBUF
// on nc (or the TCP connection under it: each wrapper's NetConn, as TLS
// has); it returns how to read the
// bytes the kernel holds for the peer (nil when nc is not TCP).
func tuneConn(nc net.Conn, sendBuf int) (queued func() int) {
	for { // under TLS, or a wrapper that counts connections
		w, ok := nc.(interface{ NetConn() net.Conn })
		if !ok || w.NetConn() == nil {
			break
		}
		nc = w.NetConn()
	}
	tcp, ok := nc.(*net.TCPConn)
	if !ok {
		return nil
	}
	tcp.SetNoDelay(true)
	tcp.SetKeepAliveConfig(net.KeepAliveConfig{Enable: true, Idle: KeepAliveIdle, Interval: KeepAliveInterval, Count: KeepAliveCount})
	if sendBuf > 0 {
		tcp.SetWriteBuffer(sendBuf)
	}
	rc, err := tcp.SyscallConn()
	if err != nil {
		return nil
	}
	return func() int { return sendQueued(rc) }
}

// sendQueued is what the kernel holds of rc's output that the peer has not
// acknowledged; 0 where the system cannot say.
func sendQueued(rc syscall.RawConn) int {
	n := 0
	rc.Control(func(fd uintptr) { n = sendQueuedFD(int(fd)) })
	return n
}
