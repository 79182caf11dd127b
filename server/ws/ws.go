// Package ws is bomberd's WebSocket gateway: an HTTP handler whose /ws
// upgrades to a WebSocket carrying the segment protocol (each binary message
// holds whole segments, both ways) as one more connection of the server's
// transport, under the same limits as TCP; and which serves the web client's
// files at /. Like package server it knows framing, no game.
package ws

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/coder/websocket"
	gws "github.com/gobwas/ws"
	"go.uber.org/zap"

	"github.com/bomber-game/bomber/server"
)

// DefaultMaxMessage bounds one message from a client: 4 KiB is 128 whole
// segments, far more than a client sends at once.
const DefaultMaxMessage = 4096

// Path is where the WebSocket is served.
const Path = "/ws"

// Config is what the gateway needs.
type Config struct {
	// Transport hosts the connections (the daemon's reactor or net transport).
	Transport server.Transport
	// AllowedOrigins are the host patterns (path.Match syntax, e.g.
	// "example.com" or "*.example.com:8443") of the pages that may open a
	// WebSocket. The listener's own host is always allowed; a request
	// without Origin (not from a browser) too. Others get 403.
	AllowedOrigins []string
	// MaxMessage bounds one message from a client; a longer one closes the
	// connection (status 1009). 0: DefaultMaxMessage.
	MaxMessage int64
	// Hosts are the host patterns (path.Match syntax, with or without the
	// port) the listener answers to in the Host header, besides IP
	// addresses and localhost. A request naming any other host is refused
	// with 403: a page whose name was rebound to this listener's address
	// (DNS rebinding) sends its own name, and would otherwise pass the
	// Origin check, which compares the Origin with that same Host.
	Hosts []string
	// Files are served at / (index.html for /); nil serves none.
	Files fs.FS
	// Logger; nil for none.
	Logger *zap.Logger
}

// Gateway is the gateway's http.Handler.
type Gateway struct {
	cfg   Config
	files map[string]*file
	mux   *http.ServeMux
}

// file is one static file, with its gzipped form when that is smaller.
type file struct {
	name  string
	body  []byte
	gz    []byte
	etag  string
	ctype string
}

// New builds the gateway, reading every file of cfg.Files once.
func New(cfg Config) (*Gateway, error) {
	if cfg.Transport == nil {
		return nil, errors.New("ws: no transport")
	}
	if cfg.MaxMessage <= 0 {
		cfg.MaxMessage = DefaultMaxMessage
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	g := &Gateway{cfg: cfg, files: map[string]*file{}, mux: http.NewServeMux()}
	if cfg.Files != nil {
		err := fs.WalkDir(cfg.Files, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			body, err := fs.ReadFile(cfg.Files, p)
			if err != nil {
				return err
			}
			g.files["/"+p] = newFile(p, body)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	g.mux.HandleFunc(Path, g.serveWS)
	g.mux.HandleFunc("/", g.serveFile)
	return g, nil
}

func newFile(name string, body []byte) *file {
	sum := sha256.Sum256(body)
	f := &file{name: name, body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	f.ctype = mime.TypeByExtension(path.Ext(name))
	if f.ctype == "" {
		f.ctype = http.DetectContentType(body)
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(body)
	zw.Close()
	if b.Len() < len(body) {
		f.gz = b.Bytes()
	}
	return f
}

// ServeHTTP implements http.Handler: requests naming a host the listener
// does not answer to are refused (Config.Hosts).
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hostAllowed(r.Host) {
		g.cfg.Logger.Info("web request refused: foreign Host header (add it to web.hosts if it is this server's name)",
			zap.String("host", r.Host), zap.String("remote", r.RemoteAddr))
		http.Error(w, "forbidden host", http.StatusForbidden)
		return
	}
	g.mux.ServeHTTP(w, r)
}

// hostAllowed reports whether a Host header names this listener: an IP
// address (no name that could have been rebound), localhost, or a match
// of Config.Hosts. An empty one (HTTP/1.0, no browser) passes.
func (g *Gateway) hostAllowed(hostport string) bool {
	hostport = strings.ToLower(hostport)
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if _, err := netip.ParseAddr(host); err == nil || host == "" || host == "localhost" {
		return true
	}
	for _, p := range g.cfg.Hosts {
		p = strings.ToLower(p)
		if ok, _ := path.Match(p, host); ok {
			return true
		}
		if ok, _ := path.Match(p, hostport); ok {
			return true
		}
	}
	return false
}

// connKey is the request context key of the connection's socket.
type connKey struct{}

// ConnContext is for http.Server.ConnContext: it keeps each connection's
// socket in its requests' context, so that a WebSocket's socket gets a
// bounded send buffer and keepalive, and the bytes its kernel holds for
// the client count against the output bound, like a TCP connection's.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// serveFile serves the web client. Every response carries a strong ETag
// and asks the browser to revalidate (no-cache), so a new daemon's client
// is picked up at once and an unchanged one costs a 304.
func (g *Gateway) serveFile(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	if strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	f := g.files[p]
	if f == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Add("Vary", "Accept-Encoding")
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	if f.gz != nil && acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	h.Set("Content-Length", itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == "gzip" && strings.TrimSpace(q) != "q=0" {
			return true
		}
	}
	return false
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}

// serveWS upgrades to a WebSocket and hands it to the transport: the
// reactor's loop reads and writes a plain socket itself (frames by
// gobwas/ws); under TLS, or on the net transport, the connection is served
// by goroutines (coder/websocket) through ServeMessages. Either way a
// browser page from another host gets 403.
func (g *Gateway) serveWS(w http.ResponseWriter, r *http.Request) {
	if host, ok := g.cfg.Transport.(server.WebSocketHost); ok && r.TLS == nil {
		g.serveOnLoop(host, w, r)
		return
	}
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		OriginPatterns:  g.cfg.AllowedOrigins,
		CompressionMode: websocket.CompressionDisabled, // messages are a few dozen bytes
	})
	if err != nil {
		g.cfg.Logger.Info("websocket refused", zap.String("remote", r.RemoteAddr), zap.String("origin", r.Header.Get("Origin")), zap.Error(err))
		return
	}
	c.SetReadLimit(g.cfg.MaxMessage)
	ip := netip.Addr{}
	if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil {
		ip = ap.Addr().Unmap()
	}
	nc, _ := r.Context().Value(connKey{}).(net.Conn) // nil without ConnContext
	err = server.ServeMessages(g.cfg.Transport, &conn{c: c, nc: nc}, ip, "ws:"+r.RemoteAddr)
	if err != nil && !errors.Is(err, server.ErrClosed) {
		g.cfg.Logger.Warn("websocket", zap.Error(err))
	}
}

// serveOnLoop does the opening handshake and hands the socket to the
// transport's loop.
func (g *Gateway) serveOnLoop(host server.WebSocketHost, w http.ResponseWriter, r *http.Request) {
	if err := authorizeOrigin(r, g.cfg.AllowedOrigins); err != nil {
		g.cfg.Logger.Info("websocket refused", zap.String("remote", r.RemoteAddr), zap.String("origin", r.Header.Get("Origin")), zap.Error(err))
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	nc, rw, _, err := gws.HTTPUpgrader{}.Upgrade(r, w)
	if err != nil {
		g.cfg.Logger.Info("websocket refused", zap.String("remote", r.RemoteAddr), zap.Error(err))
		return
	}
	var early []byte // what the client sent after its handshake, already read
	if n := rw.Reader.Buffered(); n > 0 {
		early, _ = rw.Reader.Peek(n)
	}
	ip := netip.Addr{}
	if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil {
		ip = ap.Addr().Unmap()
	}
	if err := host.ServeWebSocket(nc, early, ip, "ws:"+r.RemoteAddr, int(g.cfg.MaxMessage)); err != nil {
		code, why := gws.StatusGoingAway, "shutting down"
		if !errors.Is(err, server.ErrClosed) {
			// not a TCP socket (a listener of another kind): a
			// configuration this gateway does not serve
			g.cfg.Logger.Warn("websocket not served", zap.String("remote", r.RemoteAddr), zap.Error(err))
			code, why = gws.StatusInternalServerError, "cannot serve this connection"
		}
		f, _ := gws.CompileFrame(gws.NewCloseFrame(gws.NewCloseFrameBody(code, why)))
		nc.Write(f)
		nc.Close()
	}
}

// authorizeOrigin lets a request through that has no Origin (not from a
// browser), or whose Origin's host is the request's Host, or matches one
// of patterns (path.Match, case-insensitive), as coder/websocket's Accept
// does for the connections it serves.
func authorizeOrigin(r *http.Request, patterns []string) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil {
		return fmt.Errorf("failed to parse Origin header %q: %w", origin, err)
	}
	if strings.EqualFold(r.Host, u.Host) {
		return nil
	}
	for _, p := range patterns {
		if ok, err := path.Match(strings.ToLower(p), strings.ToLower(u.Host)); err != nil {
			return fmt.Errorf("failed to parse path pattern %q: %w", p, err)
		} else if ok {
			return nil
		}
	}
	if u.Host == "" {
		return fmt.Errorf("request Origin %q is not a valid URL with a host", origin)
	}
	return fmt.Errorf("request Origin %q is not authorized for Host %q", u.Host, r.Host)
}

// errText: a client sent a text message; the protocol is binary.
var errText = errors.New("text message on a binary protocol")

// conn is a WebSocket as a server.MessageConn.
type conn struct {
	c    *websocket.Conn
	nc   net.Conn    // its socket; nil when unknown
	text atomic.Bool // the client sent a text message
	once sync.Once
}

// NetConn is the WebSocket's socket, for the server (MessageConn).
func (c *conn) NetConn() net.Conn { return c.nc }

func (c *conn) ReadMessage(ctx context.Context) ([]byte, error) {
	typ, p, err := c.c.Read(ctx)
	if err != nil {
		return nil, err
	}
	if typ != websocket.MessageBinary {
		c.text.Store(true)
		return nil, errText
	}
	return p, nil
}

func (c *conn) WriteMessage(ctx context.Context, p []byte) error {
	return c.c.Write(ctx, websocket.MessageBinary, p)
}

// Close runs the closing handshake on its own goroutine: it may wait for
// the peer (up to 10 s), and the server calls Close from its event loop.
func (c *conn) Close(why server.CloseReason) {
	code, reason := websocket.StatusNormalClosure, ""
	switch {
	case c.text.Load():
		code, reason = websocket.StatusUnsupportedData, "binary messages only"
	case why == server.ReasonProtocol:
		code, reason = websocket.StatusPolicyViolation, "protocol error"
	case why == server.ReasonLimit:
		code, reason = websocket.StatusTryAgainLater, "too many connections"
	case why == server.ReasonShutdown:
		code, reason = websocket.StatusGoingAway, "shutting down"
	}
	c.once.Do(func() {
		go func() {
			if err := c.c.Close(code, reason); err != nil {
				c.c.CloseNow()
			}
		}()
	})
}
