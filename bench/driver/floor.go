package main

import (
	"context"
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

// clientRun is the load generator measuring the relay with one of its
// two clients.
type clientRun struct {
	goroutines bool
	latRun
}

// The load generator check: what the client itself adds, measured on the
// floor. 100 games at 13,700 guesses/s is where the issue measured a
// minimal C client at p50 0.09 ms.
const (
	checkGames = 100
	checkRate  = 13700
)

// clientCheck drives a fresh relay with the poll-loop client and with the
// goroutine-per-connection client, alternately, twice each.
func clientCheck(ctx context.Context, o options, tmp string, res *results) error {
	d, err := startRelay(serverCPU(o), tmp)
	if err != nil {
		return err
	}
	defer d.stop()
	res.client = nil
	for round := range 4 {
		gor := round%2 == 1
		f := load.New(load.Config{Addr: d.addr, Relay: true, Goroutines: gor, Seed: uint64(10 + round), LoginTimeout: time.Minute})
		err := f.Games(ctx, 0, checkGames)
		if err == nil {
			time.Sleep(time.Second)
			var lr latRun
			lr, err = openLoop(f, checkRate, max(o.window/2, 3*time.Second))
			res.client = append(res.client, clientRun{gor, lr})
			note("load generator check, %s client: %+v", clientName(gor), lr.Latency)
		}
		f.Close(30 * time.Second)
		if err != nil {
			return fmt.Errorf("load generator check: %w", err)
		}
	}
	return nil
}

func clientName(goroutines bool) string {
	if goroutines {
		return "goroutine-per-connection"
	}
	return "poll-loop"
}
