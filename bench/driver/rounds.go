//go:build linux

package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/bomber-game/bomber/bench/load"
)

// The CPU rounds: server CPU per relayed guess measured as the performance
// goals state it (and as their figures were first taken): the floor and each
// server in turn, round after round, each on a fresh process, and the medians
// compared. One closed-loop window per server, minutes apart, is at the mercy
// of what else the machine does meanwhile: on the 2-CPU VM the floor's own
// figure moved from 9.5 to 20 µs between runs, and single runs put the reactor
// at 0.9-1.5× the floor. Rounds spread that drift over every server alike.

// The same rounds then measure relay latency at the fixed rates, for the
// same reason: a p99 is the 1% slowest guesses of a few seconds, and one
// disturbance of the machine's during one server's window moved single
// runs' ratios to the floor between 1.0× and 3×.

// cpuSeries is the rounds' outcome: per server, per games count, one
// figure (server CPU µs per relayed guess) per round, in the order run;
// and per server, per fixed rate, one latency run per round at latGames.
type cpuSeries struct {
	games    []int
	servers  []string
	rounds   int
	window   time.Duration
	perGame  map[string]map[int][]float64
	latGames int                             // games playing in the fixed-rate windows; 0: none measured
	perRate  map[string]map[float64][]latRun // server → rate → one run per round
	baseTr   string                          // the transport the baseline ran on
}

// roundResult is one server's part of one round.
type roundResult struct {
	cpu map[int]float64    // games → server CPU µs per relayed guess
	lat map[float64]latRun // fixed rate → latency, at the most games
}

// roundWindow is the closed-loop window of one server in one round: half
// the main window, at least 3 s (a guess's CPU is read from 10 ms ticks).
func roundWindow(o options) time.Duration { return max(o.window/2, 3*time.Second) }

// roundServers are the servers each round runs, the floor first.
func roundServers(o options) []string {
	var s []string
	if o.floor {
		s = append(s, floorName)
	}
	if len(o.reference) > 0 {
		s = append(s, refName)
	}
	if o.baseline == "" || len(o.transports) == 0 {
		return append(s, o.transports...)
	}
	// the baseline just before this build's run of the same transport
	for _, tr := range o.transports {
		if tr == baseTransport(o) {
			s = append(s, baseName)
		}
		s = append(s, tr)
	}
	return s
}

// cpuRounds runs o.rounds rounds; in each, every server is started afresh,
// plays each count of o.roundGames games in turn (more games join the
// ones playing), and has each count's closed-loop window measured.
func cpuRounds(ctx context.Context, o options, db, tmp string) (*cpuSeries, error) {
	s := &cpuSeries{games: o.roundGames, servers: roundServers(o), rounds: o.rounds, window: roundWindow(o),
		perGame: map[string]map[int][]float64{}, perRate: map[string]map[float64][]latRun{}}
	if o.baseline != "" && len(o.transports) > 0 {
		s.baseTr = baseTransport(o)
	}
	if len(o.rates) > 0 {
		s.latGames = maxOf(o.roundGames)
	}
	for _, srv := range s.servers {
		s.perGame[srv] = map[int][]float64{}
		s.perRate[srv] = map[float64][]latRun{}
	}
	for round := range o.rounds {
		for _, srv := range s.servers {
			var got roundResult
			err := retry(ctx, fmt.Sprintf("%s round %d of %d", srv, round+1, o.rounds), o.attempts, func(a int) (err error) {
				got, err = cpuRound(ctx, o, srv, db, tmp, s.window, a)
				return err
			})
			if err != nil {
				return nil, err
			}
			for g, us := range got.cpu {
				s.perGame[srv][g] = append(s.perGame[srv][g], us)
			}
			for rate, lr := range got.lat {
				s.perRate[srv][rate] = append(s.perRate[srv][rate], lr)
			}
			note("round %d of %d, %s: %s", round+1, o.rounds, srv, roundNote(s.games, got.cpu))
		}
	}
	return s, nil
}

func roundNote(games []int, got map[int]float64) string {
	var parts []string
	for _, g := range games {
		if us, ok := got[g]; ok {
			parts = append(parts, fmt.Sprintf("%d games %.2f µs", g, us))
		}
	}
	return strings.Join(parts, ", ") + " per guess"
}

// cpuRound is one server's part of a round: each games count's CPU µs per
// relayed guess, then, at the most games, each fixed rate's latency (a
// rate above half what that server relayed closed loop is left out, as in
// the main series).
func cpuRound(ctx context.Context, o options, srv, db, tmp string, window time.Duration, attempt int) (roundResult, error) {
	counts := fitting(o, srv, o.roundGames, 2)
	if len(counts) == 0 {
		return roundResult{}, nil
	}
	d, err := startServer(o, srv, db, tmp)
	if err != nil {
		return roundResult{}, err
	}
	defer d.stop()
	most := maxOf(counts)
	f := load.New(load.Config{Addr: d.addr, Sources: sources(2 * most), Concurrency: loginsAtOnce(srv, attempt), Seed: 2,
		LoginTimeout: loginTimeout(2*most, o.slow, attempt), Relay: srv == floorName})
	defer f.Close(60 * time.Second)
	out := roundResult{cpu: map[int]float64{}}
	have := 0
	var last gameResult
	for _, g := range counts {
		gr, err := playAndMeasure(ctx, d, f, srv, 2*have, g-have, g, window, last.rate/4)
		if err != nil {
			return roundResult{}, err
		}
		have = g
		out.cpu[g] = gr.cpuPerGuess
		last = gr
	}
	if have != maxOf(o.roundGames) {
		return out, nil // the reference server cannot hold the latency's games
	}
	if out.lat, err = fixedRates(f, d, srv, "the round's", o.rates, last.rate, window); err != nil {
		return roundResult{}, err
	}
	return out, nil
}

// playAndMeasure starts more games among the users from first on, so that
// g are playing, lets them warm up (until they relay at a steady rate of
// at least atLeast guesses/s: see warmUp), and measures one closed-loop
// window, which fails when the server closed a player or relayed nothing.
func playAndMeasure(ctx context.Context, d *daemon, f *load.Fleet, srv string, first, more, g int, window time.Duration, atLeast float64) (gameResult, error) {
	f.SetRate(0)
	note("%s: starting %d games", srv, more)
	if err := f.Games(ctx, first, more); err != nil {
		return gameResult{}, err
	}
	step := time.Second
	if waited, steady := warmUp(func() int64 { return f.Counters().Relayed }, step, 3*time.Minute, int64(atLeast*step.Seconds())); !steady {
		note("%s: %d games: the relay rate was still changing after %v; measuring anyway", srv, g, waited)
	} else if waited > 5*time.Second {
		note("%s: %d games: the relay rate settled after %v (the logins' presence drained)", srv, g, waited)
	}
	gr, err := saturate(d, f, window)
	if err != nil {
		return gameResult{}, err
	}
	if gr.closed > 0 {
		return gameResult{}, fmt.Errorf("%s: %d of %d games' connections were closed by the server during the window (a limit?) (log %s)", srv, gr.closed, g, d.log.Name())
	}
	if gr.peakRSS, err = peakRSS(d.pid()); err != nil {
		return gameResult{}, err
	}
	if gr.relayed == 0 {
		// A table of zeros is no measurement: the players were closed or
		// never started (see the daemon's log).
		return gameResult{}, fmt.Errorf("%d games relayed no guess in %v (log %s)", g, window, d.log.Name())
	}
	return gr, nil
}

// print writes the rounds' table: each server's median with every round's
// figure, then the goals' ratios of medians (the first transport to the
// floor, the second transport to the first).
func (s *cpuSeries) print(w io.Writer, transports []string) {
	if s == nil || s.rounds == 0 {
		return
	}
	fmt.Fprintf(w, "\n**Server CPU per relayed guess, in %d interleaved rounds** (each round starts the servers afresh, one after the other, and measures each count of games closed loop for %v; a cell is the median, then each round's figure in order; the ratios are of medians):\n\n",
		s.rounds, s.window)
	head := []string{"games"}
	for _, srv := range s.servers {
		if srv == floorName {
			srv = "minimal relay (floor)"
		}
		head = append(head, srv)
	}
	type cmp struct{ num, den, goal string }
	var cmps []cmp
	has := func(srv string) bool { return s.perGame[srv] != nil }
	if len(transports) > 0 && has(floorName) {
		cmps = append(cmps, cmp{transports[0], floorName, "goal ≤ 1.3×"})
	}
	if len(transports) > 1 {
		cmps = append(cmps, cmp{transports[1], transports[0], "goal ≥ 1.5×"})
	}
	if len(transports) > 0 && has(refName) {
		cmps = append(cmps, cmp{refName, transports[0], "the server bomberd replaces"})
	}
	if len(transports) > 0 && has(baseName) {
		cmps = append(cmps, cmp{cmpOr(s.baseTr, transports[0]), baseName, "this build against the older"})
	}
	for _, c := range cmps {
		den := c.den
		if den == floorName {
			den = "floor"
		}
		head = append(head, fmt.Sprintf("%s ÷ %s (%s)", c.num, den, c.goal))
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
	for _, g := range s.games {
		cells := []string{fmt.Sprintf("%d", g)}
		for _, srv := range s.servers {
			if len(s.perGame[srv][g]) == 0 {
				cells = append(cells, "—")
				continue
			}
			cells = append(cells, fmt.Sprintf("%.2f µs (%s)", median(s.perGame[srv][g]), joinFloats(s.perGame[srv][g])))
		}
		for _, c := range cmps {
			num, den := median(s.perGame[c.num][g]), median(s.perGame[c.den][g])
			cell := "—"
			if num > 0 && den > 0 {
				cell = fmt.Sprintf("%.2f×", num/den)
			}
			cells = append(cells, cell)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	s.printLatency(w)
}

// printLatency writes the rounds' fixed-rate latency: per rate, by the
// client and kernel to kernel, each server's median p50 and p99 with every
// round's p99, and each server's ratios of medians to the floor's (the
// goal for bomberd: within 1.5× of the floor, p50 and p99).
func (s *cpuSeries) printLatency(w io.Writer) {
	var rates []float64
	for _, byRate := range s.perRate {
		for r := range byRate {
			if !slices.Contains(rates, r) {
				rates = append(rates, r)
			}
		}
	}
	if s.latGames == 0 || len(rates) == 0 {
		return
	}
	slices.Sort(rates)
	fmt.Fprintf(w, "\n**Relay latency at fixed rates, in the same rounds** (%d games, each rate open loop for %v after that server's closed-loop windows; a cell is the median p50 / median p99 of the rounds, then each round's p99 in order; the ratios are of medians):\n\n",
		s.latGames, s.window)
	head := []string{"rate", "measured"}
	var others []string
	for _, srv := range s.servers {
		name := srv
		if srv == floorName {
			name = "minimal relay (floor)"
		} else {
			others = append(others, srv)
		}
		head = append(head, name)
	}
	_, floor := s.perRate[floorName]
	if floor {
		for _, srv := range others {
			goal := " (goal ≤ 1.5×)" // this bomberd's; the others' are comparisons
			if srv == refName || srv == baseName {
				goal = ""
			}
			head = append(head, fmt.Sprintf("%s ÷ floor, p50 / p99%s", srv, goal))
		}
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
	ways := []struct {
		name string
		of   func(latRun) load.Latency
	}{
		{"by the client", func(l latRun) load.Latency { return l.Latency }},
		{"kernel to kernel", func(l latRun) load.Latency { return l.wire }},
	}
	for _, rate := range rates {
		for _, way := range ways {
			p50s := map[string]time.Duration{}
			p99s := map[string]time.Duration{}
			cells := []string{fmt.Sprintf("%.0f/s", rate), way.name}
			for _, srv := range s.servers {
				runs := s.perRate[srv][rate]
				if len(runs) == 0 {
					cells = append(cells, "—")
					continue
				}
				var a, b []time.Duration
				for _, r := range runs {
					a = append(a, way.of(r).P50)
					b = append(b, way.of(r).P99)
				}
				p50s[srv], p99s[srv] = median(a), median(b)
				cells = append(cells, fmt.Sprintf("%s / %s (%s)", us(p50s[srv]), us(p99s[srv]), joinDurations(b)))
			}
			if floor {
				for _, srv := range others {
					cell := "—"
					if f50, f99 := p50s[floorName], p99s[floorName]; f50 > 0 && f99 > 0 && p50s[srv] > 0 {
						cell = fmt.Sprintf("%.2f× / %.2f×", float64(p50s[srv])/float64(f50), float64(p99s[srv])/float64(f99))
					}
					cells = append(cells, cell)
				}
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
}

func joinDurations(ds []time.Duration) string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d", d.Microseconds()))
	}
	return strings.Join(out, ", ") + " µs"
}

func joinFloats(xs []float64) string {
	var out []string
	for _, x := range xs {
		out = append(out, fmt.Sprintf("%.2f", x))
	}
	return strings.Join(out, ", ")
}

// warmUp waits until the games relay at a steady rate: two consecutive
// steps whose counts of relayed guesses are within 10% of each other and
// at least atLeast (per step; at least three steps, at most max), and
// reports how long that took and whether it happened. A fixed three
// seconds was enough at 1,000 games, but at 9,400 games, whose 16,800
// logins among as many users are gigabytes of presence for the one load
// generator to read, the window began before that drained and measured 45
// guesses/s, steadily; so a count after the first must also reach a
// quarter of the rate the count before it reached (the callers' atLeast).
func warmUp(relayed func() int64, step, max time.Duration, atLeast int64) (time.Duration, bool) {
	t0 := time.Now()
	prev, last := int64(-1), relayed()
	for n := 0; ; n++ {
		time.Sleep(step)
		now := relayed()
		d := now - last
		last = now
		if n >= 2 && d > 0 && d >= atLeast && prev > 0 && float64(absDiff(d, prev)) <= 0.1*float64(prev) {
			return time.Since(t0), true
		}
		prev = d
		if time.Since(t0) >= max {
			return time.Since(t0), false
		}
	}
}

func absDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}
