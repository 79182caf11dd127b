package ws_test

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	gws "github.com/gobwas/ws"

	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/ws"
)

// rawWS is a WebSocket client written byte by byte, as a browser's frames
// may reach the server: split anywhere, a message in several frames, pings.
type rawWS struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

// dialRaw opens a WebSocket to url (ws://host/ws) by hand; first goes
// with the handshake, in the same write.
func dialRaw(t *testing.T, url string, first []byte) *rawWS {
	t.Helper()
	host := strings.TrimSuffix(strings.TrimPrefix(url, "ws://"), "/ws")
	c, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := "GET /ws HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := c.Write(append([]byte(req), first...)); err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-Websocket-Accept") != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" {
		t.Fatalf("handshake answered %s, accept %q", resp.Status, resp.Header.Get("Sec-Websocket-Accept"))
	}
	return &rawWS{t: t, c: c, br: br}
}

// frame is a client's frame: masked, as RFC 6455 requires.
func frame(op gws.OpCode, fin bool, p []byte) []byte {
	b, err := gws.CompileFrame(gws.MaskFrameWith(gws.NewFrame(op, fin, append([]byte(nil), p...)), [4]byte{0x37, 0xfa, 0x21, 0x3d}))
	if err != nil {
		panic(err)
	}
	return b
}

func (w *rawWS) write(b []byte) {
	w.t.Helper()
	if _, err := w.c.Write(b); err != nil {
		w.t.Fatal(err)
	}
}

// next reads the server's next frame.
func (w *rawWS) next() gws.Frame {
	w.t.Helper()
	h, err := gws.ReadHeader(w.br)
	if err != nil {
		w.t.Fatalf("reading a frame: %v", err)
	}
	if h.Masked {
		w.t.Fatal("the server masked a frame")
	}
	if h.Length > 1<<16 {
		w.t.Fatalf("a frame of %d bytes", h.Length)
	}
	f := gws.Frame{Header: h, Payload: make([]byte, h.Length)}
	if _, err := io.ReadFull(w.br, f.Payload); err != nil {
		w.t.Fatalf("reading a frame's payload: %v", err)
	}
	return f
}

// expectWelcome reads one binary message holding exactly the Welcome.
func (w *rawWS) expectWelcome() {
	w.t.Helper()
	f := w.next()
	want := welcome().AppendTo(nil)
	if f.Header.OpCode != gws.OpBinary || !f.Header.Fin || !bytes.Equal(f.Payload, want) {
		w.t.Fatalf("got %v fin %v % x, want a binary message % x", f.Header.OpCode, f.Header.Fin, f.Payload, want)
	}
}

// TestWebSocketFramesOnTheLoop: on the reactor the loop reads the
// WebSocket's frames itself. A frame split anywhere across writes, a
// message in two frames, a frame that came with the handshake, a ping,
// and a close are each understood, with the bytes a WebSocket peer
// expects back.
func TestWebSocketFramesOnTheLoop(t *testing.T) {
	transports(t, func(t *testing.T, reactor bool) {
		_, url := gateway(t, reactor, server.Config{}, ws.Config{})
		hi := hello().AppendTo(nil)

		// the Hello's frame in three writes, cut inside its header and
		// inside its payload
		c := dialRaw(t, url, nil)
		f := frame(gws.OpBinary, true, hi)
		for _, part := range [][]byte{f[:1], f[1:5], f[5:]} {
			c.write(part)
			time.Sleep(5 * time.Millisecond) // separate reads, most likely; a test of bytes, not of time
		}
		c.expectWelcome()

		// one message in two frames (the second a continuation)
		c = dialRaw(t, url, nil)
		c.write(append(frame(gws.OpBinary, false, hi[:4]), frame(gws.OpContinuation, true, hi[4:])...))
		c.expectWelcome()

		// the Hello in the handshake's write (on the loop; coder/websocket
		// loses what the HTTP server read past the handshake, which a
		// browser never sends before the server's answer)
		if reactor {
			c = dialRaw(t, url, frame(gws.OpBinary, true, hi))
			c.expectWelcome()
		}

		// a ping between the frames of a message is answered with a pong
		// of the same payload; then the message's end is understood
		c = dialRaw(t, url, nil)
		c.write(append(append(frame(gws.OpBinary, false, hi[:2]), frame(gws.OpPing, true, []byte("are you there"))...), frame(gws.OpContinuation, true, hi[2:])...))
		p := c.next()
		if p.Header.OpCode != gws.OpPong || string(p.Payload) != "are you there" {
			t.Fatalf("a ping was answered %v %q, want a pong with its payload", p.Header.OpCode, p.Payload)
		}
		c.expectWelcome()

		// a close is answered with a close of the same status
		c.write(frame(gws.OpClose, true, gws.NewCloseFrameBody(gws.StatusNormalClosure, "bye")))
		cl := c.next()
		if code, _ := gws.ParseCloseFrameData(cl.Payload); cl.Header.OpCode != gws.OpClose || code != gws.StatusNormalClosure {
			t.Fatalf("a close was answered %v %v, want a close 1000", cl.Header.OpCode, code)
		}

		// an unmasked frame from a client breaks the protocol (1002)
		c = dialRaw(t, url, nil)
		c.write(gws.MustCompileFrame(gws.NewBinaryFrame(hi)))
		if reactor { // coder/websocket says so too, with a bare close
			cl = c.next()
			if code, _ := gws.ParseCloseFrameData(cl.Payload); cl.Header.OpCode != gws.OpClose || code != gws.StatusProtocolError {
				t.Fatalf("an unmasked frame was answered %v %v, want a close 1002", cl.Header.OpCode, code)
			}
		}
	})
}

// TestWebSocketsCostNoGoroutines: on the reactor a WebSocket has no
// goroutine of its own once its handshake is done (the loop reads and
// writes it); served by goroutines, each took two.
func TestWebSocketsCostNoGoroutines(t *testing.T) {
	_, url := gateway(t, true, server.Config{}, ws.Config{})
	const n = 40
	before := runtime.NumGoroutine()
	for range n {
		c := dialRaw(t, url, frame(gws.OpBinary, true, hello().AppendTo(nil)))
		c.expectWelcome()
	}
	// the HTTP server's goroutine for each connection ends once the
	// handshake is done; give them a moment to return
	var grew int
	for deadline := time.Now().Add(5 * time.Second); ; {
		if grew = runtime.NumGoroutine() - before; grew < n/4 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond) // goroutines ending: no event to wait on
	}
	if grew >= n/4 {
		t.Fatalf("%d WebSockets open: %d more goroutines", n, grew)
	}
	t.Logf("%d WebSockets open: %d more goroutines", n, grew)
}
