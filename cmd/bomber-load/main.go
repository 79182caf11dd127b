// Command bomber-load is the Bomber load generator: simulated clients on
// loopback that log in and idle, or play whole games closed-loop (each
// guess answered at once) or open-loop at a fixed total rate, with relay
// latency recorded in an HdrHistogram from each guess's intended send time.
//
//	bomber-load --addr 127.0.0.1:20343 --games 1000 --duration 30s
//	bomber-load --games 1000 --rate 50000 --idle 5000 --storm 1000
//	bomber-load --ws ws://127.0.0.1:20380/ws --games 100 --pid $(pidof bomberd)
//	bomber-load --relay --addr 127.0.0.1:20999 --games 100 --rate 13700
//	bomber-load --addr 10.0.0.1:20343,10.0.0.2:20343,10.0.0.3:20343 --games 300
//
// Users are u000000, u000001, ... with password 123 (bench/driver creates
// them); games use the first 2×games names, idle clients the next ones.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/bomber-game/bomber/bench/load"
	"github.com/bomber-game/bomber/cmd/internal/cli"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bomber-load", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:20343", "bomberd address; a cluster's nodes comma-separated (users round-robin, so a game's two players are on different nodes)")
	wsURL := fs.String("ws", "", "connect through the WebSocket gateway at this URL (ws://host:20380/ws) instead of --addr")
	pid := fs.Int("pid", 0, "bomberd's process id: also report its CPU per relayed guess over the window (Linux)")
	games := fs.Int("games", 100, "concurrent games (2 clients each)")
	idle := fs.Int("idle", 0, "idle logged-in clients besides the players")
	storm := fs.Int("storm", 0, "clients that log in all at once halfway through the run")
	rate := fs.Float64("rate", 0, "open loop: guesses per second over all games (0: closed loop)")
	duration := fs.Duration("duration", 10*time.Second, "measurement window (at most 1h)")
	warmup := fs.Duration("warmup", 2*time.Second, "play before measuring")
	sources := fs.StringSlice("source", []string{"127.0.0.1"}, "local source addresses, round-robin (one per ~28k connections)")
	password := fs.String("password", "123", "every user's password")
	conc := fs.Int("concurrency", 256, "logins in flight at once")
	seed := fs.Uint64("seed", 1, "boards and guess orders")
	goroutines := fs.Bool("goroutines", false, "play each connection on its own goroutine (the old client, to compare) instead of poll loops")
	relay := fs.Bool("relay", false, "the server is the minimal relay (bomber-bench relay): pair by game, no login or invitations")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage: bomber-load [flags]\n\nSimulated Bomber clients against a running bomberd (users u000000... with\npassword 123, as bench/driver creates them).\n\nFlags:")
		cli.Defaults(fs, w)
	}
	if done, code := cli.Parse(fs, args, stdout, stderr, usage); done {
		return code
	}
	if fs.NArg() > 0 {
		return cli.Fail(stderr, "bomber-load", fmt.Sprintf("unexpected argument %q", fs.Arg(0)), usage)
	}
	if *duration <= 0 || *duration > time.Hour || *games < 0 || *idle < 0 || *storm < 0 {
		fmt.Fprintln(stderr, "bomber-load: duration must be in (0, 1h] and counts >= 0")
		return 2
	}
	if *relay && (*idle > 0 || *storm > 0 || *wsURL != "") {
		fmt.Fprintln(stderr, "bomber-load: --relay plays games only (no --idle, --storm or --ws)")
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *warmup+*duration+10*time.Minute)
	defer cancel()
	var addrs []string
	if strings.Contains(*addr, ",") {
		addrs = strings.Split(*addr, ",")
	}
	f := load.New(load.Config{Addr: *addr, Addrs: addrs, WS: *wsURL, Sources: *sources, Password: *password, Concurrency: *conc, Seed: *seed, Relay: *relay, Goroutines: *goroutines})
	defer f.Close(30 * time.Second)
	t0 := time.Now()
	if err := f.Games(ctx, 0, *games); err != nil {
		fmt.Fprintln(stderr, "bomber-load:", err)
		return 1
	}
	if *idle > 0 {
		if err := f.Idle(ctx, 2**games, *idle, 0); err != nil {
			fmt.Fprintln(stderr, "bomber-load:", err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "%d clients logged in after %v\n", 2**games+*idle, time.Since(t0).Round(time.Millisecond))
	f.SetRate(*rate)
	time.Sleep(*warmup)
	f.TakeLatency()
	f.Record(true)
	c0, m0 := f.Counters(), time.Now()
	cpu0, cpuErr := cpuTime(*pid)
	stormDone := make(chan error, 1)
	go func() {
		if *storm == 0 {
			stormDone <- nil
			return
		}
		time.Sleep(*duration / 2)
		s0 := time.Now()
		err := f.Idle(ctx, 2**games+*idle, *storm, *storm)
		fmt.Fprintf(stderr, "storm of %d logins answered in %v\n", *storm, time.Since(s0).Round(time.Millisecond))
		stormDone <- err
	}()
	time.Sleep(*duration)
	if err := <-stormDone; err != nil {
		fmt.Fprintln(stderr, "bomber-load: storm:", err)
		return 1
	}
	f.Record(false)
	el := time.Since(m0)
	c := f.Counters().Sub(c0)
	cpu1, err := cpuTime(*pid)
	if cpuErr == nil {
		cpuErr = err
	}
	lats := f.TakeLatencies()
	l := load.Summarise(lats.Relay)
	mode := "closed loop"
	if *rate > 0 {
		mode = fmt.Sprintf("open loop at %.0f/s", *rate)
	}
	via := "TCP"
	if *wsURL != "" {
		via = "WebSocket"
	}
	fmt.Fprintf(stdout, "%s, %s, %d games, %v: %d relayed guesses (%.0f/s), %d games finished\n", via, mode, *games, el.Round(time.Millisecond), c.Relayed, float64(c.Relayed)/el.Seconds(), c.Games)
	fmt.Fprintf(stdout, "relay latency from intended send: p50 %v  p99 %v  p99.9 %v  max %v  (n=%d)\n",
		l.P50, l.P99, l.P999, l.Max, l.Count)
	if late := load.Summarise(lats.Late); late.Count > 0 {
		fmt.Fprintf(stdout, "of which the load generator's own lateness in sending: p50 %v  p99 %v  max %v\n", late.P50, late.P99, late.Max)
	}
	switch {
	case *pid == 0:
	case cpuErr != nil:
		fmt.Fprintln(stderr, "bomber-load: server CPU:", cpuErr)
	case c.Relayed > 0:
		cpu := cpu1 - cpu0
		fmt.Fprintf(stdout, "server CPU: %v over the window (%.0f%% of a CPU), %.2f µs per relayed guess\n",
			cpu, 100*cpu.Seconds()/el.Seconds(), float64(cpu.Microseconds())/float64(c.Relayed))
	}
	return 0
}

// cpuTime is the user and system CPU time of process pid so far, from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 10 ms).
func cpuTime(pid int) (time.Duration, error) {
	if pid == 0 {
		return 0, nil
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // fields from 3 on
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("parsing /proc/%d/stat", pid)
	}
	return time.Duration(ut+st) * 10 * time.Millisecond, nil
}
