package server

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// fakeLink records what the engine sends a connection and when it is
// flushed; every flush appends the connection's name to a log shared by
// all links, so a test sees the order connections were written in.
type fakeLink struct {
	name    string
	queued  []segment.Segment
	written []segment.Segment
	log     *[]string
}

func (l *fakeLink) send(seg segment.Segment) bool { l.queued = append(l.queued, seg); return true }
func (l *fakeLink) sendBytes(b []byte) bool {
	for len(b) > 0 {
		n := segment.HeaderLen + (int(b[1])<<8 | int(b[2]))
		seg, err := segment.Parse(b[:n])
		if err != nil {
			panic(err)
		}
		l.queued, b = append(l.queued, seg), b[n:]
	}
	return true
}
func (l *fakeLink) flush() bool {
	if len(l.queued) > 0 {
		*l.log = append(*l.log, l.name)
		l.written = append(l.written, l.queued...)
		l.queued = l.queued[:0]
	}
	return false
}
func (l *fakeLink) shut()       {}
func (l *fakeLink) kill()       {}
func (l *fakeLink) unread() int { return 0 }

// pacedEngine is an engine with the reactor's pacing and fake links; the
// test answers account checks itself (everyone exists, every password is
// right), so nothing runs on the pool's workers.
type pacedEngine struct {
	*engine
	links map[string]*fakeLink
	conns map[string]*conn
	log   []string
}

func newPacedEngine(t *testing.T) *pacedEngine {
	t.Helper()
	var cfg Config
	cfg.defaults()
	p := newPool(cfg, func() {})
	t.Cleanup(func() { p.close(context.Background()) })
	e := &pacedEngine{engine: newEngine(cfg, p), links: map[string]*fakeLink{}, conns: map[string]*conn{}}
	e.fan.on = true
	return e
}

// login connects name and logs it in; its answers and the others' notices
// stay queued until the test processes them.
func (e *pacedEngine) login(name string) {
	l := &fakeLink{name: name, log: &e.log}
	e.links[name], e.conns[name] = l, e.testLogin(l, name)
}

// testLogin connects l and logs it in as name, answering the account
// checks at once; the outputs stay with the hub until the engine acts.
func (e *engine) testLogin(l link, name string) *conn {
	c := e.open(l, netip.MustParseAddr("127.0.0.1"), "127.0.0.1:1")
	e.input(c, append(segment.Name(segment.Info, name).AppendTo(nil), segment.Name(segment.Passwd, "123").AppendTo(nil)...))
	e.applyPending()
	answerAll(e.hub, e.now())
	return c
}

// applyPending hands the hub the inputs the engine has put in its log,
// without acting on what the hub wants done (the tests look at the acting).
func (e *engine) applyPending() {
	e.flushLog()
	for _, ent := range e.cl.log.Take(nil) {
		if err := e.applyEntry(ent.Data); err != nil {
			panic(err)
		}
	}
}

// answerAll answers every account check h asks: everyone exists and every
// password is right.
func answerAll(h *statemachine.Hub, now int64) {
	for {
		rd := h.Ready()
		if len(rd.Checks) == 0 {
			return
		}
		checks := slices.Clone(rd.Checks)
		rd.Checks = rd.Checks[:0]
		for _, ch := range checks {
			h.Step(now, statemachine.Input{Kind: statemachine.InAnswer, Check: ch.ID, Answer: statemachine.Found})
		}
	}
}

// TestGameOutputBeforePresence: when a login's notices to everyone online
// and an invitation are produced in the same iteration, the invited
// user's connection (and the new user's, who waits for its login answer)
// is written first, and the online notices go out a bounded share per
// iteration (here the minimum, checkEvery connections, with no time
// budget), oldest first, until all are out. Every connection still
// receives exactly what the hub produced for it, in the hub's order.
func TestGameOutputBeforePresence(t *testing.T) {
	e := newPacedEngine(t)
	const others = 3 * checkEvery
	names := make([]string, others)
	for i := range names {
		names[i] = fmt.Sprintf("u%02d", i)
		e.login(names[i])
	}
	e.process()
	e.flushPresence(-1)
	before := map[string]int{}
	for name, l := range e.links {
		before[name] = len(l.written)
	}
	e.log = e.log[:0]

	// one iteration: a login among everyone, and u00 invites u01
	e.login("new")
	e.input(e.conns["u00"], segment.Name(segment.SendInvit, "u01").AppendTo(nil))
	e.process()
	if got := e.log; !slices.Equal(got, []string{"new", "u01"}) && !slices.Equal(got, []string{"u01", "new"}) {
		t.Fatalf("written at the end of the iteration: %v, want only the new user and the invited one", got)
	}
	e.flushPresence(0)
	// u01, in the queue since its notice, was written with its invitation
	if n := len(e.log) - 2; n < 1 || n > checkEvery {
		t.Fatalf("%d connections got their online notice in the first presence slice, want 1 to %d (a bounded share)", n, checkEvery)
	}
	if !e.fan.pending() {
		t.Fatal("no presence output left for later iterations")
	}
	for e.fan.pending() {
		e.flushPresence(0)
	}

	for _, name := range names {
		got := e.links[name].written[before[name]:]
		var want []segment.Segment
		if name == "u01" {
			want = append(want, segment.Name(segment.NewOnline, "new"), segment.Name(segment.RecvInvit, "u00"))
		} else {
			want = append(want, segment.Name(segment.NewOnline, "new"))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s received %v, want %v", name, got, want)
		}
	}
	if w := e.links["new"].written; len(w) != 2+others+1 || w[1].Type != segment.PasswdResp || w[len(w)-1].Type != segment.SyncEnd {
		t.Fatalf("the new user received %v, want its login answer and the whole user list", w)
	}
}

// cappedLink is a fakeLink whose flush writes at most max segments, as the
// reactor's writes at most writeCap bytes, and reports what is left.
type cappedLink struct {
	fakeLink
	max int
}

func (l *cappedLink) flush() bool {
	n := min(l.max, len(l.queued))
	if n > 0 {
		*l.log = append(*l.log, l.name)
		l.written = append(l.written, l.queued[:n]...)
		l.queued = l.queued[n:]
	}
	return len(l.queued) > 0
}

// TestOwedOutputIsFlushedLater: output a flush leaves behind (a long user
// list) is not left to the client's next event: the engine owes it and
// flushes it, one connection at a time, in later presence shares, until
// it is all out, in order.
func TestOwedOutputIsFlushedLater(t *testing.T) {
	e := newPacedEngine(t)
	const others, max = 40, 5
	for i := range others {
		e.login(fmt.Sprintf("u%02d", i))
	}
	e.process()
	e.flushPresence(-1)
	for len(e.fan.owed) > 0 {
		e.flushOwed(-1)
	}
	l := &cappedLink{fakeLink: fakeLink{name: "new", log: &e.log}, max: max}
	c := e.testLogin(l, "new")
	e.process()
	if len(l.written) != max || !c.owed || !slices.Contains(e.fan.owed, c) {
		t.Fatalf("after the iteration: %d segments written, owed %v; want %d written and the rest owed", len(l.written), c.owed, max)
	}
	flushes := 1
	for len(e.fan.owed) > 0 {
		e.flushOwed(0) // the least share: one flush
		flushes++
	}
	want := 2 + others + 1 // InfoResp, PasswdResp, the list, SyncEnd
	if len(l.written) != want || l.written[1].Type != segment.PasswdResp || l.written[want-1].Type != segment.SyncEnd {
		t.Fatalf("the new user received %d segments (%v), want its login answers and the whole user list", len(l.written), l.written)
	}
	for i := range others {
		if got := string(l.written[2+i].Payload()); got != fmt.Sprintf("u%02d", i) {
			t.Fatalf("list entry %d is %q", i, got)
		}
	}
	if w := (want + max - 1) / max; flushes != w {
		t.Fatalf("%d flushes, want %d (one per share)", flushes, w)
	}
}

// TestPresenceRestsBetweenSlices: while a sweep round is under way the
// reactor's loop is told to sleep presenceGap between presence slices, not
// to poll (see the pacing comment in engine_output.go), and to wait for
// the next round when none is under way; account answers or sockets left
// over still make it poll.
func TestPresenceRestsBetweenSlices(t *testing.T) {
	e := newPacedEngine(t)
	for i := range 3 * checkEvery {
		e.login(fmt.Sprintf("u%02d", i))
	}
	e.process()
	now := time.Now()
	e.fan.roundAt = now // a round has just ended: the next may begin in roundEvery
	if !e.fan.pending() {
		t.Fatal("no presence output pending after the logins")
	}
	if d := e.fan.due(now); d != roundEvery {
		t.Fatalf("between rounds: due in %v, want %v (the next round)", d, roundEvery)
	}
	e.fan.roundAt = now.Add(-roundEvery)
	e.fan.tokens = -time.Millisecond // writers overspent the share
	if d := e.fan.due(now); d != presenceGap {
		t.Fatalf("a round due, the share overspent: due in %v, want a rest of %v (not a spin)", d, presenceGap)
	}
	e.fan.tokens = 0
	if d := e.fan.due(now); d != 0 {
		t.Fatalf("a round due: due in %v, want at once", d)
	}
	e.flushPresence(0) // the least share: checkEvery members, then out of time
	if e.fan.rr == 0 {
		t.Fatal("the round ended in one slice; the test needs one under way")
	}
	if d := e.fan.due(time.Now()); d != presenceGap {
		t.Fatalf("mid-round: due in %v, want a rest of %v", d, presenceGap)
	}
	const tick = 40 * time.Millisecond
	for _, c := range []struct {
		poll     bool
		presence time.Duration
		want     time.Duration
	}{
		{false, presenceGap, presenceGap},
		{true, presenceGap, 0},
		{false, -1, tick},
		{false, time.Second, tick},
	} {
		if got := loopWait(tick, c.poll, c.presence); got != c.want {
			t.Errorf("loopWait(%v, poll %v, presence %v) = %v, want %v", tick, c.poll, c.presence, got, c.want)
		}
	}
}

// asyncLink is a fakeLink written by a goroutine of its own, as an
// outbox is: what a flush hands over stays unread until the test says
// the writer has written it.
type asyncLink struct {
	fakeLink
	unwritten int
	inWrite   bool // stuck in a write: its client does not read
}

func (l *asyncLink) stuck() bool { return l.inWrite }
func (l *asyncLink) pace()       {}
func (l *asyncLink) flush() bool {
	l.unwritten += len(l.queued)
	return l.fakeLink.flush()
}
func (l *asyncLink) unread() int { return l.unwritten }

// TestSweepWaitsForWokenWriters: the sweep wakes at most maxWoken
// connections' writer goroutines that are still writing, so that a guess's
// goroutines never queue behind thousands of presence writes, and goes on
// as they finish; a writer stuck in a write (a slow reader) or whose
// connection closed no longer holds the sweep. Every member still gets
// its notices, exactly once.
func TestSweepWaitsForWokenWriters(t *testing.T) {
	e := newPacedEngine(t)
	const members = 3 * maxWoken
	links := make([]*asyncLink, members)
	for i := range links {
		name := fmt.Sprintf("u%02d", i)
		links[i] = &asyncLink{fakeLink: fakeLink{name: name, log: &e.log}}
		e.links[name], e.conns[name] = &links[i].fakeLink, e.testLogin(links[i], name)
	}
	e.process() // their login answers, written by their own flushes
	for _, l := range links {
		l.unwritten = 0
	}
	e.log = e.log[:0]
	e.login("new") // a notice for every member
	e.process()
	e.log = e.log[:0]

	e.flushPresence(-1) // no time budget: only the writers bound it
	if len(e.log) != maxWoken {
		t.Fatalf("the sweep woke %d writers at once, want %d (maxWoken)", len(e.log), maxWoken)
	}
	if d := e.fan.due(time.Now()); d != presenceGap {
		t.Fatalf("waiting for writers: due in %v, want a rest of %v", d, presenceGap)
	}
	e.flushPresence(-1)
	if len(e.log) != maxWoken {
		t.Fatalf("with every woken writer still writing, the sweep woke %d more", len(e.log)-maxWoken)
	}

	// one finishes, one's connection closes, one is stuck: three more
	done, closed, slow := e.conns[e.log[0]], e.conns[e.log[1]], e.conns[e.log[2]]
	done.link.(*asyncLink).unwritten = 0
	e.drop(closed, ReasonServer, true)
	e.process()
	e.log = e.log[:0]
	slow.link.(*asyncLink).inWrite = true
	e.flushPresence(-1)
	if len(e.log) != 3 {
		t.Fatalf("after three writers were done, the sweep woke %d more, want 3", len(e.log))
	}

	for e.fan.pending() {
		for _, l := range links {
			l.unwritten = 0
		}
		e.flushPresence(-1)
	}
	for i, l := range links {
		if i == 1 {
			continue // closed
		}
		var got []segment.Segment
		for _, s := range l.written {
			if s.Type == segment.NewOnline && string(s.Payload()) == "new" {
				got = append(got, s)
			}
		}
		if len(got) != 1 {
			t.Fatalf("%s received the new user's notice %d times, want once", l.name, len(got))
		}
	}
}

// TestWritersTimeCountsAgainstPresence: the time writer goroutines spent
// writing presence output (presenceSpent) is taken from the sweep's share
// of the time as the loop's own would be: after writers spent 10 ms, the
// sweep writes nobody until the share (a quarter of the time passing) has
// made it up.
func TestWritersTimeCountsAgainstPresence(t *testing.T) {
	e := newPacedEngine(t)
	for i := range 3 * checkEvery {
		e.login(fmt.Sprintf("u%02d", i))
	}
	e.process()
	e.log = e.log[:0]
	now := time.Now()
	e.fan.tokens, e.fan.tokAt = 0, now
	e.presenceSpent.Store(int64(10 * time.Millisecond))
	e.pacePresence(now.Add(20*time.Millisecond), false) // 5 ms of share, 10 spent
	if len(e.log) != 0 {
		t.Fatalf("the sweep wrote %d connections with its share overspent by writers", len(e.log))
	}
	if e.presenceSpent.Load() != 0 {
		t.Fatal("the writers' time was not taken from the share")
	}
	e.pacePresence(now.Add(60*time.Millisecond), false) // 10 ms more: made up
	if len(e.log) == 0 {
		t.Fatal("the sweep wrote nobody once its share was made up")
	}
}

// TestPresenceWritesAreCharged: a goroutine-served connection's writer
// charges the time it took to write output the sweep handed it (pace) to
// presenceSpent, and nothing for other output.
func TestPresenceWritesAreCharged(t *testing.T) {
	tr := NewNetTransport(Config{})
	t.Cleanup(func() { tr.Shutdown(context.Background()) })
	o := newOutbox(tr, netip.MustParseAddr("127.0.0.1"))
	// write queues a notice and writes it, the write taking took
	write := func(pace bool, took time.Duration) time.Duration {
		if pace {
			o.pace()
		}
		o.sendBytes(segment.Name(segment.NewOnline, "Beth").AppendTo(nil))
		out, _, paced := o.take()
		if len(out) == 0 || paced != pace {
			t.Fatalf("took %d bytes, paced %v; want the output, paced %v", len(out), paced, pace)
		}
		o.mu.Lock()
		o.since = o.since.Add(-took)
		o.mu.Unlock()
		o.account(-len(out))
		o.written(paced, out)
		return time.Duration(tr.eng.presenceSpent.Swap(0))
	}
	if d := write(false, time.Millisecond); d != 0 {
		t.Fatalf("a game write charged %v to presence", d)
	}
	if d := write(true, time.Millisecond); d < time.Millisecond {
		t.Fatalf("a presence write of a millisecond charged %v", d)
	}
	if d := write(false, time.Millisecond); d != 0 {
		t.Fatalf("the write after a presence write charged %v", d)
	}
	if d := write(true, time.Minute); d != maxCharge { // a client that does not read
		t.Fatalf("a write that waited a minute for its client charged %v, want %v", d, maxCharge)
	}
}

// TestSegmentEnd: where a write the kernel stopped at byte i leaves the
// rest of a segment (segments of one size here: their ends are its
// multiples).
func TestSegmentEnd(t *testing.T) {
	var b []byte
	for i := range 20 {
		b = segment.Name(segment.NewOnline, fmt.Sprintf("%029d", i)).AppendTo(b)
	}
	size := len(b) / 20
	for i := 0; i <= len(b); i++ {
		if got, want := segmentEnd(b, i), (i+size-1)/size*size; got != want {
			t.Fatalf("segmentEnd at %d: %d, want %d", i, got, want)
		}
	}
}

// dropLink is a lender whose client reads everything at once.
type dropLink struct{ n int }

func (l *dropLink) send(seg segment.Segment) bool    { l.n += seg.Size(); return true }
func (l *dropLink) sendBytes(b []byte) bool          { l.n += len(b); return true }
func (l *dropLink) lend(b []byte, _ *sharedMem) bool { l.n += len(b); return true }
func (l *dropLink) writeNow(b []byte) (int, int)     { l.n += len(b); return len(b), len(b) }
func (l *dropLink) flush() bool                      { return false }
func (l *dropLink) shut()                            {}
func (l *dropLink) kill()                            {}
func (l *dropLink) unread() int                      { return 0 }

// BenchmarkLendUserList: the engine's part of handing a login the user
// list among 1,000 and 10,000 users, on the loop, once per login of a
// storm (at the default max_output_bytes, the larger list is lent in
// chunks of a quarter of it).
func BenchmarkLendUserList(b *testing.B) {
	for _, users := range []int{1000, 10000} {
		b.Run(fmt.Sprint(users), func(b *testing.B) {
			var cfg Config
			cfg.defaults()
			e := &engine{cfg: cfg} // only its fan-out is used
			for i := range users {
				e.fan.list = segment.Name(segment.SyncBegin, fmt.Sprintf("user%06d", i)).AppendTo(e.fan.list)
			}
			c := &conn{link: &dropLink{}}
			b.SetBytes(int64(len(e.fan.list)))
			for b.Loop() {
				if !e.lendOut(c, e.fan.list) {
					b.Fatal("closed")
				}
			}
		})
	}
}

// BenchmarkSweepIdleMember: the engine's part of the sweep for one idle
// member whose kernel takes everything: the notices of a storm round (1,000
// logins' online notices, 10 bytes each) handed to its link straight from
// the log. A storm among 10,000 users does this 10,000 times a round.
func BenchmarkSweepIdleMember(b *testing.B) {
	var cfg Config
	cfg.defaults()
	e := &engine{cfg: cfg} // only its fan-out is used
	for i := range 1000 {
		e.cast(&statemachine.Cast{Kind: statemachine.CastNotice, Seg: segment.Name(segment.NewOnline, fmt.Sprintf("u%06d", i))})
	}
	l := &dropLink{}
	c := &conn{id: 1, link: l} // 0 is what a notice skips when it skips no one
	b.SetBytes(int64(len(e.fan.log)))
	for b.Loop() {
		c.cursor = e.fan.base
		if !e.catchUp(c, true) {
			b.Fatal("closed")
		}
	}
	if l.n != b.N*len(e.fan.log) {
		b.Fatalf("the link took %d bytes, not %d", l.n, b.N*len(e.fan.log))
	}
}

// TestWriterReusesItsBuffer: a goroutine-served connection (the net
// transport's, a WebSocket's) writing a game's moves one at a time
// allocates no output buffer a write: the one written takes the next.
func TestWriterReusesItsBuffer(t *testing.T) {
	tr := NewNetTransport(Config{})
	t.Cleanup(func() { tr.Shutdown(context.Background()) })
	o := newOutbox(tr, netip.MustParseAddr("127.0.0.1"))
	seg := segment.Name(segment.NewOnline, "Beth")
	if n := testing.AllocsPerRun(100, func() {
		o.send(seg)
		out, _, paced := o.take()
		if len(out) != seg.Size() {
			t.Fatalf("took %d bytes, want %d", len(out), seg.Size())
		}
		o.account(-len(out))
		o.written(paced, out)
	}); n != 0 {
		t.Errorf("a move's write allocates %v times, want 0", n)
	}
}
