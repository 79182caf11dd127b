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
	"time"

	"golang.org/x/sys/unix"

	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/statemachine"
)

// thread is what a goroutine's thread looks like to the kernel.
type thread struct {
	prio int // the raw getpriority(2) value, 20 - nice: lower is less favoured
	cpus unix.CPUSet
	name string
}

// thisThread describes the calling goroutine's thread.
func thisThread(t *testing.T) thread {
	var s thread
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
	return s
}

// TestPoolThreadsYieldToTheLoop: an account check (password hashing) and
// a batch of game records (the store's work) run on threads with a lower
// scheduling priority than the engine's, so when both want one CPU the
// kernel runs the loop first; and, when the process may use more than one
// CPU, off the first of them, which is left to the loop.
func TestPoolThreadsYieldToTheLoop(t *testing.T) {
	checked, recorded := make(chan thread, 1), make(chan thread, 1)
	cfg := Config{
		Check: func(context.Context, statemachine.Check) statemachine.Answer {
			checked <- thisThread(t)
			return statemachine.Found
		},
		Record: func(_ context.Context, fs []FinishedGame) (int, error) {
			recorded <- thisThread(t)
			return len(fs), nil
		},
		RecordDelay: -1,
	}
	cfg.defaults()
	p := newPool(cfg, func() {})
	t.Cleanup(func() { p.close(context.Background()) })
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	loop := thisThread(t)
	if !p.check(statemachine.Check{ID: 1, Conn: 1, Kind: statemachine.Verify, User: "Larry"}, netip.MustParseAddr("127.0.0.1")) {
		t.Fatal("check refused")
	}
	p.record(record.Game{Game: "bomber"}, time.Time{}, time.Time{})
	for _, c := range []struct {
		what, name, work string
		got              chan thread
	}{
		{"account worker", "bomberd-account", "hashing", checked},
		{"recorder", "bomberd-record", "a batch of records", recorded},
	} {
		w := <-c.got
		if w.name != c.name {
			t.Errorf("the %s's thread is named %q: an operator's top -H cannot tell it from the loop", c.what, w.name)
		}
		if w.prio >= loop.prio {
			t.Errorf("the %s's thread has priority %d, the loop's %d: %s competes with the loop as an equal", c.what, w.prio, loop.prio, c.work)
		}
		all := loop.cpus
		first := -1
		for i := 0; first < 0 && i < len(all)*64; i++ {
			if all.IsSet(i) {
				first = i
			}
		}
		switch {
		case all.Count() >= 2 && (w.cpus.IsSet(first) || w.cpus.Count() != all.Count()-1):
			t.Errorf("the %s may run on %d of the %d CPUs, CPU %d included: %s can take the loop's CPU while another is free", c.what, w.cpus.Count(), all.Count(), first, c.work)
		case all.Count() < 2 && w.cpus != all:
			t.Errorf("with one CPU the %s's affinity changed (%d CPUs)", c.what, w.cpus.Count())
		}
	}
	<-p.results
}
