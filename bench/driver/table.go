//go:build linux

package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/bomber-game/bomber/bench/load"
)

// gameResult is one closed-loop window.
type gameResult struct {
	relayed, games int64
	cpu, elapsed   time.Duration
	rate           float64 // relayed guesses per second
	cpuPerGuess    float64 // server CPU µs per relayed guess
	cpuShare       float64 // server CPU seconds per second
	closed         int64   // connections the server ended during the window
	peakRSS        int64   // the server's VmHWM after the window: the most RSS it has had, logins included
}

// trResult is everything measured on one transport.
type trResult struct {
	baseRSS  int64
	idleRSS  map[int]float64 // connections → bytes of RSS per connection
	idleGo   map[int]float64 // connections → bytes of Go heap and stacks in use per connection
	idlePeak map[int]int64   // connections → the daemon's peak RSS (VmHWM) once that many had logged in
	games    map[int]gameResult
	latGames int
	latRate  float64
	latAlone latRun
	storms   []stormRun // login storms: at the first fixed rate, then at half saturation
	// stormReps is every run of the first storm (the first included), one
	// after the other; stormPool is their guesses' latencies together
	stormReps []stormRun
	stormPool stormRun
	series    map[float64]latRun // fixed open-loop rate → latencies
	stormErr  string             // why the storms failed on the reference server; "" when they did not
}

type results struct {
	opts                  options
	byTr                  map[string]*trResult
	pure                  pureResult
	loadBefore, loadAfter string
	client                []clientRun         // the load generator check, in the order run
	noCClient             string              // why the check ran without the C client; "" when it ran
	tables                []tableResult       // the table-game phase, through the TCP port
	wsTables              []tableResult       // the same through the WebSocket gateway
	fanFloor              map[int]tableResult // the fan-out floor, by recipients per move
	tableLat              *latRun             // relay latency in the 4-player, 10-watcher game
	cpu                   *cpuSeries          // the interleaved CPU rounds; nil when not run
	tableMem              float64             // the hub's bytes per table of 4 seats and 10 watchers
	tableMemErr           string              // why tableMem was not measured; "" when it was
}

func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond)) }

// columns are the servers of the table, the floor first.
func (res *results) columns() []string {
	var cols []string
	if res.byTr[floorName] != nil {
		cols = append(cols, floorName)
	}
	if res.byTr[refName] != nil {
		cols = append(cols, refName)
	}
	return append(cols, res.opts.transports...)
}

// ratio is " (x× floor)", or nothing without a floor or a measure.
func ratio(v, floor float64) string {
	if floor <= 0 || v <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%.1f× floor)", v/floor)
}

// print writes the comparison table and the conditions it was measured in.
func (res *results) print(w io.Writer) {
	t := &table{w: w, res: res, cols: res.columns(), floor: res.byTr[floorName]}
	t.header()
	t.idleRows()
	t.gameRows()
	if len(res.opts.games) > 0 {
		t.latencyRows()
		if res.opts.storm > 0 {
			t.stormRows()
		}
	}
	t.pureRow()
	res.cpu.print(w, res.opts.transports)
	res.printClientCheck(w)
	res.printTables(w)
	res.printConditions(w)
}

// table writes the rows of the comparison table: a measurement, its goal,
// one cell per server column, and, with two transports, the second's
// figure as a ratio to the first's.
type table struct {
	w     io.Writer
	res   *results
	cols  []string
	floor *trResult // nil without the minimal relay
}

// cell is one server's figure in a row; ratioCell is the ratio column's.
type (
	cell      func(r *trResult) string
	ratioCell func(a, b *trResult) string
)

// noRatio leaves the ratio column empty.
func noRatio(a, b *trResult) string { return "" }

func (t *table) row(what, goal string, c cell, rc ratioCell) {
	cells := []string{what, goal}
	for _, tr := range t.cols {
		cells = append(cells, c(t.res.byTr[tr]))
	}
	if trs := t.res.opts.transports; len(trs) == 2 {
		cells = append(cells, rc(t.res.byTr[trs[0]], t.res.byTr[trs[1]]))
	}
	fmt.Fprintf(t.w, "| %s |\n", strings.Join(cells, " | "))
}

func (t *table) header() {
	trs := t.res.opts.transports
	head := []string{"measurement", "goal"}
	for _, c := range t.cols {
		if c == floorName {
			c = "minimal relay (floor)"
		}
		head = append(head, c)
	}
	if len(trs) == 2 {
		head = append(head, trs[1]+" ÷ "+trs[0])
	}
	fmt.Fprintf(t.w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
}

func (t *table) isFloor(r *trResult) bool { return r == t.floor }

// measured is c, or "—" for a server that has not measured it (the
// reference server runs only the counts its select(2) loop holds).
func measured(has func(r *trResult) bool, c cell) cell {
	return func(r *trResult) string {
		if !has(r) {
			return "—"
		}
		return c(r)
	}
}

// idleRows are (a): memory per idle logged-in connection.
func (t *table) idleRows() {
	// a server that did not measure n (the floor has no login; the
	// reference server holds fewer connections and is not written in Go)
	kib := func(r *trResult, m map[int]float64, n int) string {
		v, ok := m[n]
		if t.isFloor(r) || !ok {
			return "—"
		}
		return fmt.Sprintf("%.2f KiB", v/1024)
	}
	for _, n := range t.res.opts.idle {
		t.row(fmt.Sprintf("(a) RSS per idle logged-in connection, %s connections", kilo(n)), "≤ 2 KiB; reactor 4× better",
			func(r *trResult) string { return kib(r, r.idleRSS, n) },
			func(a, b *trResult) string { return fmt.Sprintf("%.1f×", b.idleRSS[n]/a.idleRSS[n]) })
		t.row(fmt.Sprintf("(a) Go heap + stacks in use per idle logged-in connection, %s connections", kilo(n)), "",
			func(r *trResult) string { return kib(r, r.idleGo, n) },
			func(a, b *trResult) string { return fmt.Sprintf("%.1f×", b.idleGo[n]/a.idleGo[n]) })
		t.row(fmt.Sprintf("(a) the daemon's peak RSS while the %s logged in (VmHWM: the login waves' unread presence included)", kilo(n)), "",
			func(r *trResult) string {
				v, ok := r.idlePeak[n]
				if t.isFloor(r) || !ok {
					return "—"
				}
				return fmt.Sprintf("%d MiB", v>>20)
			},
			func(a, b *trResult) string {
				return fmt.Sprintf("%.1f×", float64(b.idlePeak[n])/float64(a.idlePeak[n]))
			})
	}
}

// gameRows are (b): relayed guesses per second and CPU per guess, closed loop.
func (t *table) gameRows() {
	fl := func(g int) gameResult {
		if t.floor == nil {
			return gameResult{}
		}
		return t.floor.games[g]
	}
	for _, g := range t.res.opts.games {
		ran := func(c cell) cell {
			return measured(func(r *trResult) bool { _, ok := r.games[g]; return ok }, c)
		}
		t.row(fmt.Sprintf("(b) relayed guesses per second, %s games (closed loop)", kilo(g)), "≥ 500,000",
			ran(func(r *trResult) string {
				if t.isFloor(r) {
					return fmt.Sprintf("%.0f", r.games[g].rate)
				}
				return fmt.Sprintf("%.0f", r.games[g].rate) + ratio(r.games[g].rate, fl(g).rate)
			}),
			func(a, b *trResult) string { return fmt.Sprintf("%.2f×", b.games[g].rate/a.games[g].rate) })
		t.row(fmt.Sprintf("(b) server CPU per relayed guess, %s games", kilo(g)), "≤ 2 µs; reactor 2× better",
			ran(func(r *trResult) string {
				c := fmt.Sprintf("%.2f µs (server at %.0f%% of a CPU)", r.games[g].cpuPerGuess, r.games[g].cpuShare*100)
				if t.isFloor(r) {
					return c
				}
				return fmt.Sprintf("%.2f µs%s (server at %.0f%% of a CPU)", r.games[g].cpuPerGuess, ratio(r.games[g].cpuPerGuess, fl(g).cpuPerGuess), r.games[g].cpuShare*100)
			}),
			func(a, b *trResult) string {
				return fmt.Sprintf("%.1f×", b.games[g].cpuPerGuess/a.games[g].cpuPerGuess)
			})
		t.row(fmt.Sprintf("(b) the server's peak RSS once %s games were playing (VmHWM: their players' login wave included)", kilo(g)), "",
			ran(func(r *trResult) string { return fmt.Sprintf("%d MiB", r.games[g].peakRSS>>20) }),
			func(a, b *trResult) string {
				return fmt.Sprintf("%.1f×", float64(b.games[g].peakRSS)/float64(a.games[g].peakRSS))
			})
	}
}

// latCell is "p50 / p99 / p99.9", with their ratios to the floor's f when
// there is one, and the count.
func latCell(l load.Latency, f *load.Latency) string {
	c := fmt.Sprintf("%s / %s / %s", us(l.P50), us(l.P99), us(l.P999))
	if f != nil && f.P50 > 0 {
		c += fmt.Sprintf(" (p50 %.1f×, p99 %.1f× floor)", float64(l.P50)/float64(f.P50), float64(l.P99)/float64(f.P99))
	}
	return c + fmt.Sprintf(" (n=%d)", l.Count)
}

// wireRow is the kernel-to-kernel row under each latency row.
const wireRow = "(c) the same, kernel to kernel: from the guess's write to its arrival in the opponent's kernel (the load generator's own delays left out), p50 / p99 / p99.9"

// latencyRows are (c) without storms: relay latency at the fixed rates and
// at half the saturation rate, at the first count of games.
func (t *table) latencyRows() {
	g := kilo(t.res.opts.games[0])
	// a server that did not play the first count has no latency rows
	lat := func(c cell) cell {
		return measured(func(r *trResult) bool { return r.latGames > 0 }, c)
	}
	for _, rate := range t.res.opts.rates {
		series := func(pick func(latRun) load.Latency) cell {
			return lat(func(r *trResult) string {
				l, ok := r.series[rate]
				if !ok {
					return "not run (above half saturation)"
				}
				if t.isFloor(r) || t.floor == nil {
					return latCell(pick(l), nil)
				}
				if fl, ok := t.floor.series[rate]; ok {
					f := pick(fl)
					return latCell(pick(l), &f)
				}
				return latCell(pick(l), nil)
			})
		}
		t.row(fmt.Sprintf("(c) relay latency at a fixed %.0f guesses/s, %s games, p50 / p99 / p99.9", rate, g), "p99 < 2 ms",
			series(func(l latRun) load.Latency { return l.Latency }), noRatio)
		t.row(wireRow, "", series(func(l latRun) load.Latency { return l.wire }), noRatio)
	}
	t.row(fmt.Sprintf("(c) open-loop rate (half of (b) at %s games)", g), "",
		lat(func(r *trResult) string { return fmt.Sprintf("%.0f/s", r.latRate) }), noRatio)
	t.row("(c) relay latency at that rate, p50 / p99 / p99.9", "p99 < 2 ms",
		lat(func(r *trResult) string { return latCell(r.latAlone.Latency, nil) }), noRatio)
	t.row(wireRow, "", lat(func(r *trResult) string { return latCell(r.latAlone.wire, nil) }), noRatio)
}

// stormRows are (c) during the login storms: each storm, then the repeats
// of the first.
func (t *table) stormRows() {
	o := t.res.opts
	for i, what := range []string{"games at the first fixed rate", "games at half saturation"} {
		// a storm that failed on the reference server: the error once, in
		// its first row of the first storm it failed
		storm := func(f func(s stormRun) string, errRow bool) cell {
			return func(r *trResult) string {
				if r.stormErr != "" && i >= len(r.storms) {
					if errRow && i == len(r.storms) {
						return "failed: " + r.stormErr
					}
					return "failed (above)"
				}
				if t.isFloor(r) || i >= len(r.storms) {
					return "—"
				}
				return f(r.storms[i])
			}
		}
		among := o.online + i*max(o.storms, 1)*o.storm // the half-saturation storm comes after the repeats of the first
		t.row(fmt.Sprintf("(c) relay latency during %d logins among %d online, %s, p50 / p99 / p99.9", o.storm, among, what), "p99 < 2 ms",
			storm(func(s stormRun) string { return fmt.Sprintf("%s (%.0f guesses/s)", latCell(s.lat, nil), s.rate) }, true), noRatio)
		t.row(wireRow, "", storm(func(s stormRun) string { return latCell(s.wire, nil) }, false), noRatio)
		t.row("(c) that storm's duration (all logins answered); the server's loop meanwhile; the server's CPU taken by the VM's host (steal)", "",
			storm(stormServerCell, false), noRatio)
		t.row("(c) the load generator's own part in that storm: how late it sent a guess, and how long a guess waited in its kernel to be read, p50 / p99 each; how busy its one CPU was (both its processes); how much of it the VM's host took", "",
			storm(stormOwnCell, false), noRatio)
	}
	if o.storms <= 1 {
		return
	}
	reps := func(f cell) cell {
		return func(r *trResult) string {
			if t.isFloor(r) || len(r.stormReps) == 0 {
				return "—"
			}
			return f(r)
		}
	}
	var amongs []string
	for k := range o.storms {
		amongs = append(amongs, fmt.Sprint(o.online+k*o.storm))
	}
	t.row(fmt.Sprintf("(c) the first storm, run %d times in a row, %d logins each, among %s online: each storm's p99, by the client / kernel to kernel (the server's CPU's steal meanwhile, in all and at most in one window)", o.storms, o.storm, strings.Join(amongs, ", ")), "p99 < 2 ms",
		reps(func(r *trResult) string { return stormP99s(r.stormReps) }), noRatio)
	t.row("(c) the load generator's own part in each of those storms: the p99 of how late it sent a guess / of how long a guess waited in its kernel to be read (how busy its one CPU was; how much of it the VM's host took)", "",
		reps(func(r *trResult) string { return stormOwnP99s(r.stormReps) }), noRatio)
	t.row("(c) those storms' guesses together, p50 / p99 / p99.9", "p99 < 2 ms",
		reps(func(r *trResult) string { return latCell(r.stormPool.lat, nil) }), noRatio)
	t.row(wireRow, "", reps(func(r *trResult) string { return latCell(r.stormPool.wire, nil) }), noRatio)
}

// pureRow is (d): bomberd's state machine alone.
func (t *table) pureRow() {
	p := t.res.pure
	t.row("(d) pure state machine, segments per second (in + out)", "", func(r *trResult) string {
		if t.isFloor(r) || r == t.res.byTr[refName] { // bomberd's state machine, no other server's
			return "—"
		}
		return fmt.Sprintf("%.2f M/s", float64(p.in+p.out)/p.elapsed.Seconds()/1e6)
	}, noRatio)
}

// printClientCheck writes the load generator check on the floor, when it ran.
func (res *results) printClientCheck(w io.Writer) {
	if len(res.client) == 0 {
		return
	}
	fmt.Fprintf(w, "\n**The load generator on the floor** (minimal relay, %d games, open loop at %d guesses/s; the clients take turns):\n\n", checkGames, checkRate)
	fmt.Fprintf(w, "| client | p50 | p99 | p99.9 | relayed/s | of which the client's own lateness in sending, p50 / p99 |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, c := range res.client {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.0f | %s / %s |\n", c.kind, us(c.P50), us(c.P99), us(c.P999), c.achieved, us(c.late.P50), us(c.late.P99))
	}
	if v := clientVerdict(res); v != "" {
		fmt.Fprintf(w, "\n%s\n", v)
	}
}

// printConditions writes the machine, the conditions and the limits the
// bench ran with, what each other server is, and the raw counts.
func (res *results) printConditions(w io.Writer) {
	host, _ := os.Hostname()
	fmt.Fprintf(w, "\nMachine: %s, %d CPUs (%s), %s, %s. Load average before/after: %s / %s.\n",
		host, machineCPUs(), cpuModel(), kernel(), runtime.Version(), res.loadBefore, res.loadAfter)
	pin := "not pinned"
	if res.opts.pin {
		pin = "each server pinned to CPU 0, load generator to CPU 1 (taskset; GOMAXPROCS 1 each, but bomberd's reactor raises its own to 2 and then hashes one password at a time, so its loop always has a P, and the load generator raises its own to 2 for its poll loop, likewise; the storm's clients are a SCHED_IDLE process on CPU 1)"
	}
	fmt.Fprintf(w, "Conditions: %s; window %v (fixed-rate series: %v each); loopback; argon2id %s (hashing is not what is measured; the storm logs in with these); "+
		"RSS is VmRSS after a forced GC minus the RSS with no connection (base: %s); CPU is utime+stime of the server process.\n",
		pin, res.opts.window, max(res.opts.window/2, 3*time.Second), strings.Join(hashEnv, " "), baseList(res))
	fmt.Fprintf(w, "Limits this bench changes on bomberd (each would close or refuse the load generator's clients; every window fails if the server closes any player): %s; in the table games, whose daemon alone has a web listener: %s.\n",
		strings.Join(limitEnv, " "), strings.Join(webLimitEnv, " "))
	if res.byTr[floorName] != nil {
		fmt.Fprintf(w, "The floor is bench/relay (one thread, epoll, each byte read from a player written to its partner); the load generator pairs with it by game instead of logging in and inviting, and plays the same games.\n")
	}
	if res.byTr[refName] != nil {
		fmt.Fprintf(w, "The reference server is `%s`, listening at %s; its select(2) loop holds at most %d connections (BENCH_REFERENCE_MAX), so counts above that are left out for it (—); it has no Go heap, and the load generator's winner ends each game with GameOver, as its client does.\n",
			strings.Join(res.opts.reference, " "), res.opts.refAddr, res.opts.refMax)
	}
	if res.cpu != nil && slices.Contains(res.cpu.servers, baseName) {
		schema := "this build's schema"
		if res.opts.baseSchema >= 0 {
			schema = fmt.Sprintf("schema version %d (BENCH_BASELINE_SCHEMA; the users' store migrated down to it)", res.opts.baseSchema)
		}
		fmt.Fprintf(w, "The baseline is `%s` on the %s transport and %s, in the CPU rounds only, each round just before this build's.\n",
			res.opts.baseline, baseTransport(res.opts), schema)
	}
	if len(res.opts.cut) > 0 {
		fmt.Fprintf(w, "Scaled down: RLIMIT_NOFILE is %d and cannot be raised here (no CAP_SYS_RESOURCE), so counts were cut to fit one server process: %s.\n",
			res.opts.fdLimit, strings.Join(res.opts.cut, ", "))
	}
	p := res.pure
	fmt.Fprintf(w, "Pure state machine: %d in + %d out segments, %d games, in %v (2,000 users, 1,000 pairs × 10 games, replayed 3×).\n",
		p.in, p.out, p.games, p.elapsed.Round(time.Millisecond))
	for _, tr := range res.columns() {
		for _, g := range res.opts.games {
			r, ok := res.byTr[tr].games[g]
			if !ok {
				continue
			}
			fmt.Fprintf(w, "%s %s games: %d guesses relayed and %d games finished in %v; the server used %v CPU.\n",
				tr, kilo(g), r.relayed, r.games, r.elapsed.Round(time.Millisecond), r.cpu)
		}
	}
}

func baseList(res *results) string {
	var out []string
	for _, tr := range res.opts.transports {
		if res.byTr[tr] == nil {
			continue
		}
		out = append(out, fmt.Sprintf("%s %d MiB", tr, res.byTr[tr].baseRSS>>20))
	}
	return strings.Join(out, ", ")
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
		}
	}
	return "unknown CPU"
}

func kernel() string {
	b, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return "Linux " + strings.TrimSpace(string(b))
}

// kilo writes 10000 as 10k, 9900 as 9.9k and 900 as 900.
func kilo(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	if n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprintf("%.1fk", float64(n)/1000)
}

// machineCPUs counts the machine's CPUs (runtime.NumCPU sees only this
// process's affinity, one CPU once pinned).
func machineCPUs() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	n := strings.Count(string(b), "\nprocessor")
	if strings.HasPrefix(string(b), "processor") {
		n++
	}
	return max(n, runtime.NumCPU())
}

// histDiff is a cumulative histogram's counts in after and not in before.
func histDiff(after, before map[float64]float64) map[float64]float64 {
	d := map[float64]float64{}
	for le, n := range after {
		d[le] = n - before[le]
	}
	return d
}

// loopCell tells how many of the server's loop batches took longer than
// 256 µs, 1 ms and 4 ms (the histogram's bounds near the 2 ms goal), of all.
func loopCell(h map[float64]float64) string {
	if h == nil {
		return "—"
	}
	total := h[1e9]
	over := func(le float64) float64 {
		var best float64 = -1
		for b := range h {
			if b >= le*0.99 && (best < 0 || b < best) {
				best = b
			}
		}
		if best < 0 {
			return 0
		}
		return total - h[best]
	}
	return fmt.Sprintf("%.0f batches, %.0f over 256 µs, %.0f over 1 ms, %.0f over 4 ms", total, over(256e-6), over(1024e-6), over(4096e-6))
}

// clientVerdict compares the poll-loop client's median p50 with the minimal
// C client's, the load generator's goal (within 1.5×).
func clientVerdict(res *results) string {
	if res.noCClient != "" {
		return "The minimal C client did not run: " + res.noCClient + "."
	}
	p50s := map[clientKind][]time.Duration{}
	for _, c := range res.client {
		p50s[c.kind] = append(p50s[c.kind], c.P50)
	}
	poll, c := median(p50s[pollClient]), median(p50s[cClient])
	if poll == 0 || c == 0 {
		return ""
	}
	return fmt.Sprintf("The poll-loop client's median p50 is %.2f× the minimal C client's (%s against %s; goal 1.5×).", float64(poll)/float64(c), us(poll), us(c))
}

// median is the middle of xs (the mean of the two middles of an even
// count); 0 for none.
func median[T ~int64 | ~float64](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	return (s[(n-1)/2] + s[n/2]) / 2
}

// stormOwnP99s lists, for each storm, the p99 of the load generator's
// lateness in sending and in reading (what its p99 by the client has that
// the kernel-to-kernel one has not), and how busy its CPU was.
func stormOwnP99s(runs []stormRun) string {
	var parts []string
	for _, s := range runs {
		p := fmt.Sprintf("%.2f / %.2f ms", float64(s.late.P99)/1e6, float64(s.wake.P99)/1e6)
		var of []string
		if s.busy > 0 {
			of = append(of, fmt.Sprintf("CPU %.0f%%", 100*s.busy))
		}
		if s.gsteal.known {
			of = append(of, s.gsteal.short())
		}
		if len(of) > 0 {
			p += " (" + strings.Join(of, "; ") + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// stormOwnCell is the load generator's lateness in one storm, sending and
// reading, and how busy its CPU was: a storm whose guesses went out late
// measured the load generator (at half saturation on a slow machine it fell
// 146 ms behind), not the server, and one whose load generator had no CPU
// to spare (98% at half saturation, docs/performance.md) may have.
func stormOwnCell(s stormRun) string {
	cell := fmt.Sprintf("sent %s / %s late; read %s / %s late", us(s.late.P50), us(s.late.P99), us(s.wake.P50), us(s.wake.P99))
	if s.busy > 0 {
		cell += fmt.Sprintf("; its CPU %.0f%% busy", 100*s.busy)
	}
	if s.gsteal.known {
		cell += "; " + s.gsteal.String()
	}
	return cell
}

// stormServerCell is a storm's duration and the server's side of it: its
// loop's batches and its CPU's steal.
func stormServerCell(s stormRun) string {
	cell := s.took.Round(time.Millisecond).String() + "; " + loopCell(s.loop)
	if s.steal.known {
		cell += "; " + s.steal.String()
	}
	return cell
}

// stormP99s lists each storm's p99, by the client and kernel to kernel
// (with the server's CPU's steal meanwhile, when known), and says how
// many were under the goal's 2 ms each way.
func stormP99s(runs []stormRun) string {
	const goal = 2 * time.Millisecond
	var parts []string
	client, wire := 0, 0
	for _, s := range runs {
		p := fmt.Sprintf("%.2f / %.2f ms", float64(s.lat.P99)/1e6, float64(s.wire.P99)/1e6)
		if s.steal.known {
			p += " (" + s.steal.short() + ")"
		}
		parts = append(parts, p)
		if s.lat.P99 < goal {
			client++
		}
		if s.wire.P99 < goal {
			wire++
		}
	}
	return fmt.Sprintf("%s (under 2 ms: %d of %d by the client, %d of %d kernel to kernel)", strings.Join(parts, ", "), client, len(runs), wire, len(runs))
}
