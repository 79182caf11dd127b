package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
)

// adminToken reads the token bomberd generated in its working directory.
func daemonToken(t *testing.T, d *proc) string {
	t.Helper()
	file := filepath.Join(d.cmd.Dir, "var", "admin.token")
	st, err := os.Stat(file)
	if err != nil {
		t.Fatalf("no admin token generated: %v", err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("admin token file mode %v, want 0600", st.Mode().Perm())
	}
	b, _ := os.ReadFile(file)
	return strings.TrimSpace(string(b))
}

// adminDo sends a request to the daemon's admin listener with the given
// token, Origin and Host (empty: none, none, the listener's address).
func adminDo(t *testing.T, d *proc, method, path string, form url.Values, token, origin, host string) (int, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, "http://"+d.admin+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestAdminListenerGuards: every path but the health checks needs the
// token bomberd generated (mode 0600), a foreign Origin is refused even
// with it, and no endpoint answers a foreign Host header (DNS rebinding).
// Before, GET /users, /metrics and pprof answered anyone who could connect.
func TestAdminListenerGuards(t *testing.T) {
	d := startDaemon(t)
	token := daemonToken(t, d)
	a := dial(t, d.addr)
	if a.login("Albert", "123") != 1 {
		t.Fatal("login")
	}
	kick := url.Values{"user": {"Albert"}}
	if code, body := adminDo(t, d, "POST", "/kick", kick, "", "", ""); code != http.StatusUnauthorized {
		t.Fatalf("kick without a token: %d %s", code, body)
	}
	if code, body := adminDo(t, d, "POST", "/kick", kick, "not-the-token", "", ""); code != http.StatusUnauthorized {
		t.Fatalf("kick with a wrong token: %d %s", code, body)
	}
	if code, body := adminDo(t, d, "POST", "/kick", kick, token, "http://evil.example", ""); code != http.StatusForbidden {
		t.Fatalf("kick from a foreign origin: %d %s", code, body)
	}
	for _, path := range []string{"/users", "/metrics", "/debug/pprof/cmdline", "/healthz"} {
		if code, body := adminDo(t, d, "GET", path, nil, "", "", "rebound.evil.example:20344"); code != http.StatusForbidden {
			t.Errorf("GET %s with a foreign Host: %d %.80s", path, code, body)
		}
	}
	for _, path := range []string{"/users", "/metrics", "/debug/pprof/", "/debug/pprof/cmdline", "/nothing-here"} {
		if code, body := adminDo(t, d, "GET", path, nil, "", "", ""); code != http.StatusUnauthorized {
			t.Errorf("GET %s without a token: %d %.80s", path, code, body)
		}
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		if code, body := adminDo(t, d, "GET", path, nil, "", "", ""); code != 200 {
			t.Errorf("GET %s without a token: %d %.80s, want it answered", path, code, body)
		}
	}
	_, port, _ := net.SplitHostPort(d.admin)
	if code, body := adminDo(t, d, "GET", "/users", nil, token, "", "localhost:"+port); code != 200 || !strings.Contains(body, "Albert") {
		t.Fatalf("GET /users as localhost: %d %s (Albert must still be online)", code, body)
	}
	if code, body := adminDo(t, d, "POST", "/kick", kick, token, "http://127.0.0.1:"+port, ""); code != 200 {
		t.Fatalf("kick with the token: %d %s", code, body)
	}
}

// waitClosed waits until the server closes nc (read returns an error), or
// fails after limit.
func waitClosed(t *testing.T, nc net.Conn, limit time.Duration) {
	t.Helper()
	nc.SetReadDeadline(time.Now().Add(limit))
	buf := make([]byte, 4096)
	for {
		if _, err := nc.Read(buf); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatal("the admin listener kept the connection open")
			}
			return
		}
	}
}

// TestAdminListenerLimits: idle and slow connections are closed, and at
// most maxConns are served at once.
func TestAdminListenerLimits(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	lim := adminLimits{maxConns: 2, readHeaderTimeout: 200 * time.Millisecond, readTimeout: time.Second, writeTimeout: time.Second, idleTimeout: 200 * time.Millisecond}
	a := serveAdmin(l, h, lim, zap.NewNop())
	defer a.shutdown(context.Background())
	addr := l.Addr().String()

	t.Run("idle keep-alive closed", func(t *testing.T) {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		nc.Write([]byte("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
		waitClosed(t, nc, 10*time.Second)
	})
	t.Run("slow header closed", func(t *testing.T) {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		nc.Write([]byte("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
		waitClosed(t, nc, 10*time.Second)
	})
	t.Run("connections capped", func(t *testing.T) {
		lim := lim
		lim.readHeaderTimeout, lim.idleTimeout = time.Minute, time.Minute
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		a := serveAdmin(l, h, lim, zap.NewNop())
		defer a.shutdown(context.Background())
		var hold []net.Conn
		for range lim.maxConns {
			nc, err := net.Dial("tcp", l.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			hold = append(hold, nc)
		}
		c := &http.Client{Timeout: 500 * time.Millisecond}
		if _, err := c.Get("http://" + l.Addr().String() + "/"); err == nil {
			t.Fatal("a request was served past the connection cap")
		}
		hold[0].Close()
		c.Timeout = 10 * time.Second
		if resp, err := c.Get("http://" + l.Addr().String() + "/"); err != nil {
			t.Fatalf("no room after a connection closed: %v", err)
		} else {
			resp.Body.Close()
		}
	})
}

// TestAdminGuardUnit covers the guard's decisions without a daemon.
func TestAdminGuardUnit(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	g := adminGuard(ok, adminHosts("192.0.2.10:20344"), "tok", "scrape", zap.NewNop())
	for _, tt := range []struct {
		method, path, host, origin, auth string
		want                             int
	}{
		{"GET", "/healthz", "127.0.0.1:20344", "", "", 200},
		{"GET", "/readyz", "[::1]:20344", "", "", 200},
		{"GET", "/healthz", "LOCALHOST", "", "", 200},
		{"GET", "/healthz", "192.0.2.10:20344", "", "", 200},
		{"GET", "/healthz", "attacker.example", "", "", 403},
		{"GET", "/healthz", "127.0.0.1.nip.io:20344", "", "", 403},
		{"GET", "/healthz", "127.0.0.1:20344", "null", "", 403},
		{"GET", "/users", "127.0.0.1:20344", "", "", 401},
		{"GET", "/users", "127.0.0.1:20344", "", "Bearer tok", 200},
		{"GET", "/users", "127.0.0.1:20344", "", "Bearer scrape", 401},
		{"GET", "/metrics", "127.0.0.1:20344", "", "", 401},
		{"GET", "/metrics", "127.0.0.1:20344", "", "Bearer scrape", 200},
		{"GET", "/metrics", "127.0.0.1:20344", "", "Bearer tok", 200},
		{"GET", "/debug/pprof/heap", "127.0.0.1:20344", "", "Bearer scrape", 401},
		{"POST", "/kick", "127.0.0.1:20344", "", "Bearer tok", 200},
		{"POST", "/kick", "127.0.0.1:20344", "", "Bearer scrape", 401},
		{"POST", "/kick", "127.0.0.1:20344", "", "Bearer tok2", 401},
		{"DELETE", "/kick", "127.0.0.1:20344", "", "", 401},
		{"POST", "/healthz", "127.0.0.1:20344", "", "", 401},
		{"POST", "/kick", "127.0.0.1:20344", "https://attacker.example", "Bearer tok", 403},
	} {
		r := httptest.NewRequest(tt.method, tt.path, nil)
		r.Host = tt.host
		if tt.origin != "" {
			r.Header.Set("Origin", tt.origin)
		}
		if tt.auth != "" {
			r.Header.Set("Authorization", tt.auth)
		}
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		if w.Code != tt.want {
			t.Errorf("%s %s Host %q Origin %q Authorization %q: %d, want %d", tt.method, tt.path, tt.host, tt.origin, tt.auth, w.Code, tt.want)
		}
	}
}

// TestHealthzWhileMetricsPipelined: 16 clients that pipeline GET /metrics
// and never read the responses (with the token, a scraper gone wrong) hold
// their connections in writes the kernel no longer takes; /healthz is
// still answered at once. Before, they held all 16 connections the admin
// listener served, for the 2-minute write timeout, and /healthz waited in
// the kernel's backlog.
func TestHealthzWhileMetricsPipelined(t *testing.T) {
	d := startDaemon(t)
	token := daemonToken(t, d)
	req := []byte("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\n\r\n")
	var pipelined []byte
	for range 2000 {
		pipelined = append(pipelined, req...)
	}
	for i := range 16 {
		nc, err := net.Dial("tcp", d.admin)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		go nc.Write(pipelined) // ends with an error when the connection closes
		nc.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := nc.Read(make([]byte, 1)); err != nil { // being served; from now on nothing is read
			t.Fatalf("client %d: %v", i, err)
		}
	}
	c := &http.Client{Timeout: 5 * time.Second}
	for range 3 {
		t0 := time.Now()
		resp, err := c.Get("http://" + d.admin + "/healthz")
		if err != nil {
			t.Fatalf("/healthz while 16 clients pipeline /metrics: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("/healthz: %d", resp.StatusCode)
		}
		t.Logf("/healthz answered in %v", time.Since(t0))
	}
}

// TestAdminRefusalEndsConnection: a request the admin listener refuses
// (no token, a foreign Host or Origin) is answered and its connection
// closed, so a stranger pipelining requests gets one refusal per
// connection. Before, one connection could carry refusals without end:
// 16 clients pipelining unauthenticated GETs and never reading kept the
// daemon writing 401s into the kernel's growing send buffers, on a loaded
// 2-core machine at 80% of a CPU, and slowed game-port logins to a p99 of
// 1-2 s (bench/attack, the admin attack).
func TestAdminRefusalEndsConnection(t *testing.T) {
	d := startDaemon(t)
	for _, req := range []string{
		"GET /users HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: rebound.evil.example\r\n\r\n",
		"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n\r\n",
	} {
		nc, err := net.Dial("tcp", d.admin)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		if _, err := nc.Write([]byte(req + req)); err != nil { // two pipelined
			t.Fatal(err)
		}
		nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		br := bufio.NewReader(nc)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%q: %v", req, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			t.Fatalf("%q: %d, want a refusal", req, resp.StatusCode)
		}
		if resp, err := http.ReadResponse(br, nil); err == nil {
			resp.Body.Close()
			t.Errorf("%q: the pipelined second request was answered too (%d); the connection should end with the first refusal", req, resp.StatusCode)
		}
	}
}
