package account

import (
	"io"
	"net"
	"sync"
	"testing"
)

// proxyMode is how the test proxy treats connections.
type proxyMode int

const (
	proxyPass   proxyMode = iota // forward to the server
	proxyRefuse                  // accept and close at once, like a crashed server
	proxyHang                    // accept and never answer, like a partitioned network
)

// tcpProxy stands between a store and MariaDB so that a test can take the
// database away and bring it back without touching the real server.
type tcpProxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	mode  proxyMode
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

func startProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	p.wg.Go(p.accept)
	t.Cleanup(func() {
		ln.Close()
		p.setMode(proxyRefuse)
		p.wg.Wait()
	})
	return p
}

func (p *tcpProxy) addr() string { return p.ln.Addr().String() }

// setMode switches modes and drops every open connection, as a server
// restart or a network failure would.
func (p *tcpProxy) setMode(m proxyMode) {
	p.mu.Lock()
	p.mode = m
	old := p.conns
	p.conns = map[net.Conn]struct{}{}
	p.mu.Unlock()
	for c := range old {
		c.Close()
	}
}

func (p *tcpProxy) track(c net.Conn) {
	p.mu.Lock()
	p.conns[c] = struct{}{}
	p.mu.Unlock()
}

func (p *tcpProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		mode := p.mode
		p.mu.Unlock()
		switch mode {
		case proxyRefuse:
			c.Close()
		case proxyHang:
			p.track(c) // closed by the next setMode
		case proxyPass:
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.track(c)
			p.track(up)
			pipe := func(dst, src net.Conn) {
				_, _ = io.Copy(dst, src)
				dst.Close()
				src.Close()
			}
			p.wg.Go(func() { pipe(up, c) })
			p.wg.Go(func() { pipe(c, up) })
		}
	}
}
