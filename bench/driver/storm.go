//go:build linux

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bomber-game/bomber/bench/load"
)

// The login storm's clients run in a process of their own (this program's
// "storm" command), not in the load generator that measures the games:
// thousands of idle clients reading user lists and notices would take the
// measuring process's Ps for tens of milliseconds at a time, and the relay
// latency would be the load generator's, not the server's. Two processes
// on one CPU are scheduled by the kernel, which, the storm's being
// SCHED_IDLE (startStorm), runs the measuring threads the moment they wake.
//
//	bomber-bench storm ADDR FIRST ONLINE N TIMEOUT
//
// logs in users FIRST .. FIRST+ONLINE-1 as idle clients and prints
// "online"; at each line on its standard input it logs in the next N all
// at once and prints "storm NANOSECONDS" when every one is answered (or
// "error ..."); everyone stays online until its standard input closes.
func stormMain(args []string) error {
	if len(args) != 5 && len(args) != 6 {
		return fmt.Errorf("usage: storm ADDR FIRST ONLINE N TIMEOUT [AT_ONCE]")
	}
	var n [3]int
	for i := range n {
		v, err := strconv.Atoi(args[1+i])
		if err != nil {
			return err
		}
		n[i] = v
	}
	first, online, storm := n[0], n[1], n[2]
	timeout, err := time.ParseDuration(args[4])
	if err != nil {
		return err
	}
	atOnce := 512 // the ONLINE users' logins at once (the storm's are all at once)
	if len(args) == 6 {
		if atOnce, err = strconv.Atoi(args[5]); err != nil || atOnce < 1 {
			return fmt.Errorf("AT_ONCE %q: want a positive count", args[5])
		}
	}
	// source addresses of its own (127.0.1.x), so its thousands of
	// connections take no ephemeral port the load generator needs
	var src []string
	for i := 0; i == 0 || i*20000 < online+2*storm; i++ {
		src = append(src, fmt.Sprintf("127.0.1.%d", i+1))
	}
	f := load.New(load.Config{Addr: args[0], Sources: src, Concurrency: 512, Seed: 3, LoginTimeout: timeout})
	defer f.Close(30 * time.Second)
	ctx := context.Background()
	if online > 0 {
		if err := logInAll(ctx, f, first, online, atOnce); err != nil {
			fmt.Printf("error %v\n", err)
			return nil
		}
	}
	fmt.Println("online")
	in := bufio.NewScanner(os.Stdin)
	for next := first + online; in.Scan(); next += storm {
		t0 := time.Now()
		if err := logInAll(ctx, f, next, storm, storm); err != nil {
			fmt.Printf("error %v\n", err)
			continue
		}
		fmt.Printf("storm %d\n", time.Since(t0).Nanoseconds())
	}
	return nil
}

// logInAll logs in users first .. first+n-1 as idle clients and fails if
// the server has disconnected any of the fleet's clients by then.
func logInAll(ctx context.Context, f *load.Fleet, first, n, atOnce int) error {
	if err := f.Idle(ctx, first, n, atOnce); err != nil {
		return err
	}
	return stillOnline(f, "users the storm process logged in")
}

// stormer is a running storm process.
type stormer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// genTicks is the CPU time, in clock ticks, that the load generator's two
// processes (this one, which measures, and the storm's) have used: both
// share one CPU, and a storm in which it was busy all the time measured
// the load generator as much as the server.
func (st *stormer) genTicks() (int64, error) {
	self, err := cpuTicks(os.Getpid())
	if err != nil {
		return 0, err
	}
	storm, err := cpuTicks(st.cmd.Process.Pid)
	return self + storm, err
}

// startStorm starts the storm process and waits until its ONLINE users are
// logged in.
func startStorm(addr string, first, online, storm, atOnce int, timeout time.Duration) (*stormer, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{self, "storm", addr, strconv.Itoa(first), strconv.Itoa(online), strconv.Itoa(storm), timeout.String(), strconv.Itoa(atOnce)}
	// The storm's clients stand for other people's machines: on the load
	// generator's CPU they run only when the measuring clients do not need
	// it. At nice 19 they still did, once running: a storm thread that had
	// the CPU kept it for its slice, up to 4 ms, while a thread of the
	// measuring process waited (perf sched). A SCHED_IDLE thread gives the
	// CPU up the moment an ordinary one wakes.
	if chrt, err := exec.LookPath("chrt"); err == nil {
		args = append([]string{chrt, "--idle", "0"}, args...)
	} else if nice, err := exec.LookPath("nice"); err == nil {
		args = append([]string{nice, "-n", "19"}, args...)
	}
	s := &stormer{cmd: exec.Command(args[0], args[1:]...)}
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	s.cmd.Stderr = os.Stderr
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.out = bufio.NewScanner(out)
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	if line, err := s.line(); err != nil || line != "online" {
		s.stop()
		return nil, fmt.Errorf("logging in %d users before the storm: %v%s", online, err, strings.TrimPrefix(line, "error"))
	}
	return s, nil
}

// line is the process's next line of output.
func (s *stormer) line() (string, error) {
	if !s.out.Scan() {
		if err := s.out.Err(); err != nil {
			return "", err
		}
		return "", io.ErrUnexpectedEOF
	}
	return s.out.Text(), nil
}

// run has the storm happen and returns how long it took to answer every login.
func (s *stormer) run() (time.Duration, error) {
	if _, err := io.WriteString(s.in, "go\n"); err != nil {
		return 0, err
	}
	line, err := s.line()
	if err != nil {
		return 0, err
	}
	ns, ok := strings.CutPrefix(line, "storm ")
	if !ok {
		return 0, fmt.Errorf("%s", line)
	}
	d, err := strconv.ParseInt(ns, 10, 64)
	return time.Duration(d), err
}

// stop ends the process (its clients go offline). A process that does not
// exit is killed; one that has not gone even then (seen once: waited on
// for minutes after SIGKILL, which hung the whole bench) is reported with
// its kernel state and left behind, and the bench goes on.
func (s *stormer) stop() {
	s.in.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-time.After(40 * time.Second):
	}
	err := s.cmd.Process.Kill()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		pid := s.cmd.Process.Pid
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		stack, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stack", pid))
		note("storm process %d still there 10 s after SIGKILL (kill: %v); left behind:\n%s%s", pid, err, status, stack)
	}
}

// stormRun is one login storm measured.
type stormRun struct {
	rate   float64 // the games' open-loop rate meanwhile (guesses/s)
	online int     // users online when it began
	took   time.Duration
	lat    load.Latency
	wire   load.Latency        // from each guess's write to its arrival in the opponent's kernel
	late   load.Latency        // how late the load generator sent each guess
	wake   load.Latency        // from each guess's arrival in the opponent's kernel to its reading
	loop   map[float64]float64 // the server's loop batches, cumulative by upper bound (s)
	busy   float64             // the load generator's CPU time meanwhile (both its processes) per second; 0 unknown
	steal  stolen              // the server's CPU taken by the VM's host meanwhile
	gsteal stolen              // the load generator's CPU taken by the host meanwhile
}

// storms brings the users online to o.online (the g games' players
// included) and has o.storm more log in at once, o.storms times in a row
// while the games relay at the first fixed rate (well below saturation:
// neither the server nor the load generator, which shares its CPU with the
// storm's process, is short of CPU, so what the latency shows is whether
// game traffic waits behind presence), then once more at half the
// saturation rate. One storm's p99 is its 20th-60th slowest guess, which
// one pause of the machine's decides, so the table gives each storm's p99
// and all their guesses together. The repeats keep the users already
// online (each storm is among 1,000 more than the last): taking the last
// storm's users offline first would bury the games under their offline
// notices (a 2,000-player load generator then reads 20,000 notices per
// player, and the guesses queue behind them in each player's stream).
func storms(ctx context.Context, o options, tr string, d *daemon, f *load.Fleet, g int, next *int, r *trResult, attempt int) error {
	online := max(o.online-2*g, 0)
	reps := max(o.storms, 1)
	note("%s: %d more users log in before the storm", tr, online)
	st, err := startStorm(d.addr, *next, online, o.storm, loginsAtOnce(tr, attempt), loginTimeout(online+o.storm, o.slow, attempt))
	if err != nil {
		return fmt.Errorf("%w (log %s)", err, d.log.Name())
	}
	defer st.stop() // its users go offline before the next count of games
	*next += online
	first := r.latRate // the first storm's rate: the first fixed one, if below half saturation
	if len(o.rates) > 0 && o.rates[0] < r.latRate {
		first = o.rates[0]
	}
	var plan []float64
	for range reps {
		plan = append(plan, first)
	}
	if first != r.latRate {
		plan = append(plan, r.latRate)
	}
	var pool load.Latencies
	for i, rate := range plan {
		if i > 0 && i < reps {
			time.Sleep(2 * time.Second) // the last storm's notices reach everyone
		}
		run, l, err := oneStorm(ctx, o, tr, d, f, st, rate, 2*g+online+i*o.storm, i == 0)
		if err != nil {
			return err
		}
		*next += o.storm
		if i == 0 || i == reps {
			r.storms = append(r.storms, run) // the table's first storm and the one at half saturation
		}
		if i >= reps {
			break // not a repeat of the first
		}
		r.stormReps = append(r.stormReps, run)
		if pool.Relay == nil {
			pool = l
		} else {
			pool.Relay.Merge(l.Relay)
			pool.Wire.Merge(l.Wire)
		}
	}
	if pool.Relay != nil {
		r.stormPool = stormRun{lat: load.Summarise(pool.Relay), wire: load.Summarise(pool.Wire)}
	}
	return nil
}

// oneStorm has st's next o.storm users log in at once while the games
// relay at rate, and measures the games meanwhile; first runs the storm
// profile and hook, if asked for.
func oneStorm(ctx context.Context, o options, tr string, d *daemon, f *load.Fleet, st *stormer, rate float64, online int, first bool) (stormRun, load.Latencies, error) {
	f.SetRate(rate)
	time.Sleep(time.Second)
	f.TakeLatency()
	run := stormRun{rate: rate, online: online}
	before, herr := d.loopHistogram(ctx)
	if path := os.Getenv("BENCH_STORM_PROFILE"); path != "" && first {
		go func() {
			if err := d.cpuProfile(ctx, 3, path); err != nil {
				note("storm profile: %v", err)
			}
		}()
	}
	var hook *exec.Cmd
	if h := os.Getenv("BENCH_STORM_HOOK"); h != "" && first {
		hook = exec.Command("sh", "-c", h)
		hook.Stdout, hook.Stderr = os.Stderr, os.Stderr
		if err := hook.Start(); err != nil {
			note("storm hook: %v", err)
			hook = nil
		}
		time.Sleep(300 * time.Millisecond) // a recorder (perf) takes this long to start; it sees no output of its own to wait on
	}
	gen0, genErr := st.genTicks()
	t0 := time.Now()
	steal, gsteal := watchSteal(serverCPU(o)), watchSteal(generatorCPU(o))
	f.Record(true)
	took, err := st.run()
	if hook != nil {
		if err := hook.Wait(); err != nil {
			note("storm hook: %v", err)
		}
	}
	time.Sleep(200 * time.Millisecond) // the notices of the last logins
	f.Record(false)
	run.steal, run.gsteal = steal.end(), gsteal.end()
	if gen1, err := st.genTicks(); genErr == nil && err == nil {
		run.busy = float64(gen1-gen0) * float64(clockTick) / float64(time.Since(t0))
	}
	if err != nil {
		return run, load.Latencies{}, fmt.Errorf("login storm: %w", err)
	}
	if after, aerr := d.loopHistogram(ctx); herr == nil && aerr == nil {
		run.loop = histDiff(after, before)
	}
	l := f.TakeLatencies()
	run.took, run.lat, run.wire = took, load.Summarise(l.Relay), load.Summarise(l.Wire)
	run.late, run.wake = load.Summarise(l.Late), load.Summarise(l.Wake)
	note("%s: %d logins among %d at %.0f guesses/s (%v): %+v; kernel to kernel %+v; sent late %+v; read late %+v; the server's loop: %s; server: %s; load generator: %s", tr, o.storm, run.online, rate, took.Round(time.Millisecond), run.lat, run.wire, run.late, run.wake, loopCell(run.loop), run.steal, run.gsteal)
	return run, l, nil
}
