package main

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client/tables"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// extClient speaks the extended protocol to a real bomberd.
type extClient struct {
	t    *testing.T
	nc   net.Conn
	seat int
	msgs chan extMsg
}

type extMsg struct {
	seat int
	t    segment.Type
	body []byte
	err  error
}

// dialExt connects, says Hello, logs in and starts a reader that delivers
// whole messages to out (reference segments too, as messages).
func dialExt(t *testing.T, addr, name string, seat int, out chan extMsg) *extClient {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	c := &extClient{t: t, nc: nc, seat: seat, msgs: out}
	go c.read()
	c.send(segment.Hello, segment.HelloMsg{Version: 1, Features: segment.FeatureTables | segment.FeatureChat}.Append(nil))
	c.raw(segment.Name(segment.Info, name))
	c.raw(segment.Name(segment.Passwd, "123"))
	return c
}

func (c *extClient) read() {
	var d segment.Decoder
	d.SetDialect(segment.DialectExtended)
	var a segment.Assembler
	for {
		free := d.Free()
		n, err := c.nc.Read(free)
		if err != nil {
			c.msgs <- extMsg{seat: c.seat, err: err}
			return
		}
		d.Commit(n)
		for {
			s, ok, err := d.Next()
			if err != nil {
				c.msgs <- extMsg{seat: c.seat, err: err}
				return
			}
			if !ok {
				break
			}
			if !s.Type.Extended() {
				c.msgs <- extMsg{seat: c.seat, t: s.Type, body: append([]byte(nil), s.Payload()...)}
				continue
			}
			t, body, done, err := a.Add(s)
			if err != nil {
				c.msgs <- extMsg{seat: c.seat, err: err}
				return
			}
			if done {
				c.msgs <- extMsg{seat: c.seat, t: t, body: append([]byte(nil), body...)}
			}
		}
	}
}

func (c *extClient) raw(s segment.Segment) {
	c.t.Helper()
	if _, err := c.nc.Write(s.AppendTo(nil)); err != nil {
		c.t.Fatal(err)
	}
}

func (c *extClient) send(t segment.Type, body []byte) {
	c.t.Helper()
	var b []byte
	for _, s := range segment.AppendMessage(nil, t, body) {
		b = s.AppendTo(b)
	}
	if _, err := c.nc.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// TestEveryGameOverTCP: for each transport, scripted clients play each of
// the five games to the end against the real daemon, with a watcher, and
// every seat and the watcher see the same end.
func TestEveryGameOverTCP(t *testing.T) {
	users := []string{"Novate", "Twofyw", "Larry", "Albert", "Beth"}
	small := map[string][]segment.KV{"dots": {{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}}, "paisho": {{Key: "move-limit", Value: "40"}}}
	for _, transport := range []string{"reactor", "net"} {
		t.Run(transport, func(t *testing.T) {
			d := startDaemon(t, "BOMBER_TRANSPORT="+transport, "BOMBER_LIMITS_SEGMENT_RATE=0")
			for gi, e := range statemachine.Catalogue() {
				t.Run(e.Spec.Name, func(t *testing.T) {
					playOverTCP(t, d.addr, e.Spec, small[e.Spec.Name], users[:e.Spec.MaxPlayers], gi)
				})
			}
		})
	}
}

func playOverTCP(t *testing.T, addr string, spec rules.Spec, kvs []segment.KV, users []string, seed int) {
	msgs := make(chan extMsg, 4096)
	var seats []*extClient
	for i, u := range users {
		seats = append(seats, dialExt(t, addr, u, i, msgs))
	}
	watcher := dialExt(t, addr, "Cindy", -1, msgs)
	var table uint32
	var drv *tables.Driver
	wait := func(what string, until func(m extMsg) bool) {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			select {
			case m := <-msgs:
				if m.err != nil {
					t.Fatalf("seat %d: %v", m.seat, m.err)
				}
				if until(m) {
					return
				}
			case <-timeout:
				if drv != nil {
					t.Fatalf("timed out waiting for %s: %d moves, errors %v", what, drv.Moves(), drv.Errors)
				}
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	seats[0].send(segment.Create, segment.CreateMsg{Game: spec.Name, Seats: uint8(len(users)), Options: kvs}.Append(nil))
	wait("the table", func(m extMsg) bool {
		if m.t == segment.Joined && m.seat == 0 {
			j, _ := segment.DecodeJoinedBody(m.body)
			table = j.Table
			return true
		}
		return false
	})
	joined := 0
	for i, c := range seats[1:] {
		c.send(segment.Join, segment.JoinMsg{Table: table, Seat: uint8(i + 1)}.Append(nil))
	}
	watcher.send(segment.Watch, segment.WatchMsg{Table: table}.Append(nil))
	wait("everyone seated", func(m extMsg) bool {
		if m.t == segment.Joined && m.seat != 0 {
			joined++
		}
		return joined == len(users)
	})
	opts := rules.Options{}
	for _, kv := range kvs {
		opts[kv.Key] = kv.Value
	}
	drv = tables.New(spec, opts, len(users), uint64(seed))
	drv.Text = seed%2 == 1
	drv.MaxMoves = 300
	for _, c := range seats {
		c.send(segment.Ready, nil)
	}
	ends := 0
	var trace []string
	wait("the end of the game", func(m extMsg) bool {
		if m.t == segment.GameEnd {
			ends++
		}
		trace = append(trace, fmt.Sprintf("seat %d got %v %x", m.seat, m.t, m.body))
		if len(drv.Errors) > 0 {
			if len(trace) > 40 {
				trace = trace[len(trace)-40:]
			}
			t.Fatalf("moves refused: %v\nlast messages:\n%s", drv.Errors[0], strings.Join(trace, "\n"))
		}
		if m.seat >= 0 {
			if err := drv.Receive(m.seat, m.t, m.body); err != nil {
				t.Fatal(err)
			}
			out, ok, err := drv.Next()
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				seats[out.Seat].send(out.Type, out.Body)
			}
		}
		return ends == len(users)+1
	})
	if len(drv.Errors) > 0 {
		t.Fatalf("moves refused: %v", drv.Errors)
	}
	if !drv.Ended() || drv.End.Status == 0 {
		t.Fatalf("game did not end: %+v", drv.End)
	}
	t.Log(fmt.Sprintf("%s: %d moves, status %d, winners %v", spec.Name, drv.Moves(), drv.End.Status, drv.End.Winners))
}
