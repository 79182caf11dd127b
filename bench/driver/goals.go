//go:build linux

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The goals summary: the last table `make bench` prints, one row per
// measured figure of the performance goals (docs/performance.md, "Goals"):
// the figure (a median), its range over the rounds it was taken in, the
// target and PASS or FAIL. A goal whose measurement did not run says
// SKIPPED and why, never PASS.

// goalRow is one row of the summary.
type goalRow struct {
	goal, what    string
	value, spread string
	target        string
	verdict       string // PASS, FAIL, or SKIPPED: why
}

// verdict is PASS when ok, else FAIL.
func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func skipped(why string) string { return "SKIPPED: " + why }

// spreadOf is "min-max" of xs formatted by f, "—" for fewer than two.
func spreadOf[T ~int64 | ~float64](xs []T, f func(T) string) string {
	if len(xs) < 2 {
		return "—"
	}
	return f(slices.Min(xs)) + "–" + f(slices.Max(xs))
}

func times(x float64) string { return fmt.Sprintf("%.2f×", x) }

// roundRatios are num's figures over den's, round by round.
func roundRatios(num, den []float64) []float64 {
	var out []float64
	for i := range min(len(num), len(den)) {
		if den[i] > 0 {
			out = append(out, num[i]/den[i])
		}
	}
	return out
}

// ratioRow compares two servers' CPU per guess in the rounds at g games.
func (res *results) ratioRow(goal, num, den string, g int, limit float64, why string) goalRow {
	r := goalRow{goal: goal, what: fmt.Sprintf("%s ÷ %s, CPU per relayed guess, %d games", num, den, g), target: fmt.Sprintf("≤ %.2f×", limit), value: "—", spread: "—"}
	if den == floorName {
		r.what = fmt.Sprintf("%s ÷ floor, CPU per relayed guess, %d games", num, g)
	}
	s := res.cpu
	if why != "" {
		r.verdict = skipped(why)
		return r
	}
	if s == nil || !slices.Contains(s.games, g) {
		r.verdict = skipped(fmt.Sprintf("no CPU rounds at %d games (BENCH_ROUNDS, BENCH_ROUND_GAMES)", g))
		return r
	}
	a, b := s.perGame[num][g], s.perGame[den][g]
	if len(a) == 0 || len(b) == 0 {
		r.verdict = skipped(fmt.Sprintf("%s or %s not measured at %d games", num, den, g))
		return r
	}
	x := median(a) / median(b)
	r.value, r.spread, r.verdict = times(x), spreadOf(roundRatios(a, b), times), verdict(x <= limit)
	return r
}

// goals are the summary's rows, from what the run measured.
func (res *results) goals() []goalRow {
	o := res.opts
	var rows []goalRow
	// goals 4 and 5 are the default transport's: the reactor when measured
	first := ""
	if slices.Contains(o.transports, "reactor") {
		first = "reactor"
	} else if len(o.transports) > 0 {
		first = o.transports[0]
	}
	// 1. the reactor against the floor
	for _, g := range []int{100, 1000} {
		why := ""
		if !o.floor {
			why = "no floor (BENCH_NO_FLOOR)"
		} else if !slices.Contains(o.transports, "reactor") {
			why = "the reactor is not among BENCH_TRANSPORTS"
		}
		rows = append(rows, res.ratioRow("1", "reactor", floorName, g, 1.25, why))
	}
	// 2. the net transport against the baseline build
	for _, g := range []int{100, 1000} {
		why := ""
		switch {
		case o.baseline == "":
			why = "no BENCH_BASELINE (the build of 5997808)"
		case !slices.Contains(o.transports, "net"):
			why = "the net transport is not among BENCH_TRANSPORTS"
		}
		rows = append(rows, res.ratioRow("2", "net", baseName, g, 1.0, why))
	}
	// 3. table moves against the fan-out floor, WebSocket against TCP
	if len(res.tables) == 0 {
		rows = append(rows,
			goalRow{goal: "3", what: "table move ÷ fan-out floor with the same k", value: "—", spread: "—", target: "≤ 1.30×", verdict: skipped("no table games (BENCH_TABLES=0)")},
			goalRow{goal: "3", what: "table move, WebSocket gateway ÷ TCP", value: "—", spread: "—", target: "≤ 1.50×", verdict: skipped("no table games (BENCH_TABLES=0)")})
	}
	for i, t := range res.tables {
		// each the median of the ratios of rounds played one after the
		// other (tableGames)
		k := t.seats + tableWatchers
		r := goalRow{goal: "3", what: fmt.Sprintf("%s move ÷ fan-out floor, k=%d", t.game, k), value: "—", spread: "—", target: "≤ 1.30×"}
		if len(t.vs) > 0 {
			x := median(t.vs)
			r.value, r.spread, r.verdict = times(x), spreadOf(t.vs, times), verdict(x <= 1.3)
		} else {
			r.verdict = skipped(fmt.Sprintf("the fan-out floor was not measured at k=%d", k))
		}
		rows = append(rows, r)
		w := goalRow{goal: "3", what: fmt.Sprintf("%s move, WebSocket gateway ÷ TCP", t.game), value: "—", spread: "—", target: "≤ 1.50×"}
		if i < len(res.wsTables) && len(res.wsTables[i].vs) > 0 {
			x := median(res.wsTables[i].vs)
			w.value, w.spread, w.verdict = times(x), spreadOf(res.wsTables[i].vs, times), verdict(x <= 1.5)
		} else {
			w.verdict = skipped("not played through the WebSocket gateway")
		}
		rows = append(rows, w)
	}
	// 4. storms, on the first transport
	var reps []stormRun
	if r := res.byTr[first]; r != nil {
		reps = r.stormReps
	}
	stormWhy := ""
	if o.storm == 0 || len(o.games) == 0 {
		stormWhy = "no storm (BENCH_STORM=0 or BENCH_GAMES=0)"
	} else if len(reps) == 0 {
		stormWhy = "no storm measured on " + first
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/1e6) }
	secs := func(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
	for _, way := range []struct {
		name  string
		p99   func(s stormRun) time.Duration
		floor func(l latRun) time.Duration
		late  bool // the figure holds the load generator's own lateness
	}{
		{"by the client", func(s stormRun) time.Duration { return s.lat.P99 }, func(l latRun) time.Duration { return l.P99 }, true},
		{"kernel to kernel", func(s stormRun) time.Duration { return s.wire.P99 }, func(l latRun) time.Duration { return l.wire.P99 }, false},
	} {
		r := goalRow{goal: "4", what: fmt.Sprintf("%s relay p99 during %d logins among %d, %s", first, o.storm, o.online, way.name), value: "—", spread: "—", target: "< 2 ms"}
		if stormWhy != "" {
			r.verdict = skipped(stormWhy)
		} else {
			var p []time.Duration
			for _, s := range reps {
				p = append(p, way.p99(s))
			}
			m := median(p)
			r.value, r.spread, r.verdict = ms(m), spreadOf(p, ms), verdict(m < 2*time.Millisecond)
			if m >= 2*time.Millisecond {
				r.verdict += res.stormMachine(reps, way.floor, way.late)
			}
		}
		rows = append(rows, r)
	}
	d := goalRow{goal: "4", what: "storm duration (all logins answered)", value: "—", spread: "—", target: "≤ 6.2 s (no slower than before)"}
	if stormWhy != "" {
		d.verdict = skipped(stormWhy)
	} else {
		var took []time.Duration
		for _, s := range reps {
			took = append(took, s.took)
		}
		m := median(took)
		d.value, d.spread, d.verdict = secs(m), spreadOf(took, secs), verdict(m <= 6200*time.Millisecond)
	}
	rows = append(rows, d)
	// 5. memory
	m := goalRow{goal: "5", what: first + " RSS per idle logged-in connection at 10,000", value: "—", spread: "—", target: "≤ 1.50 KiB"}
	if r := res.byTr[first]; r == nil || r.idleRSS[10000] == 0 {
		m.verdict = skipped("10,000 idle connections not measured (BENCH_IDLE)")
	} else {
		v := r.idleRSS[10000] / 1024
		m.value, m.verdict = fmt.Sprintf("%.2f KiB", v), verdict(v <= 1.5)
	}
	rows = append(rows, m)
	t := goalRow{goal: "5", what: "a table of 4 seats and 10 watchers, the hub's heap (`go test ./statemachine -bench TableMemory`)", value: "—", spread: "—", target: "< 16 KiB"}
	if res.tableMemErr != "" {
		t.verdict = skipped(res.tableMemErr)
	} else {
		v := res.tableMem / 1024
		t.value, t.verdict = fmt.Sprintf("%.1f KiB", v), verdict(v < 16)
	}
	rows = append(rows, t)
	return rows
}

// stormMachine says, after a storm goal's FAIL, what the machine gave in
// the same run: the minimal relay's p99 at the storms' rate with no storm
// (floorP99 picks the way it is measured), how much of the server's CPU
// the VM's host took in the storms and, when late (a figure by the
// client, which counts from when a guess was due), how late the load
// generator itself sent its guesses. A storm's p99 is its 20th-60th
// slowest guess, which a pause of the machine's decides: where the floor
// itself is over 2 ms, the host took tens of milliseconds or the load
// generator sent that late, the FAIL says more of the machine than of the
// server ("" when none is known).
func (res *results) stormMachine(reps []stormRun, floorP99 func(latRun) time.Duration, late bool) string {
	var parts []string
	if f := res.byTr[floorName]; f != nil && len(reps) > 0 {
		if l, ok := f.series[reps[0].rate]; ok && l.Count > 0 {
			parts = append(parts, fmt.Sprintf("the minimal relay with no storm at %.0f guesses/s: p99 %.2f ms", reps[0].rate, float64(floorP99(l))/1e6))
		}
	}
	var steal, sent []time.Duration
	for _, s := range reps {
		if s.steal.known {
			steal = append(steal, s.steal.total)
		}
		if late && s.late.Count > 0 {
			sent = append(sent, s.late.P99)
		}
	}
	if len(steal) > 0 {
		parts = append(parts, fmt.Sprintf("the VM's host took %d-%d ms of the server's CPU in these storms", slices.Min(steal).Milliseconds(), slices.Max(steal).Milliseconds()))
	}
	if len(sent) > 0 {
		parts = append(parts, fmt.Sprintf("the load generator sent its guesses %.2f-%.2f ms late at p99", float64(slices.Min(sent))/1e6, float64(slices.Max(sent))/1e6))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// printGoals writes the goals summary.
func (res *results) printGoals(w io.Writer) {
	fmt.Fprintf(w, "\n**Goals** (docs/performance.md; a figure is the median of its rounds, the range is round by round; CPU ratios from the interleaved rounds, table moves from each round and the one played beside it):\n\n")
	fmt.Fprintf(w, "| goal | measured | figure | range | target | verdict |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range res.goals() {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", r.goal, r.what, r.value, r.spread, r.target, r.verdict)
	}
}

// tableMemoryRe finds the benchmark's figure.
var tableMemoryRe = regexp.MustCompile(`BenchmarkTableMemory\S*\s+\d+\s+.*?([0-9.]+) bytes/table`)

// tableMemory runs the hub's table memory benchmark once (it needs the
// source tree and the go command, as `make bench` has) and returns its
// bytes per table.
func tableMemory(ctx context.Context) (float64, error) {
	if _, err := os.Stat("statemachine/memory_bench_test.go"); err != nil {
		return 0, fmt.Errorf("not run from the source tree")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return 0, fmt.Errorf("no go command")
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, goBin, "test", "./statemachine", "-run", "^$", "-bench", "^BenchmarkTableMemory$", "-benchtime", "1x").CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("go test: %v: %s", err, strings.TrimSpace(string(out)))
	}
	m := tableMemoryRe.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no bytes/table in its output")
	}
	return strconv.ParseFloat(string(m[1]), 64)
}
