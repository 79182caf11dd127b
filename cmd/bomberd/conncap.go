package main

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
)

// connCap bounds the connections a listener hands out: at most max at
// once (Accept waits for one to close, and more wait in the kernel's
// backlog, where they hold none of the daemon's descriptors), and at most
// perIP from one source address (more are closed as they are accepted;
// 0: no such bound). Without it, idle keep-alive connections to the web
// port took every descriptor and the game port could accept no login.
type connCap struct {
	net.Listener
	slots   chan struct{}
	perIP   int
	done    chan struct{}
	once    sync.Once
	mu      sync.Mutex
	ips     map[netip.Addr]int
	refused atomic.Uint64 // connections closed for the per-address bound
}

func newConnCap(l net.Listener, max, perIP int) *connCap {
	return &connCap{Listener: l, slots: make(chan struct{}, max), perIP: perIP, done: make(chan struct{}), ips: map[netip.Addr]int{}}
}

// Accept implements net.Listener.
func (l *connCap) Accept() (net.Conn, error) {
	for {
		select {
		case l.slots <- struct{}{}:
		case <-l.done:
			return nil, net.ErrClosed
		}
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.slots
			return nil, err
		}
		var ip netip.Addr
		if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil {
			ip = ap.Addr().Unmap()
		}
		l.mu.Lock()
		over := l.perIP > 0 && l.ips[ip] >= l.perIP
		if !over {
			l.ips[ip]++
		}
		l.mu.Unlock()
		if over {
			c.Close()
			<-l.slots
			l.refused.Add(1)
			continue
		}
		return &cappedConn{Conn: c, l: l, ip: ip}, nil
	}
}

// Close implements net.Listener; it also ends an Accept waiting for a slot.
func (l *connCap) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// release gives back a connection's slot.
func (l *connCap) release(ip netip.Addr) {
	l.mu.Lock()
	if l.ips[ip]--; l.ips[ip] <= 0 {
		delete(l.ips, ip)
	}
	l.mu.Unlock()
	<-l.slots
}

// cappedConn gives its slot back when closed (also after an HTTP server
// handed it to the WebSocket: the WebSocket closes the same conn).
type cappedConn struct {
	net.Conn
	l    *connCap
	ip   netip.Addr
	once sync.Once
}

func (c *cappedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.ip) })
	return err
}

// NetConn is the connection under the cap (for the WebSocket's socket
// options and kernel queue).
func (c *cappedConn) NetConn() net.Conn { return c.Conn }
