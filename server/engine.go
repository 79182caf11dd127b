package server

import (
	"cmp"
	"context"
	"errors"
	"net/netip"
	"slices"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// link is what the engine needs from a transport's connection.
type link interface {
	// send encodes seg straight into the peer's output queue (no copy
	// through a scratch buffer); false means the backlog bound was passed.
	send(seg segment.Segment) bool
	// sendBytes is send for b, whole segments already encoded.
	sendBytes(b []byte) bool
	// flush tries to write queued bytes now (the reactor writes at the end
	// of each loop iteration; the net transport's writer runs on its own).
	// Reports whether output is left that the transport will not write
	// by itself (the reactor caps one flush at writeCap: the engine
	// flushes the rest within presence's share of later iterations).
	flush() (more bool)
	// shut closes the connection after writing what is queued, best effort.
	shut()
	// kill closes the connection at once.
	kill()
	// unread is how many bytes are queued for the peer and not yet taken
	// by the kernel (the engine's outQueued is the sum over all links).
	unread() int
}

// conn is one connection as the engine sees it.
type conn struct {
	id      statemachine.ConnID
	ip      netip.Addr // the source address (account checks are bounded per address)
	dec     segment.Decoder
	link    link
	partial int64 // engine time the current incomplete segment started; 0 for none
	gone    bool
	queued  bool   // in flushq: output waits for the end of the iteration
	member  bool   // online: presence casts reach it (engine_output.go)
	owed    bool   // in fan.owed: a capped flush left output
	cursor  uint64 // the next presence notice it is to have
}

// engine is the part both transports share. It owns the hub and runs on one
// goroutine: transports call it from their loop only.
type engine struct {
	cfg      Config
	hub      *statemachine.Hub
	pool     *pool
	bots     *botPool
	log      *zap.Logger
	start    time.Time
	conns    map[statemachine.ConnID]*conn
	partial  map[*conn]struct{}
	nextID   statemachine.ConnID
	obs      Observer
	flushq   []*conn
	fan      fanout             // presence: the online users and what was cast to them (engine_output.go)
	gc       gcHold             // the collector held off through a login wave (gchold.go)
	batch    statemachine.Ready // the hub's outputs being acted on
	admitted int
	perIP    map[netip.Addr]int
	// outQueued is the output queued for every connection and not yet
	// taken by the kernel (the net transport's writers subtract from it on
	// their own goroutines).
	outQueued atomic.Int64
	// loopQueued is the same for the reactor's connections, which are
	// written on the loop: a plain counter, no atomic add per segment.
	loopQueued int64
	// presenceSpent is the time writer goroutines spent writing presence
	// output (asyncWriter.pace), not yet counted against the sweep's
	// share of the time (pacePresence).
	presenceSpent atomic.Int64
	cl            *clusterState // nil on a node alone
	// sendBuf is the SO_SNDBUF of every connection's socket (0: the
	// kernel's), fixed at start: accepting goroutines read it.
	sendBuf int
}

func newEngine(cfg Config, p *pool) *engine {
	obs := cfg.Observer
	if obs == nil {
		obs = nopObserver{}
	}
	e := &engine{
		cfg:     cfg,
		hub:     statemachine.New(cfg.Hub),
		pool:    p,
		bots:    newBotPool(p.ctx, cfg, p.wake),
		log:     cfg.Logger,
		start:   cfg.Clock.Now(),
		conns:   make(map[statemachine.ConnID]*conn),
		partial: make(map[*conn]struct{}),
		obs:     obs,
		perIP:   make(map[netip.Addr]int),
		sendBuf: cfg.sendBuffer(),
		gc:      newGCHold(),
	}
	if cfg.Log != nil {
		e.start = time.Unix(0, 0) // engine time is the world's: ns since 1970
	} else {
		e.cfg.Log = newMemLog()
	}
	e.clustered()
	return e
}

// admit counts a new connection from ip against the limits; it returns the
// limit passed ("" when admitted).
func (e *engine) admit(ip netip.Addr) string {
	switch {
	case e.admitted >= e.cfg.MaxConns:
		return "max_conns"
	case e.cfg.MaxConnsPerIP > 0 && e.perIP[ip] >= e.cfg.MaxConnsPerIP:
		return "max_conns_per_ip"
	}
	e.admitted++
	e.perIP[ip]++
	return ""
}

// release uncounts a connection admitted from ip.
func (e *engine) release(ip netip.Addr) {
	e.admitted--
	if e.perIP[ip]--; e.perIP[ip] <= 0 {
		delete(e.perIP, ip)
	}
}

// reconfigure applies new settings on the engine goroutine.
func (e *engine) reconfigure(f func(*Config)) {
	f(&e.cfg)
	e.cfg.defaults()
	e.in(e.now(), statemachine.ConfigInput(e.cfg.Hub)) // every node applies it at the same place in the log
	e.sync()
}

// now is engine time: nanoseconds since start, from the injected clock.
func (e *engine) now() int64 { return int64(e.cfg.Clock.Now().Sub(e.start)) + 1 }

// wall turns engine time back into clock time.
func (e *engine) wall(t int64) time.Time { return e.start.Add(time.Duration(t - 1)) }

func (e *engine) open(l link, ip netip.Addr, remote string) *conn {
	e.nextID++
	c := &conn{id: e.nextID, link: l, ip: ip}
	e.conns[c.id] = c
	if e.cfg.Tap != nil {
		e.cfg.Tap.Opened(c.id, remote)
	}
	e.inOpen(e.now(), c.id, ip.String())
	e.obs.ConnOpened()
	return c
}

// input feeds bytes read from c (into a buffer of the transport's) to its
// decoder and every whole segment to the hub. A framing error closes c at
// once.
func (e *engine) input(c *conn, data []byte) {
	if c.gone {
		return
	}
	if e.cfg.Tap != nil {
		e.cfg.Tap.In(c.id, data)
	}
	now := e.now()
	_, err := c.dec.Feed(data, func(seg segment.Segment) bool { return e.receive(now, c, seg) })
	e.decoded(now, c, err)
}

// committed hands the hub every whole segment in c's decoder after the
// transport read data straight into its ring (Free, Commit).
func (e *engine) committed(c *conn, data []byte) {
	if c.gone {
		return
	}
	if e.cfg.Tap != nil {
		e.cfg.Tap.In(c.id, data)
	}
	now := e.now()
	err := c.dec.Decode(func(seg segment.Segment) bool { return e.receive(now, c, seg) })
	e.decoded(now, c, err)
}

// receive gives the hub one segment of c's; false once c is gone.
func (e *engine) receive(now int64, c *conn, seg segment.Segment) bool {
	e.inReceive(now, c.id, seg)
	e.bound()
	return !c.gone
}

// decoded closes c on a framing error and keeps the incomplete-segment
// timer.
func (e *engine) decoded(now int64, c *conn, err error) {
	if c.gone {
		return
	}
	if err != nil {
		e.obs.ProtocolError(protocolReason(err))
		e.log.Info("protocol error, closing", zap.Uint64("conn", uint64(c.id)), zap.Error(err))
		e.drop(c, ReasonProtocol, true)
		return
	}
	if c.dec.Partial() {
		if c.partial == 0 {
			c.partial = now
			e.partial[c] = struct{}{}
		}
	} else if c.partial != 0 {
		c.partial = 0
		delete(e.partial, c)
	}
}

func protocolReason(err error) string {
	if errors.Is(err, segment.ErrUnknownType) {
		return "unknown_type"
	}
	return "bad_length"
}

// closed: the transport lost c (EOF or an I/O error).
func (e *engine) closed(c *conn, reason CloseReason) {
	e.drop(c, reason, false)
}

// drop forgets c, tells the hub, and closes the link (at once when kill).
func (e *engine) drop(c *conn, reason CloseReason, kill bool) {
	if c.gone {
		return
	}
	c.gone = true
	delete(e.conns, c.id)
	delete(e.partial, c)
	e.inClosed(e.now(), c.id)
	e.cancelChecks(c)
	e.obs.ConnClosed(reason)
	if e.cfg.Tap != nil {
		e.cfg.Tap.Closed(c.id, reason != ReasonPeer)
	}
	if r, ok := c.link.(reasoned); ok {
		r.closing(reason)
	}
	if kill {
		c.link.kill()
	} else {
		c.link.shut()
	}
}

// reasoned is a link that tells its peer why it is closed (a WebSocket's
// close frame).
type reasoned interface {
	closing(why CloseReason)
}

// cancelChecks withdraws c's account checks that are still waiting: the
// hub forgets them (a cancelled check was never run, so it counts as
// nothing).
func (e *engine) cancelChecks(c *conn) {
	e.pool.cancel(c.id, func(id uint64) { e.inAnswer(e.now(), id, statemachine.Unavailable) })
}

// tick passes time: hub deadlines and incomplete-segment timeouts.
func (e *engine) tick() {
	now := e.now()
	e.chores(now)
	if lim := int64(e.cfg.SegmentTimeout); lim > 0 {
		for c := range e.partial {
			if now-c.partial > lim {
				e.log.Info("incomplete segment timed out", zap.Uint64("conn", uint64(c.id)))
				e.obs.ProtocolError("segment_timeout")
				e.drop(c, ReasonSegmentTimeout, true)
			}
		}
	}
}

// drainBots delivers the moves bot workers have chosen.
func (e *engine) drainBots() {
	for {
		select {
		case a := <-e.bots.results:
			e.botAnswer(a)
		default:
			return
		}
	}
}

func (e *engine) botAnswer(a statemachine.BotAnswer) {
	e.in(e.now(), statemachine.Input{Kind: statemachine.InBot, Bot: a})
}

// answer delivers a worker's account answer. A failure that locks its
// address out also drops the password checks that address has waiting:
// they are answered code 4 without hashing.
func (e *engine) answer(res result) {
	now := e.now()
	e.pool.answered(res.id)
	if res.asked.Query() {
		e.in(now, statemachine.Input{Kind: statemachine.InReply, Check: res.id, Answer: res.a, Asked: res.asked, Text: res.data})
		e.bound()
		return
	}
	e.inAnswer(now, res.id, res.a)
	e.sync() // the hub counts the failure before the lock-out is asked about
	if (res.a == statemachine.WrongPassword || res.a == statemachine.NotFound) && e.hub.AddressLocked(now, res.src.String()) {
		e.pool.dropSource(res.src, func(id uint64) { e.inAnswer(now, id, statemachine.Unavailable) })
	}
	e.bound()
}

// answerSlice bounds the time one loop iteration spends acting on account
// answers (at least one is taken): a login among 10,000 users copies a
// 100 KB user list into its connection's output, so during a storm an
// iteration acts on a few logins and then serves the sockets again; the
// answers left wait in the channel (the reactor's loop polls while any
// do, the net transport's wakes itself again).
const answerSlice = 100 * time.Microsecond

// answerSome acts on the account answers waiting in results for at most
// answerSlice (at least one, if any wait); both transports' loops call it.
func (e *engine) answerSome(results <-chan result) {
	t0 := time.Now()
	for first := true; first || time.Since(t0) < answerSlice; first = false {
		select {
		case res := <-results:
			e.answer(res) // applied and acted on (sync): a login among thousands costs here, in the slice
		default:
			return
		}
	}
}

// boundSends is how many segments the hub may hold before the engine acts
// on them in the middle of a loop iteration: a burst of sends to many
// connections (a lobby chat line to everyone online; presence itself comes
// as casts, see engine_output.go) then costs a bounded buffer instead of
// one that grows with the burst.
const boundSends = 16 << 10

// Acting early does not flush: the connections stay queued for the flush at
// the end of the iteration, so a burst costs each connection one write per
// iteration (its output still goes out at once when it passes half its
// bound).
func (e *engine) bound() {
	if len(e.hub.Ready().Sends) >= boundSends {
		e.act()
	}
}

// process carries out what the hub asked for and writes the output: all
// of it, or with pacing on (both transports' loops; tests may turn it off)
// the game output now and presence output within flushPresence's budget.
func (e *engine) process() {
	for {
		e.sync()
		e.act()
		if len(e.cl.out) == 0 {
			break
		}
		// acting gave the hub inputs (an answer for a connection already
		// closed, a bot's move played at once): a node alone applies them now
	}
	e.flushUrgent()
	if !e.fan.on {
		e.flushPresence(-1)
		e.flushOwed(-1)
	}
	if e.shedOutput() {
		e.process() // the hub has told the others; send that
	}
}

// act carries out what the hub asked for. The hub's outputs are copied
// out and acknowledged first, because acting on them can feed the hub new
// events (a connection dropped for its backlog goes offline, and everyone
// is told) whose outputs must not be lost. Sends are coalesced per
// connection and written once per call.
func (e *engine) act() {
	e.drainBots()
	for {
		rd := e.hub.Ready()
		if rd.Empty() {
			break
		}
		b := &e.batch
		b.Sends = append(b.Sends[:0], rd.Sends...)
		b.Casts = append(b.Casts[:0], rd.Casts...)
		b.Closes = append(b.Closes[:0], rd.Closes...)
		b.Checks = append(b.Checks[:0], rd.Checks...)
		b.Records = append(b.Records[:0], rd.Records...)
		b.Notices = append(b.Notices[:0], rd.Notices...)
		b.Bots = append(b.Bots[:0], rd.Bots...)
		e.hub.Advance()
		for _, n := range b.Notices {
			if !e.local(n.Conn) && (n.Conn != 0 || !e.cl.leader) {
				continue // the node that has the connection (or, for none, the leader) says it
			}
			e.log.Warn(n.Kind.String(), zap.Uint64("conn", uint64(n.Conn)), zap.String("user", n.User), zap.String("source", n.Source), zap.String("detail", n.Detail))
		}
		e.deliver(b.Sends, b.Casts)
		for _, id := range b.Closes {
			if c := e.conns[id]; c != nil {
				c.gone = true
				delete(e.conns, id)
				delete(e.partial, c)
				e.cancelChecks(c)
				e.forgetSecrets(c.id)
				e.obs.ConnClosed(ReasonServer)
				if e.cfg.Tap != nil {
					e.cfg.Tap.Closed(c.id, true)
				}
				c.link.shut()
			}
		}
		for _, ch := range b.Checks {
			c := e.conns[ch.Conn]
			if (ch.Kind == statemachine.Verify || ch.Kind == statemachine.Register ||
				ch.Kind == statemachine.ChangePassword || ch.Kind == statemachine.DeleteAccount) && c != nil {
				ch.Password = e.secret(ch.Conn, ch.Password) // the log had a stand-in
			}
			if ch.Kind == statemachine.ChangePassword && c != nil {
				ch.Arg = e.secret(ch.Conn, ch.Arg) // the new password too
			}
			switch {
			case !e.local(ch.Conn):
				// the node that has the connection asks the store
			case c == nil || c.gone:
				e.refuse(e.now(), ch, statemachine.Unavailable) // closed already: not worth asking
			case !e.pool.check(ch, c.ip):
				e.log.Warn("account check refused (queue full, or too many from this address or for this name); answering unavailable",
					zap.String("user", ch.User), zap.String("source", c.ip.String()))
				e.refuse(e.now(), ch, statemachine.Unavailable)
			}
		}
		e.clusterBots(b.Bots)
		clear(b.Bots) // they hold game copies
		for _, r := range b.Records {
			e.clusterRecord(r)
		}
		if cap(b.Sends) > 2*boundSends {
			b.Sends = nil // give back a burst's buffer
		}
	}
}

// holder is a link whose unread output may be partly shared with others
// (the reactor's lent user lists): held is the memory closing it frees.
type holder interface{ held() int }

// shedOutput keeps the output queued for all connections together within
// MaxOutputTotal: past it, the connections with the most unread output
// (the slowest readers) are disconnected, as many as it takes. It reports
// whether it disconnected any. A connection written by a goroutine of its
// own counts only while that writer is stuck: output just handed to it (a
// presence round's notices to a client that reads everything) is not a
// slow reader's.
func (e *engine) shedOutput() bool {
	over := e.outQueued.Load() + e.loopQueued - int64(e.cfg.MaxOutputTotal)
	if e.cfg.MaxOutputTotal <= 0 || over <= 0 {
		return false
	}
	type backlog struct {
		c *conn
		n int
	}
	var bl []backlog
	for _, c := range e.conns {
		if w, ok := c.link.(asyncWriter); ok && !w.stuck() {
			continue // its output waits for its writer goroutine, not for its client
		}
		if n := c.link.unread(); n > 0 {
			bl = append(bl, backlog{c, n})
		}
	}
	slices.SortFunc(bl, func(a, b backlog) int {
		if a.n != b.n {
			return cmp.Compare(b.n, a.n)
		}
		return cmp.Compare(a.c.id, b.c.id)
	})
	n := 0
	for _, b := range bl {
		if over <= 0 {
			break
		}
		if h, ok := b.c.link.(holder); ok {
			over -= int64(h.held())
		} else {
			over -= int64(b.n)
		}
		e.drop(b.c, ReasonOutputMemory, true)
		n++
	}
	if n > 0 {
		e.log.Warn("unread output of all connections over limits.max_output_total; disconnected the slowest readers",
			zap.Int("connections", n), zap.Int("max_output_total", e.cfg.MaxOutputTotal))
	}
	return n > 0
}

// shutdown takes this node out of the world: a cluster's goes on without
// it (its players' seats are held for them to resume elsewhere); a world
// of its own in memory ends its games as aborted and closes every
// connection.
func (e *engine) shutdown(ctx context.Context) {
	if _, ok := e.cl.log.(*memLog); !ok {
		e.process()
		e.leave(ctx)
		return
	}
	e.in(e.now(), statemachine.Input{Kind: statemachine.InShutdown})
	e.process()
}

// kick disconnects a user for an operator.
func (e *engine) kick(user string) bool { return e.inKick(e.now(), user) }

// chunkDefault bounds one write on a connection whose maximum segment size
// is unknown: about one TCP segment's payload on Ethernet, so a write
// usually leaves as one packet and a client's read rarely ends inside a
// segment (the reference client cannot cope with a read that ends inside a
// 3-byte header).
const chunkDefault = 1400

// tcpOptionRoom is the most room TCP options take in a packet (the
// kernel's MSS already allows for the timestamps; SACK blocks come on top).
// minChunk and maxChunk bound a chunk whatever the MSS (a chunk is kept in
// 16 bits).
const (
	tcpOptionRoom = 40
	minChunk      = 256
	maxChunk      = 1<<16 - 1
)

// chunkFor is the most one write of whole segments holds on a TCP
// connection whose maximum segment size (TCP_MAXSEG, read once it is
// accepted) is mss: one packet's payload, so each write still leaves as one
// packet (the sockets have TCP_NODELAY) and ends on a segment, as
// chunkDefault does on Ethernet (an MSS of 1,448 gives 1,408). Where the
// MSS is larger (about 32 KB on loopback once accepted; jumbo frames) a
// write takes that much: on loopback every write also runs the receiver's
// side of TCP, and 1,400-byte writes, 75 per user list among 10,000 users,
// cost a storm of 1,000 such logins some 17 µs of the loop's CPU each,
// most of the loop's time (docs/performance.md, "Writes of a packet").
// 0 or less (no MSS: not TCP) gives chunkDefault.
func chunkFor(mss int) int {
	if mss <= 0 {
		return chunkDefault
	}
	return min(max(mss-tcpOptionRoom, minChunk), maxChunk)
}

// wholeSegments returns how many leading bytes of out (which holds only
// whole segments) make up the whole segments that fit in chunk, and at
// least one segment.
func wholeSegments(out []byte, chunk int) int { return wholeSegmentsIn(out, chunk, true) }

// wholeSegmentsIn is wholeSegments for the part of a write that room bytes
// are left for: first, the write's first part, takes at least one segment;
// a later one may take none.
func wholeSegmentsIn(b []byte, room int, first bool) int {
	n := 0
	for n+segment.HeaderLen <= len(b) {
		size := segment.HeaderLen + (int(b[n+1])<<8 | int(b[n+2]))
		if (n > 0 || !first) && n+size > room {
			break
		}
		n += size
	}
	if n > len(b) || n == 0 && first {
		n = len(b) // not whole segments: never loop on a zero-length write
	}
	return n
}

// segmentEnd is where the segment of b (whole segments) that holds byte
// i ends: i itself when a segment starts there. It steps over every
// segment before i: callers pass a write's worth of b, not a log.
func segmentEnd(b []byte, i int) int {
	n := 0
	for n < i {
		n += segment.HeaderLen + (int(b[n+1])<<8 | int(b[n+2]))
	}
	return n
}
