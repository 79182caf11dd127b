//go:build linux

package server

import (
	"context"
	"net"
	"runtime"
	"testing"
	"time"
)

// TestLoopKeepsItsPOnlyWhileBusy: the loop holds its P through a wait only
// when bomberd asked for it, the process has another P for everything
// else, and traffic flowed within keepPFor; an idle daemon waits in an
// ordinary system call and leaves its P to the rest of the process.
func TestLoopKeepsItsPOnlyWhileBusy(t *testing.T) {
	for _, c := range []struct {
		keep  bool
		procs int
		since time.Duration
		want  bool
	}{
		{true, 2, 0, true},
		{true, 2, keepPFor - time.Microsecond, true},
		{true, 2, keepPFor, false},  // idle: the P goes back
		{true, 1, 0, false},         // the only P: the account workers need it
		{false, 4, 0, false},        // not asked for (tests, tools, a cluster's nodes in one process)
		{true, 8, time.Hour, false}, // long idle
	} {
		if got := keepsP(c.keep, c.procs, c.since); got != c.want {
			t.Errorf("keepsP(%v, %d, %v) = %v, want %v", c.keep, c.procs, c.since, got, c.want)
		}
	}
}

// TestCollectorStopsALoopKeepingItsP: while connections keep arriving the
// loop waits for events in a raw system call that keeps its P
// (waitEvents); collections, which must stop every P, still stop it at
// once. The loop's tick is an hour away, so a wait the runtime could not
// interrupt would hold each collection for up to keepPFor and the test's
// dialer with it; one it could never interrupt (every signal blocked
// during the wait, seen in an earlier version) hangs this test until its
// deadline.
func TestCollectorStopsALoopKeepingItsP(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one P: the loop waits in an ordinary system call")
	}
	_, addr := serveReactor(t, Config{TickEvery: time.Hour, KeepP: true})
	done := make(chan struct{})
	dialed := make(chan int)
	go func() { // each connection is an event: the loop keeps its P
		n := 0
		defer func() { dialed <- n }()
		for {
			select {
			case <-done:
				return
			default:
			}
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			c.Close()
			n++
			time.Sleep(500 * time.Microsecond)
		}
	}()
	collected := make(chan struct{})
	go func() {
		for range 20 {
			runtime.GC()
		}
		close(collected)
	}()
	select {
	case <-collected:
	case <-time.After(time.Minute):
		t.Fatal("collections waited on the loop's epoll_wait")
	}
	close(done)
	if n := <-dialed; n == 0 {
		t.Fatal("no connection reached the loop while it was collected")
	}
}

// serveReactor starts a reactor with cfg on a loopback port, shut down when
// the test ends, and returns it with its address.
func serveReactor(t *testing.T, cfg Config) (*Reactor, string) {
	t.Helper()
	r, err := NewReactor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() { r.Serve(l); close(served) }()
	t.Cleanup(func() {
		r.Shutdown(context.Background())
		<-served
	})
	return r, l.Addr().String()
}
