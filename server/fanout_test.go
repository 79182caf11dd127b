package server

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// fanoutRun drives an engine (whose hub casts presence) and a hub that
// sends presence one segment at a time through the same events, one op per
// byte of ops, and checks that every connection received the same
// segments in the same order: the engine's fan-out, with its sweeps cut
// anywhere and its batches split anywhere, changes when presence is
// written, never what a connection gets. With an odd number of ops the
// links take user lists by reference, as the reactor's do, and read them
// only at the end.
func fanoutRun(t *testing.T, ops []byte, paced bool) {
	lending := len(ops)%2 == 1
	e := newPacedEngine(t)
	// a small bound, so that what is lent after a write cut inside a
	// segment is handed over in several chunks (putOut steps over headers)
	e.cfg.MaxOutput = 256
	e.fan.on = paced
	flatCfg := e.cfg.Hub
	flatCfg.Casts = false
	flat := statemachine.New(flatCfg)
	want := map[statemachine.ConnID][]segment.Segment{}
	var conns []*conn // every connection opened, in order
	peerClosed := map[statemachine.ConnID]bool{}
	// more users than a sweep share (checkEvery), so rounds span calls
	names := make([]string, 3*checkEvery)
	for i := range names {
		names[i] = fmt.Sprintf("u%d", i)
	}

	collect := func() {
		rd := flat.Ready()
		for _, s := range rd.Sends {
			want[s.Conn] = append(want[s.Conn], s.Seg)
		}
		if len(rd.Casts) != 0 {
			t.Fatal("a hub without Casts cast")
		}
		flat.Advance()
	}
	feed := func(c *conn, segs ...segment.Segment) {
		var b []byte
		for _, s := range segs {
			b = s.AppendTo(b)
			flat.Step(e.now(), statemachine.Input{Kind: statemachine.InReceive, Conn: c.id, Seg: s})
		}
		e.input(c, b)
		e.applyPending()
		answerAll(e.hub, e.now())
		answerAll(flat, e.now())
		collect()
	}
	open := func() []*conn {
		var o []*conn
		for _, c := range conns {
			if !c.gone {
				o = append(o, c)
			}
		}
		return o
	}
	for i, op := range ops {
		arg := int(op >> 3)
		switch op & 7 {
		case 0, 1: // a connection opens and logs in (maybe as someone online: a kick)
			var l link = &fakeLink{name: fmt.Sprint(i), log: &e.log}
			if lending {
				// an idle link's kernel takes part of what the sweep
				// writes at once, cut inside a segment most times
				l = &lendLink{busy: arg%2 == 1, take: arg % 5 * 37}
			}
			c := e.open(l, netip.MustParseAddr("127.0.0.1"), "127.0.0.1:1")
			flat.Step(e.now(), statemachine.Input{Kind: statemachine.InOpen, Conn: c.id, Text: "127.0.0.1"})
			conns = append(conns, c)
			feed(c, segment.Name(segment.Info, names[arg%len(names)]), segment.Name(segment.Passwd, "123"))
		case 2: // a connection's peer closes it
			if o := open(); len(o) > 0 {
				c := o[arg%len(o)]
				e.closed(c, ReasonPeer)
				e.applyPending()
				flat.Step(e.now(), statemachine.Input{Kind: statemachine.InClosed, Conn: c.id})
				peerClosed[c.id] = true
				collect()
			}
		case 3: // someone invites someone: output that is not presence, among it
			if o := open(); len(o) > 0 {
				feed(o[arg%len(o)], segment.Name(segment.SendInvit, names[arg%len(names)]))
			}
		case 4: // the invited answer (accepting starts a game)
			if o := open(); len(o) > 0 {
				feed(o[arg%len(o)], segment.Code(segment.InvitResponse, byte(arg&1)))
			}
		case 5, 6: // the engine acts on what the hub said
			e.process()
		case 7: // the reactor's sweep gets a share (the minimum: checkEvery members)
			e.flushPresence(0)
		}
	}
	e.process()
	for e.fan.pending() {
		e.flushPresence(0)
	}
	if err := e.hub.CheckInvariants(); err != nil {
		t.Fatal(err)
	}
	var ids []statemachine.ConnID
	for _, m := range e.hub.Members(nil) {
		ids = append(ids, m.Conn)
	}
	var fan []statemachine.ConnID
	for _, m := range e.fan.members {
		fan = append(fan, m.id)
	}
	if !slices.Equal(ids, fan) {
		t.Fatalf("the engine's members %v, the hub's online list %v", fan, ids)
	}
	for _, c := range conns {
		var got []segment.Segment
		switch l := c.link.(type) {
		case *fakeLink:
			got = append(slices.Clone(l.written), l.queued...)
		case *lendLink:
			got = l.received()
		}
		w := want[c.id]
		if peerClosed[c.id] {
			// what was owed when the peer went is not written
			w = w[:min(len(w), len(got))]
		}
		if !slices.Equal(got, w) {
			t.Fatalf("connection %d (peer closed %v) received\n%v\nwant (one by one)\n%v", c.id, peerClosed[c.id], got, w)
		}
	}
}

// TestFanoutSameBytes: random logins, kicks, closes, invitations, batches
// and sweep shares; every connection receives exactly what the hub's
// one-by-one presence would give it.
func TestFanoutSameBytes(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 20))
		ops := make([]byte, 20+r.IntN(600))
		for i := range ops {
			ops[i] = byte(r.Uint32())
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			fanoutRun(t, ops, seed%4 != 0)
		})
	}
}

// FuzzFanout is TestFanoutSameBytes on the fuzzer's op strings.
func FuzzFanout(f *testing.F) {
	f.Add([]byte{0, 8, 16, 5, 2, 0, 7, 5}, true)
	f.Add([]byte{0, 8, 0, 3, 5, 4, 7, 10, 5, 7, 7}, false)
	f.Fuzz(func(t *testing.T, ops []byte, paced bool) {
		if len(ops) > 2000 {
			return
		}
		fanoutRun(t, ops, paced)
	})
}

// lendLink is a link that takes lent bytes by reference, as the
// reactor's do, and whose client reads nothing until the end: had the
// engine changed bytes it lent (a user list it edits when a member
// leaves, a notice log it trims), the connection would receive other
// segments than the hub sent.
type lendLink struct {
	held [][]byte // copies of what was sent and written, and the lent bytes themselves
	busy bool     // see unread
	take int      // what its kernel takes of a write at once, anywhere in a segment
}

func (l *lendLink) send(seg segment.Segment) bool {
	l.held = append(l.held, seg.AppendTo(nil))
	return true
}
func (l *lendLink) sendBytes(b []byte) bool          { l.held = append(l.held, slices.Clone(b)); return true }
func (l *lendLink) lend(b []byte, _ *sharedMem) bool { l.held = append(l.held, b); return true }
func (l *lendLink) writeNow(b []byte) (int, int) {
	n := min(len(b), l.take)
	l.held = append(l.held, slices.Clone(b[:n]))
	return n, segmentEnd(b, n)
}
func (l *lendLink) flush() bool { return false }
func (l *lendLink) shut()       {}
func (l *lendLink) kill()       {}

// unread is what its client has not read: all of it, but a link that is
// not busy says 0, as a connection whose kernel buffer still had room
// (the sweep writes it at once; a busy one is lent its notices).
func (l *lendLink) unread() int {
	n := 0
	for _, b := range l.held {
		n += len(b)
	}
	if !l.busy {
		return 0
	}
	return n
}

// received is every segment the link took, in order, read now (a write
// may have ended inside a segment: the stream is read as one).
func (l *lendLink) received() []segment.Segment {
	var segs []segment.Segment
	b := slices.Concat(l.held...)
	for len(b) > 0 {
		n := segment.HeaderLen + (int(b[1])<<8 | int(b[2]))
		seg, err := segment.Parse(b[:n])
		if err != nil {
			panic(err)
		}
		segs, b = append(segs, seg), b[n:]
	}
	return segs
}

// nullLink takes output and drops it, counting nothing: what a login
// costs the engine itself, without the kernel's writes.
type nullLink struct{}

func (nullLink) send(segment.Segment) bool { return true }
func (nullLink) sendBytes([]byte) bool     { return true }
func (nullLink) flush() bool               { return false }
func (nullLink) shut()                     {}
func (nullLink) kill()                     {}
func (nullLink) unread() int               { return 0 }

// BenchmarkLoginAmong10k: the engine's work for one login (and the
// logout that makes room for the next) among 10,000 online users: the
// hub's step, the casts, the new user's 10,000-name user list put into
// its output, everyone's online and offline notices put into the shared
// log. The sweep that writes the notices is not in it.
func BenchmarkLoginAmong10k(b *testing.B) {
	var cfg Config
	cfg.defaults()
	p := newPool(cfg, func() {})
	b.Cleanup(func() { p.close(context.Background()) })
	e := newEngine(cfg, p)
	e.fan.on = true
	login := func(name string) *conn {
		c := e.testLogin(nullLink{}, name)
		e.act()
		return c
	}
	for i := range 10000 {
		login(fmt.Sprintf("u%05d", i))
	}
	e.flushPresence(-1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c := login(fmt.Sprintf("n%07d", i))
		e.closed(c, ReasonPeer)
		e.act()
		if e.fan.end()-e.fan.clean > 4096 {
			b.StopTimer()
			e.flushPresence(-1)
			b.StartTimer()
		}
	}
}

// BenchmarkMassLogout: 10,000 users online leave at once (a network cut
// on their side), the reactor's way: up to 256 closes per loop iteration,
// then the iteration's hub step and casts. Reported per leave (an
// iteration of 256 leaves is what a relayed guess waits for meanwhile), in
// the order they came (each leave moves the whole user list) and in the
// reverse (each leave looks through every member first).
func BenchmarkMassLogout(b *testing.B) {
	for _, order := range []string{"first-first", "last-first"} {
		b.Run(order, func(b *testing.B) {
			var cfg Config
			cfg.defaults()
			p := newPool(cfg, func() {})
			b.Cleanup(func() { p.close(context.Background()) })
			const online, batch = 10000, 256
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				e := newEngine(cfg, p)
				e.fan.on = true
				cs := make([]*conn, online)
				for i := range cs {
					cs[i] = e.testLogin(nullLink{}, fmt.Sprintf("u%05d", i))
					e.act()
				}
				e.flushPresence(-1)
				if order == "last-first" {
					slices.Reverse(cs)
				}
				b.StartTimer()
				for i, c := range cs {
					e.closed(c, ReasonPeer)
					if i%batch == batch-1 || i == len(cs)-1 {
						e.act()
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*online), "ns/leave")
		})
	}
}
