//go:build linux

package server

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/bomber-game/bomber/statemachine"
)

// TestAccountWorkersYieldToTheLoop: an account check (password hashing)
// runs on a thread with a lower scheduling priority than the engine's, so
// when both want one CPU the kernel runs the loop first; and, when the
// process may use more than one CPU, off the first of them, which is left
// free of hashing for the loop.
func TestAccountWorkersYieldToTheLoop(t *testing.T) {
	type seen struct {
		prio int
		cpus unix.CPUSet
		name string
	}
	got := make(chan seen, 1)
	cfg := Config{Check: func(context.Context, statemachine.Check) statemachine.Answer {
		var s seen
		var err error
		if s.prio, err = unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid()); err != nil {
			t.Error(err)
		}
		if err := unix.SchedGetaffinity(0, &s.cpus); err != nil {
			t.Error(err)
		}
		comm, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/comm", unix.Gettid()))
		if err != nil {
			t.Error(err)
		}
		s.name = strings.TrimSpace(string(comm))
		got <- s
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
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		t.Fatal(err)
	}
	if !p.check(statemachine.Check{ID: 1, Conn: 1, Kind: statemachine.Verify, User: "Larry"}, netip.MustParseAddr("127.0.0.1")) {
		t.Fatal("check refused")
	}
	w := <-got
	if w.name != "bomberd-account" {
		t.Errorf("the account worker's thread is named %q: an operator's top -H cannot tell it from the loop", w.name)
	}
	// the raw getpriority(2) value is 20 - nice: lower is less favoured
	if w.prio >= loop {
		t.Fatalf("the account worker's thread has priority %d, the loop's %d: hashing competes with the loop as an equal", w.prio, loop)
	}
	first := -1
	for i := 0; first < 0 && i < len(all)*64; i++ {
		if all.IsSet(i) {
			first = i
		}
	}
	switch {
	case all.Count() >= 2 && (w.cpus.IsSet(first) || w.cpus.Count() != all.Count()-1):
		t.Fatalf("the account worker may run on %d of the %d CPUs, CPU %d included: hashing can take the loop's CPU while another is free", w.cpus.Count(), all.Count(), first)
	case all.Count() < 2 && w.cpus != all:
		t.Fatalf("with one CPU the account worker's affinity changed (%d CPUs)", w.cpus.Count())
	}
	<-p.results
}
