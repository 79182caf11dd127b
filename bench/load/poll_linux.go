package load

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Why a poll loop. With a goroutine per connection the load generator could
// not see below about half a millisecond against the minimal relay (p50
// 0.68 ms at 13.7k guesses/s, 100 games, GOMAXPROCS 1), while a C client
// sees 0.09 ms. Open-loop guesses are timed from their intended send time,
// and the sender waited for that time with time.Sleep: when the runtime has
// nothing to run it waits for its next timer in epoll_wait, whose timeout is
// in whole milliseconds (any wait under 1 ms becomes 1 ms), so a sleeping
// sender woke on average half a millisecond late, and that lateness was
// counted as relay latency. On top of that each relayed guess went through
// the scheduler twice (netpoll wakes the reader, the reader's timer wakes it
// again). The poll loop is what the C client does: one OS thread per loop
// waits in epoll_wait on its clients' sockets and on a timerfd armed to the
// nanosecond for the next scheduled guess, reads, answers and writes in
// place, and never parks a goroutine.

// timerKind is what a poll-loop timer does when it fires.
type timerKind uint8

const (
	timerGuess  timerKind = iota // send the client's scheduled guess
	timerInvite                  // invite again (the partner was busy)
)

type timer struct {
	at   int64 // fleet ns
	c    *client
	kind timerKind
}

// timers is a binary min-heap by at. It is not container/heap's: that
// boxes each timer in an interface, an allocation per push and per pop,
// which is one of each per guess in open loop.
type timers []timer

// push adds t.
func (h *timers) push(t timer) {
	s := append(*h, t)
	for i := len(s) - 1; i > 0; {
		up := (i - 1) / 2
		if s[up].at <= s[i].at {
			break
		}
		s[up], s[i] = s[i], s[up]
		i = up
	}
	*h = s
}

// pop removes and returns the earliest timer; h must not be empty.
func (h *timers) pop() timer {
	s := *h
	t, n := s[0], len(s)-1
	s[0], s[n] = s[n], timer{} // the client is not kept alive by the array
	s = s[:n]
	for i := 0; ; {
		m := 2*i + 1
		if m >= n {
			break
		}
		if r := m + 1; r < n && s[r].at < s[m].at {
			m = r
		}
		if s[i].at <= s[m].at {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return t
}

// poller is one poll loop: the game clients it plays, on one OS thread.
type poller struct {
	f       *Fleet
	epfd    int
	wakefd  int // eventfd: new clients, or the fleet is stopping
	timerfd int
	// awaitfd is a second epoll set holding, one-shot, the sockets of the
	// clients awaiting their opponent's guess (awaiting), looked at while
	// the loop reads a batch (readAwaited)
	awaitfd   int
	awaited   []unix.EpollEvent // readAwaited's events
	nAwaiting int               // clients awaiting: at most maxAwaiting
	armed     int64             // the deadline timerfd is armed for; 0 none

	mu       sync.Mutex
	incoming []*client
	closed   bool

	clients map[int]*client // by fd; loop only
	timers  timers          // loop only
	buf     []byte
	oob     []byte // control messages: the receive timestamp
	// msg and iov are recv's message header, the loop's own: unix.Recvmsg
	// allocates a socket address every call
	msg unix.Msghdr
	iov unix.Iovec
}

// newPoller makes a poll loop's descriptors: its epoll sets, wake-up
// eventfd and timerfd.
func newPoller(f *Fleet) (*poller, error) {
	p := &poller{f: f, clients: map[int]*client{}, buf: make([]byte, 64<<10), oob: make([]byte, 128), awaited: make([]unix.EpollEvent, 256)}
	var err error
	if p.epfd, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		return nil, fmt.Errorf("load: epoll_create1: %w", err)
	}
	if p.awaitfd, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		unix.Close(p.epfd)
		return nil, fmt.Errorf("load: epoll_create1: %w", err)
	}
	if p.wakefd, err = unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC); err != nil {
		unix.Close(p.epfd)
		unix.Close(p.awaitfd)
		return nil, fmt.Errorf("load: eventfd: %w", err)
	}
	if p.timerfd, err = unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC); err != nil {
		unix.Close(p.epfd)
		unix.Close(p.awaitfd)
		unix.Close(p.wakefd)
		return nil, fmt.Errorf("load: timerfd: %w", err)
	}
	for _, fd := range []int{p.wakefd, p.timerfd} {
		unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)})
	}
	return p, nil
}

// loopCPUs is the number of CPUs the process may run on (its affinity),
// at least one.
func loopCPUs() int {
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) != nil {
		return max(runtime.GOMAXPROCS(0), 1)
	}
	return max(set.Count(), 1)
}

// A loop waits in epoll_wait, a system call, between its events. With as
// many Ps as loops (GOMAXPROCS 1 on the bench's one pinned CPU) the
// runtime's monitor takes a waiting loop's P after 20 µs, there being no
// idle P, and so keeps waking to watch the loop's every wait: in a login
// storm at 2,000 guesses/s its thread had 8.6% of the loop's CPU's
// samples (perf), retaking the P (runtime.retake), and a loop back from
// its wait had to get a P again, behind whatever goroutine had it. With
// a P besides the loops' the monitor leaves a wait under 10 ms alone and
// the loop comes back to its own P; in the same storm the monitor
// hardly showed (runtime.sysmon 0.1%). So startPollers raises GOMAXPROCS
// to one more than the loops; on one CPU the kernel, not the runtime,
// shares it.

// startPollers starts n poll loops, each ending when the fleet closes,
// with a P each and one besides.
func (f *Fleet) startPollers(n int) error {
	if runtime.GOMAXPROCS(0) <= n {
		runtime.GOMAXPROCS(n + 1)
	}
	for range n {
		p, err := newPoller(f)
		if err != nil {
			return err
		}
		f.pollers = append(f.pollers, p)
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			p.run()
		}()
	}
	return nil
}

// stopPollers wakes every loop; each sees the fleet stopping and ends.
func (f *Fleet) stopPollers() {
	for _, p := range f.pollers {
		p.wake()
	}
}

func (p *poller) wake() {
	one := [8]byte{1}
	unix.Write(p.wakefd, one[:])
}

// adopt moves a logged-in client's socket from the runtime's poller to
// one of the fleet's loops; the error leaves c on its connection.
func (f *Fleet) adopt(c *client) error {
	tc, ok := c.conn.(*net.TCPConn)
	if !ok {
		return errors.New("not a TCP connection")
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return err
	}
	fd := -1
	var derr error
	if err := rc.Control(func(s uintptr) { fd, derr = unix.Dup(int(s)) }); err != nil {
		return err
	}
	if derr != nil {
		return derr
	}
	// the duplicate shares the socket (and its O_NONBLOCK); closing the
	// net.Conn takes the original out of the runtime's epoll set
	c.conn.Close()
	c.fd = fd
	k := c.i
	if c.mate != nil {
		k = min(k, c.mate.i) // a game's two clients share a loop (awaiting)
	}
	c.loop = f.pollers[k%len(f.pollers)]
	p := c.loop
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		unix.Close(fd) // the fleet is closing
		return nil
	}
	p.incoming = append(p.incoming, c)
	p.mu.Unlock()
	p.wake()
	return nil
}

// run is the loop: wait, read and answer, fire due timers, re-arm.
func (p *poller) run() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// timerfd expiries are exact; the thread's default slack (50 µs) would
	// still apply to anything else it sleeps in
	unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	defer p.close()
	events := make([]unix.EpollEvent, 256)
	for {
		n, err := unix.EpollWait(p.epfd, events, -1)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return
		}
		if !p.dispatch(events[:max(n, 0)]) {
			return
		}
		p.fire()
	}
}

// Between two events of a batch the loop looks at the clock, and fires
// the timers that are due and asks awaitfd for the answers awaited once
// awaitEvery has passed since it last asked. A storm's presence makes
// hundreds of the loop's sockets readable at once, each read taking a few
// microseconds, tens when a read holds a whole storm's notices (1,000 of
// them, 9 KB): when the timers were looked at only after a batch, a guess
// that fell due meanwhile waited for all of it (13.7 ms for the 255
// sockets of TestGuessNotHeldByAReadBurst), and when they were looked at
// every 16 events, for up to 16 such reads, half a millisecond. A look at
// the clock costs tens of nanoseconds, an empty epoll_wait a microsecond:
// awaitfd is asked at most every awaitEvery.
const awaitEvery = 50 * time.Microsecond

// dispatch handles what one epoll_wait returned, firing the timers as
// they fall due and, in a batch of more than one socket, reading the
// awaited answers first (readAwaited); false when the fleet is stopping.
func (p *poller) dispatch(events []unix.EpollEvent) bool {
	var scratch [8]byte
	asked := p.f.now()
	for i, ev := range events {
		if i > 0 {
			now := p.fireDue()
			if p.nAwaiting > 0 && time.Duration(now-asked) >= awaitEvery {
				p.readAwaited()
				asked = p.f.now()
			}
		}
		switch fd := int(ev.Fd); fd {
		case p.wakefd:
			unix.Read(p.wakefd, scratch[:])
			if p.f.stopping.Load() {
				return false
			}
			p.mu.Lock()
			in := p.incoming
			p.incoming = nil
			p.mu.Unlock()
			for _, c := range in {
				p.start(c)
			}
		case p.timerfd:
			unix.Read(p.timerfd, scratch[:])
			p.armed = 0
		default:
			if c := p.clients[fd]; c != nil {
				p.read(c)
			}
		}
	}
	return true
}

// start takes a client on: its first move and what arrived with the login.
func (p *poller) start(c *client) {
	p.clients[c.fd] = c
	ok := true
	if c.role == inviter {
		ok = c.invite()
	}
	if ok && len(c.pending) > 0 {
		rest, err := c.feed(c.pending, c.handle)
		ok = err == nil && rest == nil
	}
	c.pending, c.buf = nil, nil
	if !ok {
		p.drop(c)
		return
	}
	// the kernel stamps each arriving packet (for loopback, as the server
	// writes it); Wire latencies are measured from these stamps
	unix.SetsockoptInt(c.fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
	if err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, c.fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(c.fd)}); err != nil {
		p.drop(c)
	}
}

func (p *poller) read(c *client) {
	n, oobn, err := p.recv(c.fd)
	if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
		return
	}
	if n <= 0 || err != nil {
		p.drop(c)
		return
	}
	c.rx = rxStamp(p.oob[:oobn])
	rest, err := c.feed(p.buf[:n], c.handle)
	c.rx = 0
	if err != nil || rest != nil {
		p.drop(c)
	}
}

// recv is recvmsg(2) on the non-blocking socket fd into p.buf, with its
// control messages into p.oob. It allocates nothing: a storm's presence is
// thousands of reads a second, each a socket address of garbage through
// unix.Recvmsg, collected on the load generator's one P (docs/performance.md,
// "The load generator"). Like unix.Read it returns -1
// with the error.
func (p *poller) recv(fd int) (n, oobn int, err error) {
	p.iov = unix.Iovec{Base: &p.buf[0]}
	p.iov.SetLen(len(p.buf))
	p.msg = unix.Msghdr{Iov: &p.iov, Control: &p.oob[0]}
	p.msg.SetIovlen(1)
	p.msg.SetControllen(len(p.oob))
	r, _, e := unix.RawSyscall(unix.SYS_RECVMSG, uintptr(fd), uintptr(unsafe.Pointer(&p.msg)), 0)
	if e != 0 {
		return -1, 0, e
	}
	return int(r), int(p.msg.Controllen), nil
}

// rxStamp finds SCM_TIMESTAMPNS in a read's control messages: when the
// kernel received the last packet the read returned bytes of (wall clock
// ns), 0 if absent. For a segment that came in an earlier packet of the
// same read, it is late: a Wire latency is never understated.
func rxStamp(oob []byte) int64 {
	for len(oob) > 0 {
		h, data, rest, err := unix.ParseOneSocketControlMessage(oob)
		if err != nil {
			return 0
		}
		if h.Level == unix.SOL_SOCKET && h.Type == unix.SCM_TIMESTAMPNS && len(data) >= int(unsafe.Sizeof(unix.Timespec{})) {
			return (*unix.Timespec)(unsafe.Pointer(&data[0])).Nano()
		}
		oob = rest
	}
	return 0
}

func (p *poller) drop(c *client) {
	if c.fd < 0 {
		return
	}
	unix.EpollCtl(p.epfd, unix.EPOLL_CTL_DEL, c.fd, nil)
	unix.Close(c.fd)
	delete(p.clients, c.fd)
	c.fd = -1
	c.answered()
	c.ended()
}

// The answer to a guess arrives on the opponent's socket among whatever
// else the server writes there. In a login storm the server's presence
// sweep (a round every 50 ms, server/engine_output.go) writes notices to
// every player within a few milliseconds, so each round makes the 2,000
// players' sockets readable at once, and epoll reports them in the order
// they became readable: a guess that arrived meanwhile waited for the loop
// to read all those before it, about 10 ms (read late p99 9.6-11.6 ms in
// three storms at 2,000 guesses/s, while the kernel-to-kernel p99 was
// 0.4-1.2 ms). A player on a machine of its own reads its one socket at
// once; to measure what it would see, the loop reads the sockets awaiting
// an answer ahead of the rest: the client that sends a guess in open loop
// puts its opponent's socket in awaitfd (one-shot), and while it reads a
// batch of sockets the loop asks awaitfd, without waiting, which of them
// are readable, every awaitEvery.

// Near saturation a loop's time goes to guesses, not presence, and nearly
// every game has one in flight: reading the awaited first would only
// reorder guesses, for an epoll_ctl per guess on a CPU with none to spare.
// In the storm at half saturation (about 70,000 guesses/s) the read late
// p99 was 13-29 ms with awaitfd, against 3-9 ms without it. So answers
// are awaited only at rates up to awaitBelow per loop (Fleet.SetRate),
// and at most maxAwaiting of a loop's players await at once (a loop that
// stalls has many guesses in flight).
const (
	awaitBelow  = 20000 // guesses/s per loop
	maxAwaiting = 64
)

// awaiting puts c's socket in awaitfd: its opponent has sent a guess.
func (p *poller) awaiting(c *client) {
	if c.fd < 0 {
		return
	}
	if !c.awaits {
		if p.nAwaiting >= maxAwaiting {
			return
		}
		p.nAwaiting++
		c.awaits = true
	}
	ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLONESHOT, Fd: int32(c.fd)}
	op := unix.EPOLL_CTL_MOD
	if !c.inAwait {
		op = unix.EPOLL_CTL_ADD
	}
	if unix.EpollCtl(p.awaitfd, op, c.fd, &ev) == nil {
		c.inAwait = true
	}
}

// answered ends c's wait, if it was awaiting.
func (c *client) answered() {
	if c.awaits {
		c.awaits = false
		c.loop.nAwaiting--
	}
}

// readAwaited reads the awaited sockets that are readable. One that
// yielded only presence (the answer is still on its way) is put back. A
// socket whose answer the loop has read meanwhile is still in awaitfd
// (taking it out would be a system call per guess) and comes out with
// the next presence it receives; that spends its one shot, and it is
// left to the loop. In a storm's presence that is nearly every player at
// once, so the events are taken until none is left (once they were read
// here, 64 at a time, and the answers awaited waited behind them).
func (p *poller) readAwaited() {
	for {
		n, err := unix.EpollWait(p.awaitfd, p.awaited, 0)
		if err != nil {
			return
		}
		for _, ev := range p.awaited[:n] {
			c := p.clients[int(ev.Fd)]
			if c == nil || !c.awaits {
				continue
			}
			p.read(c)
			if c.fd >= 0 && c.awaits {
				p.awaiting(c)
			}
			p.fireDue() // a read may hold a whole storm's notices
		}
		if n < len(p.awaited) {
			return
		}
	}
}

// after schedules c's timer of the given kind at fleet time at.
func (p *poller) after(at int64, c *client, kind timerKind) {
	p.timers.push(timer{at, c, kind})
}

// fireDue runs the timers that are due, if one is, and returns the time
// it looked at. The timerfd is armed once, before the loop waits (fire):
// a timerfd_settime(2) whenever a timer ran between two events was a
// system call per guess near saturation.
func (p *poller) fireDue() int64 {
	now := p.f.now()
	if len(p.timers) > 0 && p.timers[0].at <= now {
		p.runDue()
	}
	return now
}

// fire runs every due timer and arms the timerfd for the next one.
func (p *poller) fire() {
	now := p.runDue()
	if len(p.timers) == 0 || p.timers[0].at == p.armed {
		return
	}
	next := p.timers[0].at
	its := unix.ItimerSpec{Value: unix.NsecToTimespec(max(next-now, 1))}
	if unix.TimerfdSettime(p.timerfd, 0, &its, nil) == nil {
		p.armed = next
	}
}

// runDue runs every due timer and returns the time it last looked at.
func (p *poller) runDue() int64 {
	now := p.f.now()
	for len(p.timers) > 0 && p.timers[0].at <= now {
		t := p.timers.pop()
		if t.c.fd < 0 {
			continue
		}
		var ok bool
		switch t.kind {
		case timerGuess:
			ok = t.c.send(t.at)
		case timerInvite:
			ok = t.c.invite()
		}
		if !ok {
			p.drop(t.c)
		}
		now = p.f.now()
	}
	return now
}

// write sends b whole on fd. A full send buffer (the server not reading)
// blocks the loop until it drains: the clients of a loop wait for a server
// that far behind anyway.
func (p *poller) write(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Write(fd, b)
		switch {
		case errors.Is(err, unix.EAGAIN):
			pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
			if _, err := unix.Poll(pfd, 1000); err != nil && !errors.Is(err, unix.EINTR) {
				return fmt.Errorf("load: poll: %w", err)
			}
			if p.f.stopping.Load() {
				return errStop
			}
			continue
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return fmt.Errorf("load: write: %w", err)
		}
		b = b[n:]
	}
	return nil
}

// close ends the loop's clients and its descriptors.
func (p *poller) close() {
	for _, c := range p.clients {
		p.drop(c)
	}
	p.mu.Lock()
	p.closed = true
	for _, c := range p.incoming {
		unix.Close(c.fd)
	}
	p.incoming = nil
	p.mu.Unlock()
	unix.Close(p.timerfd)
	unix.Close(p.wakefd)
	unix.Close(p.awaitfd)
	unix.Close(p.epfd)
}
