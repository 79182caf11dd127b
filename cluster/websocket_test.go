package cluster

import (
	"context"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/bomber-game/bomber/client"
	"github.com/bomber-game/bomber/client/clientbot"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server/ws"
)

// TestWebSocketClientAcrossNodes: a browser's connection (the WebSocket
// gateway of one node) and a TCP client on another node are in one world:
// the browser's user list holds the user on the other node.
func TestWebSocketClientAcrossNodes(t *testing.T) {
	w := newWorld(t, embeddedNATS(t), 2)
	g, err := ws.New(ws.Config{Transport: w.nodes[0].tr})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	in := make(chan refMsg, 64)
	beth := dialRef(t, w.nodes[1].addr, clientbot.NewBot("Beth", "123", rand.New(rand.NewPCG(1, 2))), in)
	pumpRef(t, in, "Beth's login", func() bool { return beth.b.C.State() == client.ClientWaiting })

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+ws.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	login := segment.Name(segment.Info, "Albert").AppendTo(nil)
	login = segment.Name(segment.Passwd, "123").AppendTo(login)
	if err := c.Write(ctx, websocket.MessageBinary, login); err != nil {
		t.Fatal(err)
	}
	var d segment.Decoder
	for {
		_, p, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("no user list naming Beth: %v", err)
		}
		for rest := p; len(rest) > 0; {
			rest = rest[d.Write(rest):]
			for {
				s, ok, err := d.Next()
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				if s.Type == segment.SyncBegin && string(s.Payload()) == "Beth" {
					return
				}
			}
		}
	}
}
