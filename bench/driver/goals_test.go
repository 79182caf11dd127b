//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/bench/load"
)

// goalLine is the summary's row whose "measured" cell contains what.
func goalLine(t *testing.T, out, what string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, what) {
			return l
		}
	}
	t.Fatalf("no goal row for %q in\n%s", what, out)
	return ""
}

// TestGoalsSayPassFailAndSkipped: the summary gives each goal's median
// ratio with its round-by-round range and PASS or FAIL against its
// target; what the run did not measure says SKIPPED and why, never PASS.
func TestGoalsSayPassFailAndSkipped(t *testing.T) {
	s := &cpuSeries{games: []int{100, 1000}, servers: []string{floorName, "reactor"}, rounds: 3,
		perGame: map[string]map[int][]float64{
			floorName: {100: {10, 10, 10}, 1000: {10, 10, 10}},
			"reactor": {100: {11, 12, 13}, 1000: {14, 13, 15}},
		}}
	res := &results{opts: options{transports: []string{"reactor"}, floor: true, storm: 1000, online: 10000, games: []int{1000}},
		byTr: map[string]*trResult{"reactor": newTrResult()}, cpu: s, tableMemErr: "no go command",
		tables:   []tableResult{{game: "checkers", seats: 2, moves: 100, cpu: 2 * time.Millisecond, perRound: []float64{19, 21, 20}, vs: []float64{1.19, 1.31, 1.25}}},
		wsTables: []tableResult{{game: "checkers", seats: 2, moves: 100, cpu: 4 * time.Millisecond, perRound: []float64{38, 42, 40}, vs: []float64{1.9, 2.1, 2.0}}},
		fanFloor: map[int]tableResult{3: {moves: 100, cpu: 1000 * time.Microsecond}}, // the rounds' own ratios are judged, not phase against phase
	}
	r := res.byTr["reactor"]
	r.idleRSS[10000] = 1400
	r.stormReps = []stormRun{
		{lat: latency(3 * time.Millisecond), wire: latency(time.Millisecond), took: 3 * time.Second},
		{lat: latency(1 * time.Millisecond), wire: latency(time.Millisecond / 2), took: 4 * time.Second},
		{lat: latency(5 * time.Millisecond), wire: latency(3 * time.Millisecond / 2), took: 5 * time.Second},
	}
	var b strings.Builder
	res.printGoals(&b)
	out := b.String()
	for what, want := range map[string]string{
		"reactor ÷ floor, CPU per relayed guess, 100 games":  "| 1.20× | 1.10×–1.30× | ≤ 1.25× | PASS |",
		"reactor ÷ floor, CPU per relayed guess, 1000 games": "| 1.40× | 1.30×–1.50× | ≤ 1.25× | FAIL |",
		"net ÷ baseline, CPU per relayed guess, 100 games":   "SKIPPED: no BENCH_BASELINE",
		"checkers move ÷ fan-out floor, k=3":                 "| 1.25× | 1.19×–1.31× | ≤ 1.30× | PASS |",
		"checkers move, WebSocket gateway ÷ TCP":             "| 2.00× | 1.90×–2.10× | ≤ 1.50× | FAIL |",
		"by the client":    "| 3.00 ms | 1.00 ms–5.00 ms | < 2 ms | FAIL |",
		"kernel to kernel": "| 1.00 ms | 0.50 ms–1.50 ms | < 2 ms | PASS |",
		"storm duration":   "| 4.0 s | 3.0 s–5.0 s |",
		"RSS per idle logged-in connection at 10,000": "| 1.37 KiB | — | ≤ 1.50 KiB | PASS |",
		"4 seats and 10 watchers":                     "SKIPPED: no go command",
	} {
		if l := goalLine(t, out, what); !strings.Contains(l, want) {
			t.Errorf("%s: want %q in\n%s", what, want, l)
		}
	}
	// a run without the rounds, storms or table games passes nothing
	res = &results{opts: options{transports: []string{"reactor"}}, byTr: map[string]*trResult{}, tableMemErr: "not run"}
	b.Reset()
	res.printGoals(&b)
	if strings.Contains(b.String(), "PASS") || strings.Count(b.String(), "SKIPPED") < 10 {
		t.Errorf("an empty run's goals:\n%s", b.String())
	}
}

func latency(p99 time.Duration) load.Latency { return load.Latency{P99: p99} }

// TestStormFailSaysWhatTheMachineGave: a storm goal that fails says, beside
// FAIL, the minimal relay's own p99 at the storms' rate with no storm (each
// row the way it measures), how much of the server's CPU the VM's host
// took in those storms and, by the client, how late the load generator
// itself sent its guesses, so that a FAIL the machine decided reads as
// one; a goal met says PASS alone.
func TestStormFailSaysWhatTheMachineGave(t *testing.T) {
	res := &results{opts: options{transports: []string{"reactor"}, floor: true, storm: 1000, online: 10000, games: []int{1000}},
		byTr: map[string]*trResult{"reactor": newTrResult(), floorName: newTrResult()}, tableMemErr: "not run"}
	res.byTr[floorName].series[2000] = latRun{Latency: load.Latency{Count: 10000, P99: 6300 * time.Microsecond}, wire: load.Latency{Count: 10000, P99: 2400 * time.Microsecond}}
	res.byTr["reactor"].stormReps = []stormRun{
		{rate: 2000, lat: latency(8 * time.Millisecond), wire: latency(time.Millisecond), late: load.Latency{Count: 4000, P99: 3 * time.Millisecond}, steal: stolen{total: 140 * time.Millisecond, known: true}},
		{rate: 2000, lat: latency(6 * time.Millisecond), wire: latency(time.Millisecond), late: load.Latency{Count: 4000, P99: 2500 * time.Microsecond}, steal: stolen{total: 50 * time.Millisecond, known: true}},
		{rate: 2000, lat: latency(14 * time.Millisecond), wire: latency(time.Millisecond), late: load.Latency{Count: 4000, P99: 11 * time.Millisecond}, steal: stolen{total: 90 * time.Millisecond, known: true}},
	}
	var b strings.Builder
	res.printGoals(&b)
	out := b.String()
	want := "| 8.00 ms | 6.00 ms–14.00 ms | < 2 ms | FAIL (the minimal relay with no storm at 2000 guesses/s: p99 6.30 ms; the VM's host took 50-140 ms of the server's CPU in these storms; the load generator sent its guesses 2.50-11.00 ms late at p99) |"
	if l := goalLine(t, out, "by the client"); !strings.Contains(l, want) {
		t.Errorf("by the client: want %q in\n%s", want, l)
	}
	if l := goalLine(t, out, "kernel to kernel"); !strings.HasSuffix(l, "| < 2 ms | PASS |") {
		t.Errorf("kernel to kernel, met: want PASS alone in\n%s", l)
	}
	// kernel to kernel failing too: the floor's own kernel-to-kernel p99
	for i := range res.byTr["reactor"].stormReps {
		res.byTr["reactor"].stormReps[i].wire = latency(3 * time.Millisecond)
	}
	b.Reset()
	res.printGoals(&b)
	if l := goalLine(t, b.String(), "kernel to kernel"); !strings.Contains(l, "FAIL (the minimal relay with no storm at 2000 guesses/s: p99 2.40 ms;") || strings.Contains(l, "late at p99") {
		t.Errorf("kernel to kernel, failed: want the floor's kernel-to-kernel p99, and not the load generator's lateness (not in that figure), in\n%s", l)
	}
}

// TestOlderBuildStartsWithTheFlagsItKnows: a bomberd whose --help has no
// --web-listen (builds before the web listener, which exit on an unknown
// flag) is started without it; one that has it is given the flag.
func TestOlderBuildStartsWithTheFlagsItKnows(t *testing.T) {
	dir := t.TempDir()
	for name, help := range map[string]string{"old": "--listen string", "new": "--listen string\n --web-listen string"} {
		bin := filepath.Join(dir, name)
		os.WriteFile(bin, []byte("#!/bin/sh\nif [ \"$1\" = --help ]; then echo '"+help+"'; exit 0; fi\necho \"args: $*\"\nexit 1\n"), 0o755)
		db := filepath.Join(dir, "users.db")
		os.WriteFile(db, nil, 0o644)
		_, err := startDaemon(bin, name, "reactor", db, -1, dir, false)
		if err == nil {
			t.Fatalf("%s: the fake started", name)
		}
		logs, _ := filepath.Glob(filepath.Join(dir, "bomberd-"+name+"-*", "bomberd.log"))
		if len(logs) != 1 {
			t.Fatalf("%s: logs %v", name, logs)
		}
		b, _ := os.ReadFile(logs[0])
		if got := strings.Contains(string(b), "--web-listen="); got != (name == "new") {
			t.Errorf("%s build started with %q", name, b)
		}
	}
}
