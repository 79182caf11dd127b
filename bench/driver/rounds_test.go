//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/account"
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

// TestStormsShowTheLoadGeneratorsPart: each storm's p99 of the load
// generator's lateness in sending and in reading, in order.
func TestStormsShowTheLoadGeneratorsPart(t *testing.T) {
	runs := []stormRun{
		{late: load.Latency{P99: 3100 * time.Microsecond}, wake: load.Latency{P99: 1260 * time.Microsecond}},
		{late: load.Latency{P99: 250 * time.Microsecond}, wake: load.Latency{P99: 10200 * time.Microsecond}},
	}
	if got, want := stormOwnP99s(runs), "3.10 / 1.26 ms, 0.25 / 10.20 ms"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	runs[1].busy = 0.6
	if got, want := stormOwnP99s(runs), "3.10 / 1.26 ms, 0.25 / 10.20 ms (CPU 60%)"; got != want {
		t.Errorf("with one storm's load generator CPU known: got %q, want %q", got, want)
	}
}

// TestStormShowsTheLoadGeneratorsPart: a storm's own row gives the load
// generator's lateness in sending and in reading, p50 and p99 each, and
// how busy its CPU was when that is known.
func TestStormShowsTheLoadGeneratorsPart(t *testing.T) {
	s := stormRun{
		late: load.Latency{P50: 146 * time.Millisecond, P99: 740 * time.Millisecond},
		wake: load.Latency{P50: 850 * time.Microsecond, P99: 11600 * time.Microsecond},
	}
	if got, want := stormOwnCell(s), "sent 146000 µs / 740000 µs late; read 850 µs / 11600 µs late"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	s.busy = 0.984
	if got, want := stormOwnCell(s), "sent 146000 µs / 740000 µs late; read 850 µs / 11600 µs late; its CPU 98% busy"; got != want {
		t.Errorf("with the load generator's CPU known: got %q, want %q", got, want)
	}
}

// TestRoundsLatencyGivesMedians: the fixed-rate table gives each server's
// median p50 and p99 over the rounds, every round's p99, and ratios of
// medians to the floor, by the client and kernel to kernel, so one
// disturbed round (the 9 ms here) moves no ratio.
func TestRoundsLatencyGivesMedians(t *testing.T) {
	run := func(p50, p99, w50, w99 int) latRun {
		us := func(n int) time.Duration { return time.Duration(n) * time.Microsecond }
		return latRun{Latency: load.Latency{P50: us(p50), P99: us(p99)}, wire: load.Latency{P50: us(w50), P99: us(w99)}}
	}
	s := &cpuSeries{servers: []string{floorName, "reactor", "net"}, rounds: 3, window: 5 * time.Second, latGames: 1000,
		perRate: map[string]map[float64][]latRun{
			floorName: {5000: {run(100, 400, 50, 200), run(120, 500, 60, 9000), run(110, 600, 55, 150)}},
			"reactor": {5000: {run(130, 9000, 70, 300), run(110, 700, 50, 250), run(121, 650, 66, 310)}},
			"net":     {5000: {run(150, 800, 80, 400), run(140, 900, 90, 500), run(160, 1000, 70, 450)}},
		}}
	var b strings.Builder
	s.printLatency(&b)
	out := b.String()
	rows := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Split(l, " | "); len(f) > 2 {
			rows[f[1]] = l
		}
	}
	for way, want := range map[string][]string{
		"by the client":    {"110 µs / 500 µs (400, 500, 600 µs)", "121 µs / 700 µs (9000, 700, 650 µs)", "1.10× / 1.40×", "1.36× / 1.80×"},
		"kernel to kernel": {"55 µs / 200 µs (200, 9000, 150 µs)", "66 µs / 300 µs", "1.20× / 1.50×", "1.45× / 2.25×"},
	} {
		for _, w := range want {
			if !strings.Contains(rows[way], w) {
				t.Errorf("%s: want %q in %q", way, w, rows[way])
			}
		}
	}
	if !strings.Contains(out, "1000 games") || !strings.Contains(out, "reactor ÷ floor, p50 / p99 (goal ≤ 1.5×)") || !strings.Contains(rows["by the client"], "5000/s") {
		t.Errorf("the table does not say what it measured: %q", out)
	}

	// the reference server is compared with the floor too, but the goal
	// is bomberd's
	s.servers = append(s.servers, refName)
	s.perRate[refName] = map[float64][]latRun{5000: {run(1000, 4000, 900, 3900)}}
	b.Reset()
	s.printLatency(&b)
	if want := fmt.Sprintf("%s ÷ floor, p50 / p99 |", refName); !strings.Contains(b.String(), want) || !strings.Contains(b.String(), "9.09× / 8.00×") {
		t.Errorf("the reference server's column: want %q and its ratio in %q", want, b.String())
	}
	s.servers = s.servers[:3]
	delete(s.perRate, refName)

	// without the floor there is no ratio; with no rate measured, no table
	delete(s.perRate, floorName)
	s.servers = s.servers[1:]
	b.Reset()
	s.printLatency(&b)
	if strings.Contains(b.String(), "÷") || !strings.Contains(b.String(), "121 µs / 700 µs") {
		t.Errorf("without the floor: %q", b.String())
	}
	s.perRate = map[string]map[float64][]latRun{"reactor": {}}
	b.Reset()
	s.printLatency(&b)
	if b.Len() != 0 {
		t.Errorf("no rate measured, yet: %q", b.String())
	}
}

// TestWarmUpWaitsForASteadyRate: the closed-loop window starts once two
// consecutive steps relayed about as much, not while the relay is still
// rising out of a login wave's presence, and never on a relay that is
// stalled or still climbing.
func TestWarmUpWaitsForASteadyRate(t *testing.T) {
	counter := func(steps []int64) (func() int64, *int) {
		calls, total := 0, int64(0)
		return func() int64 {
			if calls < len(steps) {
				total += steps[calls]
			} else {
				total += steps[len(steps)-1]
			}
			calls++
			return total
		}, &calls
	}
	// 45 guesses a step while presence drains, then the games take off
	rising, calls := counter([]int64{0, 45, 45, 40, 900, 40000, 80000, 81000})
	if _, steady := warmUp(rising, time.Microsecond, time.Minute, 20000); !steady {
		t.Fatal("a relay that settled at 80,000 a step was not taken as steady")
	}
	if *calls != 8 {
		t.Fatalf("steady after %d reads of the counter, want 8: 45, 45 and 40 a step are a relay stalled behind presence", *calls)
	}
	// without a rate to reach (a first count), the stalled steps would do:
	// so only a later count is given one
	early, calls := counter([]int64{0, 45, 45, 44, 900})
	if _, steady := warmUp(early, time.Microsecond, time.Minute, 0); !steady || *calls != 4 {
		t.Fatalf("with no rate to reach: steady %v after %d reads, want after 4", steady, *calls)
	}
	doubling, step := int64(0), int64(1)
	for name, f := range map[string]func() int64{
		"doubling": func() int64 { doubling += step; step *= 2; return doubling },
		"stalled":  func() int64 { return 7 },
	} {
		if waited, steady := warmUp(f, 200*time.Microsecond, 4*time.Millisecond, 0); steady || waited < 4*time.Millisecond { // at most 20 steps: no overflow
			t.Errorf("%s: steady %v after %v", name, steady, waited)
		}
	}
}

// TestRoundsCompareWithABaseline: an older bomberd in the rounds gets its
// own column and this build's first transport a ratio to it; its latency
// has no goal (it is a comparison, as the reference server's).
func TestRoundsCompareWithABaseline(t *testing.T) {
	lat := func(p50, p99 time.Duration) []latRun {
		return []latRun{{Latency: load.Latency{P50: p50, P99: p99}, wire: load.Latency{P50: p50 / 2, P99: p99 / 2}}}
	}
	s := &cpuSeries{games: []int{100}, servers: []string{floorName, baseName, "reactor", "net"}, rounds: 1, window: 5 * time.Second,
		perGame: map[string]map[int][]float64{
			floorName: {100: {6}},
			baseName:  {100: {8}},
			"reactor": {100: {7}},
			"net":     {100: {9}},
		},
		latGames: 100,
		perRate: map[string]map[float64][]latRun{
			floorName: {2000: lat(100*time.Microsecond, 400*time.Microsecond)},
			baseName:  {2000: lat(150*time.Microsecond, 900*time.Microsecond)},
			"reactor": {2000: lat(110*time.Microsecond, 500*time.Microsecond)},
			"net":     {2000: lat(120*time.Microsecond, 600*time.Microsecond)},
		}}
	var b strings.Builder
	s.print(&b, []string{"reactor", "net"})
	out := b.String()
	for _, w := range []string{
		"| games | minimal relay (floor) | baseline | reactor | net |",
		"reactor ÷ baseline (this build against the older)",
		"| 100 | 6.00 µs (6.00) | 8.00 µs (8.00) | 7.00 µs (7.00) | 9.00 µs (9.00) | 1.17× | 1.29× | 0.88× |",
		"| baseline ÷ floor, p50 / p99 | reactor ÷ floor, p50 / p99 (goal ≤ 1.5×) |",
		"| 1.50× / 2.25× | 1.10× / 1.25× |",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("want %q in\n%s", w, out)
		}
	}
	// the whole table says what the baseline was
	res := &results{opts: options{transports: []string{"reactor", "net"}, baseline: "/tmp/base/bin/bomberd", baseSchema: 3},
		byTr: map[string]*trResult{"reactor": newTrResult(), "net": newTrResult()}, cpu: s}
	b.Reset()
	res.print(&b)
	if w := "The baseline is `/tmp/base/bin/bomberd` on the net transport and schema version 3"; !strings.Contains(b.String(), w) {
		t.Errorf("want %q in\n%s", w, b.String())
	}
}

// TestBaselineRunsOnItsOwnStore: BENCH_BASELINE's bomberd is started in
// every round on the net transport when the run measures it (else the
// first), on a copy of the users' store
// migrated down to BENCH_BASELINE_SCHEMA, with the users still in it; this
// build's store stays at its own version.
func TestBaselineRunsOnItsOwnStore(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // the kept folder goes here, removed after the test
	bin := t.TempDir()
	fake := func(name string) string {
		p := filepath.Join(bin, name)
		os.WriteFile(p, []byte("#!/bin/sh\nenv\necho 'fake bomberd: cannot start' >&2\nexit 1\n"), 0o755)
		return p
	}
	o := options{transports: []string{"reactor"}, bomberd: fake("bomberd"), window: time.Second, attempts: 1, slow: 1,
		rounds: 1, roundGames: []int{1}, baseline: fake("old-bomberd"), baseSchema: 3}
	err := run(o)
	if err == nil || !strings.Contains(err.Error(), "baseline round 1 of 1 failed") {
		t.Fatalf("want the baseline's round to fail first (it runs before this build's), got %v", err)
	}
	m := regexp.MustCompile(`kept in (\S+)`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("no kept folder named: %v", err)
	}
	logs, _ := filepath.Glob(filepath.Join(m[1], "bomberd-baseline-*", "bomberd.log"))
	if len(logs) != 1 {
		t.Fatalf("want the baseline's log, found %v", logs)
	}
	env, _ := os.ReadFile(logs[0])
	store := regexp.MustCompile(`(?m)^BOMBER_STORE_SQLITE_PATH=(.*)$`).FindSubmatch(env)
	if !strings.Contains(string(env), "\nBOMBER_TRANSPORT=reactor\n") || store == nil {
		t.Fatalf("the baseline's environment lacks its transport or store:\n%s", env)
	}
	for path, want := range map[string]int64{string(store[1]): 3, filepath.Join(m[1], "users.db"): -1} {
		db, err := account.OpenDB(t.Context(), account.DialectSQLite, path)
		if err != nil {
			t.Fatal(err)
		}
		cur, latest, err := account.SchemaVersion(t.Context(), db, account.DialectSQLite)
		var users int
		if err == nil {
			err = db.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM accounts").Scan(&users)
		}
		db.Close()
		if want == -1 {
			want = latest
		}
		if err != nil || cur != want || users != 2 {
			t.Errorf("%s: schema version %d, %d users (%v); want version %d and the 2 users", path, cur, users, err, want)
		}
	}
}
