package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/bench/load"
)

// TestRoundsTableGivesMedians: each server's cell is the median of its
// rounds with every round's figure after it, and the goals' ratios are of
// medians, so one disturbed round (the 30 µs and 40 µs here) moves neither.
func TestRoundsTableGivesMedians(t *testing.T) {
	s := &cpuSeries{games: []int{100, 1000}, servers: []string{floorName, "reactor", "net"}, rounds: 3, window: 5 * time.Second,
		perGame: map[string]map[int][]float64{
			floorName: {100: {10, 30, 12}, 1000: {9, 9.5, 10}},
			"reactor": {100: {13, 14, 40}, 1000: {11, 10, 12}},
			"net":     {100: {30, 21, 25}, 1000: {15, 16, 17}},
		}}
	var b strings.Builder
	s.print(&b, []string{"reactor", "net"})
	out := b.String()
	rows := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Split(l, " | "); len(f) > 1 {
			rows[strings.TrimPrefix(f[0], "| ")] = l
		}
	}
	if h := rows["games"]; !strings.Contains(h, "reactor ÷ floor (goal ≤ 1.3×)") || !strings.Contains(h, "net ÷ reactor (goal ≥ 1.5×)") {
		t.Errorf("header lacks the goals' ratios: %q", h)
	}
	for games, want := range map[string][]string{
		"100":  {"12.00 µs (10.00, 30.00, 12.00)", "14.00 µs (13.00, 14.00, 40.00)", "25.00 µs (30.00, 21.00, 25.00)", "1.17×", "1.79×"},
		"1000": {"9.50 µs", "11.00 µs", "16.00 µs", "1.16×", "1.45×"},
	} {
		for _, w := range want {
			if !strings.Contains(rows[games], w) {
				t.Errorf("%s games: want %q in %q", games, w, rows[games])
			}
		}
	}
	if !strings.Contains(out, "3 interleaved rounds") || !strings.Contains(out, "5s") {
		t.Errorf("the table does not say how it was measured: %q", out)
	}

	// without the floor there is nothing to divide the reactor by
	delete(s.perGame, floorName)
	s.servers = s.servers[1:]
	b.Reset()
	s.print(&b, []string{"reactor", "net"})
	if strings.Contains(b.String(), "floor") || !strings.Contains(b.String(), "1.79×") {
		t.Errorf("without the floor: %q", b.String())
	}
	b.Reset()
	(*cpuSeries)(nil).print(&b, []string{"reactor"})
	if b.Len() != 0 {
		t.Errorf("no rounds run, yet: %q", b.String())
	}
}

// TestStormRepeatsCounted: each storm's p99 is listed, both ways, and the
// count under 2 ms is of those below it (2 ms itself is not under).
func TestStormRepeatsCounted(t *testing.T) {
	runs := []stormRun{
		{lat: load.Latency{P99: 1500 * time.Microsecond}, wire: load.Latency{P99: 600 * time.Microsecond}},
		{lat: load.Latency{P99: 5300 * time.Microsecond}, wire: load.Latency{P99: 1900 * time.Microsecond}},
		{lat: load.Latency{P99: 2 * time.Millisecond}, wire: load.Latency{P99: 2100 * time.Microsecond}},
	}
	got := stormP99s(runs)
	for _, w := range []string{"1.50 / 0.60 ms, 5.30 / 1.90 ms, 2.00 / 2.10 ms", "under 2 ms: 1 of 3 by the client, 2 of 3 kernel to kernel"} {
		if !strings.Contains(got, w) {
			t.Errorf("want %q in %q", w, got)
		}
	}
}
