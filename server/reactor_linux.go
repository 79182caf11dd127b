//go:build linux

package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/bomber-game/bomber/segment"
)

// Reactor is the epoll transport: one goroutine waits on every socket with
// epoll, reads and writes as much as each ready socket takes, and runs the
// engine. Account checks come back from the worker pool through a channel
// and an eventfd that wakes the loop.
//
// Each TCP listener has its own accepting goroutine (parked in the Go
// runtime's poller while nothing is waiting), which hands new sockets to
// the loop the same way. Accepting never waits for the loop: while the loop
// spends seconds fanning out a big login wave, the kernel's accept queue
// keeps draining, so a full queue never drops a client's handshake (a
// client whose final ACK is dropped under SYN cookies believes it is
// connected and waits for answers that cannot come).
type Reactor struct {
	door
	cfg  Config
	pool *pool
	epfd int
	evfd int
	// woken is set by the first wake after the loop last read evfd: later
	// wakes until the loop reads it again have nothing to add (the loop
	// takes everything waiting once it runs), and skip the system call
	// (a clustered node is woken for every log entry NATS delivers)
	woken atomic.Bool
	tfd   int                       // timerfd: wakes the loop between presence slices (epoll_wait counts whole milliseconds)
	fds   []*rconn                  // by descriptor: the kernel hands out the lowest free one, so this stays dense
	iov   [maxIovecs]unix.Iovec     // the loop's scratch for a connection's next write (gather)
	wsIov [maxIovecs + 1]unix.Iovec // the same with a WebSocket frame's header first
	wsBuf [readBudget]byte          // the loop's scratch for a WebSocket's reads

	stopfd    int // eventfd: readable once the reactor is stopping
	mu        sync.Mutex
	accepted  []acceptedConn // handed over by the accepting goroutines
	backlog   bool           // register left some of them for the next iteration
	closing   bool
	acceptWG  sync.WaitGroup
	acceptErr acceptCounts

	startOnce sync.Once
	stopOnce  sync.Once
	stopped   bool
	err       error
}

// acceptedConn is a socket accepted off the loop, or a WebSocket handed
// over by the gateway (ws, with its address), not yet registered.
type acceptedConn struct {
	fd     int
	sa     unix.Sockaddr
	ws     *wsConn
	ip     netip.Addr
	remote string
}

// readBudget bounds the bytes read from one connection per loop iteration
// (level-triggered epoll reports it again while more is waiting), so one
// busy client cannot starve the others.
const readBudget = 4 << 10

// rconn is a reactor connection: the socket and its bounded output buffer.
type rconn struct {
	r *Reactor
	c *conn // its address is c.ip
	// The output waiting for the kernel is out[sent:], then the pieces of
	// more, in order: bytes the engine lent (a user list, the presence
	// log: see lend), written without being copied, and the connection's
	// own output that came after them. New output is appended to out while
	// more is empty, else to more's last piece if it is the connection's
	// own. out is written from an offset (sent) rather than resliced, so
	// that out always starts where its array does: a buffer emptied by
	// writes is then either kept whole (a small one, for the next guess)
	// or dropped, never kept as an empty slice at the end of a large
	// array, which would hold the whole array for as long as the
	// connection lives.
	out     []byte
	more    []piece
	moreLen int // bytes in more
	sent    int
	fd      int32
	// kernel is what the kernel held of the output, unacknowledged, when
	// it last refused more (SIOCOUTQ): counted with unread against
	// MaxOutput, so a client that never reads is closed near the bound
	// rather than once the kernel's buffer is full as well. 0 once the
	// output drained.
	kernel  int32
	chunk   uint16 // the most one write holds (chunkFor its MSS); 0: chunkDefault
	pollOut bool   // EPOLLOUT registered: the kernel buffer was full
	capped  bool   // the last write stopped at writeCap with output left (the engine flushes it)
	closed  bool
	ws      *wsConn // a WebSocket's framing (wsconn_linux.go); nil for TCP
}

// piece is output queued behind out: bytes of an array the engine shares
// (m, counted once however many connections hold it: see lend), or, with
// m nil, the connection's own.
type piece struct {
	b []byte
	m *sharedMem
}

// NewReactor returns an epoll transport.
func NewReactor(cfg Config) (*Reactor, error) {
	cfg.defaults()
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create1: %w", err)
	}
	evfd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		unix.Close(epfd)
		return nil, fmt.Errorf("eventfd: %w", err)
	}
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, evfd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(evfd)}); err != nil {
		unix.Close(epfd)
		unix.Close(evfd)
		return nil, fmt.Errorf("epoll_ctl eventfd: %w", err)
	}
	stopfd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		unix.Close(epfd)
		unix.Close(evfd)
		return nil, fmt.Errorf("eventfd: %w", err)
	}
	tfd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err == nil {
		err = unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, tfd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(tfd)})
		if err != nil {
			unix.Close(tfd)
		}
	}
	if err != nil {
		unix.Close(epfd)
		unix.Close(evfd)
		unix.Close(stopfd)
		return nil, fmt.Errorf("timerfd: %w", err)
	}
	r := &Reactor{
		cfg:    cfg,
		epfd:   epfd,
		evfd:   evfd,
		tfd:    tfd,
		stopfd: stopfd,
	}
	r.door = newDoor(64, r.wake)
	r.pool = newPool(cfg, r.wake)
	r.eng = newEngine(cfg, r.pool)
	r.eng.fan.on = true // the loop writes presence output a slice at a time
	return r, nil
}

// wake interrupts epoll_wait; safe from any goroutine.
func (r *Reactor) wake() {
	if r.woken.Swap(true) {
		return // a wake-up is pending: the loop has not read evfd since
	}
	var one = [8]byte{1, 0, 0, 0, 0, 0, 0, 0}
	unix.Write(r.evfd, one[:]) // EAGAIN means a wake-up is already pending
}

// Serve accepts on l until Shutdown. A TCP listener's connections are
// polled with epoll (accepted on a goroutine of their own, see Reactor; the
// reactor takes its own copy of the socket and closes l); any other
// listener (TLS) is served with a goroutine per connection feeding the same
// loop, so every user shares one hub.
func (r *Reactor) Serve(l net.Listener) error {
	tl, ok := l.(*net.TCPListener)
	var f *os.File
	lfd := -1
	if ok {
		var err error
		if f, err = tl.File(); err != nil {
			return fmt.Errorf("listener fd: %w", err)
		}
		l.Close()
		lfd = int(f.Fd()) // Fd makes the socket blocking: once, before SetNonblock
		if err := unix.SetNonblock(lfd, true); err != nil {
			f.Close()
			return fmt.Errorf("listener nonblocking: %w", err)
		}
	}
	r.mu.Lock()
	if r.closing {
		r.mu.Unlock()
		l.Close()
		if f != nil {
			f.Close()
		}
		return ErrClosed
	}
	r.acceptWG.Add(1)
	r.mu.Unlock()
	defer r.acceptWG.Done()
	r.startOnce.Do(func() { go r.loop() })
	if !ok {
		go func() { <-r.done; l.Close() }()
		return serveConns(r, l, r.done)
	}
	defer f.Close()
	r.acceptLoop(lfd)
	<-r.done
	return r.errOrClosed()
}

// acceptLoop accepts on the listening socket lfd until the reactor stops,
// and hands each socket to the loop. Running out of descriptors (EMFILE,
// ENFILE) or kernel memory pauses accepting with a growing delay instead of
// retrying at once: the pending connections wait in the kernel's queue and
// are served once descriptors free up.
func (r *Reactor) acceptLoop(lfd int) {
	pace := newAcceptPacer(r.cfg.Logger)
	// wait polls the listener (pause < 0) or only sleeps for pause; false
	// once the reactor is stopping
	wait := func(pause time.Duration) bool {
		fds := []unix.PollFd{{Fd: int32(r.stopfd), Events: unix.POLLIN}, {Fd: int32(lfd), Events: unix.POLLIN}}
		timeout := -1
		if pause >= 0 {
			fds, timeout = fds[:1], int(pause/time.Millisecond)
		}
		for {
			_, err := unix.Poll(fds, timeout)
			if err == nil || !errors.Is(err, unix.EINTR) {
				return fds[0].Revents == 0
			}
		}
	}
	for {
		fd, sa, err := unix.Accept4(lfd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
		switch {
		case errors.Is(err, unix.EAGAIN):
			if !wait(-1) {
				return
			}
			continue
		case errors.Is(err, unix.EINTR), errors.Is(err, unix.ECONNABORTED):
			continue
		case err != nil:
			reason, pause := pace.failed(err)
			r.acceptErr.add(reason)
			r.wake()
			if !wait(pause) {
				return
			}
			continue
		}
		pace.ok()
		r.mu.Lock()
		if r.closing {
			r.mu.Unlock()
			unix.Close(fd)
			return
		}
		r.accepted = append(r.accepted, acceptedConn{fd: fd, sa: sa})
		first := len(r.accepted) == 1
		r.mu.Unlock()
		if first {
			r.wake()
		}
	}
}

func (r *Reactor) errOrClosed() error {
	if r.err != nil {
		return r.err
	}
	return ErrClosed
}

func (r *Reactor) loop() {
	defer close(r.done)
	runtime.LockOSThread() // a thread of its own, named for the operator's tools (top -H, perf)
	nameThread("bomberd-loop")
	if err := shortenSlice(loopSlice); err != nil {
		// the kernel's default slice: a guess may wait out another
		// thread's, as before
		r.cfg.Logger.Warn("the loop's short time slice was refused", zap.Error(err))
	}
	events := make([]unix.EpollEvent, 256)
	nextTick := time.Now()
	procs := runtime.GOMAXPROCS(0)
	var lastEvent time.Time // of the last iteration woken by more than its own timer
	for !r.stopped {
		now := time.Now()
		presence := time.Duration(-1)
		if r.eng.fan.pending() {
			presence = r.eng.fan.due(now)
		}
		wait := loopWait(nextTick.Sub(now), len(r.pool.results) > 0 || r.backlog || r.pool.owes(), presence)
		ms := int(wait / time.Millisecond)
		if wait > 0 && ms == 0 {
			// under a millisecond (a rest between presence slices), which
			// epoll_wait cannot count: the timer wakes the loop (any socket
			// event or answer still does at once)
			its := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(wait))}
			if unix.TimerfdSettime(r.tfd, 0, &its, nil) == nil {
				ms = 1
			}
		}
		n, err := waitEvents(r.epfd, events, ms, keepsP(r.cfg.KeepP, procs, now.Sub(lastEvent)))
		if err != nil && !errors.Is(err, unix.EINTR) {
			r.err = fmt.Errorf("epoll_wait: %w", err)
			r.cfg.Logger.Error("reactor stopped", zap.Error(r.err))
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			r.eng.shutdown(ctx)
			cancel()
			return
		}
		t0 := time.Now()
		woke := max(n, 0) // events other than the timer's
		for i := 0; i < n; i++ {
			ev := &events[i]
			fd := int(ev.Fd)
			switch {
			case fd == r.tfd:
				var b [8]byte
				unix.Read(r.tfd, b[:])
				woke--
			case fd == r.evfd:
				// read, then cleared, and both before what woke the loop is
				// taken below: a wake after the clear writes again, and one
				// between the read and the clear skipped its write for a
				// hand-over taken below. Cleared first, a wake between the
				// clear and the read would have its write read away and leave
				// the flag set, and every later wake would skip its write:
				// the loop would sleep on posts until a socket woke it.
				var b [8]byte
				unix.Read(r.evfd, b[:])
				r.woken.Store(false)
			default:
				var rc *rconn
				if fd < len(r.fds) {
					rc = r.fds[fd]
				}
				if rc == nil {
					continue
				}
				if ev.Events&(unix.EPOLLIN|unix.EPOLLHUP|unix.EPOLLERR|unix.EPOLLRDHUP) != 0 {
					r.read(rc)
				}
				if ev.Events&unix.EPOLLOUT != 0 && !rc.closed {
					rc.write()
				}
			}
		}
		// the game traffic just read goes out before this iteration's
		// logins are acted on (see engine_output.go)
		r.eng.process()
		r.pool.handOver() // checks a worker's lock kept back last time
		r.register()
		r.eng.answerSome(r.pool.results)
		r.drainAdmin()
		if !t0.Before(nextTick) {
			r.eng.tick()
			if r.cfg.OnLoop != nil {
				r.cfg.OnLoop()
			}
			nextTick = t0.Add(r.cfg.TickEvery)
		}
		r.eng.process()
		r.eng.pacePresence(time.Now(), woke == 0 && len(r.pool.results) == 0)
		if !r.eng.hub.Ready().Empty() {
			r.eng.process() // the sweep closed a connection for its backlog
		}
		r.eng.afterBurst()
		if woke > 0 {
			r.eng.obs.LoopLatency(time.Since(t0))
			lastEvent = t0
		}
	}
}

func (r *Reactor) drainAdmin() {
	for {
		select {
		case f := <-r.in:
			f()
		default:
			return
		}
	}
}

// registerMax bounds the sockets one loop iteration registers: a wave of
// a thousand connections at once is milliseconds of epoll_ctl and hub
// work, which relayed guesses would otherwise wait behind (the loop
// polls while any are left).
const registerMax = 64

// register takes the sockets accepted since the last iteration into the
// loop, and reports accept failures to the observer.
func (r *Reactor) register() {
	r.acceptErr.report(r.eng.obs)
	r.mu.Lock()
	batch := r.accepted
	if len(batch) > registerMax {
		batch, r.accepted = batch[:registerMax:registerMax], batch[registerMax:]
	} else {
		r.accepted = nil
	}
	r.backlog = len(r.accepted) > 0
	r.mu.Unlock()
	for _, a := range batch {
		fd, sa := a.fd, a.sa
		ip, remote := a.ip, a.remote
		if a.ws == nil {
			ip = sockaddrIP(sa)
			remote = netip.AddrPortFrom(ip, sockaddrPort(sa)).String()
		}
		if reason := r.eng.admit(ip); reason != "" {
			if a.ws != nil {
				r.wsRefused(a)
			} else {
				unix.Close(fd)
			}
			r.eng.obs.ConnRejected(reason)
			continue
		}
		tuneFD(fd, r.eng.sendBuf)
		if err := unix.EpollCtl(r.epfd, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(fd)}); err != nil {
			unix.Close(fd)
			if a.ws != nil {
				a.ws.gone()
			}
			r.eng.release(ip)
			r.cfg.Logger.Warn("epoll_ctl conn", zap.Error(err))
			continue
		}
		rc := &rconn{r: r, fd: int32(fd), chunk: uint16(chunkFor(tcpMSS(fd))), ws: a.ws}
		for fd >= len(r.fds) {
			r.fds = append(r.fds, nil)
		}
		r.fds[fd] = rc
		rc.c = r.eng.open(rc, ip, remote)
		if w := a.ws; w != nil && len(w.in) > 0 {
			early := w.in // what the client sent right after its handshake
			w.in = nil
			rc.wsInput(early)
		}
	}
}

func sockaddrPort(sa unix.Sockaddr) uint16 {
	switch a := sa.(type) {
	case *unix.SockaddrInet4:
		return uint16(a.Port)
	case *unix.SockaddrInet6:
		return uint16(a.Port)
	}
	return 0
}

func sockaddrIP(sa unix.Sockaddr) netip.Addr {
	switch a := sa.(type) {
	case *unix.SockaddrInet4:
		return netip.AddrFrom4(a.Addr)
	case *unix.SockaddrInet6:
		return netip.AddrFrom16(a.Addr).Unmap()
	}
	return netip.Addr{}
}

// read reads straight into the connection's decoder ring, so each byte is
// copied once, and hands the whole segments to the engine (a WebSocket's
// bytes go through wsInput, which undoes its frames); at most readBudget
// bytes per call.
func (r *Reactor) read(rc *rconn) {
	c := rc.c
	for budget := readBudget; budget > 0 && !c.gone; {
		free := c.dec.Free()
		if rc.ws != nil {
			free = r.wsBuf[:] // frames, whose payloads wsInput hands the decoder
		}
		n, err := rawRead(int(rc.fd), free)
		switch {
		case n > 0:
			if rc.ws != nil {
				rc.wsInput(free[:n])
			} else {
				c.dec.Commit(n)
				r.eng.committed(c, free[:n])
			}
			if n < len(free) {
				return // the socket is most likely empty
			}
			budget -= n
		case n == 0 || err != nil && !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EINTR):
			r.eng.closed(c, ReasonPeer)
			return
		default:
			return
		}
	}
}

// send implements link. Output that would fill half the unread-output
// bound within one loop iteration is handed to the kernel at once, so a
// login's user list among thousands of users goes out as it is built; only
// output the client really does not read counts against the bound.
func (rc *rconn) send(seg segment.Segment) bool {
	n := seg.Size()
	if !rc.room(n) {
		return false
	}
	if !rc.closed { // else the write failed and the engine has dropped it
		p := rc.tail()
		*p = seg.AppendTo(*p)
		rc.r.eng.loopQueued += int64(n)
		if len(rc.more) > 0 {
			rc.moreLen += n
		}
	}
	return true
}

// tail is the buffer new output is appended to: out, or the connection's
// own piece after the lent ones while there are any.
func (rc *rconn) tail() *[]byte {
	k := len(rc.more)
	if k == 0 {
		return &rc.out
	}
	if rc.more[k-1].m != nil {
		rc.more = append(rc.more, piece{})
		k++
	}
	return &rc.more[k-1].b
}

// sendBytes implements link.
func (rc *rconn) sendBytes(b []byte) bool {
	if !rc.room(len(b)) {
		return false
	}
	if !rc.closed {
		p := rc.tail()
		*p = append(*p, b...)
		rc.r.eng.loopQueued += int64(len(b))
		if len(rc.more) > 0 {
			rc.moreLen += len(b)
		}
	}
	return true
}

// lend implements lender: b, bytes of the array m, is queued by
// reference. A login's user list among ten thousand users is 100 KB, and
// the presence notices a storm leaves a busy connection to catch up on
// are as many; copied into each connection's output, a wave of logins
// allocated (and the collector then scanned) hundreds of megabytes, on
// the loop's CPU. The array counts against MaxOutputTotal once, while any
// connection has bytes of it left (sharedMem).
func (rc *rconn) lend(b []byte, m *sharedMem) bool {
	if !rc.room(len(b)) {
		return false
	}
	if rc.closed || len(b) == 0 {
		return true
	}
	if k := len(rc.more); k > 0 && rc.more[k-1].m == m && contiguous(rc.more[k-1].b, b) {
		rc.more[k-1].b = rc.more[k-1].b[:len(rc.more[k-1].b)+len(b)] // the next chunk, in the same array
	} else {
		rc.more = append(rc.more, piece{b, m})
		if m.users++; m.users == 1 {
			rc.r.eng.loopQueued += m.size
		}
	}
	rc.moreLen += len(b)
	return true
}

// pop drops more's first piece, written: the last connection to let go of
// a shared array takes it off the output count.
func (rc *rconn) pop() {
	if m := rc.more[0].m; m != nil {
		if m.users--; m.users == 0 {
			rc.r.eng.loopQueued -= m.size
		}
	}
	rc.moreLen -= len(rc.more[0].b)
	rc.more[0] = piece{}
	if rc.more = rc.more[1:]; len(rc.more) == 0 {
		rc.more = nil
	}
}

// held implements holder: the output memory closing rc would free (a
// shared array only if no other connection holds it).
func (rc *rconn) held() int {
	n := len(rc.out) - rc.sent
	for i, p := range rc.more {
		if p.m == nil {
			n += len(p.b)
			continue
		}
		first, mine := true, 0 // an array counts at its first piece here
		for j, q := range rc.more {
			if q.m == p.m {
				first = first && j >= i
				mine++
			}
		}
		if first && mine == p.m.users {
			n += int(p.m.size)
		}
	}
	return n
}

// contiguous reports whether b starts where a ends, in a's array.
func contiguous(a, b []byte) bool {
	return len(b) > 0 && cap(a)-len(a) >= len(b) && &a[:len(a)+1][len(a)] == &b[0]
}

// writeNow implements lender: an idle connection's notices go from the
// engine's shared log straight to the kernel, at most writeCap, with no
// buffer or piece of the connection's own in between. What the kernel does
// not take the engine lends it: copied, the rest cost a storm among 10,000
// users 45 MB a second of garbage (see catchUp).
func (rc *rconn) writeNow(b []byte) (wrote, end int) {
	if rc.unread() > 0 || rc.pollOut || rc.closed || rc.ws != nil { // a WebSocket's output goes in frames
		return 0, 0
	}
	for wrote < len(b) && wrote < writeCap {
		k := wholeSegments(b[wrote:], rc.chunkMax())
		n, err := rawWrite(int(rc.fd), b[wrote:wrote+k])
		if errors.Is(err, unix.EINTR) {
			continue // nothing was written
		}
		if err != nil && !errors.Is(err, unix.EAGAIN) {
			rc.r.eng.closed(rc.c, ReasonPeer)
		}
		if n = max(n, 0); err != nil || n < k {
			// the kernel's buffer is full (or the peer is gone),
			// maybe inside a segment
			rc.kernel = int32(sendQueuedFD(int(rc.fd)))
			return wrote + n, wrote + segmentEnd(b[wrote:wrote+k], n)
		}
		wrote += n
	}
	return wrote, wrote
}

// room reports whether n more bytes of output stay within the bound,
// writing early once they would pass half of it.
func (rc *rconn) room(n int) bool {
	if rc.unread()+n > rc.r.eng.cfg.MaxOutput/2 && !rc.pollOut {
		rc.write()
	}
	return rc.closed || rc.unread()+int(rc.kernel)+n <= rc.r.eng.cfg.MaxOutput
}

// unread implements link.
func (rc *rconn) unread() int { return len(rc.out) - rc.sent + rc.moreLen }

// owes reports whether rc has bytes to write: output, or a WebSocket's
// own (the rest of a frame, a control frame).
func (rc *rconn) owes() bool { return rc.unread() > 0 || rc.ws != nil && rc.ws.owes() }

// flush implements link: write now, at most writeCap, unless the kernel
// said it is full; more reports that output is left for a later flush.
func (rc *rconn) flush() (more bool) {
	if !rc.pollOut {
		rc.writeUpTo(writeCap)
	}
	return rc.capped && !rc.closed
}

// writeCap bounds what one flush hands the kernel for a connection (but
// one write, a chunk, goes whatever its size): a login's user list among
// ten thousand users is 100 KB, 70 writes of chunkDefault, and written at
// once it would hold up the loop iteration (and the guesses read in it)
// for that long. The engine flushes the rest in presence's share of later
// iterations (engine_output.go). A game's output per iteration is far
// below it.
const writeCap = 8 * chunkDefault

// maxIovecs bounds the pieces one write gathers: a connection behind on
// its output holds the notices lent to it between its own segments, a
// few bytes each; written one piece at a time, a player in a login wave
// made a system call for each.
const maxIovecs = 16

// chunkMax is the most one write to rc holds (chunkFor).
func (rc *rconn) chunkMax() int {
	if rc.chunk == 0 {
		return chunkDefault
	}
	return int(rc.chunk)
}

// gather is the next write: the whole segments of out[sent:] and then of
// more's pieces, at most chunkMax bytes in all (at least one segment), in
// the reactor's scratch iovecs. The output is not empty.
func (rc *rconn) gather() []unix.Iovec {
	iov := rc.r.iov[:0]
	room := rc.chunkMax()
	b := rc.out[rc.sent:]
	for i := 0; ; i++ {
		if len(b) > 0 {
			n := wholeSegmentsIn(b, room, len(iov) == 0)
			if n == 0 {
				break
			}
			iov = append(iov, unix.Iovec{Base: &b[0]})
			iov[len(iov)-1].SetLen(n)
			if room -= n; n < len(b) || len(iov) == maxIovecs {
				break
			}
		}
		if i == len(rc.more) {
			break
		}
		b = rc.more[i].b
	}
	return iov
}

// consume drops n written bytes from the front of the output.
func (rc *rconn) consume(n int) {
	if k := min(n, len(rc.out)-rc.sent); k > 0 {
		rc.sent += k
		rc.r.eng.loopQueued -= int64(k)
		n -= k
	}
	for n > 0 {
		p := &rc.more[0]
		k := min(n, len(p.b))
		p.b, rc.moreLen, n = p.b[k:], rc.moreLen-k, n-k
		if p.m == nil {
			rc.r.eng.loopQueued -= int64(k)
		}
		if len(p.b) == 0 {
			rc.pop()
		}
	}
}

// write writes as much queued output as the kernel takes.
func (rc *rconn) write() { rc.writeUpTo(-1) }

// writeUpTo writes queued output until the kernel takes no more or, when
// limit >= 0, limit bytes were written; output left then waits for the
// connection to be reported writable.
func (rc *rconn) writeUpTo(limit int) {
	rc.capped = false
	for wrote := 0; ; {
		if rc.sent == len(rc.out) && len(rc.more) > 0 && rc.more[0].m == nil {
			// the connection's own piece after lent ones becomes out
			rc.out, rc.sent = rc.more[0].b, 0
			rc.moreLen -= len(rc.out)
			rc.more[0].b = nil
			rc.pop()
		}
		if !rc.owes() {
			break
		}
		if limit >= 0 && wrote >= limit {
			rc.capped = true
			break
		}
		var n int
		var err error
		if rc.ws != nil {
			n, err = rc.wsWrite()
		} else if buf := rc.out[rc.sent:]; len(rc.more) == 0 {
			n, err = rawWrite(int(rc.fd), buf[:wholeSegments(buf, rc.chunkMax())]) // a player's output: one buffer
		} else if iov := rc.gather(); len(iov) == 1 {
			n, err = rawWrite(int(rc.fd), unsafe.Slice(iov[0].Base, iov[0].Len))
			iov[0] = unix.Iovec{}
		} else {
			n, err = rawWritev(int(rc.fd), iov)
			clear(iov) // the scratch must not keep a lent array alive
		}
		if n > 0 {
			rc.consume(n)
			wrote += n
		}
		if err != nil {
			if errors.Is(err, unix.EAGAIN) {
				rc.kernel = int32(sendQueuedFD(int(rc.fd)))
				break
			}
			if !errors.Is(err, unix.EINTR) {
				rc.r.eng.closed(rc.c, ReasonPeer)
				return
			}
		}
	}
	if rc.unread() == 0 {
		rc.kernel = 0
	}
	switch left := len(rc.out) - rc.sent; {
	case left == 0:
		// an idle connection holds no output buffer; the next segments
		// allocate a small one (a player's is kept for its next guess)
		if cap(rc.out) > 64 {
			rc.out = nil
		} else {
			rc.out = rc.out[:0]
		}
		rc.sent = 0
	case left < cap(rc.out)/4 && cap(rc.out) > 1024:
		rc.out, rc.sent = append([]byte(nil), rc.out[rc.sent:]...), 0
	}
	want := rc.owes() && !rc.capped // capped: the engine flushes the rest
	if want != rc.pollOut {
		ev := uint32(unix.EPOLLIN | unix.EPOLLRDHUP)
		if want {
			ev |= unix.EPOLLOUT
		}
		unix.EpollCtl(rc.r.epfd, unix.EPOLL_CTL_MOD, int(rc.fd), &unix.EpollEvent{Events: ev, Fd: rc.fd})
		rc.pollOut = want
	}
}

// release gives back an empty output buffer: the engine calls it after
// writing presence output, which an idle connection gets now and then, so
// ten thousand idle connections hold no buffers between notices (a
// connection in a game keeps its small buffer for the next guess).
func (rc *rconn) release() {
	if rc.unread() == 0 {
		rc.out, rc.sent = nil, 0
	}
}

// shut implements link: write what the kernel takes now, then close (the
// kernel still delivers what it accepted).
func (rc *rconn) shut() {
	if !rc.closed {
		rc.write()
		rc.dropInput()
		rc.kill()
	}
}

// dropInput reads and drops the input the socket holds (a few reads at
// most): a socket closed with input unread sends a reset, and a peer that
// gets it before reading the last bytes it was sent loses them (the Error
// that says why it was closed, after a flood).
func (rc *rconn) dropInput() {
	for range 8 {
		if n, _ := rawRead(int(rc.fd), rc.r.wsBuf[:]); n <= 0 {
			return
		}
	}
}

// kill implements link.
func (rc *rconn) kill() {
	if rc.closed {
		return
	}
	rc.closed = true
	r := rc.r
	r.fds[rc.fd] = nil
	r.eng.release(rc.c.ip)
	if rc.ws != nil {
		rc.wsClose()
	}
	unix.Close(int(rc.fd))
	r.eng.loopQueued -= int64(len(rc.out) - rc.sent)
	for len(rc.more) > 0 {
		if rc.more[0].m == nil {
			r.eng.loopQueued -= int64(len(rc.more[0].b))
		}
		rc.pop()
	}
	rc.out, rc.sent = nil, 0
}

// Shutdown implements Transport. Later calls wait for the first to finish
// and return nil; the reactor's descriptors are closed once.
func (r *Reactor) Shutdown(ctx context.Context) error {
	var err error
	r.stopOnce.Do(func() { err = r.shutdown(ctx) })
	return err
}

func (r *Reactor) shutdown(ctx context.Context) error {
	r.mu.Lock()
	r.closing = true
	r.mu.Unlock()
	var one = [8]byte{1}
	unix.Write(r.stopfd, one[:])           // never read: every accepting goroutine sees it
	r.startOnce.Do(func() { go r.loop() }) // Shutdown before any Serve
	err := r.do(ctx, func() {
		r.eng.shutdown(ctx)
		r.stopped = true
	})
	if errors.Is(err, ErrClosed) {
		err = nil
	}
	if perr := r.pool.close(ctx); err == nil {
		err = perr
	}
	<-r.done
	r.acceptWG.Wait()
	r.mu.Lock()
	for _, a := range r.accepted { // accepted after the loop's last look
		unix.Close(a.fd)
		if a.ws != nil {
			a.ws.gone()
		}
	}
	r.accepted = nil
	r.mu.Unlock()
	unix.Close(r.epfd)
	unix.Close(r.evfd)
	unix.Close(r.tfd)
	unix.Close(r.stopfd)
	return err
}

// rawRead and rawWrite are read(2) and write(2) on a connection's socket
// without the runtime's syscall entry and exit (unix.Read goes through
// entersyscall/exitsyscall, which prepares for a call that may block so the
// scheduler can hand the loop's P to another thread). The reactor's sockets
// are non-blocking: these calls return as soon as the kernel has copied
// what fits, so that preparation is pure cost, paid twice per relayed
// guess. Like unix.Read they return -1 with the error.
func rawRead(fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if e != 0 {
		return -1, e
	}
	return int(n), nil
}

func rawWritev(fd int, iov []unix.Iovec) (int, error) {
	n, _, e := unix.RawSyscall(unix.SYS_WRITEV, uintptr(fd), uintptr(unsafe.Pointer(&iov[0])), uintptr(len(iov)))
	if e != 0 {
		return -1, e
	}
	return int(n), nil
}

func rawWrite(fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if e != 0 {
		return -1, e
	}
	return int(n), nil
}

// keepPFor is how long after its last event the reactor's loop keeps its
// P through its waits (Config.KeepP); an idle loop waits in an ordinary
// system call and leaves its P to the rest of the process.
const keepPFor = 10 * time.Millisecond

// keepsP reports whether the loop's next wait keeps its P: KeepP is set,
// the process has a P besides the loop's, and traffic flowed within
// keepPFor.
func keepsP(keep bool, procs int, sinceEvent time.Duration) bool {
	return keep && procs >= 2 && sinceEvent < keepPFor
}

// waitEvents is the loop's epoll_wait(2). With keep it is a raw system
// call, at most keepPFor long, and the loop's goroutine keeps its P: the
// runtime sees it running and hands the P to nobody. In a 2 s execution
// trace of a login storm (1,000 logins among 10,000 users, games at 2,000
// guesses/s, GOMAXPROCS 2) the loop came back from ordinary waits to find
// its P taken 2,041 times, for 190 ms in all, 35 times for over 1 ms; with
// the P kept, 3 times (docs/performance.md). The runtime can still stop
// the loop whenever it must, for a collection or a preemption: its signal
// ends the wait with EINTR, and the loop goes round.
func waitEvents(epfd int, events []unix.EpollEvent, msec int, keep bool) (int, error) {
	if !keep {
		return unix.EpollWait(epfd, events, msec)
	}
	msec = min(msec, int(keepPFor/time.Millisecond))
	n, _, e := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), uintptr(msec), 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(n), nil
}
