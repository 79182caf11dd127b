//go:build linux

package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// pipeMsg is a MessageConn whose client never sends: ReadMessage waits
// until the connection is closed, and why says how.
type pipeMsg struct {
	once sync.Once
	why  CloseReason
	done chan struct{}
}

func (p *pipeMsg) ReadMessage(ctx context.Context) ([]byte, error) {
	<-p.done
	return nil, io.EOF
}
func (p *pipeMsg) WriteMessage(context.Context, []byte) error { return nil }
func (p *pipeMsg) Close(why CloseReason) {
	p.once.Do(func() { p.why = why; close(p.done) })
}

// openTap tells of every connection the engine opens.
type openTap struct{ opened chan statemachine.ConnID }

func (o openTap) Opened(id statemachine.ConnID, _ string) { o.opened <- id }
func (openTap) In(statemachine.ConnID, []byte)            {}
func (openTap) Out(statemachine.ConnID, segment.Segment)  {}
func (openTap) Closed(statemachine.ConnID, bool)          {}
func (openTap) Input(int64, *statemachine.Input)          {}

// opened waits for the engine to open a connection.
func (o openTap) wait(t *testing.T, what string) statemachine.ConnID {
	t.Helper()
	select {
	case id := <-o.opened:
		return id
	case <-time.After(10 * time.Second):
		t.Fatalf("%s never reached the engine", what)
		return 0
	}
}

// loopHost is a transport as this test needs it: its door, and Serve.
type loopHost interface {
	Transport
	messageHost
	doorOf() *door
}

func (t *NetTransport) doorOf() *door { return &t.door }
func (r *Reactor) doorOf() *door      { return &r.door }

// outboxOf is a goroutine-served link's outbox and its own goroutines' way
// of ending it.
func outboxOf(l link) (*outbox, func()) {
	switch l := l.(type) {
	case *nconn:
		return &l.outbox, l.finish
	case *mconn:
		return &l.outbox, l.finish
	}
	panic(fmt.Sprintf("not served by goroutines: %T", l))
}

// TestKillWithTheDoorFull: the engine kills connections on its own loop
// (a client over the output bound, a framing error). A connection served
// by goroutines (the net transport's, a WebSocket's, the reactor's TLS
// ones) then gives back its slot; posting that to the loop, as its own
// goroutines do, waits for room in the door's queue, which only the loop
// makes. In the bench's repeated login storms the net transport stopped
// that way for good: the loop killed a connection while a thousand others'
// goroutines kept the queue full, and no connection was accepted or
// answered again; and once more, when the connection's own writer was
// ending it at the same moment, posting from inside the once that the
// kill then waited on. Here the queue is filled on the loop itself before
// the kill, with or without the connection's own goroutine ending it
// meanwhile: the kill must return, the slot be free at once, and the loop
// go on.
func TestKillWithTheDoorFull(t *testing.T) {
	netTr := func(cfg Config) (loopHost, error) { return NewNetTransport(cfg), nil }
	reactor := func(cfg Config) (loopHost, error) { return NewReactor(cfg) }
	cases := []struct {
		name   string
		open   func(cfg Config) (loopHost, error)
		msg    bool // a message connection rather than TCP
		ending bool // its own goroutine is ending it as the loop kills it
	}{
		{"net transport, TCP", netTr, false, false},
		{"net transport, TCP, its writer ending it", netTr, false, true},
		{"net transport, message connection", netTr, true, false},
		{"net transport, message connection, its writer ending it", netTr, true, true},
		{"reactor, message connection", reactor, true, false},
		{"reactor, message connection, its writer ending it", reactor, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tap := openTap{opened: make(chan statemachine.ConnID, 4)}
			tr, err := tc.open(Config{Check: replay.DemoAccounts().Check, MaxConns: 1, Tap: tap})
			if err != nil {
				t.Fatal(err)
			}
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go tr.Serve(l)
			stuck := false
			t.Cleanup(func() {
				if stuck {
					return // the loop never returns; Shutdown would wait on it
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				tr.Shutdown(ctx)
			})

			// the one slot taken
			var client net.Conn
			msg := &pipeMsg{done: make(chan struct{})}
			if tc.msg {
				go ServeMessages(tr, msg, netip.MustParseAddr("127.0.0.1"), "test")
			} else if client, err = net.Dial("tcp", l.Addr().String()); err != nil {
				t.Fatal(err)
			} else {
				defer client.Close()
			}
			id := tap.wait(t, "the connection")
			d := tr.doorOf()

			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			var free bool
			err = tr.do(ctx, func() {
				for full := false; !full; { // the queue full, as in a storm
					select {
					case d.in <- func() {}:
					default:
						full = true
					}
				}
				c := d.eng.conns[id]
				if tc.ending {
					// the writer's end, stopped where it posts to the
					// full queue (before, that was inside the once)
					ob, fin := outboxOf(c.link)
					go fin()
					for ended := false; !ended; {
						ob.mu.Lock()
						ended = ob.finished
						ob.mu.Unlock()
						runtime.Gosched()
					}
				}
				d.eng.drop(c, ReasonProtocol, true)
				free = d.eng.admitted == 0
			})
			if errors.Is(err, context.DeadlineExceeded) {
				stuck = true
				t.Fatal("the loop is stuck in the kill, waiting on its own full queue")
			}
			if err != nil {
				t.Fatal(err)
			}
			if !free {
				t.Error("the killed connection's slot was not given back in the kill")
			}
			if tc.msg {
				<-msg.done
				if !tc.ending && msg.why != ReasonProtocol {
					t.Errorf("the message connection was closed as %q", msg.why)
				}
			} else {
				client.SetReadDeadline(time.Now().Add(5 * time.Second))
				if _, err := client.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
					t.Errorf("the killed client reads %v, want EOF", err)
				}
			}

			// the loop goes on, through the queue the storm left: the slot
			// is there for the next client
			next, err := net.Dial("tcp", l.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer next.Close()
			tap.wait(t, "the next client")
		})
	}
}
