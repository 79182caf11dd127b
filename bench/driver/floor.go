//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/bomber-game/bomber/bench/load"
)

// latRun is one open-loop window: its rate, what it relayed and the
// latencies from each guess's intended send time.
type latRun struct {
	load.Latency
	rate     float64      // asked, guesses per second
	achieved float64      // relayed per second
	late     load.Latency // how late the load generator sent each guess
	wire     load.Latency // from each guess's write to its arrival in the opponent's kernel
	hist     *hdrhistogram.Histogram
}

// openLoop plays at rate guesses per second over all of f's games and
// records one window, after a second for the schedules to restart.
func openLoop(f *load.Fleet, rate float64, window time.Duration) (latRun, error) {
	f.SetRate(rate)
	time.Sleep(time.Second)
	f.TakeLatency()
	c0 := f.Counters()
	t0 := time.Now()
	f.Record(true)
	time.Sleep(window)
	f.Record(false)
	el := time.Since(t0)
	l := f.TakeLatencies()
	h := l.Relay
	c := f.Counters().Sub(c0)
	if c.Closed > 0 {
		return latRun{}, fmt.Errorf("%d connections closed by the server during the window", c.Closed)
	}
	if c.Relayed == 0 {
		return latRun{}, fmt.Errorf("nothing relayed in %v", window)
	}
	return latRun{Latency: load.Summarise(h), late: load.Summarise(l.Late), wire: load.Summarise(l.Wire), rate: rate, achieved: float64(c.Relayed) / el.Seconds(), hist: h}, nil
}

// fixedRates plays each of rates on f's games in turn (openLoop), but a
// rate above half the server's saturation rate, which is left out and
// said so: what's latency below saturation is the comparison. what names
// the series in the notes.
func fixedRates(f *load.Fleet, d *daemon, srv, what string, rates []float64, saturation float64, window time.Duration) (map[float64]latRun, error) {
	out := map[float64]latRun{}
	for _, rate := range rates {
		if rate > saturation/2 {
			note("%s: %s %.0f/s series left out: above half the saturation rate %.0f/s", srv, what, rate, saturation)
			continue
		}
		lr, err := openLoop(f, rate, window)
		if err != nil {
			return nil, fmt.Errorf("%s at %.0f/s: %w (log %s)", srv, rate, err, d.log.Name())
		}
		out[rate] = lr
		note("%s: %s open loop %.0f/s: p50 %v p99 %v; kernel to kernel p50 %v p99 %v", srv, what, rate, lr.P50, lr.P99, lr.wire.P50, lr.wire.P99)
	}
	return out, nil
}

// clientKind is which client measured the relay in the load generator check.
type clientKind uint8

const (
	pollClient      clientKind = iota // the load generator's poll loops
	goroutineClient                   // the load generator's goroutine per connection, as before the poll loops
	cClient                           // the minimal C client (cclient/cclient.c)
)

func (k clientKind) String() string {
	switch k {
	case goroutineClient:
		return "goroutine-per-connection client"
	case cClient:
		return "minimal C client"
	}
	return "poll-loop client"
}

// clientRun is one client measuring the relay.
type clientRun struct {
	kind clientKind
	latRun
}

// The load generator check: what the client itself adds, measured on the
// floor. 100 games at 13,700 guesses/s is where a minimal C client was
// first measured at p50 0.09 ms.
const (
	checkGames = 100
	checkRate  = 13700
)

// clientCheck drives a fresh relay with the minimal C client, the
// poll-loop client and the goroutine-per-connection client, in turn, twice
// each. Without a C compiler the C client's turns are left out, and
// res.noCClient says why.
func clientCheck(ctx context.Context, o options, tmp string, res *results) error {
	d, err := startRelay(serverCPU(o), tmp)
	if err != nil {
		return err
	}
	defer d.stop()
	res.client, res.noCClient = nil, ""
	cbin, err := buildCClient(ctx, d.dir)
	if err != nil {
		if !errors.Is(err, errNoCompiler) {
			return fmt.Errorf("load generator check: %w", err)
		}
		res.noCClient = err.Error()
		note("load generator check without the C client: %v", err)
	}
	window := max(o.window/2, 3*time.Second)
	for round := range 6 {
		kind := []clientKind{cClient, pollClient, goroutineClient}[round%3]
		if kind == cClient {
			if cbin == "" {
				continue
			}
			// the same warm-up as the Go clients' below: a second after the
			// games start, and one more for the schedules
			lr, err := runCClient(ctx, cbin, d.addr, fmt.Sprintf("c%d-", round), checkGames, checkRate, 2*time.Second, window)
			if err != nil {
				return fmt.Errorf("load generator check: %w", err)
			}
			res.client = append(res.client, clientRun{kind, lr})
			note("load generator check, %s: %+v", kind, lr.Latency)
			continue
		}
		f := load.New(load.Config{Addr: d.addr, Relay: true, Goroutines: kind == goroutineClient, Seed: uint64(10 + round), LoginTimeout: time.Minute})
		err := f.Games(ctx, 0, checkGames)
		if err == nil {
			time.Sleep(time.Second)
			var lr latRun
			lr, err = openLoop(f, checkRate, window)
			res.client = append(res.client, clientRun{kind, lr})
			note("load generator check, %s: %+v", kind, lr.Latency)
		}
		f.Close(30 * time.Second)
		if err != nil {
			return fmt.Errorf("load generator check: %w", err)
		}
	}
	return nil
}
