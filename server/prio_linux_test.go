//go:build linux

package server

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/statemachine"
)

// thread is what the kernel says of the calling thread.
type thread struct {
	prio int // getpriority(2)'s raw value, 20 - nice: lower is less favoured
	cpus unix.CPUSet
	name string
}

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

// yieldsToTheLoop fails unless w, a worker's thread, is named name, has a
// lower priority than the calling thread (standing for the loop's), and,
// when the process may use several CPUs, stays off the first of them.
func yieldsToTheLoop(t *testing.T, what, name string, w thread) {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	loop := thisThread(t)
	if w.name != name {
		t.Errorf("the %s's thread is named %q: an operator's top -H cannot tell it from the loop", what, w.name)
	}
	if w.prio >= loop.prio {
		t.Fatalf("the %s's thread has priority %d, the loop's %d: it competes with the loop as an equal", what, w.prio, loop.prio)
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
		t.Fatalf("the %s may run on %d of the %d CPUs, CPU %d included: it can take the loop's CPU while another is free", what, w.cpus.Count(), all.Count(), first)
	case all.Count() < 2 && w.cpus != all:
		t.Fatalf("with one CPU the %s's affinity changed (%d CPUs)", what, w.cpus.Count())
	}
}

// TestAccountWorkersYieldToTheLoop: an account check (password hashing)
// runs on a thread with a lower scheduling priority than the engine's, so
// when both want one CPU the kernel runs the loop first; and, when the
// process may use more than one CPU, off the first of them, which is left
// free of hashing for the loop.
func TestAccountWorkersYieldToTheLoop(t *testing.T) {
	got := make(chan thread, 1)
	cfg := Config{Check: func(context.Context, statemachine.Check) statemachine.Answer {
		got <- thisThread(t)
		return statemachine.Found
	}}
	cfg.defaults()
	p := newPool(cfg, func() {})
	t.Cleanup(func() { p.close(context.Background()) })
	// no loop runs here to hand the check over later if a worker, still
	// starting, holds the queue's lock (CI hung on <-got): wait for the lock
	p.adm.wait = true
	if !p.check(statemachine.Check{ID: 1, Conn: 1, Kind: statemachine.Verify, User: "Larry"}, netip.MustParseAddr("127.0.0.1")) {
		t.Fatal("check refused")
	}
	yieldsToTheLoop(t, "account worker", "bomberd-account", <-got)
	<-p.results
}

// TestRecorderYieldsToTheLoop: game records are stored (SQLite's inserts
// and commit, on the embedded store) the same way: on a thread that the
// kernel runs after the loop and, with more than one CPU, off the loop's.
// On the loop's CPU at the same priority, the recorder doubled the relay's
// p99 in the bench at 5,000 guesses/s (docs/performance.md).
func TestRecorderYieldsToTheLoop(t *testing.T) {
	got := make(chan thread, 1)
	cfg := Config{Record: func(_ context.Context, fs []FinishedGame) (int, error) {
		select {
		case got <- thisThread(t):
		default:
		}
		return len(fs), nil
	}}
	cfg.defaults()
	p := newPool(cfg, func() {})
	t.Cleanup(func() { p.close(context.Background()) })
	p.record(record.Game{}, time.Now(), time.Now())
	yieldsToTheLoop(t, "game recorder", "bomberd-record", <-got)
}

// TestLoopAsksForAShortSlice: the engine's loop runs on a thread that asks
// the kernel for a 100 µs time slice, so a guess that wakes it waits at
// most that long for whatever thread holds its CPU (the kernel's default,
// 1.4 ms here, was the reactor's p99 at 13,700 guesses/s in the bench).
// Its nice value stays, and the daemon's other threads keep the default
// slice: a short one is the loop's alone.
func TestLoopAsksForAShortSlice(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	plain, err := unix.SchedGetAttr(0, 0) // what a thread that asked for nothing has
	if err != nil {
		t.Fatal(err)
	}
	if plain.Runtime == uint64(loopSlice.Nanoseconds()) {
		t.Fatalf("a thread's default slice is already %v: this test cannot tell", loopSlice)
	}
	r, _ := serveReactor(t, Config{TickEvery: time.Hour})
	var loop *unix.SchedAttr
	var loopErr error
	var name string
	if err := r.door.do(context.Background(), func() { // on the loop's thread
		loop, loopErr = unix.SchedGetAttr(0, 0)
		name = thisThread(t).name
	}); err != nil {
		t.Fatal(err)
	}
	if loopErr != nil {
		t.Fatal(loopErr)
	}
	if name != "bomberd-loop" {
		t.Fatalf("the loop's thread is named %q", name)
	}
	if got := time.Duration(loop.Runtime); got != loopSlice {
		t.Errorf("the loop's thread has a slice of %v, want %v", got, loopSlice)
	}
	if loop.Policy != plain.Policy || loop.Nice != plain.Nice {
		t.Errorf("the loop's thread has policy %d and nice %d, a plain thread %d and %d", loop.Policy, loop.Nice, plain.Policy, plain.Nice)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		tid, _ := strconv.Atoi(task.Name())
		a, err := unix.SchedGetAttr(tid, 0)
		comm, err2 := os.ReadFile("/proc/self/task/" + task.Name() + "/comm")
		if err != nil || err2 != nil {
			continue // the thread has exited
		}
		if n := strings.TrimSpace(string(comm)); n != "bomberd-loop" && a.Runtime != plain.Runtime {
			t.Errorf("thread %d (%s) has a slice of %v: only the loop asks for one", tid, n, time.Duration(a.Runtime))
		}
	}
}
