package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
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
}

// trResult is everything measured on one transport.
type trResult struct {
	baseRSS   int64
	idleRSS   map[int]float64 // connections → bytes of RSS per connection
	idleGo    map[int]float64 // connections → bytes of Go heap and stacks in use per connection
	games     map[int]gameResult
	latGames  int
	latRate   float64
	latAlone  load.Latency
	latStorm  load.Latency
	stormTook time.Duration
}

type results struct {
	opts                  options
	byTr                  map[string]*trResult
	pure                  pureResult
	loadBefore, loadAfter string
}

func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond)) }

// print writes the comparison table and the conditions it was measured in.
func (res *results) print(w io.Writer) {
	trs := res.opts.transports
	row := func(what, goal string, cell func(r *trResult) string, ratio func(a, b *trResult) string) {
		cells := []string{what, goal}
		for _, tr := range trs {
			cells = append(cells, cell(res.byTr[tr]))
		}
		if len(trs) == 2 {
			cells = append(cells, ratio(res.byTr[trs[0]], res.byTr[trs[1]]))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	head := []string{"measurement", "goal"}
	head = append(head, trs...)
	if len(trs) == 2 {
		head = append(head, trs[1]+" ÷ "+trs[0])
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
	none := func(a, b *trResult) string { return "" }
	for _, n := range res.opts.idle {
		row(fmt.Sprintf("(a) RSS per idle logged-in connection, %s connections", kilo(n)), "≤ 2 KiB; reactor 4× better",
			func(r *trResult) string { return fmt.Sprintf("%.2f KiB", r.idleRSS[n]/1024) },
			func(a, b *trResult) string { return fmt.Sprintf("%.1f×", b.idleRSS[n]/a.idleRSS[n]) })
		row(fmt.Sprintf("(a) Go heap + stacks in use per idle logged-in connection, %s connections", kilo(n)), "",
			func(r *trResult) string { return fmt.Sprintf("%.2f KiB", r.idleGo[n]/1024) },
			func(a, b *trResult) string { return fmt.Sprintf("%.1f×", b.idleGo[n]/a.idleGo[n]) })
	}
	for _, g := range res.opts.games {
		row(fmt.Sprintf("(b) relayed guesses per second, %s games (closed loop)", kilo(g)), "≥ 500,000",
			func(r *trResult) string { return fmt.Sprintf("%.0f", r.games[g].rate) },
			func(a, b *trResult) string { return fmt.Sprintf("%.2f×", b.games[g].rate/a.games[g].rate) })
		row(fmt.Sprintf("(b) server CPU per relayed guess, %s games", kilo(g)), "≤ 2 µs; reactor 2× better",
			func(r *trResult) string {
				return fmt.Sprintf("%.2f µs (server at %.0f%% of a CPU)", r.games[g].cpuPerGuess, r.games[g].cpuShare*100)
			},
			func(a, b *trResult) string {
				return fmt.Sprintf("%.1f×", b.games[g].cpuPerGuess/a.games[g].cpuPerGuess)
			})
	}
	if len(res.opts.games) > 0 {
		row(fmt.Sprintf("(c) open-loop rate (half of (b) at %s games)", kilo(res.opts.games[0])), "",
			func(r *trResult) string { return fmt.Sprintf("%.0f/s", r.latRate) }, none)
		lat := func(name string, get func(r *trResult) load.Latency) {
			row(name+" p50 / p99 / p99.9", "p99 < 2 ms",
				func(r *trResult) string {
					l := get(r)
					return fmt.Sprintf("%s / %s / %s (n=%d)", us(l.P50), us(l.P99), us(l.P999), l.Count)
				}, none)
		}
		lat("(c) relay latency, alone,", func(r *trResult) load.Latency { return r.latAlone })
		if res.opts.storm > 0 {
			lat(fmt.Sprintf("(c) relay latency during %d logins,", res.opts.storm), func(r *trResult) load.Latency { return r.latStorm })
			row("(c) the storm's duration (all logins answered)", "", func(r *trResult) string { return r.stormTook.Round(time.Millisecond).String() }, none)
		}
	}
	p := res.pure
	row("(d) pure state machine, segments per second (in + out)", "", func(*trResult) string {
		return fmt.Sprintf("%.2f M/s", float64(p.in+p.out)/p.elapsed.Seconds()/1e6)
	}, none)
	host, _ := os.Hostname()
	fmt.Fprintf(w, "\nMachine: %s, %d CPUs (%s), %s, %s. Load average before/after: %s / %s.\n",
		host, machineCPUs(), cpuModel(), kernel(), runtime.Version(), res.loadBefore, res.loadAfter)
	pin := "not pinned"
	if res.opts.pin {
		pin = "bomberd pinned to CPU 0, load generator to CPU 1 (taskset; GOMAXPROCS 1 each)"
	}
	fmt.Fprintf(w, "Conditions: %s; window %v; loopback; argon2id %s (hashing is not what is measured; the storm logs in with these); "+
		"RSS is VmRSS after a forced GC minus the RSS with no connection (base: %s); CPU is utime+stime of bomberd.\n",
		pin, res.opts.window, strings.Join(hashEnv, " "), baseList(res))
	if len(res.opts.cut) > 0 {
		fmt.Fprintf(w, "Scaled down: RLIMIT_NOFILE is %d and cannot be raised here (no CAP_SYS_RESOURCE), so counts were cut to fit one server process: %s.\n",
			res.opts.fdLimit, strings.Join(res.opts.cut, ", "))
	}
	fmt.Fprintf(w, "Pure state machine: %d in + %d out segments, %d games, in %v (2,000 users, 1,000 pairs × 10 games, replayed 3×).\n",
		p.in, p.out, p.games, p.elapsed.Round(time.Millisecond))
	for _, tr := range trs {
		for _, g := range res.opts.games {
			r := res.byTr[tr].games[g]
			fmt.Fprintf(w, "%s %s games: %d guesses relayed and %d games finished in %v; bomberd used %v CPU.\n",
				tr, kilo(g), r.relayed, r.games, r.elapsed.Round(time.Millisecond), r.cpu)
		}
	}
}

func baseList(res *results) string {
	var out []string
	for _, tr := range res.opts.transports {
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

// kilo writes 10000 as 10k and 9900 as 9.9k.
func kilo(n int) string {
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
