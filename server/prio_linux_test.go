//go:build linux

package server

import (
	"context"
	"net/netip"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/bomber-game/bomber/statemachine"
)

// TestAccountWorkersYieldToTheLoop: an account check (password hashing)
// runs on a thread with a lower scheduling priority than the engine's, so
// when both want one CPU the kernel runs the loop first.
func TestAccountWorkersYieldToTheLoop(t *testing.T) {
	got := make(chan int, 1)
	cfg := Config{Check: func(context.Context, statemachine.Check) statemachine.Answer {
		p, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
		if err != nil {
			t.Error(err)
		}
		got <- p
		return statemachine.Found
	}}
	cfg.defaults()
	p := newPool(cfg, func() {})
	t.Cleanup(func() { p.close(context.Background()) })
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	loop, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	if !p.check(statemachine.Check{ID: 1, Conn: 1, Kind: statemachine.Verify, User: "Larry"}, netip.MustParseAddr("127.0.0.1")) {
		t.Fatal("check refused")
	}
	// the raw getpriority(2) value is 20 - nice: lower is less favoured
	if w := <-got; w >= loop {
		t.Fatalf("the account worker's thread has priority %d, the loop's %d: hashing competes with the loop as an equal", w, loop)
	}
	<-p.results
}
