package main

import (
	"context"
	"crypto/tls"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/web"
)

// wsHello opens the gateway at url, says Hello and checks Welcome.
func wsHello(t *testing.T, url string, client *http.Client, origin string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: client, HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	hello := segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: 1, Features: 3}.Append(nil))[0]
	if err := c.Write(ctx, websocket.MessageBinary, hello.AppendTo(nil)); err != nil {
		t.Fatal(err)
	}
	_, p, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if p[0] != byte(segment.Welcome) {
		t.Fatalf("got % x, want Welcome", p)
	}
}

// TestWebListener: bomberd serves the embedded web client and the
// WebSocket gateway on web.listen, refusing pages of other origins.
func TestWebListener(t *testing.T) {
	for _, transport := range []string{"reactor", "net"} {
		t.Run(transport, func(t *testing.T) {
			d := startDaemon(t, "BOMBER_TRANSPORT="+transport)
			addr := logged(d.log.String(), "web listening")
			if addr == "" {
				t.Fatalf("no web listener in the log:\n%s", d.log.String())
			}
			resp, err := http.Get("http://" + addr + "/")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want, _ := fs.ReadFile(web.FS(), "index.html")
			if resp.StatusCode != 200 || string(body) != string(want) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				t.Fatalf("GET /: %d %q, want the embedded index.html", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			wsHello(t, "ws://"+addr+"/ws", nil, "http://"+addr)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, resp, err = websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://evil.example"}}})
			if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
				t.Fatalf("foreign origin: %v %v, want 403", err, resp)
			}
		})
	}
}

// TestWebTLS: with web.tls the listener serves HTTPS and wss:// with the
// TLS listener's certificate settings.
func TestWebTLS(t *testing.T) {
	cert, key := writeCert(t, t.TempDir(), 7)
	d := startDaemon(t, "BOMBER_WEB_TLS=true", "BOMBER_TLS_CERT_FILE="+cert, "BOMBER_TLS_KEY_FILE="+key)
	addr := logged(d.log.String(), "web listening")
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	resp, err := client.Get("https://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.TLS == nil || resp.TLS.PeerCertificates[0].SerialNumber.Int64() != 7 {
		t.Fatalf("GET https://%s/: %d, TLS %v", addr, resp.StatusCode, resp.TLS != nil)
	}
	wsHello(t, "wss://"+addr+"/ws", client, "")
	if r, err := http.Get("http://" + addr + "/"); err == nil { // Go answers plain HTTP on a TLS port with a 400
		r.Body.Close()
		if r.StatusCode == 200 {
			t.Fatal("plain HTTP served on a TLS web listener")
		}
	}
}
