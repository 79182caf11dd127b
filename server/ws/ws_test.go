package ws_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/server/ws"
	"github.com/bomber-game/bomber/statemachine"
)

// gateway serves a transport (the reactor or the net transport) with the
// gateway in front, both on loopback; it returns the TCP address and the
// gateway's ws:// URL.
func gateway(t *testing.T, reactor bool, cfg server.Config, gcfg ws.Config) (tcp, url string) {
	t.Helper()
	if cfg.Hub.Games == nil {
		cfg.Hub.Games = statemachine.Catalogue()
	}
	addr, tr := servertest.Start(t, cfg, reactor)
	gcfg.Transport = tr
	g, err := ws.New(gcfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(g)
	srv.Config.ConnContext = ws.ConnContext // as bomberd serves it
	srv.Start()
	t.Cleanup(srv.Close)
	return addr, "ws" + strings.TrimPrefix(srv.URL, "http") + ws.Path
}

func transports(t *testing.T, f func(t *testing.T, reactor bool)) {
	for _, reactor := range []bool{true, false} {
		name := "net"
		if reactor {
			name = "reactor"
		}
		t.Run(name, func(t *testing.T) { f(t, reactor) })
	}
}

// wsClient is a test client over the gateway: it sends segments as
// messages and reads the server's messages back as segments.
type wsClient struct {
	t    *testing.T
	c    *websocket.Conn
	segs []segment.Segment // read but not consumed yet
	msgs int               // messages read
}

func dial(t *testing.T, url string, h http.Header) (*wsClient, *http.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, resp, err
	}
	t.Cleanup(func() { c.CloseNow() })
	return &wsClient{t: t, c: c}, resp, nil
}

func mustDial(t *testing.T, url string) *wsClient {
	t.Helper()
	c, _, err := dial(t, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// send writes segs as one message.
func (w *wsClient) send(segs ...segment.Segment) {
	w.t.Helper()
	var b []byte
	for _, s := range segs {
		b = s.AppendTo(b)
	}
	w.raw(b)
}

func (w *wsClient) raw(b []byte) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageBinary, b); err != nil {
		w.t.Fatal(err)
	}
}

// message reads one message; every message must hold whole segments.
func (w *wsClient) message() ([]segment.Segment, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	typ, p, err := w.c.Read(ctx)
	if err != nil {
		return nil, err
	}
	w.msgs++
	if typ != websocket.MessageBinary {
		w.t.Fatalf("a %v message from the server", typ)
	}
	var d segment.Decoder
	d.SetDialect(segment.DialectExtended)
	var out []segment.Segment
	for rest := p; len(rest) > 0; {
		rest = rest[d.Write(rest):]
		for {
			s, ok, err := d.Next()
			if err != nil {
				w.t.Fatalf("message % x: %v", p, err)
			}
			if !ok {
				break
			}
			out = append(out, s)
		}
	}
	if d.Partial() {
		w.t.Fatalf("message % x ends inside a segment", p)
	}
	return out, nil
}

// expect reads until the next segment and checks it is want.
func (w *wsClient) expect(want segment.Segment) {
	w.t.Helper()
	for len(w.segs) == 0 {
		segs, err := w.message()
		if err != nil {
			w.t.Fatalf("waiting for %v: %v", want.Type, err)
		}
		w.segs = segs
	}
	got := w.segs[0]
	w.segs = w.segs[1:]
	if got.Type != want.Type || !bytes.Equal(got.Payload(), want.Payload()) {
		w.t.Fatalf("got %v % x, want %v % x", got.Type, got.Payload(), want.Type, want.Payload())
	}
}

// closed waits for the server to end the connection and returns its status.
func (w *wsClient) closed() websocket.StatusCode {
	w.t.Helper()
	for {
		_, err := w.message()
		if err != nil {
			return websocket.CloseStatus(err)
		}
	}
}

func hello() segment.Segment {
	return segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: 1, Features: 3}.Append(nil))[0]
}

func welcome() segment.Segment {
	return segment.AppendMessage(nil, segment.Welcome, segment.WelcomeBody{Version: 1, Features: 3, MaxMessage: segment.MaxMessage}.Append(nil))[0]
}

// tcpClient is a reference client over TCP.
type tcpClient struct {
	t *testing.T
	c net.Conn
	d segment.Decoder
}

func dialTCP(t *testing.T, addr string) *tcpClient {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &tcpClient{t: t, c: c}
}

func (c *tcpClient) send(segs ...segment.Segment) {
	c.t.Helper()
	var b []byte
	for _, s := range segs {
		b = s.AppendTo(b)
	}
	if _, err := c.c.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *tcpClient) expect(want segment.Segment) {
	c.t.Helper()
	c.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 512)
	for {
		s, ok, err := c.d.Next()
		if err != nil {
			c.t.Fatal(err)
		}
		if ok {
			if s.Type != want.Type || !bytes.Equal(s.Payload(), want.Payload()) {
				c.t.Fatalf("got %v % x, want %v % x", s.Type, s.Payload(), want.Type, want.Payload())
			}
			return
		}
		n, err := c.c.Read(buf)
		if err != nil {
			c.t.Fatalf("waiting for %v: %v", want.Type, err)
		}
		c.d.Write(buf[:n])
	}
}

func name(t segment.Type, s string) segment.Segment { return segment.Name(t, s) }
func code(t segment.Type, b byte) segment.Segment   { return segment.Code(t, b) }
func coords(t segment.Type, s string) segment.Segment {
	return segment.Name(t, s) // digits as text, as the reference client sends them
}
func binary(t segment.Type, b ...byte) segment.Segment { return segment.Name(t, b) }

// TestBrowserAndReferenceClientPlayBomber: a browser user (WebSocket,
// extended protocol) invites a reference-client user (TCP) the reference
// way and they play Bomber to the end, every guess relayed both ways.
func TestBrowserAndReferenceClientPlayBomber(t *testing.T) {
	transports(t, func(t *testing.T, reactor bool) {
		tcp, url := gateway(t, reactor, server.Config{}, ws.Config{})
		n := mustDial(t, url)
		n.send(hello())
		n.expect(welcome())
		n.send(name(segment.Info, "Novate"))
		n.expect(code(segment.InfoResp, 1))
		n.send(name(segment.Passwd, "123"))
		n.expect(code(segment.PasswdResp, 1))
		n.expect(segment.Empty(segment.SyncEnd))

		l := dialTCP(t, tcp)
		l.send(name(segment.Info, "Larry"))
		l.expect(code(segment.InfoResp, 1))
		l.send(name(segment.Passwd, "123"))
		l.expect(code(segment.PasswdResp, 1))
		l.expect(name(segment.SyncBegin, "Novate"))
		l.expect(segment.Empty(segment.SyncEnd))
		n.expect(name(segment.NewOnline, "Larry"))

		n.send(name(segment.SendInvit, "Larry"))
		l.expect(name(segment.RecvInvit, "Novate"))
		l.send(code(segment.InvitResponse, 1))
		n.expect(code(segment.InvitResponse, 1))
		larryBoard, novateBoard := "023207375787", "023207375282"
		l.send(coords(segment.Board, larryBoard))
		n.send(coords(segment.Board, novateBoard))
		n.expect(coords(segment.Board, larryBoard))
		l.expect(coords(segment.Board, novateBoard))

		n.send(coords(segment.DoubleCoord, "0232"))
		l.expect(binary(segment.DoubleCoord, 0, 2, 3, 2))
		l.send(coords(segment.SingleCoord, "99"))
		n.expect(binary(segment.SingleCoord, 9, 9))
		n.send(coords(segment.DoubleCoord, "0737"))
		l.expect(binary(segment.DoubleCoord, 0, 7, 3, 7))
		l.send(coords(segment.SingleCoord, "98"))
		n.expect(binary(segment.SingleCoord, 9, 8))
		n.send(coords(segment.DoubleCoord, "5787"))
		l.expect(binary(segment.DoubleCoord, 5, 7, 8, 7))
		l.expect(segment.Empty(segment.GameOver))
	})
}

// TestFlushIsOneMessage: what the server produces for a connection at once
// (a login's reply and the whole user list) arrives as one message.
func TestFlushIsOneMessage(t *testing.T) {
	transports(t, func(t *testing.T, reactor bool) {
		_, url := gateway(t, reactor, server.Config{}, ws.Config{})
		for _, user := range []string{"Albert", "Beth"} {
			c := mustDial(t, url)
			c.send(name(segment.Info, user))
			c.expect(code(segment.InfoResp, 1))
			c.send(name(segment.Passwd, "123"))
			segs, err := c.message()
			if err != nil {
				t.Fatal(err)
			}
			var types []segment.Type
			for _, s := range segs {
				types = append(types, s.Type)
			}
			want := []segment.Type{segment.PasswdResp, segment.SyncEnd}
			if user == "Beth" {
				want = []segment.Type{segment.PasswdResp, segment.SyncBegin, segment.SyncEnd}
			}
			if fmt.Sprint(types) != fmt.Sprint(want) {
				t.Fatalf("%s: one message held %v, want %v", user, types, want)
			}
		}
	})
}

// TestPartialMessageCloses: a message must hold whole segments; one that
// ends inside a segment closes the connection as a framing error would.
func TestPartialMessageCloses(t *testing.T) {
	transports(t, func(t *testing.T, reactor bool) {
		_, url := gateway(t, reactor, server.Config{}, ws.Config{})
		c := mustDial(t, url)
		c.raw([]byte{0x00, 0x00, 0x06, 'N', 'o'}) // Info "Novate", cut short
		if got := c.closed(); got != websocket.StatusPolicyViolation {
			t.Fatalf("closed with %v, want %v", got, websocket.StatusPolicyViolation)
		}
	})
}

// TestMessageCap: a message over web.max_message closes the connection.
func TestMessageCap(t *testing.T) {
	transports(t, func(t *testing.T, reactor bool) {
		_, url := gateway(t, reactor, server.Config{}, ws.Config{MaxMessage: 64})
		c := mustDial(t, url)
		var b []byte
		for range 10 { // 10 × 9 bytes: whole segments, but 90 bytes
			b = name(segment.Info, "Novate").AppendTo(b)
		}
		c.raw(b)
		if got := c.closed(); got != websocket.StatusMessageTooBig {
			t.Fatalf("closed with %v, want %v", got, websocket.StatusMessageTooBig)
		}
	})
}

// TestTextMessageCloses: the protocol is binary.
func TestTextMessageCloses(t *testing.T) {
	transports(t, func(t *testing.T, reactor bool) {
		_, url := gateway(t, reactor, server.Config{}, ws.Config{})
		c := mustDial(t, url)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := c.c.Write(ctx, websocket.MessageText, []byte("hello")); err != nil {
			t.Fatal(err)
		}
		if got := c.closed(); got != websocket.StatusUnsupportedData {
			t.Fatalf("closed with %v, want %v", got, websocket.StatusUnsupportedData)
		}
	})
}

// TestSegmentRateApplies: the hub's segment rate limit counts WebSocket
// segments like TCP ones: a burst past it closes the connection.
func TestSegmentRateApplies(t *testing.T) {
	cfg := server.Config{Hub: statemachine.Config{SegmentRate: 10, SegmentBurst: 20}}
	_, url := gateway(t, true, cfg, ws.Config{})
	c := mustDial(t, url)
	c.send(hello())
	c.expect(welcome())
	var b []byte
	for range 100 {
		b = segment.Empty(segment.ListReq).AppendTo(b)
	}
	c.raw(b)
	if got := c.closed(); got == -1 {
		t.Fatal("connection not closed by the server")
	}
}

// TestConnectionsPerAddressShared: the per-address limit counts TCP and
// WebSocket connections together; one over it is closed with 1013.
func TestConnectionsPerAddressShared(t *testing.T) {
	transports(t, func(t *testing.T, reactor bool) {
		tcp, url := gateway(t, reactor, server.Config{MaxConnsPerIP: 2}, ws.Config{})
		a := dialTCP(t, tcp)
		a.send(name(segment.Info, "Novate"))
		a.expect(code(segment.InfoResp, 1))
		b := mustDial(t, url)
		b.send(name(segment.Info, "Larry"))
		b.expect(code(segment.InfoResp, 1))
		c := mustDial(t, url)
		if got := c.closed(); got != websocket.StatusTryAgainLater {
			t.Fatalf("third connection closed with %v, want %v", got, websocket.StatusTryAgainLater)
		}
	})
}

// TestLoginThrottlingShared: failed logins over TCP lock the address out
// over the WebSocket too.
func TestLoginThrottlingShared(t *testing.T) {
	cfg := server.Config{Hub: statemachine.Config{LoginFailures: 2, LoginWindow: time.Minute, LoginLockout: time.Minute}}
	tcp, url := gateway(t, false, cfg, ws.Config{})
	for range 2 {
		a := dialTCP(t, tcp)
		a.send(name(segment.Info, "Novate"))
		a.expect(code(segment.InfoResp, 1))
		a.send(name(segment.Passwd, "wrong"))
		a.expect(code(segment.PasswdResp, 3))
	}
	c := mustDial(t, url)
	c.send(name(segment.Info, "Larry"))
	c.expect(code(segment.InfoResp, 4))
}

// TestOrigins: a page from another host is refused with 403 unless
// allowed; the listener's own host and clients without Origin are let in.
func TestOrigins(t *testing.T) {
	_, url := gateway(t, false, server.Config{}, ws.Config{AllowedOrigins: []string{"play.example.com"}})
	host := strings.TrimPrefix(strings.TrimSuffix(url, ws.Path), "ws://")
	for _, tt := range []struct {
		origin string
		ok     bool
	}{
		{"", true},
		{"http://" + host, true},
		{"https://play.example.com", true},
		{"https://evil.example.com", false},
		{"http://localhost:1", false},
	} {
		h := http.Header{}
		if tt.origin != "" {
			h.Set("Origin", tt.origin)
		}
		c, resp, err := dial(t, url, h)
		switch {
		case tt.ok && err != nil:
			t.Errorf("origin %q refused: %v", tt.origin, err)
		case !tt.ok && err == nil:
			c.c.CloseNow()
			t.Errorf("origin %q let in", tt.origin)
		case !tt.ok && (resp == nil || resp.StatusCode != http.StatusForbidden):
			t.Errorf("origin %q: got %v, want 403", tt.origin, resp)
		case tt.ok:
			c.send(hello())
			c.expect(welcome())
		}
	}
}

// TestFiles: the web client's files with their types, revalidation and
// gzip.
func TestFiles(t *testing.T) {
	js := strings.Repeat("console.log('bomber');\n", 200)
	files := fstest.MapFS{
		"index.html":    {Data: []byte("<!doctype html><title>Bomber</title>")},
		"assets/app.js": {Data: []byte(js)},
	}
	_, url := gateway(t, false, server.Config{}, ws.Config{Files: files})
	base := "http" + strings.TrimPrefix(strings.TrimSuffix(url, ws.Path), "ws")
	get := func(path string, h map[string]string) *http.Response {
		req, _ := http.NewRequest("GET", base+path, nil)
		for k, v := range h {
			req.Header.Set(k, v)
		}
		tr := &http.Transport{DisableCompression: true}
		resp, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	r := get("/", nil)
	body, _ := io.ReadAll(r.Body)
	if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || string(body) != "<!doctype html><title>Bomber</title>" {
		t.Fatalf("GET /: %d %q %q", r.StatusCode, r.Header.Get("Content-Type"), body)
	}
	if r.Header.Get("Cache-Control") != "no-cache" || r.Header.Get("ETag") == "" {
		t.Fatalf("GET /: caching headers %v", r.Header)
	}
	if r := get("/", map[string]string{"If-None-Match": r.Header.Get("ETag")}); r.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d, want 304", r.StatusCode)
	}
	r = get("/assets/app.js", map[string]string{"Accept-Encoding": "gzip"})
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") || r.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("app.js: %v", r.Header)
	}
	zr, err := gzip.NewReader(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(zr); string(b) != js {
		t.Fatal("app.js: gzipped body differs")
	}
	if r := get("/nope.js", nil); r.StatusCode != 404 {
		t.Fatalf("missing file: %d", r.StatusCode)
	}
}

// TestShutdownClosesWebSockets: the transport's shutdown ends WebSocket
// sessions like TCP ones.
func TestShutdownClosesWebSockets(t *testing.T) {
	cfg := server.Config{Hub: statemachine.Config{Games: statemachine.Catalogue()}}
	_, tr := servertest.Start(t, cfg, true)
	g, err := ws.New(ws.Config{Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g)
	defer srv.Close()
	c := mustDial(t, "ws"+strings.TrimPrefix(srv.URL, "http")+ws.Path)
	c.send(hello())
	c.expect(welcome())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tr.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.message(); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("still open after shutdown: %v", err)
	}
}
