// Package netreplay replays the client side of a transcript against a
// running server over TCP and compares what each connection receives with
// the recorded answers.
//
// Over sockets only each connection's own order is observable, so the
// comparison is per connection. Cross-connection order is honoured by
// waiting, after every step, until every answer recorded for that step has
// arrived (or a timeout passes) before the next step is sent; a step with no
// recorded answer waits Settle so the server has acted on it.
package netreplay

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
)

// Options control a replay.
type Options struct {
	Addr    string                                                   // server address
	Dial    func(ctx context.Context, addr string) (net.Conn, error) // nil: TCP
	Timeout time.Duration                                            // how long to wait for one step's answers; 0: 2s
	Settle  time.Duration                                            // wait after a step with no recorded answer; 0: 20ms
	// AsRecorded sleeps between lines by their time stamps (t=...) instead
	// of going as fast as the answers allow.
	AsRecorded bool
	// Clock is called for "clock +D" lines; nil sleeps D for real.
	Clock func(d time.Duration)
	// Store is called for "store down|up" lines; nil makes them an error.
	Store func(up bool)
	// Ignore names differences not to report: "types:0x06,0x07" ignores
	// segments of those types; "closed" ignores close events.
	Ignore []string
}

// Difference is one mismatch between recorded and actual answers.
type Difference struct {
	Line int    // transcript line of the step
	Conn string // connection
	Want string // recorded ("" for none)
	Got  string // actual ("" for none)
}

func (d Difference) String() string {
	return fmt.Sprintf("line %d, %s:\n  - %s\n  + %s", d.Line, d.Conn, orNone(d.Want), orNone(d.Got))
}

func orNone(s string) string {
	if s == "" {
		return "(nothing)"
	}
	return s
}

type client struct {
	name   string
	nc     net.Conn
	mu     sync.Mutex
	got    []transcript.Entry // received, not yet matched
	closed bool
	cond   *sync.Cond
}

func (c *client) readLoop() {
	var d segment.Decoder
	d.SetDialect(segment.DialectExtended) // the server's side: whatever it may send
	buf := make([]byte, 4096)
	for {
		n, err := c.nc.Read(buf)
		data := buf[:n]
		c.mu.Lock()
		if _, derr := d.Feed(data, func(s segment.Segment) bool {
			c.got = append(c.got, transcript.Entry{At: -1, Conn: c.name, Op: transcript.Recv, Data: s.AppendTo(nil)})
			return true
		}); derr != nil && len(data) > 0 {
			c.got = append(c.got, transcript.Entry{At: -1, Conn: c.name, Op: transcript.Note, Comment: "server sent bad framing: " + derr.Error()})
		}
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				c.got = append(c.got, transcript.Entry{At: -1, Conn: c.name, Op: transcript.Closed})
			}
			c.closed = true
			c.cond.Broadcast()
			c.mu.Unlock()
			return
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

// Run replays entries and returns every difference (none when the server
// answered as recorded).
func Run(ctx context.Context, entries []transcript.Entry, opt Options) ([]Difference, error) {
	if opt.Timeout == 0 {
		opt.Timeout = 2 * time.Second
	}
	if opt.Settle == 0 {
		opt.Settle = 20 * time.Millisecond
	}
	if opt.Dial == nil {
		var d net.Dialer
		opt.Dial = func(ctx context.Context, addr string) (net.Conn, error) { return d.DialContext(ctx, "tcp", addr) }
	}
	ign := parseIgnore(opt.Ignore)
	clients := map[string]*client{}
	defer func() {
		for _, c := range clients {
			c.nc.Close()
		}
	}()
	var diffs []Difference
	start := time.Now()
	// split into steps: an input line and the answers recorded after it.
	// A capture's "in" lines are not steps: they record what the server's
	// hub got (a daemon replaying the capture takes those that are not the
	// connections' own from the capture), and the answers after one are
	// waited for with the step before it, whose client lines are all the
	// server needs to get there.
	for i := 0; i < len(entries); {
		in := entries[i]
		i++
		var want []transcript.Entry
		for i < len(entries) && (entries[i].Op == transcript.Recv || entries[i].Op == transcript.Closed || entries[i].Op == transcript.Note || entries[i].Op == transcript.Input) {
			if op := entries[i].Op; op != transcript.Note && op != transcript.Input && !ign.skip(entries[i]) {
				want = append(want, entries[i])
			}
			i++
		}
		if opt.AsRecorded && in.At >= 0 {
			if d := time.Until(start.Add(in.At)); d > 0 {
				time.Sleep(d)
			}
		}
		switch in.Op {
		case transcript.Note, transcript.Recv, transcript.Closed:
			continue
		case transcript.Open:
			nc, err := opt.Dial(ctx, opt.Addr)
			if err != nil {
				return diffs, fmt.Errorf("line %d: connect %s: %w", in.Line, in.Conn, err)
			}
			c := &client{name: in.Conn, nc: nc}
			c.cond = sync.NewCond(&c.mu)
			if old := clients[in.Conn]; old != nil {
				old.nc.Close()
			}
			clients[in.Conn] = c
			go c.readLoop()
		case transcript.Close:
			if c := clients[in.Conn]; c != nil {
				c.nc.Close()
			}
		case transcript.Send:
			c := clients[in.Conn]
			if c == nil {
				return diffs, fmt.Errorf("line %d: %s was never opened", in.Line, in.Conn)
			}
			c.nc.Write(in.Data) // a server that closed it already shows in the answers
		case transcript.Clock:
			if opt.Clock != nil {
				opt.Clock(in.Advance)
			} else {
				time.Sleep(in.Advance)
			}
		case transcript.StoreDown, transcript.StoreUp:
			if opt.Store == nil {
				return diffs, fmt.Errorf("line %d: the transcript switches the account store, which this replay cannot do", in.Line)
			}
			opt.Store(in.Op == transcript.StoreUp)
		}
		diffs = append(diffs, collect(clients, want, in.Line, opt, ign)...)
	}
	// anything that arrived beyond the recording
	time.Sleep(opt.Settle)
	for _, c := range sortedClients(clients) {
		c.mu.Lock()
		for _, g := range c.got {
			if !ign.skip(g) {
				diffs = append(diffs, Difference{Line: 0, Conn: c.name, Got: g.Format(false)})
			}
		}
		c.got = nil
		c.mu.Unlock()
	}
	return diffs, nil
}

// collect waits for the recorded answers of one step and matches them per
// connection, in order.
func collect(clients map[string]*client, want []transcript.Entry, line int, opt Options, ign ignore) []Difference {
	per := map[string][]transcript.Entry{}
	for _, w := range want {
		per[w.Conn] = append(per[w.Conn], w)
	}
	if len(want) == 0 {
		time.Sleep(opt.Settle)
	}
	var diffs []Difference
	deadline := time.Now().Add(opt.Timeout)
	for _, name := range sortedKeys(per) {
		ws := per[name]
		c := clients[name]
		if c == nil {
			for _, w := range ws {
				diffs = append(diffs, Difference{line, name, w.Format(false), ""})
			}
			continue
		}
		c.mu.Lock()
		for {
			n := 0
			for _, g := range c.got {
				if !ign.skip(g) {
					n++
				}
			}
			if n >= len(ws) || c.closed || time.Now().After(deadline) {
				break
			}
			waitTimeout(c.cond, time.Until(deadline))
		}
		var got []transcript.Entry
		rest := c.got[:0]
		for _, g := range c.got {
			switch {
			case ign.skip(g):
			case len(got) < len(ws):
				got = append(got, g)
			default:
				rest = append(rest, g)
			}
		}
		c.got = rest
		c.mu.Unlock()
		for k := 0; k < len(ws) || k < len(got); k++ {
			var w, g string
			if k < len(ws) {
				w = ws[k].Key()
			}
			if k < len(got) {
				g = got[k].Key()
			}
			if w != g {
				diffs = append(diffs, Difference{line, name, fmtKey(ws, k), fmtKey(got, k)})
			}
		}
	}
	return diffs
}

func fmtKey(es []transcript.Entry, k int) string {
	if k >= len(es) {
		return ""
	}
	return es[k].Format(false)
}

// waitTimeout waits on cond for at most d (sync.Cond has no timeout).
func waitTimeout(cond *sync.Cond, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.AfterFunc(d, func() {
		cond.L.Lock()
		cond.Broadcast()
		cond.L.Unlock()
	})
	cond.Wait()
	t.Stop()
}

type ignore struct {
	types  map[byte]bool
	closed bool
}

func parseIgnore(names []string) ignore {
	ig := ignore{types: map[byte]bool{}}
	for _, n := range names {
		switch {
		case n == "closed":
			ig.closed = true
		case strings.HasPrefix(n, "types:"):
			for _, t := range strings.Split(strings.TrimPrefix(n, "types:"), ",") {
				var b byte
				if _, err := fmt.Sscanf(t, "0x%02x", &b); err == nil {
					ig.types[b] = true
				}
			}
		}
	}
	return ig
}

func (ig ignore) skip(e transcript.Entry) bool {
	switch e.Op {
	case transcript.Closed:
		return ig.closed
	case transcript.Recv:
		return len(e.Data) > 0 && ig.types[e.Data[0]]
	}
	return false
}

func sortedKeys(m map[string][]transcript.Entry) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func sortedClients(m map[string]*client) []*client {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]*client, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// Format writes differences for people, "" when there are none.
func Format(diffs []Difference) string {
	var b strings.Builder
	for _, d := range diffs {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}
