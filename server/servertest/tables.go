package servertest

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client/tables"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// ExtClient speaks the extended protocol to a real bomberd for a test.
type ExtClient struct {
	t    testing.TB
	nc   net.Conn
	seat int
	msgs chan ExtMsg
}

// ExtMsg is one whole message a test client received (or its read error).
type ExtMsg struct {
	Seat int
	Type segment.Type
	Body []byte
	Err  error
}

// DialExt connects, says Hello, logs in and starts a reader that delivers
// whole messages to out (reference segments too, as messages).
func DialExt(t testing.TB, addr, name string, seat int, out chan ExtMsg) *ExtClient {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	c := &ExtClient{t: t, nc: nc, seat: seat, msgs: out}
	go c.read()
	c.Send(segment.Hello, segment.HelloMsg{Version: 1, Features: segment.FeatureTables | segment.FeatureChat}.Append(nil))
	c.Raw(segment.Name(segment.Info, name))
	c.Raw(segment.Name(segment.Passwd, "123"))
	return c
}

func (c *ExtClient) read() {
	var d segment.Decoder
	d.SetDialect(segment.DialectExtended)
	var a segment.Assembler
	for {
		free := d.Free()
		n, err := c.nc.Read(free)
		if err != nil {
			c.msgs <- ExtMsg{Seat: c.seat, Err: err}
			return
		}
		d.Commit(n)
		for {
			s, ok, err := d.Next()
			if err != nil {
				c.msgs <- ExtMsg{Seat: c.seat, Err: err}
				return
			}
			if !ok {
				break
			}
			if !s.Type.Extended() {
				c.msgs <- ExtMsg{Seat: c.seat, Type: s.Type, Body: append([]byte(nil), s.Payload()...)}
				continue
			}
			t, body, done, err := a.Add(s)
			if err != nil {
				c.msgs <- ExtMsg{Seat: c.seat, Err: err}
				return
			}
			if done {
				c.msgs <- ExtMsg{Seat: c.seat, Type: t, Body: append([]byte(nil), body...)}
			}
		}
	}
}

// Raw writes one segment.
func (c *ExtClient) Raw(s segment.Segment) {
	c.t.Helper()
	if _, err := c.nc.Write(s.AppendTo(nil)); err != nil {
		c.t.Fatal(err)
	}
}

// Send writes one message, cut into segments.
func (c *ExtClient) Send(t segment.Type, body []byte) {
	c.t.Helper()
	var b []byte
	for _, s := range segment.AppendMessage(nil, t, body) {
		b = s.AppendTo(b)
	}
	if _, err := c.nc.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// PlayTable has scripted clients play one game of spec to the end, seat i
// connected to addrs[i%len(addrs)] and a watcher ("Cindy") to the next
// address, and checks that every seat and the watcher see the end. The
// users' password is 123.
func PlayTable(t testing.TB, addrs []string, spec rules.Spec, kvs []segment.KV, users []string, seed int) {
	msgs := make(chan ExtMsg, 4096)
	var seats []*ExtClient
	for i, u := range users {
		seats = append(seats, DialExt(t, addrs[i%len(addrs)], u, i, msgs))
	}
	watcher := DialExt(t, addrs[len(users)%len(addrs)], "Cindy", -1, msgs)
	var table uint32
	var drv *tables.Driver
	wait := func(what string, until func(m ExtMsg) bool) {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			select {
			case m := <-msgs:
				if m.Err != nil {
					t.Fatalf("seat %d: %v", m.Seat, m.Err)
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
	seats[0].Send(segment.Create, segment.CreateMsg{Game: spec.Name, Seats: uint8(len(users)), Options: kvs}.Append(nil))
	wait("the table", func(m ExtMsg) bool {
		if m.Type == segment.Joined && m.Seat == 0 {
			j, _ := segment.DecodeJoinedBody(m.Body)
			table = j.Table
			return true
		}
		return false
	})
	joined := 0
	for i, c := range seats[1:] {
		c.Send(segment.Join, segment.JoinMsg{Table: table, Seat: uint8(i + 1)}.Append(nil))
	}
	watcher.Send(segment.Watch, segment.WatchMsg{Table: table}.Append(nil))
	wait("everyone seated", func(m ExtMsg) bool {
		if m.Type == segment.Joined && m.Seat != 0 {
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
		c.Send(segment.Ready, nil)
	}
	ends := 0
	var trace []string
	wait("the end of the game", func(m ExtMsg) bool {
		if m.Type == segment.GameEnd {
			ends++
		}
		trace = append(trace, fmt.Sprintf("seat %d got %v %x", m.Seat, m.Type, m.Body))
		if len(drv.Errors) > 0 {
			if len(trace) > 40 {
				trace = trace[len(trace)-40:]
			}
			t.Fatalf("moves refused: %v\nlast messages:\n%s", drv.Errors[0], strings.Join(trace, "\n"))
		}
		if m.Seat >= 0 {
			if err := drv.Receive(m.Seat, m.Type, m.Body); err != nil {
				t.Fatal(err)
			}
			out, ok, err := drv.Next()
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				seats[out.Seat].Send(out.Type, out.Body)
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
	t.Logf("%s: %d moves, status %d, winners %v", spec.Name, drv.Moves(), drv.End.Status, drv.End.Winners)
}
