package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/segment"
)

// MessageConn is a connection that carries the protocol in messages rather
// than a byte stream (a WebSocket): every message holds one or more whole
// segments. The server knows no more about it than that, except that one
// with a method NetConn() net.Conn that returns its socket gets the TCP
// connection's treatment: a bounded send buffer, keepalive, and the bytes
// the kernel holds for the client counted against the output bound.
type MessageConn interface {
	// ReadMessage blocks for the client's next message.
	ReadMessage(ctx context.Context) ([]byte, error)
	// WriteMessage sends one message to the client.
	WriteMessage(ctx context.Context, p []byte) error
	// Close ends the connection, saying why: ReasonPeer, ReasonServer and
	// ReasonShutdown are ordinary ends, ReasonProtocol a broken rule,
	// ReasonLimit a connection over a limit at admission.
	Close(why CloseReason)
}

// ErrNotMessageHost: the transport cannot host message connections (it is
// neither the reactor nor the net transport).
var ErrNotMessageHost = errors.New("server: transport cannot host message connections")

// ErrPartialMessage: a message from a message connection did not hold whole
// segments; like a framing error it closes the connection.
var ErrPartialMessage = errors.New("message does not hold whole segments")

// maxOutMessage bounds one message to the client; a longer backlog (a login's
// user list among thousands) goes as several messages, each of whole segments.
const maxOutMessage = 64 << 10

// ServeMessages runs mc as one more connection of t's engine, from source
// address ip (remote names it in captures), under the same limits as a TCP
// connection: connections per address, the segment rate, login throttling
// and the output bound. It blocks until the connection ends.
func ServeMessages(t Transport, mc MessageConn, ip netip.Addr, remote string) error {
	h, ok := t.(messageHost)
	if !ok {
		mc.Close(ReasonServer)
		return ErrNotMessageHost
	}
	m := &mconn{outbox: newOutbox(h, ip), mc: mc, remote: remote}
	if s, ok := mc.(interface{ NetConn() net.Conn }); ok && s.NetConn() != nil {
		// the socket under the messages: bounded and kept alive like a
		// TCP connection's, its kernel-held output counted the same
		m.kernel = tuneConn(s.NetConn(), h.engine().sendBuf)
	}
	admitted := false
	if err := h.do(context.Background(), func() { admitted = m.opened() }); err != nil {
		mc.Close(ReasonShutdown) // the loop stopped before it saw the connection
		return ErrClosed
	}
	if !admitted {
		return nil
	}
	go m.writer()
	m.reader()
	<-m.dead
	return nil
}

// messageHost is a transport that can host message connections: its loop
// runs posted functions and waits for them (both transports, through door).
type messageHost interface {
	host
	do(ctx context.Context, f func()) error
}

// mconn is a MessageConn as the engine's link.
type mconn struct {
	outbox
	mc     MessageConn
	remote string
	killed bool
}

// opened runs on the loop: limits, then the connection; false when a limit
// refused it.
func (m *mconn) opened() bool {
	e := m.t.engine()
	if reason := e.admit(m.ip); reason != "" {
		e.obs.ConnRejected(reason)
		m.mc.Close(ReasonLimit)
		return false
	}
	m.admitted = true
	m.c = e.open(m, m.ip, m.remote)
	return true
}

// reader hands each message to the engine; a message that does not hold
// whole segments closes the connection as a framing error would.
func (m *mconn) reader() {
	ctx := context.Background()
	for {
		p, err := m.mc.ReadMessage(ctx)
		if err != nil {
			m.t.post(m.peerClosed)
			m.finish()
			return
		}
		if err := wholeMessage(p); err != nil {
			ok := m.t.post(func() {
				e := m.t.engine()
				e.obs.ProtocolError("partial_message")
				e.log.Info("protocol error, closing", zap.Uint64("conn", uint64(m.c.id)), zap.Error(err))
				e.drop(m.c, ReasonProtocol, true)
			})
			if !ok {
				m.finish()
			}
			return // the drop kills the connection, which ends the writer
		}
		if !m.t.post(func() { m.t.engine().input(m.c, p) }) {
			m.finish()
			return
		}
	}
}

// wholeMessage checks that p is a sequence of whole segments (headers are
// checked by the engine's decoder; only the boundaries are checked here).
func wholeMessage(p []byte) error {
	n := 0
	for n+segment.HeaderLen <= len(p) {
		n += segment.HeaderLen + (int(p[n+1])<<8 | int(p[n+2]))
	}
	if n != len(p) || len(p) == 0 {
		return fmt.Errorf("%w (%d bytes)", ErrPartialMessage, len(p))
	}
	return nil
}

// writer sends what the engine queued: what one flush produced goes as one
// message (several when over maxOutMessage), each of whole segments.
func (m *mconn) writer() {
	for {
		select {
		case <-m.notify:
		case <-m.dead:
			return
		}
		out, closing, paced := m.take()
		buf := out
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if closing {
			ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		}
		for len(out) > 0 {
			k := wholePrefix(out, maxOutMessage)
			if err := m.mc.WriteMessage(ctx, out[:k]); err != nil {
				m.account(-len(out))
				cancel()
				m.t.post(m.peerClosed)
				m.finish()
				return
			}
			out = out[k:]
			m.account(-k)
		}
		cancel()
		m.written(paced, buf)
		if closing {
			m.finish()
			return
		}
	}
}

// wholePrefix is how many leading bytes of out (whole segments) make up the
// whole segments that fit in limit, and at least one segment.
func wholePrefix(out []byte, limit int) int {
	n := 0
	for n+segment.HeaderLen <= len(out) {
		size := segment.HeaderLen + (int(out[n+1])<<8 | int(out[n+2]))
		if n > 0 && n+size > limit {
			break
		}
		n += size
	}
	if n > len(out) || n == 0 {
		n = len(out)
	}
	return n
}

// finish ends the connection from its own goroutines (outbox.end).
func (m *mconn) finish() { m.endFromConn(m.closeMessages) }

// kill implements link: on the loop (outbox.end); the client is told of a
// broken rule.
func (m *mconn) kill() {
	m.mu.Lock()
	m.killed = true
	m.mu.Unlock()
	m.endOnLoop(m.closeMessages)
}

// closeMessages closes the message connection, saying why.
func (m *mconn) closeMessages() {
	m.mu.Lock()
	killed := m.killed
	m.mu.Unlock()
	why := ReasonServer
	if killed {
		why = ReasonProtocol
	}
	m.mc.Close(why)
}
