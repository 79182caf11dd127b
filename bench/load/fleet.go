package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Config is what a fleet needs.
type Config struct {
	Addr         string        // the server, host:port
	Addrs        []string      // a cluster's nodes, used round-robin by user number instead of Addr
	WS           string        // when set, the WebSocket gateway's URL (ws://host:port/ws): clients connect there instead of Addr
	Sources      []string      // local source addresses, used round-robin; none: the kernel's choice
	Password     string        // every user's password; "" means "123"
	LoginTimeout time.Duration // dial plus login, per connection; 0: 60s
	Concurrency  int           // logins in flight at once; 0: 256
	Seed         uint64        // boards and guess orders
	// Relay: the server is the minimal relay of bench/relay, not bomberd:
	// each client sends only Info(its game's inviter) to be paired, and
	// games start by exchanging boards instead of invitations.
	Relay bool
	// Goroutines plays each game connection on its own goroutine with
	// blocking reads and time.Sleep, as the load generator did before its
	// poll loops (kept to compare; see poll_linux.go). WebSocket clients
	// always do.
	Goroutines bool
}

// Name is the user name of client i: u000000, u000001, ...
func Name(i int) string { return fmt.Sprintf("u%06d", i) }

// Fleet is a set of simulated clients against one server.
type Fleet struct {
	cfg    Config
	st     *stats
	start  time.Time
	boards []board
	seq    atomic.Uint64

	recording atomic.Bool  // latencies go into the histograms
	interval  atomic.Int64 // open loop: ns between one game's guesses; 0 closed loop
	awaitOn   atomic.Bool  // open loop below awaitBelow: answers awaited are read first (poller.awaiting)
	epoch     atomic.Int64 // changes with the rate, restarting every schedule
	stopping  atomic.Bool
	games     atomic.Int64

	mu      sync.Mutex
	conns   []net.Conn
	stopped bool
	wg      sync.WaitGroup

	pollOnce sync.Once
	pollErr  error
	pollers  []*poller // the poll loops game clients move to after login; nil: goroutines
}

// New returns an empty fleet.
func New(cfg Config) *Fleet {
	if cfg.Password == "" {
		cfg.Password = "123"
	}
	if cfg.LoginTimeout <= 0 {
		cfg.LoginTimeout = 60 * time.Second
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 256
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xb0b))
	return &Fleet{cfg: cfg, st: newStats(), start: time.Now(), boards: randomBoards(rng, 256)}
}

// now is fleet time in nanoseconds (monotonic).
func (f *Fleet) now() int64 { return int64(time.Since(f.start)) }

// track remembers conn for Close; false once the fleet is closing.
func (f *Fleet) track(c *client, conn net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return false
	}
	f.conns = append(f.conns, conn)
	return true
}

func (f *Fleet) newClient(i int, r role) *client {
	return &client{f: f, i: i, name: Name(i), role: r, fd: -1, rng: rand.New(rand.NewPCG(f.cfg.Seed, f.seq.Add(1)))}
}

// launch starts the clients and waits until each has logged in or failed;
// it returns the first failure. concurrency 0 means the configured one.
func (f *Fleet) launch(ctx context.Context, cs []*client, concurrency int) error {
	if concurrency <= 0 {
		concurrency = f.cfg.Concurrency
	}
	sem := make(chan struct{}, concurrency)
	done := make(chan error, len(cs))
	for _, c := range cs {
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			c.run(ctx, sem, done)
		}()
	}
	var first error
	for range cs {
		if err := <-done; err != nil && first == nil && !errors.Is(err, errStop) {
			first = err
		}
	}
	return first
}

// Idle logs in users first .. first+n-1 as idle clients (they read and
// discard whatever the server sends) and returns when all have logged in.
func (f *Fleet) Idle(ctx context.Context, first, n, concurrency int) error {
	cs := make([]*client, n)
	for k := range cs {
		cs[k] = f.newClient(first+k, idle)
	}
	return f.launch(ctx, cs, concurrency)
}

// Games logs in users first .. first+2*games-1 as pairs (the even one
// invites the odd one) and starts their games; it returns once every client
// has logged in (the inviters log in after their partners, then invite).
func (f *Fleet) Games(ctx context.Context, first, games int) error {
	if !f.cfg.Goroutines && f.cfg.WS == "" {
		// one loop per CPU the process may run on: pinned to one (the
		// bench), the whole fleet's games are one thread
		f.pollOnce.Do(func() { f.pollErr = f.startPollers(loopCPUs()) })
		if f.pollErr != nil {
			return f.pollErr
		}
	}
	invitees := make([]*client, games)
	inviters := make([]*client, games)
	for k := range games {
		g := &game{}
		a, b := f.newClient(first+2*k, inviter), f.newClient(first+2*k+1, invitee)
		a.partner, b.partner = b.name, a.name
		a.mate, b.mate = b, a
		a.g, b.g = g, g
		inviters[k], invitees[k] = a, b
	}
	if err := f.launch(ctx, invitees, 0); err != nil {
		return err
	}
	f.games.Add(int64(games))
	return f.launch(ctx, inviters, 0)
}

// SetRate switches to open loop at total guesses per second over all games
// (each game guesses every games/total seconds); 0 is closed loop.
func (f *Fleet) SetRate(total float64) {
	iv := int64(0)
	if total > 0 {
		iv = int64(float64(f.games.Load()) / total * 1e9)
	}
	f.interval.Store(iv)
	f.awaitOn.Store(total > 0 && total <= awaitBelow*float64(max(len(f.pollers), 1)))
	f.epoch.Add(1)
}

// Record turns latency recording on or off.
func (f *Fleet) Record(on bool) { f.recording.Store(on) }

// Counters reads the running totals.
func (f *Fleet) Counters() Counters { return f.st.counters() }

// TakeLatency returns the latencies recorded since the last call and
// starts a fresh histogram.
func (f *Fleet) TakeLatency() *hdrhistogram.Histogram {
	return f.st.takeHistogram().Relay
}

// TakeLatencies is TakeLatency with the histograms that tell the load
// generator's part of it from the server's.
func (f *Fleet) TakeLatencies() Latencies { return f.st.takeHistogram() }

// Close stops every client and waits (at most timeout) for them to end.
func (f *Fleet) Close(timeout time.Duration) error {
	f.stopping.Store(true)
	f.mu.Lock()
	f.stopped = true
	conns := f.conns
	f.conns = nil
	f.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
	f.pollOnce.Do(func() {}) // no loop starts from now on
	f.stopPollers()
	done := make(chan struct{})
	go func() { f.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("load: %d connections closed but clients still running after %v", len(conns), timeout)
	}
}
