package ws_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/server/ws"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// dialAs opens the gateway at addr (host:port) under another host name:
// the browser of a page whose name was rebound to addr sends that name as
// Host, and the page's origin (the same name) as Origin.
func dialAs(t *testing.T, addr, host string) (*websocket.Conn, *http.Response, error) {
	_, port, _ := net.SplitHostPort(addr)
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr) // the name resolves to the listener
	}}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := http.Header{"Origin": {"http://" + host + ":" + port}}
	return websocket.Dial(ctx, "ws://"+host+":"+port+ws.Path, &websocket.DialOptions{HTTPClient: client, HTTPHeader: h})
}

// TestDNSRebindingRefused: a page on another site whose name was rebound
// to the listener's address sends its own name as Host and as Origin,
// which agree, so the Origin check alone let it open a WebSocket (101)
// under the visitor's name. The listener answers only to IP addresses,
// localhost and web.hosts: such a request gets 403, and a configured name
// is served.
func TestDNSRebindingRefused(t *testing.T) {
	_, url := gateway(t, false, server.Config{}, ws.Config{Hosts: []string{"play.example.com", "*.games.example"}})
	addr := strings.TrimPrefix(strings.TrimSuffix(url, ws.Path), "ws://")
	for _, tt := range []struct {
		host string
		ok   bool
	}{
		{"rebound.attacker.example", false},
		{"127.0.0.1.nip.io", false},
		{"play.example.com", true},
		{"bomber.games.example", true},
		{"localhost", true},
	} {
		c, resp, err := dialAs(t, addr, tt.host)
		switch {
		case tt.ok && err != nil:
			t.Errorf("Host %s refused: %v", tt.host, err)
		case !tt.ok && err == nil:
			c.CloseNow()
			t.Errorf("Host %s upgraded: DNS rebinding opens a WebSocket", tt.host)
		case !tt.ok && (resp == nil || resp.StatusCode != http.StatusForbidden):
			t.Errorf("Host %s: %v, want 403", tt.host, resp)
		case tt.ok:
			c.CloseNow()
		}
	}
	// the files too
	req, _ := http.NewRequest("GET", "http://"+addr+"/", nil)
	req.Host = "rebound.attacker.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("GET / with a foreign Host: %d, want 403", resp.StatusCode)
	}
}

// TestWebSocketNeverReaderClosedNearTheBound: a browser that stops reading
// is closed once its unread output passes limits.max_output_bytes by a
// bounded factor: its socket's send buffer is bounded and what the kernel
// holds counts. Before, the output the kernel held was not counted and
// such a WebSocket held 2.3 MB (nine times the bound) before it was
// closed. Output comes from presence: two 32-byte notices a login.
func TestWebSocketNeverReaderClosedNearTheBound(t *testing.T) {
	const (
		bound  = 256 << 10
		factor = 3
	)
	// 29-byte names: 32-byte notices; a new one for every login, since the
	// hub may not have seen a logout yet (the net transport's reader, on a
	// busy machine) when the same name logs in again, which is refused
	churner := func(i int) string { return fmt.Sprintf("churn-%023d", i) }
	accounts := replay.Accounts{"Larry": "123"}
	for i := range 2*factor*bound/64 + 1 {
		accounts[churner(i)] = "123"
	}
	transports(t, func(t *testing.T, reactor bool) {
		cfg := server.Config{Check: accounts.Check, MaxOutput: bound, Hub: statemachine.Config{Games: statemachine.Catalogue()}}
		tcp, tr := servertest.Start(t, cfg, reactor)
		g, err := ws.New(ws.Config{Transport: tr})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewUnstartedServer(g)
		srv.Config.ConnContext = ws.ConnContext
		srv.Start()
		t.Cleanup(srv.Close)
		larry := mustDial(t, "ws"+strings.TrimPrefix(srv.URL, "http")+ws.Path)
		larry.send(name(segment.Info, "Larry"), name(segment.Passwd, "123"))
		for {
			segs, err := larry.message()
			if err != nil {
				t.Fatal(err)
			}
			if segs[len(segs)-1].Type == segment.SyncEnd {
				break
			}
		}
		// Larry reads nothing more
		produced := 0
		for i := 0; produced <= 2*factor*bound; i++ {
			b := dialTCP(t, tcp)
			b.send(name(segment.Info, churner(i)), name(segment.Passwd, "123"))
			b.expect(code(segment.InfoResp, 1))
			b.expect(code(segment.PasswdResp, 1))
			b.c.Close()
			produced += 2 * 32
			if i%50 != 49 {
				continue
			}
			ss, err := tr.Sessions(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if online(ss, "Larry") {
				continue
			}
			t.Logf("closed with %d bytes unread (%.2fx max_output_bytes)", produced, float64(produced)/bound)
			if produced > factor*bound {
				t.Fatalf("closed only after %d unread bytes, %.1f times max_output_bytes", produced, float64(produced)/bound)
			}
			return
		}
		t.Fatalf("still open with %d bytes unread, %d times max_output_bytes", produced, 2*factor)
	})
}

func online(ss []statemachine.SessionInfo, user string) bool {
	for _, s := range ss {
		if s.User == user && s.State.LoggedIn() {
			return true
		}
	}
	return false
}
