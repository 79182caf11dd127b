//go:build linux

package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/bench/load"
)

// a /proc/stat of a 2-CPU VM: cpu1 had 37 ticks stolen
const procStat = `cpu  206278 11798 151638 805112 8442 0 60574 2593 0 0
cpu0 103000 5000 80000 400000 4000 0 30000 2556 0 0
cpu1 103278 6798 71638 405112 4442 0 30574 37 0 0
intr 1 2 3
`

// TestStealTicksReadsTheStealColumn: the eighth number of a CPU's line,
// the machine's on the "cpu" line, and an error for a CPU that is not there.
func TestStealTicksReadsTheStealColumn(t *testing.T) {
	for cpu, want := range map[int]int64{-1: 2593, 0: 2556, 1: 37} {
		got, err := stealTicks([]byte(procStat), cpu)
		if err != nil || got != want {
			t.Errorf("cpu %d: %d, %v; want %d", cpu, got, err, want)
		}
	}
	if _, err := stealTicks([]byte(procStat), 2); err == nil {
		t.Error("cpu2 is not in the file, yet no error")
	}
	if _, err := stealTicks([]byte("cpu0 1 2 3 4\n"), 0); err == nil {
		t.Error("a line without the steal column, yet no error")
	}
}

// TestWatchStealOnThisMachine: the watch reads this machine's counters
// and reports them known, with no more stolen than the time watched.
func TestWatchStealOnThisMachine(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc/stat:", err)
	}
	t0 := time.Now()
	w := watchSteal(0)
	s := w.end()
	if !s.known {
		t.Fatal("steal unknown on a machine with /proc/stat")
	}
	// steal counts in clock ticks: a tick may have begun before the watch
	if lim := time.Since(t0) + clockTick; s.total > lim || s.most > s.total {
		t.Errorf("stolen %v, at most %v in one window, in %v watched", s.total, s.most, time.Since(t0))
	}
}

// TestStormsSayWhatTheHostTook: each storm's p99 and its row say how much
// of the server's CPU the VM's host took, and nothing where it is unknown.
func TestStormsSayWhatTheHostTook(t *testing.T) {
	runs := []stormRun{
		{lat: load.Latency{P99: 14830 * time.Microsecond}, wire: load.Latency{P99: 14750 * time.Microsecond},
			steal: stolen{total: 60 * time.Millisecond, most: 30 * time.Millisecond, known: true}},
		{lat: load.Latency{P99: 1500 * time.Microsecond}, wire: load.Latency{P99: 600 * time.Microsecond}},
	}
	got := stormP99s(runs)
	if want := "14.83 / 14.75 ms (steal 60 ms, at most 30 of 100 ms), 1.50 / 0.60 ms (under 2 ms"; !strings.Contains(got, want) {
		t.Errorf("want %q in %q", want, got)
	}
	runs[0].took = 857 * time.Millisecond
	if got, want := stormServerCell(runs[0]), "; its CPU stolen by the VM's host 60 ms, at most 30 ms of one 100 ms"; !strings.HasPrefix(got, "857ms; ") || !strings.HasSuffix(got, want) {
		t.Errorf("got %q, want 857ms; ... %q", got, want)
	}
	if got := stormServerCell(runs[1]); strings.Contains(got, "stolen") {
		t.Errorf("steal unknown, yet the cell says %q", got)
	}
	// the load generator's CPU, in its own cells
	runs[1].busy, runs[1].gsteal = 0.6, stolen{total: 20 * time.Millisecond, most: 20 * time.Millisecond, known: true}
	if got, want := stormOwnP99s(runs), "0.00 / 0.00 ms, 0.00 / 0.00 ms (CPU 60%; steal 20 ms, at most 20 of 100 ms)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := stormOwnCell(runs[1]), "; its CPU 60% busy; its CPU stolen by the VM's host 20 ms, at most 20 ms of one 100 ms"; !strings.HasSuffix(got, want) {
		t.Errorf("got %q, want it to end %q", got, want)
	}
}
