// Package servertest starts an in-process server on loopback for tests of
// the packages that talk to one (clients, capture, replay, load).
package servertest

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// Start serves cfg on 127.0.0.1 with the net transport (with reactor set,
// the epoll reactor) until the test ends, and returns its address and the
// transport. A nil cfg.Check answers from the demo accounts (password 123);
// a zero TickEvery ticks every 5 ms.
func Start(tb testing.TB, cfg server.Config, reactor bool) (string, server.Transport) {
	tb.Helper()
	if cfg.Check == nil {
		cfg.Check = replay.DemoAccounts().Check
	}
	if cfg.TickEvery == 0 {
		cfg.TickEvery = 5 * time.Millisecond
	}
	var tr server.Transport
	if reactor {
		r, err := server.NewReactor(cfg)
		if err != nil {
			tb.Fatal(err)
		}
		tr = r
	} else {
		tr = server.NewNetTransport(cfg)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	served := make(chan struct{})
	go func() { tr.Serve(l); close(served) }()
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tr.Shutdown(ctx); err != nil {
			tb.Errorf("shutdown: %v", err)
		}
		<-served
	})
	return l.Addr().String(), tr
}

// Clock is a clock tests move by hand; it satisfies server.Clock.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock standing at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// WaitIdle waits until tr has no connection left (every client's hang-up
// has been seen), or fails the test when ctx ends.
func WaitIdle(ctx context.Context, tb testing.TB, tr server.Transport) {
	tb.Helper()
	for {
		ss, err := tr.Sessions(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		if len(ss) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			tb.Fatalf("connections still open: %+v", ss)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Drain waits until every client has hung up, then shuts tr down (a test
// that must read what a Tap wrote calls it before closing the Tap; the
// shutdown Start registers for cleanup then finds nothing left to do).
func Drain(tb testing.TB, tr server.Transport) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	WaitIdle(ctx, tb, tr)
	if err := tr.Shutdown(ctx); err != nil {
		tb.Fatal(err)
	}
}
