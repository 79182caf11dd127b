package server

import (
	"runtime/debug"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// Game traffic before presence traffic (issue 20, item 4).
//
// A login among N online users costs 2N segments: the whole user list to
// the new session and a NewOnline to everyone else. During a login storm
// that is millions of segments and, written at once, one write(2) per
// online connection per loop iteration: a relayed guess read in the same
// iteration waits behind all of them. So the engine sorts the connections
// it has output for into two queues:
//
//   - flushq: a connection that got anything but presence (a guess, an
//     answer, a login reply) is written at the end of the iteration, as
//     before;
//   - pacedq: a connection whose only new output is presence (user list,
//     online and offline notices) waits its turn in a FIFO, and the reactor
//     writes a time-bounded share of that queue per loop iteration, oldest
//     first, so the notices of many logins reach an idle connection in one
//     write instead of one per login.
//
// Why this keeps the byte stream's meaning: each connection has one output
// buffer and segments are appended to it in the order the hub produced
// them; the queues only decide when a connection's buffer is handed to the
// kernel, never the order inside it. A connection with game output writes
// its whole buffer, queued presence first. What changes is only the order
// across connections, which the protocol never promised (every hub output
// already reached different connections in whatever order their writes
// and the network delivered them).

// presence reports whether t is presence traffic: the user list a login
// receives (SyncBegin... SyncEnd) and the notices everyone receives when a
// user comes online or goes offline.
func presence(t segment.Type) bool {
	switch t {
	case segment.SyncBegin, segment.SyncEnd, segment.NewOnline, segment.NewOffline:
		return true
	}
	return false
}

// pacedQueue is the FIFO of connections waiting to have their presence
// output written.
type pacedQueue struct {
	on      bool // write a time-bounded share per iteration (the reactor); off: all at once
	conns   []*conn
	head    int
	written int       // connections written since memory was last given back
	last    time.Time // when presence output was last written
	freeing atomic.Bool
}

// pending reports whether presence output is waiting for a later
// iteration (the reactor then polls instead of sleeping in epoll_wait).
func (q *pacedQueue) pending() bool { return q.head < len(q.conns) }

func (q *pacedQueue) push(c *conn) {
	c.paced = true
	q.conns = append(q.conns, c)
}

func (q *pacedQueue) pop() *conn {
	c := q.conns[q.head]
	q.conns[q.head] = nil
	q.head++
	switch {
	case q.head == len(q.conns):
		q.conns, q.head = q.conns[:0], 0
		if cap(q.conns) > 4096 {
			q.conns = nil // a storm's queue is not kept for the life of the daemon
		}
	case q.head > 1024 && 2*q.head > len(q.conns):
		q.conns = append(q.conns[:0], q.conns[q.head:]...)
		q.head = 0
	}
	c.paced = false
	return c
}

// deliver encodes the hub's sends into their connections' output (in the
// hub's order) and queues each connection for writing: presence-only ones
// in pacedq, the others in flushq.
func (e *engine) deliver(sends []statemachine.Send) {
	var last *conn // a user list is thousands of sends to one connection
	for i := range sends {
		s := &sends[i]
		c := last
		if c == nil || c.id != s.Conn {
			c = e.conns[s.Conn]
			last = c
		}
		if c == nil || c.gone {
			continue
		}
		if e.cfg.Tap != nil {
			e.cfg.Tap.Out(c.id, s.Seg)
		}
		if !c.link.send(s.Seg) {
			e.log.Info("output backlog over its bound, closing", zap.Uint64("conn", uint64(c.id)))
			e.drop(c, ReasonBacklog, true)
			continue
		}
		switch {
		case c.queued:
		case !presence(s.Seg.Type):
			c.queued = true
			e.flushq = append(e.flushq, c)
		case !c.paced:
			e.paced.push(c)
		}
	}
}

// releaser is a link that can give back its empty output buffer.
type releaser interface{ release() }

// flushUrgent writes the connections that have more than presence output.
func (e *engine) flushUrgent() {
	for _, c := range e.flushq {
		c.queued = false
		if !c.gone {
			c.link.flush()
		}
	}
	clear(e.flushq)
	e.flushq = e.flushq[:0]
}

// presenceSlice is how long one reactor iteration may spend writing
// presence output: a relayed guess that arrives meanwhile waits at most
// about this long for the loop (issue 20 asks for relay p99 under 2 ms
// during a login storm). checkEvery is how many connections are written
// between looks at the clock.
const (
	presenceSlice = 250 * time.Microsecond
	checkEvery    = 16
)

// flushPresence writes queued presence output, oldest connection first,
// for at most budget (all of it when budget < 0). At least checkEvery
// connections are written per call, so a storm always makes progress.
func (e *engine) flushPresence(budget time.Duration) {
	if !e.paced.pending() {
		return
	}
	t0 := time.Now()
	for n := 1; e.paced.pending(); n++ {
		c := e.paced.pop()
		e.paced.written++
		e.paced.last = t0
		if !c.gone && !c.queued {
			c.link.flush()
			if r, ok := c.link.(releaser); ok {
				r.release()
			}
		}
		if budget >= 0 && n%checkEvery == 0 && time.Since(t0) > budget {
			return
		}
	}
}

// A burst of presence output (a login wave among thousands of users) grows
// the heap with buffers that are garbage once written: the user lists, the
// notices waiting for their turn, the hub's batches. The runtime gives
// freed memory back to the kernel only slowly, so after a wave the daemon
// would keep its peak RSS for minutes. Once a large burst has drained and
// presence has been quiet for quietFor (the wave is over, not between two
// logins), the engine has the runtime return it at once; the collection
// runs on its own goroutine, concurrently with the loop.
const (
	burstConns = 4096
	quietFor   = 500 * time.Millisecond
)

// afterBurst gives freed memory back once a large presence burst has been
// written. The reactor calls it when its loop has nothing left to pace.
func (e *engine) afterBurst() {
	q := &e.paced
	if q.pending() || q.written < burstConns || time.Since(q.last) < quietFor || q.freeing.Load() {
		return
	}
	q.written = 0
	q.freeing.Store(true)
	go func() {
		debug.FreeOSMemory()
		q.freeing.Store(false)
	}()
}
