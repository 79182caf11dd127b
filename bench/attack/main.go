//go:build linux

// Command bomber-attack runs the hardening attack set against one bomberd
// on loopback and measures, during each attack, what honest users notice:
// a witness logging in every 500 ms (login latency and failures), a pair
// of reference-protocol players relaying guesses at a steady rate (relay
// latency), and for the lock-out attack the attacked user logging in with
// the right password. It samples bomberd's RSS and open descriptors every
// 250 ms, says whether each attack's aim was defeated, and prints one
// Markdown table. It exits non-zero when an attack's aim succeeds or a
// witness login fails.
//
// bomberd runs from a built binary (make attacks builds bin/bomberd and
// this program) on the embedded store, under a 1,024-descriptor limit,
// with its game, web and admin listeners on loopback and the default
// limits: the defences under test.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/bomber-game/bomber/bench/load"
)

// options are the runner's flags.
type options struct {
	bin      string        // bomberd's binary
	duration time.Duration // each attack's length
	only     []string      // the attacks to run (their keys); none: all
	keep     bool          // keep bomberd's folder (its log) after the run
}

// result is one attack's row.
type result struct {
	key, name string
	aim       string // what was checked, and what came of it
	defeated  bool   // the attack's aim failed
	witness   *logins
	owner     *logins // the lock-out attack's attacked user; nil elsewhere
	relay     load.Latency
	relayLost int64 // relay witness connections the server closed
	use       usage
}

// witnessesOK reports whether every witness login succeeded (and there
// was at least one).
func (r *result) witnessesOK() bool {
	ok := r.witness.total() > 0 && r.witness.ok() == r.witness.total()
	if r.owner != nil {
		ok = ok && r.owner.total() > 0 && r.owner.ok() == r.owner.total()
	}
	return ok
}

func main() {
	var o options
	var only string
	flag.StringVar(&o.bin, "bomberd", "bin/bomberd", "the bomberd binary under attack")
	flag.DurationVar(&o.duration, "duration", envDuration("BOMBER_ATTACK_DURATION", 15*time.Second), "how long each attack runs (env BOMBER_ATTACK_DURATION)")
	flag.StringVar(&only, "only", "", "comma-separated attack keys to run (default all: "+strings.Join(keys(), ",")+")")
	flag.BoolVar(&o.keep, "keep", false, "keep bomberd's folder and log")
	flag.Parse()
	if only != "" {
		o.only = strings.Split(only, ",")
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	start := time.Now()
	res, err := runSet(ctx, o, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bomber-attack:", err)
		os.Exit(1)
	}
	printTable(os.Stdout, res, o.duration)
	fmt.Printf("\nWhole run: %s.\n", time.Since(start).Round(time.Second))
	for _, r := range res {
		if !r.defeated || !r.witnessesOK() {
			os.Exit(1)
		}
	}
}

func envDuration(key string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(key)); err == nil && d > 0 {
		return d
	}
	return def
}

// runSet starts bomberd and runs the attacks one after the other, each
// for o.duration with the witnesses, logging progress to logw.
func runSet(ctx context.Context, o options, logw io.Writer) ([]result, error) {
	for _, k := range o.only {
		if !slices.Contains(keys(), k) {
			return nil, fmt.Errorf("no attack %q (known: %s)", k, strings.Join(keys(), ","))
		}
	}
	dir, err := os.MkdirTemp("", "bomber-attack-")
	if err != nil {
		return nil, err
	}
	if !o.keep {
		defer os.RemoveAll(dir)
	}
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return nil, err
	}
	d, err := startDaemon(ctx, bin, dir, allUsers())
	if err != nil {
		return nil, err
	}
	defer d.stop()
	s := startSampler(d.pid())
	defer s.close()
	env := &attackEnv{d: d, dur: o.duration, ws: "ws://" + d.web + "/ws"}
	// the lock-out's owner has logged in from its usual address before
	if _, err := loginOnce(ctx, d.game, witnessSource, ownerName, password); err != nil {
		return nil, fmt.Errorf("the owner's first login: %w", err)
	}
	fleet := load.New(load.Config{Addr: d.game, Sources: []string{witnessSource}, LoginTimeout: 10 * time.Second, Seed: 1})
	defer fleet.Close(5 * time.Second)
	if err := fleet.Games(ctx, 0, 1); err != nil {
		return nil, fmt.Errorf("the relay witness: %w", err)
	}
	fleet.SetRate(relayRate)
	fleet.Record(true)
	env.base = fdCount(d.pid())
	var out []result
	for _, a := range attacks {
		if len(o.only) > 0 && !slices.Contains(o.only, a.key) {
			continue
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		dur := max(o.duration, a.atLeast)
		fmt.Fprintf(logw, "attack %s: %s (%s)\n", a.key, a.name, dur)
		r := result{key: a.key, name: a.name, witness: &logins{}}
		fleet.TakeLatency()
		lost0 := fleet.Counters().Closed
		s.take()
		actx, cancel := context.WithTimeout(ctx, dur)
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			loginEvery(actx, d.game, witnessSource, witnessName, 500*time.Millisecond, r.witness)
		}()
		a.run(actx, env, &r)
		cancel()
		wg.Wait()
		r.use = s.take()
		r.relay = load.Summarise(fleet.TakeLatency())
		r.relayLost = fleet.Counters().Closed - lost0
		fmt.Fprintf(logw, "  aim defeated: %v: %s\n", r.defeated, r.aim)
		for _, f := range r.witness.failures {
			fmt.Fprintf(logw, "  witness login failed: %s\n", f)
		}
		if r.owner != nil {
			for _, f := range r.owner.failures {
				fmt.Fprintf(logw, "  owner login failed: %s\n", f)
			}
		}
		out = append(out, r)
		env.settle(ctx)
	}
	return out, nil
}

// relayRate is the relay witness's guesses a second (one game).
const relayRate = 10

// witnessSource is the honest users' address; attackers come from others.
const witnessSource = "127.0.0.1"

// The witnesses' users.
const (
	witnessName = "witness"
	ownerName   = "owner"
)

// allUsers is every account the attacks and witnesses log in as.
func allUsers() []string {
	users := []string{witnessName, ownerName, load.Name(0), load.Name(1)}
	for _, a := range attacks {
		users = append(users, a.users...)
	}
	return users
}

func keys() []string {
	var ks []string
	for _, a := range attacks {
		ks = append(ks, a.key)
	}
	return ks
}

// printTable writes the results as one Markdown table.
func printTable(w io.Writer, res []result, dur time.Duration) {
	fmt.Fprintf(w, "Each attack ran %s (the never-readers at least 6 s) against one bomberd (RLIMIT_NOFILE %d, default limits); witnesses: a login every 500 ms, a game relaying %d guesses/s.\n\n", dur, nofile, relayRate)
	fmt.Fprintln(w, "| attack | attack's aim defeated? | witness logins ok/total, p50/p99 (max) | relay p50/p99 | max RSS | max fds |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range res {
		verdict := "**no**"
		if r.defeated {
			verdict = "yes"
		}
		p50, p99, mx := r.witness.quantiles()
		logins := fmt.Sprintf("%d/%d, %s/%s (%s)", r.witness.ok(), r.witness.total(), ms(p50), ms(p99), ms(mx))
		if r.owner != nil {
			o50, o99, _ := r.owner.quantiles()
			logins += fmt.Sprintf("; owner %d/%d, %s/%s", r.owner.ok(), r.owner.total(), ms(o50), ms(o99))
		}
		relay := fmt.Sprintf("%s/%s", ms(r.relay.P50), ms(r.relay.P99))
		if r.relay.Count == 0 {
			relay = "none relayed"
		}
		if r.relayLost > 0 {
			relay += fmt.Sprintf(" (%d closed)", r.relayLost)
		}
		fmt.Fprintf(w, "| %s | %s: %s | %s | %s | %s (HWM %s) | %d |\n", r.name, verdict, r.aim, logins, relay,
			mib(r.use.rss), mib(r.use.hwm), r.use.fds)
	}
}

func ms(d time.Duration) string {
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.0f ms", float64(d)/1e6)
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }
