package server

import (
	"slices"
	"time"
	"unsafe"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// Game traffic before presence traffic: a login storm must not hold up a
// relayed move.
//
// Presence is the user list a login receives and the notices everyone
// online receives when a user comes or goes. A login among N users is 2N
// segments; made and written one by one, a storm of logins among
// thousands is millions of sends in the hub's steps and one write(2) per
// online connection per login, and a relayed guess read meanwhile waits
// behind all of it. So the hub hands presence over as Casts (one per
// notice, join or leave: O(1) per login, see statemachine.Cast) and the
// engine fans it out itself:
//
//   - members mirrors the hub's online list, and list holds that list's
//     SyncBegin segments already encoded, so a new user's user list is one
//     copy of bytes, or none: the reactor's connections write it from list
//     itself (lender), which is then changed only by copy;
//   - notices go into one log shared by every member, and each member's
//     connection has a cursor in it; the reactor's connections are lent
//     its bytes and write them from the log itself (which is then changed
//     only by copy, as the list is), so a wave's notices wait in one place
//     however many connections have yet to write them, and a slow reader
//     copies none; the net transport's writers copy them;
//   - a member is caught up (given the notices it has not had, but for
//     the one that skips it) before anything else is put in its output,
//     and when it leaves. So each connection receives exactly the bytes,
//     in the same order, that the hub's one-by-one sends would give it:
//     the casts decide only when presence is written, never its order
//     within a connection;
//   - the rest is the sweep: round robin over the members, catching each
//     up and writing it. The reactor gives the sweep a time-bounded share
//     of each loop iteration (presenceSlice), after the iteration's game
//     output (flushq, written at once), so a guess waits at most about
//     that long, and the notices of many logins reach an idle connection
//     in one write.
//
// What changes is only the order across connections, which the protocol
// never promised (every output already reached different connections in
// whatever order their writes and the network delivered them).

// fanout is the engine's presence state.
type fanout struct {
	on      bool       // sweep a bounded share per iteration (both transports' loops); off: all at once
	members []member   // the hub's online users, in its order
	list    []byte     // SyncBegin of every member, encoded, in members' order
	lent    bool       // links may hold parts of list's array: change it only by copy
	mem     *sharedMem // list's array, as links lent from it count it (see sharedMem)
	log     []byte     // notices that some member may not have had, encoded
	logLent bool       // links may hold parts of log's array: append to it, else change it only by copy
	logMem  *sharedMem // log's array, as lent
	ents    []notice   // the log's entries; ents[i] has sequence number base+i
	base    uint64
	clean   uint64  // every member has had the log up to here
	target  uint64  // the log's end when the current sweep began
	rr      int     // the next member the sweep looks at
	owed    []*conn // connections with output left by a capped flush, oldest first
	woken   []*conn // members the sweep handed to writer goroutines of their own that may still be writing

	roundAt time.Time     // when the current (or the last) sweep round began
	tokens  time.Duration // the sweep's share of the loop's time, saved up (negative: overspent by writers)
	tokAt   time.Time     // when tokens was last topped up

	written int       // connections written since memory was last given back
	last    time.Time // when the sweep last ran

	moves  uint64    // guesses relayed and table moves taken by the hub when afterBurst last looked
	moveAt time.Time // when afterBurst last saw that number change
}

// sharedMem is an array the engine lends bytes of (the user list, the
// presence log), as the output of the links lent parts of it (lender)
// counts it against MaxOutputTotal: once, while any of them has such
// bytes left to write, however many there are. A wave of logins among
// 10,000 users lends every newcomer the same 100 KB; counted per
// connection, a thousand of them made 100 MB of "unread output" out of
// one array, and the reactor disconnected clients that read a little
// slowly for memory the daemon did not hold.
type sharedMem struct {
	array *byte // its first byte: the identity of the array
	size  int64 // its capacity in bytes
	users int   // lent pieces of it left to write, over all links
}

// memOf is the record of the array b starts, cached in *cache: the one
// the lent bytes of b's array count against.
func memOf(cache **sharedMem, b []byte) *sharedMem {
	if a := unsafe.SliceData(b); *cache == nil || (*cache).array != a {
		*cache = &sharedMem{array: a, size: int64(cap(b))}
	}
	return *cache
}

// member is one online user; c is nil when its connection is not this
// engine's (another node's, in a cluster) or is closed.
type member struct {
	id   statemachine.ConnID
	c    *conn
	size int // of its SyncBegin in list
}

// asyncWriter is a link written by a goroutine of its own (outbox: the
// net transport's connections, WebSockets on either transport): its flush
// only wakes that goroutine, and the write happens later, off the loop.
type asyncWriter interface {
	// stuck reports whether the writer has been inside one write for
	// stuckAfter: its client is not reading as fast as it is sent.
	stuck() bool
	// pace marks the output queued as the sweep's: the writer adds the
	// time it takes to write it to the engine's presenceSpent.
	pace()
}

// notice is one log entry: log[start:end], for every member but except.
type notice struct {
	start, end int
	except     statemachine.ConnID
}

// owe queues c, whose flush left output (a user list, most often), for
// the rest to be flushed in presence's share of later iterations.
func (f *fanout) owe(c *conn) {
	if !c.owed {
		c.owed = true
		f.owed = append(f.owed, c)
	}
}

// end is the sequence number the next notice will have.
func (f *fanout) end() uint64 { return f.base + uint64(len(f.ents)) }

// pending reports whether some member may not have had every notice (the
// reactor then wakes for it when due says).
func (f *fanout) pending() bool { return f.clean < f.end() || len(f.owed) > 0 }

// index is the place of the member with connection id, or -1.
func (f *fanout) index(id statemachine.ConnID) int {
	for i := range f.members {
		if f.members[i].id == id {
			return i
		}
	}
	return -1
}

// offset is where member j's SyncBegin starts in list.
func (f *fanout) offset(j int) int {
	off := 0
	for _, m := range f.members[:j] {
		off += m.size
	}
	return off
}

// trim drops the log entries every member has had.
func (f *fanout) trim() {
	k := int(f.clean - f.base)
	switch {
	case k <= 0:
		return
	case k == len(f.ents):
		f.log, f.ents = f.log[:0], f.ents[:0]
		if cap(f.log) > 64<<10 || f.logLent {
			f.log, f.ents, f.logLent = nil, nil, false // a storm's log is not kept; a lent one stays the lenders'
		}
	default:
		off := f.ents[k].start
		if f.logLent {
			f.log, f.logLent = slices.Clone(f.log[off:]), false
		} else {
			f.log = f.log[:copy(f.log, f.log[off:])]
		}
		f.ents = f.ents[:copy(f.ents, f.ents[k:])]
		for i := range f.ents {
			f.ents[i].start -= off
			f.ents[i].end -= off
		}
	}
	f.base = f.clean
}

// restart takes the members from a hub the engine did not see begin (one
// restored from a snapshot): nothing is owed to anyone.
func (e *engine) restart(ms []statemachine.Member) {
	f := &e.fan
	f.members, f.list = f.members[:0], f.list[:0]
	if f.lent {
		f.list, f.lent = nil, false
	}
	f.base += uint64(len(f.ents))
	f.log, f.ents = f.log[:0], f.ents[:0]
	if f.logLent {
		f.log, f.logLent = nil, false
	}
	f.clean, f.target, f.rr = f.base, f.base, 0
	for _, m := range ms {
		c := e.conns[m.Conn]
		if c != nil {
			c.member, c.cursor = true, f.end()
		}
		n := len(f.list)
		f.list = segment.Name(segment.SyncBegin, m.Name).AppendTo(f.list)
		f.members = append(f.members, member{m.Conn, c, len(f.list) - n})
	}
}

// cast carries out one presence cast.
func (e *engine) cast(ca *statemachine.Cast) {
	f := &e.fan
	switch ca.Kind {
	case statemachine.CastNotice:
		n := len(f.log)
		f.log = ca.Seg.AppendTo(f.log)
		f.ents = append(f.ents, notice{n, len(f.log), ca.Except})
		if e.cfg.Tap != nil {
			for _, m := range f.members {
				if m.c != nil && !m.c.gone && m.id != ca.Except {
					e.cfg.Tap.Out(m.id, ca.Seg)
				}
			}
		}
	case statemachine.CastJoin:
		c := e.live(ca.Conn)
		e.tapList(c, f.list)
		if c != nil && e.lendOut(c, f.list) {
			c.member, c.cursor = true, f.end()
		}
		n := len(f.list)
		f.list = segment.Name(segment.SyncBegin, ca.Name).AppendTo(f.list)
		f.members = append(f.members, member{ca.Conn, c, len(f.list) - n})
	case statemachine.CastReplace:
		j := f.index(ca.Old)
		if j < 0 {
			e.log.Error("presence: the hub replaced a member the engine does not have", zap.Uint64("conn", uint64(ca.Old)))
			return
		}
		e.quit(f.members[j].c)
		c := e.live(ca.Conn)
		off := f.offset(j)
		e.tapList(c, f.list[:off])
		e.tapList(c, f.list[off+f.members[j].size:])
		if c != nil && e.lendOut(c, f.list[:off]) && e.lendOut(c, f.list[off+f.members[j].size:]) {
			c.member, c.cursor = true, f.end()
		}
		f.members[j].id, f.members[j].c = ca.Conn, c // the same user: the same name
	case statemachine.CastLeave:
		j := f.index(ca.Conn)
		if j < 0 {
			e.log.Error("presence: a member the engine does not have left", zap.Uint64("conn", uint64(ca.Conn)))
			return
		}
		e.quit(f.members[j].c)
		off := f.offset(j)
		if f.lent {
			// a connection may still be writing the list as it was
			f.list, f.lent = slices.Concat(f.list[:off], f.list[off+f.members[j].size:]), false
		} else {
			f.list = append(f.list[:off], f.list[off+f.members[j].size:]...)
		}
		f.members = append(f.members[:j], f.members[j+1:]...)
		if j < f.rr {
			f.rr--
		}
	}
}

// The capture tap sees presence where the hub put it, as it sees every
// other output: a capture then replays through a hub that sends presence
// one segment at a time, whenever the fan-out wrote the bytes.

// tapList shows the capture tap the user list b going to c.
func (e *engine) tapList(c *conn, b []byte) {
	if e.cfg.Tap == nil || c == nil {
		return
	}
	for len(b) > 0 {
		n := segment.HeaderLen + (int(b[1])<<8 | int(b[2]))
		seg, _ := segment.Parse(b[:n])
		e.cfg.Tap.Out(c.id, seg)
		b = b[n:]
	}
}

// live is this engine's open connection id, or nil.
func (e *engine) live(id statemachine.ConnID) *conn {
	if c := e.conns[id]; c != nil && !c.gone {
		return c
	}
	return nil
}

// quit ends c's membership: it gets what was cast while it was a member.
func (e *engine) quit(c *conn) {
	if c == nil {
		return
	}
	if !c.gone {
		e.catchUp(c, false)
	}
	c.member = false
}

// catchUp puts the notices c has not had into its output; false if that
// closed it (its backlog passed the bound). A link that can take bytes by
// reference (lender) is lent them from the log, so a wave's notices wait
// in the one log however many connections have yet to write them and a
// slow reader copies none; now (the sweep, c has no output queued), the
// kernel is handed them at once, from the log itself, and only what it
// does not take is lent.
func (e *engine) catchUp(c *conn, now bool) bool {
	f := &e.fan
	i := int(c.cursor - f.base)
	c.cursor = f.end()
	l, lends := c.link.(lender)
	for i < len(f.ents) {
		j := i
		for j < len(f.ents) && f.ents[j].except != c.id {
			j++
		}
		if j > i {
			b := f.log[f.ents[i].start:f.ents[j-1].end]
			ok := false
			if lends {
				ok = e.lendLog(c, l, b, now)
			} else {
				ok = e.sendOut(c, b)
			}
			if !ok {
				return false
			}
		}
		i = j + 1 // past the notice that skips c
	}
	return true
}

// lendLog lends c's link l the bytes b of the notice log; now, the kernel
// is handed them first and only what it does not take is lent. False as
// sendOut.
func (e *engine) lendLog(c *conn, l lender, b []byte, now bool) bool {
	f := &e.fan
	if now {
		w, end := l.writeNow(b)
		// the kernel may stop inside a segment: the rest of that one is
		// lent alone, for putOut cuts b at the headers it steps over
		if end > w {
			f.logLent = true
			if !l.lend(b[w:end], memOf(&f.logMem, f.log)) {
				e.backlog(c)
				return false
			}
		}
		b = b[end:]
	}
	if len(b) == 0 {
		return true
	}
	f.logLent = true
	return e.putOut(c, b, l, memOf(&f.logMem, f.log))
}

// sendOut puts b, whole encoded segments, into c's output; false if c was
// closed for its backlog. It hands the link at most a quarter of the
// backlog bound at once, so that a user list of thousands of names meets
// the bound as the segments it is made of would (the reactor writes early
// once a connection's output passes half the bound).
func (e *engine) sendOut(c *conn, b []byte) bool { return e.putOut(c, b, nil, nil) }

// lendOut is sendOut for bytes of the user list: a link that can takes
// them by reference (the list is then changed only by copy).
func (e *engine) lendOut(c *conn, b []byte) bool {
	l, ok := c.link.(lender)
	if !ok {
		return e.putOut(c, b, nil, nil)
	}
	e.fan.lent = true
	return e.putOut(c, b, l, memOf(&e.fan.mem, e.fan.list))
}

// putOut is sendOut, lending b (bytes of the array m) when l is not nil.
func (e *engine) putOut(c *conn, b []byte, l lender, m *sharedMem) bool {
	chunk := e.cfg.MaxOutput / 4
	for len(b) > 0 {
		n := len(b) // whole segments: our own encoding
		if n > chunk {
			// only bytes past the chunk need cutting: stepping over a
			// user list's headers costs the loop 2.5 µs per login among
			// 1,000 users (every list under about 5,000 fits the chunk at
			// the default max_output_bytes; BenchmarkLendUserList)
			n = 0
			for n < len(b) && n < chunk {
				n += segment.HeaderLen + (int(b[n+1])<<8 | int(b[n+2]))
			}
		}
		ok := false
		if l != nil {
			ok = l.lend(b[:n], m)
		} else {
			ok = c.link.sendBytes(b[:n])
		}
		if !ok {
			e.backlog(c)
			return false
		}
		b = b[n:]
	}
	return true
}

// backlog closes c, whose output passed its bound.
func (e *engine) backlog(c *conn) {
	e.log.Info("output backlog over its bound, closing", zap.Uint64("conn", uint64(c.id)))
	e.drop(c, ReasonBacklog, true)
}

// deliver encodes the hub's sends into their connections' output and
// carries out its casts, each where it happened among the sends, and
// queues the connections with new output for the end of the iteration.
func (e *engine) deliver(sends []statemachine.Send, casts []statemachine.Cast) {
	var last *conn // a burst of sends often goes to one connection
	k := 0
	for i := range sends {
		for ; k < len(casts) && casts[k].At <= i; k++ {
			e.cast(&casts[k])
		}
		s := &sends[i]
		c := last
		if c == nil || c.id != s.Conn {
			c = e.conns[s.Conn]
			last = c
		}
		if c == nil || c.gone {
			continue
		}
		if c.member && c.cursor < e.fan.end() && !e.catchUp(c, false) {
			continue
		}
		if e.cfg.Tap != nil {
			e.cfg.Tap.Out(c.id, s.Seg)
		}
		if !c.link.send(s.Seg) {
			e.backlog(c)
			continue
		}
		if !c.queued {
			c.queued = true
			e.flushq = append(e.flushq, c)
		}
	}
	for ; k < len(casts); k++ {
		e.cast(&casts[k])
	}
}

// releaser is a link that can give back its empty output buffer.
type releaser interface{ release() }

// lender is a link that can take presence output without copying it into
// a buffer of its own (the reactor's).
type lender interface {
	// lend queues b, bytes of the array m, by reference, after what is
	// queued; the engine never changes those bytes afterwards
	// (fanout.lent, fanout.logLent). False as sendBytes.
	lend(b []byte, m *sharedMem) bool
	// writeNow writes the first bytes of b (whole segments) to the
	// kernel at once if nothing is queued ahead of them, and reports how
	// many it wrote and where the segment it stopped in ends: end is wrote
	// when it stopped between segments (the caller lends the rest).
	writeNow(b []byte) (wrote, end int)
}

// flushUrgent writes the connections that got output from this iteration.
func (e *engine) flushUrgent() {
	for _, c := range e.flushq {
		c.queued = false
		if !c.gone && c.link.flush() {
			e.fan.owe(c)
		}
	}
	clear(e.flushq)
	e.flushq = e.flushq[:0]
}

// presenceSlice is how long one reactor iteration may spend writing
// presence output: a relayed guess that arrives meanwhile waits at most
// about this long for the loop (the goal is a relay p99 under 2 ms
// during a login storm). checkEvery is how many members are looked at
// between looks at the clock.
const (
	presenceSlice = 100 * time.Microsecond
	checkEvery    = 16
)

// Both transports' loops pace the sweep three times over (four with the
// writers a sweep wakes: see maxWoken), so that presence takes a bounded
// share of the server however many users come and go:
//
//   - a round (every member caught up and written once) begins at most
//     every roundEvery: during a storm each idle connection gets one write
//     per round with every notice since the last, instead of one per
//     login, which also spares the clients a wake-up per login; a notice
//     reaches an idle user at most about roundEvery late, unnoticeable to
//     a person;
//   - within a round, the sweep (and the output owed by capped flushes)
//     spends at most a 1/presenceShare share of a busy loop's time (saved
//     up between iterations, at most presenceSlice at once), so a loop
//     relaying games keeps the rest; an iteration that found no event at
//     all may spend a whole presenceSlice, since nothing else wants the
//     loop then (the reactor's: the net transport's loop is never idle to
//     the sweep, since the writers it woke may be busy). A connection's
//     own writer goroutine (asyncWriter) writes later, off the loop: the
//     time it takes for presence output counts against the same share
//     (presenceSpent);
//   - between slices the loop sleeps for presenceGap instead of polling
//     (any socket event, or on the net transport any post, still wakes
//     it at once), so presence alone keeps the loop's thread busy at most
//     about half the time. A loop that polls through a storm is, to the
//     kernel, a thread that never sleeps: on a busy CPU it is preempted
//     for the other threads (the account workers, the collector) in
//     slices of a few milliseconds, and a guess that arrives meanwhile
//     waits that long. A loop that sleeps
//     between slices is a waking thread when the guess arrives, which the
//     kernel runs ahead of threads that have been running; and the gaps
//     are when the others get their CPU time. Measured in
//     docs/performance.md ("Presence: casts, one shared log, paced writes").
const (
	roundEvery    = 50 * time.Millisecond
	presenceShare = 4
	presenceGap   = 100 * time.Microsecond
)

// due is how long from now until the sweep has work: presenceGap when a
// round is under way, output is owed, woken writers are being waited for
// or the share is overspent (the rest between two slices; a loop never
// idle to the sweep, the net transport's, would otherwise spin until its
// share is made up), else until the next round may begin (0: at once).
func (f *fanout) due(now time.Time) time.Duration {
	if f.rr != 0 || len(f.owed) > 0 || len(f.woken) >= maxWoken {
		return presenceGap
	}
	wait := max(f.roundAt.Add(roundEvery).Sub(now), 0)
	if f.tokens < 0 {
		wait = max(wait, presenceGap)
	}
	return wait
}

// loopWait is how long the reactor's loop may wait for events before it has work of
// its own (0: poll): until the next tick, less when work is left from the
// last iteration (poll: account answers, sockets to register) or presence
// is pending (its due; negative: none).
func loopWait(tick time.Duration, poll bool, presence time.Duration) time.Duration {
	switch {
	case poll || tick <= 0:
		return 0
	case presence >= 0:
		return min(tick, presence)
	}
	return tick
}

// pacePresence gives the sweep its share of this loop iteration; idle
// says the iteration found no event.
func (e *engine) pacePresence(now time.Time, idle bool) {
	f := &e.fan
	if !f.pending() {
		return
	}
	// writer goroutines' time spent on presence counts against the share
	// as the loop's own does
	f.tokens = min(f.tokens+now.Sub(f.tokAt)/presenceShare, presenceSlice) - time.Duration(e.presenceSpent.Swap(0))
	f.tokAt = now
	budget := f.tokens
	if idle {
		budget = presenceSlice
	}
	if budget <= 0 {
		return
	}
	e.flushOwed(budget)
	if left := budget - time.Since(now); left > 0 && (f.rr != 0 || now.Sub(f.roundAt) >= roundEvery) {
		e.flushPresence(left)
	}
	if !idle {
		f.tokens -= time.Since(now)
	}
}

// flushOwed flushes the connections with output owed, oldest first, for
// at most budget (all of it when budget < 0; at least one flush). One
// still owing goes to the back.
func (e *engine) flushOwed(budget time.Duration) {
	f := &e.fan
	t0 := time.Now()
	for len(f.owed) > 0 {
		c := f.owed[0]
		f.owed[0] = nil
		f.owed = f.owed[1:]
		c.owed = false
		if !c.gone && c.link.flush() {
			f.owe(c)
		}
		if budget >= 0 && time.Since(t0) > budget { // a flush is up to writeCap: look every time
			break
		}
	}
	if len(f.owed) == 0 {
		f.owed = nil // a storm's queue is not kept
	}
}

// flushPresence sweeps the members, catching each up and writing it, for
// at most budget (all of them when budget < 0). At least checkEvery
// members are looked at per call, so a storm always makes progress.
func (e *engine) flushPresence(budget time.Duration) {
	f := &e.fan
	if f.clean == f.end() {
		return
	}
	t0 := time.Now()
	if f.writersBusy() {
		return // a round waits for them too (due: presenceGap)
	}
	f.last = t0
	if f.rr == 0 {
		f.target, f.roundAt = f.end(), t0
	}
	for n := 1; f.rr < len(f.members); n++ {
		c := f.members[f.rr].c
		if c == nil || c.gone || c.cursor >= f.end() {
			f.rr++
		} else {
			aw, async := c.link.(asyncWriter)
			if async && f.writersBusy() {
				return // its writer would queue behind theirs
			}
			f.rr++
			f.written++
			// an idle connection (nothing queued) is written at once
			if e.catchUp(c, !c.queued && c.link.unread() == 0) && !c.queued {
				if c.link.flush() {
					f.owe(c)
				} else if r, ok := c.link.(releaser); ok {
					r.release()
				}
				if async {
					aw.pace()
					f.woken = append(f.woken, c)
				}
			}
			n = checkEvery // a write: look at the clock
		}
		if budget >= 0 && n%checkEvery == 0 && time.Since(t0) > budget {
			return
		}
	}
	// a whole round: every member has had the log as it was when the
	// round began (those that joined since started past it)
	f.rr, f.clean = 0, f.target
	f.trim()
}

// A writer goroutine (an asyncWriter's) that the sweep wakes runs later,
// among every other runnable goroutine: a guess's reader and the loop that
// relays it, and its opponent's writer, wait behind it in the Go
// scheduler's queue, and the write(2) it makes (on loopback, with the
// receiver's side of TCP) is not on the loop's clock that budgets the
// sweep. A sweep that woke every member's writer put thousands of
// goroutines ahead of each guess. So the sweep keeps at most maxWoken
// writers at it and goes on as they finish, however long they wait for a
// CPU: presence then gets the scheduler's turns in proportion to the
// goroutines it has queued, at most maxWoken among the game's. A writer
// stuck in a write (its client reads slowly: asyncWriter.stuck) no longer
// holds up the others.
const maxWoken = 16

// writersBusy forgets the woken writers that are done (their output all
// written, or their connection closed) or stuck, and reports whether
// maxWoken are still at it.
func (f *fanout) writersBusy() bool {
	if len(f.woken) < maxWoken {
		return false
	}
	k := 0
	for _, w := range f.woken {
		if !w.gone && w.link.unread() > 0 && !w.link.(asyncWriter).stuck() {
			f.woken[k] = w
			k++
		}
	}
	clear(f.woken[k:])
	f.woken = f.woken[:k]
	return k >= maxWoken
}

// A burst of presence output (a login wave among thousands of users) grows
// the heap with buffers that are garbage once written: the user lists, the
// notices waiting for their turn, the hub's batches. The runtime gives
// freed memory back to the kernel only slowly, so after a wave the daemon
// would keep its peak RSS for minutes. Once a large burst has drained and
// presence has been quiet for quietFor (the wave is over, not between two
// logins), the engine has the runtime return it at once; the collection
// runs on its own goroutine, concurrently with the loop. A wave of
// password checks also holds the collector off until then (gchold.go).
const (
	burstConns = 4096
	quietFor   = 500 * time.Millisecond
)

// afterBurst holds the collector off through a login wave and gives freed
// memory back once a large presence burst has been written. The loop
// calls it when it has nothing left to sweep.
func (e *engine) afterBurst() {
	f := &e.fan
	now := time.Now()
	st := e.hub.Stats()
	if m := st.SegmentsOut[segment.SingleCoord] + st.SegmentsOut[segment.DoubleCoord] + st.TableMoves; m != f.moves {
		f.moves, f.moveAt = m, now
	}
	playing := now.Sub(f.moveAt) < playedWithin
	if e.gc.step(e.pool.admittedChecks(), playing, f.pending(), now.Sub(f.last), f.written >= burstConns) {
		f.written = 0
	}
}
