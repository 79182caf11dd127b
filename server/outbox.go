package server

import (
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// outbox is what the engine sees of a connection served by goroutines (the
// net transport's, and a message connection's such as a WebSocket): its
// output queue with the backlog bound, and its connection slot. The
// connection's own writer drains out and keeps writing and since current.
type outbox struct {
	t        host
	ip       netip.Addr
	c        *conn
	mu       sync.Mutex
	out      []byte
	spare    []byte // the writer's last buffer, written and given back: out's next
	closing  bool
	notify   chan struct{}
	dead     chan struct{}
	once     sync.Once
	admitted bool
	released bool         // its slot was given back (only touched on the loop)
	finished bool         // closed: output sent now goes nowhere
	pending  atomic.Int64 // output queued or being written (link.unread)
	writing  bool         // the writer is inside a write: output is waiting on the client
	paced    bool         // the output queued is the presence sweep's (asyncWriter.pace)
	since    time.Time    // when that write began
	// kernel reads what the kernel holds of the output that the client
	// has not acknowledged (nil: unknown): counted against the bound once
	// the writer is stuck, with what the writer holds, so a client that
	// never reads is closed near the bound rather than once the kernel's
	// buffer is full as well.
	kernel func() int
}

func newOutbox(h host, ip netip.Addr) outbox {
	return outbox{t: h, ip: ip, notify: make(chan struct{}, 1), dead: make(chan struct{})}
}

// send implements link. The bound applies once the writer has been stuck
// in a write for a while, i.e. to output the client is not reading; a burst
// (a login's user list) queued while the writer keeps up goes through, up
// to hardCap times the bound.
func (o *outbox) send(seg segment.Segment) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.room(seg.Size()) {
		return false
	}
	if !o.finished { // else the engine hears of the close soon
		o.out = seg.AppendTo(o.out)
		o.account(seg.Size())
	}
	return true
}

// sendBytes implements link.
func (o *outbox) sendBytes(b []byte) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.room(len(b)) {
		return false
	}
	if !o.finished {
		o.out = append(o.out, b...)
		o.account(len(b))
	}
	return true
}

// room reports whether n more bytes are within the bound (o.mu held).
// While the writer keeps up, a burst may queue up to hardCap times the
// bound; once it has been stuck in one write for stallAfter, everything
// the client has yet to take counts: what is queued, what the writer
// holds, and what the kernel holds (the part of the write in progress
// that reached the kernel counts twice, at most one write).
func (o *outbox) room(n int) bool {
	size, bound := len(o.out)+n, o.t.engine().cfg.MaxOutput
	if size > hardCap*bound {
		return false
	}
	if !o.writing || time.Since(o.since) <= stallAfter {
		return true
	}
	size = int(o.pending.Load()) + n
	if o.kernel != nil && size <= bound {
		size += o.kernel()
	}
	return size <= bound
}

// account counts d more (or fewer) bytes of output queued.
func (o *outbox) account(d int) {
	o.pending.Add(int64(d))
	o.t.engine().outQueued.Add(int64(d))
}

// pace implements asyncWriter.
func (o *outbox) pace() {
	o.mu.Lock()
	o.paced = true
	o.mu.Unlock()
}

// take hands the writer the output queued, marking it as being written;
// paced: the sweep's, whose writing time is presence's (spent).
func (o *outbox) take() (out []byte, closing, paced bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	out, closing, paced = o.out, o.closing, o.paced
	o.out, o.spare, o.paced = o.spare, nil, false
	o.writing, o.since = len(out) > 0, time.Now()
	return out, closing, paced
}

// maxSpare bounds the buffer a connection keeps between writes: a game's
// output fits many times over, a login's user list among thousands is let go.
const maxSpare = 4 << 10

// written ends a write that take began, charging its time to presence
// when it was the sweep's, up to maxCharge: a write that took longer
// waited for its client (or for a CPU) rather than worked, and a client
// that does not read must not hold up everyone's presence. buf is the
// buffer take handed out, written: it takes the next output, so a
// connection's moves do not allocate a buffer a write.
func (o *outbox) written(paced bool, buf []byte) {
	o.mu.Lock()
	o.writing = false
	if cap(buf) <= maxSpare && !o.finished {
		o.spare = buf[:0]
	}
	since := o.since
	o.mu.Unlock()
	if paced {
		o.t.engine().presenceSpent.Add(int64(min(time.Since(since), maxCharge)))
	}
}

// maxCharge bounds what one write charges to presence's share.
const maxCharge = time.Millisecond

// stuck implements asyncWriter.
func (o *outbox) stuck() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.writing && time.Since(o.since) >= stuckAfter
}

// unread implements link.
func (o *outbox) unread() int { return int(o.pending.Load()) }

// flush implements link: it wakes the writer.
func (o *outbox) flush() bool {
	select {
	case o.notify <- struct{}{}:
	default:
	}
	return false // the writer writes it all
}

// shut implements link: the writer closes after what is queued.
func (o *outbox) shut() {
	o.mu.Lock()
	o.closing = true
	o.mu.Unlock()
	o.flush()
}

// peerClosed tells the engine the peer has gone and gives back the
// connection's slot in the same step, so whoever hears of the close
// (another user's NewOffline) finds the slot free at once. Runs on the loop.
func (o *outbox) peerClosed() {
	o.t.engine().closed(o.c, ReasonPeer)
	o.releaseSlot()
}

// releaseSlot gives back the connection's slot, once. Runs on the loop.
func (o *outbox) releaseSlot() {
	if o.admitted && !o.released {
		o.released = true
		o.t.engine().release(o.ip)
	}
}

// The connection's end, once, from whichever side comes first: its own
// goroutines (finished: the peer went, a write failed, the close was
// written) or the engine on the loop (killed). Nothing inside the once
// waits on the loop: the loop's kill may wait at the once for a goroutine
// ending the connection at the same moment, and a post from in there would
// wait in turn for the loop, whose queue a login storm's connection
// goroutines keep full (the net transport stopped for good that way, twice,
// in the bench's repeated storms). So the slot goes back after the once:
// posted from the connection's goroutines, given back directly on the loop.

// end runs closeLink and ends the connection's goroutines, once; true for
// the call that did it.
func (o *outbox) end(closeLink func()) (did bool) {
	o.once.Do(func() {
		did = true
		o.mu.Lock()
		o.finished = true
		rest := len(o.out)
		o.out = nil
		o.mu.Unlock()
		o.account(-rest)
		closeLink()
		close(o.dead)
	})
	return did
}

// ended reports whether the connection has ended (end ran).
func (o *outbox) ended() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.finished
}

// endFromConn is end called by the connection's own goroutines; the slot
// is given back on the loop.
func (o *outbox) endFromConn(closeLink func()) {
	if o.end(closeLink) && o.admitted {
		o.t.post(o.releaseSlot)
	}
}

// endOnLoop is end called by the engine on the loop (link.kill), which
// gives the slot back there and then.
func (o *outbox) endOnLoop(closeLink func()) {
	o.end(closeLink)
	o.releaseSlot()
}
