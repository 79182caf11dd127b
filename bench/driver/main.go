//go:build linux

// Command driver is `make bench`: it starts bomberd once per transport
// (epoll reactor, net package), drives it with the load generator (package
// bench/load) and prints one markdown table with both transports side by
// side and the project's performance goals (docs/performance.md):
//
//	(a) server RSS per idle logged-in connection at 10k and 50k connections
//	    (BENCH_HEAP_PROFILE=FILE saves bomberd's heap profile after each
//	    count, in FILE.TRANSPORT.COUNT);
//	(b) relayed guesses per second and server CPU per relayed guess, 1k and 10k games;
//	(c) p50/p99/p99.9 relay latency (from the client's clock and, kernel
//	    to kernel, from the sockets' timestamps) at half the saturation rate, alone,
//	    and during storms of 1,000 logins (BENCH_STORM, 0 for none) among
//	    10,000 online users (BENCH_STORM_ONLINE), first at the first fixed rate, then at half
//	    the saturation rate; the storm's users are another process
//	    (`bomber-bench storm`, storm.go), and BENCH_STORM_PROFILE=FILE saves
//	    a CPU profile of bomberd during the first storm (an execution
//	    trace when FILE ends in .trace: `go tool trace -pprof=sched` then
//	    shows what the loop waited for; what it allocated when FILE ends
//	    in .allocs), BENCH_STORM_HOOK=COMMAND runs a
//	    shell command as it begins (e.g. `perf sched record -a -- sleep 3`);
//	(d) segments per second through the pure state machine.
//
// Around those: the minimal relay of bench/relay runs the same
// games first and every bomberd figure it also has is printed as a ratio
// to it; open-loop latency at fixed rates (BENCH_RATES, default
// 2000,5000,13700 guesses/s) on every server; a check of the load generator
// itself on the relay (poll-loop against goroutine client); the five table
// games of the extended protocol (BENCH_TABLES tables at once, default 20;
// 0 skips), through the TCP port and through the WebSocket gateway, beside
// the fan-out floor with the same recipients per move (fanout.go); an SVG of the latency percentiles (BENCH_SVG, default
// docs/bench-latency.svg; empty for none); and, with BENCH_REFERENCE (its
// command line) and BENCH_REFERENCE_ADDR, the reference C++ server, at
// the counts of every phase that fit BENCH_REFERENCE_MAX connections (1,000).
// BENCH_NO_FLOOR=1 and BENCH_NO_CLIENT_CHECK=1 leave those out. Then
// server CPU per relayed guess again, in BENCH_ROUNDS interleaved rounds
// (default 3; 0 skips them) at BENCH_ROUND_GAMES (default 100,1000), with
// the medians and their ratios, and in the same rounds the fixed-rate
// latency at the most of those games (rounds.go). BENCH_BASELINE (an older
// bomberd binary) adds it to every round, on its transport, just
// before this build's, and the table gives this build's figure as a ratio
// to it: before and after a change, measured interleaved in one run.
// BENCH_BASELINE_SCHEMA is the schema version that build runs on (its
// `bomberctl check-schema` says), when older than this build's: the users'
// store is migrated down to it for the baseline.
// BENCH_BASELINE runs on the net transport when the run measures it (the
// goal it is for), and without the flags its --help does not list. Last,
// the goals summary (goals.go): each goal's figure, range, target and
// PASS, FAIL or SKIPPED with why.
// `bomber-bench relay ADDR` runs the relay alone (for bomber-load --relay);
// `bomber-bench fanout ADDR` the fan-out floor.
//
// On a machine with two or more CPUs the daemon is pinned to CPU 0 and the
// driver with its clients to CPU 1 (taskset), so each gets GOMAXPROCS=1
// (the load generator's poll loop raises its own to 2: bench/load).
// Environment: BENCH_QUICK=1 (10k idle, 1k games only), BENCH_IDLE,
// BENCH_GAMES (comma-separated counts), BENCH_WINDOW (measurement window,
// default 10s), BENCH_TRANSPORTS (default "reactor,net"), BENCH_BOMBERD
// (default bin/bomberd), BENCH_NO_PIN=1, BENCH_ATTEMPTS (tries per phase,
// default 3), BENCH_TIMEOUT_SCALE (multiplies every login timeout).
//
// On a loaded machine logins can take long: each phase's login timeout
// grows with the number of connections and the load average per CPU, and a
// phase that fails is run again on a fresh daemon (at most BENCH_ATTEMPTS
// times) with twice the timeout and half the concurrent logins. A failed
// run keeps its temporary folder (the daemons' logs and the store) and says
// where it is.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bomber-game/bomber/bench/load"
)

// options are the scale of one run.
type options struct {
	idle       []int
	games      []int
	storm      int // logins at once in each storm (BENCH_STORM; 0: no storm)
	storms     int // how many times the first storm is run (BENCH_STORMS), one after the other
	online     int // users online when the storm begins, the players included (BENCH_STORM_ONLINE)
	window     time.Duration
	transports []string
	bomberd    string
	pin        bool
	fdLimit    int       // RLIMIT_NOFILE when it could not be raised
	cut        []string  // counts lowered to fit fdLimit
	attempts   int       // tries per phase
	slow       float64   // login timeouts are multiplied by this (load, BENCH_TIMEOUT_SCALE)
	floor      bool      // run the minimal relay too and print ratios to it
	rates      []float64 // the fixed open-loop rates of the latency series
	clientCmp  bool      // compare the poll-loop client with the goroutine client on the relay
	reference  []string  // the reference server's command line (BENCH_REFERENCE), none: not run
	refAddr    string    // where it listens
	refMax     int       // connections the reference server can hold (BENCH_REFERENCE_MAX)
	tables     int       // tables per game in the table-game phase; 0 skips it
	svg        string    // where the latency plot goes; "" none
	rounds     int       // interleaved CPU rounds (BENCH_ROUNDS); 0 skips them
	roundGames []int     // the games counts each round measures (BENCH_ROUND_GAMES)
	baseline   string    // an older bomberd the rounds measure too (BENCH_BASELINE); "" none
	baseSchema int64     // the schema version it runs on (BENCH_BASELINE_SCHEMA); -1 this build's
	baseDB     string    // the users' store at that version, made by run
}

// loginTimeout is how long one login may take with n connections being
// made, on a machine slow times slower than an idle one, at the given
// attempt (0 first): 60 s plus 5 ms per connection, times slow, doubled at
// each attempt.
func loginTimeout(n int, slow float64, attempt int) time.Duration {
	base := 60*time.Second + time.Duration(n)*5*time.Millisecond
	return time.Duration(float64(base) * max(slow, 1) * float64(int64(1)<<min(attempt, 4)))
}

// concurrency is how many logins are in flight at once: 512, halved at each
// attempt (a loaded machine answers fewer at once in time), at least 32.
func concurrency(attempt int) int { return max(512>>min(attempt, 4), 32) }

// loginsAtOnce is concurrency on server srv. The reference server listens
// with a backlog of 10 and accepts one connection per turn of its select(2)
// loop, which its debug output makes slower with every client: 512 logins
// at once lost some of 900 there, so it gets a few at a time.
func loginsAtOnce(srv string, attempt int) int {
	if srv == refName {
		return 8
	}
	return concurrency(attempt)
}

// slowness is the load average per CPU (at least 1): how much slower than
// an idle machine the logins may be answered.
func slowness() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 1
	}
	l, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 1
	}
	return max(1, l/float64(max(machineCPUs(), 1)))
}

// retry runs phase until it succeeds, at most attempts times, each on a
// fresh start (the phase starts its own daemon); it gives up at once when
// ctx ends.
func retry(ctx context.Context, what string, attempts int, phase func(attempt int) error) error {
	var err error
	for a := range max(attempts, 1) {
		if err = phase(a); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			break
		}
		if a+1 < attempts {
			note("%s failed (attempt %d of %d): %v; trying again on a fresh daemon with a longer login timeout and fewer logins at once", what, a+1, attempts, err)
		}
	}
	return fmt.Errorf("%s failed after %d attempt(s): %w", what, max(attempts, 1), err)
}

// capCounts lowers every count above max to max (rounded down to 100).
func capCounts(xs []int, max int, cut *[]string) []int {
	max -= max % 100
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		if x > max {
			*cut = append(*cut, fmt.Sprintf("%d→%d", x, max))
			x = max
		}
		if len(out) == 0 || out[len(out)-1] != x {
			out = append(out, x)
		}
	}
	return out
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "storm" {
		if err := stormMain(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "bench storm:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 3 && (os.Args[1] == "relay" || os.Args[1] == "fanout") {
		// `bomber-bench relay ADDR`: the floor as its own process, so the
		// driver can pin it and read its CPU time like bomberd's;
		// `bomber-bench fanout ADDR`: the fan-out floor, likewise
		if err := serveRelay(os.Args[2], os.Args[1] == "fanout"); err != nil {
			fmt.Fprintln(os.Stderr, "bench relay:", err)
			os.Exit(1)
		}
		return
	}
	o := readOptions()
	if o.pin && os.Getenv("BENCH_PINNED") == "" {
		if ts, err := exec.LookPath("taskset"); err == nil {
			// re-run pinned to CPU 1; the daemon gets CPU 0
			cmd := exec.Command(ts, append([]string{"-c", "1", os.Args[0]}, os.Args[1:]...)...)
			cmd.Env = append(os.Environ(), "BENCH_PINNED=1")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			if err := cmd.Run(); err != nil {
				os.Exit(1)
			}
			return
		}
		o.pin = false
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func readOptions() options {
	o := options{idle: []int{10000, 50000}, games: []int{1000, 10000}, storm: 1000, online: 10000, window: 10 * time.Second,
		transports: []string{"reactor", "net"}, bomberd: "bin/bomberd", pin: machineCPUs() >= 2 && os.Getenv("BENCH_NO_PIN") == ""}
	if os.Getenv("BENCH_QUICK") == "1" {
		o.idle, o.games = []int{10000}, []int{1000}
	}
	ints := func(s string) []int {
		var out []int
		for _, f := range strings.Split(s, ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
				out = append(out, n)
			}
		}
		return out
	}
	if v := os.Getenv("BENCH_IDLE"); v != "" {
		o.idle = ints(v)
	}
	if v, err := strconv.Atoi(os.Getenv("BENCH_STORM")); err == nil && v >= 0 {
		o.storm = v
	}
	o.storms = 3
	if v, err := strconv.Atoi(os.Getenv("BENCH_STORMS")); err == nil && v > 0 {
		o.storms = v
	}
	if v, err := strconv.Atoi(os.Getenv("BENCH_STORM_ONLINE")); err == nil && v >= 0 {
		o.online = v
	}
	if v := os.Getenv("BENCH_GAMES"); v != "" {
		o.games = ints(v)
	}
	if v, err := time.ParseDuration(os.Getenv("BENCH_WINDOW")); err == nil && v > 0 {
		o.window = v
	}
	if v := os.Getenv("BENCH_TRANSPORTS"); v != "" {
		o.transports = strings.Split(v, ",")
	}
	if v := os.Getenv("BENCH_BOMBERD"); v != "" {
		o.bomberd = v
	}
	o.attempts = 3
	if v, err := strconv.Atoi(os.Getenv("BENCH_ATTEMPTS")); err == nil && v > 0 {
		o.attempts = v
	}
	o.floor = os.Getenv("BENCH_NO_FLOOR") == ""
	o.rates = []float64{2000, 5000, 13700}
	if v := os.Getenv("BENCH_RATES"); v != "" {
		o.rates = nil
		for _, f := range strings.Split(v, ",") {
			if r, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err == nil && r > 0 {
				o.rates = append(o.rates, r)
			}
		}
	}
	o.clientCmp = o.floor && os.Getenv("BENCH_NO_CLIENT_CHECK") == ""
	if v := os.Getenv("BENCH_REFERENCE"); v != "" {
		o.reference = strings.Fields(v)
		o.refAddr = cmpOr(os.Getenv("BENCH_REFERENCE_ADDR"), "127.0.0.1:20343")
		// select(2) watches descriptors below FD_SETSIZE (1,024) only, and
		// the server holds a few of its own
		o.refMax = 1000
		if v, err := strconv.Atoi(os.Getenv("BENCH_REFERENCE_MAX")); err == nil && v > 0 {
			o.refMax = v
		}
	}
	o.rounds, o.roundGames = 3, []int{100, 1000}
	if v, err := strconv.Atoi(os.Getenv("BENCH_ROUNDS")); err == nil && v >= 0 {
		o.rounds = v
	}
	if v := os.Getenv("BENCH_ROUND_GAMES"); v != "" {
		o.roundGames = ints(v)
	}
	o.baseline, o.baseSchema = os.Getenv("BENCH_BASELINE"), -1
	if v, err := strconv.ParseInt(os.Getenv("BENCH_BASELINE_SCHEMA"), 10, 64); err == nil && v >= 0 {
		o.baseSchema = v
	}
	o.tables = 20
	if v, err := strconv.Atoi(os.Getenv("BENCH_TABLES")); err == nil && v >= 0 {
		o.tables = v
	}
	o.svg = "docs/bench-latency.svg"
	if _, err := os.Stat("docs"); err != nil {
		o.svg = "bench-latency.svg"
	}
	if v, ok := os.LookupEnv("BENCH_SVG"); ok {
		o.svg = v
	}
	o.slow = slowness()
	if v, err := strconv.ParseFloat(os.Getenv("BENCH_TIMEOUT_SCALE"), 64); err == nil && v > 0 {
		o.slow *= v
	}
	return o
}

// progress notes go to stderr; the table goes to stdout.
func note(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s  "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// run is the whole benchmark. A failed run keeps its temporary folder and
// its error says where.
func run(o options) (err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	if _, err := os.Stat(o.bomberd); err != nil {
		return fmt.Errorf("%s: %w (go build -o bin/bomberd ./cmd/bomberd)", o.bomberd, err)
	}
	if abs, err := filepath.Abs(o.bomberd); err == nil {
		o.bomberd = abs
	}
	// Both processes need a descriptor per connection. Raising the hard
	// limit needs CAP_SYS_RESOURCE; without it, counts above the limit are
	// cut to what fits and the table says so.
	var lim syscall.Rlimit
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: 400000, Max: 400000}); err != nil {
		syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
		lim.Cur = lim.Max
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
		fit := int(lim.Max) - 200
		note("cannot raise RLIMIT_NOFILE above %d (%v): at most %d connections", lim.Max, err, fit)
		o.fdLimit = int(lim.Max)
		o.idle = capCounts(o.idle, fit, &o.cut)
		o.games = capCounts(o.games, (fit-o.storm)/2, &o.cut)
	}
	tmp, err := os.MkdirTemp("", "bomber-bench-")
	if err != nil {
		return err
	}
	defer func() {
		if err == nil {
			os.RemoveAll(tmp)
			return
		}
		err = fmt.Errorf("%w\nthe logs of the failed run are kept in %s (bomberd-*/bomberd.log, one per daemon started); delete the folder when done", err, tmp)
	}()
	if o.slow > 1 {
		note("load average %.1f per CPU: login timeouts are %.1f times longer", o.slow, o.slow)
	}
	up, _ := os.ReadFile("/proc/loadavg")
	res := results{byTr: map[string]*trResult{}, loadBefore: strings.TrimSpace(string(up)), opts: o}

	need := maxOf(o.idle)
	if len(o.games) > 0 {
		// the games' players, the users online before the storms, the
		// first storm and its repeats, and the storm at half saturation
		need = max(need, 2*maxOf(o.games)+max(o.online-2*o.games[0], 0)+(max(o.storms, 1)+1)*o.storm)
	}
	if o.tables > 0 {
		need = max(need, tableUsers(o.tables))
	}
	if o.rounds > 0 {
		need = max(need, 2*maxOf(o.roundGames))
	}
	note("creating %d users", need)
	t0 := time.Now()
	db, err := makeUsers(ctx, tmp, need)
	if err != nil {
		return err
	}
	note("users created in %v", time.Since(t0).Round(time.Millisecond))

	if o.clientCmp {
		if err := retry(ctx, "load generator check", o.attempts, func(int) error { return clientCheck(ctx, o, tmp, &res) }); err != nil {
			return err
		}
	}
	if o.floor {
		r := newTrResult()
		res.byTr[floorName] = r
		if err := retry(ctx, "relay games phase", o.attempts, func(a int) error { return gamePhase(ctx, o, floorName, db, tmp, r, a) }); err != nil {
			return err
		}
	}
	if len(o.reference) > 0 {
		r := newTrResult()
		res.byTr[refName] = r
		if err := retry(ctx, "reference idle phase", o.attempts, func(a int) error { return idlePhase(ctx, o, refName, db, tmp, r, a) }); err != nil {
			return err
		}
		if err := retry(ctx, "reference games phase", o.attempts, func(a int) error { return gamePhase(ctx, o, refName, db, tmp, r, a) }); err != nil {
			return err
		}
	}
	for _, tr := range o.transports {
		r := newTrResult()
		res.byTr[tr] = r
		if err := retry(ctx, tr+" idle phase", o.attempts, func(a int) error { return idlePhase(ctx, o, tr, db, tmp, r, a) }); err != nil {
			return err
		}
		if err := retry(ctx, tr+" games phase", o.attempts, func(a int) error { return gamePhase(ctx, o, tr, db, tmp, r, a) }); err != nil {
			return err
		}
	}
	if o.rounds > 0 && len(o.roundGames) > 0 {
		if o.baseline != "" {
			if o.baseDB, err = baselineStore(ctx, db, tmp, o.baseSchema); err != nil {
				return err
			}
		}
		if res.cpu, err = cpuRounds(ctx, o, db, tmp); err != nil {
			return err
		}
	}
	if o.tables > 0 && len(o.transports) > 0 {
		tr := o.transports[0]
		if err := retry(ctx, tr+" table games phase", o.attempts, func(int) error { return tableGames(ctx, o, tr, db, tmp, &res) }); err != nil {
			return err
		}
	}
	note("pure state machine: building the transcript")
	ev := transcript(2000, 10, 1)
	res.pure = replayPure(ev, 2000, 3)
	note("pure state machine: %d segments in, %d out, %d games in %v", res.pure.in, res.pure.out, res.pure.games, res.pure.elapsed)
	note("the hub's memory per table: go test ./statemachine -bench TableMemory")
	if res.tableMem, err = tableMemory(ctx); err != nil {
		res.tableMemErr, err = err.Error(), nil
	}
	up, _ = os.ReadFile("/proc/loadavg")
	res.loadAfter = strings.TrimSpace(string(up))
	res.print(os.Stdout)
	res.printGoals(os.Stdout)
	if o.svg != "" {
		if err := writePlot(o.svg, &res); err != nil {
			return err
		}
		note("latency plot written to %s", o.svg)
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// The pseudo-transports beside bomberd's: the floor, the reference server,
// and an older bomberd (on the first transport) in the rounds.
const (
	floorName = "relay"
	refName   = "reference"
	baseName  = "baseline"
)

func newTrResult() *trResult {
	return &trResult{idleRSS: map[int]float64{}, idleGo: map[int]float64{}, idlePeak: map[int]int64{}, games: map[int]gameResult{}, series: map[float64]latRun{}}
}

// startServer starts what gamePhase drives: bomberd with transport tr, the
// relay, or the reference server.
func startServer(o options, tr, db, tmp string) (*daemon, error) {
	switch tr {
	case floorName:
		return startRelay(serverCPU(o), tmp)
	case refName:
		return startReference(o.reference, o.refAddr, serverCPU(o), tmp)
	case baseName:
		return startDaemon(o.baseline, baseName, baseTransport(o), o.baseDB, serverCPU(o), tmp, false)
	}
	return startDaemon(o.bomberd, tr, tr, db, serverCPU(o), tmp, false)
}

// baseTransport is the transport the baseline runs on in the rounds: net
// when this run measures it (the goal the baseline is for is the net
// transport's cost against an older build), else the first.
func baseTransport(o options) string {
	if slices.Contains(o.transports, "net") {
		return "net"
	}
	return o.transports[0]
}

func maxOf(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// sources are enough 127.0.0.x addresses for n connections, 20k per address
// (the ephemeral range holds about 28k ports).
func sources(n int) []string {
	var out []string
	for i := 0; i == 0 || i*20000 < n; i++ {
		out = append(out, fmt.Sprintf("127.0.0.%d", i+1))
	}
	return out
}

func serverCPU(o options) int {
	if o.pin {
		return 0
	}
	return -1
}

// generatorCPU is the load generator's CPU when pinned, else -1.
func generatorCPU(o options) int {
	if o.pin {
		return 1
	}
	return -1
}

// idlePhase: RSS per idle logged-in connection at each count in o.idle.
// The reference server is not bomberd: it has no heap to collect or read.
func idlePhase(ctx context.Context, o options, tr, db, tmp string, r *trResult, attempt int) error {
	counts := fitting(o, tr, o.idle, 1)
	if len(counts) == 0 {
		return nil
	}
	d, err := startServer(o, tr, db, tmp)
	if err != nil {
		return err
	}
	defer d.stop()
	isGo := tr != refName
	time.Sleep(time.Second)
	if isGo {
		d.gc(ctx)
	}
	time.Sleep(2 * time.Second)
	base, err := rss(d.pid())
	if err != nil {
		return err
	}
	r.baseRSS = base
	var goBase int64
	if isGo {
		if goBase, err = d.goMemory(ctx); err != nil {
			return err
		}
	}
	f := load.New(load.Config{Addr: d.addr, Sources: sources(maxOf(counts)), Concurrency: loginsAtOnce(tr, attempt), Seed: 1,
		LoginTimeout: loginTimeout(maxOf(counts), o.slow, attempt)})
	defer f.Close(60 * time.Second)
	have := 0
	for _, n := range counts {
		t0 := time.Now()
		note("%s: logging in %d idle connections (%d so far)", tr, n-have, have)
		if err := f.Idle(ctx, have, n-have, 0); err != nil {
			return err
		}
		have = n
		settle(500*time.Millisecond, 5*time.Minute, d.pid())
		if err := stillOnline(f, fmt.Sprintf("%d idle clients", n)); err != nil {
			return err
		}
		note("%s: %d logged in and settled after %v", tr, n, time.Since(t0).Round(time.Millisecond))
		peak, err := peakRSS(d.pid())
		if err != nil {
			return err
		}
		r.idlePeak[n] = peak
		if isGo {
			d.gc(ctx)
		}
		time.Sleep(3 * time.Second)
		m, err := rss(d.pid())
		if err != nil {
			return err
		}
		r.idleRSS[n] = float64(m-base) / float64(n)
		if !isGo {
			note("%s: RSS %d MiB (base %d MiB): %.0f bytes per connection", tr, m>>20, base>>20, r.idleRSS[n])
			continue
		}
		g, err := d.goMemory(ctx)
		if err != nil {
			return err
		}
		r.idleGo[n] = float64(g-goBase) / float64(n)
		note("%s: RSS %d MiB (base %d MiB): %.0f bytes per connection; Go heap+stacks %.0f bytes per connection", tr, m>>20, base>>20, r.idleRSS[n], r.idleGo[n])
		if path := os.Getenv("BENCH_HEAP_PROFILE"); path != "" {
			if err := d.heapProfile(ctx, fmt.Sprintf("%s.%s.%d", path, tr, n)); err != nil {
				note("heap profile: %v", err)
			}
		}
	}
	return nil
}

// stillOnline fails when the server has disconnected any of f's logged-in
// clients: a figure per idle connection, or a storm among so many online,
// would then be of fewer connections than it says.
func stillOnline(f *load.Fleet, what string) error {
	if n := f.Counters().Closed; n > 0 {
		return fmt.Errorf("%d of the %s were disconnected by the server (its log says why)", n, what)
	}
	return nil
}

// gamePhase: throughput and CPU per guess for each count in o.games, and
// the latency runs on the first count.
func gamePhase(ctx context.Context, o options, tr, db, tmp string, r *trResult, attempt int) error {
	counts := fitting(o, tr, o.games, 2)
	if len(counts) == 0 {
		return nil
	}
	d, err := startServer(o, tr, db, tmp)
	if err != nil {
		return err
	}
	defer d.stop()
	storm := o.storm
	if tr == floorName {
		storm = 0 // the relay has no login to storm
	}
	if need := stormConns(o, counts[0]); tr == refName && storm > 0 && need > o.refMax {
		note("%s: no storm: it would need %d connections, the reference server holds %d (BENCH_STORM, BENCH_STORM_ONLINE, BENCH_STORMS)", tr, need, o.refMax)
		storm = 0
	}
	f := load.New(load.Config{Addr: d.addr, Sources: sources(2*maxOf(counts) + storm), Concurrency: loginsAtOnce(tr, attempt), Seed: 2,
		LoginTimeout: loginTimeout(2*maxOf(counts)+storm, o.slow, attempt), Relay: tr == floorName})
	defer f.Close(60 * time.Second)
	next, have := 0, 0
	var prev gameResult // the count before's: a later count warms up to a quarter of its rate
	for i, g := range counts {
		gr, err := playAndMeasure(ctx, d, f, tr, next, g-have, g, o.window, prev.rate/4)
		if err != nil {
			return err
		}
		next += 2 * (g - have)
		have = g
		prev = gr
		r.games[g] = gr
		note("%s: %d games: %.0f guesses/s, %.2f µs server CPU per guess (server %.0f%% CPU)", tr, g, gr.rate, gr.cpuPerGuess, gr.cpuShare*100)
		if i > 0 || g != o.games[0] {
			continue // the table's latency rows are at the first count
		}
		// latency at fixed rates well below saturation (the same for every
		// server, so they compare), then at half the saturation rate, alone
		// and during a login storm
		r.latGames = g
		if r.series, err = fixedRates(f, d, tr, "the", o.rates, gr.rate, max(o.window/2, 3*time.Second)); err != nil {
			return err
		}
		r.latRate = gr.rate / 2
		lr, err := openLoop(f, r.latRate, o.window)
		if err != nil {
			return fmt.Errorf("%s at half saturation: %w (log %s)", tr, err, d.log.Name())
		}
		r.latAlone = lr
		note("%s: open loop %.0f/s: %+v; kernel to kernel %+v", tr, r.latRate, lr.Latency, lr.wire)
		if storm > 0 {
			err := storms(ctx, o, tr, d, f, g, &next, r, attempt)
			if err != nil && tr == refName {
				// what the server it replaces does in a storm is a
				// finding for its cell, not a failed run: its backlog
				// of 10 drops logins (see loginsAtOnce)
				note("%s: storm failed: %v; the rest of its counts are left out (it may not survive the storm's clients leaving; the CPU rounds measure them on a fresh one)", tr, err)
				r.stormErr = err.Error()
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// fitting are the counts of counts (each perConn connections) that server
// tr can hold: all of them but on the reference server, whose select(2)
// loop holds o.refMax.
func fitting(o options, tr string, counts []int, perConn int) []int {
	if tr != refName {
		return counts
	}
	var out, left []int
	for _, n := range counts {
		if n*perConn <= o.refMax {
			out = append(out, n)
		} else {
			left = append(left, n)
		}
	}
	if len(left) > 0 {
		note("%s: leaving out %v: over the %d connections it holds (select(2); BENCH_REFERENCE_MAX)", tr, left, o.refMax)
	}
	return out
}

// stormConns is how many connections the storms on g games hold at their
// last: the users online before them (the players among them) and every
// storm's users, who stay online.
func stormConns(o options, g int) int {
	return max(o.online, 2*g) + (max(o.storms, 1)+1)*o.storm
}

// saturate measures closed-loop relaying over one window.
func saturate(d *daemon, f *load.Fleet, window time.Duration) (gameResult, error) {
	c0 := f.Counters()
	t0 := time.Now()
	k0, err := cpuTicks(d.pid())
	if err != nil {
		return gameResult{}, err
	}
	time.Sleep(window)
	k1, err := cpuTicks(d.pid())
	if err != nil {
		return gameResult{}, err
	}
	el := time.Since(t0)
	c := f.Counters().Sub(c0)
	cpu := time.Duration(k1-k0) * clockTick
	gr := gameResult{relayed: c.Relayed, games: c.Games, cpu: cpu, elapsed: el, closed: c.Closed}
	gr.rate = float64(c.Relayed) / el.Seconds()
	if c.Relayed > 0 {
		gr.cpuPerGuess = float64(cpu.Microseconds()) / float64(c.Relayed)
	}
	gr.cpuShare = cpu.Seconds() / el.Seconds()
	return gr, nil
}
