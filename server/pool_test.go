package server

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/bomber-game/bomber/statemachine"
)

// TestCheckNeverWaitsForTheWorkersLock: the engine's goroutine hands a
// login's password check to the pool without waiting for the lock the
// workers take. A worker runs at a lower priority; preempted while it
// holds that lock (scanning a long queue), it kept the loop, and every
// guess the loop was to relay, waiting for milliseconds (seen in an
// execution trace of a login storm: up to 7.7 ms). Here the lock is held
// as by such a worker: admitting checks must still answer at once, the
// limits must still hold, and the checks must reach the workers once the
// lock is free.
func TestCheckNeverWaitsForTheWorkersLock(t *testing.T) {
	cfg := Config{QueueLen: 4, Workers: 1, Check: func(context.Context, statemachine.Check) statemachine.Answer { return statemachine.Found }}
	cfg.defaults()
	p := newPool(cfg, func() {})
	t.Cleanup(func() { p.close(context.Background()) })
	src := netip.MustParseAddr("192.0.2.1")

	p.qmu.Lock() // a worker, preempted with the lock held
	admitted := make(chan int, 1)
	go func() { // the engine's goroutine
		n := 0
		for i := range 10 {
			if p.check(statemachine.Check{ID: uint64(i + 1), Conn: statemachine.ConnID(i + 1), Kind: statemachine.Lookup, User: "Larry"}, src) {
				n++
			}
		}
		admitted <- n
	}()
	var n int
	select {
	case n = <-admitted:
	case <-time.After(10 * time.Second):
		p.qmu.Unlock()
		t.Fatal("the engine's goroutine waited for the workers' lock to admit a check")
	}
	if want := cfg.QueueLen + cfg.Workers; n != want {
		t.Fatalf("%d of 10 checks admitted while the lock was held; the bound is %d", n, want)
	}
	if !p.owes() {
		t.Fatal("the admitted checks are not waiting for the lock")
	}
	p.qmu.Unlock()
	if p.handOver(); p.owes() {
		t.Fatal("the checks were not handed over with the lock free")
	}
	for range n {
		res := <-p.results
		p.answered(res.id)
	}
	if p.adm.byKind[statemachine.Lookup] != 0 || len(p.adm.byID) != 0 || len(p.adm.byConn) != 0 {
		t.Fatalf("answered checks still counted: %+v", p.adm)
	}
}
