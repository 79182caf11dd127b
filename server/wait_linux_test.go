//go:build linux

package server

import (
	"context"
	"net"
	"runtime"
	"testing"
	"time"
)

// TestCollectorStopsAWaitingLoop: the loop waits for events in a raw
// system call that keeps its P (waitEvents); the collector, which must
// stop every P, still stops it at once. The loop here has nothing to do
// for an hour (its tick), so a wait the runtime could not interrupt would
// hold every collection, and the whole process with it, for that long:
// this test then hangs until the test binary's timeout (seen, with every
// signal blocked during the wait).
func TestCollectorStopsAWaitingLoop(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one P: the loop waits in an ordinary system call")
	}
	r, err := NewReactor(Config{TickEvery: time.Hour})
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
	c, err := net.Dial("tcp", l.Addr().String()) // the loop is up and has gone back to waiting
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := make(chan struct{})
	go func() {
		for range 5 {
			runtime.GC()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("a collection waited for the loop's epoll_wait to time out")
	}
}
