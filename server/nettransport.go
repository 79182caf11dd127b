package server

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"time"
)

// NetTransport serves over the net package with a goroutine per connection
// for reading and one for writing; the engine still runs on one goroutine.
// It works on every system and under TLS, and is the baseline the reactor
// is measured against.
type NetTransport struct {
	door
	cfg    Config
	pool   *pool
	wakeCh chan struct{}

	mu        sync.Mutex
	listeners []net.Listener
	startOnce sync.Once
	stopped   bool
}

// host is the loop a goroutine-per-connection conn belongs to: the net
// transport's, or the reactor's for listeners it cannot poll (TLS).
type host interface {
	// post runs f on the loop; false once the loop has stopped.
	post(f func()) bool
	engine() *engine
}

type nconn struct {
	outbox
	nc    net.Conn
	chunk int // the most one Write holds (chunkFor)
}

// stallAfter is how long the writer may sit in one Write before the output
// queued behind it counts as unread; hardCap bounds the queue regardless.
// stuckAfter is how long in one Write makes its connection a slow reader
// to the bound on all connections' output (engine.shedOutput): long
// enough that a writer merely waiting for a CPU is not taken for one.
const (
	stallAfter = time.Second
	hardCap    = 8
	stuckAfter = 100 * time.Millisecond
)

// NewNetTransport returns a net-package transport.
func NewNetTransport(cfg Config) *NetTransport {
	cfg.defaults()
	t := &NetTransport{
		door:   newDoor(1024, nil), // the loop selects on its channel
		cfg:    cfg,
		wakeCh: make(chan struct{}, 1),
	}
	t.pool = newPool(cfg, func() {
		select {
		case t.wakeCh <- struct{}{}:
		default:
		}
	})
	t.pool.adm.wait = true // nothing would retry a hand-over: wait for the lock
	t.eng = newEngine(cfg, t.pool)
	t.eng.fan.on = true // the loop writes presence output a share at a time
	return t
}

func (t *NetTransport) start() { t.startOnce.Do(func() { go t.loop() }) }

// The loop paces presence as the reactor's does (engine_output.go): game
// output is written as each batch is processed, presence in rounds, a
// share of the time at a time, counting the connections' writers' time
// spent on it; the presence timer wakes the loop when the sweep is due and
// nothing else has.
func (t *NetTransport) loop() {
	defer close(t.done)
	tick := time.NewTicker(t.cfg.TickEvery)
	defer tick.Stop()
	presence := time.NewTimer(time.Hour)
	defer presence.Stop()
	for !t.stopped {
		select {
		case f := <-t.in:
			// The post that woke the loop made it the next goroutine to
			// run, ahead of the other readers the same poll woke: yield
			// once so they post too, and the iteration takes all of them
			// into one batch (one journal write, one pass of the engine)
			// as the reactor's does, instead of one per read.
			runtime.Gosched()
			t0 := time.Now()
			f()
			for i := 0; i < 256; i++ { // batch what is already waiting
				select {
				case f := <-t.in:
					f()
					continue
				default:
				}
				break
			}
			t.drainResults()
			t.eng.process()
			t.eng.obs.LoopLatency(time.Since(t0))
		case <-t.wakeCh:
			t.drainResults()
			t.eng.process()
		case <-tick.C:
			t.eng.tick()
			if t.cfg.OnLoop != nil {
				t.cfg.OnLoop()
			}
			t.eng.process()
		case <-presence.C:
		}
		// never idle to the sweep: the writers it woke may be busy while
		// the loop is not, and their time is the sweep's (presenceSpent)
		now := time.Now()
		t.eng.pacePresence(now, false)
		if !t.eng.hub.Ready().Empty() {
			t.eng.process() // the sweep closed a connection for its backlog
		}
		if t.eng.fan.pending() {
			presence.Reset(t.eng.fan.due(now))
		} else {
			presence.Stop()
			t.eng.afterBurst()
		}
	}
}

// drainResults acts on account answers a slice at a time (answerSome), as
// the reactor does: a login among 10,000 users copies a 100 KB
// user list, and with one P (GOMAXPROCS 1) nothing else runs meanwhile.
// Answers left over wake the loop again, after what else is waiting.
func (t *NetTransport) drainResults() {
	t.eng.answerSome(t.pool.results)
	if len(t.pool.results) > 0 {
		select {
		case t.wakeCh <- struct{}{}:
		default:
		}
	}
}

// Serve accepts on l until Shutdown.
func (t *NetTransport) Serve(l net.Listener) error {
	t.start()
	t.mu.Lock()
	if t.stopped {
		t.mu.Unlock()
		l.Close()
		return ErrClosed
	}
	t.listeners = append(t.listeners, l)
	t.mu.Unlock()
	return serveConns(t, l, t.done)
}

// serveConns accepts on l and runs each connection with a reader and a
// writer goroutine that hand everything to h's loop.
func serveConns(h host, l net.Listener, done <-chan struct{}) error {
	cfg := &h.engine().cfg
	sendBuf := h.engine().sendBuf
	pace := newAcceptPacer(cfg.Logger)
	for {
		nc, err := l.Accept()
		if err != nil {
			select {
			case <-done:
				return ErrClosed
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			if errors.Is(err, net.ErrClosed) {
				return ErrClosed
			}
			reason, delay := pace.failed(err)
			h.post(func() { h.engine().obs.AcceptFailed(reason) })
			select {
			case <-time.After(delay):
			case <-done:
				return ErrClosed
			}
			continue
		}
		pace.ok()
		ip := netip.Addr{}
		if ap, err := netip.ParseAddrPort(nc.RemoteAddr().String()); err == nil {
			ip = ap.Addr().Unmap()
		}
		queued := tuneConn(nc, sendBuf)
		mss := 0 // a TLS record's overhead is not in the MSS: chunkDefault
		if tcp, plain := nc.(*net.TCPConn); plain {
			if rc, err := tcp.SyscallConn(); err == nil {
				rc.Control(func(fd uintptr) { mss = tcpMSS(int(fd)) })
			}
		}
		n := &nconn{outbox: newOutbox(h, ip), nc: nc, chunk: chunkFor(mss)}
		n.kernel = queued
		if !h.post(n.opened) {
			nc.Close()
			return ErrClosed
		}
	}
}

// opened runs on the loop: limits, then the connection's goroutines.
func (n *nconn) opened() {
	e := n.t.engine()
	if reason := e.admit(n.ip); reason != "" {
		n.nc.Close()
		e.obs.ConnRejected(reason)
		return
	}
	n.admitted = true
	n.c = e.open(n, n.ip, n.nc.RemoteAddr().String())
	go n.reader()
	go n.writer()
}

// readBufs holds the readers' buffers: the loop gives one back once the
// engine has fed what was read into the connection's decoder (which copies
// it), so a read costs no 512 bytes of garbage.
var readBufs = sync.Pool{New: func() any { return new([512]byte) }}

func (n *nconn) reader() {
	defer n.nc.Close() // at the peer's close, a read error, or the end of lingerClose
	for {
		buf := readBufs.Get().(*[512]byte)
		k, err := n.nc.Read(buf[:])
		if k > 0 && n.ended() {
			k = 0 // lingering after the close (closeSocket): dropped here, not on the loop
		}
		if k > 0 {
			data := buf[:k]
			if !n.t.post(func() { n.t.engine().input(n.c, data); readBufs.Put(buf) }) {
				return
			}
		} else {
			readBufs.Put(buf)
		}
		if err != nil {
			n.t.post(n.peerClosed)
			return
		}
	}
}

func (n *nconn) writer() {
	for {
		select {
		case <-n.notify:
		case <-n.dead:
			return
		}
		out, closing, paced := n.take()
		if buf := out; len(out) > 0 {
			if closing {
				n.nc.SetWriteDeadline(time.Now().Add(5 * time.Second))
			}
			for len(out) > 0 {
				k := wholeSegments(out, n.chunk)
				if _, err := n.nc.Write(out[:k]); err != nil {
					n.account(-len(out))
					n.t.post(n.peerClosed)
					n.finish()
					return
				}
				out = out[k:]
				n.account(-k)
			}
			n.written(paced, buf)
		}
		if closing {
			n.finish()
			return
		}
	}
}

// finish ends the connection from its own goroutines (outbox.end).
func (n *nconn) finish() { n.endFromConn(n.closeSocket) }

// kill implements link: on the loop (outbox.end).
func (n *nconn) kill() { n.endOnLoop(n.closeSocket) }

// lingerClose is how long a connection the server ends keeps reading (and
// dropping) what its peer still sends, for the peer's close to come.
const lingerClose = 2 * time.Second

// closeSocket ends the connection. A TCP socket closed with input it has
// not read sends a reset, and a peer that gets it before reading the last
// bytes it was sent loses them (the Error that says why it was closed,
// after a flood): so it sends its end (FIN, after everything written) and
// leaves the reader to drop what still comes and close the socket at the
// peer's close or after lingerClose. Other sockets close at once, which
// ends a reader blocked in Read.
func (n *nconn) closeSocket() {
	if tcp, ok := n.nc.(*net.TCPConn); ok && tcp.CloseWrite() == nil && tcp.SetReadDeadline(time.Now().Add(lingerClose)) == nil {
		return
	}
	n.nc.Close()
}

// Shutdown implements Transport.
func (t *NetTransport) Shutdown(ctx context.Context) error {
	t.start()
	t.mu.Lock()
	for _, l := range t.listeners {
		l.Close()
	}
	t.mu.Unlock()
	err := t.do(ctx, func() {
		t.eng.shutdown(ctx)
		t.mu.Lock()
		t.stopped = true
		t.mu.Unlock()
	})
	if errors.Is(err, ErrClosed) {
		err = nil
	}
	if perr := t.pool.close(ctx); err == nil {
		err = perr
	}
	return err
}
